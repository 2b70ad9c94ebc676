import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confidenceSequence } from '../../src/sequential/confidence-sequence.js';
import { EmpiricalBernsteinSequence, betSize, psiE } from '../../src/sequential/empirical-bernstein.js';
import type { SequenceBound } from '../../src/sequential/empirical-bernstein.js';

interface Case {
  name: string;
  values: number[];
  range: [number, number];
  confidenceLevel: number;
  bound: SequenceBound;
  intersect: boolean;
  lower: number[];
  upper: number[];
}
const reference = JSON.parse(readFileSync(new URL('../reference/sequential/eb_cs.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('confidenceSequence (PrPl-EB) against the numpy/brentq reference', () => {
  for (const c of reference.cases) {
    it(c.name, () => {
      const r = confidenceSequence(c.values, { range: c.range, confidenceLevel: c.confidenceLevel, bound: c.bound, intersect: c.intersect });
      const scale = c.range[1] - c.range[0];
      let worst = 0;
      for (let t = 0; t < c.values.length; t++) {
        worst = Math.max(worst, Math.abs(r.lower[t] - c.lower[t]) / scale, Math.abs(r.upper[t] - c.upper[t]) / scale);
      }
      // brentq is run to xtol 1e-14 on the [0, 1] scale; the closed form is exact up to rounding.
      expect(worst).toBeLessThan(1e-11);
    });
  }
});

describe('confidenceSequence by hand', () => {
  it('one value of 1 on [0, 1]: λ_1 = c = 1/2, bound far below 0, clipped', () => {
    // λ_1 = min(√(2 log 40 / (0.25 · 1 · log 2)), 0.5) = 0.5; v_1 = 4 (1 − 1/2)² = 1;
    // half-width = (log 40 + ψ_E(0.5)) / 0.5 with ψ_E(0.5) = (log 2 − 0.5)/4.
    expect(betSize(Math.log(40), 0.25, 1, 0.5)).toBe(0.5);
    expect(psiE(0.5)).toBeCloseTo((Math.log(2) - 0.5) / 4, 15);
    const s = new EmpiricalBernsteinSequence({ range: [0, 1], intersect: false });
    s.push(1);
    expect(s.lower).toBe(0);
    expect(s.upper).toBe(1);
  });
  it('the @example: 400 alternating 0/1 values give [0.4064, 0.5909] (eb_cs.py, first case)', () => {
    const r = confidenceSequence(Array(400).fill(1).map((_, i) => i % 2), { range: [0, 1] });
    expect(r.interval[0]).toBeCloseTo(0.4064, 4);
    expect(r.interval[1]).toBeCloseTo(0.5909, 4);
    // Wider than the fixed-n 95% interval 0.5 ± 1.96·0.5/√400 = ±0.049: the price of looking at every step.
    expect(r.interval[1] - r.interval[0]).toBeGreaterThan(2 * 0.049);
  });
  it('rejects values outside the range and bad settings', () => {
    expect(() => confidenceSequence([0, 2], { range: [0, 1] })).toThrow(/outside the declared range/);
    expect(() => confidenceSequence([NaN], { range: [0, 1] })).toThrow(RangeError);
    expect(() => confidenceSequence([0], { range: [1, 0] })).toThrow(/low < high/);
    expect(() => confidenceSequence([0], { range: [0, 1], confidenceLevel: 1 })).toThrow(/confidenceLevel/);
    expect(() => confidenceSequence([0], { range: [0, 1], truncation: 1 })).toThrow(/truncation/);
    expect(() => confidenceSequence(null as unknown as number[], { range: [0, 1] })).toThrow(TypeError);
  });
  it('an empty series warns and gives NaN', () => {
    const r = confidenceSequence([], { range: [0, 1] });
    expect(r.interval).toEqual([NaN, NaN]);
    expect(r.warnings[0]).toMatch(/empty/);
  });
});

const series = fc.array(fc.integer({ min: -1, max: 1 }), { minLength: 1, maxLength: 300 });

describe('confidenceSequence properties', () => {
  it('bounds stay inside the range and lower ≤ upper while the intersection is not empty', () => {
    fc.assert(
      fc.property(series, (values) => {
        const r = confidenceSequence(values, { range: [-1, 1] });
        for (let t = 0; t < values.length; t++) {
          expect(r.lower[t]).toBeGreaterThanOrEqual(-1);
          expect(r.upper[t]).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
  it('with intersection the bounds are nested: lower never falls, upper never rises', () => {
    fc.assert(
      fc.property(series, (values) => {
        const r = confidenceSequence(values, { range: [-1, 1] });
        for (let t = 1; t < values.length; t++) {
          expect(r.lower[t]).toBeGreaterThanOrEqual(r.lower[t - 1]);
          expect(r.upper[t]).toBeLessThanOrEqual(r.upper[t - 1]);
        }
      }),
    );
  });
  it('without intersection the bounds contain the bets’ weighted mean, and the intersected ones contain these', () => {
    fc.assert(
      fc.property(series, (values) => {
        const plain = confidenceSequence(values, { range: [-1, 1], intersect: false });
        const nested = confidenceSequence(values, { range: [-1, 1] });
        for (let t = 0; t < values.length; t++) {
          expect(plain.lower[t]).toBeLessThanOrEqual(plain.upper[t]);
          expect(nested.lower[t]).toBeGreaterThanOrEqual(plain.lower[t]);
          expect(nested.upper[t]).toBeLessThanOrEqual(plain.upper[t]);
        }
      }),
    );
  });
  it('a one-sided bound at α is tighter than the two-sided one at α (which spends α/2 a side)', () => {
    fc.assert(
      fc.property(series, (values) => {
        const two = confidenceSequence(values, { range: [-1, 1] });
        const one = confidenceSequence(values, { range: [-1, 1], bound: 'lower' });
        expect(one.interval[0]).toBeGreaterThanOrEqual(two.interval[0]);
        expect(one.interval[1]).toBe(1);
      }),
    );
  });
  it('is deterministic: the same values give the same bounds', () => {
    fc.assert(
      fc.property(series, (values) => {
        const a = confidenceSequence(values, { range: [-1, 1] });
        const b = confidenceSequence(values, { range: [-1, 1] });
        expect(Array.from(a.lower)).toEqual(Array.from(b.lower));
        expect(Array.from(a.upper)).toEqual(Array.from(b.upper));
      }),
    );
  });
  it('rescaling the values and their range rescales the bounds', () => {
    fc.assert(
      fc.property(series, (values) => {
        const a = confidenceSequence(values, { range: [-1, 1] });
        const b = confidenceSequence(values.map((v) => 50 * v + 10), { range: [-40, 60] });
        const n = values.length - 1;
        expect(b.interval[0]).toBeCloseTo(50 * a.interval[0] + 10, 9);
        expect(b.interval[1]).toBeCloseTo(50 * a.interval[1] + 10, 9);
        expect(b.lower[n]).toBeCloseTo(50 * a.lower[n] + 10, 9);
      }),
    );
  });
});

describe('confidenceSequence coverage (Monte Carlo)', () => {
  it('misses a Bernoulli(0.3) mean at some step of 500 in ≤ 5% of 400 runs', async () => {
    const { createRng } = await import('../../src/random/index.js');
    const rng = createRng('cs-coverage');
    let misses = 0;
    for (let r = 0; r < 400; r++) {
      const s = new EmpiricalBernsteinSequence({ range: [0, 1] });
      let missed = false;
      for (let t = 0; t < 500 && !missed; t++) {
        s.push(rng.nextFloat() < 0.3 ? 1 : 0);
        missed = s.lower > 0.3 || s.upper < 0.3;
      }
      misses += missed ? 1 : 0;
    }
    // Tolerance: 3 Monte Carlo SE at the nominal rate, 3·√(0.05·0.95/400) = 0.033.
    expect(misses / 400).toBeLessThan(0.05 + 0.033);
  });
});
