import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tiltToMean } from '../../src/sequential/tilt.js';

describe('tiltToMean', () => {
  it('two values ±1: the tilted mean is tanh θ, so p(+1) = (1 + g)/2 (the @example)', () => {
    const r = tiltToMean([-1, 1], 0.5);
    expect(Array.from(r.support)).toEqual([-1, 1]);
    expect(r.probability[0]).toBeCloseTo(0.25, 12);
    expect(r.probability[1]).toBeCloseTo(0.75, 12);
  });
  it('three values {−1, 0, 1}: p(1)/p(0) = e^θ = p(0)/p(−1), so p(1)·p(−1) = p(0)² when the counts are equal', () => {
    const r = tiltToMean([-1, 0, 1, 1, 0, -1], 0.1);
    const [pm, p0, pp] = r.probability;
    expect(pp - pm).toBeCloseTo(0.1, 12);
    expect(pp * pm).toBeCloseTo(p0 * p0, 12);
    // By hand: mean = 2 sinh θ / (1 + 2 cosh θ) = 0.1 → θ = 0.150568… (solved in closed form below).
    // 2 sinh θ = 0.1 (1 + 2 cosh θ): with u = e^θ, u² (1 − 0.1) − 0.1 u − (1 + 0.1) = 0.
    const u = (0.1 + Math.sqrt(0.01 + 4 * 0.9 * 1.1)) / (2 * 0.9);
    expect(pp / p0).toBeCloseTo(u, 10);
  });
  it('keeps weights in proportion to the pilot counts times e^{θ d}, and sums to 1', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 2, maxLength: 60 }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (values, share) => {
        const lo = Math.min(...values);
        const hi = Math.max(...values);
        fc.pre(hi > lo);
        const target = lo + share * (hi - lo);
        const r = tiltToMean(values, target);
        let total = 0;
        let mean = 0;
        r.probability.forEach((p, j) => {
          total += p;
          mean += p * r.support[j];
        });
        expect(total).toBeCloseTo(1, 12);
        expect(mean).toBeCloseTo(target, 9);
      }),
    );
  });
  it('the pilot mean itself leaves the pilot unchanged', () => {
    const r = tiltToMean([0, 0, 1, 2], 0.75);
    expect(Array.from(r.probability).map((p) => +p.toFixed(12))).toEqual([0.5, 0.25, 0.25]);
  });
  it('refuses a gap outside the pilot values', () => {
    expect(() => tiltToMean([0, 1], 1)).toThrow(/strictly between/);
    expect(() => tiltToMean([0.3, 0.3], 0.3)).toThrow(/strictly between/);
    expect(() => tiltToMean([], 0)).toThrow(RangeError);
  });
});
