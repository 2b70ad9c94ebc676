import { describe, expect, it } from 'vitest';
import { fleissKappa, fleissKappaFromCounts } from '../../src/agreement/index.js';
import { inputs, statsmodels } from './reference.js';

// Reference: statsmodels.stats.inter_rater.fleiss_kappa(counts, method='fleiss'), counts from
// aggregate_raters on the items every rater labelled (tests/reference/agreement/reference.py).
const TOL = 1e-12;

describe('fleissKappa', () => {
  it("matches Wikipedia's worked example (0.210) and statsmodels on it", () => {
    const r = fleissKappaFromCounts(inputs.fleissWikipedia.counts);
    expect(r.kappa.toFixed(3)).toBe('0.210');
    expect(Math.abs(r.kappa - statsmodels.fleiss.wikipedia)).toBeLessThan(TOL);
    // Wikipedia: P̄ = 0.378, P̄_e = 0.213 (rounded), 10 subjects, 14 raters.
    expect(r.observedAgreement.toFixed(3)).toBe('0.378');
    expect(r.expectedAgreement.toFixed(3)).toBe('0.213');
    expect([r.items, r.raters, r.categories]).toEqual([10, 14, 5]);
  });

  for (const [type, data] of Object.entries(inputs.examples)) {
    it(`matches statsmodels on examples/annotations.csv, ${type}`, () => {
      const r = fleissKappa(data.labels);
      expect(Math.abs(r.kappa - statsmodels.fleiss.examples[type].kappa)).toBeLessThan(TOL);
      expect(r.items).toBe(statsmodels.fleiss.examples[type].items);
      expect(r.raters).toBe(3);
    });
  }

  it('repeats its JSDoc examples', () => {
    // P̄ = (1 + 1 + 0) / 3, P̄_e = 0.5² + 0.5², κ = (2/3 − 1/2) / (1/2) = 1/3.
    expect(fleissKappaFromCounts([[2, 0], [0, 2], [1, 1]]).kappa).toBeCloseTo(1 / 3, 15);
    expect(fleissKappa([['a', 'a'], ['b', 'b'], ['a', 'b']]).kappa).toBeCloseTo(1 / 3, 15);
  });

  it('leaves out items with a missing label and says so', () => {
    const r = fleissKappa([['a', 'a', 'a'], ['b', 'b', 'a'], ['a', null, 'b'], ['b', 'b', 'b']]);
    const complete = fleissKappa([['a', 'a', 'a'], ['b', 'b', 'a'], ['b', 'b', 'b']]);
    expect(r.kappa).toBe(complete.kappa);
    expect(r.droppedItems).toBe(1);
    expect(r.warnings.join()).toMatch(/3 items every annotator labelled; 1 with a missing label/);
  });

  it('gives NaN with a warning when undefined', () => {
    expect(fleissKappa([['a', null, 'a']]).kappa).toBeNaN();
    const constant = fleissKappa([['a', 'a', 'a'], ['a', 'a', 'a']]);
    expect(constant.kappa).toBeNaN();
    expect(constant.warnings.join()).toMatch(/same category/);
  });

  it('rejects unequal rater counts and bad counts', () => {
    expect(() => fleissKappaFromCounts([[2, 0], [1, 2]])).toThrow(/same number of raters/);
    expect(() => fleissKappaFromCounts([[1, 0]])).toThrow(/at least 2 raters/);
    expect(() => fleissKappaFromCounts([[1.5, 0.5]])).toThrow(/whole numbers/);
    expect(() => fleissKappa([['a'], ['b']])).toThrow(/at least 2 raters/);
  });
});
