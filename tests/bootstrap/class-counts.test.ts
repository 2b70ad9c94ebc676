import { describe, expect, it } from 'vitest';
import { bootstrapClassCounts, countsPathHolds } from '../../src/bootstrap/class-counts.js';

describe('bootstrapClassCounts', () => {
  // Resampling 100 units of which 70 are of class 2 makes the class-2 share Binomial(100, 0.7) / 100:
  // in R, qbinom(c(0.025, 0.975), 100, 0.7) → 61 79, and its SD is sqrt(0.7 · 0.3 / 100) = 0.04583.
  it('draws the multinomial class counts: a share resamples as a binomial (R qbinom)', () => {
    const r = bootstrapClassCounts([30, 70], (x) => x[1] / (x[0] + x[1]), { seed: 0 });
    expect(r.estimate).toBe(0.7);
    expect(r.confidenceInterval).toEqual([0.61, 0.79]);
    expect(Math.abs(r.standardError / 0.04583 - 1)).toBeLessThan(0.03);
    expect(r).toMatchObject({ method: 'percentile', nResamples: 9999, seed: '0', n: 100 });
  });

  // The sequential binomials must give every class its marginal Binomial(m, c_k / m), the middle one too:
  // class 2 of [20, 30, 50] resamples as Binomial(100, 0.3), qbinom(c(0.025, 0.975), 100, 0.3) → 21 39.
  it('gives the middle class of three its binomial margin', () => {
    const r = bootstrapClassCounts([20, 30, 50], (x) => x[1], { seed: 1 });
    expect(r.confidenceInterval).toEqual([21, 39]);
    expect(Math.abs(r.standardError / Math.sqrt(100 * 0.3 * 0.7) - 1)).toBeLessThan(0.03);
  });

  it('is seeded, and a one-class population never varies', () => {
    const a = bootstrapClassCounts([5, 9, 13], (x) => x[0] - x[2], { seed: 'a', nResamples: 500 });
    expect(bootstrapClassCounts([5, 9, 13], (x) => x[0] - x[2], { seed: 'a', nResamples: 500 })).toEqual(a);
    expect(bootstrapClassCounts([0, 12, 0], (x) => x[1], { nResamples: 50 }).standardError).toBe(0);
  });

  it('rejects BCa, bad class sizes and no units', () => {
    expect(() => bootstrapClassCounts([1, 2], (x) => x[0], { method: 'bca' as never })).toThrow(/percentile/);
    expect(() => bootstrapClassCounts([1.5, 2], (x) => x[0])).toThrow(/whole numbers/);
    expect(() => bootstrapClassCounts([0, 0], (x) => x[0])).toThrow(/at least one unit/);
  });

  it('holds the counts-path rule of the mean bootstrap (K ≤ 64, m ≥ 32 (K − 1))', () => {
    expect(countsPathHolds(64, 3)).toBe(true);
    expect(countsPathHolds(63, 3)).toBe(false);
    expect(countsPathHolds(1e6, 65)).toBe(false);
  });
});
