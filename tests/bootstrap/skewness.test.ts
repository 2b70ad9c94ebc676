import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cochranMinimumItems, sampleSkewness } from '../../src/paired/skewness.js';

// Reference: scipy stats.skew(x, bias=False), in tests/reference/skewed-intervals/betting_interval.json.
const reference = JSON.parse(readFileSync(new URL('../reference/skewed-intervals/betting_interval.json', import.meta.url), 'utf8')) as { skewness: { values: number[]; skewness: number }[] };

describe('sampleSkewness', () => {
  it.each(reference.skewness.map((c, k) => [k, c] as const))('scipy case %i', (_k, c) => {
    expect(sampleSkewness(c.values)).toBeCloseTo(c.skewness, 12);
  });
  it('NaN without spread or with fewer than 3 values', () => {
    expect(sampleSkewness([1, 1, 1, 1])).toBeNaN();
    expect(sampleSkewness([1, 2])).toBeNaN();
  });
});

describe('cochranMinimumItems', () => {
  it('25 G1² (Cochran 1977 §2.15), rounded up', () => {
    expect(cochranMinimumItems(2)).toBe(100);
    expect(cochranMinimumItems(0.5)).toBe(7); // 6.25 → 7
    expect(cochranMinimumItems(NaN)).toBeNaN();
  });
});
