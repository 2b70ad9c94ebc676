/**
 * The sample skewness G1 (adjusted Fisher–Pearson standardized third moment):
 *   g1 = m3 / m2^{3/2},  m_k = (1/n) Σ (x_i − x̄)^k,   G1 = g1 · √(n(n − 1)) / (n − 2).
 * NaN for n < 3 or when every value is the same (no spread to standardise by).
 * Reference: scipy `stats.skew(x, bias=False)`; Joanes & Gill (1998), The Statistician 47:183, "G1".
 * @param x finite values.
 * @returns G1 (0 for symmetric data, positive for a long right tail).
 * @example sampleSkewness([1, 2, 3, 10]) // => 1.7636326148 (scipy skew(bias=False): 1.7636326148038886)
 */
export function sampleSkewness(x: ArrayLike<number>): number {
  const n = x.length;
  if (n < 3) return NaN;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  const mean = sum / n;
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - mean;
    m2 += d * d;
    m3 += d * d * d;
  }
  return skewnessFromSums(n, mean, m2, m3);
}

/**
 * G1 from n, the mean and the central sums Σ (x_i − x̄)², Σ (x_i − x̄)³ (sampleSkewness's last step;
 * the auto rule passes the sums it gathered in one walk: src/paired/difference-summary.ts).
 * @param n items (≥ 3, else NaN). @param mean x̄. @param m2 Σ (x_i − x̄)². @param m3 Σ (x_i − x̄)³.
 * @returns G1, NaN with no spread.
 * @example skewnessFromSums(4, 4, 50, 180) // => 1.763632614803888 (sampleSkewness([1, 2, 3, 10]); scipy 1.7636326148038886)
 */
export function skewnessFromSums(n: number, mean: number, m2: number, m3: number): number {
  if (n < 3) return NaN;
  const v2 = m2 / n;
  const v3 = m3 / n;
  // Spread below rounding noise of the mean counts as none (all values equal up to the last bits).
  if (!(v2 > 1e-28 * Math.max(1, mean * mean))) return NaN;
  return (v3 / v2 ** 1.5) * (Math.sqrt(n * (n - 1)) / (n - 2));
}

/** The factor of Cochran's rule: a mean's normal approximation needs n > COCHRAN_FACTOR · G1² items. */
export const COCHRAN_FACTOR = 25;

/**
 * Items a mean needs before its normal (t) approximation can be trusted, by Cochran's rule:
 *   n > 25 · G1²  (G1 the skewness of the values).
 * Reference: W. G. Cochran, "Sampling Techniques" (3rd ed., 1977), §2.15: with n above it a nominal 95%
 * interval covers at least about 94%. Used with the sample G1 it is a screen, not a test.
 * @param skewness G1 (NaN → NaN: no spread, no rule).
 * @returns ⌈25 · G1²⌉.
 * @example cochranMinimumItems(2) // => 100
 */
export function cochranMinimumItems(skewness: number): number {
  return Math.ceil(COCHRAN_FACTOR * skewness * skewness);
}
