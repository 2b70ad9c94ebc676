import { forestPlotSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { ALTERNATIVE_HYPOTHESES, COMPARE_METHODS, type Alternative, type CompareMethod, type McNemarResult } from '../bootstrap/index.js';
import { compareModels, compareModelsParallel, mcnemarTest, type AutoMethodUsed, type CompareModelsResult, type PairComparison } from '../paired/index.js';
import { InputError } from '../data/errors.js';
import { alignModels, checkClustersWithinStrata, type AlignedScores } from '../data/pairing.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { loadInputs, loaderSettingsOf, withSourceOptions, type LoaderSettingsEcho } from './sources.js';
import { choiceFlag, contextOf, emit, progress, seedFlag, type Io, resamplesFlag } from './io.js';
import { FORMAT_OPTION } from './output-format.js';
import { compareMarkdown } from '../report/markdown-compare.js';
import { scoreRangeFlag } from './sequential-flags.js';
import { checkTableScoresInRange } from '../sequential/score-range.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption, threadsFlag, threadsOption } from './shared-flags.js';

/** `benchplan compare --a A --b B --json`: one pair. */
export interface ComparePairReport extends LoaderSettingsEcho {
  scores: string;
  a: string;
  b: string;
  /** Paired items used. */
  n: number;
  /** Unpaired items left out (with --drop-unpaired). */
  dropped: number;
  /** Mean of A − B. */
  estimate: number;
  meanA: number;
  meanB: number;
  confidenceInterval: [number, number];
  standardError: number;
  excludesZero: boolean;
  method: CompareMethod;
  /** With --method auto: the interval used and why (chooseIntervalMethod), and a t-type interval's df. */
  methodUsed?: AutoMethodUsed;
  methodReason?: string;
  df?: number | null;
  /** With --method auto: why the data cannot support an interval (the interval is then NaN); absent when they can. */
  noInterval?: string;
  confidenceLevel: number;
  alternative: Alternative;
  nResamples: number;
  seed: string;
  /** Sign-flip permutation p-value (t-test p for --method t; with auto, the chosen method's test). */
  pValue: number;
  pValueTest: 'sign-flip' | 't' | 'tango-score' | 'mcnemar-exact' | 'mcnemar-mid-p' | 'cr2';
  permutations: number;
  exactPValue: boolean;
  naiveStandardError: number;
  clustered: boolean;
  nClusters: number | null;
  clusteredStandardError: number | null;
  designEffect: number | null;
  stratified: boolean;
  nStrata: number | null;
  bias: number;
  biasCorrection: number;
  acceleration: number;
  threads: number;
  /** McNemar's exact and chi-square tests when both models' scores are all 0 or 1; null otherwise. */
  mcnemar: McNemarResult | null;
  warnings: string[];
}

/** `benchplan compare --json` without --a/--b: every pair, Holm-adjusted. */
export interface CompareAllReport extends LoaderSettingsEcho {
  scores: string;
  models: Array<{ model: string; mean: number }>;
  n: number;
  dropped: number;
  method: CompareMethod;
  confidenceLevel: number;
  alternative: Alternative;
  nResamples: number;
  permutations: number;
  seed: string;
  adjustment: 'holm';
  clustered: boolean;
  nClusters: number | null;
  stratified: boolean;
  nStrata: number | null;
  threads: number;
  pairs: Array<{
    a: string;
    b: string;
    n: number;
    estimate: number;
    confidenceInterval: [number, number];
    standardError: number;
    excludesZero: boolean;
    pValue: number;
    adjustedPValue: number;
    /** Which test produced pValue (see ComparePairReport.pValueTest). */
    pValueTest: PValueTest;
    distinguishable: boolean;
    designEffect: number | null;
    /** With --method auto. */
    methodUsed?: AutoMethodUsed;
    methodReason?: string;
    /** Why the data cannot support this pair's interval (the interval is then NaN); absent when they can. */
    noInterval?: string;
    warnings: string[];
  }>;
  warnings: string[];
}

interface CompareFlags {
  a?: string;
  b?: string;
  judge?: string;
  design?: string;
  strata?: string;
  assumeRandom?: boolean;
  method: string;
  resamples: string;
  confidence: string;
  seed: string;
  alternative: string;
  cluster?: boolean;
  stratified?: boolean;
  dropUnpaired?: boolean;
  midP?: boolean;
  scoreRange?: string;
  threads: string;
  chart?: string;
  [flag: string]: unknown;
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('compare')
    .description('decide whether model A beats model B on the same items (paired bootstrap)')
    .argument('<inputs...>', 'scores table(s) (CSV or JSONL: item, model, score [, cluster, stratum, repeat]) or results files and directories of promptfoo, Inspect, lm-eval')
    .option('--a <model>', 'model A (with --b: one pair, estimate = mean of A − B)')
    .option('--b <model>', 'model B')
    .option('--method <method>', `interval: ${COMPARE_METHODS.join(', ')} (auto: chosen from the data, see docs/method-auto.md)`, 'auto')
    .option(...resamplesOption('bootstrap resamples (and sign-flip permutations) (at most 10,000,000)'))
    .option(...confidenceOption('confidence level of the interval, in (0, 1)'))
    .option(...seedOption('seed of the resampling (same seed, same bytes)'))
    .option('--alternative <side>', `${ALTERNATIVE_HYPOTHESES.join(', ')}: two-sided interval, or one-sided (less: A < B, greater: A > B)`, 'two-sided')
    .option('--cluster', 'resample whole clusters (the cluster column, e.g. the document), and report the clustered SE')
    .option('--stratified', 'resample within strata (the stratum column), each stratum keeping its count')
    .option('--judge <column-or-file>', 'PPI++: judge scores for every item (a column of the scores, or a scores file); human scores on a random subset')
    .option('--design <file>', 'the scores are the list benchplan select wrote, labelled: estimate the whole pool with its inclusion probabilities')
    .option('--strata <file>', 'with --judge: a strata file whose traffic shares reweight the per-stratum PPI++ estimates (stratified PPI on production traffic)')
    .option('--assume-random', 'with --judge: the labelled items were drawn at random (skip the check)')
    .option(...dropUnpairedOption('leave out items not every compared model scored (and say how many)'))
    .option('--mid-p', "with --method auto on 0/1 scores: McNemar mid-p instead of the score test's p-value")
    .option('--score-range <low,high>', 'with --method auto: the range the scores can take (checked); a skewed pair of scores on it gets the betting interval, valid at every n (default: bounded only when every score is in [0, 1])')
    .option(...threadsOption())
    .option(...CHART_OPTION)
    .option(...FORMAT_OPTION);
  withSourceOptions(command)
    .action(async (inputs: string[], flags: CompareFlags, command) => {
      const scoresPath = inputs.join(' + ');
      const ctx = contextOf(command, io);
      // --judge and --design load their estimators (and the zod schemas of a design file) only when asked for.
      if (flags.scoreRange !== undefined && (flags.judge !== undefined || flags.design !== undefined)) {
        throw new InputError('goes with the plain paired comparison (--method auto), not with --judge or --design', { file: '--score-range', value: flags.scoreRange });
      }
      if (flags.judge !== undefined || flags.design !== undefined) return (await import('./compare-fewer-labels.js')).fewerLabels(ctx, scoresPath, flags);
      if (flags.strata !== undefined) throw new InputError('--strata reweights the judge-assisted estimate: it goes with --judge (the plain paired comparison is over the items as they are; headline reweights scores)', { file: '--strata', value: flags.strata });
      if (flags.chart !== undefined) preflightChart(flags.chart);
      const method = choiceFlag('--method', flags.method, COMPARE_METHODS) as CompareMethod;
      const nResamples = resamplesFlag(flags.resamples) as number;
      const confidenceLevel = confidenceFlag(flags.confidence);
      const alternative = choiceFlag('--alternative', flags.alternative, ALTERNATIVE_HYPOTHESES) as Alternative;
      const threads = threadsFlag(flags.threads);
      const seed = seedFlag(flags.seed);
      const scoreRange = scoreRangeFlag(flags.scoreRange);
      if (scoreRange !== undefined && method !== 'auto') throw new InputError('is used by --method auto only: a named method ignores the scores\' range', { file: '--score-range', value: flags.scoreRange });
      if ((flags.a === undefined) !== (flags.b === undefined)) {
        throw new InputError('give both --a and --b (one pair), or neither (every pair)', { file: flags.a === undefined ? '--b' : '--a', value: flags.a ?? flags.b });
      }
      if (flags.a !== undefined && flags.a === flags.b) throw new InputError('--a and --b must name two different models', { file: '--b', value: flags.b });
      if (alternative !== 'two-sided' && flags.a === undefined) {
        // Without --a/--b the pairs are ordered best first by the observed means, so a one-sided test
        // would pick its direction after seeing the data and halve every p-value.
        throw new InputError('a one-sided test needs --a and --b (its direction must be chosen before the data is seen)', { file: '--alternative', value: alternative });
      }
      const table = loadInputs(inputs, flags, io).table;
      if (flags.cluster && !table.hasCluster) throw new InputError('--cluster needs a "cluster" column in the scores (e.g. the document of each item)', { file: scoresPath });
      if (flags.stratified && !table.hasStratum) throw new InputError('--stratified needs a "stratum" column in the scores', { file: scoresPath });
      const pair = flags.a !== undefined && flags.b !== undefined;
      let models = pair ? [flags.a as string, flags.b as string] : table.models;
      if (models.length < 2) throw new InputError(`compare needs at least two models (got ${models.length}: ${models.join(', ')})`, { file: scoresPath });
      let aligned = alignModels(table, models, { dropUnpaired: Boolean(flags.dropUnpaired) });
      if (!pair) {
        // Best first, so every estimate reads "the better-scoring model minus the other".
        const means = aligned.scores.map((s) => s.reduce((x, y) => x + y, 0) / s.length);
        const order = models.map((_, k) => k).sort((i, j) => means[j] - means[i] || i - j);
        models = order.map((k) => models[k]);
        aligned = reorder(aligned, order);
      }
      if (flags.cluster && flags.stratified) checkClustersWithinStrata(aligned);
      if (scoreRange !== undefined) checkTableScoresInRange(table, models, scoreRange);
      const bar = progress(io, 'compare');
      const options = {
        method,
        nResamples,
        nPermutations: nResamples,
        confidenceLevel,
        alternative,
        seed,
        cluster: flags.cluster ? aligned.cluster : null,
        strata: flags.stratified ? aligned.stratum : null,
        threads,
        onProgress: bar.update,
        ...(flags.midP ? { midP: true } : {}),
        ...(scoreRange !== undefined ? { scoreRange } : {}),
      };
      let result: CompareModelsResult;
      try {
        result = threads > 1 ? await compareModelsParallel(aligned, options) : compareModels(aligned, options);
      } finally {
        bar.done();
      }
      const dropped = aligned.dropped;
      const droppedNote = dropped > 0 ? [`left out ${dropped} unpaired item${dropped === 1 ? '' : 's'} (--drop-unpaired)`] : [];
      if (pair) {
        // A declared --score-range is a setting that produced the numbers: echoed (only when given, so other output is unchanged).
        const report = { ...pairReport(scoresPath, result, aligned, threads, loaderSettingsOf(flags)), ...(scoreRange !== undefined ? { scoreRange } : {}) };
        emit(ctx, report, () => formatPair(report, droppedNote), () => compareMarkdown(result, { source: scoresPath, dropped }));
      } else {
        const report = { ...allReport(scoresPath, result, dropped, threads, loaderSettingsOf(flags)), ...(scoreRange !== undefined ? { scoreRange } : {}) };
        emit(ctx, report, () => formatAll(report, droppedNote), () => compareMarkdown(result, { source: scoresPath, dropped }));
      }
      if (flags.chart !== undefined) await writeChart(forestPlotSpec(result), flags.chart);
    });
}

/** With --cluster --stratified, every cluster must lie within one stratum (its items are resampled together). */

/** The aligned scores with the models in a new order. */
function reorder(aligned: AlignedScores, order: number[]): AlignedScores {
  return {
    ...aligned,
    models: order.map((k) => aligned.models[k]),
    scores: order.map((k) => aligned.scores[k]),
    repeats: order.map((k) => aligned.repeats[k]),
    repeatVariance: order.map((k) => aligned.repeatVariance[k]),
  };
}

/** McNemar's test on two models' aligned scores, when every score is 0 or 1 (items treated as independent). */
function mcnemarIfBinary(aligned: AlignedScores): McNemarResult | null {
  const binary = (x: Float64Array) => x.every((v) => v === 0 || v === 1);
  return binary(aligned.scores[0]) && binary(aligned.scores[1]) ? mcnemarTest(aligned.scores[0], aligned.scores[1]) : null;
}

/** Which test produced a pair's p-value: with auto, the chosen method's own test (t, CR2 t, McNemar) or the sign-flip test beside a resampled interval. */
type PValueTest = ComparePairReport['pValueTest'];
function pValueTestOf(p: PairComparison): PValueTest {
  if (p.auto !== undefined) return p.auto.pValueTest ?? 'sign-flip';
  return 'exact' in p.test ? 'sign-flip' : 't';
}

function pairReport(scores: string, result: CompareModelsResult, aligned: AlignedScores, threads: number, loader: LoaderSettingsEcho): ComparePairReport {
  const dropped = aligned.dropped;
  const p = result.pairs[0];
  const boot = p.bootstrap;
  const auto = p.auto;
  return {
    scores,
    ...loader,
    a: p.a,
    b: p.b,
    n: p.n,
    dropped,
    estimate: p.estimate,
    meanA: result.means[0],
    meanB: result.means[1],
    confidenceInterval: p.confidenceInterval,
    standardError: p.standardError,
    excludesZero: p.excludesZero,
    method: result.method,
    ...(auto === undefined ? {} : { methodUsed: auto.methodUsed, methodReason: auto.methodReason, df: auto.df }),
    ...(auto?.noInterval ? { noInterval: auto.noInterval } : {}),
    confidenceLevel: result.confidenceLevel,
    alternative: result.alternative,
    nResamples: result.nResamples,
    seed: result.seed,
    pValue: p.pValue,
    pValueTest: pValueTestOf(p),
    permutations: result.nPermutations,
    exactPValue: 'exact' in p.test ? p.test.exact : false,
    naiveStandardError: boot.naiveStandardError,
    clustered: boot.nClusters !== undefined,
    nClusters: boot.nClusters ?? null,
    clusteredStandardError: boot.clusteredStandardError ?? null,
    designEffect: boot.designEffect ?? null,
    stratified: boot.nStrata !== undefined,
    nStrata: boot.nStrata ?? null,
    bias: boot.bias,
    biasCorrection: boot.biasCorrection,
    acceleration: boot.acceleration,
    threads,
    mcnemar: mcnemarIfBinary(aligned),
    warnings: p.warnings,
  };
}

function allReport(scores: string, result: CompareModelsResult, dropped: number, threads: number, loader: LoaderSettingsEcho): CompareAllReport {
  const first: PairComparison = result.pairs[0];
  return {
    scores,
    ...loader,
    models: result.models.map((model, k) => ({ model, mean: result.means[k] })),
    n: result.n,
    dropped,
    method: result.method,
    confidenceLevel: result.confidenceLevel,
    alternative: result.alternative,
    nResamples: result.nResamples,
    permutations: result.nPermutations,
    seed: result.seed,
    adjustment: 'holm',
    clustered: first.bootstrap.nClusters !== undefined,
    nClusters: first.bootstrap.nClusters ?? null,
    stratified: first.bootstrap.nStrata !== undefined,
    nStrata: first.bootstrap.nStrata ?? null,
    threads,
    pairs: result.pairs.map((p) => ({
      a: p.a,
      b: p.b,
      n: p.n,
      estimate: p.estimate,
      confidenceInterval: p.confidenceInterval,
      standardError: p.standardError,
      excludesZero: p.excludesZero,
      pValue: p.pValue,
      adjustedPValue: p.adjustedPValue,
      pValueTest: pValueTestOf(p),
      distinguishable: p.distinguishable,
      designEffect: p.bootstrap.designEffect ?? null,
      ...(p.auto === undefined ? {} : { methodUsed: p.auto.methodUsed, methodReason: p.auto.methodReason }),
      ...(p.auto?.noInterval ? { noInterval: p.auto.noInterval } : {}),
      warnings: p.warnings,
    })),
    warnings: result.warnings,
  };
}

/**
 * A p-value for people: "< 0.0001" below that, else 2 significant digits; "≤" when it is the
 * smallest value `permutations` random sign flips can give, 1 / (B + 1).
 */
function formatP(p: number, permutations = 0): string {
  if (Number.isNaN(p)) return 'NaN';
  const floor = permutations > 0 && Math.abs(p * (permutations + 1) - 1) < 1e-9 ? '≤ ' : '';
  if (p < 0.0001) return '< 0.0001';
  return `${floor}${formatNumber(p, 2)}`;
}

function intervalName(r: { method: CompareMethod; methodUsed?: AutoMethodUsed; confidenceLevel: number; alternative: Alternative }): string {
  const side = r.alternative === 'two-sided' ? '' : r.alternative === 'greater' ? ', one-sided: A > B' : ', one-sided: A < B';
  return `${formatPercent(r.confidenceLevel, 0).replace('.0%', '%')} ${r.method === 'auto' && r.methodUsed !== undefined ? `${r.methodUsed} (auto)` : r.method}${side}`;
}

function designLine(r: { clustered: boolean; nClusters: number | null; stratified: boolean; nStrata: number | null }): string {
  const parts: string[] = [];
  parts.push(r.clustered ? `resampling ${r.nClusters} clusters` : 'resampling items');
  if (r.stratified) parts.push(`within ${r.nStrata} strata`);
  return parts.join(' ');
}

/** What a person does with one comparison. */
function verdict(r: ComparePairReport): string {
  const level = formatPercent(r.confidenceLevel, 0).replace('.0%', '%');
  const [low, high] = r.confidenceInterval;
  if (r.noInterval !== undefined) return `No verdict: ${r.noInterval}.`;
  if (Number.isNaN(low) || Number.isNaN(high)) return `No verdict: the interval is undefined (see the warnings); try --method percentile.`;
  if (r.excludesZero) {
    const better = r.estimate > 0 ? r.a : r.b;
    const worse = r.estimate > 0 ? r.b : r.a;
    const gap = Math.abs(r.estimate);
    const bound = r.estimate > 0 ? low : -high;
    return `${better} scores higher than ${worse} by ${formatNumber(gap)}; at ${level} confidence the gap is at least ${formatNumber(bound)}.`;
  }
  const reach = Math.max(Math.abs(Number.isFinite(low) ? low : 0), Math.abs(Number.isFinite(high) ? high : 0));
  return `Cannot tell ${r.a} and ${r.b} apart at ${level}: the interval includes 0, and a gap of up to ${formatNumber(reach)} either way is still consistent with the data. More items (benchplan size) or a looser decision rule are needed to separate them.`;
}

function formatPair(r: ComparePairReport, notes: string[]): string {
  const out: string[] = [];
  const resampling = r.method === 'auto' && r.nResamples === 0 ? `${r.clustered ? `${r.nClusters} clusters` : 'items'}${r.stratified ? ` in ${r.nStrata} strata` : ''}; analytic interval, no resampling` : `${designLine(r)}; ${r.nResamples} resamples, seed ${r.seed}`;
  out.push(`${r.a} − ${r.b} on ${r.n} paired items of ${r.scores} (${resampling})`);
  if (r.methodReason !== undefined) out.push(`method auto: ${r.methodReason}`);
  out.push(
    formatTable(
      ['mean A', 'mean B', 'A − B', `${intervalName(r)} interval`, 'excludes 0', `p (${r.pValueTest})`, 'SE', 'n'],
      [[formatNumber(r.meanA), formatNumber(r.meanB), formatNumber(r.estimate), formatInterval(r.confidenceInterval), r.excludesZero ? 'yes' : 'no', formatP(r.pValue, r.pValueTest === 'sign-flip' && !r.exactPValue ? r.permutations : 0), formatNumber(r.standardError), String(r.n)]],
      { align: ['right', 'right', 'right', 'right', 'left', 'right', 'right', 'right'] },
    ),
  );
  if (r.clustered) {
    out.push(
      `standard error: naive ${formatNumber(r.naiveStandardError)} (items independent), clustered ${formatNumber(r.clusteredStandardError ?? NaN)} (Miller 2024), design effect ${formatNumber(r.designEffect ?? NaN)}`,
    );
  }
  if (r.mcnemar) {
    const m = r.mcnemar;
    out.push(
      `McNemar (0/1 scores, items as independent): ${m.onlyA} items only ${r.a} got right, ${m.onlyB} only ${r.b}; exact p ${formatNumber(m.exactPValue)}, chi-square p ${formatNumber(m.chiSquarePValue)}`,
    );
  }
  out.push(verdict(r));
  for (const note of notes) out.push(note);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}

function formatAll(r: CompareAllReport, notes: string[]): string {
  const out: string[] = [];
  const resampling = r.method === 'auto' && r.nResamples === 0 ? `${r.clustered ? `${r.nClusters} clusters` : 'items'}${r.stratified ? ` in ${r.nStrata} strata` : ''}; analytic intervals, no resampling` : `${designLine(r)}; ${r.nResamples} resamples, seed ${r.seed}`;
  out.push(`${r.models.length} models on ${r.n} items every one of them scored, ${r.scores} (${resampling})`);
  out.push(formatTable(['model', 'mean'], r.models.map((m) => [m.model, formatNumber(m.mean)]), { align: ['left', 'right'] }));
  out.push('');
  const level = formatPercent(r.confidenceLevel, 0).replace('.0%', '%');
  if (r.method === 'auto') {
    out.push(`Every pair, better-scoring first (${formatPercent(r.confidenceLevel, 0).replace('.0%', '%')} intervals chosen per pair by --method auto; each pair's p-value from its method, Holm-adjusted over ${r.pairs.length} pairs):`);
    for (const reason of [...new Set(r.pairs.map((p) => p.methodReason))]) out.push(`  ${reason}`);
  } else out.push(`Every pair, better-scoring first (${intervalName(r)} intervals; sign-flip p-values, Holm-adjusted over ${r.pairs.length} pairs):`);
  out.push(
    formatTable(
      ['A − B', 'estimate', 'interval', 'excludes 0', 'p', 'Holm p', `distinguishable at ${level}`],
      r.pairs.map((p) => [`${p.a} − ${p.b}`, formatNumber(p.estimate), formatInterval(p.confidenceInterval), p.excludesZero ? 'yes' : 'no', formatP(p.pValue, r.permutations), formatP(p.adjustedPValue), p.distinguishable ? 'yes' : 'no']),
      { align: ['left', 'right', 'right', 'left', 'right', 'right', 'left'] },
    ),
  );
  const apart = r.pairs.filter((p) => p.distinguishable);
  const unsupported = r.pairs.filter((p) => p.noInterval !== undefined);
  const tied = r.pairs.filter((p) => !p.distinguishable && p.noInterval === undefined);
  for (const p of unsupported) out.push(`No verdict on ${p.a} vs ${p.b}: ${p.noInterval}.`);
  if (apart.length > 0) out.push(`Distinguishable: ${apart.map((p) => `${p.estimate >= 0 ? p.a : p.b} > ${p.estimate >= 0 ? p.b : p.a}`).join(', ')}.`);
  if (tied.length > 0) out.push(`Not distinguishable at ${level} after Holm: ${tied.map((p) => `${p.a} vs ${p.b}`).join(', ')}; treat each as a tie unless more items separate them.`);
  for (const note of notes) out.push(note);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
