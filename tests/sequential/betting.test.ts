import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confidenceSequence } from '../../src/sequential/confidence-sequence.js';
import { HedgedBettingSequence } from '../../src/sequential/betting.js';
import { createSequence } from '../../src/sequential/sequence.js';
import type { SequenceBound } from '../../src/sequential/empirical-bernstein.js';

interface Case {
  name: string;
  values: number[];
  range: [number, number];
  confidenceLevel: number;
  bound: SequenceBound;
  lower: number[];
  upper: number[];
}
const reference = JSON.parse(readFileSync(new URL('../reference/sequential/betting_cs.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('HedgedBettingSequence against the numpy reference (betting_cs.py)', () => {
  for (const c of reference.cases) {
    it(c.name, () => {
      const r = confidenceSequence(c.values, { method: 'betting', range: c.range, confidenceLevel: c.confidenceLevel, bound: c.bound });
      let worst = 0;
      for (let t = 0; t < c.values.length; t++) worst = Math.max(worst, Math.abs(r.lower[t] - c.lower[t]), Math.abs(r.upper[t] - c.upper[t]));
      // Same grid, same rejections: the bounds are the same grid points up to rounding in the rescaling.
      expect(worst / (c.range[1] - c.range[0])).toBeLessThan(1e-12);
    });
  }
  it('the @example: 400 alternating 0/1 values give [0.3865, 0.6045]', () => {
    const s = new HedgedBettingSequence({ range: [0, 1] });
    for (let i = 0; i < 400; i++) s.push(i % 2);
    expect(s.lower).toBeCloseTo(0.3865, 12);
    expect(s.upper).toBeCloseTo(0.6045, 12);
  });
});

describe('betting vs empirical-Bernstein', () => {
  it('is much tighter when the spread is small next to the range (the low-spread reference case)', () => {
    const c = reference.cases[2];
    const bet = confidenceSequence(c.values, { method: 'betting', range: [-1, 1] });
    const eb = confidenceSequence(c.values, { range: [-1, 1] });
    expect(bet.interval[1] - bet.interval[0]).toBeLessThan(0.6 * (eb.interval[1] - eb.interval[0]));
  });
  it('nested, inside the range, and deterministic', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1, max: 1 }), { minLength: 1, maxLength: 150 }), (values) => {
        const r = confidenceSequence(values, { method: 'betting', range: [-1, 1], gridSize: 200 });
        const again = confidenceSequence(values, { method: 'betting', range: [-1, 1], gridSize: 200 });
        expect(Array.from(again.lower)).toEqual(Array.from(r.lower));
        for (let t = 0; t < values.length; t++) {
          expect(r.lower[t]).toBeGreaterThanOrEqual(-1);
          expect(r.upper[t]).toBeLessThanOrEqual(1);
          if (t > 0) {
            expect(r.lower[t]).toBeGreaterThanOrEqual(r.lower[t - 1]);
            expect(r.upper[t]).toBeLessThanOrEqual(r.upper[t - 1]);
          }
        }
      }),
    );
  });
  it('covers a Beta-like mean at every step in ≥ 95% of 300 runs (Monte Carlo)', async () => {
    const { createRng } = await import('../../src/random/index.js');
    const rng = createRng('betting-coverage');
    let misses = 0;
    for (let r = 0; r < 300; r++) {
      const s = new HedgedBettingSequence({ range: [0, 1], gridSize: 200 });
      let missed = false;
      for (let t = 0; t < 300 && !missed; t++) {
        // Mean of three uniforms' median is 1/2; scaled to [0.3, 0.7], mean 0.5.
        const a = rng.nextFloat();
        const b = rng.nextFloat();
        const c2 = rng.nextFloat();
        s.push(0.3 + 0.4 * Math.max(Math.min(a, b), Math.min(Math.max(a, b), c2)));
        missed = s.lower > 0.5 || s.upper < 0.5;
      }
      misses += missed ? 1 : 0;
    }
    // Tolerance: 3 Monte Carlo SE at the nominal rate, 3·√(0.05·0.95/300) = 0.038.
    expect(misses / 300).toBeLessThan(0.05 + 0.038);
  });
  it('checks its settings', () => {
    expect(() => new HedgedBettingSequence({ range: [0, 1], gridSize: 5 })).toThrow(/gridSize/);
    expect(() => createSequence('betting', { range: [0, 1], intersect: false })).toThrow(/always keeps/);
    expect(() => createSequence('other' as never, { range: [0, 1] })).toThrow(/method must be/);
    expect(() => new HedgedBettingSequence({ range: [0, 1] }).push(2)).toThrow(/outside/);
  });
});
