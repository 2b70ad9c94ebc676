import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { smallStrataVariance } from '../../src/strata/small-strata-variance.js';
import { smallStrataInterval } from '../../src/strata/small-strata-interval.js';
import { stratifiedHeadlines } from '../../src/strata/headlines.js';

// tests/reference/strata-small/strata_small_reference.R (R survey + an independent hand computation in R).
const ref = JSON.parse(readFileSync(new URL('../reference/strata-small/strata-small.json', import.meta.url), 'utf8'));

describe('smallStrataInterval against R', () => {
  for (const name of ['large', 'equal', 'varying']) {
    it(`case "${name}": estimate, variance, Satterthwaite df and interval`, () => {
      const c = ref[name];
      const r = smallStrataInterval(c.values, Int32Array.from(c.strata), c.weights);
      expect(r.estimate).toBeCloseTo(c.expected.estimate, 12);
      expect(r.standardError ** 2).toBeCloseTo(c.expected.variance, 12);
      expect(r.df).toBeCloseTo(c.expected.df, 8);
      expect(r.confidenceInterval[0]).toBeCloseTo(c.expected.interval[0], 8);
      expect(r.confidenceInterval[1]).toBeCloseTo(c.expected.interval[1], 8);
    });
  }
  it('no small stratum: the variance is R survey svymean\'s', () => {
    const c = ref.large;
    expect(smallStrataInterval(c.values, Int32Array.from(c.strata), c.weights).standardError ** 2).toBeCloseTo(c.expected.surveyVariance, 14);
    expect(smallStrataInterval(c.values, Int32Array.from(c.strata), c.weights).warnings).toEqual([]);
  });
  it('a 5-item stratum of equal differences at 30% traffic: the pooled variance stands in, a warning says so, and V > survey\'s', () => {
    const c = ref.equal;
    const r = smallStrataInterval(c.values, Int32Array.from(c.strata), c.weights, { strataNames: ['routine', 'edge', 'rare'] });
    expect(r.standardError ** 2).toBeGreaterThan(c.expected.surveyVariance);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/stratum "rare" has only 5 items and carries 30% of the weight: its 5 values are all equal/);
  });
  it('a small stratum that varies more than the pool keeps its own variance on n − 1 df', () => {
    const c = ref.varying;
    const v = smallStrataVariance([
      { weight: 0.5, n: 40, variance: 0.2 },
      { weight: 0.3, n: 4, variance: 1 },
    ]);
    expect(v.parts[1]).toMatchObject({ varianceUsed: 1, df: 3, pooled: false });
    expect(smallStrataInterval(c.values, Int32Array.from(c.strata), c.weights).warnings[0]).toMatch(/rests on 3 degrees of freedom/);
  });
  it('the JSDoc examples', () => {
    expect(smallStrataVariance([{ weight: 0.7, n: 60, variance: 0.2 }, { weight: 0.3, n: 5, variance: 0 }]).parts[1].varianceUsed).toBe(0.1873015873015873);
    expect(smallStrataInterval([1, 0, 1, 0, 1, 1, 1, 1], Int32Array.from([0, 0, 0, 0, 1, 1, 1, 1]), [0.5, 0.5]).df).toBeCloseTo(6, 12);
  });
  it('no stratum varies: no interval and the reason, never a point', () => {
    const r = smallStrataInterval([1, 1, 0, 0, 0], Int32Array.from([0, 0, 1, 1, 1]), [0.5, 0.5]);
    expect(r.confidenceInterval.every(Number.isNaN)).toBe(true);
    expect(r.noInterval).toMatch(/cannot support an interval/);
  });
  it('bad input throws with the value', () => {
    expect(() => smallStrataInterval([1, 2], Int32Array.from([0, 1]), [0.5, 0.5, 0])).not.toThrow();
    expect(() => smallStrataInterval([1, 2], Int32Array.from([0, 0]), [0.5, 0.5])).toThrow(/weight 0.5 but no items/);
    expect(() => smallStrataInterval([1, Number.NaN], Int32Array.from([0, 0]), [1])).toThrow(/values\[1\]/);
    expect(() => smallStrataVariance([{ weight: -1, n: 3, variance: 1 }])).toThrow(/weight must be a finite number ≥ 0 \(got -1\)/);
  });
});

describe('headline differences with a small stratum (issue 25 item 4)', () => {
  // The design: strata of 60/30/5 items at traffic 60/10/30%, the 5-item stratum agreeing on every item.
  const c = ref.equal;
  const a = c.values.map((d: number) => (d === 1 ? 1 : d === -1 ? 0 : 1));
  const b = c.values.map((d: number) => (d === 1 ? 0 : d === -1 ? 1 : 1));
  const data = { models: ['A', 'B'], scores: [a, b], stratum: Int32Array.from(c.strata), strata: ['routine', 'edge', 'rare'] };
  const weights = [{ stratum: 'routine', weight: 0.6 }, { stratum: 'edge', weight: 0.1 }, { stratum: 'rare', weight: 0.3 }];
  it('auto uses the small-strata interval, says why, and warns on the difference itself', () => {
    const r = stratifiedHeadlines(data, weights, { method: 'auto' });
    const d = r.differences[0];
    expect(d.methodUsed).toBe('satterthwaite-t');
    expect(d.methodReason).toMatch(/a weighted stratum has fewer than 10 items/);
    expect(d.interval[0]).toBeCloseTo(c.expected.interval[0], 8);
    expect(d.interval[1]).toBeCloseTo(c.expected.interval[1], 8);
    expect(d.df).toBeCloseTo(c.expected.df, 8);
    expect(d.warnings.join(' ')).toMatch(/stratum "rare" has only 5 items and carries 30% of the weight/);
  });
  it('a bootstrap method by name keeps its interval but warns that the small stratum\'s variance is taken as known', () => {
    const r = stratifiedHeadlines(data, weights, { method: 'percentile', nResamples: 499 });
    expect(r.differences[0].methodUsed).toBeUndefined();
    expect(r.differences[0].warnings.join(' ')).toMatch(/"rare" has only 5 items .* treats its variance as known/);
  });
});
