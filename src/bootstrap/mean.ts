import { millerVariance } from '../paired/clustered-se.js';
import { buildDesign, designEstimate, designJackknife, isPlainDesign, thinGroups, thinGroupWarning, type ResampleDesign } from './design.js';
import { intervalsFromDistribution } from './intervals.js';
import { CHUNK_RESAMPLES, chunkCount, resampleMeanChunk } from './resample.js';
import { finiteValues, pairedDifferences, resolveSettings, type BootstrapSettings } from './settings.js';
import { tIntervalFromStandardError } from '../paired/t-interval.js';
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
 * Method `'t'`: n − 1 degrees of freedom; with clusters Miller's clustered SE and G − 1; with strata
 * the stratified SE √(Σ_h w_h² s_h² / n_h), w_h the stratumWeights or, unweighted, N_h / N (the pooled
 * mean with fixed stratum counts is Σ_h (N_h / N) mean_h), and n − H degrees of freedom; with clusters
 * within strata, the per-stratum clustered variances summed and G − H (R survey's `degf`). See
 * analyticStandardErrors for the exact terms.
 *
 * BCa with strata: the acceleration from the stratified jackknife (designJackknife,
 * stratifiedAcceleration: Davison & Hinkley 1997 §3.7, §5.3.2), centred and scaled within each stratum.
 * A stratum that carries weight but has a single unit (item, or cluster) gives NaN bounds and a NaN
 * standard error, with a warning naming it: one unit has no sampling variance to estimate.
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

/**
 * The synchronous mean bootstrap on checked values. Method 't' on the plain design (no clusters,
 * strata or weights) builds no design: plainTResult gives the same result bit for bit.
 */
export function meanBootstrap(values: Float64Array, options: BootstrapOptions, sums: PlainSums | null = null): BootstrapResult {
  if (isPlainDesign(values.length, options)) {
    const settings = resolveSettings(options);
    if (settings.method === 't') return plainTResult(values, settings, sums);
  }
  return meanBootstrapOnDesign(buildDesign(values.length, options, values), values, options);
}

/** meanBootstrap on a design already built from these values and options (compareModels reuses it for the pair's test). */
export function meanBootstrapOnDesign(design: ResampleDesign, values: Float64Array, options: BootstrapOptions): BootstrapResult {
  const settings = resolveSettings(options);
  if (settings.method === 't' || thinGroups(design).length > 0) return meanResult(design, values, settings, null);
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
 * Assembles the result from the resampled means (null for method 't', or when a stratum is too thin
 * to have an interval): the interval, the analytic SEs, and the warnings about the design.
 */
export function meanResult(design: ResampleDesign, values: Float64Array, settings: BootstrapSettings, distribution: Float64Array | null): BootstrapResult {
  const estimate = designEstimate(design);
  const analytic = analyticStandardErrors(design, values);
  const warnings: string[] = [];
  if (design.clustered && design.nClusters < 10) warnings.push(`only ${design.nClusters} clusters: resampling so few clusters gives unreliable intervals`);
  const thin = thinGroups(design);
  for (const g of thin) warnings.push(thinGroupWarning(design, g));
  let confidenceInterval: [number, number];
  let standardError: number;
  let bias = NaN;
  let biasCorrection = NaN;
  let acceleration = NaN;
  if (thin.length > 0) {
    confidenceInterval = [settings.alternative === 'less' ? -Infinity : NaN, settings.alternative === 'greater' ? Infinity : NaN];
    standardError = NaN;
  } else if (distribution === null) {
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
      jackknifeGroups: design.stratified ? { start: design.groupStart, units: design.groupUnits } : null,
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
 * (n − 1; clustered SE with G − 1; stratified SE with n − H, or G − H with clusters).
 */
export function designTInterval(design: ResampleDesign, values: Float64Array, settings: Pick<BootstrapSettings, 'confidenceLevel' | 'alternative'>): TIntervalResult {
  const analytic = analyticStandardErrors(design, values);
  const clustered = design.clustered;
  const se = clustered ? analytic.clustered : analytic.naive;
  const groups = design.stratified ? design.nStrata : 1;
  const df = (clustered ? design.nClusters : design.n) - groups;
  return tIntervalFromStandardError(designEstimate(design), se, df, design.n, settings.confidenceLevel, settings.alternative);
}

/**
 * Analytic variances of the design's statistic, as the sum over strata (one group when not
 * stratified) of millerVariance of the stratum's residuals, with its clusters (or one item per
 * cluster for `naive`):
 * - pooled mean (not stratified): residuals s_i − s̄, scale 1/n: SE_CLT = sd/√n and Miller's clustered SE;
 * - weighted strata (Σ_h w_h mean_h): stratum h's residuals s_i − mean_h, scale w_h / N_h, so
 *   naive = Σ_h w_h² s_h² / N_h and clustered = Σ_h w_h² · (Miller's variance of mean_h);
 * - unweighted strata (the pooled mean S / N with stratum sizes held fixed): residuals s_i − s̄
 *   (the pooled mean), scale 1/N, cluster totals centred within the stratum. Without clusters this
 *   is Σ_h (N_h / N)² s_h² / N_h, R survey's `svymean` with `svydesign(ids = ~1, strata = ~s)`;
 *   with clusters, survey's stratified cluster variance Σ_h Σ_c (T_c − T̄_h)² / N² without its
 *   C_h / (C_h − 1), plus Miller's Σ_h Σ_i (s_i − mean_h)² / (N² (N_h − 1)).
 * A stratum with weight 0 contributes nothing; one that carries weight with a single unit makes
 * the clustered SE NaN (one cluster says nothing about the variance between clusters).
 */
function analyticStandardErrors(design: ResampleDesign, values: Float64Array): { naive: number; clustered: number } {
  const { groupStart, groupUnits, unitStart, unitItems, groupWeight, n } = design;
  const groups = groupStart.length - 1;
  let pooledMean = 0;
  if (groupWeight === null) {
    for (let i = 0; i < n; i++) pooledMean += values[i];
    pooledMean /= n;
  }
  let naive = 0;
  let clustered = 0;
  for (let g = 0; g < groups; g++) {
    const weight = groupWeight === null ? 1 : groupWeight[g];
    if (weight === 0) continue;
    const units = groupStart[g + 1] - groupStart[g];
    let items = 0;
    let sum = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      const u = groupUnits[k];
      for (let j = unitStart[u]; j < unitStart[u + 1]; j++) sum += values[unitItems[j]];
      items += unitStart[u + 1] - unitStart[u];
    }
    const centre = groupWeight === null ? pooledMean : sum / items;
    const residuals = new Float64Array(items);
    const cluster = design.clustered ? new Int32Array(items) : null;
    let next = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      const u = groupUnits[k];
      for (let j = unitStart[u]; j < unitStart[u + 1]; j++) {
        if (cluster !== null) cluster[next] = k - groupStart[g];
        residuals[next++] = values[unitItems[j]] - centre;
      }
    }
    const v = millerVariance(residuals, cluster, units, groupWeight === null ? 1 / n : weight / items);
    naive += v.naive;
    clustered += units < 2 ? NaN : v.clustered;
  }
  return { naive: Math.sqrt(naive), clustered: Math.sqrt(design.clustered ? clustered : naive) };
}

/**
 * Σ x_i and Σ (x_i − x̄) in item order, x̄ = Σ x_i / n: plainMoments' first two walks, when the caller
 * has them (the auto path's one-walk summary of the differences, src/paired/difference-summary.ts).
 */
export interface PlainSums {
  sum: number;
  residualSum: number;
}

/**
 * The mean and Miller's naive variance of the plain design (no clusters, strata or weights) in three
 * passes without building it: the same floating-point operations, in the same order, as
 * designEstimate and analyticStandardErrors on buildDesign(n, {}, values), so the same bits (a
 * single-item unit's sum is its value exactly; the residuals are recomputed instead of stored).
 */
function plainMoments(values: ArrayLike<number>, sums: PlainSums | null = null): { estimate: number; naive: number } {
  const n = values.length;
  let sum = 0;
  if (sums !== null) sum = sums.sum;
  else for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  // millerVariance on the residuals r_i = x_i − mean with scale 1/n and no clusters
  let residualSum = 0;
  if (sums !== null) residualSum = sums.residualSum;
  else for (let i = 0; i < n; i++) residualSum += values[i] - mean;
  const residualMean = residualSum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean - residualMean;
    squares += d * d;
  }
  const scale = 1 / n;
  const s2 = scale * scale;
  return { estimate: mean, naive: n < 2 ? NaN : Math.sqrt((s2 * squares * n) / (n - 1)) };
}

/**
 * The mean of values, as designEstimate(buildDesign(n, {}, values)) computes it (Σ x_i in order, / n),
 * without the design. The caller checks the options are plain (isPlainDesign).
 * Formula: x̄ = Σ_i x_i / n.
 * @param values at least one finite value.
 * @returns the mean.
 * @example plainMean([1, 2, 4]) // => 2.3333333333333335
 */
export function plainMean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/**
 * designTInterval on the plain design (no clusters, strata or weights), without building it: the
 * t interval and test of the mean with SE = sd/√n on n − 1 degrees of freedom, the same bits as
 * designTInterval(buildDesign(n, {}, values), values, settings) (tests/bootstrap/plain-path.test.ts).
 * Formula: x̄ ± t(n − 1, 1 − α) · sd/√n (α halved two-sided).
 * Reference: scipy `ttest_1samp(values, 0).confidence_interval(confidence_level)`.
 * @param values the checked values (paired differences). @param settings level and sides.
 * @returns a TIntervalResult.
 * @example plainTInterval(Float64Array.of(1, 2, 3, 4), { confidenceLevel: 0.95, alternative: 'two-sided' }).confidenceInterval // => [0.44573974323947896, 4.5542602567605215]
 */
export function plainTInterval(values: Float64Array, settings: Pick<BootstrapSettings, 'confidenceLevel' | 'alternative'>): TIntervalResult {
  const { estimate, naive } = plainMoments(values);
  return tIntervalFromStandardError(estimate, naive, values.length - 1, values.length, settings.confidenceLevel, settings.alternative);
}

/**
 * meanResult for method 't' on the plain design (no clusters, strata or weights), without building
 * it: the same BootstrapResult, field for field and bit for bit (tests/bootstrap/plain-path.test.ts),
 * in three passes over the values and no allocation of n entries.
 * Formula: estimate x̄, standardError = naiveStandardError = sd/√n, interval x̄ ± t(n − 1, 1 − α) · sd/√n.
 * Reference: scipy `ttest_1samp(values, 0)`; R `t.test(values)`.
 * @param values the checked values. @param settings resolved settings (method 't'). @param sums Σ x_i and Σ (x_i − x̄) when the caller has them (the same bits), or null.
 * @returns a BootstrapResult with nResamples 0 and NaN bias, biasCorrection and acceleration.
 * @example plainTResult(Float64Array.of(1, 2, 3, 4), resolveSettings({ method: 't' })).standardError // => 0.6454972243679028
 */
export function plainTResult(values: Float64Array, settings: BootstrapSettings, sums: PlainSums | null = null): BootstrapResult {
  const { estimate, naive } = plainMoments(values, sums);
  const t = tIntervalFromStandardError(estimate, naive, values.length - 1, values.length, settings.confidenceLevel, settings.alternative);
  return {
    estimate,
    confidenceInterval: t.confidenceInterval,
    standardError: t.standardError,
    method: settings.method,
    confidenceLevel: settings.confidenceLevel,
    nResamples: 0,
    seed: settings.seed,
    alternative: settings.alternative,
    n: values.length,
    bias: NaN,
    biasCorrection: NaN,
    acceleration: NaN,
    naiveStandardError: naive,
    warnings: [...t.warnings],
  };
}
