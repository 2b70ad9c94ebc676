import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nominalAlphaOf, nominalTerms } from '../../src/agreement/alpha-interval.js';
import { krippendorffAlpha, krippendorffAlphaInterval } from '../../src/agreement/index.js';
import { inputs, unitsOf } from './reference.js';

const examples = Object.values(inputs.examples).map((data) => data.labels);

describe('nominal alpha from per-item terms (the bootstrap statistic)', () => {
  it('equals krippendorffAlpha on the data as given', () => {
    for (const units of [...examples, unitsOf(inputs.krippendorff2011.observers)]) {
      const terms = nominalTerms(units);
      const all = Int32Array.from({ length: terms.size.length }, (_, u) => u);
      expect(nominalAlphaOf(terms, all, new Float64Array(terms.values))).toBeCloseTo(krippendorffAlpha(units).alpha, 12);
    }
  });

  it('equals krippendorffAlpha on any resample of the items (property)', () => {
    const labels = inputs.examples.change_of_control.labels;
    const terms = nominalTerms(labels);
    const n = terms.size.length;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 2 * n }), (picks) => {
        const fast = nominalAlphaOf(terms, picks, new Float64Array(terms.values));
        const slow = krippendorffAlpha(picks.map((u) => labels[u])).alpha;
        return Number.isNaN(slow) ? Number.isNaN(fast) : Math.abs(fast - slow) < 1e-12;
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});

describe('krippendorffAlphaInterval', () => {
  it('is seeded: the same seed gives the same interval, another seed another', () => {
    const units = inputs.examples.indemnity.labels;
    const a = krippendorffAlphaInterval(units, { seed: 3, nResamples: 2000 });
    const b = krippendorffAlphaInterval(units, { seed: 3, nResamples: 2000 });
    const c = krippendorffAlphaInterval(units, { seed: 4, nResamples: 2000 });
    expect(b).toEqual(a);
    expect(c.confidenceInterval).not.toEqual(a.confidenceInterval);
    expect(a).toMatchObject({ method: 'percentile', nResamples: 2000, seed: '3', confidenceLevel: 0.95, units: 20 });
  });

  it('brackets alpha on the examples and stays at or below 1', () => {
    for (const units of examples) {
      const r = krippendorffAlphaInterval(units, { seed: 0, nResamples: 2000 });
      expect(r.alpha).toBeCloseTo(krippendorffAlpha(units).alpha, 12);
      expect(r.confidenceInterval[0]).toBeLessThanOrEqual(r.alpha);
      expect(r.confidenceInterval[1]).toBeGreaterThanOrEqual(r.alpha);
      expect(r.confidenceInterval[1]).toBeLessThanOrEqual(1);
      expect(r.standardError).toBeGreaterThan(0);
    }
  });

  it('narrows as the confidence level falls', () => {
    const units = inputs.examples.change_of_control.labels;
    const wide = krippendorffAlphaInterval(units, { seed: 0, nResamples: 2000, confidenceLevel: 0.95 });
    const narrow = krippendorffAlphaInterval(units, { seed: 0, nResamples: 2000, confidenceLevel: 0.5 });
    expect(narrow.confidenceInterval[1] - narrow.confidenceInterval[0]).toBeLessThan(wide.confidenceInterval[1] - wide.confidenceInterval[0]);
  });

  it('gives NaN with a warning on too few items, and rejects bad settings', () => {
    const r = krippendorffAlphaInterval([['a', 'b'], ['a', null]]);
    expect(r.confidenceInterval).toEqual([NaN, NaN]);
    expect(r.warnings.join()).toMatch(/only 1 item/);
    expect(() => krippendorffAlphaInterval([['a', 'b']], { nResamples: 0 })).toThrow(/nResamples/);
    expect(() => krippendorffAlphaInterval([['a', 'b']], { confidenceLevel: 1 })).toThrow(/confidenceLevel/);
  });
});
