/**
 * Holm's step-down adjustment of p-values for multiple comparisons (Holm 1979): with the m p-values
 * sorted ascending p_(1) ≤ … ≤ p_(m), the adjusted p_(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j)).
 * It controls the family-wise error rate at any dependence between the tests, and is uniformly
 * more powerful than Bonferroni. Reject H_(i) at level α when its adjusted p-value is < α.
 * Reference: R `p.adjust(p, method = "holm")` (NaN entries are left out of m and stay NaN, as R's NA).
 * @param pValues each in [0, 1] or NaN.
 * @returns the adjusted p-values, in the input order.
 * @throws {RangeError} for a p-value outside [0, 1].
 * @example holmAdjust([0.01, 0.04, 0.03]) // => [0.03, 0.06, 0.06]
 */
export function holmAdjust(pValues: ArrayLike<number>): number[] {
  const m = pValues.length;
  const present: number[] = [];
  for (let i = 0; i < m; i++) {
    const p = pValues[i];
    if (Number.isNaN(p)) continue;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`pValues[${i}] must be a probability in [0, 1] (got ${String(p)})`);
    present.push(i);
  }
  const out = new Array<number>(m).fill(NaN);
  // Stable sort by p, as R's order(): ties keep their input order.
  present.sort((i, j) => pValues[i] - pValues[j] || i - j);
  const count = present.length;
  let running = 0;
  for (let rank = 0; rank < count; rank++) {
    const i = present[rank];
    running = Math.max(running, Math.min(1, (count - rank) * pValues[i]));
    out[i] = running;
  }
  return out;
}
