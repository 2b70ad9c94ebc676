import type { Alternative, CompareMethod, McNemarResult } from '../bootstrap/types.js';
import type { AlignedScores } from '../data/pairing.js';
import type { LoaderSettingsEcho } from '../import/load-results.js';
import type { AutoMethodUsed } from '../paired/choose-method.js';
import type { CompareModelsResult, PairComparison } from '../paired/compare-models.js';
import { mcnemarTest } from '../paired/mcnemar.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from './table.js';

/** Which test produced a pair's p-value: the sign-flip permutation test, the t-test, or, with auto, the chosen method's own test. */
export type ComparePValueTest = 'sign-flip' | 't' | 'tango-score' | 'mcnemar-exact' | 'mcnemar-mid-p' | 'cr2';

/** `benchplan compare --a A --b B --json`: one pair, A − B. */
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
  pValueTest: ComparePValueTest;
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
  /** The declared range of the scores (--score-range), echoed only when given. */
  scoreRange?: [number, number];
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
  /** Each pair as the library computed it (PairComparison's fields, unchanged) and which test gave its p-value. */
  pairs: Array<Pick<PairComparison, 'a' | 'b' | 'n' | 'estimate' | 'confidenceInterval' | 'standardError' | 'excludesZero' | 'pValue' | 'adjustedPValue' | 'distinguishable'> & {
    /** Which test produced pValue (see ComparePairReport.pValueTest). */
    pValueTest: ComparePValueTest;
    designEffect: number | null;
    /** With --method auto. */
    methodUsed?: AutoMethodUsed;
    methodReason?: string;
    /** Why the data cannot support this pair's interval (the interval is then NaN); absent when they can. */
    noInterval?: string;
    warnings: string[];
  }>;
  warnings: string[];
  /** The declared range of the scores (--score-range), echoed only when given. */
  scoreRange?: [number, number];
}

/** What a compare report echoes beside the library's result: where the scores came from and how they were read. */
export interface CompareReportSettings {
  /** The input path(s) as the command names them (several joined with " + "). */
  scores: string;
  /** Worker threads the resampling ran on. */
  threads: number;
  /** The loader's settings (--input-format, --model-name), each only when given. */
  loader?: LoaderSettingsEcho;
  /** The declared --score-range, echoed last and only when given. */
  scoreRange?: [number, number];
}

/** McNemar's test on two models' aligned scores, when every score is 0 or 1 (items treated as independent). */
function mcnemarIfBinary(aligned: AlignedScores): McNemarResult | null {
  const binary = (x: Float64Array) => x.every((v) => v === 0 || v === 1);
  return binary(aligned.scores[0]) && binary(aligned.scores[1]) ? mcnemarTest(aligned.scores[0], aligned.scores[1]) : null;
}

/** Which test produced a pair's p-value: with auto, the chosen method's own test (t, CR2 t, McNemar) or the sign-flip test beside a resampled interval. */
function pValueTestOf(p: PairComparison): ComparePValueTest {
  if (p.auto !== undefined) return p.auto.pValueTest ?? 'sign-flip';
  return 'exact' in p.test ? 'sign-flip' : 't';
}

const scoreRangeEcho = (s: CompareReportSettings) => (s.scoreRange !== undefined ? { scoreRange: s.scoreRange } : {});

/**
 * The JSON document of `benchplan compare --a A --b B`: the one pair of `result` (A − B, the
 * first model of `aligned` minus the second), its interval, p-value and the settings that
 * produced them, plus McNemar's tests when both models' scores are all 0 or 1. A pure function
 * of the library's result: no printing, no files.
 * @param result compareModels (or compareModelsParallel) on exactly two aligned models.
 * @param aligned the two models' aligned scores the result was computed on (for `dropped` and McNemar).
 * @param settings what the command echoes beside the result (input path, threads, loader settings, score range).
 * @returns the report; its keys are the `compare --json` document's, in order.
 * @example comparePairReport(compareModels(alignModels(loadScores('examples/scores.csv'), ['alpha', 'beta']), { method: 'auto' }), alignModels(loadScores('examples/scores.csv'), ['alpha', 'beta']), { scores: 'scores.csv', threads: 1 }).mcnemar // => { onlyA: 75, onlyB: 14 }
 */
export function comparePairReport(result: CompareModelsResult, aligned: AlignedScores, settings: CompareReportSettings): ComparePairReport {
  const p = result.pairs[0];
  const boot = p.bootstrap;
  const auto = p.auto;
  return {
    scores: settings.scores,
    ...settings.loader,
    a: p.a,
    b: p.b,
    n: p.n,
    dropped: aligned.dropped,
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
    threads: settings.threads,
    mcnemar: mcnemarIfBinary(aligned),
    warnings: p.warnings,
    ...scoreRangeEcho(settings),
  };
}

/**
 * The JSON document of `benchplan compare` without --a/--b: every model's mean and every pair
 * (as compareModels ordered them; the command orders the models best first, so each estimate
 * reads "the better-scoring model minus the other"), Holm-adjusted p-values.
 * @param result compareModels on the aligned models.
 * @param dropped unpaired items left out before the comparison (--drop-unpaired).
 * @param settings what the command echoes beside the result.
 * @returns the report; its keys are the `compare --json` document's, in order.
 * @example compareAllReport(compareModels(alignModels(loadScores('examples/scores.csv'), ['alpha', 'beta', 'gamma']), { method: 'auto' }), 0, { scores: 'scores.csv', threads: 1 }).pairs.length // => 3
 */
export function compareAllReport(result: CompareModelsResult, dropped: number, settings: CompareReportSettings): CompareAllReport {
  const first: PairComparison = result.pairs[0];
  return {
    scores: settings.scores,
    ...settings.loader,
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
    threads: settings.threads,
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
    ...scoreRangeEcho(settings),
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

const levelOf = (confidenceLevel: number) => formatPercent(confidenceLevel, 0).replace('.0%', '%');

function intervalName(r: { method: CompareMethod; methodUsed?: AutoMethodUsed; confidenceLevel: number; alternative: Alternative }): string {
  const side = r.alternative === 'two-sided' ? '' : r.alternative === 'greater' ? ', one-sided: A > B' : ', one-sided: A < B';
  return `${levelOf(r.confidenceLevel)} ${r.method === 'auto' && r.methodUsed !== undefined ? `${r.methodUsed} (auto)` : r.method}${side}`;
}

function designLine(r: { clustered: boolean; nClusters: number | null; stratified: boolean; nStrata: number | null }): string {
  const parts: string[] = [];
  parts.push(r.clustered ? `resampling ${r.nClusters} clusters` : 'resampling items');
  if (r.stratified) parts.push(`within ${r.nStrata} strata`);
  return parts.join(' ');
}

/** How the items were resampled (or that the interval is analytic), for the report's first line. */
function resamplingLine(r: ComparePairReport | CompareAllReport, analytic: string): string {
  if (r.method === 'auto' && r.nResamples === 0) return `${r.clustered ? `${r.nClusters} clusters` : 'items'}${r.stratified ? ` in ${r.nStrata} strata` : ''}; ${analytic}, no resampling`;
  return `${designLine(r)}; ${r.nResamples} resamples, seed ${r.seed}`;
}

/** The note on unpaired items left out, when there were any. */
function droppedNotes(dropped: number): string[] {
  return dropped > 0 ? [`left out ${dropped} unpaired item${dropped === 1 ? '' : 's'} (--drop-unpaired)`] : [];
}

/** What a person does with one comparison. */
function pairVerdict(r: ComparePairReport): string {
  const level = levelOf(r.confidenceLevel);
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

/**
 * The readable report of one pair (`benchplan compare --a A --b B`): what was compared and how,
 * a one-row table (means, A − B, interval, p-value, SE, n), the clustered standard error and
 * McNemar's counts when they apply, the verdict in words, and the notes and warnings.
 * @param r the pair's report (comparePairReport).
 * @returns the text, lines joined by "\n", no trailing newline.
 * @example formatComparePair(comparePairReport(compareModels(alignModels(loadScores('examples/scores.csv'), ['alpha', 'beta']), { method: 'auto' }), alignModels(loadScores('examples/scores.csv'), ['alpha', 'beta']), { scores: 'scores.csv', threads: 1 })).split('\n')[0] // => "alpha − beta on 400 paired items of scores.csv (items; analytic interval, no resampling)"
 */
export function formatComparePair(r: ComparePairReport): string {
  const out: string[] = [];
  out.push(`${r.a} − ${r.b} on ${r.n} paired items of ${r.scores} (${resamplingLine(r, 'analytic interval')})`);
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
  out.push(pairVerdict(r));
  out.push(...droppedNotes(r.dropped));
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}

/**
 * The readable report of every pair (`benchplan compare` without --a/--b): the models' means,
 * one row per pair (estimate, interval, p and Holm-adjusted p, distinguishable or not), which
 * pairs are told apart and which are ties, and the notes and warnings.
 * @param r the report of every pair (compareAllReport).
 * @returns the text, lines joined by "\n", no trailing newline.
 * @example formatCompareAll(compareAllReport(compareModels(alignModels(loadScores('examples/scores.csv'), ['alpha', 'beta', 'gamma']), { method: 'auto' }), 0, { scores: 'scores.csv', threads: 1 })).split('\n')[0] // => "3 models on 400 items every one of them scored, scores.csv (items; analytic intervals, no resampling)"
 */
export function formatCompareAll(r: CompareAllReport): string {
  const out: string[] = [];
  out.push(`${r.models.length} models on ${r.n} items every one of them scored, ${r.scores} (${resamplingLine(r, 'analytic intervals')})`);
  out.push(formatTable(['model', 'mean'], r.models.map((m) => [m.model, formatNumber(m.mean)]), { align: ['left', 'right'] }));
  out.push('');
  const level = levelOf(r.confidenceLevel);
  if (r.method === 'auto') {
    out.push(`Every pair, better-scoring first (${level} intervals chosen per pair by --method auto; each pair's p-value from its method, Holm-adjusted over ${r.pairs.length} pairs):`);
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
  out.push(...droppedNotes(r.dropped));
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
