import { regularizedBeta } from '../distributions/index.js';
import { tangoStatistic, type PairedCounts } from './paired-proportion.js';

/** Settings of exactScoreNonInferiority. */
export interface ExactScoreOptions {
  /** Points of the grid over the nuisance parameter (then refined around the largest); default 200 + n/10, at most 1,000. */
  gridPoints?: number;
}

/** The exact unconditional score test of H0: pA − pB ≤ δ0 against pA − pB > δ0. */
export interface ExactScoreResult {
  /** sup over the nuisance P(only B right) of P(Z(B, C; δ0) ≥ Z_obs) at pA − pB = δ0. */
  pValue: number;
  /** Tango's Z(b, c; δ0), the observed statistic (tangoStatistic). */
  statistic: number;
  /** δ0, the null bound (the gate's −margin). */
  nullDifference: number;
  /** The P(only B right) at which the supremum was found. */
  nuisanceAtSupremum: number;
  gridPoints: number;
  n: number;
}

/** log k! for k = 0 … n. */
function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let k = 1; k <= n; k++) out[k] = out[k - 1] + Math.log(k);
  return out;
}

/** P(X ≤ k), X ~ Binomial(size, p), by the regularised beta function. */
function binomialCdf(k: number, size: number, p: number): number {
  if (k < 0) return 0;
  if (k >= size) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  return regularizedBeta(1 - p, size - k, k + 1);
}

/**
 * The exact unconditional one-sided test of non-inferiority for paired 0/1 outcomes, ordered by
 * Tango's score statistic (Hsueh, Liu & Chen 2001). The gate uses it beside Tango's asymptotic
 * one-sided bound: the asymptotic bound is liberal where the discordant counts are small (a table
 * with no discordant item clears the margin m from n > z²(1 − m)/m on, while P(no discordant
 * item | a true drop of m) = (1 − m)^n is still e^(−z²) ≈ 0.067 there: bench/binary-exact-study.txt).
 *
 * Test: H0: Δ ≤ δ0 against H1: Δ > δ0, Δ = pA − pB = P(only A) − P(only B). Statistic
 * T = Z(b, c; δ0) (tangoStatistic: large when A does well). p = sup over θ = P(only B right) ∈
 * [max(0, −δ0), (1 − δ0)/2] of P_θ(Z(B, C; δ0) ≥ T), (B, C, rest) ~ Multinomial(n; θ + δ0, θ,
 * 1 − 2θ − δ0), the supremum taken on the boundary Δ = δ0 (as Hsueh et al.). For each B = i the
 * tables with Z ≥ T are C ≤ J(i) (Z falls as C grows), so P_θ = Σ_i P(B = i) P(C ≤ J(i) | B = i):
 * a binomial sum of binomial CDFs. θ runs over an even grid, then golden-section refinement around
 * the grid's largest value. Reject H0 at level α when p ≤ α.
 * Reference: Hsueh H.-M., Liu J.-P., Chen J.J. (2001), "Unconditional exact tests for equivalence
 * or noninferiority for paired binary endpoints", Biometrics 57:478–483; Tango (1998) Stat Med
 * 17:891–908 for the statistic.
 * Cost: O(n log n) statistics for J(·), then O(grid · n) binomial terms (one regularised beta per
 * nuisance value, the conditional CDFs carried from one B to the next by recurrence); below about 220
 * items the size is a polynomial of degree n in θ, evaluated at n + 1 Chebyshev points and
 * interpolated at the grid's and the refinement's θ (sizeFunction): O(n²) terms, O(grid · n) for the formula.
 * @param counts the paired table (onlyA: A right, B wrong; onlyB: the reverse); n > 0.
 * @param nullDifference δ0 in (−1, 1): −margin for a non-inferiority gate.
 * @param options gridPoints.
 * @returns pValue, statistic, nullDifference, nuisanceAtSupremum, gridPoints, n.
 * @throws {RangeError} for counts that are not whole numbers ≥ 0, n = 0, or δ0 outside (−1, 1).
 * @example exactScoreNonInferiority({ both: 30, onlyA: 0, onlyB: 0, neither: 22 }, -0.05).pValue // => 0.0694 (= 0.95^52: Tango's bound −0.0495 clears −0.05, this test does not)
 */
export function exactScoreNonInferiority(counts: PairedCounts, nullDifference: number, options: ExactScoreOptions = {}): ExactScoreResult {
  const prepared = prepare(counts, nullDifference, options);
  const found = supremum(prepared, Infinity, null, sizeFunction(prepared));
  return { pValue: found.value, statistic: prepared.observed, nullDifference: prepared.d0, nuisanceAtSupremum: found.theta, gridPoints: prepared.gridPoints, n: prepared.n };
}

/** exactScoreRejects' answer: whether p ≤ α, and the nuisance value that decided it. */
export interface ExactScoreDecision {
  /** p ≤ α, p the p-value exactScoreNonInferiority gives for the same table and δ0. */
  rejects: boolean;
  /** The first P(only B right) found with size > α when rejects is false; the supremum's θ when it is true. */
  nuisance: number;
}

/**
 * Whether the exact unconditional score test (exactScoreNonInferiority) rejects H0: pA − pB ≤ δ0 at
 * level α, without its full p-value: the same grid and the same golden-section refinement, stopped at
 * the first nuisance value θ whose size exceeds α (then p ≥ that size > α). When no value exceeds α
 * every point exactScoreNonInferiority evaluates is evaluated, so the answer is p ≤ α exactly (the
 * grid's best point, hence the refinement's path, is the same). The gate's items-needed search asks
 * only this, at several sizes: most sizes that fail stop after a few θ. `hint`: a θ to try first (the
 * previous size's deciding θ), which changes only how soon a failing size stops, never the answer.
 * Formula: reject ⇔ sup_θ P_θ(Z(B, C; δ0) ≥ Z_obs) ≤ α over the grid and refinement of exactScoreNonInferiority.
 * Reference: Hsueh, Liu & Chen (2001), Biometrics 57:478–483.
 * @param counts the paired table; n > 0.
 * @param nullDifference δ0 in (−1, 1).
 * @param alpha the level α in (0, 1).
 * @param hint a θ to evaluate first, or null.
 * @returns rejects and the deciding nuisance value.
 * @throws {RangeError} as exactScoreNonInferiority, or for α outside (0, 1).
 * @example exactScoreRejects({ both: 30, onlyA: 0, onlyB: 0, neither: 22 }, -0.05, 0.05).rejects // => false (p = 0.0694 > 0.05)
 */
export function exactScoreRejects(counts: PairedCounts, nullDifference: number, alpha: number, hint: number | null = null, options: ExactScoreOptions = {}): ExactScoreDecision {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must lie in (0, 1) (got ${String(alpha)})`);
  const prepared = prepare(counts, nullDifference, options);
  const found = supremum(prepared, alpha, hint, (theta) => sizeAt(prepared, theta));
  return { rejects: !found.exceeded, nuisance: found.theta };
}

/** What every nuisance value θ shares: n, δ0, the observed statistic, J(i), log factorials, the grid. */
interface Prepared {
  n: number;
  d0: number;
  observed: number;
  limit: Int32Array;
  firstValid: number;
  lf: Float64Array;
  /** 1/k for k = 0 … n (index 0 unused): the carried ratios multiply instead of divide. */
  inverse: Float64Array;
  gridPoints: number;
  low: number;
  high: number;
}

function prepare(counts: PairedCounts, nullDifference: number, options: ExactScoreOptions): Prepared {
  for (const key of ['both', 'onlyA', 'onlyB', 'neither'] as const) {
    const v = counts[key];
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${key} must be a whole number ≥ 0 (got ${String(v)})`);
  }
  const n = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  if (n === 0) throw new RangeError('the exact score test needs at least one item (got n = 0)');
  const d0 = nullDifference;
  if (!(d0 > -1 && d0 < 1)) throw new RangeError(`nullDifference must lie in (−1, 1) (got ${String(nullDifference)})`);
  const gridPoints = options.gridPoints ?? Math.min(1000, 200 + Math.ceil(n / 10));
  if (!Number.isInteger(gridPoints) || gridPoints < 2) throw new RangeError(`gridPoints must be a whole number ≥ 2 (got ${String(options.gridPoints)})`);
  const observed = tangoStatistic(counts.onlyA, counts.onlyB, n, d0);
  // Ties in T (to rounding) count as at least as extreme: the conservative side.
  const cut = observed - 1e-9 * Math.max(1, Math.abs(observed));
  // J(i): the largest c ≤ n − i with Z(i, c) ≥ T, or −1; Z falls as c grows (bisection).
  const limit = new Int32Array(n + 1);
  let firstValid = n + 1;
  for (let i = 0; i <= n; i++) {
    if (!(tangoStatistic(i, 0, n, d0) >= cut)) {
      limit[i] = -1;
      continue;
    }
    if (firstValid > n) firstValid = i;
    let lo = 0;
    let hi = n - i;
    if (tangoStatistic(i, hi, n, d0) >= cut) {
      limit[i] = hi;
      continue;
    }
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (tangoStatistic(i, mid, n, d0) >= cut) lo = mid;
      else hi = mid;
    }
    limit[i] = lo;
  }
  const inverse = new Float64Array(n + 2);
  for (let k = 1; k <= n + 1; k++) inverse[k] = 1 / k;
  return { n, d0, observed, limit, firstValid, lf: logFactorials(n), inverse, gridPoints, low: Math.max(0, -d0), high: (1 - d0) / 2 };
}

/** Probabilities below this are recomputed from logs rather than carried by a ratio (a ratio of an underflowed 0 stays 0). */
const CARRY_FLOOR = 1e-250;
/** B's upper tail left out of sizeAt's sum, at most, as a share of the sum (each term of it is P(B = i) times a probability). */
const TAIL_SHARE = 1e-17;
/** Steps a probability is carried by ratios before it is recomputed from logs (bounds the rounding a chain accumulates to ~100 ulp). */
const CARRY_STEPS = 32;

/** P(X = k), X ~ Binomial(m, q), from log factorials (l1 = log q, l0 = log(1 − q)); 0 outside 0 … m. */
function binomialPmf(lf: Float64Array, m: number, k: number, l1: number, l0: number): number {
  return k < 0 || k > m ? 0 : Math.exp(lf[m] - lf[k] - lf[m - k] + k * l1 + (m - k) * l0);
}

/** Trials up to which sizeAt starts its conditional CDF by summing the pmf down from k (lowerTailFrom) instead of a regularised beta. */
const DIRECT_CDF_TRIALS = 400;

/**
 * P(X ≤ k), X ~ Binomial(m, q), from P(X = k) (`pk`) by summing down: P(X = j − 1) = P(X = j) · j/(m − j + 1) · (1 − q)/q.
 * Below the mode those ratios fall as j falls, so the terms left sum to at most term·ρ/(1 − ρ) (ρ the
 * next ratio): the sum stops once that is below 1e-17 of it. At most k steps, each a multiply-add: a
 * tenth of a regularised beta's continued fraction at the sizes the gate asks (m ≤ 400), and as
 * accurate (each term within ~k ulp of its log form; the sum of positive terms).
 * @param inverse 1/j for j = 1 … m + 1. @param inverseOdds (1 − q)/q, q in (0, 1).
 */
function lowerTailFrom(pk: number, m: number, k: number, inverse: Float64Array, inverseOdds: number): number {
  let term = pk;
  let sum = pk;
  for (let j = k; j > 0 && term > 0; j--) {
    term = term * j * inverse[m - j + 1] * inverseOdds;
    sum += term;
    const ratio = (j - 1) * inverse[m - j + 2] * inverseOdds;
    if (ratio < 1 && term * ratio < 1e-17 * (1 - ratio) * sum) break;
  }
  return Math.min(1, sum);
}

/**
 * P_θ(Z(B, C; δ0) ≥ T) at pA − pB = δ0: Σ_i P(B = i) P(C ≤ J(i) | B = i).
 * Both binomial probabilities are carried from one term to the next by their ratios instead of an
 * exp of log factorials per term (three to four exps a term were most of the gate's time at 100
 * items): P(B = i) = P(B = i − 1) · (n − i + 1)/i · p/(1 − p), and for C | B = i ~ Binomial(m, q) the
 * pmf P_m(k) moves by P_{m−1}(k) = P_m(k) (m − k)/(m (1 − q)) and P_m(k ± 1) = P_m(k) · ratio. A carried
 * value is recomputed from logs every CARRY_STEPS steps and whenever it is below CARRY_FLOOR, so it
 * stays within ~1e-14 of the log form (tests/gate/exact-speed.test.ts: p-values within 1e-12 of the
 * code before, tests/gate/reference/slow-exact.ts).
 */
function sizeAt(prepared: Prepared, theta: number): number {
  const { n, d0, limit, lf, inverse } = prepared;
  const p10 = theta + d0;
  const rest = 1 - p10;
  const lp = p10 > 0 ? Math.log(p10) : -Infinity;
  const lq = rest > 0 ? Math.log(rest) : -Infinity;
  let total = 0;
  // B ~ Binomial(n, p10): terms beyond 12 sd (+ 20) of its mean are below 1e-30 and skipped.
  const mean = n * Math.max(0, p10);
  const spread = 12 * Math.sqrt(mean * Math.max(0, rest)) + 20;
  const bOdds = p10 > 0 && rest > 0 ? p10 / rest : 0;
  const first = Math.max(0, Math.floor(mean - spread), prepared.firstValid);
  let last = Math.min(n, Math.ceil(mean + spread));
  const conditional = rest > 0 ? Math.min(1, theta / rest) : 0;
  // C | B = i ~ Binomial(n − i, q), the same q for every i: its CDF at J(i) is carried from one i to
  // the next by F_{m−1}(k) = F_m(k) + q·P(X_{m−1} = k) and F_m(k ± 1) = F_m(k) ± P(X_m = k ± 1)
  // (one regularised beta per θ instead of one per i; agrees with it to ~1e-13, tests/bootstrap/exact-score.test.ts).
  const inside = conditional > 0 && conditional < 1;
  const l1 = inside ? Math.log(conditional) : 0;
  const l0 = inside ? Math.log1p(-conditional) : 0;
  const odds = inside ? conditional / (1 - conditional) : 0;
  const inverseOdds = inside ? (1 - conditional) / conditional : 0;
  const inverseKeep = 1 / (1 - conditional);
  let m = -1;
  let k = 0;
  let cdf = 0;
  let pk = 0; // P_m(k), carried
  let pkSteps = CARRY_STEPS;
  let pb = 0; // P(B = i), carried
  let pbSteps = CARRY_STEPS;
  for (let i = first; i <= last; i++) {
    if (i > first && pbSteps < CARRY_STEPS && pb > CARRY_FLOOR && bOdds > 0) {
      pb = pb * (n - i + 1) * inverse[i] * bOdds;
      pbSteps += 1;
    } else {
      const logProbability = lf[n] - lf[i] - lf[n - i] + (i > 0 ? i * lp : 0) + (n - i > 0 ? (n - i) * lq : 0);
      pb = logProbability < -745 ? 0 : Math.exp(logProbability);
      pbSteps = 0;
    }
    // Past B's mode the ratios P(B = j + 1)/P(B = j) fall as j grows, so the terms after i sum to at most
    // pb·ρ/(1 − ρ), ρ the ratio at i: once that is below TAIL_SHARE of the sum so far (a lower bound of
    // the size), this term is the last one summed; the size moves by less than TAIL_SHARE of itself.
    if (i >= mean) {
      const ratio = (n - i) * inverse[i + 1] * bOdds;
      if (ratio < 1 && pb * ratio < TAIL_SHARE * (1 - ratio) * total) last = i;
    }
    if (limit[i] < 0 || pb === 0) continue;
    const trials = n - i;
    const target = limit[i];
    let conditionalCdf: number;
    if (target >= trials) conditionalCdf = 1;
    else if (!inside) conditionalCdf = binomialCdf(target, trials, conditional);
    else {
      if (m < trials) {
        m = trials;
        k = target;
        pk = binomialPmf(lf, m, k, l1, l0);
        cdf = m <= DIRECT_CDF_TRIALS ? lowerTailFrom(pk, m, k, inverse, inverseOdds) : binomialCdf(k, m, conditional);
        pkSteps = 0;
      }
      while (m > trials) {
        // P_{m−1}(k)
        if (k > m - 1) pk = 0;
        else if (pkSteps < CARRY_STEPS && pk > CARRY_FLOOR) {
          pk = pk * (m - k) * inverse[m] * inverseKeep;
          pkSteps += 1;
        } else {
          pk = binomialPmf(lf, m - 1, k, l1, l0);
          pkSteps = 0;
        }
        cdf += conditional * pk;
        m -= 1;
        if (k >= m) cdf = 1;
      }
      while (k > target) {
        cdf -= pk;
        // P_m(k − 1)
        if (k <= m && pkSteps < CARRY_STEPS && pk > CARRY_FLOOR) {
          pk = pk * k * inverse[m - k + 1] * inverseOdds;
          pkSteps += 1;
        } else {
          pk = binomialPmf(lf, m, k - 1, l1, l0);
          pkSteps = 0;
        }
        k -= 1;
      }
      while (k < target) {
        // P_m(k + 1)
        if (k < m && pkSteps < CARRY_STEPS && pk > CARRY_FLOOR) {
          pk = pk * (m - k) * inverse[k + 1] * odds;
          pkSteps += 1;
        } else {
          pk = binomialPmf(lf, m, k + 1, l1, l0);
          pkSteps = 0;
        }
        k += 1;
        cdf += pk;
      }
      conditionalCdf = Math.min(1, Math.max(0, cdf));
    }
    total += pb * conditionalCdf;
  }
  return Math.min(1, total);
}

/**
 * sizeAt as exactScoreNonInferiority evaluates it: P_θ is a polynomial of degree ≤ n in θ (each
 * multinomial term (θ + δ0)^i θ^c (1 − 2θ − δ0)^(n − i − c) has degree n), so its values at the n + 1
 * Chebyshev points θ_j = mid + half·cos(jπ/n) of [low, high] determine it, and the barycentric formula
 *   P(θ) = Σ_j w_j P_j/(θ − θ_j) / Σ_j w_j/(θ − θ_j),  w_j = (−1)^j (halved at j = 0 and n),
 * gives it at every θ the grid and the refinement ask for, where they ask for more than n + 1 points
 * (n below about 220: 101 sizeAt calls instead of 253 at n = 100). The same points are evaluated; each
 * value moves by at most the Lebesgue constant (< 4.5 for n ≤ 220) times sizeAt's own rounding (~1e-14)
 * plus the formula's, which is stable on Chebyshev points (Higham 2004, IMA J. Numer. Anal. 24:547):
 * tests/gate/exact-speed.test.ts holds the p-values within 1e-12 of the slow form.
 * Reference: Berrut & Trefethen (2004), "Barycentric Lagrange interpolation", SIAM Review 46:501–517.
 */
function sizeFunction(prepared: Prepared): (theta: number) => number {
  const { n, gridPoints, low, high } = prepared;
  if (n + 1 >= gridPoints || !(high > low)) return (theta) => sizeAt(prepared, theta);
  // plain arrays of doubles for the per-call scratch: no off-heap buffer per call (the profile's garbage
  // collection share, ~12% of a call at 100 items, did not measurably change with it)
  const nodes: number[] = new Array<number>(n + 1).fill(0);
  const values: number[] = new Array<number>(n + 1).fill(0);
  const weights: number[] = new Array<number>(n + 1).fill(0);
  const mid = (low + high) / 2;
  const half = (high - low) / 2;
  for (let j = 0; j <= n; j++) {
    nodes[j] = j === 0 ? high : j === n ? low : mid + half * Math.cos((j * Math.PI) / n);
    values[j] = sizeAt(prepared, nodes[j]);
    weights[j] = (j % 2 === 0 ? 1 : -1) * (j === 0 || j === n ? 0.5 : 1);
  }
  return (theta) => {
    let numerator = 0;
    let denominator = 0;
    for (let j = 0; j <= n; j++) {
      const gap = theta - nodes[j];
      if (gap === 0) return values[j];
      const t = weights[j] / gap;
      numerator += t * values[j];
      denominator += t;
    }
    return Math.min(1, Math.max(0, numerator / denominator));
  };
}

/**
 * The supremum of sizeAt (`size`) over the even grid of θ, then golden-section refinement between the grid
 * neighbours of its largest value. `stopAbove`: return as soon as a value exceeds it (exceeded: true);
 * with Infinity every point is evaluated. `hint`: the grid point nearest this θ is evaluated first, then
 * every eighth point, then the rest (all values are kept, so the grid's best point is the first largest
 * in grid order whatever the evaluation order, and the refinement follows the same path).
 */
function supremum(prepared: Prepared, stopAbove: number, hint: number | null, size: (theta: number) => number): { value: number; theta: number; exceeded: boolean } {
  const { gridPoints, low, high } = prepared;
  const at = (g: number) => low + ((high - low) * g) / gridPoints;
  const values: number[] = new Array<number>(gridPoints + 1).fill(-1);
  // With a stop: the hint's point, every eighth point, then the rest; without one, every point in order.
  const first: number[] = [];
  if (stopAbove < Infinity) {
    if (hint !== null && hint >= low && hint <= high) first.push(Math.round(((hint - low) / (high - low)) * gridPoints));
    for (let g = 0; g <= gridPoints; g += 8) first.push(g);
  }
  for (let j = 0; j < first.length + gridPoints + 1; j++) {
    const g = j < first.length ? first[j] : j - first.length;
    if (values[g] >= 0) continue;
    const value = size(at(g));
    values[g] = value;
    if (value > stopAbove) return { value, theta: at(g), exceeded: true };
  }
  let best = -1;
  let bestTheta = low;
  let bestIndex = 0;
  for (let g = 0; g <= gridPoints; g++) {
    if (values[g] > best) {
      best = values[g];
      bestTheta = at(g);
      bestIndex = g;
    }
  }
  // Golden-section search between the grid neighbours of the largest value.
  let a = at(Math.max(0, bestIndex - 1));
  let b = at(Math.min(gridPoints, bestIndex + 1));
  const ratio = (Math.sqrt(5) - 1) / 2;
  let x1 = b - ratio * (b - a);
  let x2 = a + ratio * (b - a);
  let f1 = size(x1);
  let f2 = size(x2);
  for (const [theta, value] of [[x1, f1], [x2, f2]] as const) if (value > stopAbove) return { value, theta, exceeded: true };
  for (let k = 0; k < 40; k++) {
    if (f1 >= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - ratio * (b - a);
      f1 = size(x1);
      if (f1 > stopAbove) return { value: f1, theta: x1, exceeded: true };
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + ratio * (b - a);
      f2 = size(x2);
      if (f2 > stopAbove) return { value: f2, theta: x2, exceeded: true };
    }
  }
  for (const [theta, value] of [[x1, f1], [x2, f2]] as const) {
    if (value > best) {
      best = value;
      bestTheta = theta;
    }
  }
  return { value: best, theta: bestTheta, exceeded: false };
}
