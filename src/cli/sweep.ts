import { costSweepSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { INTERVAL_METHODS } from '../bootstrap/index.js';

/** The cost gaps' interval methods: auto (chooseIntervalMethod), or a bootstrap / t method by name. */
const SWEEP_METHODS = ['auto', ...INTERVAL_METHODS] as const;
import { compareScorings, type ScoringComparison } from '../costs/alternative.js';
import { costSweep, type CostSweepResult } from '../costs/sweep.js';
import { tallyOutcomes } from '../costs/tally.js';
import { sweepUncertainty, type SweepUncertainty } from '../costs/uncertainty.js';
import { OUTCOME_KINDS } from '../data/outcomes.js';
import { loadPolicy } from '../data/policy.js';
import { formatNumber, formatPercent, formatTable } from '../report/table.js';
import { choiceFlag, contextOf, emit, seedFlag, type Io, warningLines, resamplesFlag } from './io.js';
import { FORMAT_OPTION } from './output-format.js';
import { sweepMarkdown } from '../report/markdown-sweep.js';
import { loadInputs, withSourceOptions } from './sources.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

/** The JSON document of `benchplan sweep`. */
export interface SweepReport extends CostSweepResult {
  uncertainty: SweepUncertainty | null;
  alternative: (ScoringComparison & { verdict: 'data' | 'assumption'; crossingsInBand: CostSweepResult['crossingsInBand'] }) | null;
  seed: string;
  nResamples: number;
}

/** A point on the swept axis: up to 6 significant digits, no trailing zeros, ∞ spelled as such. */
const show = (x: number) => (x === Infinity ? '∞' : x === -Infinity ? '−∞' : Number.isNaN(x) ? 'NaN' : String(Number(x.toPrecision(6))));
/** A cost per document: three decimals, so a column lines up. */
const cost = (x: number) => x.toFixed(3);
const showInterval = ([low, high]: readonly [number, number]) => `[${show(low)}, ${show(high)}]`;

/** The readable report: the policy and its owner, the cost table, the ranking per interval, the verdict. */
export function formatSweep(report: SweepReport): string {
  const r = report;
  const signedBy = `owner: ${r.owner}, decided ${r.decided}`;
  const out: string[] = [];
  const others = Object.entries(r.policyCosts)
    .filter(([kind]) => kind !== r.vary)
    .map(([kind, cost]) => `${kind} ${formatNumber(cost as number)}`)
    .join(', ');
  out.push(`Cost sweep of ${r.source}: ${r.items} slots in ${r.documents} document${r.documents === 1 ? '' : 's'}${r.documentsFrom === 'item' ? ' (no cluster column: one item, one document)' : ''}, ${r.costs.length} models`);
  out.push(`Policy: ${r.vary} costs ${formatNumber(r.policyValue)} (${others}); accepted band for ${r.vary}: [${formatNumber(r.band[0])}, ${formatNumber(r.band[1])}]`);
  out.push(`Owner: ${r.owner}, decided ${r.decided}`);
  out.push('');

  // The scalar and the vector, side by side.
  const kinds = OUTCOME_KINDS.filter((kind) => r.costs.some((c) => c.counts[kind] !== 0) || r.policyCosts[kind] !== undefined);
  const pct = (x: number) => formatPercent(x);
  out.push(`Ranking at the policy's costs (${signedBy}); cost per document, lowest first`);
  out.push(
    formatTable(
      ['rank', 'model', 'cost/doc', ...kinds, 'recall', 'precision', 'halluc.'],
      r.costs.map((c, k) => [
        String(k + 1),
        c.model,
        cost(c.costPerDocument),
        ...kinds.map((kind) => formatNumber(c.counts[kind])),
        `${pct(c.rates.recall.estimate)} [${pct(c.rates.recall.confidenceInterval[0])}, ${pct(c.rates.recall.confidenceInterval[1])}]`,
        `${pct(c.rates.precision.estimate)} [${pct(c.rates.precision.confidenceInterval[0])}, ${pct(c.rates.precision.confidenceInterval[1])}]`,
        `${pct(c.rates.hallucinationRate.estimate)} [${pct(c.rates.hallucinationRate.confidenceInterval[0])}, ${pct(c.rates.hallucinationRate.confidenceInterval[1])}]`,
      ]),
      { align: ['right', 'left', 'right', ...kinds.map(() => 'right' as const), 'right', 'right', 'right'] },
    ),
  );
  out.push(`Rates: ${formatPercent(r.confidenceLevel, 0)} Wilson intervals. recall = hit/(hit+miss), precision = hit/(hit+fabrication+wrong_span), hallucination = fabrication/(fabrication+correct_absent).`);
  // A rate over a denominator of 100 or fewer: say how much one slot is worth in it.
  const small = r.costs.flatMap((c) =>
    (['recall', 'precision', 'hallucinationRate'] as const)
      .filter((name) => c.rates[name].note !== null)
      .map((name) => `${c.model} ${name === 'hallucinationRate' ? 'hallucination' : name} ${Number.isNaN(c.rates[name].oneSlot) ? 'undefined (no slots)' : `${(c.rates[name].oneSlot * 100).toFixed(1)} points (of ${formatNumber(c.rates[name].denominator)})`}`),
  );
  if (small.length > 0) out.push(`One slot moves a rate with a small denominator: ${small.join('; ')}.`);
  out.push('');

  // The ranking on each interval of the swept cost.
  out.push(`Ranking by the cost of ${r.vary} (${signedBy})`);
  out.push(
    formatTable(
      [`${r.vary} cost`, 'ranking (lowest cost first)', 'note'],
      r.intervals.map((interval) => {
        const marks: string[] = [];
        if (interval.containsPolicy) marks.push(`policy ${formatNumber(r.policyValue)}`);
        if (interval.overlapsBand) marks.push('in band');
        return [`${show(interval.from)} – ${show(interval.to)}`, interval.ranking.join(' < '), marks.join(', ')];
      }),
      { align: ['left', 'left', 'left'] },
    ),
  );
  if (r.crossings.length === 0) out.push(`No two models' costs cross at any ${r.vary} cost ≥ 0.`);
  for (const c of r.crossings) {
    const exact = c.fraction && c.fraction !== show(c.value) ? ` (= ${c.fraction})` : '';
    const interval = report.uncertainty?.crossings.find((x) => x.models[0] === c.models[0] && x.models[1] === c.models[1]);
    const ci = interval ? `; ${formatPercent(report.uncertainty?.confidenceLevel ?? 0.95, 0)} interval ${showInterval(interval.confidenceInterval)}, inside the band in ${formatPercent(interval.inBandProbability)} of resamples` : '';
    out.push(`  ${c.models[0]} and ${c.models[1]} tie at ${r.vary} = ${show(c.value)}${exact}: ${c.cheaperBelow} cheaper below, ${c.cheaperAbove} above${c.inBand ? ' [inside the band]' : ''}${ci}`);
  }
  out.push('');
  if (r.verdict === 'data') {
    const [below, above] = r.holdsBeyondBand ?? [0, 0];
    out.push(`Verdict: data. No crossing inside the band [${formatNumber(r.band[0])}, ${formatNumber(r.band[1])}]: no accepted rate changes the ranking, so the data decides.`);
    out.push(`  The band's ranking (${r.intervals.find((i) => i.overlapsBand)?.ranking.join(' < ')}) holds from ${show(r.band[0] - below)} to ${show(r.band[1] + above)}: ${show(below)} below the band and ${show(above)} above it.`);
  } else {
    const named = r.crossingsInBand.map((c) => `${c.models[0]}/${c.models[1]} at ${show(c.value)}`).join(', ');
    out.push(`Verdict: assumption. Inside the band [${formatNumber(r.band[0])}, ${formatNumber(r.band[1])}] the ranking changes (${named}): the exchange rate decides, not the data.`);
    out.push(`  The ranking at the policy's ${formatNumber(r.policyValue)} holds for ${r.vary} from ${show(r.rankingHolds[0])} to ${show(r.rankingHolds[1])}; leaders across the band: ${r.leadersInBand.join(', then ')}. (${signedBy})`);
  }

  const u = report.uncertainty;
  if (u) {
    out.push('');
    const gapMethod = u.method === 'auto' ? `${[...new Set(u.gaps.map((g) => g.methodUsed))].join(' / ')} (auto)` : u.method;
    out.push(`Paired bootstrap over ${u.documents} documents (${u.nResamples} resamples, seed ${u.seed}, ${formatPercent(u.confidenceLevel, 0)} ${gapMethod} intervals; ${signedBy}):`);
    out.push(`  ${u.leader} is strictly the cheapest at the policy's costs in ${formatPercent(u.leaderAheadProbability)} of resamples.`);
    for (const gap of u.gaps) {
      out.push(`  ${gap.model} costs ${cost(gap.difference)} more per document than ${u.leader} [${cost(gap.confidenceInterval[0])}, ${cost(gap.confidenceInterval[1])}]; cheaper than ${u.leader} in ${formatPercent(gap.aheadOfLeaderProbability)} of resamples.`);
    }
  }

  const alt = report.alternative;
  if (alt) {
    out.push('');
    out.push(`Other scoring of the same outputs: ${alt.alternative} (same policy; ${signedBy})`);
    out.push(
      formatTable(
        ['model', 'cost/doc', 'alternative', 'outcomes changed', 'most common changes'],
        alt.models.map((m) => [
          m.model,
          cost(m.costPerDocument),
          cost(m.alternativeCostPerDocument),
          `${m.changedOutcomes.changed} of ${m.changedOutcomes.compared}`,
          Object.entries(m.changedOutcomes.changes)
            .slice(0, 3)
            .map(([what, n]) => `${what} ${n}`)
            .join(', '),
        ]),
        { align: ['left', 'right', 'right', 'right', 'left'] },
      ),
    );
    out.push(`  Ranking at the policy's costs: ${alt.ranking.join(' < ')} → ${alt.alternativeRanking.join(' < ')}: ${alt.rankingSurvives ? 'survives' : 'does NOT survive'}${alt.leaderSurvives ? '' : ' (the leader changes)'}.`);
    for (const shift of alt.crossingShifts) {
      out.push(`  ${shift.models[0]}/${shift.models[1]} tie at ${r.vary} = ${show(shift.value)} → ${Number.isNaN(shift.alternativeValue) ? 'never' : show(shift.alternativeValue)}.`);
    }
    out.push(`  Rankings across the band: ${alt.bandRankingsSurvive ? 'the same' : `${alt.bandRankings.map((x) => x.join(' < ')).join(' | ')} → ${alt.alternativeBandRankings.map((x) => x.join(' < ')).join(' | ')}`}; verdict ${r.verdict} → ${alt.verdict}${alt.verdictSurvives ? '' : ' (the verdict changes)'}.`);
  }
  const warnings = [...r.warnings, ...(u?.warnings ?? []), ...(alt?.warnings ?? [])];
  out.push(...warningLines(warnings));
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('sweep')
    .description("check a cost ranking against the exchange rate between errors")
    .argument('<outcomes...>', 'scores table(s) with an outcome column (hit, miss, fabrication, wrong_span, correct_absent, …), or Inspect logs scored with C/I/P/N letters')
    .requiredOption('--policy <file>', 'cost policy (YAML): owner, decided, costs per outcome, sweep { vary, band }')
    .option('--alternative-scores <file>', 'a second scoring of the same outputs (another judge, contested labels flipped): does the ranking survive?')
    .option(...seedOption('seed of the bootstrap over documents'))
    .option(...resamplesOption('bootstrap resamples of documents; 0 skips the bootstrap (at most 10,000,000)'))
    .option(...confidenceOption('coverage of the Wilson and bootstrap intervals'))
    .option('--method <method>', `interval method for the cost gaps: ${SWEEP_METHODS.join(', ')} (auto: t below 100 documents, BCa from 100)`, 'auto')
    .option(...dropUnpairedOption('leave out items some model did not score (and say how many)'))
    .option(...CHART_OPTION)
    .option(...FORMAT_OPTION);
  withSourceOptions(command)
    .action(async (outcomes, options, command) => {
      const ctx = contextOf(command, io);
      if (options.chart !== undefined) preflightChart(options.chart);
      const nResamples = resamplesFlag(options.resamples, 0) as number;
      const confidenceLevel = confidenceFlag(options.confidence);
      const method = choiceFlag('--method', options.method, SWEEP_METHODS) ?? 'auto';
      const seed = seedFlag(options.seed);
      const policy = loadPolicy(options.policy);
      const dropUnpaired = Boolean(options.dropUnpaired);

      const table = loadInputs(outcomes, options as Record<string, unknown>, io).table;
      const tally = tallyOutcomes(table, { dropUnpaired });
      const sweep = costSweep(tally, policy, { confidenceLevel, policySource: options.policy });
      let uncertainty: SweepUncertainty | null = null;
      if (nResamples > 0 && tally.models.length > 1) {
        // Well under a second over documents: no progress bar (it would never move).
        uncertainty = sweepUncertainty(tally, sweep, { nResamples, seed, confidenceLevel, method });
      }
      let alternative: SweepReport['alternative'] = null;
      if (options.alternativeScores !== undefined) {
        const otherTable = loadInputs([options.alternativeScores], options as Record<string, unknown>, io).table;
        const otherSweep = costSweep(tallyOutcomes(otherTable, { dropUnpaired }), policy, { confidenceLevel, policySource: options.policy });
        const comparison = compareScorings({ table, sweep }, { table: otherTable, sweep: otherSweep });
        alternative = { ...comparison, verdict: otherSweep.verdict, crossingsInBand: otherSweep.crossingsInBand };
      }
      const report: SweepReport = { ...sweep, uncertainty, alternative, seed, nResamples };
      emit(ctx, report, () => formatSweep(report), () => sweepMarkdown(sweep, uncertainty, alternative));
      if (options.chart !== undefined) await writeChart(costSweepSpec(report), options.chart);
    });
}
