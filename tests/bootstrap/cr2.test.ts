import { describe, expect, it } from 'vitest';
import { cr2Interval, cr2StratifiedInterval } from '../../src/paired/index.js';
import reference from '../reference/cr2/cr2.json' with { type: 'json' };

/** Relative closeness: |a − b| ≤ tol · max(1, |b|). */
function close(actual: number, expected: number, tol = 1e-10): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

describe('cr2Interval against R clubSandwich coef_test(lm(d ~ 1), vcov = "CR2", test = "Satterthwaite")', () => {
  for (const c of reference.cases) {
    it(`${c.name}: ${c.nClusters} clusters, n = ${c.values.length}`, () => {
      for (const level of c.intervals) {
        const two = cr2Interval(c.values, c.clusters, { confidenceLevel: level.confidenceLevel });
        close(two.estimate, c.estimate);
        close(two.standardError, c.standardError);
        close(two.df, c.df);
        close(two.statistic, c.statistic);
        close(two.pValue, c.pValue);
        close(two.millerStandardError, c.millerStandardError);
        expect(two.nClusters).toBe(c.nClusters);
        close(two.confidenceInterval[0], level.twoSided[0]);
        close(two.confidenceInterval[1], level.twoSided[1]);
        const less = cr2Interval(c.values, c.clusters, { confidenceLevel: level.confidenceLevel, alternative: 'less' });
        expect(less.confidenceInterval[0]).toBe(-Infinity);
        close(less.confidenceInterval[1], level.lessHigh);
        close(less.pValue, c.pValueLess);
        const greater = cr2Interval(c.values, c.clusters, { confidenceLevel: level.confidenceLevel, alternative: 'greater' });
        close(greater.confidenceInterval[0], level.greaterLow);
        expect(greater.confidenceInterval[1]).toBe(Infinity);
        close(greater.pValue, c.pValueGreater);
      }
    });
  }
});

describe('cr2StratifiedInterval against clubSandwich linear_contrast(lm(d ~ 0 + stratum), vcov = "CR2")', () => {
  for (const c of reference.stratified) {
    it(c.name, () => {
      const r = cr2StratifiedInterval(c.values, c.clusters, c.strata, { weights: c.weights as unknown as Record<string, number>, confidenceLevel: c.confidenceLevel });
      close(r.estimate, c.estimate);
      close(r.standardError, c.standardError);
      close(r.standardError, c.seLinearContrast);
      close(r.df, c.df);
      close(r.confidenceInterval[0], c.confidenceInterval[0]);
      close(r.confidenceInterval[1], c.confidenceInterval[1]);
    });
  }
});

describe('cr2Interval: closed forms and degenerate cases', () => {
  it('the JSDoc example: G equal clusters give df = G − 1 (Pustejovsky & Tipton 2018, §3)', () => {
    close(cr2Interval([1, 2, 3, 4, 6, 8], ['a', 'a', 'b', 'b', 'c', 'c']).df, 2, 1e-14);
  });
  it('one item per cluster is HC2 = s²/n with df n − 1: the t interval', () => {
    // [1, 2, 3, 4]: s² = 5/3, SE = √(5/12); t(3, 0.975) = 3.182446305284263 (R qt(0.975, 3))
    const r = cr2Interval([1, 2, 3, 4], ['a', 'b', 'c', 'd']);
    close(r.standardError, Math.sqrt(5 / 12), 1e-14);
    close(r.df, 3, 1e-14);
    close(r.confidenceInterval[0], 2.5 - 3.182446305284263 * Math.sqrt(5 / 12), 1e-12);
  });
  it('the stratified JSDoc example', () => {
    expect(cr2StratifiedInterval([1, 2, 3, 4, 6, 8], ['a', 'a', 'b', 'b', 'c', 'c'], ['x', 'x', 'x', 'x', 'y', 'y'], { weights: { x: 0.5, y: 0.5 } }).estimate).toBe(4.75);
  });
  it('one cluster: NaN with a warning', () => {
    const r = cr2Interval([1, 2, 3], ['a', 'a', 'a']);
    expect(r.standardError).toBeNaN();
    expect(r.confidenceInterval[0]).toBeNaN();
    expect(r.warnings.join(' ')).toMatch(/at least two clusters/);
  });
  it('all-equal values: SE 0 and no interval (never the point [0, 0]), with the reason', () => {
    const r = cr2Interval([0, 0, 0, 0], ['a', 'a', 'b', 'b']);
    expect(r.standardError).toBe(0);
    expect(r.confidenceInterval[0]).toBeNaN();
    expect(r.confidenceInterval[1]).toBeNaN();
    expect(r.pValue).toBeNaN();
    expect(r.noInterval).toMatch(/every difference is the same/);
    expect(r.warnings.join(' ')).toMatch(/cannot support an interval/);
  });
  it('4 clusters whose totals cancel (items vary, every cluster mean 0): no interval, the reason names the clusters', () => {
    // Each document's differences sum to 0: T_g = 0 for all g, so V_CR2 = 0 though the items vary.
    const d = [1, -1, 0, 1, 0, -1, -1, 1, 0, 0, 1, -1];
    const cl = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'd', 'd', 'd'];
    const r = cr2Interval(d, cl);
    expect(r.estimate).toBe(0);
    expect(r.standardError).toBe(0);
    expect(r.confidenceInterval.every(Number.isNaN)).toBe(true);
    expect(r.noInterval).toMatch(/the 4 clusters' totals cancel/);
    // One more item that breaks the cancellation gives an ordinary interval and no reason.
    const r2 = cr2Interval([...d, 1], [...cl, 'd']);
    expect(r2.noInterval).toBeNull();
    expect(r2.confidenceInterval[1] - r2.confidenceInterval[0]).toBeGreaterThan(0);
  });
  it('totals that cancel only up to rounding count as cancelling', () => {
    const r = cr2Interval([0.1, 0.2, 0.3, 0.2, 0.1, 0.3], ['a', 'a', 'a', 'b', 'b', 'b']);
    expect(r.noInterval).not.toBeNull();
    expect(r.confidenceInterval[0]).toBeNaN();
  });
  it('bad input throws with the value', () => {
    expect(() => cr2Interval([1], ['a'])).toThrow(/at least two values \(got 1\)/);
    expect(() => cr2Interval([1, Number.NaN], ['a', 'b'])).toThrow(/values\[1\]/);
    expect(() => cr2Interval([1, 2], ['a'])).toThrow(/one id per value/);
    expect(() => cr2StratifiedInterval([1, 2, 3, 4], ['a', 'a', 'b', 'b'], ['x', 'y', 'y', 'y'])).toThrow(/cluster "a" spans two strata/);
    expect(() => cr2StratifiedInterval([1, 2, 3, 4], ['a', 'b', 'c', 'd'], ['x', 'x', 'y', 'y'], { weights: { x: 1 } })).toThrow(/weights\["y"\]/);
  });
});
