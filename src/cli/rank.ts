import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../data/errors.js';
import { alignModels } from '../data/pairing.js';
import { rankCandidates, type RankResult } from '../decision/rank.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { contextOf, emit, numberFlag, resamplesFlag, seedFlag, warningLines, type Io } from './io.js';
import { loadInputs, withSourceOptions } from './sources.js';
import { bindPlan, listBinding, numberBinding, planEcho, switchBinding, textBinding, type PlanEcho } from './bind-plan.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

/** `benchplan rank --json`: the scores file and the loader settings echoed with {@link RankResult}. */
export interface RankReport extends RankResult, PlanEcho {
  scores: string;
  clustered: boolean;
  stratified: boolean;
  dropped: number;
}

function level(x: number): string {
  return `${+(x * 100).toFixed(4)}%`;
}

/** The readable report: leader, the table of candidates, the selection-adjusted bound, "label more?". */
export function formatRank(r: RankReport): string {
  const out: string[] = [];
  const lead = r.candidates.find((c) => c.model === r.leader)!;
  out.push(`Leader: ${r.leader} (mean ${formatNumber(lead.mean)}, P(best) ${formatPercent(lead.pBest, 1)}) of ${r.models.length} candidates on ${r.n} common items${r.clustered ? ` (${r.nUnits} clusters resampled)` : ''}`);
  out.push('');
  const inc = r.incumbent !== null;
  out.push(
    formatTable(
      ['model', 'mean', 'P(best)', 'rank', `rank ${level(r.confidenceLevel)}`, 'from best', `simultaneous ${level(r.confidenceLevel)}`, ...(inc ? [`from ${r.incumbent}`, `simultaneous ${level(r.confidenceLevel)}`] : [])],
      [...r.candidates]
        .sort((a, b) => a.rank - b.rank)
        .map((c) => [
          c.model,
          formatNumber(c.mean),
          formatPercent(c.pBest, 1),
          String(c.rank),
          `${formatNumber(c.rankInterval[0])}–${formatNumber(c.rankInterval[1])}`,
          c.model === r.leader ? '-' : formatNumber(c.fromBest.estimate),
          c.model === r.leader ? '-' : formatInterval(c.fromBest.confidenceInterval),
          ...(inc ? (c.fromIncumbent === null ? ['-', '-'] : [formatNumber(c.fromIncumbent.estimate), formatInterval(c.fromIncumbent.confidenceInterval)]) : []),
        ]),
      { align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', ...(inc ? (['right', 'right'] as const) : [])] },
    ),
  );
  out.push('');
  if (r.selection !== null) {
    const s = r.selection;
    out.push(
      `${s.chosen} − ${r.incumbent} = ${formatNumber(s.estimate)}: selection-adjusted ${level(r.confidenceLevel)} lower bound ${formatNumber(s.adjustedLowerBound)} (max-T over the ${r.models.length - 1} challengers, c = ${formatNumber(s.criticalValue)}); ` +
        `the naive bound ${formatNumber(s.naiveLowerBound)} (z = ${formatNumber(s.naiveCriticalValue)}) would ignore that ${s.chosen} was picked as the best`,
    );
  }
  const lm = r.labelMore;
  const parts: string[] = [];
  if (lm.pLeaderChanges !== null) parts.push(`${lm.budget} more items would change the leader with probability ${formatPercent(lm.pLeaderChanges, 1)}`);
  if (r.runnerUp !== null) {
    parts.push(
      lm.itemsToSeparate === null
        ? `${r.leader} is not ahead of ${r.runnerUp} by more than −margin: no number of items at this gap separates them`
        : lm.itemsToSeparate <= r.n
          ? `the ${level(r.confidenceLevel)} lower bound of ${r.leader} − ${r.runnerUp} already clears ${formatNumber(-lm.margin)} on these ${r.n} items`
          : `about ${lm.itemsToSeparate} items would put the ${level(r.confidenceLevel)} lower bound of ${r.leader} − ${r.runnerUp} above ${formatNumber(-lm.margin)} at this spread`,
    );
  }
  out.push(`Label more? ${parts.join('; ')}.`);
  out.push(`method: ${r.methodUsed}, ${r.nResamples} resamples, seed ${r.seed}; rank intervals are marginal bootstrap percentiles`);
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('rank')
    .description('the best of k candidates on the same items: P(best), simultaneous intervals, a selection-adjusted bound against the incumbent, and "label more?"')
    .argument('<inputs...>', 'a scores table with every candidate (or results files the import adapters read)')
    .option('--incumbent <model>', 'the model in production: bound "chosen − incumbent" allowing for the choice')
    .option('--model <model>', 'a candidate to rank (repeat; default every model)', (v: string, prev: string[] = []) => [...prev, v])
    .option(...confidenceOption('confidence level of every interval and bound'))
    .option(...resamplesOption('bootstrap resamples', '4999'))
    .option(...seedOption('seed of the bootstrap'))
    .option('--budget <n>', '"label more?": the probability that this many more items would change the leader')
    .option('--margin <x>', '"label more?": the items at which the leader\'s lower bound over the runner-up clears −margin', '0')
    .option('--cluster', 'resample whole clusters (the cluster column, e.g. documents)')
    .option('--stratified', 'resample within strata (the stratum column)')
    .option(...dropUnpairedOption('leave out items not every candidate scored'))
    .addHelpText('after', '\nExample:\n  benchplan rank examples/scores.csv --incumbent gamma --budget 200');
  bindPlan(command, io, [
    textBinding('incumbent', 'incumbent', '--incumbent'),
    listBinding('models', 'model', '--model'),
    numberBinding('confidenceLevel', 'confidence', '--confidence'),
    numberBinding('nResamples', 'resamples', '--resamples'),
    textBinding('seed', 'seed', '--seed'),
    numberBinding('budget', 'budget', '--budget'),
    numberBinding('margin', 'margin', '--margin'),
    switchBinding('cluster', 'cluster', '--cluster'),
    switchBinding('stratified', 'stratified', '--stratified'),
  ]);
  withSourceOptions(command).action((inputs, opts, cmd) => {
    const ctx = contextOf(cmd, io);
    const confidenceLevel = confidenceFlag(opts.confidence);
    const margin = numberFlag('--margin', opts.margin, { min: 0 }) as number;
    const budget = opts.budget === undefined ? null : (numberFlag('--budget', opts.budget, { min: 1 }) as number);
    if (budget !== null && !Number.isInteger(budget)) throw new InputError('must be a whole number of items', { file: '--budget', value: opts.budget });
    const table = loadInputs(inputs, opts as Record<string, unknown>, io).table;
    const models = opts.model ?? table.models;
    if (models.length < 2) throw new InputError('rank needs at least two candidates', { file: table.source, value: models.join(', ') });
    if (opts.incumbent !== undefined && !models.includes(opts.incumbent)) throw new InputError(`is not one of the candidates (${models.join(', ')})`, { file: '--incumbent', value: opts.incumbent });
    if (opts.cluster && !table.hasCluster) throw new InputError('has no cluster column to resample', { file: table.source });
    if (opts.stratified && !table.hasStratum) throw new InputError('has no stratum column to resample within', { file: table.source });
    const aligned = alignModels(table, models, { dropUnpaired: Boolean(opts.dropUnpaired) });
    let result: RankResult;
    try {
      result = rankCandidates(aligned.scores, {
        models: aligned.models,
        incumbent: opts.incumbent ?? null,
        confidenceLevel,
        nResamples: resamplesFlag(opts.resamples),
        seed: seedFlag(opts.seed),
        cluster: opts.cluster ? aligned.cluster : null,
        strata: opts.stratified ? aligned.stratum : null,
        budget,
        margin,
      });
    } catch (error) {
      if (error instanceof RangeError) throw new InputError(error.message, { file: table.source });
      throw error;
    }
    const report: RankReport = { scores: inputs.join(' + '), clustered: Boolean(opts.cluster), stratified: Boolean(opts.stratified), dropped: aligned.dropped, ...result, ...planEcho(cmd) };
    emit(ctx, report, () => formatRank(report));
  });
}
