import { regularizedBeta } from './distributions.js';

/**
 * Beta(a, b) quantile: the x in [0, 1] with I_x(a, b) = p, by bisection on regularizedBeta (the CDF
 * is increasing, so 1100 halvings reach the smallest double; it stops when the bracket no longer
 * shrinks). Used for Clopper–Pearson and Korn–Graubard intervals.
 * Reference: R `qbeta(p, a, b)`, scipy `beta.ppf(p, a, b)`.
 * @param p in [0, 1]; a, b finite and > 0.
 * @returns x, 0 at p = 0 and 1 at p = 1.
 * @throws {RangeError} outside that domain.
 * @example betaQuantile(0.025, 1, 10) // => 0.0025285785444617804 (R: qbeta(0.025, 1, 10) = 0.00252857854446178, = 1 − 0.975^(1/10))
 * O(log(1/ε)) CDF evaluations.
 */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`betaQuantile: p must be in [0, 1] (got ${p})`);
  if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) throw new RangeError(`betaQuantile: a and b must be finite and > 0 (got a = ${a}, b = ${b})`);
  if (p === 0) return 0;
  if (p === 1) return 1;
  let low = 0;
  let high = 1;
  for (let k = 0; k < 1100; k++) {
    const mid = (low + high) / 2;
    if (mid <= low || mid >= high) break;
    if (regularizedBeta(mid, a, b) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
