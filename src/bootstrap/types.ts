import type { Seed } from '../random/seed.js';

/**
 * How a bootstrap interval is read off the resampled statistics (scipy.stats.bootstrap's `method`,
 * R boot.ci's `type`), plus the analytic Student t interval:
 * - `percentile`: the α/2 and 1 − α/2 quantiles of the bootstrap distribution (boot.ci "perc").
 * - `basic`: 2θ̂ minus those quantiles, swapped (boot.ci "basic", the "reverse percentile").
 * - `bca`: bias-corrected and accelerated quantiles (Efron 1987; boot.ci "bca").
 * - `t`: mean ± t(df, 1 − α/2) · SE, no resampling (scipy `ttest_rel(...).confidence_interval()`).
 */
export type IntervalMethod = 'percentile' | 'basic' | 'bca' | 't';

/**
 * Which side an interval or test looks at (scipy's `alternative`):
 * `two-sided` → [low, high]; `less` → (−∞, high] (H1: θ < 0); `greater` → [low, +∞) (H1: θ > 0).
 */
export type Alternative = 'two-sided' | 'less' | 'greater';

/** Every interval method, in the order the CLI lists them. */
export const INTERVAL_METHODS: readonly IntervalMethod[] = ['bca', 'percentile', 'basic', 't'];
/** Every alternative. */
export const ALTERNATIVE_HYPOTHESES: readonly Alternative[] = ['two-sided', 'less', 'greater'];

/**
 * Settings of a bootstrap. Every field is optional; the result echoes the values used.
 */
export interface BootstrapOptions {
  /** Interval method; default `'bca'`. */
  method?: IntervalMethod;
  /** Confidence level in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** Number of bootstrap resamples B, a whole number ≥ 1; default 9999. Ignored by `'t'`. */
  nResamples?: number;
  /** Seed of the resampling streams; default 0. Same seed, same data → same bytes, any thread count. */
  seed?: Seed;
  /** Default `'two-sided'`. */
  alternative?: Alternative;
  /**
   * Per item: the index (0 … G − 1) of its cluster (e.g. the document a slot belongs to).
   * When given, whole clusters are resampled and the BCa jackknife leaves out one cluster at a time.
   * With `strata` too, every cluster must lie within one stratum.
   */
  cluster?: Int32Array | null;
  /**
   * Per item: the index (0 … H − 1) of its stratum. When given, each resample draws, within each
   * stratum, as many units (items, or clusters) as the stratum has (R boot's `strata=`).
   */
  strata?: Int32Array | null;
  /**
   * With `strata`: one weight per stratum index (e.g. production traffic shares). The statistic
   * becomes Σ_h w_h · mean_h (a reweighted headline) instead of the pooled mean. Weights need not
   * sum to 1 (they are used as given); each must be finite and ≥ 0.
   */
  stratumWeights?: ArrayLike<number> | null;
  /**
   * Names of the stratum indices (strataNames[h] names stratum h, e.g. AlignedScores.strata), used
   * in every warning and error about a stratum: `stratum "rare_clause" has a single item …`. Without
   * them (or past their end) a stratum is named by index: `stratum #3`. Never changes the result.
   */
  strataNames?: readonly string[] | null;
  /**
   * Names of the cluster indices (clusterNames[c] names cluster c, e.g. AlignedScores.clusters), used
   * in every warning and error about a cluster: `cluster "doc-17" spans two strata …`; else `cluster #17`.
   */
  clusterNames?: readonly string[] | null;
  /**
   * Called with the fraction of resamples done (0 … 1), once per chunk, for a progress bar.
   * Never changes the result.
   */
  onProgress?: ((fraction: number) => void) | null;
  /**
   * INTERNAL (tests, bench): how resamples are drawn. `'auto'` (default) draws, in every group of
   * few distinct unit values, how many units of each value a resample takes (exact binomial draws:
   * the counts path) and elsewhere which units (the index path); `'indices'` or `'counts'` forces
   * one path everywhere. The bootstrap distribution is the same either way; the draws differ.
   */
  resamplePath?: 'auto' | 'indices' | 'counts';
  /**
   * bootstrapStatistic only: leave out resamples whose statistic is not a finite number (a ratio
   * that is 0/0 on some resamples, e.g. Krippendorff's alpha on a resample with one label value),
   * compute the interval from the rest, and say how many were left out. Default false: any such
   * resample makes the interval undefined (NaN), since the distribution is then not a number line.
   * Dropping conditions the interval on the statistic being defined; use it only where that is
   * the question asked.
   */
  dropNonFinite?: boolean;
}

/** Options of the threaded variants: the same as the sync ones, plus the number of worker threads. */
export interface ParallelBootstrapOptions extends BootstrapOptions {
  /** Worker threads, a whole number ≥ 1; default 1 (then no worker is started). Never changes the result. */
  threads?: number;
  /** INTERNAL (tests, bench): resampling work below which threads are not used; default PARALLEL_MIN_WORK. Given, it decides alone: the machine's load is not counted (threadsThatPay). */
  minParallelWork?: number;
}

/**
 * A bootstrap (or t) interval, with the settings that produced it. Plain JSON-able data.
 */
export interface BootstrapResult {
  /** θ̂: the statistic on the data as given (the mean, mean difference A − B, or weighted mean). */
  estimate: number;
  /** [low, high] at `confidenceLevel`; one end infinite for a one-sided alternative; NaN when undefined. */
  confidenceInterval: [number, number];
  /**
   * The bootstrap standard error: the sample SD (ddof 1) of the B resampled statistics, as scipy's
   * `standard_error`. For method `'t'`, the analytic SE used by the interval.
   */
  standardError: number;
  method: IntervalMethod;
  confidenceLevel: number;
  /** Resamples drawn (0 for method `'t'`). */
  nResamples: number;
  /** The seed, as text. */
  seed: string;
  alternative: Alternative;
  /** Items. */
  n: number;
  /** Clusters, when resampling clusters. */
  nClusters?: number;
  /** Strata, when resampling within strata. */
  nStrata?: number;
  /** mean(θ*) − θ̂ (NaN for `'t'`). */
  bias: number;
  /** BCa bias correction z0 = Φ⁻¹((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B); NaN unless method `'bca'`. */
  biasCorrection: number;
  /**
   * BCa acceleration a = Σ(θ̄ − θ_(i))³ / (6 (Σ(θ̄ − θ_(i))²)^1.5) from the jackknife; with strata,
   * Davison & Hinkley's stratified form (jackknife values centred and scaled within each stratum:
   * see stratifiedAcceleration). NaN unless `'bca'`.
   */
  acceleration: number;
  /**
   * Analytic SE assuming independent items: sd(x, ddof 1) / √n; stratified: √Σ w_h² s_h² / n_h with
   * w_h the stratumWeights or, unweighted, N_h / N.
   */
  naiveStandardError: number;
  /** Analytic cluster-robust SE (Miller 2024, Appendix A; per stratum with strata); only with `cluster`. NaN when a stratum (or the data) has a single cluster. */
  clusteredStandardError?: number;
  /** (clusteredStandardError / naiveStandardError)², the variance inflation from clustering; only with `cluster`. */
  designEffect?: number;
  /** Degenerate-but-valid cases (constant data, NaN bounds, few clusters, a stratum of one unit), in words, naming strata by strataNames. */
  warnings: string[];
}

/** Settings of `tInterval`. */
export interface TIntervalOptions {
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Default `'two-sided'`. */
  alternative?: Alternative;
}

/** Settings of `mcnemarTest`. */
export interface McNemarOptions {
  /** Continuity correction in the chi-square statistic; default true (statsmodels' default). */
  correction?: boolean;
}

/** The Student t interval and test of a mean (or mean paired difference). */
export interface TIntervalResult {
  estimate: number;
  confidenceInterval: [number, number];
  /** sd(x, ddof 1) / √n. */
  standardError: number;
  /** Degrees of freedom, n − 1. */
  df: number;
  /** estimate / standardError (NaN when the SE is 0 and the estimate is 0). */
  tStatistic: number;
  /** p-value of H0: mean = 0 against `alternative`. */
  pValue: number;
  confidenceLevel: number;
  alternative: Alternative;
  n: number;
  warnings: string[];
}

/** McNemar's test for paired 0/1 outcomes. */
export interface McNemarResult {
  /** Items where A is right (1) and B wrong (0): McNemar's b. */
  onlyA: number;
  /** Items where B is right and A wrong: McNemar's c. */
  onlyB: number;
  /** Items where both agree (both 1 or both 0). */
  concordant: number;
  /** Exact two-sided p: min(1, 2 · P(X ≤ min(b, c))), X ~ Binomial(b + c, 1/2); 1 when b + c = 0. */
  exactPValue: number;
  /** Chi-square statistic (|b − c| − 1)² / (b + c) with continuity correction, or (b − c)² / (b + c) without; NaN when b + c = 0. */
  chiSquare: number;
  /** P(χ²₁ ≥ chiSquare); NaN when b + c = 0. */
  chiSquarePValue: number;
  /** Whether the continuity correction was applied. */
  correction: boolean;
  n: number;
  warnings: string[];
}

/** Settings of the paired sign-flip permutation test. */
export interface SignFlipOptions {
  /** Random sign vectors when not exact; default 9999. */
  nPermutations?: number;
  seed?: Seed;
  alternative?: Alternative;
  /** Flip whole clusters (the unit of independence) instead of items. */
  cluster?: Int32Array | null;
  /** With `stratumWeights`: the test statistic is Σ_h w_h · mean_h instead of the pooled mean. */
  strata?: Int32Array | null;
  stratumWeights?: ArrayLike<number> | null;
  /** Names of the stratum and cluster indices for error messages, as in BootstrapOptions. */
  strataNames?: readonly string[] | null;
  clusterNames?: readonly string[] | null;
  /** Enumerate all 2^m sign vectors when there are at most this many units m; default 16. */
  exactMaxUnits?: number;
  /**
   * INTERNAL (tests, bench): how random sign vectors are drawn. `'auto'` (default) draws, when the
   * units' |contributions| take few distinct values, how many of each value flip (binomial draws:
   * the counts path), else one random bit per unit (`'signs'`); `'counts'` forces the counts path.
   * The permutation distribution is the same either way; the draws differ.
   */
  flipPath?: 'auto' | 'signs' | 'counts';
}

/** The paired sign-flip permutation test of H0: the differences are symmetric about 0. */
export interface SignFlipResult {
  /** The observed statistic (the mean difference, or its weighted version). */
  statistic: number;
  pValue: number;
  /** True when every sign vector was enumerated (p = count / 2^m); else p = (count + 1) / (B + 1). */
  exact: boolean;
  /** Sign vectors evaluated: 2^m when exact, else nPermutations. */
  nPermutations: number;
  /** Units flipped: items, or clusters. */
  units: number;
  seed: string;
  alternative: Alternative;
  warnings: string[];
}

/** compareModels' interval methods: `auto` (chooseIntervalMethod per pair) or a bootstrap / t method by name. */
export type CompareMethod = IntervalMethod | 'auto';

/** Every compare method, in the order the CLI lists them (auto, the CLI default, first). */
export const COMPARE_METHODS: readonly CompareMethod[] = ['auto', ...INTERVAL_METHODS];

/** Settings of `compareModels`: a bootstrap per pair plus the sign-flip test. */
export interface CompareModelsOptions extends Omit<BootstrapOptions, 'method'> {
  /**
   * `bca` (the library default), `percentile`, `basic`, `t`, or `auto`: per pair the interval of
   * autoPairedInterval (Tango + its score test for 0/1 scores, CR2 with clusters, t below 100
   * items, else BCa), its p-value from the same method (the sign-flip test for BCa).
   */
  method?: CompareMethod;
  /** With `auto` on 0/1 scores: McNemar's mid-p instead of the score test's p (see autoPairedInterval). */
  midP?: boolean;
  /** Permutations of the sign-flip test; default 9999. */
  nPermutations?: number;
  /**
   * With `auto`: [low, high], the range every model's scores can take (autoPairedInterval checks
   * them). Scores on a declared scale count as bounded: a skewed pair gets the betting interval.
   * Default: bounded only when every score lies in [0, 1].
   */
  scoreRange?: readonly [number, number] | null;
}

/** The threaded variant's settings. */
export interface ParallelCompareModelsOptions extends CompareModelsOptions {
  threads?: number;
  /** INTERNAL (tests, bench): see ParallelBootstrapOptions. */
  minParallelWork?: number;
}

