import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALPHA_LEVELS, krippendorffAlpha } from '../../src/agreement/index.js';
import { inputs, statsmodels, unitsOf } from './reference.js';

// References: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C
// (4 observers x 12 units with missing values): nominal 0.743, ordinal 0.815, interval 0.849,
// ratio 0.797; Wikipedia "Krippendorff's alpha" (3 coders x 15 units): nominal 0.691,
// interval 0.811. Full-precision values from the independent pairable-values computation in
// tests/reference/agreement/reference.py (asserted there against the published values).
const TOL = 1e-12;

describe('krippendorffAlpha', () => {
  for (const level of ALPHA_LEVELS) {
    it(`reproduces Krippendorff's published example at level ${level}`, () => {
      const r = krippendorffAlpha(unitsOf(inputs.krippendorff2011.observers), { level });
      const ref = statsmodels.krippendorff.krippendorff2011[level];
      expect(r.alpha.toFixed(3)).toBe(inputs.krippendorff2011.published[level].toFixed(3));
      expect(Math.abs(r.alpha - ref.alpha)).toBeLessThan(TOL);
      expect(Math.abs(r.observedDisagreement - ref.observedDisagreement)).toBeLessThan(TOL);
      expect(Math.abs(r.expectedDisagreement - ref.expectedDisagreement)).toBeLessThan(TOL);
      expect(r.pairableValues).toBe(ref.pairableValues);
      // Unit 12 has one value only and drops out: 11 pairable units, n = 40.
      expect(r.units).toBe(11);
    });

    it(`matches the hand computation on the Wikipedia example at level ${level}`, () => {
      const r = krippendorffAlpha(unitsOf(inputs.krippendorffWikipedia.observers), { level });
      expect(Math.abs(r.alpha - statsmodels.krippendorff.krippendorffWikipedia[level].alpha)).toBeLessThan(TOL);
      const published = inputs.krippendorffWikipedia.published[level];
      if (published !== undefined) expect(r.alpha.toFixed(3)).toBe(published.toFixed(3));
    });
  }

  it('has the coincidence matrix of the published nominal example', () => {
    // Krippendorff (2011), section C, by hand: o_11 = 3 (unit 1) + 2 (unit 8) + 2 (unit 11) = 7;
    // o_22 = 2 (unit 2) + 4 (unit 5) + 4 (unit 9) = 10; margins n_c = 9, 13, 10, 5, 3 (n = 40).
    const r = krippendorffAlpha(unitsOf(inputs.krippendorff2011.observers));
    expect(r.values).toEqual(['1', '2', '3', '4', '5']);
    const margins = r.coincidences.map((row) => row.reduce((s, x) => s + x, 0));
    expect(margins.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([9, 13, 10, 5, 3]);
    expect(r.coincidences[0][0]).toBeCloseTo(7, 12);
    expect(r.coincidences[1][1]).toBeCloseTo(10, 12);
  });

  for (const [type, data] of Object.entries(inputs.examples)) {
    it(`matches the hand computation on examples/annotations.csv, ${type}`, () => {
      const r = krippendorffAlpha(data.labels);
      expect(Math.abs(r.alpha - statsmodels.krippendorff.examples[type].alpha)).toBeLessThan(TOL);
    });
  }

  it('repeats its JSDoc example', () => {
    // o_11 = o_22 = 2, o_12 = o_21 = 1; n = 6; D_o = 2/6, D_e = 2·3·3/30; α = 1 − (1/3)/(3/5) = 4/9.
    expect(krippendorffAlpha([[1, 1], [2, 2], [1, 2]]).alpha).toBeCloseTo(4 / 9, 15);
  });

  it('allows missing labels: a unit with one label adds nothing', () => {
    const base = [['a', 'a', 'b'], ['b', 'b', 'b'], ['a', 'b', null]];
    const extra = [...base, ['a', null, null], [null, null, null]];
    expect(krippendorffAlpha(extra).alpha).toBe(krippendorffAlpha(base).alpha);
  });

  it('does not depend on the order of items or annotators (property)', () => {
    const label = fc.option(fc.constantFrom('x', 'y', 'z'), { nil: null });
    fc.assert(
      fc.property(fc.array(fc.array(label, { minLength: 3, maxLength: 3 }), { minLength: 2, maxLength: 25 }), (rows) => {
        const a = krippendorffAlpha(rows).alpha;
        const reversed = krippendorffAlpha([...rows].reverse().map((row) => [row[2], row[0], row[1]])).alpha;
        if (Number.isNaN(a)) return Number.isNaN(reversed);
        return Math.abs(a - reversed) < 1e-12 && a <= 1 + 1e-12;
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('is 1 when every annotator agrees on every item', () => {
    for (const level of ALPHA_LEVELS) expect(krippendorffAlpha([[1, 1, 1], [2, 2, null], [3, 3, 3]], { level }).alpha).toBe(1);
  });

  it('gives NaN with a warning when undefined', () => {
    const lonely = krippendorffAlpha([['a', null], [null, 'b']]);
    expect(lonely.alpha).toBeNaN();
    expect(lonely.warnings.join()).toMatch(/no item has labels from two annotators/);
    const constant = krippendorffAlpha([['a', 'a'], ['a', 'a']]);
    expect(constant.alpha).toBeNaN();
    expect(constant.warnings.join()).toMatch(/same value/);
  });

  it('rejects non-numeric labels at numeric levels, negatives at ratio, and unknown levels', () => {
    expect(() => krippendorffAlpha([['low', 'high']], { level: 'interval' })).toThrow(/numeric labels \(got "low"\)/);
    expect(() => krippendorffAlpha([[-1, 2]], { level: 'ratio' })).toThrow(/≥ 0/);
    expect(() => krippendorffAlpha([[1, 2]], { level: 'circular' as never })).toThrow(/level must be one of/);
    expect(krippendorffAlpha([['1', '2'], ['2', '2'], ['1', '1']], { level: 'interval' }).alpha).toBe(krippendorffAlpha([[1, 2], [2, 2], [1, 1]], { level: 'interval' }).alpha);
  });
});
