import { describe, expect, it } from 'vitest';
import { cr2Interval, cr2StratifiedInterval } from '../../src/bootstrap/index.js';
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
  it('all-equal values: SE 0, point interval, a warning', () => {
    const r = cr2Interval([0, 0, 0, 0], ['a', 'a', 'b', 'b']);
    expect(r.standardError).toBe(0);
    expect(r.confidenceInterval).toEqual([0, 0]);
    expect(r.warnings.join(' ')).toMatch(/standard error is 0/);
  });
  it('bad input throws with the value', () => {
    expect(() => cr2Interval([1], ['a'])).toThrow(/at least two values \(got 1\)/);
    expect(() => cr2Interval([1, Number.NaN], ['a', 'b'])).toThrow(/values\[1\]/);
    expect(() => cr2Interval([1, 2], ['a'])).toThrow(/one id per value/);
    expect(() => cr2StratifiedInterval([1, 2, 3, 4], ['a', 'a', 'b', 'b'], ['x', 'y', 'y', 'y'])).toThrow(/cluster "a" spans two strata/);
    expect(() => cr2StratifiedInterval([1, 2, 3, 4], ['a', 'b', 'c', 'd'], ['x', 'x', 'y', 'y'], { weights: { x: 1 } })).toThrow(/weights\["y"\]/);
  });
});
