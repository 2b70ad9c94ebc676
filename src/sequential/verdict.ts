/** What a look at a confidence sequence for mean(A − B) concludes. */
export type SequentialVerdict = 'a-better' | 'b-better' | 'equivalent' | 'continue' | 'inconsistent';

/**
 * The verdict of a look at an anytime-valid interval [lower, upper] for mean(A − B):
 *   lower > 0 → 'a-better';  upper < 0 → 'b-better';
 *   −mde/2 < lower and upper < mde/2 (only when mde is given) → 'equivalent' (any gap is smaller
 *   than half the smallest gap you would act on);
 *   lower > upper (the running intersection is empty: the data contradict one fixed mean) → 'inconsistent';
 *   otherwise 'continue'.
 * Because the sequence is valid at every look, stopping at the first look that resolves keeps the
 * chance of a wrong 'a-better'/'b-better' below α (and of a wrong 'equivalent' below α) however often one looks.
 * @param interval [lower, upper] in score units.
 * @param mde the smallest gap you would act on (> 0), or undefined for no equivalence verdict.
 * @example sequentialVerdict([0.01, 0.2]) // => 'a-better'
 * @throws {RangeError} for an mde that is not > 0.
 */
export function sequentialVerdict(interval: readonly [number, number], mde?: number): SequentialVerdict {
  if (mde !== undefined && !(mde > 0)) throw new RangeError(`mde must be > 0 (got ${mde})`);
  const [lower, upper] = interval;
  if (Number.isNaN(lower) || Number.isNaN(upper)) return 'continue';
  if (lower > upper) return 'inconsistent';
  if (lower > 0) return 'a-better';
  if (upper < 0) return 'b-better';
  if (mde !== undefined && lower > -mde / 2 && upper < mde / 2) return 'equivalent';
  return 'continue';
}

/**
 * The half-width the sequence must shrink to for some verdict, given the running estimate:
 * |estimate| to exclude 0, and mde/2 − |estimate| to fit inside ±mde/2; the larger (the nearer) of the two.
 * @returns a half-width in score units; ≤ 0 when no verdict is in sight at this estimate.
 * @example decisionHalfWidth(0.08, 0.05) // => 0.08
 */
export function decisionHalfWidth(estimate: number, mde?: number): number {
  const exclude = Math.abs(estimate);
  const within = mde === undefined ? -Infinity : mde / 2 - Math.abs(estimate);
  return Math.max(exclude, within);
}
