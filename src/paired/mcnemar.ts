import { chiSquareSf, regularizedBeta } from '../distributions/index.js';
import type { McNemarOptions, McNemarResult } from '../bootstrap/types.js';

/**
 * McNemar's test for paired 0/1 outcomes (A right / B right on the same items): whether A and B
 * differ in accuracy, using only the discordant items b (A right, B wrong) and c (B right, A wrong).
 * Exact: p = min(1, 2 · P(X ≤ min(b, c))), X ~ Binomial(b + c, ½): the binomial sum in exact integers
 * up to 20,000 discordant items, beyond that I_½(b + c − k, k + 1).
 * Chi-square: (|b − c| − 1)² / (b + c) with continuity correction (default), (b − c)² / (b + c)
 * without, against χ² with 1 degree of freedom. When b = c the correction is not applied (χ² = 0,
 * p = 1), as R `mcnemar.test` does (it corrects only when the table is asymmetric): subtracting 1
 * from |b − c| = 0 would move the statistic away from 0, not toward it. statsmodels
 * `mcnemar(..., exact=False, correction=True)` gives 1/(b + c) there instead; that is the one case
 * where the two references differ, and benchplan follows R.
 * Reference: statsmodels `mcnemar([[n11, b], [c, n00]], exact=True)` and `exact=False, correction=True`;
 * R `mcnemar.test` (chi-square) and `binom.test(b, b + c)` (exact).
 * No discordant item (b + c = 0) is not an error: the exact p is 1, the chi-square NaN, with a warning.
 * @param a A's outcomes, each 0 or 1 (or true / false). @param b B's, paired item by item.
 * @returns onlyA (b), onlyB (c), concordant, exactPValue, chiSquare, chiSquarePValue, correction, n, warnings.
 * @throws {RangeError} for outcomes other than 0 / 1, or arrays of different length.
 * @example mcnemarFromCounts(15, 5).exactPValue // => 0.041389465332031 (= 2 · 21700 / 2^20)
 */
export function mcnemarTest(a: ArrayLike<number>, b: ArrayLike<number>, options: McNemarOptions = {}): McNemarResult {
  if (a.length !== b.length) throw new RangeError(`a and b must be paired item by item: same length (got ${a.length} and ${b.length})`);
  let onlyA = 0;
  let onlyB = 0;
  let concordant = 0;
  for (let i = 0; i < a.length; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (x !== 0 && x !== 1) throw new RangeError(`a[${i}] must be 0 or 1 for McNemar's test (got ${String(a[i])})`);
    if (y !== 0 && y !== 1) throw new RangeError(`b[${i}] must be 0 or 1 for McNemar's test (got ${String(b[i])})`);
    if (x === y) concordant += 1;
    else if (x === 1) onlyA += 1;
    else onlyB += 1;
  }
  return mcnemarFromCounts(onlyA, onlyB, { ...options, concordant });
}

/**
 * McNemar's test from the discordant counts (see mcnemarTest).
 * @param onlyA b, items only A got right; @param onlyB c, items only B got right (whole numbers ≥ 0).
 * @param options.concordant items both got right or both wrong (only echoed in n); correction as mcnemarTest.
 * @throws {RangeError} for counts that are not whole numbers ≥ 0.
 */
export function mcnemarFromCounts(onlyA: number, onlyB: number, options: McNemarOptions & { concordant?: number } = {}): McNemarResult {
  const concordant = options.concordant ?? 0;
  for (const [name, v] of [['onlyA', onlyA], ['onlyB', onlyB], ['concordant', concordant]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a whole number ≥ 0 (got ${String(v)})`);
  }
  const correction = options.correction ?? true;
  const discordant = onlyA + onlyB;
  const warnings: string[] = [];
  let exactPValue = 1;
  let chiSquare = NaN;
  let chiSquarePValue = NaN;
  if (discordant === 0) {
    warnings.push('no discordant items (A and B agree on every item): nothing to test; the exact p-value is 1 and the chi-square undefined');
  } else {
    const k = Math.min(onlyA, onlyB);
    const lowerTail = binomialHalfLowerTail(discordant, k);
    exactPValue = Math.min(1, 2 * lowerTail);
    const gap = Math.abs(onlyA - onlyB) - (correction && onlyA !== onlyB ? 1 : 0);
    chiSquare = (gap * gap) / discordant;
    chiSquarePValue = chiSquareSf(chiSquare, 1);
    if (discordant < 25) warnings.push(`only ${discordant} discordant items: use the exact p-value, the chi-square approximation is poor below about 25`);
  }
  return { onlyA, onlyB, concordant, exactPValue, chiSquare, chiSquarePValue, correction, n: discordant + concordant, warnings };
}

/** Discordant counts up to which the exact binomial tail is summed in exact integers. */
const EXACT_SUM_LIMIT = 20_000;

/**
 * P(X ≤ k) for X ~ Binomial(n, ½): Σ_{i ≤ k} C(n, i) / 2ⁿ. Summed in BigInt (exact) for moderate n
 * and converted once, so small cases come out exactly (b = 3, c = 0 → 1/8); for larger n the
 * regularized incomplete beta I_½(n − k, k + 1).
 */
function binomialHalfLowerTail(n: number, k: number): number {
  return binomialHalfLowerTails(n, k).atMost;
}

/**
 * P(X ≤ k) and P(X ≤ k − 1) for X ~ Binomial(n, ½), each exactly as binomialHalfLowerTail computes it
 * (the same exact integer sum, converted the same way), from one pass: the mid-p needs both, and
 * summing each on its own cost four passes per 0/1 comparison (most of its time at 10⁴ items).
 * The exact sum takes the terms C(n, i) a block of m at a time (m as large as keeps every factor
 * below 2⁵³): with T = C(n, i), a_t = n − i − t + 1 and b_t = i + t,
 *   Σ_{t=1..m} C(n, i + t) = T · Σ_t (a_1 ⋯ a_t)(b_{t+1} ⋯ b_m) / (b_1 ⋯ b_m),  C(n, i + m) = T · (a_1 ⋯ a_m) / (b_1 ⋯ b_m),
 * both whole numbers, so BigInt's division is exact: the same integers as one term at a time, in a
 * third of the BigInt operations (each allocates, whatever the size of its numbers).
 * Formula: atMost = Σ_{i ≤ k} C(n, i) / 2ⁿ, below = Σ_{i ≤ k − 1} C(n, i) / 2ⁿ (0 for k = 0).
 * @param n trials, a whole number ≥ 1. @param k a whole number ≥ 0.
 * @returns { atMost, below }.
 * @example binomialHalfLowerTails(3, 1) // => { atMost: 0.5, below: 0.125 }
 */
export function binomialHalfLowerTails(n: number, k: number): { atMost: number; below: number } {
  if (k >= n) return { atMost: 1, below: k - 1 >= n ? 1 : k >= 1 ? binomialHalfLowerTails(n, k - 1).atMost : 0 };
  if (n > EXACT_SUM_LIMIT) return { atMost: regularizedBeta(0.5, n - k, k + 1), below: k >= 1 ? regularizedBeta(0.5, n - k + 1, k) : 0 };
  const fast = tailsFromDoubleDouble(n, k);
  if (fast !== null) return fast;
  // m·n^m < 2⁵³: every block's numerator, denominator and product of a_t is an exact double.
  let block = 1;
  while (block < 8 && (block + 1) * n ** (block + 1) < 2 ** 53) block += 1;
  let term = 1n; // C(n, i)
  let sum = 1n; // Σ_{j ≤ i} C(n, j)
  let i = 0;
  const advance = (to: number) => {
    while (i < to) {
      const m = Math.min(block, to - i);
      let tail = 1; // b_1 ⋯ b_m
      for (let t = 1; t <= m; t++) tail *= i + t;
      // Σ_t (a_1 ⋯ a_t)(b_{t+1} ⋯ b_m): `suffix` drops b_t exactly (whole numbers below 2⁵³)
      let product = 1;
      let suffix = tail;
      let numerator = 0;
      for (let t = 1; t <= m; t++) {
        product *= n - i - t + 1;
        suffix /= i + t;
        numerator += product * suffix;
      }
      sum += (term * BigInt(numerator)) / BigInt(tail);
      term = (term * BigInt(product)) / BigInt(tail);
      i += m;
    }
  };
  let below = 0;
  if (k >= 1) {
    advance(k - 1);
    below = halfPowerRatio(sum, n);
  }
  advance(k);
  return { atMost: halfPowerRatio(sum, n), below };
}

/** sum / 2ⁿ as a double: the top 62 bits of sum, then scaled by a power of two. */
function halfPowerRatio(sum: bigint, n: number): number {
  const bits = sum.toString(2).length;
  const drop = Math.max(0, bits - 62);
  return topBitsRatio(sum >> BigInt(drop), drop, n);
}

/** top · 2^(drop − n), as halfPowerRatio scales the top 62 bits of a sum. */
function topBitsRatio(top: bigint, drop: number, n: number): number {
  const exponent = drop - n; // may be below the double range's −1022 while the product is not
  return Number(top) * 2 ** Math.max(exponent, -1000) * 2 ** Math.min(0, exponent + 1000);
}

/**
 * binomialHalfLowerTails' two values without summing in BigInt, or null when this cannot prove them.
 * The sums S_k = Σ_{i ≤ k} C(n, i) and S_{k−1} are carried in double-double arithmetic (about 106
 * bits; terms C(n, i + 1) = C(n, i)(n − i)/(i + 1), the scale kept in a separate power of two), with
 * a relative error below (4k + 16)·2⁻¹⁰⁰ (each double-double operation errs by at most a few 2⁻¹⁰⁶,
 * counted here as 2⁻¹⁰⁰). The exact S then lies in [L, U], the approximation ∓ that bound, taken as
 * whole numbers; when L and U have the same length in bits and the same top 62 bits, so has S, and
 * halfPowerRatio's result follows from those bits alone: the same doubles as the exact sum. Otherwise
 * null, and the caller sums exactly: sums below about 2⁸⁰ (a few terms, cheap in BigInt), whose last
 * bits the ±4 units of rounding can leave open, and sums within the error bound of a boundary of their
 * top bits (counted for k from 12 to n/2, n = 201–1,500: 184 of 538,200 fall back, every one below
 * 2⁸¹, once the exact half row of odd n is taken as it is).
 * Only for k ≤ n/2 (null above). tests/bootstrap/mcnemar-tails.test.ts: every k for every n ≤ 400,
 * and a seeded sample to 20,000, bit for bit against the one-term-at-a-time BigInt sum.
 */
function tailsFromDoubleDouble(n: number, k: number): { atMost: number; below: number } | null {
  // Up to the middle the terms grow, so each is at least sum/(i + 1): rescaling never pushes one toward
  // underflow. (McNemar's tails ask only k ≤ n/2; the upper half is by symmetry.)
  if (2 * k > n) return null;
  // term = C(n, i) and sum = S_i, each (hi + lo)·2^scale
  let termHi = 1;
  let termLo = 0;
  let sumHi = 1;
  let sumLo = 0;
  let previousHi = 0;
  let previousLo = 0;
  let scale = 0;
  for (let i = 0; i < k; i++) {
    // term × (n − i): the exact product of termHi by a whole number below 2¹⁵ (Dekker's split), plus termLo's
    const x = n - i;
    const p = termHi * x;
    const split = 134217729 * termHi;
    const aHi = split - (split - termHi);
    const aLo = termHi - aHi;
    const productError = aHi * x - p + aLo * x; // x < 2²⁶ needs no split
    const e = productError + termLo * x;
    let hi = p + e;
    let lo = e - (hi - p);
    // ÷ (i + 1): q1 = hi / y, remainder (hi, lo) − q1·y computed exactly, q2 = remainder / y
    const y = i + 1;
    const q1 = hi / y;
    const qp = q1 * y;
    const qSplit = 134217729 * q1;
    const qHi = qSplit - (qSplit - q1);
    const qLo = q1 - qHi;
    const qError = qHi * y - qp + qLo * y;
    const remainder = hi - qp - qError + lo;
    const q2 = remainder / y;
    hi = q1 + q2;
    lo = q2 - (hi - q1);
    termHi = hi;
    termLo = lo;
    previousHi = sumHi;
    previousLo = sumLo;
    // sum += term (both positive): two-sum of the highs, then the lows
    const s = sumHi + termHi;
    const bv = s - sumHi;
    const sError = sumHi - (s - bv) + (termHi - bv);
    const t = sumLo + termLo;
    const tv = t - sumLo;
    const tError = sumLo - (t - tv) + (termLo - tv);
    let high = s;
    let low = sError + t;
    let h2 = high + low;
    low = low - (h2 - high);
    low += tError;
    high = h2 + low;
    sumLo = low - (high - h2);
    sumHi = high;
    if (sumHi > 2 ** 600) {
      // rescale by a power of two (exact); the term is at least sum/(i + 1), far from underflow
      sumHi *= 2 ** -600;
      sumLo *= 2 ** -600;
      termHi *= 2 ** -600;
      termLo *= 2 ** -600;
      previousHi *= 2 ** -600;
      previousLo *= 2 ** -600;
      scale += 600;
    }
  }
  // bound on the relative error of either sum, as a power of two: 2^-shift ≥ (4k + 16)·2⁻¹⁰⁰
  const shift = 100 - Math.ceil(Math.log2(4 * k + 16));
  // n odd and k = (n − 1)/2 (b and c one apart): the sum is exactly 2^(n − 1), half the row, on a
  // boundary of its top bits that no error bound can settle, so it is taken as it is.
  const atMost = 2 * k + 1 === n ? topBitsOfWhole(1n << BigInt(n - 1)) : topBitsOf(sumHi, sumLo, scale, shift);
  if (atMost === null) return null;
  if (k === 0) return { atMost: topBitsRatio(atMost.top, atMost.drop, n), below: 0 };
  const below = topBitsOf(previousHi, previousLo, scale, shift);
  if (below === null) return null;
  return { atMost: topBitsRatio(atMost.top, atMost.drop, n), below: topBitsRatio(below.top, below.drop, n) };
}

/** value · 2^scale as a BigInt, rounded down to a whole number (value a finite double: a high part ≥ 1, or a low part). */
function bigOf(value: number, scale: number): bigint {
  // A low part below 2⁻⁹⁰⁰ (the high part is ≥ 1) moves the sum by less than 2^(scale − 900), far inside
  // topBitsOf's margin of at least 2^(scale − 100); dropping it also keeps 2^exponent below from underflowing.
  if (Math.abs(value) < 2 ** -900) return 0n;
  // value = mantissa · 2^exponent with a 53-bit whole mantissa
  let exponent = Math.floor(Math.log2(Math.abs(value))) - 52;
  let mantissa = value / 2 ** exponent;
  while (!Number.isInteger(mantissa)) {
    exponent -= 1;
    mantissa = value / 2 ** exponent;
  }
  const e = exponent + scale;
  const m = BigInt(mantissa);
  return e >= 0 ? m << BigInt(e) : m >> BigInt(-e); // a negative e drops only bits below the sum's error
}

/** The top 62 bits of a whole number ≥ 1 and how many lower bits were dropped, as halfPowerRatio takes them. */
function topBitsOfWhole(sum: bigint): { top: bigint; drop: number } {
  const drop = Math.max(0, sum.toString(2).length - 62);
  return { top: sum >> BigInt(drop), drop };
}

/**
 * The top 62 bits (and how many lower bits were dropped) of the whole number S within a relative
 * 2^-shift of (hi + lo)·2^scale, when every whole number in that range shares them; null otherwise.
 */
function topBitsOf(hi: number, lo: number, scale: number, shift: number): { top: bigint; drop: number } | null {
  const approximate = bigOf(hi, scale) + bigOf(lo, scale);
  // beyond the error bound: bigOf's rounding down (under 1 for each part, and nothing worth a unit for a
  // dropped low part below 2⁻⁹⁰⁰) and the shift's (under 1): widen by 4
  const margin = (approximate >> BigInt(shift)) + 4n;
  const low = approximate - margin;
  const high = approximate + margin;
  if (low < 1n) return null;
  const bits = low.toString(2).length;
  if (high.toString(2).length !== bits) return null;
  const drop = Math.max(0, bits - 62);
  const top = low >> BigInt(drop);
  if (high >> BigInt(drop) !== top) return null;
  return { top, drop };
}
