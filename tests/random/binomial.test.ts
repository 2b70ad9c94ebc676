import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chiSquareQuantile } from '../../src/distributions/index.js';
import { BINOMIAL_INVERSION_LIMIT, binomialFromState, binomialVariate, createRng, logFactorialOf, seedState } from '../../src/random/index.js';

// scipy.stats.binom.pmf and scipy.special.gammaln values, written by
// tests/reference/random/binomial_reference.py (/usr/bin/python3, scipy 1.10).
const reference = JSON.parse(readFileSync(new URL('../reference/random/binomial.json', import.meta.url), 'utf8')) as {
  pmf: Array<{ n: number; p: number; lo: number; pmf: number[] }>;
  logFactorial: Array<{ k: number; value: number }>;
};

const regime = (n: number, p: number) => (n * Math.min(p, 1 - p) < BINOMIAL_INVERSION_LIMIT ? 'inversion' : 'BTRS');

describe('binomialVariate: exact small cases', () => {
  it('n = 0, p = 0 and p = 1 give 0, 0 and n without touching the stream', () => {
    const rng = createRng('edges');
    const before = Array.from(rng.state());
    expect(binomialVariate(rng, 0, 0.3)).toBe(0);
    expect(binomialVariate(rng, 12, 0)).toBe(0);
    expect(binomialVariate(rng, 12, 1)).toBe(12);
    expect(binomialVariate(rng, 0, 1)).toBe(0);
    expect(Array.from(rng.state())).toEqual(before);
  });

  it('n = 1 is a Bernoulli(p) draw; every draw lies in [0, n]', () => {
    const rng = createRng('bernoulli');
    for (let i = 0; i < 2000; i++) expect([0, 1]).toContain(binomialVariate(rng, 1, 0.37));
    for (const [n, p] of [[5, 0.5], [30, 0.99], [300, 0.5], [17, 1e-9]]) {
      for (let i = 0; i < 500; i++) {
        const x = binomialVariate(rng, n, p);
        expect(Number.isInteger(x) && x >= 0 && x <= n).toBe(true);
      }
    }
  });

  it('the Xoshiro128 form and the state-array form draw the same sequence and advance alike', () => {
    const rng = createRng('forms');
    const st = new Int32Array(seedState('forms').buffer);
    for (const [n, p] of [[9, 0.2], [1000, 0.5], [40, 0.93], [3, 0.5], [100000, 0.001]]) {
      for (let i = 0; i < 50; i++) expect(binomialVariate(rng, n, p)).toBe(binomialFromState(st, n, p));
    }
    expect(Array.from(new Int32Array(rng.state().buffer))).toEqual(Array.from(st));
    expect(rng.nextUint32()).toBe(createRngAt(st).nextUint32());
  });

  it('the same seed gives the same draws', () => {
    const draw = () => {
      const rng = createRng(5, 'binomial');
      return Array.from({ length: 20 }, (_, i) => binomialVariate(rng, 50 + i, 0.3));
    };
    expect(draw()).toEqual(draw());
  });

  it('bad n or p is a RangeError naming the value', () => {
    const rng = createRng(0);
    expect(() => binomialVariate(rng, -1, 0.5)).toThrow(/n must be a whole number ≥ 0 \(got -1\)/);
    expect(() => binomialVariate(rng, 2.5, 0.5)).toThrow(/got 2.5/);
    expect(() => binomialVariate(rng, 10, 1.5)).toThrow(/p must be a probability in \[0, 1\] \(got 1.5\)/);
    expect(() => binomialVariate(rng, 10, NaN)).toThrow(/got NaN/);
  });
});

/** A Xoshiro128 whose state is the given int32 words. */
function createRngAt(st: Int32Array) {
  const rng = createRng(0);
  [rng.s0, rng.s1, rng.s2, rng.s3] = Array.from(st, (w) => w >>> 0);
  return rng;
}

describe('logFactorialOf', () => {
  it('matches scipy.special.gammaln(k + 1) on both sides of the table / Stirling switch (k = 128)', () => {
    for (const { k, value } of reference.logFactorial) {
      // the table is ln of a product rounded once per factor (≤ 128 · 2^-53 relative), the series
      // truncation is below 1e-21 from k = 128: 2e-14 relative (1e-15 absolute near 0) covers both.
      expect(Math.abs(logFactorialOf(k) - value), `k = ${k}`).toBeLessThanOrEqual(2e-14 * Math.max(1, value) + 1e-15);
    }
    expect(logFactorialOf(0)).toBe(0);
    expect(logFactorialOf(1)).toBe(0);
    expect(logFactorialOf(10)).toBeCloseTo(Math.log(3628800), 14);
  });
});

describe('binomialVariate: distribution against scipy.stats.binom.pmf', () => {
  const N = 200_000;
  it('covers both regimes', () => {
    const regimes = new Set(reference.pmf.map(({ n, p }) => regime(n, p)));
    expect([...regimes].sort()).toEqual(['BTRS', 'inversion']);
  });

  for (const { n, p, lo, pmf } of reference.pmf) {
    it(`n = ${n}, p = ${p} (${regime(n, p)}): mean, variance, and χ² goodness of fit`, () => {
      const rng = createRng('binomial-gof', n, p);
      const counts = new Float64Array(pmf.length);
      let outside = 0;
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < N; i++) {
        const x = binomialVariate(rng, n, p);
        sum += x;
        squares += x * x;
        if (x < lo || x >= lo + pmf.length) outside += 1;
        else counts[x - lo] += 1;
      }
      // Beyond the stored range the pmf is below 1e-15 per value: with 2e5 draws, never seen.
      expect(outside).toBe(0);

      // Mean and variance within 5 Monte Carlo SDs: SD(mean) = √(npq / N); the sample variance s²
      // (ddof 1) has Var(s²) = μ4 / N − σ⁴ (N − 3) / (N (N − 1)) exactly, with the binomial's fourth
      // central moment μ4 = npq (1 + 3 (n − 2) pq) (for n = 1, p = ½ the 1/N term cancels).
      const q = 1 - p;
      const variance = n * p * q;
      const mean = sum / N;
      const sampleVariance = (squares - N * mean * mean) / (N - 1);
      const mu4 = variance * (1 + 3 * (n - 2) * p * q);
      expect(Math.abs(mean - n * p)).toBeLessThan(5 * Math.sqrt(variance / N));
      const varianceOfVariance = mu4 / N - (variance * variance * (N - 3)) / (N * (N - 1));
      expect(Math.abs(sampleVariance - variance)).toBeLessThan(5 * Math.sqrt(varianceOfVariance));

      // χ² over cells with expected count ≥ 5, pooling each tail into its end cell; the
      // reference pmf sums to 1 − (tails below 1e-15), so the expected counts are N · pmf.
      const cells: Array<{ observed: number; expected: number }> = [];
      let observed = 0;
      let expected = 0;
      for (let j = 0; j < pmf.length; j++) {
        observed += counts[j];
        expected += N * pmf[j];
        if (expected >= 5) {
          cells.push({ observed, expected });
          observed = 0;
          expected = 0;
        }
      }
      cells[cells.length - 1].observed += observed;
      cells[cells.length - 1].expected += expected;
      const chi2 = cells.reduce((s, c) => s + (c.observed - c.expected) ** 2 / c.expected, 0);
      const df = cells.length - 1;
      // P(χ²_df > critical) = 0.001: a correct sampler fails this about once in 1,000 cases.
      expect(chi2, `χ² = ${chi2.toFixed(1)} on ${df} df`).toBeLessThan(chiSquareQuantile(0.999, df));
    });
  }
});

describe("BTRS's bounds (why its draws are exact)", () => {
  // Hörmann's constants for p ≤ ½, n·p ≥ 10, as in src/random/binomial.ts. Rejection is exact when
  // the scaled hat dominates the pmf: f(⌊x⌋)/f(m) ≤ α h(x), h(x) = 1 / (a/u_s² + b), for every U; and
  // the squeeze (accept when u_s ≥ 0.07 and V ≤ v_r) is exact when v_r ≤ f(⌊x⌋) / (f(m) α h(x)) there.
  // Checked on a grid of 40,000 values of U per case (the same check in scipy over n up to 10^7
  // gives margins ≥ 0.49% for both).
  const cases: Array<[number, number]> = [[20, 0.5], [25, 0.4], [100, 0.1], [1000, 0.01], [1000, 0.5], [100000, 0.3], [10_000_000, 0.4], [10_000_000, 0.02]];
  for (const [n, p] of cases) {
    it(`n = ${n}, p = ${p}: the hat dominates the pmf and the squeeze lies under the acceptance bound`, () => {
      const q = 1 - p;
      const spq = Math.sqrt(n * p * q);
      const b = 1.15 + 2.53 * spq;
      const a = -0.0873 + 0.0248 * b + 0.01 * p;
      const c = n * p + 0.5;
      const vr = 0.92 - 4.2 / b;
      const alpha = (2.83 + 5.1 / b) * spq;
      const m = Math.floor((n + 1) * p);
      let hatMargin = Infinity;
      let squeezeMargin = Infinity;
      for (let i = 1; i < 40_000; i++) {
        const u = i / 40_000 - 0.5;
        const us = 0.5 - Math.abs(u);
        const k = Math.floor(((2 * a) / us + b) * u + c);
        if (k < 0 || k > n) continue;
        const ratio = Math.exp(logFactorialOf(m) + logFactorialOf(n - m) - logFactorialOf(k) - logFactorialOf(n - k) + (k - m) * Math.log(p / q));
        const bound = ratio / (alpha / (a / (us * us) + b));
        hatMargin = Math.min(hatMargin, 1 / bound);
        if (us >= 0.07) squeezeMargin = Math.min(squeezeMargin, bound / vr);
      }
      expect(hatMargin).toBeGreaterThan(1);
      expect(squeezeMargin).toBeGreaterThan(1);
    });
  }
});
