import { describe, expect, it } from 'vitest';
import { stratifiedVariance } from '../../src/sizing/index.js';

describe('stratifiedVariance', () => {
  it('is Σ w² s² / n (the JSDoc example, by hand: 0.25·4/10 + 0.25·16/40 = 0.1 + 0.1)', () => {
    expect(stratifiedVariance([0.5, 0.5], [4, 16], [10, 40])).toBeCloseTo(0.2, 15);
  });

  it('with one stratum of weight 1 is the variance of a mean, s² / n', () => {
    expect(stratifiedVariance([1], [428.9], [264])).toBeCloseTo(428.9 / 264, 15);
  });

  it('with quota weights w_h = n_h / n and equal variances is s² / n (proportional allocation)', () => {
    // Σ (n_h/n)² s² / n_h = s² Σ n_h / n² = s² / n
    const counts = [80, 120, 100, 100];
    const n = 400;
    expect(stratifiedVariance(counts.map((c) => c / n), [9, 9, 9, 9], counts)).toBeCloseTo(9 / n, 15);
  });

  it('gives the hand-computed value for the traffic weights of examples/strata.yaml', () => {
    // Traffic weights of examples/strata.yaml; variances and counts chosen by hand:
    // 0.72²·10/80 + 0.05²·400/120 + 0.03²·300/100 + 0.2²·50/100
    // = 0.0648 + 0.0083333… + 0.0027 + 0.02 = 0.0958333…
    const v = stratifiedVariance([0.72, 0.05, 0.03, 0.2], [10, 400, 300, 50], [80, 120, 100, 100]);
    expect(v).toBeCloseTo(0.0648 + 1 / 120 + 0.0027 + 0.02, 14);
  });

  it('ignores a zero-weight stratum even with no items; a weighted stratum with no items is +Infinity', () => {
    expect(stratifiedVariance([1, 0], [4, 100], [4, 0])).toBe(1);
    expect(stratifiedVariance([0.5, 0.5], [4, 100], [4, 0])).toBe(Infinity);
  });

  it('propagates an unknown (NaN) variance of a weighted stratum', () => {
    expect(stratifiedVariance([0.5, 0.5], [4, NaN], [4, 4])).toBeNaN();
    expect(stratifiedVariance([1, 0], [4, NaN], [4, 4])).toBe(1);
  });

  it('accepts typed arrays', () => {
    expect(stratifiedVariance(new Float64Array([1]), new Float64Array([2]), new Int32Array([4]))).toBe(0.5);
  });

  it.each([
    [[], [], [], TypeError, 'at least one stratum'],
    [[1], [1, 2], [1], TypeError, 'same length (got 1, 2, 1)'],
    [[-0.1], [1], [1], RangeError, 'weights[0] must be a finite number ≥ 0 (got -0.1)'],
    [[NaN], [1], [1], RangeError, 'weights[0]'],
    [[1], [-1], [1], RangeError, 'variances[0] must be ≥ 0 and finite (got -1)'],
    [[1], [Infinity], [1], RangeError, 'variances[0]'],
    [[1, 1], [1, 1], [1, -3], RangeError, 'counts[1] must be a finite number ≥ 0 (got -3)'],
    [[1], [1], [Infinity], RangeError, 'counts[0]'],
  ])('rejects bad input %j %j %j', (w, v, n, kind, message) => {
    expect(() => stratifiedVariance(w, v, n)).toThrow(kind);
    expect(() => stratifiedVariance(w, v, n)).toThrow(message);
  });
});
