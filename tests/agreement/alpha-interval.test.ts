import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nominalAlphaOf, nominalAlphaOfClasses, nominalClasses, nominalTerms } from '../../src/agreement/alpha-interval.js';
import { bootstrapStatistic } from '../../src/bootstrap/index.js';
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

describe('alpha by classes of interchangeable items', () => {
  it('equals nominalAlphaOf bit for bit on any resample when d is summed in index order (property)', () => {
    const labels = inputs.examples.change_of_control.labels;
    const names: string[] = [];
    const terms = nominalTerms(labels, names);
    const classes = nominalClasses(terms, names);
    const n = terms.size.length;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 2 * n }), (picks) => {
        const x = new Float64Array(classes.units.length);
        let d = 0;
        for (const u of picks) {
          d += classes.disagreement[classes.classOf[u]];
          x[classes.classOf[u]] += 1;
        }
        const a = nominalAlphaOfClasses(classes, x, d, new Float64Array(terms.values));
        const b = nominalAlphaOf(terms, picks, new Float64Array(terms.values));
        return Object.is(a, b);
      }),
      { seed: 12, numRuns: 300 },
    );
  });

  it('orders classes by labels, not by the order of the items', () => {
    const units = [['a', 'b'], ['a', 'a'], ['b', 'a', 'a'], ['a', 'a']];
    const reversed = [...units].reverse();
    const of = (u: string[][]) => {
      const names: string[] = [];
      const c = nominalClasses(nominalTerms(u, names), names);
      return Array.from(c.units);
    };
    // Keys sorted: {a:1, b:1} (1 item) < {a:2} (2 items) < {a:2, b:1} (1 item).
    expect(of(units)).toEqual([1, 2, 1]);
    expect(of(reversed)).toEqual(of(units));
  });

  // Many items and few label patterns take the counts path: its bootstrap distribution is the index
  // path's, so the two intervals differ by Monte Carlo error only (SE of a 2.5% quantile at B = 4000
  // is about 0.25 bootstrap SEs).
  it('draws class counts on many items with few patterns, with the same interval as index draws', () => {
    let s = 9;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const units = Array.from({ length: 3000 }, () => [0, 1].map(() => (rnd() < 0.8 ? 'x' : rnd() < 0.5 ? 'y' : 'z')));
    const fast = krippendorffAlphaInterval(units, { seed: 2, nResamples: 4000 });
    const terms = nominalTerms(units);
    const margins = new Float64Array(terms.values);
    const slow = bootstrapStatistic(terms.size.length, (ix) => nominalAlphaOf(terms, ix, margins), { method: 'percentile', seed: 2, nResamples: 4000 });
    expect(fast.alpha).toBe(slow.estimate);
    expect(fast.confidenceInterval).not.toEqual(slow.confidenceInterval);
    expect(Math.abs(fast.standardError / slow.standardError - 1)).toBeLessThan(0.06);
    for (const k of [0, 1]) expect(Math.abs(fast.confidenceInterval[k] - slow.confidenceInterval[k])).toBeLessThan(0.5 * slow.standardError);
  });
});
