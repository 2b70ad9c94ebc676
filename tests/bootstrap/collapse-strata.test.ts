import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { autoPairedInterval } from '../../src/paired/auto-interval.js';
import { collapseSmallStrata } from '../../src/paired/collapse-strata.js';
import { studentizedBootstrap, studentizedFromResamples } from '../../src/bootstrap/studentized.js';

// Reference: tests/reference/strata-collapse/collapse_reference.R (R boot + survey) → collapse.json:
// the collapse rule re-implemented in R, svymean's SE on the collapsed design, and
// boot.ci(type = "stud") with boot(strata = collapsed) on recorded resamples.
interface Case {
  name: [string];
  values: number[];
  strata: number[];
  groups: number[][];
  collapsedStrata: number[];
  estimate: [number];
  standardError: [number];
  confidenceLevel: [number];
  estimates: number[];
  standardErrors: number[];
  interval: [number, number];
}
const reference = JSON.parse(readFileSync(new URL('../reference/strata-collapse/collapse.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('collapseSmallStrata against the R re-implementation of the rule', () => {
  it.each(reference.cases.map((c) => [c.name[0], c] as const))('%s', (_name, c) => {
    const r = collapseSmallStrata(c.strata);
    expect(r.groups).toEqual(c.groups);
    expect(Array.from(r.strata)).toEqual(c.collapsedStrata);
    expect(r.collapsed).toBe(true);
  });

  it('strata of 3 or more items are left alone; minItems is checked', () => {
    const r = collapseSmallStrata([5, 5, 5, 2, 2, 2]);
    expect(r.groups).toEqual([[2], [5]]);
    expect(Array.from(r.strata)).toEqual([1, 1, 1, 0, 0, 0]);
    expect(r.collapsed).toBe(false);
    expect(collapseSmallStrata([0, 1]).groups).toEqual([[0, 1]]);
    expect(() => collapseSmallStrata([0], 0)).toThrow(/minItems/);
  });
});

describe('the stratified studentized bootstrap on collapsed strata against R survey and boot', () => {
  it.each(reference.cases.map((c) => [c.name[0], c] as const))('%s: svymean SE and boot.ci(type = "stud")', (_name, c) => {
    const r = studentizedBootstrap(c.values, { strata: collapseSmallStrata(c.strata).strata, nResamples: 99 });
    expect(r.estimate).toBeCloseTo(c.estimate[0], 12);
    expect(r.standardError).toBeCloseTo(c.standardError[0], 12);
    const ci = studentizedFromResamples(c.estimate[0], c.standardError[0], c.estimates, c.standardErrors, c.confidenceLevel[0], 'two-sided', 'boot');
    expect(ci[0]).toBeCloseTo(c.interval[0], 10);
    expect(ci[1]).toBeCloseTo(c.interval[1], 10);
  });

  it("auto collapses strata of fewer than 3 items, says so, and reports the collapsed design's SE", () => {
    const c = reference.cases[0];
    const zeros = c.values.map(() => 0);
    const r = autoPairedInterval(c.values, zeros, { strata: Int32Array.from(c.strata), nResamples: 499, seed: 3 });
    expect(r.methodUsed).toBe('studentized');
    expect(r.methodReason).toMatch(/collapsed into a neighbour \(#2 \+ #3\)/);
    expect(r.standardError).toBeCloseTo(c.standardError[0], 12);
    // the same as the stratified studentized bootstrap run on the collapsed labels by hand, resampling
    // rescaled values (bench/strata-variants-study.txt); not the plain one
    const byHand = studentizedBootstrap(c.values, { strata: Int32Array.from(c.collapsedStrata), nResamples: 499, seed: 3, rescale: true });
    expect(r.confidenceInterval).toEqual(byHand.confidenceInterval);
    const plain = studentizedBootstrap(c.values, { strata: Int32Array.from(c.collapsedStrata), nResamples: 499, seed: 3 });
    expect(r.confidenceInterval).not.toEqual(plain.confidenceInterval);
  });
});
