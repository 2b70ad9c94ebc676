import { normalCdf, normalQuantile } from '../distributions/index.js';
import { binomialHalfLowerTails } from './mcnemar.js';
import { checkAlternative, checkConfidenceLevel } from '../bootstrap/settings.js';
import type { Alternative } from '../bootstrap/types.js';

/** The score intervals for a paired difference of proportions. */
export type PairedProportionMethod = 'tango' | 'newcombe';

/** Every paired-proportion method, default first (tango: bench/binary-exact-study.txt). */
export const PAIRED_PROPORTION_METHODS: readonly PairedProportionMethod[] = ['tango', 'newcombe'];

/** The four cells of a paired 2×2 table of 0/1 outcomes (A's outcome by B's). */
export interface PairedCounts {
  /** Both right (1, 1). */
  both: number;
  /** Only A right (1, 0): McNemar's b. */
  onlyA: number;
  /** Only B right (0, 1): McNemar's c. */
  onlyB: number;
  /** Both wrong (0, 0). */
  neither: number;
}

/** Settings of pairedProportionInterval. */
export interface PairedProportionOptions {
  /** `tango` (default: the exact study bench/binary-exact-study.txt) or `newcombe` (method 10, kept by name). */
  method?: PairedProportionMethod;
  /** Default 0.95; one-sided levels are one-sided (the bound of a two-sided 1 − 2α interval). */
  confidenceLevel?: number;
  /** Default `'two-sided'`. */
  alternative?: Alternative;
  /**
   * `tango` only: multiply the score's null variance by n/(n − 1) (Miettinen & Nurminen's bias
   * correction factor, ratesci `pairbinci` bcf = TRUE). Default true: it lifts the worst two-sided
   * coverage over the whole outcome space from 0.9298 to 0.9331 at 1.03× the mean width
   * (bench/binary-tango-fix.txt); false gives Tango's (1998) interval as published.
   */
  biasCorrection?: boolean;
  /**
   * Default true. false leaves McNemar's exact and mid-p values out (NaN when any item is
   * discordant): their exact integer sum over the discordant items is most of the call's time at
   * thousands of them, and a caller that reads only the interval and the score test's p (the gate) skips it.
   */
  exactPValues?: boolean;
}

/** A score interval for pA − pB on paired 0/1 outcomes, with McNemar's exact and mid-p tests. */
export interface PairedProportionResult {
  /** (onlyA − onlyB) / n = pA − pB. */
  estimate: number;
  /** [low, high], inside [−1, 1]; one end ±1 for a one-sided alternative; NaN for n = 0. */
  confidenceInterval: [number, number];
  method: PairedProportionMethod;
  confidenceLevel: number;
  alternative: Alternative;
  /** pA = (both + onlyA) / n, pB = (both + onlyB) / n. */
  proportionA: number;
  proportionB: number;
  counts: PairedCounts;
  n: number;
  /** Exact McNemar p (two-sided: min(1, 2 P(X ≤ min(b, c))); one-sided: the binomial tail), X ~ Bin(b + c, ½). */
  exactPValue: number;
  /** Mid-p: the exact p minus P(X = observed) for one-sided, 2 P(X < k) + P(X = k) two-sided (min 1). */
  midPValue: number;
  /**
   * Tango's score test of pA = pB, the test the `tango` interval inverts: Z(0) = (b − c)/√(b + c)
   * (McNemar's statistic without continuity correction), times √((n − 1)/n) under the default bias
   * correction; two-sided 2Φ(−|Z|), `greater` Φ(−Z), `less` Φ(Z); 1 when b + c = 0. The `tango`
   * interval excludes 0 exactly when this is below 1 − level.
   */
  scorePValue: number;
  warnings: string[];
}

/**
 * Counts the paired table from per-item 0/1 outcomes.
 * @param a A's outcomes (0 or 1). @param b B's, paired item by item.
 * @returns both, onlyA, onlyB, neither.
 * @throws {RangeError} for values other than 0/1 or unequal lengths.
 * @example pairedCounts([1, 1, 0, 0, 1], [1, 0, 1, 0, 0]) // => { both: 1, onlyA: 2, onlyB: 1, neither: 1 }
 */
export function pairedCounts(a: ArrayLike<number>, b: ArrayLike<number>): PairedCounts {
  if (a.length !== b.length) throw new RangeError(`a and b must be paired item by item: same length (got ${a.length} and ${b.length})`);
  const counts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== 0 && x !== 1) throw new RangeError(`a[${i}] must be 0 or 1 for a paired proportion interval (got ${String(x)})`);
    if (y !== 0 && y !== 1) throw new RangeError(`b[${i}] must be 0 or 1 for a paired proportion interval (got ${String(y)})`);
    if (x === 1 && y === 1) counts.both += 1;
    else if (x === 1) counts.onlyA += 1;
    else if (y === 1) counts.onlyB += 1;
    else counts.neither += 1;
  }
  return counts;
}

/**
 * The paired table of a and b when both are all 0/1, in one pass; null when they are not (a value other
 * than the numbers 0 and 1, different lengths, or not arrays). For the 0/1 paths, which would otherwise
 * check each array for 0/1, count the discordant items, sum the differences and count the table in
 * separate walks over the items: a null here sends the caller down its general path, whose checks name
 * the bad value. 0 and 1 are finite numbers, so a table here also means pairedDifferences' checks pass.
 * Formula: both = #{a = 1, b = 1}, onlyA = #{a = 1, b = 0}, onlyB = #{a = 0, b = 1}, neither = the rest
 * (−0 counts as 0, as pairedCounts and McNemar's test count it).
 * @param a A's scores. @param b B's, paired item by item.
 * @returns both, onlyA, onlyB, neither; or null.
 * @example binaryPairedCounts([1, 1, 0, 0, 1], [1, 0, 1, 0, 0]) // => { both: 1, onlyA: 2, onlyB: 1, neither: 1 }
 */
export function binaryPairedCounts(a: ArrayLike<number>, b: ArrayLike<number>): PairedCounts | null {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return null;
  const n = a.length;
  if (typeof n !== 'number' || b.length !== n) return null;
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === 1) {
      if (y === 1) both += 1;
      else if (y === 0) onlyA += 1;
      else return null;
    } else if (x === 0) {
      if (y === 1) onlyB += 1;
      else if (y !== 0) return null;
    } else return null;
  }
  return { both, onlyA, onlyB, neither: n - both - onlyA - onlyB };
}

/**
 * Tango's score statistic for H0: pA − pB = delta (Tango 1998, eq. 3):
 *   Z(δ) = (b − c − nδ) / √(n (2 q̃ + δ (1 − δ))),
 * q̃ = (√(W² + 8 n c δ (1 − δ)) − W) / (4n), W = −b − c + (2n − b + c) δ,
 * q̃ the restricted ML estimate of P(only B right) under the null. Decreasing in δ.
 * Reference: Tango (1998), Stat Med 17:891–908; R PropCIs `scoreci.mp`.
 * @param b items only A got right; @param c only B; @param n all items; @param delta the null difference in (−1, 1).
 * @returns Z(δ); ±∞ where the null variance is 0 and the numerator is not.
 * @example tangoStatistic(0, 0, 50, -0.1) // => √(50 · 0.1 / 0.9) = 2.357 (b = c = 0: √(n|δ| / (1 − |δ|)))
 */
export function tangoStatistic(b: number, c: number, n: number, delta: number): number {
  const w = -b - c + (2 * n - b + c) * delta;
  const q = (Math.sqrt(Math.max(0, w * w + 8 * n * c * delta * (1 - delta))) - w) / (4 * n);
  const variance = n * (2 * q + delta * (1 - delta));
  const numerator = b - c - n * delta;
  if (variance <= 0) return numerator === 0 ? 0 : numerator > 0 ? Infinity : -Infinity;
  return numerator / Math.sqrt(variance);
}

/** The δ in [lo, hi] where the decreasing f crosses target, by bisection to the last bit. */
function solveDecreasing(f: (x: number) => number, target: number, lo: number, hi: number): number {
  for (let k = 0; k < 200; k++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The normal quantile Tango's interval is solved at: z itself, or with the bias correction (null
 * variance × n/(n − 1)) the equivalent z √(n/(n − 1)), since |Z|/√(n/(n − 1)) ≤ z ⟺ |Z| ≤ z √(n/(n − 1)).
 * n ≤ 1 with the correction: ∞ (one item cannot bound a difference: [−1, 1]).
 */
function tangoQuantile(z: number, n: number, biasCorrection: boolean): number {
  if (!biasCorrection) return z;
  return n > 1 ? z * Math.sqrt(n / (n - 1)) : Infinity;
}

function tangoBounds(counts: PairedCounts, n: number, z: number): [number, number] {
  const { onlyA: b, onlyB: c } = counts;
  if (z === Infinity) return [-1, 1];
  const estimate = (b - c) / n;
  const f = (d: number) => tangoStatistic(b, c, n, d);
  const low = estimate <= -1 ? -1 : solveDecreasing(f, z, -1, estimate);
  const high = estimate >= 1 ? 1 : solveDecreasing(f, -z, estimate, 1);
  return [low, high];
}

/** Wilson's score interval for x successes out of n at normal quantile z: (2x + z² ± z √(z² + 4x(n − x)/n)) / (2(n + z²)). */
function wilson(x: number, n: number, z: number): [number, number] {
  const centre = 2 * x + z * z;
  const spread = z * Math.sqrt(z * z + (4 * x * (n - x)) / n);
  const denominator = 2 * (n + z * z);
  return [Math.max(0, (centre - spread) / denominator), Math.min(1, (centre + spread) / denominator)];
}

/**
 * Newcombe's (1998) method 10 bounds: Wilson intervals [l1, u1] for pA and [l2, u2] for pB combined
 * with the corrected correlation φ*:
 *   L = Δ − √((pA − l1)² − 2φ*(pA − l1)(u2 − pB) + (u2 − pB)²),
 *   U = Δ + √((u1 − pA)² − 2φ*(u1 − pA)(pB − l2) + (pB − l2)²),
 * φ* = (AD − BC)' / √((A+B)(C+D)(A+C)(B+D)) with (AD − BC)' = AD − BC − n/2 when AD − BC > n/2,
 * 0 when 0 ≤ AD − BC ≤ n/2, AD − BC when negative; φ* = 0 when a margin is empty.
 */
function newcombeBounds(counts: PairedCounts, n: number, z: number): [number, number] {
  const { both: A, onlyA: B, onlyB: C, neither: D } = counts;
  const pA = (A + B) / n;
  const pB = (A + C) / n;
  const [l1, u1] = wilson(A + B, n, z);
  const [l2, u2] = wilson(A + C, n, z);
  const cross = A * D - B * C;
  const corrected = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross;
  const margins = (A + B) * (C + D) * (A + C) * (B + D);
  const phi = margins > 0 ? corrected / Math.sqrt(margins) : 0;
  const estimate = pA - pB;
  const dl1 = pA - l1;
  const du2 = u2 - pB;
  const du1 = u1 - pA;
  const dl2 = pB - l2;
  const low = estimate - Math.sqrt(Math.max(0, dl1 * dl1 - 2 * phi * dl1 * du2 + du2 * du2));
  const high = estimate + Math.sqrt(Math.max(0, du1 * du1 - 2 * phi * du1 * dl2 + dl2 * dl2));
  return [Math.max(-1, low), Math.min(1, high)];
}

/**
 * The score interval's ends alone, at a normal quantile z, without the tests or the checks of
 * pairedProportionInterval: for exact enumeration studies (bench/binary-exact-study.mjs) that
 * evaluate the interval on every table of a grid and must use the library's own arithmetic.
 * Two-sided level 1 − α: z = Φ⁻¹(1 − α/2); a one-sided 1 − α bound is the matching end at z = Φ⁻¹(1 − α).
 * Counts may be fractional (pairedItemsNeeded scales a table); n = both + onlyA + onlyB + neither > 0.
 * Reference: see pairedProportionInterval (Tango 1998; Newcombe 1998 method 10).
 * @param counts the paired table. @param method `tango` or `newcombe`. @param z the normal quantile, > 0.
 * @param biasCorrection `tango` only: null variance × n/(n − 1) (default true, as pairedProportionInterval).
 * @returns [low, high] inside [−1, 1].
 * @example pairedProportionBounds({ both: 20, onlyA: 0, onlyB: 0, neither: 19 }, 'tango', 1.6448536269514722)[0] // => -0.0665 (−z²/(38 + z²) with the correction; −0.0649 = −z²/(39 + z²) without)
 */
export function pairedProportionBounds(counts: PairedCounts, method: PairedProportionMethod, z: number, biasCorrection = true): [number, number] {
  const n = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  return method === 'tango' ? tangoBounds(counts, n, tangoQuantile(z, n, biasCorrection)) : newcombeBounds(counts, n, z);
}

/**
 * P(X ≤ k) and P(X = k), X ~ Binomial(m, ½) (m ≥ 1), from McNemar's exact tail (summed in exact
 * integers there): for k < m/2 the two-sided exact p is 2 P(X ≤ k) (at most 1, so unclamped); above,
 * by symmetry. Each lower tail is summed once per call of pairedProportionInterval, with its
 * neighbour k − 1 (binomialHalfLowerTails), where the exact and mid-p values asked for four sums of
 * the same terms; the values are those of mcnemarFromCounts(k, m − k).exactPValue / 2 as before.
 */
function binomialHalfTails(m: number): { lower: (k: number) => number; cdf: (k: number) => number; pmf: (k: number) => number } {
  const known = new Map<number, number>();
  const lower = (k: number): number => {
    const seen = known.get(k);
    if (seen !== undefined) return seen;
    const tails = binomialHalfLowerTails(m, k);
    known.set(k, tails.atMost);
    if (k >= 1) known.set(k - 1, tails.below);
    return tails.atMost;
  };
  const cdf = (k: number): number => {
    if (k < 0) return 0;
    if (k >= m) return 1;
    if (2 * k < m) return Math.min(1, 2 * lower(k)) / 2;
    return 1 - cdf(m - k - 1);
  };
  const pmf = (k: number): number => {
    if (k < 0 || k > m) return 0;
    if (2 * k > m) return pmf(m - k);
    return cdf(k) - cdf(k - 1);
  };
  return { lower, cdf, pmf };
}

/**
 * A score confidence interval for the difference pA − pB of two correlated proportions (two models'
 * 0/1 scores on the same items), with McNemar's exact and mid-p tests of pA = pB. Unlike the
 * bootstrap it is never the single point [0, 0]: when A and B agree on every item (b = c = 0) the
 * interval still says how large a difference n items cannot rule out (3 items: ±0.66 at 95%; one-sided 95% lower bound −0.58).
 *
 * `tango` (default): the inversion of Tango's score test, {δ : |Z(δ)| ≤ z} (tangoStatistic), found
 * by bisection on each side of Δ̂; it depends on the discordant counts (b, c) and n only. By default
 * the score's null variance is multiplied by n/(n − 1) (Miettinen & Nurminen's bias correction
 * factor, as ratesci's `pairbinci` does by default): the interval is {δ : |Z(δ)| ≤ z √(n/(n − 1))},
 * no extra cost; `biasCorrection: false` gives Tango's published interval.
 * `newcombe`: Newcombe's method 10 (Wilson intervals for each proportion, combined with a corrected
 * φ; see newcombeBounds), kept by name. With b = c = 0 Tango's is ±z²/(n + z²) (solving
 * n|δ|/(1 − |δ|) = z²; ±z²/(n − 1 + z²) with the correction); Newcombe's shrinks below that when the agreeing items are a mix of both
 * right and both wrong (φ* → 1).
 * Why tango by default: the exact enumeration over the whole four-cell outcome space
 * (bench/binary-exact-study.txt: n = 10 … 1,000, discordance 0.5–50%, any split of the agreeing
 * items, one-sided discordance) gives Newcombe's two-sided coverage down to 0.875 and its one-sided
 * bound a false-pass rate up to 0.15 at a true drop equal to the margin, on mixed agreeing items;
 * Tango's does not depend on that split; as published it covers down to 0.9298 (n = 30, 30%
 * discordance, one-sided), with the n/(n − 1) correction ≥ 0.9331 in every cell of that study and
 * ≥ 0.9393 on a held-out grid, at 1.03× the mean width, 1.001× at n = 1,000
 * (bench/binary-tango-fix.txt). The one-sided bound alone is liberal where a table with no
 * discordant item first clears the margin (the gate adds the exact test: exactScoreNonInferiority).
 * One-sided alternatives give the bound of the two-sided interval at level 1 − 2α (z = Φ⁻¹(level)).
 *
 * Tests: Tango's score test at δ = 0 (scorePValue: McNemar's Z without continuity correction, the
 * test the tango interval inverts); exact McNemar p = min(1, 2 P(X ≤ min(b, c))) two-sided, P(X ≥ b) for `greater`, P(X ≤ b)
 * for `less`, X ~ Binomial(b + c, ½); mid-p subtracts half the probability of the observed count
 * from each tail used (two-sided: 2 P(X < k) + P(X = k)). Both are 1 when b + c = 0.
 *
 * Reference: Tango T. (1998), "Equivalence test and confidence interval for the difference in
 * proportions for the paired-sample design", Stat Med 17:891–908 (R PropCIs `scoreci.mp`);
 * Newcombe R.G. (1998), "Improved confidence intervals for the difference between binomial
 * proportions based on paired data", Stat Med 17:2635–2650, method 10; hand implementation in
 * tests/reference/paired-proportions/paired_proportions.py; the corrected interval in R:
 * tests/reference/paired-proportions/tango_bcf.R. Miettinen O., Nurminen M. (1985), Stat Med 4:213–226.
 * @param counts the paired table (pairedCounts(a, b) from per-item 0/1 scores); whole numbers ≥ 0.
 * @param options method, confidenceLevel, alternative, biasCorrection (tango, default true).
 * @returns estimate, confidenceInterval, method, confidenceLevel, alternative, proportionA,
 *   proportionB, counts, n, exactPValue, midPValue, scorePValue, warnings.
 * @throws {RangeError} for counts that are not whole numbers ≥ 0, an unknown method, a bad level.
 * @example pairedProportionInterval({ both: 3, onlyA: 0, onlyB: 0, neither: 0 }).confidenceInterval // => [-0.6576, 0.6576] (± z²/(2 + z²), z = 1.96, with the n/(n − 1) correction)
 */
export function pairedProportionInterval(counts: PairedCounts, options: PairedProportionOptions = {}): PairedProportionResult {
  for (const key of ['both', 'onlyA', 'onlyB', 'neither'] as const) {
    const v = counts[key];
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${key} must be a whole number ≥ 0 (got ${String(v)})`);
  }
  const method = options.method ?? 'tango';
  if (!PAIRED_PROPORTION_METHODS.includes(method)) throw new RangeError(`method must be one of ${PAIRED_PROPORTION_METHODS.join(', ')} (got ${String(options.method)})`);
  const confidenceLevel = checkConfidenceLevel(options.confidenceLevel);
  const alternative = checkAlternative(options.alternative);
  const n = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  const b = counts.onlyA;
  const c = counts.onlyB;
  const m = b + c;
  const warnings: string[] = [];
  const twoSided = alternative === 'two-sided';
  let exactPValue: number;
  let midPValue: number;
  if (m === 0) {
    exactPValue = 1;
    midPValue = 1;
  } else if (options.exactPValues === false) {
    exactPValue = NaN;
    midPValue = NaN;
  } else if (twoSided) {
    const k = Math.min(b, c);
    const half = binomialHalfTails(m);
    // = mcnemarFromCounts(b, c).exactPValue
    exactPValue = Math.min(1, 2 * half.lower(k));
    midPValue = Math.min(1, 2 * half.cdf(k) - half.pmf(k));
  } else {
    // greater: H1 pA > pB, evidence is large b: P(X ≥ b) = P(X ≤ c) by symmetry.
    const k = alternative === 'greater' ? c : b;
    const half = binomialHalfTails(m);
    exactPValue = half.cdf(k);
    midPValue = exactPValue - half.pmf(k) / 2;
  }
  const biasCorrection = options.biasCorrection ?? true;
  // The bias correction divides Z by √(n/(n − 1)); one item (n = 1) then carries no evidence: Z = 0.
  const shrink = !biasCorrection ? 1 : n > 1 ? Math.sqrt((n - 1) / n) : 0;
  const scoreZ = m === 0 ? 0 : ((b - c) / Math.sqrt(m)) * shrink;
  const scorePValue = m === 0 ? 1 : twoSided ? Math.min(1, 2 * normalCdf(-Math.abs(scoreZ))) : alternative === 'greater' ? normalCdf(-scoreZ) : normalCdf(scoreZ);
  if (n === 0) {
    warnings.push('no items: the interval is undefined');
    return { estimate: NaN, confidenceInterval: [NaN, NaN], method, confidenceLevel, alternative, proportionA: NaN, proportionB: NaN, counts: { ...counts }, n, exactPValue, midPValue, scorePValue, warnings };
  }
  const z = normalQuantile(twoSided ? 1 - (1 - confidenceLevel) / 2 : confidenceLevel);
  let [low, high] = method === 'tango' ? tangoBounds(counts, n, tangoQuantile(z, n, biasCorrection)) : newcombeBounds(counts, n, z);
  if (alternative === 'greater') high = 1;
  else if (alternative === 'less') low = -1;
  if (m === 0) warnings.push(`A and B agree on all ${n} items: the interval comes from the score test alone (no discordant item observed)`);
  return {
    estimate: (b - c) / n,
    confidenceInterval: [low, high],
    method,
    confidenceLevel,
    alternative,
    proportionA: (counts.both + b) / n,
    proportionB: (counts.both + c) / n,
    counts: { ...counts },
    n,
    exactPValue,
    midPValue,
    scorePValue,
    warnings,
  };
}

/**
 * How many paired items, in the same proportions as `counts` (the same share agreeing and the same
 * split of the discordant ones), the one-sided lower bound at `confidenceLevel` needs to lie above
 * `threshold` (−margin): the smallest N with bound(counts · N/n) > threshold, by doubling then
 * bisection on N. With no discordant item this is the rule-of-three-type N > 1 + z²(1 + threshold)/(−threshold)
 * (the bound is −z²/(N − 1 + z²) with the default n/(n − 1) correction; without it −z²/(N + z²) and N > z²(1 + threshold)/(−threshold)).
 * @param counts the observed paired table. @param threshold −margin, ≤ 0.
 * @param options method (default tango), confidenceLevel (one-sided, default 0.95), biasCorrection (tango, default true).
 * @returns N (≥ n when the data pass already: n), or null when no N passes (the estimate is at or
 *   below the threshold) or N would exceed 10⁹.
 * @example pairedItemsNeeded({ both: 3, onlyA: 0, onlyB: 0, neither: 0 }, -0.05) // => 53 (N > 19z² + 1 with the n/(n − 1) correction; 52 without)
 */
export function pairedItemsNeeded(counts: PairedCounts, threshold: number, options: { method?: PairedProportionMethod; confidenceLevel?: number; biasCorrection?: boolean } = {}): number | null {
  const method = options.method ?? 'tango';
  const z = normalQuantile(checkConfidenceLevel(options.confidenceLevel));
  const n = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  if (n === 0 || !((counts.onlyA - counts.onlyB) / n > threshold)) return null;
  const lower = (size: number): number => {
    const f = size / n;
    const scaled = { both: counts.both * f, onlyA: counts.onlyA * f, onlyB: counts.onlyB * f, neither: counts.neither * f };
    return (method === 'tango' ? tangoBounds(scaled, size, tangoQuantile(z, size, options.biasCorrection ?? true)) : newcombeBounds(scaled, size, z))[0];
  };
  if (lower(n) > threshold) return n;
  let low = n;
  let high = 2 * n;
  while (!(lower(high) > threshold)) {
    low = high;
    high *= 2;
    if (high > 1e9) return null;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (lower(mid) > threshold) high = mid;
    else low = mid;
  }
  return high;
}
