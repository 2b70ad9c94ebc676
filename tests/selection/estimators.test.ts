import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditAgreement, poissonDifferenceEstimate, stratifiedDifferenceEstimate } from '../../src/selection/index.js';

// Expected values: tests/reference/selection/survey_reference.R (R survey 4.1.1: svymean with
// strata and fpc; svytotal under poisson_sampling).
const reference = JSON.parse(readFileSync(new URL('../reference/selection/survey.json', import.meta.url), 'utf8'));

describe('stratifiedDifferenceEstimate against R survey', () => {
  it('matches svymean(~d, svydesign(ids = ~1, strata = ~cell, fpc = ~N))', () => {
    const s = reference.stratified;
    const r = stratifiedDifferenceEstimate(s.cells, 0.95, 'pool');
    expect(r.estimate).toBeCloseTo(s.estimate, 12);
    expect(r.standardError).toBeCloseTo(s.standardError, 12);
    expect(r.confidenceInterval[0]).toBeCloseTo(s.interval[0], 10);
    expect(r.confidenceInterval[1]).toBeCloseTo(s.interval[1], 10);
  });

  it('population estimand matches svymean on the twophase design', () => {
    const s = reference.stratified;
    const r = stratifiedDifferenceEstimate(s.cells);
    expect(r.estimand).toBe('population');
    expect(r.estimate).toBeCloseTo(s.populationEstimate, 12);
    expect(r.standardError).toBeCloseTo(s.populationStandardError, 12);
    expect(r.poolStandardError).toBeCloseTo(s.standardError, 12);
  });

  it('fully labelled: the population SE is the paired SE with divisor N', () => {
    const d = [1, 0, -1, 1, 1, 0];
    const r = stratifiedDifferenceEstimate([{ cell: 'all', size: 6, differences: d }]);
    const mean = 1 / 3;
    const sd0 = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / 6);
    expect(r.poolStandardError).toBe(0);
    expect(r.standardError).toBeCloseTo(sd0 / Math.sqrt(6), 14);
  });

  it('the JSDoc example: (3/10)·(1/3) + (7/10)·0 = 0.1', () => {
    const r = stratifiedDifferenceEstimate([{ cell: 'disagree', size: 3, differences: [1, -1, 1] }, { cell: 'agree', size: 7, differences: [0, 0] }]);
    expect(r.estimate).toBeCloseTo(0.1, 15);
    // the disagree cell is fully labelled and the agree cell constant: no subsampling variance
    expect(r.poolStandardError).toBe(0);
  });

  it('an unlabelled cell or a lonely label gives NaN with a warning', () => {
    const r = stratifiedDifferenceEstimate([{ cell: 'a', size: 3, differences: [] }, { cell: 'b', size: 2, differences: [1, 0] }]);
    expect(r.estimate).toBeNaN();
    expect(r.warnings[0]).toMatch(/cell a: none of its 3 items/);
    const lonely = stratifiedDifferenceEstimate([{ cell: 'a', size: 3, differences: [1] }]);
    expect(lonely.standardError).toBeNaN();
    expect(lonely.warnings[0]).toMatch(/1 labelled item of 3/);
    expect(() => stratifiedDifferenceEstimate([{ cell: 'a', size: 1, differences: [1, 0] }])).toThrow(/2 labelled items but only 1/);
  });
});

describe('poissonDifferenceEstimate against R survey', () => {
  const p = reference.poisson;
  const rows = p.rows as Array<{ inclusionProbability: number; difference?: number; prediction: number }>;
  it('Horvitz–Thompson without a judge (λ = 0)', () => {
    const r = poissonDifferenceEstimate(rows.map(({ inclusionProbability, difference }) => ({ inclusionProbability, difference })));
    expect(r.lambda).toBe(0);
    expect(r.estimate).toBeCloseTo(p.ht.estimate, 12);
    expect(r.poolStandardError).toBeCloseTo(p.ht.standardError, 12);
    expect(r.standardError).toBeCloseTo(p.ht.populationStandardError, 12);
  });
  it('with the judge at a fixed λ = 0.8', () => {
    const r = poissonDifferenceEstimate(rows, { lambda: 0.8, estimand: 'pool' });
    expect(r.estimate).toBeCloseTo(p.fixed.estimate, 12);
    expect(r.standardError).toBeCloseTo(p.fixed.standardError, 12);
  });
  it('with the tuned λ', () => {
    const r = poissonDifferenceEstimate(rows, { estimand: 'pool' });
    expect(r.lambdaTuned).toBe(true);
    expect(r.lambda).toBeCloseTo(p.tuned.lambda, 12);
    expect(r.estimate).toBeCloseTo(p.tuned.estimate, 12);
    expect(r.standardError).toBeCloseTo(p.tuned.standardError, 12);
    expect(r.confidenceInterval[1]).toBeCloseTo(p.tuned.interval[1], 10);
    expect(poissonDifferenceEstimate(rows).standardError).toBeCloseTo(p.tuned.populationStandardError, 12);
  });
  it('refuses mixed predictions and bad probabilities', () => {
    expect(() => poissonDifferenceEstimate([{ inclusionProbability: 0.5, prediction: 1 }, { inclusionProbability: 0.5 }])).toThrow(/every row or none/);
    expect(() => poissonDifferenceEstimate([{ inclusionProbability: 0 }])).toThrow(/inclusion probability must be in \(0, 1\]/);
    expect(poissonDifferenceEstimate([{ inclusionProbability: 0.5, difference: 1 }, { inclusionProbability: 0.5 }]).estimate).toBe(1);
  });
});

describe('auditAgreement', () => {
  it('counts agreeing items with a non-zero difference', () => {
    const a = auditAgreement([{ item: 'x', difference: 0 }, { item: 'y', difference: 1 }, { item: 'z', difference: -0.5 }]);
    expect(a).toEqual({ audited: 3, differing: 2, examples: ['y', 'z'], assumptionFailed: true });
    expect(auditAgreement([{ item: 'x', difference: 0 }]).assumptionFailed).toBe(false);
  });
});

describe('stratifiedDifferenceEstimate with clusters', () => {
  const c = reference.clustered;
  it('every item labelled: the cluster-robust SE of svymean(~d, svydesign(ids = ~doc))', () => {
    const r = stratifiedDifferenceEstimate(c.full.cells);
    expect(r.estimate).toBeCloseTo(c.full.estimate, 12);
    expect(r.standardError).toBeCloseTo(c.full.standardError, 12);
    expect(r.poolStandardError).toBe(0);
  });
  it('partly labelled: cluster sums of the weighted residuals plus the subsampling variance (R, by hand)', () => {
    const r = stratifiedDifferenceEstimate(c.partial.cells);
    expect(r.estimate).toBeCloseTo(c.partial.estimate, 12);
    expect(r.standardError).toBeCloseTo(c.partial.standardError, 12);
    expect(r.poolStandardError).toBeCloseTo(c.partial.poolStandardError, 12);
    expect(r.nClusters).toBe(c.partial.nClusters);
  });
  it('refuses clusters on some cells only', () => {
    expect(() => stratifiedDifferenceEstimate([{ cell: 'a', size: 2, differences: [1, 0], clusters: ['x', 'y'] }, { cell: 'b', size: 2, differences: [1, 0] }])).toThrow(/every labelled item of every cell/);
  });
});
