import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bettingInterval } from '../../src/paired/betting-interval.js';

// Reference: tests/reference/skewed-intervals/betting_interval.py (numpy, vectorised over the grid,
// values in the order given) → betting_interval.json.
interface Case {
  name: string;
  values: number[];
  range: [number, number];
  confidenceLevel: number;
  alternative: 'two-sided' | 'less' | 'greater';
  interval: [number, number];
}
const reference = JSON.parse(readFileSync(new URL('../reference/skewed-intervals/betting_interval.json', import.meta.url), 'utf8')) as { betting: Case[] };

describe('bettingInterval against the numpy reference', () => {
  it.each(reference.betting.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = bettingInterval(c.values, { range: c.range, confidenceLevel: c.confidenceLevel, alternative: c.alternative, order: 'as-given' });
    // Same grid and the same log-capital sums in the same order: equal up to rounding of the bound arithmetic.
    expect(r.confidenceInterval[0]).toBeCloseTo(c.interval[0], 12);
    expect(r.confidenceInterval[1]).toBeCloseTo(c.interval[1], 12);
  });
});

describe('bettingInterval', () => {
  it('never a point: all-equal values still give a wide interval', () => {
    const r = bettingInterval(new Array(10).fill(0), { range: [-1, 1] });
    expect(r.confidenceInterval[0]).toBeLessThan(-0.3);
    expect(r.confidenceInterval[1]).toBeGreaterThan(0.3);
  });

  it('the shuffle is seeded (same seed, same bytes) and the interval stays inside the range', () => {
    const x = reference.betting[2].values;
    const a = bettingInterval(x, { range: [-1, 1], seed: 3 });
    expect(bettingInterval(x, { range: [-1, 1], seed: 3 })).toEqual(a);
    expect(a.confidenceInterval[0]).toBeGreaterThanOrEqual(-1);
    expect(a.confidenceInterval[1]).toBeLessThanOrEqual(1);
    expect(a.confidenceInterval[0]).toBeLessThanOrEqual(a.estimate);
    expect(a.confidenceInterval[1]).toBeGreaterThanOrEqual(a.estimate);
  });

  it('rejects values outside the range and bad settings', () => {
    expect(() => bettingInterval([0, 2], { range: [-1, 1] })).toThrow(/outside the range/);
    expect(() => bettingInterval([0], { range: [1, 1] })).toThrow(/low < high/);
    expect(() => bettingInterval([0], { range: [-1, 1], truncation: 1 })).toThrow(/truncation/);
  });
});
