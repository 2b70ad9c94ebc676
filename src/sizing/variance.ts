import { chiSquareQuantile } from '../distributions/index.js';
import { checkConfidence } from './interval.js';

/** Count, mean and sample variance (ddof 1) of a set of paired differences. */
export interface DifferenceSummary {
  count: number;
  mean: number;
  /** Σ (d − mean)² / (count − 1); NaN with fewer than two values. */
  variance: number;
}

/**
 * Count, mean and sample variance (ddof 1) of per-item differences, in two passes (no
 * cancellation-prone E[d²] − E[d]²). Only the positions in `indices` when it is given.
 * Reference: numpy `np.var(d, ddof=1)`, R `var(d)`.
 * @example summarizeDifferences([1, 2, 3, 4]) // => { count: 4, mean: 2.5, variance: 1.6667 }
 * @throws {RangeError} for a non-finite difference.
 */
export function summarizeDifferences(differences: ArrayLike<number>, indices?: ArrayLike<number>): DifferenceSummary {
  const count = indices ? indices.length : differences.length;
  const at = indices ? (k: number) => differences[indices[k]] : (k: number) => differences[k];
  let sum = 0;
  for (let k = 0; k < count; k++) {
    const d = at(k);
    if (!Number.isFinite(d)) throw new RangeError(`summarizeDifferences: difference ${k} is not finite (got ${d})`);
    sum += d;
  }
  const mean = count > 0 ? sum / count : NaN;
  let squares = 0;
  for (let k = 0; k < count; k++) squares += (at(k) - mean) ** 2;
  return { count, mean, variance: count > 1 ? squares / (count - 1) : NaN };
}

/**
 * Confidence interval for a variance from its sample estimate: the pilot's variance is itself
 * an estimate, and the count it gives is only as good as it is.
 *
 *   [df·s² / χ²_{1−α/2, df},  df·s² / χ²_{α/2, df}],  df = items − 1 (or clusters − 1)
 *
 * Exact for normally distributed differences; for bounded scores (0/1, 0–100) with heavy
 * or lumpy tails it is a rough guide, not a guarantee — read the upper end as "how much
 * worse the variance could plausibly be".
 * Reference: Casella & Berger, Statistical Inference, §9.2 (Example 9.2.10); R
 * `c(df * s2 / qchisq(1 - a/2, df), df * s2 / qchisq(a/2, df))`.
 * @param variance s² ≥ 0; df > 0 degrees of freedom; confidenceLevel in (0, 1), default 0.95.
 * @returns [low, high]; [NaN, NaN] when the variance is NaN.
 * @throws {RangeError} for df ≤ 0, a negative variance or a level outside (0, 1).
 * @example varianceInterval(244.1462, 79) // => [182.868, 342.531] (a pilot of 80 items)
 */
export function varianceInterval(variance: number, df: number, confidenceLevel = 0.95): [number, number] {
  checkConfidence(confidenceLevel);
  if (!(df > 0)) throw new RangeError(`varianceInterval: df must be > 0 (got ${df})`);
  if (variance < 0) throw new RangeError(`varianceInterval: variance must be ≥ 0 (got ${variance})`);
  if (Number.isNaN(variance)) return [NaN, NaN];
  const alpha = 1 - confidenceLevel;
  return [(df * variance) / chiSquareQuantile(1 - alpha / 2, df), (df * variance) / chiSquareQuantile(alpha / 2, df)];
}
