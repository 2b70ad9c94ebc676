import { boundedAllocation } from './bounded-allocation.js';
import { StratumRangeError } from './errors.js';
import { largestRemainder } from './largest-remainder.js';

/** How a budget is split across strata. */
export const ALLOCATION_METHODS = ['quota', 'proportional', 'neyman', 'optimal'] as const;
export type AllocationMethod = (typeof ALLOCATION_METHODS)[number];

/** A stratum as allocation reads it: the strata file's fields (a loaded `Stratum` fits). */
export interface AllocationStratum {
  name: string;
  /** Share of production traffic W_h in [0, 1]. */
  traffic?: number;
  /** Share of the set (shares summing to 1) or a whole count of items. */
  quota?: number;
  /** Annotation cost of one item (any positive unit). */
  cost?: number;
  min?: number;
  max?: number;
  available?: number;
}

export interface AllocationOptions {
  /** Items to allocate: a whole number ≥ 1. */
  budget: number;
  /** Default 'quota'. */
  method?: AllocationMethod;
  /** Per-stratum sd S_h of the paired difference (from a pilot), by stratum name: neyman and optimal. */
  sd?: Readonly<Record<string, number>>;
  /** Least items for every stratum; combined with a stratum's own `min` by taking the larger. */
  min?: number;
  /** Most items for every stratum; combined with a stratum's own `max` and `available` by taking the smallest. */
  max?: number;
}

/** One stratum's share of the budget. */
export interface StratumAllocation {
  stratum: string;
  /** Whole items. */
  n: number;
  /** The real-valued allocation before rounding. */
  unrounded: number;
  /** The unnormalised target t_h the method splits in proportion to (q_h, W_h, W_h·S_h or W_h·S_h/√c_h). */
  target: number;
  /** The bounds applied: lower L_h and upper U_h (null when unbounded). */
  min: number;
  max: number | null;
  /** 'min' / 'max' when that bound binds (the method wanted fewer / more items), else null. */
  bound: 'min' | 'max' | null;
}

export interface AllocationResult {
  method: AllocationMethod;
  budget: number;
  /** Σ n_h: always the budget. */
  total: number;
  allocation: StratumAllocation[];
  warnings: string[];
}

/**
 * Splits an annotation budget of n items across strata (the seed chapter's "Allocating the set
 * by stratum"): a selection set gets fixed quotas where candidates disagree, not traffic shares.
 *
 * Targets t_h by method, then n_h ∝ t_h within bounds:
 * - `quota`: t_h = q_h, the strata file's quota (shares, or counts scaled to the budget);
 * - `proportional`: t_h = W_h, the traffic share (a monitoring set: mirrors production);
 * - `neyman`: t_h = W_h·S_h, S_h the pilot's sd of the paired difference in stratum h: the
 *   allocation that minimises Var(Σ W_h d̄_h) = Σ W_h² S_h² / n_h for a fixed n;
 * - `optimal`: t_h = W_h·S_h / √c_h with c_h the cost of one item: the allocation that
 *   minimises that variance for a fixed total cost, scaled here to n items.
 * Bounds: L_h = max(min_h, options.min), U_h = min(max_h, available_h, options.max), solved by
 * recursive Neyman (see {@link boundedAllocation}); then whole items by largest remainder
 * ({@link largestRemainder}: ties to the stratum earlier in the file), summing exactly to n.
 *
 * Reference: Cochran (1977), Sampling Techniques, §5.5 (Neyman), §5.5 eq. 5.26 (cost-optimal);
 * cf. R `PracTools::strAlloc(n.tot, Nh, Sh, ch, alloc = "neyman" | "totcost")` for the
 * real-valued shares without bounds.
 *
 * @param strata the strata, in file order (the order ties are broken in).
 * @param options budget, method, pilot sds and global bounds.
 * @returns the allocation per stratum (whole and unrounded), the method and budget, warnings.
 * @throws {StratumRangeError} when a stratum lacks what the method needs (quota, traffic, sd,
 *   cost) or has a bad value; {RangeError} for a bad budget or bounds that cannot hold it.
 * @example allocateSample([{ name: 'a', traffic: 0.5 }, { name: 'b', traffic: 0.3 }, { name: 'c', traffic: 0.2 }],
 *   { budget: 200, method: 'neyman', sd: { a: 0.3, b: 0.5, c: 0.45 } }).allocation.map((s) => s.n) // => [77, 77, 46]
 */
export function allocateSample(strata: readonly AllocationStratum[], options: AllocationOptions): AllocationResult {
  const method = options.method ?? 'quota';
  if (!(ALLOCATION_METHODS as readonly string[]).includes(method)) throw new RangeError(`method must be one of ${ALLOCATION_METHODS.join(', ')} (got ${String(method)})`);
  const { budget } = options;
  if (!Number.isInteger(budget) || budget < 1) throw new RangeError(`budget must be a whole number ≥ 1 (got ${budget})`);
  if (!Array.isArray(strata) || strata.length === 0) throw new RangeError('allocation needs at least one stratum (got 0)');
  checkBound('min', options.min);
  checkBound('max', options.max);
  const names = strata.map((s) => s.name);
  const warnings: string[] = [];

  const targets = allocationTargets(strata, method, options.sd);
  if (method === 'quota') {
    const quotas = strata.map((s) => s.quota!);
    const total = quotas.reduce((a, b) => a + b, 0);
    const counts = quotas.every((q) => Number.isInteger(q)) && !(quotas.every((q) => q <= 1) && Math.abs(total - 1) <= 1e-6);
    if (counts && total !== budget) warnings.push(`the quotas are counts summing to ${total}, not the budget ${budget}: they are scaled to the budget`);
  }
  const lower = strata.map((s) => Math.max(s.min ?? 0, options.min ?? 0));
  const upper = strata.map((s) => Math.min(s.max ?? Infinity, s.available ?? Infinity, options.max ?? Infinity));
  strata.forEach((s, h) => {
    if (lower[h] > upper[h]) {
      throw new StratumRangeError(s.name, 'the minimum exceeds the maximum / available items once --min and --max are applied', `${lower[h]} > ${upper[h]}`);
    }
  });
  const real = boundedAllocation(targets, budget, lower, upper, names);
  const n = largestRemainder(real.values, budget, lower, upper);
  strata.forEach((s, h) => {
    if (targets[h] === 0 && n[h] === lower[h]) {
      const why = method === 'quota' ? 'its quota is 0' : method === 'proportional' ? 'its traffic share is 0' : 'its traffic share or pilot sd is 0';
      warnings.push(`${s.name} gets ${n[h]} item${n[h] === 1 ? '' : 's'} because ${why}${n[h] < 2 ? '; per-stratum scores and the reweighted headline need at least 2 items a stratum (set a min)' : ''}`);
    } else if (n[h] < 2) {
      warnings.push(`${s.name} gets ${n[h]} item${n[h] === 1 ? '' : 's'}: per-stratum scores and the reweighted headline need at least 2 items a stratum (set a min)`);
    }
  });
  for (const w of real.warnings) if (!/has target 0/.test(w)) warnings.push(w);
  return {
    method,
    budget,
    total: n.reduce((a, b) => a + b, 0),
    allocation: strata.map((s, h) => ({
      stratum: s.name,
      n: n[h],
      unrounded: real.values[h],
      target: targets[h],
      min: lower[h],
      max: Number.isFinite(upper[h]) ? upper[h] : null,
      bound: real.bound[h],
    })),
    warnings,
  };
}

/**
 * The unnormalised per-stratum targets t_h a method splits the budget in proportion to
 * (see {@link allocateSample}).
 * @throws {StratumRangeError} naming the first stratum that lacks what the method needs.
 * @example allocationTargets([{ name: 'a', traffic: 0.5, cost: 4 }], 'optimal', { a: 0.3 }) // => [0.075]
 */
export function allocationTargets(strata: readonly AllocationStratum[], method: AllocationMethod, sd?: Readonly<Record<string, number>>): number[] {
  const need = (s: AllocationStratum, field: 'quota' | 'traffic' | 'cost'): number => {
    const value = s[field];
    if (value === undefined) {
      const what = field === 'quota' ? 'a quota' : field === 'traffic' ? 'a traffic share' : 'a cost per item';
      throw new StratumRangeError(s.name, `${method} allocation needs ${what} in the strata file`);
    }
    if (!Number.isFinite(value) || value < 0 || (field === 'cost' && value <= 0)) {
      throw new StratumRangeError(s.name, `${field} must be a finite number ${field === 'cost' ? '> 0' : '≥ 0'}`, value);
    }
    return value;
  };
  const pilotSd = (s: AllocationStratum): number => {
    if (sd === undefined) throw new StratumRangeError(s.name, `${method} allocation needs each stratum's sd of the paired difference from a pilot`);
    const value = Object.prototype.hasOwnProperty.call(sd, s.name) ? sd[s.name] : undefined;
    if (value === undefined) throw new StratumRangeError(s.name, `${method} allocation needs this stratum's sd, but the pilot has no sd for it`);
    if (!Number.isFinite(value) || value < 0) throw new StratumRangeError(s.name, 'the pilot sd must be a finite number ≥ 0', value);
    return value;
  };
  switch (method) {
    case 'quota':
      return strata.map((s) => need(s, 'quota'));
    case 'proportional':
      return strata.map((s) => need(s, 'traffic'));
    case 'neyman':
      return strata.map((s) => need(s, 'traffic') * pilotSd(s));
    case 'optimal':
      return strata.map((s) => (need(s, 'traffic') * pilotSd(s)) / Math.sqrt(need(s, 'cost')));
    default:
      throw new RangeError(`method must be one of ${ALLOCATION_METHODS.join(', ')} (got ${String(method)})`);
  }
}

function checkBound(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new RangeError(`${name} must be a whole number ≥ 0 (got ${value})`);
}
