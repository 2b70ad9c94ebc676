import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilCount, criticalZ, itemsForIntervalWidth, mdeForIntervalWidth } from '../../src/sizing/index.js';

describe('itemsForIntervalWidth: the chapter rule n = ceil(v·(2z/mde)²)', () => {
  it('gives the chapter example exactly: v = 428.9 → 264 at mde 5, 1,648 at mde 2', () => {
    expect(itemsForIntervalWidth({ varianceOfDifference: 428.9, mde: 5 }).n).toBe(264);
    expect(itemsForIntervalWidth({ varianceOfDifference: 428.9, mde: 2 }).n).toBe(1648);
  });

  it('uses the exact z = Φ⁻¹(0.975); the chapter’s rounded 1.96 gives the same counts here', () => {
    // By hand: 428.9·(2·1.96/5)² = 428.9·0.61465… = 263.626; 428.9·(2·1.96/2)² = 428.9·3.8416 = 1647.66.
    // With z = 1.959963984540054 (scipy norm.ppf(0.975)): 263.616 and 1647.60. All round up to 264 / 1648.
    const five = itemsForIntervalWidth({ varianceOfDifference: 428.9, mde: 5 });
    const two = itemsForIntervalWidth({ varianceOfDifference: 428.9, mde: 2 });
    expect(five.z).toBeCloseTo(1.959963984540054, 15);
    expect(five.nExact).toBeCloseTo(428.9 * ((2 * 1.959963984540054) / 5) ** 2, 10);
    expect(five.nExact).toBeCloseTo(263.616, 3);
    expect(two.nExact).toBeCloseTo(1647.6, 1);
    expect(Math.ceil(428.9 * ((2 * 1.96) / 5) ** 2)).toBe(264);
    expect(Math.ceil(428.9 * ((2 * 1.96) / 2) ** 2)).toBe(1648);
  });

  it('echoes its settings', () => {
    expect(itemsForIntervalWidth({ varianceOfDifference: 4, mde: 1, confidenceLevel: 0.9 })).toMatchObject({
      method: 'interval-width',
      varianceOfDifference: 4,
      mde: 1,
      confidenceLevel: 0.9,
    });
  });

  it('does not round an exact integer up because of floating-point noise', () => {
    // v = (mde / 2z)² · 264 is exactly 264 items in real arithmetic; in doubles v·(2z/mde)²
    // comes out a few ulps either side of 264, and a bare Math.ceil would give 265 for some mde.
    let naiveWrong = 0;
    for (let k = 1; k <= 200; k++) {
      const mde = k / 7;
      const z = criticalZ(0.95);
      const v = (mde / (2 * z)) ** 2 * 264;
      const sized = itemsForIntervalWidth({ varianceOfDifference: v, mde });
      expect(sized.n).toBe(264);
      if (Math.ceil(sized.nExact) !== 264) naiveWrong += 1;
    }
    expect(naiveWrong).toBeGreaterThan(0); // the guard is needed, not decorative
  });

  it('property: halving the mde multiplies n by ~4 (exactly 4 before rounding)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e4, noNaN: true }), fc.double({ min: 0.01, max: 100, noNaN: true }), (v, mde) => {
        const wide = itemsForIntervalWidth({ varianceOfDifference: v, mde });
        const narrow = itemsForIntervalWidth({ varianceOfDifference: v, mde: mde / 2 });
        expect(narrow.nExact / wide.nExact).toBeCloseTo(4, 10);
        // Whole counts: 4·n − 3 ≤ n' ≤ 4·n, since ceil(4x) ∈ [4·ceil(x) − 3, 4·ceil(x)].
        expect(narrow.n).toBeLessThanOrEqual(4 * wide.n);
        expect(narrow.n).toBeGreaterThanOrEqual(4 * wide.n - 3);
      }),
    );
  });

  it('inverts: the mde at the budget n gives back n', () => {
    // "400 items resolve 4.1 points": 2·1.959964·√(428.9/400) = 4.0591, by hand.
    expect(mdeForIntervalWidth(428.9, 400)).toBeCloseTo(2 * 1.959963984540054 * Math.sqrt(428.9 / 400), 12);
    expect(mdeForIntervalWidth(428.9, 400)).toBeCloseTo(4.0591, 4);
    const mde = mdeForIntervalWidth(428.9, 264);
    expect(itemsForIntervalWidth({ varianceOfDifference: 428.9, mde }).n).toBe(264);
  });

  it.each([
    [{ varianceOfDifference: 1, mde: 0 }, 'mde must be a finite number > 0 (got 0)'],
    [{ varianceOfDifference: 1, mde: -2 }, 'mde must be a finite number > 0 (got -2)'],
    [{ varianceOfDifference: -1, mde: 1 }, 'varianceOfDifference must be a finite number ≥ 0 (got -1)'],
    [{ varianceOfDifference: NaN, mde: 1 }, 'varianceOfDifference must be a finite number ≥ 0 (got NaN)'],
    [{ varianceOfDifference: 1, mde: 1, confidenceLevel: 1 }, 'confidenceLevel must be in (0, 1) (got 1)'],
  ])('rejects %j', (options, message) => {
    expect(() => itemsForIntervalWidth(options)).toThrow(message);
  });
});

describe('ceilCount', () => {
  it('rounds up real fractions and keeps exact integers', () => {
    expect(ceilCount(263.616)).toBe(264);
    expect(ceilCount(264 * (1 + 1e-15))).toBe(264);
    expect(ceilCount(264.000001)).toBe(265);
    expect(ceilCount(0)).toBe(0);
    expect(ceilCount(Infinity)).toBe(Infinity);
    expect(() => ceilCount(-1)).toThrow('a count must be ≥ 0 (got -1)');
  });
});
