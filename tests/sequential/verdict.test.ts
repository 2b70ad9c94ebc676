import { describe, expect, it } from 'vitest';
import { decisionHalfWidth, sequentialVerdict } from '../../src/sequential/verdict.js';
import { alphaSpent, lookAlpha } from '../../src/sequential/alpha-spending.js';

describe('sequentialVerdict', () => {
  it('reads the interval against 0 and ±mde/2', () => {
    expect(sequentialVerdict([0.01, 0.2])).toBe('a-better');
    expect(sequentialVerdict([-0.2, -0.01])).toBe('b-better');
    expect(sequentialVerdict([-0.01, 0.02])).toBe('continue');
    expect(sequentialVerdict([-0.01, 0.02], 0.05)).toBe('equivalent');
    // Touching ±mde/2 or 0 is not inside: the inequalities are strict.
    expect(sequentialVerdict([-0.025, 0.02], 0.05)).toBe('continue');
    expect(sequentialVerdict([0, 0.2])).toBe('continue');
    // Excluding 0 wins over equivalence when both hold.
    expect(sequentialVerdict([0.005, 0.02], 0.05)).toBe('a-better');
    expect(sequentialVerdict([0.3, 0.1])).toBe('inconsistent');
    expect(sequentialVerdict([NaN, NaN])).toBe('continue');
    expect(() => sequentialVerdict([0, 1], 0)).toThrow(RangeError);
  });
  it('the half-width a verdict needs is the nearer of |estimate| and mde/2 − |estimate|', () => {
    expect(decisionHalfWidth(0.08, 0.05)).toBe(0.08);
    expect(decisionHalfWidth(0.005, 0.05)).toBeCloseTo(0.02, 15);
    expect(decisionHalfWidth(-0.03)).toBe(0.03);
    expect(decisionHalfWidth(0)).toBe(0);
  });
});

describe('alpha spending α/(k(k+1))', () => {
  it('by hand: α_1 = α/2, α_10 = α/110, spent after k looks = αk/(k+1), never above α', () => {
    expect(lookAlpha(0.05, 1)).toBe(0.025);
    expect(lookAlpha(0.05, 10)).toBeCloseTo(0.05 / 110, 18);
    let total = 0;
    for (let k = 1; k <= 1000; k++) {
      total += lookAlpha(0.05, k);
      expect(total).toBeCloseTo(alphaSpent(0.05, k), 14);
    }
    expect(total).toBeLessThan(0.05);
    expect(alphaSpent(0.05, 4)).toBeCloseTo(0.04, 15);
    expect(() => lookAlpha(0.05, 0)).toThrow(RangeError);
    expect(() => lookAlpha(1, 1)).toThrow(RangeError);
  });
});
