/** A real-valued allocation under per-stratum bounds, and which bound (if any) each stratum sits at. */
export interface BoundedAllocation {
  /** Items per stratum, real-valued, summing to the budget (to rounding error). */
  values: number[];
  /** Per stratum: 'min' or 'max' where the bound binds (the stratum wanted fewer / more), else null. */
  bound: Array<'min' | 'max' | null>;
  /** The common factor μ: a free stratum gets targets[h] · μ (NaN when no stratum is free). */
  scale: number;
  /** Strata with target 0 that took items because the others were full, or every target being 0. */
  warnings: string[];
}

/**
 * Splits a budget across strata in proportion to targets, within per-stratum bounds: the
 * recursive Neyman allocation (fix the strata whose share violates a bound at that bound,
 * re-allocate the rest in proportion, repeat), solved exactly.
 *
 * Formula: n_h = clamp(t_h · μ, L_h, U_h), with the one μ ≥ 0 that makes Σ n_h = n. This is the
 * fixed point recursive Neyman looks for (every stratum at a bound would violate it under the
 * proportional share of the rest; every free stratum is proportional) and, for t_h = W_h·S_h,
 * the minimiser of Σ W_h² S_h² / n_h under the box constraints (its KKT conditions). It is
 * found from the sorted breakpoints L_h/t_h, U_h/t_h of the piecewise-linear Σ clamp(t_h·μ)
 * rather than by iterating, because the naive iteration that fixes lower and upper violators
 * in the same pass can stop at a non-optimal point when both kinds of bound bind
 * (Wesołowski, Wieczorkowski & Wójciak 2021, "Optimality conditions for Neyman allocation
 * under box constraints", whose RNABOX reaches the same point).
 *
 * Strata with target 0 (or below 1e-250 of the largest target) get their lower bound. If the strata with positive targets cannot
 * take the whole budget even at their upper bounds, they are set to those bounds and the
 * rest is split equally (within bounds) among the zero-target strata, with a warning; the
 * same when every target is 0.
 *
 * Reference: Cochran (1977), Sampling Techniques, §5.5 (Neyman) and §5A.13 (over-allocation:
 * "allot n_h = N_h to the offending strata and revise the allocation of the rest");
 * R `stratification::` / `samplesize4surveys`; Gabler, Ganninger & Münnich (2012).
 *
 * @param targets t_h ≥ 0 per stratum (finite): W_h·S_h for Neyman, W_h for proportional.
 * @param budget n ≥ 0.
 * @param lower L_h ≥ 0 per stratum.
 * @param upper U_h ≥ L_h per stratum (Infinity for none).
 * @param names stratum names, for warnings (defaults to "stratum k").
 * @returns values, the bound each stratum sits at, μ and warnings.
 * @throws {RangeError} when lengths differ, a target or bound is not finite / negative, or the
 *   bounds cannot hold the budget (Σ L_h > n or Σ U_h < n).
 * Cost: O(H log H) for H strata.
 * @example boundedAllocation([0.15, 0.15, 0.09], 200, [0, 0, 0], [Infinity, Infinity, Infinity]).values
 * // => [76.923…, 76.923…, 46.153…]
 */
export function boundedAllocation(
  targets: readonly number[],
  budget: number,
  lower: readonly number[],
  upper: readonly number[],
  names: readonly string[] = targets.map((_, h) => `stratum ${h + 1}`),
): BoundedAllocation {
  const H = targets.length;
  if (lower.length !== H || upper.length !== H || names.length !== H) {
    throw new RangeError(`boundedAllocation: targets, lower, upper and names must have the same length (got ${H}, ${lower.length}, ${upper.length}, ${names.length})`);
  }
  if (H === 0) throw new RangeError('boundedAllocation: needs at least one stratum (got 0)');
  if (!Number.isFinite(budget) || budget < 0) throw new RangeError(`boundedAllocation: budget must be a finite number ≥ 0 (got ${budget})`);
  for (let h = 0; h < H; h++) {
    if (!Number.isFinite(targets[h]) || targets[h] < 0) throw new RangeError(`boundedAllocation: ${names[h]}: target must be a finite number ≥ 0 (got ${targets[h]})`);
    if (!Number.isFinite(lower[h]) || lower[h] < 0) throw new RangeError(`boundedAllocation: ${names[h]}: lower bound must be a finite number ≥ 0 (got ${lower[h]})`);
    if (Number.isNaN(upper[h]) || upper[h] < lower[h]) throw new RangeError(`boundedAllocation: ${names[h]}: upper bound must be ≥ the lower bound (got ${upper[h]} < ${lower[h]})`);
  }
  const sumLower = sum(lower);
  const sumUpper = sum(upper);
  const slack = 1e-9 * Math.max(1, budget);
  if (sumLower > budget + slack) throw new RangeError(`the strata's minimums add up to ${sumLower}, more than the budget (got ${budget})`);
  if (sumUpper < budget - slack) throw new RangeError(`the strata can take at most ${sumUpper} items (their max / available), fewer than the budget (got ${budget})`);

  const warnings: string[] = [];
  // The solution depends only on the targets' ratios: scale the largest to 1 so breakpoints
  // L/t and U/t stay finite; a target below 1e-250 of the largest counts as 0.
  const largest = Math.max(...targets);
  const relative = targets.map((t) => (largest > 0 && t / largest >= 1e-250 ? t / largest : 0));
  const positive = relative.map((t) => t > 0);
  const values = lower.slice();
  const bound: Array<'min' | 'max' | null> = targets.map(() => null);
  const capacityOfPositive = relative.reduce((acc, t, h) => acc + (t > 0 ? upper[h] : lower[h]), 0);
  let scale = NaN;
  if (positive.some(Boolean) && capacityOfPositive >= budget - slack) {
    const idx = range(H).filter((h) => positive[h]);
    // Zero-target strata stay at their minimum; the positive ones share the rest.
    const amount = budget - range(H).reduce((acc, h) => acc + (positive[h] ? 0 : lower[h]), 0);
    scale = waterFill(idx, relative, amount, lower, upper, values, bound) / largest;
    for (let h = 0; h < H; h++) if (!positive[h] && lower[h] > 0) bound[h] = 'min';
    for (let h = 0; h < H; h++) {
      if (!positive[h]) warnings.push(`${names[h]} has target 0, so it gets only its minimum (${lower[h]} items)`);
    }
  } else {
    // The positive strata are full (or there are none): they take their maximum and the
    // zero-target strata share what is left equally.
    const full = range(H).filter((h) => positive[h]);
    for (const h of full) {
      values[h] = upper[h];
      bound[h] = 'max';
    }
    const zero = range(H).filter((h) => !positive[h]);
    const left = budget - sum(full.map((h) => upper[h]));
    const ones = targets.map(() => 1);
    waterFill(zero, ones, left, lower, upper, values, bound);
    if (full.length === 0) warnings.push('every stratum has target 0, so the budget is split equally (within bounds)');
    else {
      warnings.push(
        `the strata with a positive target are full at their maximum; the remaining ${round9(left)} items are split equally among strata with target 0 (${zero.map((h) => names[h]).join(', ')})`,
      );
    }
  }
  return { values, bound, scale, warnings };
}

/**
 * Water-fills `amount` over the strata `idx`: n_h = clamp(t_h·μ, L_h, U_h) with Σ n_h = amount.
 * Writes values and bounds in place and returns μ. Assumes Σ L ≤ amount ≤ Σ U over idx and t > 0.
 */
function waterFill(
  idx: readonly number[],
  targets: readonly number[],
  amount: number,
  lower: readonly number[],
  upper: readonly number[],
  values: number[],
  bound: Array<'min' | 'max' | null>,
): number {
  if (idx.length === 0) return NaN;
  // f(μ) = Σ clamp(t_h μ, L_h, U_h) is continuous, nondecreasing and linear between the
  // breakpoints L_h / t_h and U_h / t_h; find the segment holding `amount`.
  const points = [0];
  for (const h of idx) {
    points.push(lower[h] / targets[h]);
    if (Number.isFinite(upper[h])) points.push(upper[h] / targets[h]);
  }
  points.sort((x, y) => x - y);
  const f = (mu: number) => idx.reduce((acc, h) => acc + clamp(targets[h] * mu, lower[h], upper[h]), 0);
  let lo = 0;
  let hi = Infinity;
  for (const p of points) {
    if (f(p) >= amount) {
      hi = p;
      break;
    }
    lo = p;
  }
  // On (lo, hi) every stratum is either at a bound or free; which, is read at an interior point.
  const probe = Number.isFinite(hi) ? (lo + hi) / 2 : lo + 1;
  let fixed = 0;
  let free = 0;
  for (const h of idx) {
    const x = targets[h] * probe;
    if (x <= lower[h]) fixed += lower[h];
    else if (x >= upper[h]) fixed += upper[h];
    else free += targets[h];
  }
  // free === 0 only when the segment is flat, i.e. amount equals f there: any μ in it will do.
  const mu = free > 0 ? (amount - fixed) / free : lo;
  for (const h of idx) {
    // (t_h / free) · (amount − fixed) rather than t_h · μ: the same number, without overflow.
    const x = free > 0 ? (targets[h] / free) * (amount - fixed) : targets[h] * mu;
    if (x < lower[h]) {
      values[h] = lower[h];
      bound[h] = 'min';
    } else if (x > upper[h]) {
      values[h] = upper[h];
      bound[h] = 'max';
    } else {
      values[h] = x;
      bound[h] = null;
    }
  }
  return mu;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, k) => k);
}

function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}
