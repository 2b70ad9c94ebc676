/**
 * Inclusion probabilities proportional to size, capped at 1, summing to the expected sample
 * size: π_i = min(1, c · w_i), with c chosen so that Σ π_i = budget. Items whose c·w_i would
 * exceed 1 are taken with certainty and c is recomputed over the rest (the usual iterative
 * capping of πps designs).
 * Reference: Särndal, Swensson & Wretman (1992), Model Assisted Survey Sampling, §3.6; R
 * `sampling::inclusionprobabilities(w, n)`.
 * @param weights sizes w_i ≥ 0, finite; at least `budget` of them positive unless budget covers all.
 * @param budget expected sample size, in [0, number of items].
 * @returns π_i in [0, 1], Σ π_i = budget (up to rounding).
 * @throws {RangeError} for a negative or non-finite weight, a budget outside [0, n], or fewer
 *   positive weights than the budget needs.
 * Cost O(n log n).
 * @example cappedInclusionProbabilities([1, 1, 8], 2) // => [0.5, 0.5, 1]
 */
export function cappedInclusionProbabilities(weights: readonly number[], budget: number): number[] {
  const n = weights.length;
  if (!(Number.isFinite(budget) && budget >= 0 && budget <= n)) throw new RangeError(`budget must be in [0, ${n}] (got ${budget})`);
  let positive = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i];
    if (!(Number.isFinite(w) && w >= 0)) throw new RangeError(`weight ${i} must be a finite number ≥ 0 (got ${w})`);
    if (w > 0) positive += 1;
  }
  if (budget > positive + 1e-9) throw new RangeError(`only ${positive} items have a positive weight, fewer than the budget ${budget}`);
  const pi = new Array<number>(n).fill(0);
  if (budget === 0) return pi;
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => weights[j] - weights[i] || i - j);
  let certain = 0;
  let rest = 0;
  for (let i = 0; i < n; i++) rest += weights[i];
  // Take the largest items with certainty while c·w of the largest remaining would pass 1.
  while (certain < n && (budget - certain) * weights[order[certain]] >= rest && budget - certain > 0) {
    rest -= weights[order[certain]];
    certain += 1;
  }
  const c = rest > 0 ? (budget - certain) / rest : 0;
  for (let k = 0; k < n; k++) pi[order[k]] = k < certain ? 1 : Math.min(1, c * weights[order[k]]);
  return pi;
}
