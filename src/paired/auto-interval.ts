import { studentTCdf } from '../distributions/index.js';
import type { Seed } from '../random/seed.js';
import { chooseIntervalMethod, type AutoMethodUsed, type IntervalMethodChoice } from './choose-method.js';
import { cr2Interval, cr2StratifiedInterval, type Cr2Result } from './cr2.js';
import { bettingInterval } from './betting-interval.js';
import { checkScoreRangeShape } from '../sequential/score-range.js';
import { collapseSmallStrata } from './collapse-strata.js';
import { centralSums, summarizeDifferences, type DifferenceSummary } from './difference-summary.js';
import { meanBootstrap } from '../bootstrap/mean.js';
import { studentizedBootstrap } from '../bootstrap/studentized.js';
import { binaryPairedCounts, pairedCounts, pairedProportionInterval, type PairedCounts, type PairedProportionResult } from './paired-proportion.js';
import { checkAlternative, checkConfidenceLevel, pairedDifferences } from '../bootstrap/settings.js';
import type { Alternative, BootstrapOptions, BootstrapResult } from '../bootstrap/types.js';

/** Settings of autoPairedInterval. */
export interface AutoIntervalOptions {
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Default `'two-sided'`. */
  alternative?: Alternative;
  /** Resamples when the rule picks BCa; default 9999. */
  nResamples?: number;
  /** Seed of the BCa resampling; default 0. */
  seed?: Seed;
  /** Per item its cluster index (0 … G − 1). */
  cluster?: Int32Array | null;
  /** Per item its stratum index (0 … H − 1): stratified (stratum sizes held fixed). */
  strata?: Int32Array | null;
  strataNames?: readonly string[] | null;
  clusterNames?: readonly string[] | null;
  /**
   * For 0/1 scores: report McNemar's mid-p (2 P(X < k) + P(X = k)) instead of the score test's p
   * (the test the tango interval inverts); default false.
   */
  midP?: boolean;
  /**
   * 0/1 scores: false leaves McNemar's exact and mid-p values out of `pairedProportion` (NaN; see
   * PairedProportionOptions.exactPValues), for callers that read only the interval; default true.
   * Ignored with midP or newcombe, whose p-value they are.
   */
  exactPValues?: boolean;
  /** Force the clustered branch to the t(G − 1) fallback (false) instead of CR2; default true. */
  cr2Available?: boolean;
  /**
   * [low, high], the range both models' scores can take (every score must lie in it): scores on a
   * declared scale count as bounded, so a skewed sample gets the betting interval on differences in
   * [low − high, high − low]. Default: bounded only when every score lies in [0, 1].
   */
  scoreRange?: readonly [number, number] | null;
  onProgress?: ((fraction: number) => void) | null;
}

/** The interval `--method auto` produced, with what it was and why. */
export interface AutoIntervalResult {
  method: 'auto';
  methodUsed: AutoMethodUsed;
  methodReason: string;
  /** True when the one-sided t bound is the end of the two-sided interval (bounded scores: IntervalMethodChoice.boundAtIntervalEnd); absent otherwise. */
  boundAtIntervalEnd?: boolean;
  /** mean(a − b). */
  estimate: number;
  confidenceInterval: [number, number];
  /** The SE behind the interval: CR2, t (naive or Miller's clustered), bootstrap; for 0/1 scores sd(a − b)/√n (descriptive: the score interval does not use it). */
  standardError: number;
  /** Degrees of freedom of a t-type interval (t, cluster-t, cr2); null otherwise. */
  df: number | null;
  /**
   * p-value of H0: mean(a − b) = 0 against `alternative` from the same method: Tango's score test
   * (tango; McNemar's Z without continuity correction; exact McNemar for newcombe), t test (t, cluster-t), CR2 t test (cr2); null for bca, studentized and betting (the caller's
   * permutation test supplies one).
   */
  pValue: number | null;
  /** Which test gave pValue. */
  pValueTest: 'tango-score' | 'mcnemar-exact' | 'mcnemar-mid-p' | 't' | 'cr2' | null;
  confidenceLevel: number;
  alternative: Alternative;
  n: number;
  nClusters: number | null;
  /** The bootstrap or t result when the rule picked one (bca, t, cluster-t). */
  bootstrap: BootstrapResult | null;
  /** The score interval's result for 0/1 scores (counts, exact and mid-p McNemar). */
  pairedProportion: PairedProportionResult | null;
  /** The CR2 result for clustered data (with Miller's SE beside it). */
  cr2: Cr2Result | null;
  /** Why the data cannot support an interval (the interval is then NaN), or null: see Cr2Result.noInterval. */
  noInterval: string | null;
  warnings: string[];
}

/**
 * The paired interval of mean(a − b) that `--method auto` uses, by the documented rule of
 * chooseIntervalMethod: 0/1 scores on independent items → Tango's score interval with the p-value of
 * its score test (McNemar's mid-p with `midP`); no resampling is done on that path; clustered → CR2 with Satterthwaite df (or t on G − 1 df when cr2Available is false);
 * continuous and too skewed by Cochran's rule (skewAware) → the fixed-n betting interval for [0, 1]
 * scores (bettingInterval on the differences, range [−1, 1], shuffled by `seed`), else the
 * studentized bootstrap (stratified with strata, strata of fewer than 3 items collapsed into a
 * neighbour by collapseSmallStrata, resampling rescaled values: studentizedBootstrap's `rescale`) with a warning; a one-sided bound → Student t;
 * continuous below AUTO_BCA_MIN_ITEMS items → Student t; otherwise BCa.
 * Reference: see chooseIntervalMethod, pairedProportionInterval, cr2Interval, bootstrapMean.
 * @param a A's per-item scores. @param b B's, paired item by item.
 * @param options confidenceLevel, alternative, nResamples, seed, cluster, strata (+ names), cr2Available.
 * @returns method 'auto', methodUsed, methodReason, estimate, confidenceInterval, standardError, df,
 *   pValue, pValueTest, settings, n, nClusters, and the underlying result (bootstrap / pairedProportion / cr2).
 * @throws {RangeError} as the method it uses (non-finite scores, unequal lengths, bad settings).
 * @example autoPairedInterval([1, 1, 1], [1, 1, 1]).confidenceInterval // => [-0.6576, 0.6576] (Tango with the n/(n − 1) correction, z²/(2 + z²))
 */
export function autoPairedInterval(a: ArrayLike<number>, b: ArrayLike<number>, options: AutoIntervalOptions = {}): AutoIntervalResult {
  // the settings are checked before the scores, as always
  checkConfidenceLevel(options.confidenceLevel);
  checkAlternative(options.alternative);
  // 0/1 scores on independent items (the rule's tango): one pass counts the table, which also checks
  // what pairedDifferences would (0 and 1 are finite); the interval needs no differences. Otherwise
  // (null: not all 0/1) the general path, whose checks name any bad value.
  const counts = (options.cluster ?? null) === null ? binaryPairedCounts(a, b) : null;
  if (counts === null) return autoIntervalOnDifferences(a, b, pairedDifferences(a, b), options);
  return autoInterval(a, b, null, options, autoIntervalChoice(a, b, options, undefined, counts));
}

/** The method autoPairedInterval uses on a and b, with the declared score range it checked (null when none was declared). */
export interface AutoChoice {
  choice: IntervalMethodChoice;
  scoreRange: [number, number] | null;
  /** a and b's paired table when both are all 0/1 and no clusters are given (binaryPairedCounts), else null; the 0/1 result reuses it. */
  counts?: PairedCounts | null;
  /** The one-walk summary of the differences the choice read (continuous scores without clusters, differences given), for the interval to read too; else null. */
  summary?: DifferenceSummary | null;
}

/**
 * The choice autoPairedInterval makes on a and b: the declared score range checked (every score
 * inside it), then chooseIntervalMethod with skewAware and cr2Available (default true). Computed once
 * per pair by compareModels and compareModelsParallel, which pass it to autoIntervalFromChoice
 * instead of letting each call choose again.
 * @throws {RangeError} for a bad score range or a score outside it, or as chooseIntervalMethod.
 * @example autoIntervalChoice([1, 0, 1], [1, 1, 0]).choice.methodUsed // => 'tango'
 */
export function autoIntervalChoice(a: ArrayLike<number>, b: ArrayLike<number>, options: AutoIntervalOptions = {}, differences?: Float64Array, counts?: PairedCounts | null, summary: DifferenceSummary | null = null): AutoChoice {
  const scoreRange = checkScoreRange(options.scoreRange ?? null, a, b);
  const cluster = options.cluster ?? null;
  // The table is counted once here (when clusters do not decide first) and kept for the 0/1 result.
  const binaryCounts = cluster !== null ? undefined : counts !== undefined ? counts : binaryPairedCounts(a, b);
  // Continuous scores without clusters: one walk gathers what the rule (and then the interval) reads
  // from the differences: their sum, spread and range check, instead of a walk for each.
  const known = summary ?? (cluster === null && binaryCounts === null && differences !== undefined && differences.length === a.length ? summarizeDifferences(a, b, differences, scoreRange ?? [0, 1], false) : null);
  const choice = chooseIntervalMethod({ a, b, differences, binaryCounts, summary: known, cluster, strata: options.strata ?? null, alternative: checkAlternative(options.alternative), scoreRange }, { cr2Available: options.cr2Available ?? true, skewAware: true });
  return { choice, scoreRange, counts: binaryCounts ?? null, summary: known };
}

/**
 * autoPairedInterval with its choice already made (autoIntervalChoice on the same a, b and options),
 * or made here when `made` is null: the same result either way.
 * @example autoIntervalFromChoice([1, 0, 1], [1, 1, 0], {}, autoIntervalChoice([1, 0, 1], [1, 1, 0])).methodUsed // => 'tango'
 */
export function autoIntervalFromChoice(a: ArrayLike<number>, b: ArrayLike<number>, options: AutoIntervalOptions, made: AutoChoice | null): AutoIntervalResult {
  checkConfidenceLevel(options.confidenceLevel);
  checkAlternative(options.alternative);
  return autoIntervalOnDifferences(a, b, pairedDifferences(a, b), options, made);
}

/**
 * autoPairedInterval on differences the caller has already computed and checked (pairedDifferences(a, b):
 * finite, a − b item by item, the lengths equal): compareModels computes each pair's once and shares
 * them, where autoPairedInterval would check and copy both score arrays again. The same result.
 * Formula: as autoPairedInterval, with d = a − b given.
 * Reference: see autoPairedInterval.
 * @param a A's scores. @param b B's. @param differences exactly a − b, as a Float64Array (not copied; not modified);
 *   or null, computed here if the choice needs them (a 0/1 choice does not: the gate passes its table's choice, `made`).
 * @param options as autoPairedInterval.
 * @param made the choice autoIntervalChoice made on the same a, b and options (compareModels makes it once per pair), or null to make it here.
 * @param summary summarizeDifferences(a, b, differences, range) when the caller walked them already
 *   (the gate: range its declared scoreRange, else [0, 1]), or null: read instead of walking again.
 * @returns as autoPairedInterval.
 * @throws {RangeError} as autoPairedInterval, except for the checks the differences already passed.
 * @example autoIntervalOnDifferences([1, 1, 1], [1, 1, 1], Float64Array.of(0, 0, 0)).confidenceInterval // => [-0.6576, 0.6576]
 */
export function autoIntervalOnDifferences(a: ArrayLike<number>, b: ArrayLike<number>, differences: Float64Array | null, options: AutoIntervalOptions = {}, made: AutoChoice | null = null, summary: DifferenceSummary | null = null): AutoIntervalResult {
  return autoInterval(a, b, differences, options, made, summary);
}

/**
 * autoIntervalOnDifferences, with `differences` null allowed when the choice is a 0/1 one (tango or
 * newcombe: computed from a and b otherwise, for the other branches).
 */
function autoInterval(a: ArrayLike<number>, b: ArrayLike<number>, given: Float64Array | null, options: AutoIntervalOptions, made: AutoChoice | null, known: DifferenceSummary | null = null): AutoIntervalResult {
  const confidenceLevel = checkConfidenceLevel(options.confidenceLevel);
  const alternative = checkAlternative(options.alternative);
  const n = given === null ? a.length : given.length;
  const cluster = options.cluster ?? null;
  const strata = options.strata ?? null;
  // the summary speaks for these differences only (the caller's, from the same arrays)
  const { choice: chosen, scoreRange, counts, summary: madeSummary = null } = made ?? autoIntervalChoice(a, b, options, given ?? undefined, undefined, known !== null && given !== null && known.n === n ? known : null);
  const summary = given !== null && madeSummary !== null && madeSummary.n === n ? madeSummary : null;
  const { warnings: choiceWarnings = [], ...choice } = chosen;
  const base = { method: 'auto' as const, ...choice, confidenceLevel, alternative, n };

  if (choice.methodUsed === 'newcombe' || choice.methodUsed === 'tango') {
    const exactPValues = options.midP === true || choice.methodUsed === 'newcombe' || options.exactPValues !== false;
    const table = counts ?? pairedCounts(a, b);
    const r = pairedProportionInterval(table, { method: choice.methodUsed, confidenceLevel, alternative, exactPValues });
    const standardError = binaryStandardError(a, b, given, table);
    const pValue = options.midP ? r.midPValue : choice.methodUsed === 'tango' ? r.scorePValue : r.exactPValue;
    const pValueTest = options.midP ? 'mcnemar-mid-p' : choice.methodUsed === 'tango' ? 'tango-score' : 'mcnemar-exact';
    return { ...base, estimate: r.estimate, confidenceInterval: r.confidenceInterval, standardError, df: null, pValue, pValueTest, nClusters: null, bootstrap: null, pairedProportion: r, cr2: null, noInterval: null, warnings: r.warnings };
  }
  const differences = given ?? pairedDifferences(a, b);
  let sum = 0;
  if (summary !== null) sum = summary.sum;
  else for (let i = 0; i < n; i++) sum += differences[i];
  const estimate = n > 0 ? sum / n : NaN;
  if (choice.methodUsed === 'cr2' && cluster !== null) {
    const clusterIds = Array.from(cluster, (c) => options.clusterNames?.[c] ?? `#${c}`);
    const r =
      strata === null
        ? cr2Interval(differences, clusterIds, { confidenceLevel, alternative })
        : cr2StratifiedInterval(differences, clusterIds, Array.from(strata, (h) => options.strataNames?.[h] ?? `#${h}`), { confidenceLevel, alternative });
    return { ...base, estimate: r.estimate, confidenceInterval: r.confidenceInterval, standardError: r.standardError, df: r.df, pValue: r.pValue, pValueTest: 'cr2', nClusters: r.nClusters, bootstrap: null, pairedProportion: null, cr2: r, noInterval: r.noInterval, warnings: r.warnings };
  }
  if (choice.methodUsed === 'betting' || choice.methodUsed === 'studentized') {
    // The SE reported beside them is the plain (or stratified) one, for the gate's items-needed
    // arithmetic; neither interval is estimate ± multiple of it.
    // Strata of fewer than 3 items are pooled with a neighbour (collapsed strata) for the
    // studentized bootstrap: the estimate (the plain mean) is unchanged, the variance gains degrees
    // of freedom (coverage study, strata of 21/6/2/2 items: 0.913 → 0.926, at 0.7× the width); the
    // resamples draw from each (collapsed) stratum's values rescaled by √(m/(m − 1)), so the
    // bootstrap's variance of the mean is the data's se² (bench/strata-variants-study.txt, 4000
    // replicates: 0.927 → 0.931 ± 0.004 in the study, 0.929 ± 0.004 with this code's resampling
    // stream; adopted by the rule fixed before the run, a gain within Monte Carlo error).
    const collapsed = strata !== null && choice.methodUsed === 'studentized' ? collapseSmallStrata(strata) : null;
    const r =
      choice.methodUsed === 'betting'
        ? bettingInterval(differences, { range: scoreRange === null ? [-1, 1] : [scoreRange[0] - scoreRange[1], scoreRange[1] - scoreRange[0]], confidenceLevel, alternative, seed: options.seed })
        : studentizedBootstrap(differences, { confidenceLevel, alternative, nResamples: options.nResamples, seed: options.seed, strata: collapsed?.strata ?? strata, rescale: strata !== null });
    const standardError = r.method === 'studentized' ? r.standardError : plainStandardError(differences, estimate);
    let methodReason = base.methodReason;
    if (collapsed?.collapsed) {
      const pooled = collapsed.groups.filter((g) => g.length > 1).map((g) => g.map((h) => options.strataNames?.[h] ?? `#${h}`).join(' + '));
      methodReason += `, strata of fewer than 3 items collapsed into a neighbour (${pooled.join('; ')})`;
    }
    return { ...base, methodReason, estimate: r.estimate, confidenceInterval: r.confidenceInterval, standardError, df: null, pValue: null, pValueTest: null, nClusters: null, bootstrap: null, pairedProportion: null, cr2: null, noInterval: null, warnings: [...choiceWarnings, ...r.warnings] };
  }
  const method = choice.methodUsed === 'bca' ? 'bca' : 't';
  // A one-sided t bound on bounded scores sits at the two-sided interval's end (R4): t's quantile at
  // 1 − α/2, the result still reported at the level asked for, its p-value doubled to match the bound.
  const atEnd = choice.boundAtIntervalEnd === true && method === 't' && alternative !== 'two-sided';
  const bootstrapOptions: BootstrapOptions = {
    method,
    confidenceLevel: atEnd ? 1 - (1 - confidenceLevel) / ONE_SIDED_BOUNDED_T_LEVEL_FACTOR : confidenceLevel,
    alternative,
    nResamples: options.nResamples,
    seed: options.seed,
    cluster,
    strata,
    strataNames: options.strataNames,
    clusterNames: options.clusterNames,
    onProgress: options.onProgress,
  };
  // the plain t path reads the sums the summary holds instead of walking the differences for them
  const r = meanBootstrap(differences, bootstrapOptions, summary === null ? null : { sum: summary.sum, residualSum: centralSums(summary, differences).residualSum });
  const result = autoResultFromBootstrap(choice, r);
  if (!atEnd) return result;
  return { ...result, confidenceLevel, pValue: result.pValue === null || Number.isNaN(result.pValue) ? result.pValue : Math.min(1, ONE_SIDED_BOUNDED_T_LEVEL_FACTOR * result.pValue) };
}

/**
 * How far a one-sided t bound on bounded scores (no strata, no clusters) moves toward the two-sided
 * interval: its α is divided by this (2: the bound is the end of the two-sided interval at the same
 * level, t's 1 − α/2 quantile). Adopted from bench/comet-gate-rules.txt (R4): on real COMET scores
 * with rare large losses the gate's false pass at a true drop equal to the margin falls from
 * 0.051–0.078 to 0.023–0.049; the price is power on roomy partial credit (quarter points, n = 50:
 * 0.283 → 0.200; n = 200: 0.677 → 0.576).
 */
export const ONE_SIDED_BOUNDED_T_LEVEL_FACTOR = 2;

/**
 * The auto result around a bootstrap or t result (methodUsed bca, t or cluster-t): the t methods get
 * their df (items or clusters minus strata) and t-test p-value; BCa leaves the p-value to the caller.
 */
export function autoResultFromBootstrap(choice: IntervalMethodChoice, r: BootstrapResult): AutoIntervalResult {
  let df: number | null = null;
  let pValue: number | null = null;
  if (r.method === 't') {
    df = (r.nClusters ?? r.n) - (r.nStrata ?? 1);
    pValue = tPValue(r.estimate / r.standardError, df, r.alternative);
  }
  // SE 0 on continuous scores: every difference (within each stratum) is the same, so the t or
  // bootstrap interval is the point [estimate, estimate]; no interval rather than a degenerate one.
  // (Up to rounding: a − b of scores 0.1 apart differ in the 17th digit.)
  if (r.standardError <= 1e-12 * Math.max(1, Math.abs(r.estimate))) {
    const noInterval = `every difference${r.nStrata !== undefined ? ' within each stratum' : ''} is the same (${Number(r.estimate.toPrecision(4))} on average), so these ${r.n} items show no variation to size an interval from: the data cannot support an interval`;
    return { method: 'auto', ...choice, estimate: r.estimate, confidenceInterval: [NaN, NaN], standardError: 0, df, pValue: NaN, pValueTest: r.method === 't' ? 't' : null, confidenceLevel: r.confidenceLevel, alternative: r.alternative, n: r.n, nClusters: r.nClusters ?? null, bootstrap: r, pairedProportion: null, cr2: null, noInterval, warnings: [...r.warnings, noInterval] };
  }
  return {
    method: 'auto',
    ...choice,
    estimate: r.estimate,
    confidenceInterval: r.confidenceInterval,
    standardError: r.standardError,
    df,
    pValue,
    pValueTest: r.method === 't' ? 't' : null,
    confidenceLevel: r.confidenceLevel,
    alternative: r.alternative,
    n: r.n,
    nClusters: r.nClusters ?? null,
    bootstrap: r,
    pairedProportion: null,
    cr2: null,
    noInterval: null,
    warnings: r.warnings,
  };
}

/**
 * sd(a − b)/√n for 0/1 scores with paired table `counts`: the same numbers, in the same order, as the
 * sum of (d_i − mean)² over the differences d_i = a_i − b_i, where every d_i is −1, 0 or 1. The mean is
 * (onlyA − onlyB)/n, which the sum of the d_i equals exactly (whole numbers below 2⁵³); the three squares
 * are computed once and added item by item in order, so the rounding is the per-item loop's.
 */
function binaryStandardError(a: ArrayLike<number>, b: ArrayLike<number>, differences: Float64Array | null, counts: PairedCounts): number {
  const n = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  if (n < 2) return NaN;
  const mean = (counts.onlyA - counts.onlyB) / n;
  // the squared deviations of d = −1, 0, 1
  const down = (-1 - mean) ** 2;
  const same = (0 - mean) ** 2;
  const up = (1 - mean) ** 2;
  let squares = 0;
  if (differences !== null) {
    for (let i = 0; i < n; i++) {
      const d = differences[i];
      squares += d === 0 ? same : d > 0 ? up : down;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const d = a[i] - b[i];
      squares += d === 0 ? same : d > 0 ? up : down;
    }
  }
  return Math.sqrt(squares / (n - 1) / n);
}

/** sd(d)/√n, exactly 0 when every difference is the same (rounding in the mean must not make it 1e-17). */
function plainStandardError(d: Float64Array, mean: number): number {
  const n = d.length;
  if (d.every((v) => v === d[0])) return 0;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (d[i] - mean) ** 2;
  return n > 1 ? Math.sqrt(squares / (n - 1) / n) : NaN;
}

function tPValue(t: number, df: number, alternative: Alternative): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (alternative === 'two-sided') return Math.min(1, 2 * studentTCdf(-Math.abs(t), df));
  return alternative === 'less' ? studentTCdf(t, df) : studentTCdf(-t, df);
}

/** A declared score range, checked: [low, high] finite with low < high, every score of a and b inside it. */
function checkScoreRange(range: readonly [number, number] | null, a: ArrayLike<number>, b: ArrayLike<number>): [number, number] | null {
  if (range === null) return null;
  checkScoreRangeShape(range);
  const [low, high] = range;
  for (const [name, x] of [['a', a], ['b', b]] as const) {
    for (let i = 0; i < x.length; i++) if (!(x[i] >= low && x[i] <= high)) throw new RangeError(`${name}[${i}] = ${x[i]} lies outside the declared score range [${low}, ${high}]`);
  }
  return [low, high];
}
