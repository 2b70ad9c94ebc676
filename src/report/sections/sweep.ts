import { costSweepSpec } from '../../charts/sweep.js';
import { costSweep, sweepUncertainty, tallyOutcomes, type CostSweepResult, type SweepUncertainty } from '../../costs/index.js';
import type { CostPolicy } from '../../data/policy.js';
import type { ScoresTable } from '../../data/scores.js';
import { formatNumber, formatPercent } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

const showTo = (x: number) => (Number.isFinite(x) ? formatNumber(x) : '∞');

/**
 * The cost-sweep section: each model's expected cost per document as the swept cost moves
 * across the policy's band, the crossings, the verdict (data or assumption), the owner, and the
 * bootstrap probability that the leader is truly ahead.
 */
export function sweepSection(
  table: ScoresTable,
  policy: CostPolicy,
  policySource: string,
  settings: ReportSettings,
): { section: ReportSection; result: CostSweepResult; uncertainty: SweepUncertainty | null } {
  const tally = tallyOutcomes(table);
  const result = costSweep(tally, policy, { confidenceLevel: settings.confidenceLevel, policySource });
  const uncertainty = result.costs.length > 1 ? sweepUncertainty(tally, result, { nResamples: settings.nResamples, seed: settings.seed, confidenceLevel: settings.confidenceLevel }) : null;
  const vary = result.vary.replace(/_/g, ' ');
  const verdict =
    result.verdict === 'data'
      ? `No crossing inside the accepted band [${formatNumber(result.band[0])}, ${formatNumber(result.band[1])}]: whatever cost of a ${vary} in that band is chosen, ${result.ranking[0]} leads. The data decides.`
      : `The ranking changes inside the accepted band: ${result.crossingsInBand.map((c) => `${c.models[0]} and ${c.models[1]} tie at ${formatNumber(c.value)}`).join('; ')}. The assumption about the cost of a ${vary} decides, not the data: report it as a finding.`;
  const paragraphs = [
    `A missed clause and a fabricated clause are not the same error; the rate between them is a policy input owned by ${result.owner} (decided ${result.decided}). At the policy’s costs the ranking is ${result.ranking.join(' < ')} (expected cost per document, lowest first; ${result.documents} documents).`,
    verdict,
  ];
  if (uncertainty) {
    paragraphs.push(
      `Resampling whole documents (${uncertainty.nResamples} resamples, seed ${uncertainty.seed}), ${uncertainty.leader} is strictly cheapest at the policy’s costs in ${formatPercent(uncertainty.leaderAheadProbability)} of resamples.`,
    );
  }
  const kinds = (['hit', 'miss', 'fabrication', 'wrong_span', 'correct_absent'] as const).filter((k) => result.costs.some((c) => (c.counts as Record<string, number>)[k] > 0));
  const section: ReportSection = {
    id: 'sweep',
    title: `Cost sweep: does the ranking survive the cost of a ${vary}?`,
    paragraphs,
    figure: { spec: costSweepSpec(result), caption: `Expected cost per document as the cost of one ${vary} varies, other costs as in the policy.` },
    tables: [
      {
        caption: 'At the policy’s costs (ranking order)',
        header: ['model', 'cost / document', ...kinds, 'recall', 'precision'],
        rows: result.costs.map((c) => [
          c.model,
          formatNumber(c.costPerDocument),
          ...kinds.map((k) => String((c.counts as Record<string, number>)[k])),
          formatPercent(c.rates.recall.estimate),
          formatPercent(c.rates.precision.estimate),
        ]),
      },
      {
        caption: `Ranking by the cost of a ${vary}`,
        header: ['from', 'to', 'ranking (cheapest first)', 'in band'],
        rows: result.intervals.map((i) => [formatNumber(i.from), showTo(i.to), i.ranking.join(' < '), i.overlapsBand ? 'yes' : 'no']),
      },
    ],
    settings: [
      ['policy owner', result.owner],
      ['decided', result.decided],
      ['costs', Object.entries(result.policyCosts).map(([k, v]) => `${k} ${formatNumber(v as number)}`).join(', ')],
      ['swept', `${result.vary}, band [${formatNumber(result.band[0])}, ${formatNumber(result.band[1])}]`],
      ['documents from', result.documentsFrom === 'cluster' ? 'the cluster column' : 'items (no cluster column)'],
      ['confidence level', String(result.confidenceLevel)],
      ...(uncertainty ? ([['bootstrap resamples', String(uncertainty.nResamples)], ['seed', uncertainty.seed]] as Array<[string, string]>) : []),
    ],
    warnings: [...result.warnings, ...(uncertainty?.warnings ?? [])],
  };
  return { section, result, uncertainty };
}
