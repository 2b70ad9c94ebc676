import { buildDesign, thinGroups, type ResampleDesign } from './design.js';
import { intervalsFromDistribution, type IntervalOutcome } from './intervals.js';
import type { QuantileRule } from './quantile.js';
import { chunkCount, resampleIndexChunk } from './resample.js';
import { resolveSettings, type BootstrapSettings } from './settings.js';
import type { BootstrapOptions, BootstrapResult } from './types.js';

/**
 * Bootstrap confidence interval of any statistic of n items: the generic path beside the fast
 * one for means. `statistic(indices)` computes the statistic over the items whose indices it is
 * given (with repeats: a resample draws items with replacement); it is called once on 0 … n − 1 for
 * the estimate, once per resample, and, for BCa, once per jackknife index set (the items minus one
 * unit: one item, or one cluster with `cluster`). `cluster` and `strata` shape the resamples as in
 * bootstrapMean, and the index draws are the very same: `bootstrapStatistic(n, mean of values[indices])`
 * reproduces `bootstrapMean(values)` up to rounding whenever bootstrapMean draws indices (values with
 * many distinct values, or `resamplePath: 'indices'`); where it draws class counts instead (few
 * distinct values: see bootstrapMean) the two agree in distribution, not draw by draw.
 *
 * With `strata`, the BCa acceleration centres and scales the jackknife values within each stratum
 * (stratifiedAcceleration, Davison & Hinkley 1997 §3.7, §5.3.2). The jackknife calls `statistic`
 * on the data less one unit, so the leave-one-out statistic is whatever `statistic` makes of a
 * stratum one unit short: for a pooled mean that shifts weight between strata slightly (by
 * about 1/N_h); write the statistic as Σ_h (N_h / N) · mean_h to hold the weights fixed, as
 * bootstrapMean does. A stratum with a single unit never varies between resamples, so the interval
 * treats its part of the statistic as known: a warning names it. (bootstrapMean returns NaN there,
 * since it knows the stratum's weight; here only `statistic` knows how much that stratum counts.)
 *
 * The index array passed in is a reused buffer: read it during the call, do not keep it.
 * Method `'t'` is not available here (it needs a standard error formula): use tInterval.
 *
 * @param n the number of items (≥ 1).
 * @param statistic a pure function of the item indices, returning a number.
 * @param leaveOneOut optional: the statistic of the data less one unit, given that unit's items,
 *   when the caller can compute it in O(1) (e.g. totals minus the unit's part) — the BCa jackknife
 *   then costs O(n) instead of O(units · n). It must equal `statistic` on the data less that unit up
 *   to rounding (exactly, when the sums involved are exact, e.g. whole-number scores).
 * @returns a BootstrapResult; naiveStandardError is NaN (no formula for an arbitrary statistic).
 * @throws {RangeError} for n < 1, method 't', stratumWeights (weight inside your statistic instead),
 *   or as bootstrapMean. @throws {TypeError} when statistic is not a function.
 * @example bootstrapStatistic(values.length, (ix) => median(ix.map(i => values[i])), { method: 'percentile' })
 * Cost: O(B · n) statistic work, O(units · n) for the BCa jackknife; memory O(n + B).
 */
export function bootstrapStatistic(n: number, statistic: (indices: Int32Array) => number, options: BootstrapOptions = {}, leaveOneOut?: (items: Int32Array) => number): BootstrapResult {
  if (typeof statistic !== 'function') throw new TypeError(`statistic must be a function of the item indices (got ${typeof statistic})`);
  const settings = resolveSettings(options);
  if (settings.method === 't') throw new RangeError("bootstrapStatistic has no 't' method (got method 't'): use tInterval, or bootstrapMean for means");
  if (options.stratumWeights != null) throw new RangeError('bootstrapStatistic takes no stratumWeights: apply the weights inside your statistic (got stratumWeights)');
  const design = buildDesign(n, options, null);
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const estimate = statistic(all);
  const distribution = new Float64Array(settings.nResamples);
  const chunks = chunkCount(settings.nResamples);
  let done = 0;
  for (let k = 0; k < chunks; k++) {
    done += resampleIndexChunk(design, settings.seed, k, settings.nResamples, (indices, r) => {
      distribution[r] = statistic(indices);
    });
    options.onProgress?.(done / settings.nResamples);
  }
  const jackknife = settings.method !== 'bca' ? null : leaveOneOut ? unitJackknife(design, leaveOneOut) : statisticJackknife(design, statistic);
  const outcome = intervalsFromDistribution(distribution, estimate, jackknife, {
    method: settings.method,
    confidenceLevel: settings.confidenceLevel,
    alternative: settings.alternative,
    jackknifeGroups: design.stratified ? { start: design.groupStart, units: design.groupUnits } : null,
    dropNonFinite: options.dropNonFinite ?? false,
  });
  return statisticResult(design, settings, estimate, outcome);
}

/**
 * Leave-one-unit-out statistics: for each unit u, statistic(items without u's items), in unit order.
 * The raw values: the BCa acceleration centres them (within each stratum, with strata).
 */
export function statisticJackknife(design: ResampleDesign, statistic: (indices: Int32Array) => number): Float64Array {
  const { n, nUnits, unitStart, unitItems } = design;
  const out = new Float64Array(nUnits);
  const buffer = new Int32Array(n);
  // Items in unit order: leaving out unit u is dropping one contiguous run of unitItems.
  for (let u = 0; u < nUnits; u++) {
    let length = 0;
    for (let k = 0; k < unitStart[u]; k++) buffer[length++] = unitItems[k];
    for (let k = unitStart[u + 1]; k < n; k++) buffer[length++] = unitItems[k];
    out[u] = statistic(buffer.subarray(0, length));
  }
  return out;
}

/** Leave-one-unit-out statistics from the caller's O(1) formula, in unit order (as statisticJackknife). */
function unitJackknife(design: ResampleDesign, leaveOneOut: (items: Int32Array) => number): Float64Array {
  const out = new Float64Array(design.nUnits);
  for (let u = 0; u < design.nUnits; u++) out[u] = leaveOneOut(design.unitItems.subarray(design.unitStart[u], design.unitStart[u + 1]));
  return out;
}

/** The generic path's warning for a one-unit stratum: its interval is computed, but treats that stratum as known. */
function thinStatisticWarning(design: ResampleDesign, g: number): string {
  return `${design.groupLabel[g]} has a single ${design.clustered ? 'cluster' : 'item'}: it never varies between resamples, so the interval treats its part of the statistic as known (too narrow if that part matters)`;
}

function statisticResult(design: ResampleDesign, settings: BootstrapSettings, estimate: number, outcome: IntervalOutcome): BootstrapResult {
  const warnings = [...thinGroups(design).map((g) => thinStatisticWarning(design, g)), ...outcome.warnings];
  if (design.clustered && design.nClusters < 10) warnings.unshift(`only ${design.nClusters} clusters: resampling so few clusters gives unreliable intervals`);
  const result: BootstrapResult = {
    estimate,
    confidenceInterval: outcome.confidenceInterval,
    standardError: outcome.standardError,
    method: settings.method,
    confidenceLevel: settings.confidenceLevel,
    nResamples: settings.nResamples,
    seed: settings.seed,
    alternative: settings.alternative,
    n: design.n,
    bias: outcome.bias,
    biasCorrection: outcome.biasCorrection,
    acceleration: outcome.acceleration,
    naiveStandardError: NaN,
    warnings,
  };
  if (design.clustered) result.nClusters = design.nClusters;
  if (design.stratified) result.nStrata = design.nStrata;
  return result;
}

/** Settings of the internal entry points used to compare with scipy and R on the same resamples. */
export interface GivenResamplesSettings {
  method: 'percentile' | 'basic' | 'bca';
  confidenceLevel?: number;
  alternative?: BootstrapOptions['alternative'];
  quantileRule?: QuantileRule;
  biasRule?: 'split-ties' | 'strict';
}

/**
 * INTERNAL (tests): the interval from given resample indices (B rows of n item indices, row-major),
 * with the leave-one-out jackknife for BCa, so the tests can feed in the very indices numpy or R
 * drew and compare the intervals to 1e-12.
 * @param values per-item values; the statistic is their mean unless `statistic` is given.
 */
export function intervalsFromIndices(
  values: ArrayLike<number>,
  indices: ArrayLike<number>,
  nResamples: number,
  settings: GivenResamplesSettings,
  statistic: (x: ArrayLike<number>, indices: ArrayLike<number>) => number = meanAt,
): IntervalOutcome & { estimate: number; distribution: Float64Array } {
  const n = values.length;
  if (indices.length !== n * nResamples) throw new RangeError(`indices must hold ${nResamples} rows of ${n} (got ${indices.length} entries)`);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const estimate = statistic(values, all);
  const distribution = new Float64Array(nResamples);
  const row = new Int32Array(n);
  for (let r = 0; r < nResamples; r++) {
    for (let j = 0; j < n; j++) row[j] = indices[r * n + j];
    distribution[r] = statistic(values, row);
  }
  const jackknife = new Float64Array(n);
  const rest = new Int32Array(n - 1);
  for (let i = 0; i < n; i++) {
    let length = 0;
    for (let j = 0; j < n; j++) if (j !== i) rest[length++] = j;
    jackknife[i] = statistic(values, rest);
  }
  const outcome = intervalsFromDistribution(distribution, estimate, jackknife, {
    method: settings.method,
    confidenceLevel: settings.confidenceLevel ?? 0.95,
    alternative: settings.alternative ?? 'two-sided',
    quantileRule: settings.quantileRule,
    biasRule: settings.biasRule,
  });
  return { ...outcome, estimate, distribution };
}

/** The mean of x over the given indices, summed in index order. */
function meanAt(x: ArrayLike<number>, indices: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < indices.length; k++) s += x[indices[k]];
  return s / indices.length;
}

