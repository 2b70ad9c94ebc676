/**
 * The error budget look k of a sequential gate may spend: α_k = α / (k (k + 1)).
 * Σ_{k≥1} α_k = α (a telescoping sum: 1/(k(k+1)) = 1/k − 1/(k+1)), so however many commits
 * ever look, P(any look passes a regression) ≤ Σ α_k ≤ α by the union bound; the first look gets
 * α/2, the tenth α/110. Spent after k looks: α · k / (k + 1).
 * Reference: the union bound (Bonferroni) over a countable family of tests; the idea of spending a
 * total α across looks is Lan & DeMets (Biometrika 1983), who spend over a known horizon; with no
 * horizon any sequence summing to α works, and 1/(k(k+1)) spends fast enough to be useful early.
 * @param alpha the total error rate, in (0, 1).
 * @param look k, a whole number ≥ 1.
 * @returns α_k.
 * @throws {RangeError} for alpha outside (0, 1) or a look that is not a whole number ≥ 1.
 * @example lookAlpha(0.05, 1) // => 0.025
 */
export function lookAlpha(alpha: number, look: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1) (got ${alpha})`);
  if (!Number.isInteger(look) || look < 1) throw new RangeError(`look must be a whole number ≥ 1 (got ${look})`);
  return alpha / (look * (look + 1));
}

/**
 * The error budget spent by looks 1…k together: α · k / (k + 1).
 * @example alphaSpent(0.05, 4) // => 0.04
 */
export function alphaSpent(alpha: number, looks: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1) (got ${alpha})`);
  if (!Number.isInteger(looks) || looks < 0) throw new RangeError(`looks must be a whole number ≥ 0 (got ${looks})`);
  return (alpha * looks) / (looks + 1);
}
