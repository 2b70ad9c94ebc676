// The exact unconditional score test and the gate's items-needed search AS THEY WERE before the speed-up
// of issues 29/33 (src/paired/exact-score.ts and src/gate/gate.ts at commit f68b830), kept verbatim as the
// slow reference: tests/gate/exact-speed.test.ts checks that the fast versions give the same p-values
// (to 1e-12), the same decisions and the same items needed. Not library code; never imported by src/.
import { regularizedBeta } from '../../../src/distributions/index.js';
import { tangoStatistic, type PairedCounts } from '../../../src/paired/paired-proportion.js';

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
 * nuisance value, the conditional CDFs carried from one B to the next by recurrence).
 * @param counts the paired table (onlyA: A right, B wrong; onlyB: the reverse); n > 0.
 * @param nullDifference δ0 in (−1, 1): −margin for a non-inferiority gate.
 * @param options gridPoints.
 * @returns pValue, statistic, nullDifference, nuisanceAtSupremum, gridPoints, n.
 * @throws {RangeError} for counts that are not whole numbers ≥ 0, n = 0, or δ0 outside (−1, 1).
 * @example exactScoreNonInferiority({ both: 30, onlyA: 0, onlyB: 0, neither: 22 }, -0.05).pValue // => 0.0694 (= 0.95^52: Tango's bound −0.0495 clears −0.05, this test does not)
 */
export function slowExactScoreNonInferiority(counts: PairedCounts, nullDifference: number, options: { gridPoints?: number } = {}): { pValue: number; statistic: number; nuisanceAtSupremum: number; gridPoints: number; n: number } {
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
  for (let i = 0; i <= n; i++) {
    if (!(tangoStatistic(i, 0, n, d0) >= cut)) {
      limit[i] = -1;
      continue;
    }
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
  const lf = logFactorials(n);
  const size = (theta: number): number => {
    const p10 = theta + d0;
    const rest = 1 - p10;
    const lp = p10 > 0 ? Math.log(p10) : -Infinity;
    const lq = rest > 0 ? Math.log(rest) : -Infinity;
    let total = 0;
    // B ~ Binomial(n, p10): terms beyond 12 sd (+ 20) of its mean are below 1e-30 and skipped.
    const mean = n * Math.max(0, p10);
    const spread = 12 * Math.sqrt(mean * Math.max(0, rest)) + 20;
    const first = Math.max(0, Math.floor(mean - spread));
    const last = Math.min(n, Math.ceil(mean + spread));
    const conditional = rest > 0 ? Math.min(1, theta / rest) : 0;
    // C | B = i ~ Binomial(n − i, q), the same q for every i: its CDF at J(i) is carried from one i to
    // the next by F_{m−1}(k) = F_m(k) + q·P(X_{m−1} = k) and F_m(k ± 1) = F_m(k) ± P(X_m = k ± 1)
    // (one regularised beta per θ instead of one per i; agrees with it to ~1e-13, tests/bootstrap/exact-score.test.ts).
    const inside = conditional > 0 && conditional < 1;
    const l1 = inside ? Math.log(conditional) : 0;
    const l0 = inside ? Math.log1p(-conditional) : 0;
    const pmf = (m: number, k: number): number => (k < 0 || k > m ? 0 : Math.exp(lf[m] - lf[k] - lf[m - k] + k * l1 + (m - k) * l0));
    let m = -1;
    let k = 0;
    let cdf = 0;
    for (let i = first; i <= last; i++) {
      if (limit[i] < 0) continue;
      const logProbability = lf[n] - lf[i] - lf[n - i] + (i > 0 ? i * lp : 0) + (n - i > 0 ? (n - i) * lq : 0);
      if (logProbability < -745) continue;
      const trials = n - i;
      const target = limit[i];
      let conditionalCdf: number;
      if (target >= trials) conditionalCdf = 1;
      else if (!inside) conditionalCdf = binomialCdf(target, trials, conditional);
      else {
        if (m < trials) {
          m = trials;
          k = target;
          cdf = binomialCdf(k, m, conditional);
        }
        while (m > trials) {
          cdf += conditional * pmf(m - 1, k);
          m -= 1;
          if (k >= m) cdf = 1;
        }
        while (k > target) {
          cdf -= pmf(m, k);
          k -= 1;
        }
        while (k < target) {
          k += 1;
          cdf += pmf(m, k);
        }
        conditionalCdf = Math.min(1, Math.max(0, cdf));
      }
      total += Math.exp(logProbability) * conditionalCdf;
    }
    return Math.min(1, total);
  };
  const low = Math.max(0, -d0);
  const high = (1 - d0) / 2;
  let best = -1;
  let bestTheta = low;
  let bestIndex = 0;
  for (let g = 0; g <= gridPoints; g++) {
    const theta = low + ((high - low) * g) / gridPoints;
    const value = size(theta);
    if (value > best) {
      best = value;
      bestTheta = theta;
      bestIndex = g;
    }
  }
  // Golden-section search between the grid neighbours of the largest value.
  let a = low + ((high - low) * Math.max(0, bestIndex - 1)) / gridPoints;
  let b = low + ((high - low) * Math.min(gridPoints, bestIndex + 1)) / gridPoints;
  const ratio = (Math.sqrt(5) - 1) / 2;
  let x1 = b - ratio * (b - a);
  let x2 = a + ratio * (b - a);
  let f1 = size(x1);
  let f2 = size(x2);
  for (let k = 0; k < 40; k++) {
    if (f1 >= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - ratio * (b - a);
      f1 = size(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + ratio * (b - a);
      f2 = size(x2);
    }
  }
  for (const [theta, value] of [[x1, f1], [x2, f2]] as const) {
    if (value > best) {
      best = value;
      bestTheta = theta;
    }
  }
  return { pValue: best, statistic: observed, nuisanceAtSupremum: bestTheta, gridPoints, n };
}

/** The table `counts` scaled to N items, rounded to whole counts that sum to N. */
export function slowScaledCounts(counts: PairedCounts, size: number): PairedCounts {
  // Largest remainder: floors, then the items left over to the cells with the largest fractions.
  const n = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  const exact = [counts.both, counts.onlyA, counts.onlyB, counts.neither].map((x) => (x * size) / n);
  const whole = exact.map(Math.floor);
  let left = size - whole.reduce((t, x) => t + x, 0);
  const order = [0, 1, 2, 3].sort((i, j) => exact[j] - whole[j] - (exact[i] - whole[i]) || i - j);
  for (const k of order) {
    if (left <= 0) break;
    whole[k] += 1;
    left -= 1;
  }
  return { both: whole[0], onlyA: whole[1], onlyB: whole[2], neither: whole[3] };
}


/**
 * Items that let a 0/1 check pass both parts of its rule: from `start` (the items Tango's bound
 * needs, pairedItemsNeeded), the smallest N whose scaled table (same proportions, rounded) also
 * passes the exact score test at the margin, by doubling then bisection (at most 5,000 items). When
 * `start` exceeds 2,000 items or its table has 30 or more discordant items, `start` is returned: the
 * exact test is there for small discordant counts, where the asymptotic bound is liberal, and a
 * search at thousands of items would cost seconds.
 */
export function slowItemsNeededExact(counts: PairedCounts, threshold: number, alpha: number, start: number): number | null {
  if (start > 2000) return start;
  const first = slowScaledCounts(counts, start);
  if (first.onlyA + first.onlyB >= 30) return start;
  const passes = (size: number): boolean => {
    const table = slowScaledCounts(counts, size);
    return (table.onlyA - table.onlyB) / size > threshold && slowExactScoreNonInferiority(table, threshold).pValue <= alpha;
  };
  if (passes(start)) return start;
  let low = start;
  let high = 2 * start;
  while (!passes(high)) {
    low = high;
    high *= 2;
    if (high > 5000) return null;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (passes(mid)) high = mid;
    else low = mid;
  }
  return high;
}
