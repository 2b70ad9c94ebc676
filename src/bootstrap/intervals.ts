import { normalCdf, normalQuantile } from '../distributions/index.js';
import { sortedQuantile, type QuantileRule } from './quantile.js';
import type { Alternative, IntervalMethod } from './types.js';

/** What reading an interval off a bootstrap distribution needs besides the distribution. */
export interface IntervalSettings {
  method: Exclude<IntervalMethod, 't'>;
  confidenceLevel: number;
  alternative: Alternative;
  /** Quantile rule; default `'linear'` (scipy). `'boot'` reproduces R boot.ci on the same resamples. */
  quantileRule?: QuantileRule;
  /**
   * BCa bias-correction count: `'split-ties'` (scipy, default) uses (#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B;
   * `'strict'` (R boot.ci) uses #{θ* < θ̂} / B. They differ only when some θ* equals θ̂ exactly.
   */
  biasRule?: 'split-ties' | 'strict';
  /**
   * The strata of the jackknife values (CSR: the units of group g are jackknifeGroups.units[start[g] … start[g + 1])),
   * for stratifiedAcceleration; null or absent for one group (jackknifeAcceleration).
   */
  jackknifeGroups?: { start: Int32Array; units: Int32Array } | null;
  /** Leave out non-finite resampled statistics (with a warning) instead of returning NaN bounds. */
  dropNonFinite?: boolean;
}

/** The interval and its by-products, before the settings are echoed. */
export interface IntervalOutcome {
  confidenceInterval: [number, number];
  standardError: number;
  bias: number;
  biasCorrection: number;
  acceleration: number;
  warnings: string[];
}

/**
 * Reads a percentile, basic or BCa interval off a bootstrap distribution (the internal entry point
 * the tests use to compare with scipy and R on the very same resamples).
 *
 * - alpha = (1 − confidenceLevel) / 2 two-sided, 1 − confidenceLevel one-sided (scipy ≥ 1.12).
 * - percentile: [q(alpha), q(1 − alpha)].
 * - basic: [2θ̂ − q(1 − alpha), 2θ̂ − q(alpha)].
 * - bca: z0 = Φ⁻¹((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B); with U_i = mean(θ_(·)) − θ_(i) the jackknife deviations,
 *   a = Σ U_i³ / (6 (Σ U_i²)^1.5) (with `jackknifeGroups`: stratifiedAcceleration); alpha_1 = Φ(z0 + (z0 + z_alpha) / (1 − a (z0 + z_alpha))), alpha_2 the same with
 *   z_(1−alpha); interval [q(alpha_1), q(alpha_2)] (Efron & Tibshirani 1993, eq. 14.10 and 14.15; scipy `_bca_interval`).
 * - less: the low end is −∞; greater: the high end is +∞.
 * The standard error is the SD (ddof 1) of the distribution, the bias mean(θ*) − θ̂.
 * Degenerate cases (a jackknife with no spread, an undefined z0) give NaN bounds and a warning.
 *
 * @param distribution the B resampled statistics, in resample order (not modified).
 * @param estimate θ̂ on the data as given.
 * @param jackknife the leave-one-out statistics θ_(i) (needed for BCa only).
 * @throws {RangeError} when the distribution is empty or BCa lacks the jackknife values.
 * O(B log B) for the sort; O(B) memory.
 */
export function intervalsFromDistribution(
  distribution: ArrayLike<number>,
  estimate: number,
  jackknife: ArrayLike<number> | null,
  settings: IntervalSettings,
): IntervalOutcome {
  const count = distribution.length;
  if (count < 1) throw new RangeError('the bootstrap distribution is empty (got 0 resamples)');
  const warnings: string[] = [];
  const rule = settings.quantileRule ?? 'linear';
  // Two passes, shifted by the first value: a constant distribution then has SE exactly 0 and bias
  // exactly θ* − θ̂ (a plain running sum of 9,999 equal values does not divide back to the value).
  const shift = distribution[0];
  let sum = 0;
  let nonFinite = 0;
  for (let r = 0; r < count; r++) {
    const v = distribution[r];
    if (!Number.isFinite(v)) nonFinite += 1;
    sum += v - shift;
  }
  const offset = sum / count;
  const meanStar = shift + offset;
  let squares = 0;
  for (let r = 0; r < count; r++) {
    const d = distribution[r] - shift - offset;
    squares += d * d;
  }
  const standardError = count > 1 ? Math.sqrt(squares / (count - 1)) : NaN;
  const bias = meanStar - estimate;
  const nan: IntervalOutcome = {
    confidenceInterval: [NaN, NaN],
    standardError,
    bias,
    biasCorrection: NaN,
    acceleration: NaN,
    warnings,
  };
  if (nonFinite > 0 && settings.dropNonFinite && nonFinite < count) {
    const finite = Float64Array.from(distribution).filter(Number.isFinite);
    const outcome = intervalsFromDistribution(finite, estimate, jackknife, { ...settings, dropNonFinite: false });
    outcome.warnings.unshift(`${nonFinite} of ${count} resampled statistics are not finite numbers (undefined on those resamples): the interval is over the other ${finite.length}`);
    return outcome;
  }
  if (nonFinite > 0) {
    warnings.push(`${nonFinite} of ${count} resampled statistics are not finite numbers; the interval is undefined`);
    return nan;
  }
  if (!Number.isFinite(estimate)) {
    warnings.push(`the estimate is not a finite number (got ${estimate}); the interval is undefined`);
    return nan;
  }
  const sorted = Float64Array.from(distribution).sort();
  const alpha = settings.alternative === 'two-sided' ? (1 - settings.confidenceLevel) / 2 : 1 - settings.confidenceLevel;
  let low: number;
  let high: number;
  let biasCorrection = NaN;
  let acceleration = NaN;
  if (settings.method === 'percentile') {
    low = sortedQuantile(sorted, alpha, rule);
    high = sortedQuantile(sorted, 1 - alpha, rule);
  } else if (settings.method === 'basic') {
    low = 2 * estimate - sortedQuantile(sorted, 1 - alpha, rule);
    high = 2 * estimate - sortedQuantile(sorted, alpha, rule);
  } else {
    if (jackknife === null) throw new RangeError('a BCa interval needs the jackknife statistics (got null)');
    const below = countBelow(sorted, estimate, false);
    const atOrBelow = countBelow(sorted, estimate, true);
    biasCorrection = normalQuantile(settings.biasRule === 'strict' ? below / count : (below + atOrBelow) / (2 * count));
    const groups = settings.jackknifeGroups ?? null;
    acceleration = groups !== null && groups.start.length > 2 ? stratifiedAcceleration(jackknife, groups.start, groups.units) : jackknifeAcceleration(jackknife);
    const zAlpha = normalQuantile(alpha);
    const alpha1 = bcaLevel(biasCorrection, acceleration, zAlpha);
    const alpha2 = bcaLevel(biasCorrection, acceleration, -zAlpha);
    low = Number.isNaN(alpha1) ? NaN : sortedQuantile(sorted, alpha1, rule);
    high = Number.isNaN(alpha2) ? NaN : sortedQuantile(sorted, alpha2, rule);
    if (Number.isNaN(alpha1) || Number.isNaN(alpha2)) {
      warnings.push(
        sorted[0] === sorted[count - 1]
          ? 'the BCa interval is undefined: every resample gives the same value (every difference equal?); use --method percentile'
          : 'the BCa interval is undefined: the bias correction or the jackknife acceleration is not finite (too few distinct values or units?)',
      );
    }
  }
  if (settings.alternative === 'less') low = -Infinity;
  else if (settings.alternative === 'greater') high = Infinity;
  return { confidenceInterval: [low, high], standardError, bias, biasCorrection, acceleration, warnings };
}

/** Φ(z0 + (z0 + z) / (1 − a (z0 + z))): a BCa-adjusted probability level. */
function bcaLevel(z0: number, a: number, z: number): number {
  const num = z0 + z;
  return normalCdf(z0 + num / (1 - a * num));
}

/** #{x < value} (or ≤ with orEqual) in an ascending array, by binary search. */
function countBelow(sorted: Float64Array, value: number, orEqual: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value || (orEqual && sorted[mid] === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The BCa acceleration from jackknife statistics θ_(i): with U_i = mean(θ_(·)) − θ_(i),
 * a = Σ U_i³ / (6 (Σ U_i²)^1.5) (scipy `_bca_interval`; the (n − 1) scale of the influence values cancels).
 * NaN when the jackknife has no spread.
 */
export function jackknifeAcceleration(jackknife: ArrayLike<number>): number {
  const m = jackknife.length;
  if (m < 1) return NaN;
  let sum = 0;
  for (let i = 0; i < m; i++) sum += jackknife[i];
  const mean = sum / m;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < m; i++) {
    const u = mean - jackknife[i];
    const u2 = u * u;
    s2 += u2;
    s3 += u2 * u;
  }
  return s3 / (6 * Math.pow(s2, 1.5));
}

/**
 * The BCa acceleration of a statistic of stratified data, from its leave-one-unit-out values θ_(hj)
 * (unit j of stratum h left out, stratum sizes otherwise as in the data): Davison & Hinkley (1997),
 * Bootstrap Methods and their Application, §3.7 (stratified jackknife influence values) and §5.3.2
 * (a as one sixth of the skewness of the linear approximation). With m_h units in stratum h,
 *   θ̄_h = mean_j θ_(hj),   l_hj = (m_h − 1) (θ̄_h − θ_(hj))   (centred within the stratum),
 *   a = Σ_h m_h⁻³ Σ_j l_hj³ / (6 (Σ_h m_h⁻² Σ_j l_hj²)^1.5).
 * The denominators are the second and third cumulants of the stratified bootstrap distribution of
 * the linear approximation Σ_h m_h⁻¹ Σ_j f*_hj l_hj, so between-stratum differences, which
 * stratified resampling holds fixed, do not enter. With one stratum it is jackknifeAcceleration.
 * Strata with fewer than two units contribute nothing (their l_hj are 0). R boot's bca.ci uses
 * Σ L³ / (6 (Σ L²)^1.5) on the influence values without the m_h scaling, which differs from this
 * when the strata differ in size.
 * @param jackknife θ_(u) per unit. @param groupStart, groupUnits the strata's units, CSR style.
 * @returns a; NaN when no stratum's jackknife values spread.
 * @example stratifiedAcceleration(Float64Array.of(1, 2, 3, 10, 20, 30), Int32Array.of(0, 3, 6), Int32Array.of(0, 1, 2, 3, 4, 5)) // => 0 (symmetric within each stratum)
 * O(units).
 */
export function stratifiedAcceleration(jackknife: ArrayLike<number>, groupStart: Int32Array, groupUnits: Int32Array): number {
  let s2 = 0;
  let s3 = 0;
  for (let g = 0; g + 1 < groupStart.length; g++) {
    const m = groupStart[g + 1] - groupStart[g];
    if (m < 2) continue;
    let sum = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) sum += jackknife[groupUnits[k]];
    const mean = sum / m;
    // l_hj / m_h = ((m_h − 1) / m_h) (θ̄_h − θ_(hj))
    const factor = (m - 1) / m;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      const q = factor * (mean - jackknife[groupUnits[k]]);
      const q2 = q * q;
      s2 += q2;
      s3 += q2 * q;
    }
  }
  return s3 / (6 * Math.pow(s2, 1.5));
}
