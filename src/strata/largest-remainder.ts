/**
 * Rounds a real-valued allocation to whole items summing exactly to the budget, by largest
 * remainder (Hamilton's method), within per-stratum integer bounds.
 *
 * Every stratum first gets floor(x_h); the items left over (n − Σ floor(x_h)) go one each to
 * the strata with the largest fractional parts x_h − floor(x_h). Ties (fractional parts equal
 * to within 1e-9) go to the stratum that comes first in the input order (the strata file's
 * order), so the result is deterministic. Values within 1e-9 of a whole number are taken as
 * that number first, so floating-point noise (46.99999999999 for 47) does not move an item.
 * A stratum already at its upper bound never gets an extra item, and the floors are clamped
 * into [L_h, U_h].
 *
 * Reference: Balinski & Young (2001), Fair Representation, ch. 2 (Hamilton's method);
 * Cochran (1977) §5.5 rounds Neyman allocations the same way.
 *
 * @param values real-valued allocation x_h, each within [lower_h, upper_h], summing to budget.
 * @param budget whole number n.
 * @param lower whole-number lower bounds (default 0).
 * @param upper whole-number upper bounds (default Infinity).
 * @returns whole item counts summing to budget, each within its bounds.
 * @throws {RangeError} when the budget is not a whole number, the values do not sum to the
 *   budget (to within 1e-6 per stratum), or the bounds cannot hold it.
 * @example largestRemainder([76.923, 76.923, 46.154], 200) // => [77, 77, 46]
 */
export function largestRemainder(
  values: readonly number[],
  budget: number,
  lower: readonly number[] = values.map(() => 0),
  upper: readonly number[] = values.map(() => Infinity),
): number[] {
  const H = values.length;
  if (!Number.isInteger(budget) || budget < 0) throw new RangeError(`largestRemainder: budget must be a whole number ≥ 0 (got ${budget})`);
  if (lower.length !== H || upper.length !== H) throw new RangeError(`largestRemainder: values, lower and upper must have the same length (got ${H}, ${lower.length}, ${upper.length})`);
  let total = 0;
  for (let h = 0; h < H; h++) {
    if (!Number.isFinite(values[h]) || values[h] < 0) throw new RangeError(`largestRemainder: value ${h} must be a finite number ≥ 0 (got ${values[h]})`);
    total += values[h];
  }
  if (Math.abs(total - budget) > 1e-6 * Math.max(1, H)) throw new RangeError(`largestRemainder: values must sum to the budget ${budget} (got ${total})`);

  const snapped = values.map((x) => (Math.abs(x - Math.round(x)) <= 1e-9 * Math.max(1, x) ? Math.round(x) : x));
  const counts = snapped.map((x, h) => Math.min(upper[h], Math.max(lower[h], Math.floor(x))));
  const remainder = snapped.map((x) => x - Math.floor(x));
  let left = budget - counts.reduce((a, b) => a + b, 0);
  // Largest remainder first; near-equal remainders (1e-9) keep input order.
  const order = Array.from({ length: H }, (_, h) => h).sort((x, y) => (Math.abs(remainder[x] - remainder[y]) > 1e-9 ? remainder[y] - remainder[x] : x - y));
  while (left > 0) {
    const h = order.find((k) => counts[k] < upper[k] && counts[k] < snapped[k] + 1);
    // Only when Σ U < budget, which callers check first.
    if (h === undefined) throw new RangeError(`largestRemainder: the upper bounds cannot hold the budget (got ${budget})`);
    counts[h] += 1;
    left -= 1;
    order.splice(order.indexOf(h), 1);
  }
  // Clamping floors up to a lower bound can overshoot; take back from the smallest remainders.
  const back = Array.from({ length: H }, (_, h) => h).sort((x, y) => (Math.abs(remainder[x] - remainder[y]) > 1e-9 ? remainder[x] - remainder[y] : y - x));
  while (left < 0) {
    const h = back.find((k) => counts[k] > lower[k]);
    if (h === undefined) throw new RangeError(`largestRemainder: the lower bounds exceed the budget (got ${budget})`);
    counts[h] -= 1;
    left += 1;
    back.splice(back.indexOf(h), 1);
  }
  return counts;
}
