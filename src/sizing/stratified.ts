/**
 * Variance of a stratified (weighted) estimator of a mean: what an allocation buys.
 *
 * When a set is split into strata h = 1…H with n_h items each, and the headline is the
 * weighted mean of the per-stratum means, Σ w_h · mean_h, its sampling variance is
 *
 *   Var = Σ_h w_h² · s_h² / n_h
 *
 * (independent strata, each mean over n_h items with per-item variance s_h²; no finite-population
 * correction, since the benchmark's population of possible items is taken as large). Use it for a
 * paired difference with s_h² the variance of the per-item differences A − B in stratum h:
 * with w_h = n_h / n (quota weights) it is the variance of the plain mean over the enriched set;
 * with w_h = traffic share it is the variance of the traffic-reweighted headline.
 *
 * A stratum with weight 0 contributes nothing, whatever its count (0 · s² / 0 is taken as 0:
 * a stratum nobody weighs needs no items). A stratum with positive weight and no items makes the
 * estimator impossible to compute: the result is +Infinity, so a comparison of allocations ranks
 * it last. A NaN variance (e.g. a stratum with one pilot item) gives NaN.
 *
 * Reference: Cochran (1977), Sampling Techniques, 3rd ed., §5.3, eq. (5.6) without the fpc;
 * cf. R `survey::svymean` on a stratified design with `fpc` omitted.
 *
 * @param weights w_h, finite and ≥ 0 (shares of traffic or of the set; they need not sum to 1).
 * @param variances s_h², per-item variance in each stratum, finite and ≥ 0 (or NaN if unknown).
 * @param counts n_h, items in each stratum, finite and ≥ 0 (need not be whole: a continuous
 *   allocation before rounding is fine).
 * @returns Σ w_h² s_h² / n_h, in squared score units.
 * @throws {TypeError} when the three arrays differ in length or are empty.
 * @throws {RangeError} naming the stratum index and value, for a negative or non-finite weight or
 *   count, or a negative or infinite variance.
 * Cost: O(H).
 * @example stratifiedVariance([0.5, 0.5], [4, 16], [10, 40]) // => 0.2  (0.25·4/10 + 0.25·16/40)
 */
export function stratifiedVariance(weights: ArrayLike<number>, variances: ArrayLike<number>, counts: ArrayLike<number>): number {
  const h = weights.length;
  if (h === 0) throw new TypeError('stratifiedVariance: give at least one stratum');
  if (variances.length !== h || counts.length !== h) {
    throw new TypeError(`stratifiedVariance: weights, variances and counts must have the same length (got ${h}, ${variances.length}, ${counts.length})`);
  }
  let total = 0;
  for (let k = 0; k < h; k++) {
    const w = weights[k];
    const s2 = variances[k];
    const n = counts[k];
    if (!Number.isFinite(w) || w < 0) throw new RangeError(`stratifiedVariance: weights[${k}] must be a finite number ≥ 0 (got ${w})`);
    if (s2 < 0 || s2 === Infinity) throw new RangeError(`stratifiedVariance: variances[${k}] must be ≥ 0 and finite (got ${s2})`);
    if (!Number.isFinite(n) || n < 0) throw new RangeError(`stratifiedVariance: counts[${k}] must be a finite number ≥ 0 (got ${n})`);
    if (w === 0) continue;
    if (Number.isNaN(s2)) return NaN;
    if (n === 0) {
      total = Infinity;
      continue;
    }
    total += (w * w * s2) / n;
  }
  return total;
}
