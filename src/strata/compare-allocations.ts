import { normalQuantile } from '../distributions/index.js';
import { stratifiedVariance } from '../sizing/index.js';
import { ALLOCATION_METHODS, allocateSample, type AllocationMethod, type AllocationStratum } from './allocate.js';
import { StratumRangeError } from './errors.js';

export interface CompareAllocationsOptions {
  /** Items to allocate, a whole number ≥ 1. */
  budget: number;
  /** Per-stratum sd S_h of the paired difference A − B, from a pilot, by stratum name. */
  sd: Readonly<Record<string, number>>;
  /** Methods to compare (default: every method the strata file supports, in ALLOCATION_METHODS order). */
  methods?: readonly AllocationMethod[];
  /** Global bounds, as in allocateSample. */
  min?: number;
  max?: number;
  /** In (0, 1); default 0.95. */
  confidenceLevel?: number;
}

/** What one allocation of the budget buys. */
export interface AllocationTradeoff {
  method: AllocationMethod;
  allocation: Array<{ stratum: string; n: number }>;
  /** √(Σ W_h² S_h² / n_h): the expected SE of the traffic-reweighted paired difference. */
  standardError: number;
  /** z · standardError: the expected half-width of its interval. */
  expectedHalfWidth: number;
  /** 2 · expectedHalfWidth: the smallest gap the interval resolves (benchplan size's rule: half-width = mde / 2). */
  mde: number;
  /** Per stratum: z · S_h / √n_h, the half-width of that stratum's own paired-difference interval. */
  strata: Array<{ stratum: string; n: number; halfWidth: number }>;
  warnings: string[];
}

export interface CompareAllocationsResult {
  budget: number;
  confidenceLevel: number;
  compare: AllocationTradeoff[];
  /** Methods left out because the strata file lacks what they need. */
  skipped: Array<{ method: AllocationMethod; reason: string }>;
}

/**
 * What each allocation method buys for the same budget: the expected half-width of the
 * traffic-reweighted paired-difference interval and the gap it resolves, side by side, plus each
 * stratum's own half-width. This is the chapter's cancellation argument in numbers: strata where
 * the candidates agree (S_h ≈ 0) add nothing to the difference, so a traffic-proportional set
 * spends most of its items there and leaves the separating strata with a handful each, while
 * Neyman (n_h ∝ W_h S_h) or an enriched quota puts the items where the difference is decided.
 *
 * Formulas, for the integer allocation n_h of each method (see {@link allocateSample}):
 * SE = √(Σ W_h² S_h² / n_h) ({@link stratifiedVariance}; S_h² the pilot's ddof-1 variance of
 * the difference), expectedHalfWidth = z·SE with z = Φ⁻¹(1 − α/2), mde = 2·expectedHalfWidth;
 * per stratum z·S_h/√n_h. A weighted stratum with 0 items makes the reweighted difference
 * impossible to estimate: its SE is +Infinity (JSON null) with a warning.
 * Reference: Cochran (1977) §5.5 (Neyman minimises this variance for fixed n); the seed
 * chapter's sizing rule for the MDE.
 *
 * @param strata the strata (traffic shares required; quota / cost where those methods are wanted).
 * @param options budget, pilot sds, methods, bounds, confidence level.
 * @returns one row per method, and the methods skipped with why.
 * @throws {StratumRangeError} when a stratum lacks a traffic share or a pilot sd;
 *   {RangeError} as allocateSample.
 * @example compareAllocations([{ name: 'a', traffic: 0.5 }, { name: 'b', traffic: 0.5 }], { budget: 100, sd: { a: 1, b: 3 } })
 *   .compare.map((c) => c.method) // => ['proportional', 'neyman']
 */
export function compareAllocations(strata: readonly AllocationStratum[], options: CompareAllocationsOptions): CompareAllocationsResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  for (const s of strata) {
    if (s.traffic === undefined) throw new StratumRangeError(s.name, 'comparing allocations needs a traffic share for every stratum (the reweighted difference is what they are compared on)');
    const sd = Object.prototype.hasOwnProperty.call(options.sd, s.name) ? options.sd[s.name] : undefined;
    if (sd === undefined || !Number.isFinite(sd) || sd < 0) {
      throw new StratumRangeError(s.name, 'comparing allocations needs a finite pilot sd ≥ 0 for every stratum', sd);
    }
  }
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const wanted = options.methods ?? ALLOCATION_METHODS;
  const skipped: CompareAllocationsResult['skipped'] = [];
  const compare: AllocationTradeoff[] = [];
  for (const method of wanted) {
    const missing = method === 'quota' ? strata.find((s) => s.quota === undefined) : method === 'optimal' ? strata.find((s) => s.cost === undefined) : undefined;
    if (missing !== undefined && options.methods === undefined) {
      skipped.push({ method, reason: `stratum "${missing.name}" has no ${method === 'quota' ? 'quota' : 'cost'}` });
      continue;
    }
    const result = allocateSample(strata, { budget: options.budget, method, sd: options.sd, min: options.min, max: options.max });
    const n = result.allocation.map((a) => a.n);
    const weights = strata.map((s) => s.traffic!);
    const variances = strata.map((s) => options.sd[s.name] ** 2);
    const variance = stratifiedVariance(weights, variances, n);
    const standardError = Math.sqrt(variance);
    const warnings = result.warnings.slice();
    strata.forEach((s, h) => {
      if (n[h] === 0 && weights[h] > 0) warnings.push(`${method} gives ${s.name} no items: the reweighted difference cannot be estimated (its expected half-width is infinite)`);
    });
    compare.push({
      method,
      allocation: result.allocation.map(({ stratum, n: count }) => ({ stratum, n: count })),
      standardError,
      expectedHalfWidth: z * standardError,
      mde: 2 * z * standardError,
      strata: strata.map((s, h) => ({ stratum: s.name, n: n[h], halfWidth: n[h] > 0 ? (z * options.sd[s.name]) / Math.sqrt(n[h]) : Infinity })),
      warnings,
    });
  }
  return { budget: options.budget, confidenceLevel, compare, skipped };
}
