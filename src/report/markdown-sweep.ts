import type { ScoringComparison } from '../costs/alternative.js';
import type { CostSweepResult } from '../costs/sweep.js';
import type { SweepUncertainty } from '../costs/uncertainty.js';
import { markdownDocument, markdownLevel, markdownTable, markdownText, markdownWarnings } from './markdown.js';
import { formatNumber, formatPercent } from './table.js';

/** A point on the swept axis: up to 6 significant digits, ∞ spelled as such. */
const show = (x: number) => (x === Infinity ? '∞' : x === -Infinity ? '−∞' : Number.isNaN(x) ? 'NaN' : String(Number(x.toPrecision(6))));
const cost = (x: number) => x.toFixed(3);
const ranking = (models: readonly string[]) => models.map(markdownText).join(' < ');

/**
 * The sweep's verdict in one Markdown line: `data` when no accepted exchange rate changes the
 * ranking (the data pick the winner), `assumption` when one does (the exchange rate decides).
 * @example sweepVerdictMarkdown(sweep) // => "✅ **Verdict: data.** No crossing inside the accepted band [4, 20] of the fabrication cost: the ranking a < b (lowest cost first) holds across it."
 */
export function sweepVerdictMarkdown(sweep: CostSweepResult): string {
  const band = `[${formatNumber(sweep.band[0])}, ${formatNumber(sweep.band[1])}]`;
  if (sweep.verdict === 'data') {
    const inBand = sweep.intervals.find((i) => i.overlapsBand)?.ranking ?? sweep.ranking;
    return `✅ **Verdict: data.** No crossing inside the accepted band ${band} of the ${sweep.vary} cost: the ranking ${ranking(inBand)} (lowest cost first) holds across it.`;
  }
  const named = sweep.crossingsInBand.map((c) => `${markdownText(c.models[0])}/${markdownText(c.models[1])} at ${show(c.value)}`).join(', ');
  return `⚠️ **Verdict: assumption.** Inside the accepted band ${band} of the ${sweep.vary} cost the ranking changes (${named}): the exchange rate decides, not the data.`;
}

/**
 * A cost sweep in GitHub-flavoured Markdown: the verdict line, the ranking at the policy's costs
 * (cost per document, recall, precision, hallucination rate with Wilson intervals), the points
 * where two models' costs cross, the bootstrap over documents when given, and who owns the
 * policy. A pure function of its inputs.
 * @param sweep what costSweep returned.
 * @param uncertainty what sweepUncertainty returned, or null when the bootstrap was skipped.
 * @param alternative compareScorings of a second scoring of the same outputs, with that scoring's
 *   verdict, or null: one line says whether the ranking and the verdict survive it.
 * @returns the document, ending in a newline.
 * @example sweepMarkdown(costSweep(tallyOutcomes(table), policy), null)
 */
export function sweepMarkdown(sweep: CostSweepResult, uncertainty: SweepUncertainty | null = null, alternative: (ScoringComparison & { verdict: 'data' | 'assumption' }) | null = null): string {
  const r = sweep;
  const pct = (x: number) => formatPercent(x);
  const rate = (x: { estimate: number; confidenceInterval: [number, number] }) => `${pct(x.estimate)} [${pct(x.confidenceInterval[0])}, ${pct(x.confidenceInterval[1])}]`;
  const lines = [sweepVerdictMarkdown(r), ''];
  lines.push(
    markdownTable(
      ['rank', 'model', 'cost/doc', 'recall', 'precision', 'hallucination'],
      r.costs.map((c, k) => [String(k + 1), markdownText(c.model), cost(c.costPerDocument), rate(c.rates.recall), rate(c.rates.precision), rate(c.rates.hallucinationRate)]),
      ['right', 'left', 'right', 'right', 'right', 'right'],
    ),
  );
  if (r.crossings.length > 0) {
    lines.push('');
    for (const c of r.crossings) {
      const interval = uncertainty?.crossings.find((x) => x.models[0] === c.models[0] && x.models[1] === c.models[1]);
      const ci = interval ? `; ${markdownLevel(uncertainty!.confidenceLevel)} interval [${show(interval.confidenceInterval[0])}, ${show(interval.confidenceInterval[1])}]` : '';
      lines.push(`- ${markdownText(c.models[0])} and ${markdownText(c.models[1])} tie at ${r.vary} = ${show(c.value)}: ${markdownText(c.cheaperBelow)} cheaper below, ${markdownText(c.cheaperAbove)} above${c.inBand ? ' (**inside the band**)' : ''}${ci}`);
    }
  }
  if (uncertainty) {
    const u = uncertainty;
    lines.push('', `${markdownText(u.leader)} is strictly the cheapest at the policy's costs in ${pct(u.leaderAheadProbability)} of ${u.nResamples} bootstrap resamples of the ${u.documents} documents.`);
  }
  if (alternative) {
    const a = alternative;
    const rankingText = a.rankingSurvives ? 'the ranking survives' : `the ranking does **not** survive (${ranking(a.ranking)} → ${ranking(a.alternativeRanking)})`;
    const verdict = a.verdictSurvives ? `the verdict stays ${r.verdict}` : `the verdict changes: ${r.verdict} → ${a.verdict}`;
    lines.push('', `Other scoring of the same outputs (${markdownText(a.alternative)}): ${rankingText}; ${verdict}.`);
  }
  const others = Object.entries(r.policyCosts)
    .map(([kind, value]) => `${kind} ${formatNumber(value as number)}`)
    .join(', ');
  lines.push('', `<sub>Costs (${others}) and the band of ${r.vary} are the policy of ${markdownText(r.owner)}, decided ${markdownText(r.decided)}; ${r.items} slots in ${r.documents} documents of ${markdownText(r.source)}; rates with ${markdownLevel(r.confidenceLevel)} Wilson intervals. benchplan sweep.</sub>`);
  lines.push(...markdownWarnings([...r.warnings, ...(uncertainty?.warnings ?? []), ...(alternative?.warnings ?? [])]));
  return markdownDocument(lines);
}
