/** Strata with fewer items than this get the pooled within-stratum variance as a floor (smallStrataVariance's default). */
export const SMALL_STRATUM_ITEMS = 10;

/** One stratum's part of a stratified variance: Var(Σ_h W_h ȳ_h) = Σ_h W_h² S_h² / n_h. */
export interface SmallStrataInput {
  /** W_h, finite and ≥ 0 (a stratum of weight 0 is left out). */
  weight: number;
  /** n_h, the items behind the stratum's mean (≥ 1). */
  n: number;
  /** The sample variance s_h² (divisor n_h − 1); NaN (or anything) when n_h = 1. */
  variance: number;
}

/** Per stratum: the variance used and the degrees of freedom it rests on. */
export interface SmallStrataPart {
  /** s̃_h², the variance used for the stratum's items. */
  varianceUsed: number;
  /** W_h² s̃_h² / n_h. */
  term: number;
  /** Degrees of freedom of s̃_h²: n_h − 1 for its own variance, the pooled df when the pooled variance stands in. */
  df: number;
  /** The pooled within-stratum variance stood in for (or raised) this stratum's own. */
  pooled: boolean;
}

/** The stratified variance with small strata floored at the pooled variance, and Satterthwaite's df. */
export interface SmallStrataVariance {
  /** V = Σ_h W_h² s̃_h² / n_h (+ the extra terms). */
  variance: number;
  /** Satterthwaite's degrees of freedom of V, at most Σ (n_h − 1) + the extra terms' df (see smallStrataVariance); NaN when V = 0. */
  df: number;
  /** s²_pool = Σ_h (n_h − 1) s_h² / Σ_h (n_h − 1) over every stratum of two or more items. */
  pooledVariance: number;
  /** Σ_h (n_h − 1). */
  pooledDf: number;
  /** Per input stratum, in order. */
  parts: SmallStrataPart[];
}

/** Settings of smallStrataVariance. */
export interface SmallStrataOptions {
  /** Strata with fewer items get max(s_h², s²_pool); default SMALL_STRATUM_ITEMS (10). */
  minItems?: number;
  /** Further independent terms of V (e.g. a judge's unlabelled-items term), each with its df. */
  extra?: ReadonlyArray<{ variance: number; df: number }>;
}

/**
 * The variance of a stratified mean Σ_h W_h ȳ_h when some strata rest on a few items, and the
 * degrees of freedom to read it with. A stratum of 5 items whose values happen to be equal has
 * s_h² = 0 and adds nothing to Σ W_h² s_h² / n_h, however much traffic it carries; and t(n − H)
 * treats a variance resting on 4 items as if it rested on n − H. Two changes, both standard:
 * - a floor for small strata (n_h < minItems): s̃_h² = max(s_h², s²_pool), with the pooled
 *   within-stratum variance s²_pool = Σ_h (n_h − 1) s_h² / Σ_h (n_h − 1) (Cochran 1977 §5A.12,
 *   "collapsed strata"; the pooled variance the survey literature uses for lonely or near-lonely
 *   strata; R survey's `options(survey.lonely.psu = "average")` is the same idea). The floor only
 *   raises a variance, so a small stratum that truly varies more than the rest keeps its own;
 * - Satterthwaite's df for the combination (Satterthwaite 1946; Cochran 1977 §5.4, eq. 5.16):
 *   df = V² / Σ_k c_k² / ν_k over the independent variance estimates k, where a stratum keeping its
 *   own s_h² is one estimate (c = W_h² s_h² / n_h, ν = n_h − 1) and all strata given s²_pool share
 *   one estimate (c = s²_pool Σ W_h² / n_h over them, ν = Σ (n_h − 1)). Strata with their own variance
 *   that contributes nothing (c = 0) drop out. Since s²_pool reuses the other strata's sums of
 *   squares, df is capped at Σ (n_h − 1) (plus the extra terms' df): no more than the data hold.
 * Reference: Satterthwaite (1946), Biometrics Bulletin 2(6):110–114; Cochran (1977) Sampling
 * Techniques §5.4 and §5A.12; R: `survey::svydesign(ids = ~1, strata = ~h, weights = ~w)` gives V
 * for strata of 10 or more items (tests/reference/strata-small/).
 * @param strata per stratum W_h, n_h and s_h².
 * @param options minItems (default 10), extra terms.
 * @returns variance, df, pooledVariance, pooledDf, parts per stratum.
 * @throws {RangeError} for a negative or non-finite weight, n_h < 1, or minItems < 2.
 * @example smallStrataVariance([{ weight: 0.7, n: 60, variance: 0.2 }, { weight: 0.3, n: 5, variance: 0 }]).parts[1].varianceUsed // => 0.1873015873015873 (59 · 0.2 / 63: the pooled variance stands in for 5 equal values)
 */
export function smallStrataVariance(strata: readonly SmallStrataInput[], options: SmallStrataOptions = {}): SmallStrataVariance {
  const minItems = options.minItems ?? SMALL_STRATUM_ITEMS;
  if (!Number.isInteger(minItems) || minItems < 2) throw new RangeError(`minItems must be a whole number ≥ 2 (got ${String(minItems)})`);
  let pooledSquares = 0;
  let pooledDf = 0;
  for (const [k, s] of strata.entries()) {
    if (!(Number.isFinite(s.weight) && s.weight >= 0)) throw new RangeError(`strata[${k}].weight must be a finite number ≥ 0 (got ${s.weight})`);
    if (!(Number.isInteger(s.n) && s.n >= 1)) throw new RangeError(`strata[${k}].n must be a whole number ≥ 1 (got ${s.n})`);
    if (s.n >= 2) {
      if (!(s.variance >= 0)) throw new RangeError(`strata[${k}].variance must be a finite number ≥ 0 (got ${s.variance})`);
      pooledSquares += (s.n - 1) * s.variance;
      pooledDf += s.n - 1;
    }
  }
  const pooledVariance = pooledDf > 0 ? pooledSquares / pooledDf : NaN;
  const parts: SmallStrataPart[] = [];
  let variance = 0;
  let pooledTerm = 0;
  let denominator = 0;
  for (const s of strata) {
    const own = s.n >= 2 ? s.variance : NaN;
    const small = s.n < minItems;
    const usePooled = small && !(own >= pooledVariance);
    const varianceUsed = usePooled ? pooledVariance : own;
    const term = s.weight === 0 ? 0 : (s.weight * s.weight * varianceUsed) / s.n;
    const df = usePooled ? pooledDf : s.n - 1;
    parts.push({ varianceUsed, term, df, pooled: usePooled });
    if (s.weight === 0) continue;
    variance += term;
    if (usePooled) pooledTerm += term;
    else if (term > 0) denominator += (term * term) / df;
  }
  if (pooledTerm > 0) denominator += (pooledTerm * pooledTerm) / pooledDf;
  for (const e of options.extra ?? []) {
    variance += e.variance;
    if (e.variance > 0) denominator += (e.variance * e.variance) / e.df;
  }
  // The pooled variance reuses the other strata's sums of squares, so its term is not independent
  // of theirs and the sum above can exceed the df all the data hold: cap at Σ (n_h − 1) (+ the
  // extra terms' df), the df of independent components (Satterthwaite's df never exceeds their sum).
  const extraDf = (options.extra ?? []).reduce((a, e) => a + (e.variance > 0 ? e.df : 0), 0);
  const df = variance > 0 && denominator > 0 ? Math.min((variance * variance) / denominator, pooledDf + extraDf) : NaN;
  return { variance, df, pooledVariance, pooledDf, parts };
}
