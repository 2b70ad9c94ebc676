import { buildDesign, designEstimate, designJackknife, type ResampleDesign } from './design.js';
import { intervalsFromDistribution } from './intervals.js';
import { CHUNK_RESAMPLES, chunkCount, resampleMeanChunk } from './resample.js';
import { finiteValues, pairedDifferences, resolveSettings, type BootstrapSettings } from './settings.js';
import { tIntervalFromStandardError } from './t-interval.js';
import type { BootstrapOptions, BootstrapResult, TIntervalResult } from './types.js';

/**
 * Bootstrap confidence interval of a mean (or, with strata and stratumWeights, of the weighted
 * mean Σ_h w_h · mean_h), the fast path: no resample is ever stored, so memory is O(n + B), and
 * time is O(n · B) (index path) or O(n + K · B) (counts path, K distinct values; see below).
 *
 * Conventions are scipy.stats.bootstrap's: B resamples of n items drawn with replacement; the
 * interval by percentile / basic / BCa (`method`) at `confidenceLevel`, one-sided with `alternative`;
 * quantiles by linear interpolation (type 7); BCa z0 with ties split half-and-half and the
 * acceleration from the leave-one-out jackknife, computed in O(n). With `cluster`, whole clusters
 * are drawn and the statistic is the mean of the drawn items; the jackknife leaves out one cluster.
 * With `strata`, each stratum's units are drawn within it (R boot's `strata=`). Method `'t'` is the
 * analytic interval (see BootstrapResult.standardError and the notes on degrees of freedom below).
 *
 * Degrees of freedom for `'t'`: n − 1; with clusters the clustered SE and G − 1; with weighted strata
 * the stratified SE √(Σ w_h² s_h² / n_h) and n − H (G − H when clustered).
 *
 * Two exact ways to draw a resample (resample.ts), chosen per group (stratum) from the data alone:
 * - the counts path, when the group's units take few distinct (sum, count) values (K ≤ 64 and
 *   m ≥ 32 (K − 1) for m units; e.g. 0/1 paired differences, K = 3): a resample's mean depends only
 *   on how many units of each value it draws, and those counts are Multinomial(m; c_1/m, …, c_K/m),
 *   drawn as K − 1 exact binomials, O(K) per resample instead of O(m);
 * - the index path otherwise: m uniform unit indices, the sums accumulated as they are drawn.
 * Both give the same bootstrap distribution (the counts path is not an approximation).
 *
 * Randomness: resample r belongs to chunk ⌊r / 256⌋, and chunk k draws from the stream
 * `${seed}:chunk:${k}`, so `bootstrapMeanParallel` gives the same bytes with any number of threads.
 *
 * @param x per-item values, finite.
 * @param options see BootstrapOptions (defaults: bca, 0.95, 9999 resamples, seed 0, two-sided).
 * @returns a BootstrapResult (estimate, confidenceInterval, standardError, settings echoed, bias,
 *   biasCorrection, acceleration, naive and clustered SEs, designEffect, warnings).
 * @throws {RangeError} on non-finite values, no values, bad settings or labels. @throws {TypeError} on a bad seed.
 * @example bootstrapMean([10, 12, 12.5, 12.5, 13.9, 15, 21, 22, 23, 34, 50, 81, 89, 121, 134, 213], { method: 'percentile' }).confidenceInterval
 * // => close to R boot's (28.86, 84.21) (scipy's test_bootstrap_against_R)
 */
export function bootstrapMean(x: ArrayLike<number>, options: BootstrapOptions = {}): BootstrapResult {
  return meanBootstrap(finiteValues('x', x), options);
}

/**
 * Paired bootstrap interval of the mean difference mean(A − B) over items both models scored:
 * `bootstrapMean` of the differences d_i = a_i − b_i (item i of `a` pairs with item i of `b`).
 * This is the question a selection benchmark answers: is A better than B on the same items, and by
 * how much. Reference: scipy `bootstrap((a, b), lambda a, b, axis: np.mean(a - b, axis), paired=True)`.
 * @param a model A's per-item scores. @param b model B's, same length and order.
 * @returns as bootstrapMean; estimate is mean(A − B).
 * @throws {RangeError} when a and b differ in length, or as bootstrapMean.
 * @example bootstrapMeanDifference([0.9, 0.8, 0.7], [0.5, 0.6, 0.7], { method: 'percentile' }).estimate // => 0.2
 */
export function bootstrapMeanDifference(a: ArrayLike<number>, b: ArrayLike<number>, options: BootstrapOptions = {}): BootstrapResult {
  return meanBootstrap(pairedDifferences(a, b), options);
}

/** The synchronous mean bootstrap on checked values. */
export function meanBootstrap(values: Float64Array, options: BootstrapOptions): BootstrapResult {
  const settings = resolveSettings(options);
  const design = buildDesign(values.length, options, values);
  if (settings.method === 't') return meanResult(design, values, settings, null);
  const distribution = new Float64Array(settings.nResamples);
  const chunks = chunkCount(settings.nResamples);
  const progress = options.onProgress ?? null;
  let done = 0;
  for (let k = 0; k < chunks; k++) {
    done += resampleMeanChunk(design, settings.seed, k, settings.nResamples, distribution, k * CHUNK_RESAMPLES);
    if (progress !== null) progress(done / settings.nResamples);
  }
  return meanResult(design, values, settings, distribution);
}

/**
 * Assembles the result from the resampled means (null for method 't'): the interval, the analytic
 * SEs, and the warnings about the design.
 */
export function meanResult(design: ResampleDesign, values: Float64Array, settings: BootstrapSettings, distribution: Float64Array | null): BootstrapResult {
  const estimate = designEstimate(design);
  const analytic = analyticStandardErrors(design, values);
  const warnings: string[] = [];
  if (design.clustered && design.nClusters < 10) warnings.push(`only ${design.nClusters} clusters: resampling so few clusters gives unreliable intervals`);
  if (design.stratified) {
    for (let g = 0; g + 1 < design.groupStart.length; g++) {
      if (design.groupStart[g + 1] - design.groupStart[g] === 1) {
        warnings.push(`stratum ${design.groupStratum[g]} has a single ${design.clustered ? 'cluster' : 'item'}: it never varies between resamples`);
      }
    }
  }
  let confidenceInterval: [number, number];
  let standardError: number;
  let bias = NaN;
  let biasCorrection = NaN;
  let acceleration = NaN;
  if (distribution === null) {
    const t = designTInterval(design, values, settings);
    confidenceInterval = t.confidenceInterval;
    standardError = t.standardError;
    warnings.push(...t.warnings);
  } else {
    const jackknife = settings.method === 'bca' ? designJackknife(design) : null;
    const method = settings.method === 't' ? 'percentile' : settings.method;
    const outcome = intervalsFromDistribution(distribution, estimate, jackknife, {
      method,
      confidenceLevel: settings.confidenceLevel,
      alternative: settings.alternative,
    });
    confidenceInterval = outcome.confidenceInterval;
    standardError = outcome.standardError;
    bias = outcome.bias;
    biasCorrection = outcome.biasCorrection;
    acceleration = outcome.acceleration;
    warnings.push(...outcome.warnings);
  }
  const result: BootstrapResult = {
    estimate,
    confidenceInterval,
    standardError,
    method: settings.method,
    confidenceLevel: settings.confidenceLevel,
    nResamples: distribution === null ? 0 : settings.nResamples,
    seed: settings.seed,
    alternative: settings.alternative,
    n: design.n,
    bias,
    biasCorrection,
    acceleration,
    naiveStandardError: analytic.naive,
    warnings,
  };
  if (design.clustered) {
    result.nClusters = design.nClusters;
    result.clusteredStandardError = analytic.clustered;
    result.designEffect = analytic.naive > 0 ? (analytic.clustered * analytic.clustered) / (analytic.naive * analytic.naive) : NaN;
  }
  if (design.stratified) result.nStrata = design.nStrata;
  return result;
}

/**
 * The t interval and test of the design's statistic: SE and df as described at bootstrapMean
 * (n − 1; clustered SE with G − 1; stratified SE with n − H or G − H).
 */
export function designTInterval(design: ResampleDesign, values: Float64Array, settings: Pick<BootstrapSettings, 'confidenceLevel' | 'alternative'>): TIntervalResult {
  const analytic = analyticStandardErrors(design, values);
  const clustered = design.clustered;
  const se = clustered ? analytic.clustered : analytic.naive;
  const groups = design.groupWeight !== null ? design.nStrata : 1;
  const df = (clustered ? design.nClusters : design.n) - groups;
  return tIntervalFromStandardError(designEstimate(design), se, df, design.n, settings.confidenceLevel, settings.alternative);
}

/**
 * Analytic SEs of the design's statistic. Pooled mean: SE_CLT = sd / √n and Miller's clustered SE
 * (see clusteredStandardError). Weighted strata: the same per stratum, combined as
 * √(Σ_h w_h² · V_h) with V_h the stratum mean's variance.
 */
function analyticStandardErrors(design: ResampleDesign, values: Float64Array): { naive: number; clustered: number } {
  const { groupStart, groupWeight } = design;
  const groups = groupStart.length - 1;
  if (groupWeight === null) return pooledErrors(design, values, 0, groups);
  let naive = 0;
  let clustered = 0;
  for (let g = 0; g < groups; g++) {
    const part = pooledErrors(design, values, g, g + 1);
    const w2 = groupWeight[g] * groupWeight[g];
    if (w2 === 0) continue;
    naive += w2 * part.naive * part.naive;
    clustered += w2 * part.clustered * part.clustered;
  }
  return { naive: Math.sqrt(naive), clustered: Math.sqrt(clustered) };
}

/** Miller's SEs over the items of groups [g0, g1): a pooled mean of those items. */
function pooledErrors(design: ResampleDesign, values: Float64Array, g0: number, g1: number): { naive: number; clustered: number } {
  const { groupStart, groupUnits, unitStart, unitItems } = design;
  let sum = 0;
  let n = 0;
  for (let k = groupStart[g0]; k < groupStart[g1]; k++) {
    const u = groupUnits[k];
    for (let j = unitStart[u]; j < unitStart[u + 1]; j++) {
      sum += values[unitItems[j]];
      n += 1;
    }
  }
  const mean = sum / n;
  let squares = 0;
  let clusterSquares = 0;
  for (let k = groupStart[g0]; k < groupStart[g1]; k++) {
    const u = groupUnits[k];
    let deviation = 0;
    for (let j = unitStart[u]; j < unitStart[u + 1]; j++) {
      const d = values[unitItems[j]] - mean;
      squares += d * d;
      deviation += d;
    }
    clusterSquares += deviation * deviation;
  }
  if (n < 2) return { naive: NaN, clustered: NaN };
  const naiveVariance = squares / (n - 1) / n;
  const clusteredVariance = naiveVariance + (clusterSquares - squares) / (n * n);
  return { naive: Math.sqrt(naiveVariance), clustered: squares === 0 ? 0 : clusteredVariance >= 0 ? Math.sqrt(clusteredVariance) : NaN };
}
