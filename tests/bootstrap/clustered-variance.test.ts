import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clusteredStandardError } from '../../src/paired/index.js';
import { millerVariance } from '../../src/paired/clustered-se.js';

describe('millerVariance: the one clustered-variance function (clusteredStandardError, bootstrapMean, size)', () => {
  it('the JSDoc example by hand: [1, 1, 0, 0] in two clusters', () => {
    // residuals ±0.5, cluster totals ±1: Σ_c e_c² / n² + Σ_i r_i² / (n² (n − 1)) = 2/16 + 1/48 = 7/48;
    // naive = Σ r² / (n (n − 1)) = 1/12.
    const v = millerVariance([0.5, 0.5, -0.5, -0.5], [0, 0, 1, 1], 2, 1 / 4);
    expect(v.clustered).toBeCloseTo(7 / 48, 16);
    expect(v.naive).toBeCloseTo(1 / 12, 16);
    expect(v.clusters).toBe(2);
    expect(clusteredStandardError([1, 1, 0, 0], Int32Array.of(0, 0, 1, 1)).designEffect).toBeCloseTo(1.75, 14);
  });

  const data = fc
    .array(fc.tuple(fc.double({ min: -50, max: 50, noNaN: true }), fc.integer({ min: 0, max: 6 })), { minLength: 2, maxLength: 40 })
    .map((rows) => ({ x: rows.map((r) => r[0]), cluster: Int32Array.from(rows, (r) => r[1]) }));

  it("is Miller's formula term for term: SE_CLT² + (Σ_c e_c² − Σ_i e_i²) / n², and never negative", () => {
    fc.assert(
      fc.property(data, ({ x, cluster }) => {
        const n = x.length;
        const mean = x.reduce((s, v) => s + v, 0) / n;
        const e = x.map((v) => v - mean);
        const squares = e.reduce((s, v) => s + v * v, 0);
        const totals = new Map<number, number>();
        e.forEach((v, i) => totals.set(cluster[i], (totals.get(cluster[i]) ?? 0) + v));
        const clusterSquares = [...totals.values()].reduce((s, v) => s + v * v, 0);
        const literal = squares / (n - 1) / n + (clusterSquares - squares) / (n * n);
        const got = clusteredStandardError(x, cluster);
        expect(got.clusteredStandardError ** 2).toBeGreaterThanOrEqual(0);
        expect(Math.abs(got.clusteredStandardError ** 2 - literal)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(literal)));
        expect(got.warnings.join(' ')).not.toMatch(/negative/);
      }),
      { numRuns: 200 },
    );
  });

  it('one item per cluster: design effect 1', () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6];
    expect(clusteredStandardError(x, Int32Array.from(x, (_, i) => i)).designEffect).toBeCloseTo(1, 14);
  });
});
