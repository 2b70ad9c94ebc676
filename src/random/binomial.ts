import type { Xoshiro128 } from './xoshiro.js';

/*
 * Exact binomial variates driven by xoshiro128** (the same generator as everything else here), for
 * the bootstrap's counts path: a resample of n items that take K distinct values is described by the
 * multinomial counts of those values, drawn as K − 1 conditional binomials.
 *
 * Two regimes, after reducing to p ≤ 1/2 by symmetry (X ~ Bin(n, p) ⇔ n − X ~ Bin(n, 1 − p)):
 * - n·p < 10: inversion (sequential search from 0; Devroye 1986, X.4.3, "Inversion"), one uniform
 *   per variate and about n·p + 1 steps.
 * - n·p ≥ 10: Hörmann's BTRS, transformed rejection with squeeze (W. Hörmann, "The generation of
 *   binomial random variates", J. Statist. Comput. Simul. 46, 1993, 101–110), about 1.2 pairs of
 *   uniforms per variate whatever n.
 * Both are exact up to floating-point rounding: they return k with probability C(n, k) p^k (1 − p)^(n − k).
 *
 * Uniforms have 53 random bits, made from two 32-bit outputs exactly as Xoshiro128.nextFloat.
 */

/** Inversion below this mean n·min(p, 1 − p), BTRS at or above it (Hörmann's constants hold for n·p ≥ 10). */
export const BINOMIAL_INVERSION_LIMIT = 10;

/** ln k! for k < 128: the logarithm of the running product (each product rounded once: |error| < 128 · 2^-53 relative). */
const LOG_FACTORIAL_TABLE = (() => {
  const table = new Float64Array(128);
  let product = 1;
  for (let k = 1; k < 128; k++) {
    product *= k;
    table[k] = Math.log(product);
  }
  return table;
})();

const HALF_LOG_TWO_PI = 0.9189385332046728; // ½ ln(2π)

/**
 * ln k! for a whole number k ≥ 0, accurate to a few units in the last place: a table below 128,
 * else Stirling's series ln k! = (k + ½) ln k − k + ½ ln 2π + 1/(12k) − 1/(360k³) + 1/(1260k⁵) − 1/(1680k⁷),
 * whose truncation error is below 1/(1188 k⁹) < 1e-21 for k ≥ 128 (Abramowitz & Stegun 6.1.41).
 * Reference: scipy.special.gammaln(k + 1).
 * @param k a whole number ≥ 0 (not checked: the hot loop calls it).
 * @example logFactorialOf(10) // => 15.104412573075516 (ln 3628800)
 */
export function logFactorialOf(k: number): number {
  if (k < 128) return LOG_FACTORIAL_TABLE[k];
  const r = 1 / k;
  const r2 = r * r;
  return (k + 0.5) * Math.log(k) - k + HALF_LOG_TWO_PI + r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 / 1680)));
}

/*
 * Both samplers step xoshiro128** inline on local copies of the four state words (the same sequence
 * as Xoshiro128.nextUint32) and store them back before returning: stepping through the Int32Array
 * itself costs about three times as much (measured: 15 against 5 ns per 53-bit uniform). A uniform
 * in [0, 1) takes two outputs, (hi >>> 5) · 2^26 + (lo >>> 6) over 2^53, exactly as Xoshiro128.nextFloat.
 */

/**
 * Bin(n, p) for p ≤ 1/2 and n·p < 10 by inversion: P(X = 0) = (1 − p)^n, and
 * P(X = x) / P(X = x − 1) = ((n + 1)/x − 1) · p/(1 − p). A uniform u is walked down the pmf until it
 * falls inside; the rare u left over by rounding (the computed pmf sums to 1 − O(ε)) restarts.
 */
function binomialInversion(st: Int32Array, n: number, p: number): number {
  const s = p / (1 - p);
  const a = (n + 1) * s;
  const r0 = Math.exp(n * Math.log1p(-p));
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  for (;;) {
    let y = Math.imul(s1, 5);
    const hi = Math.imul((y << 7) | (y >>> 25), 9) >>> 5;
    let t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    y = Math.imul(s1, 5);
    const lo = Math.imul((y << 7) | (y >>> 25), 9) >>> 6;
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    let u = (hi * 67108864 + lo) / 9007199254740992;
    let r = r0;
    let x = 0;
    while (u > r) {
      u -= r;
      x += 1;
      r *= a / x - s;
      if (x > n || r === 0) break;
    }
    if (x <= n && u <= r) {
      st[0] = s0;
      st[1] = s1;
      st[2] = s2;
      st[3] = s3;
      return x;
    }
  }
}

/*
 * BTRS (Hörmann 1993), for p ≤ 1/2 and n·p ≥ 10, with q = 1 − p and σ = √(npq):
 *
 *   b = 1.15 + 2.53σ, a = −0.0873 + 0.0248b + 0.01p, c = np + 0.5, v_r = 0.92 − 4.2/b,
 *   α = (2.83 + 5.1/b)σ, m = ⌊(n + 1)p⌋ (the mode).
 *
 * Transformed rejection: U uniform on (−½, ½), u_s = ½ − |U|, and the candidate
 *   x(U) = (2a/u_s + b)·U + c,   k = ⌊x⌋.
 * For U > 0, dx/dU = 2a/u_s + b + 2aU/u_s² = b + 2a(u_s + U)/u_s² = b + a/u_s² (as u_s + U = ½), and the
 * same for U < 0 by symmetry, so x has density h(x) = |dU/dx| = 1/(a/u_s² + b): a table-mountain "hat"
 * centred at c (x is monotone in U), with tails falling as 1/x², slower than the binomial's.
 * Acceptance: with V uniform on (0, 1) independent of U, accept k = ⌊x⌋ when
 *   V ≤ f(k) / (f(m) · α · h(x)),   f(k) = C(n, k) p^k q^(n−k)  (zero outside [0, n]),
 * i.e. in logs  ln(V α / (a/u_s² + b)) ≤ ln m! + ln(n − m)! − ln k! − ln(n − k)! + (k − m) ln(p/q).
 * Then P(accept with k) = ∫_{[k, k+1)} h(x) · f(k) / (f(m) α h(x)) dx = f(k) / (f(m) α), proportional to
 * the binomial pmf, so an accepted k is exactly Bin(n, p) — provided the acceptance bound is a
 * probability, f(⌊x⌋)/f(m) ≤ α h(x) for every x (the scaled hat dominates the pmf). Hörmann fitted
 * a, b and α (the formulas above) so that it does for every n·p ≥ 10; the acceptance probability
 * 1/(f(m) α) is about 0.8 near n·p = 10 and above 0.9 for large n·p. Candidates outside [0, n] are rejected.
 * Squeeze: when u_s ≥ 0.07 and V ≤ v_r the point lies in the central box that sits under f(k)/f(m)
 * for every such k (Hörmann's second fitted bound), so k is accepted without evaluating f.
 */
function binomialBtrs(st: Int32Array, n: number, p: number): number {
  const q = 1 - p;
  const spq = Math.sqrt(n * p * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const alpha = (2.83 + 5.1 / b) * spq;
  const m = Math.floor((n + 1) * p);
  // ln f(m) up to the constant shared by every k, computed only when a candidate escapes the squeeze
  // (most do not: the logarithms are the costly part of a draw).
  let h = NaN;
  let lpq = NaN;
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  for (;;) {
    // two 53-bit uniforms: U − ½ from the first two outputs, V from the next two
    let y = Math.imul(s1, 5);
    const uh = Math.imul((y << 7) | (y >>> 25), 9) >>> 5;
    let t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    y = Math.imul(s1, 5);
    const ul = Math.imul((y << 7) | (y >>> 25), 9) >>> 6;
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    y = Math.imul(s1, 5);
    const vh = Math.imul((y << 7) | (y >>> 25), 9) >>> 5;
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    y = Math.imul(s1, 5);
    const vl = Math.imul((y << 7) | (y >>> 25), 9) >>> 6;
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    const u = (uh * 67108864 + ul) / 9007199254740992 - 0.5;
    const v = (vh * 67108864 + vl) / 9007199254740992;
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    let accept = us >= 0.07 && v <= vr;
    if (!accept) {
      if (Number.isNaN(h)) {
        h = logFactorialOf(m) + logFactorialOf(n - m);
        lpq = Math.log(p / q);
      }
      accept = Math.log((v * alpha) / (a / (us * us) + b)) <= h - logFactorialOf(k) - logFactorialOf(n - k) + (k - m) * lpq;
    }
    if (accept) {
      st[0] = s0;
      st[1] = s1;
      st[2] = s2;
      st[3] = s3;
      return k;
    }
  }
}

/**
 * Bin(n, p) from a generator state held as four int32 words (what the bootstrap's hot loops keep;
 * see src/bootstrap/resample.ts): steps that state in place. No checks: n must be a whole number
 * ≥ 0 and p in [0, 1]. n = 0, p = 0 and p = 1 draw nothing from the stream.
 * The same draws as binomialVariate on a Xoshiro128 with that state.
 */
export function binomialFromState(st: Int32Array, n: number, p: number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) {
    const flipped = 1 - p;
    return n - (n * flipped < BINOMIAL_INVERSION_LIMIT ? binomialInversion(st, n, flipped) : binomialBtrs(st, n, flipped));
  }
  return n * p < BINOMIAL_INVERSION_LIMIT ? binomialInversion(st, n, p) : binomialBtrs(st, n, p);
}

/**
 * A binomial variate: the number of successes in n independent trials of probability p, exactly
 * distributed (up to floating-point rounding) as P(X = k) = C(n, k) p^k (1 − p)^(n − k).
 * Inversion when n·min(p, 1 − p) < 10, else Hörmann's BTRS (transformed rejection with squeeze,
 * J. Statist. Comput. Simul. 46, 1993); 53-bit uniforms from `rng`, which advances.
 * Reference: numpy `Generator.binomial(n, p)`, R `rbinom` (same distribution, different streams).
 * @param rng the generator (advanced in place).
 * @param n trials: a whole number in [0, 2^53).
 * @param p success probability in [0, 1].
 * @returns a whole number in [0, n]; n = 0, p = 0 and p = 1 take no draws.
 * @throws {RangeError} for n not a whole number ≥ 0, or p outside [0, 1].
 * O(1 + n·p) expected time below n·p = 10, O(1) above.
 * @example binomialVariate(createRng(0), 10, 0.5) // => a whole number in [0, 10], the same every run
 */
export function binomialVariate(rng: Xoshiro128, n: number, p: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`binomial n must be a whole number ≥ 0 (got ${n})`);
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`binomial p must be a probability in [0, 1] (got ${p})`);
  const st = Int32Array.of(rng.s0, rng.s1, rng.s2, rng.s3);
  const x = binomialFromState(st, n, p);
  rng.s0 = st[0] >>> 0;
  rng.s1 = st[1] >>> 0;
  rng.s2 = st[2] >>> 0;
  rng.s3 = st[3] >>> 0;
  return x;
}
