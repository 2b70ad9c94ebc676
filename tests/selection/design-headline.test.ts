import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DesignFile } from '../../src/data/design-file.js';
import { designDifference, designHeadline, designWeightedMean, poissonDifferenceEstimate, stratifiedDifferenceEstimate } from '../../src/selection/index.js';

// Expected values: tests/reference/selection/design_reference.R (R survey 4.1.1): svyby + svycontrast
// and svytotal on svydesign(strata = ~cell, fpc = ~M); svydesign(ids = ~doc, strata = ~cell, fpc = ~M)
// for whole-document sampling; poisson_sampling for the active design. The phase-1 (population)
// part is the two-phase formula coded by hand in R, and R's twophase() as a looser check.
const ref = JSON.parse(readFileSync(new URL('../reference/selection/design.json', import.meta.url), 'utf8'));
const labels = (rows: Array<{ item: string; a: number; b: number }>) => new Map(rows.map((r) => [r.item, { a: r.a, b: r.b }]));
const weightsOf = (t: Record<string, number>) => Object.entries(t).map(([stratum, weight]) => ({ stratum, weight }));

describe('designHeadline on a stratified item design, against R survey', () => {
  const A = ref.stratified;
  // survey's estimator as it is: no smoothing of constant cells (tested on its own below)
  const r = designHeadline(A.design as DesignFile, labels(A.labels), { weights: weightsOf(A.traffic), smoothConstantCells: false });
  const pairs = [
    ['a', r.models[0].headline],
    ['b', r.models[1].headline],
    ['d', r.difference],
  ] as const;
  it.each(pairs)('%s: estimate and pool SE = svycontrast(svyby(~y, ~stratum, ...), traffic)', (key, got) => {
    const want = A.results[key].headline;
    expect(got.estimate).toBeCloseTo(want.estimate, 12);
    expect(got.estimate).toBeCloseTo(want.totalEstimate, 12);
    expect(got.poolStandardError).toBeCloseTo(want.poolStandardError, 12);
    expect(got.poolStandardError).toBeCloseTo(want.totalStandardError, 12);
  });
  it.each(pairs)('%s: population SE = the two-phase formula (hand-coded in R), and within 1% of R twophase()', (key, got) => {
    const want = A.results[key].headline;
    expect(got.standardError).toBeCloseTo(want.standardError, 12);
    if (key === 'd') {
      expect(got.intervalMethod).toBe('wald');
      expect(got.interval[0]).toBeCloseTo(want.interval[0], 10);
      expect(got.interval[1]).toBeCloseTo(want.interval[1], 10);
    } else {
      // a candidate's own 0/1 headline: Korn–Graubard at this SE (the formula is checked against
      // svyciprop(method = "beta") in tests/strata), inside [0, 1]
      expect(got.intervalMethod).toBe('beta');
      expect(got.interval[0]).toBeGreaterThanOrEqual(0);
      expect(got.interval[1]).toBeLessThanOrEqual(1);
      expect(got.interval[0]).toBeLessThan(got.estimate);
      expect(got.interval[1]).toBeGreaterThan(got.estimate);
    }
    // twophase() estimates the phase-1 cross terms with the joint phase-2 probabilities; the
    // hand formula uses Σ w e² with N_s/(N_s − 1): they agree to well under 1% of the SE here.
    expect(Math.abs(got.standardError / want.twophaseStandardError - 1)).toBeLessThan(0.01);
  });
  it('per-stratum pool means and their SEs = svymean on the stratum subset', () => {
    for (const [k, m] of [['a', r.models[0]], ['b', r.models[1]]] as const) {
      A.results[k].strata.forEach((s: { stratum: string; estimate: number; poolStandardError: number }, h: number) => {
        expect(m.strata[h].stratum).toBe(s.stratum);
        expect(m.strata[h].estimate).toBeCloseTo(s.estimate, 12);
        expect(m.strata[h].poolStandardError).toBeCloseTo(s.poolStandardError, 12);
      });
    }
  });
  it('the difference is headline A − headline B', () => {
    expect(r.difference.estimate).toBeCloseTo(r.models[0].headline.estimate - r.models[1].headline.estimate, 14);
  });
  it('pool-share weights give compare --design\'s point estimate', () => {
    const pool = designHeadline(A.design as DesignFile, labels(A.labels));
    const diff = new Map(A.labels.map((l: { item: string; a: number; b: number }) => [l.item, l.a - l.b]));
    const cd = designDifference(A.design as DesignFile, diff as Map<string, number>, 0.95);
    expect(pool.weighting).toBe('pool');
    expect(pool.difference.estimate).toBeCloseTo(cd.estimate, 14);
    expect(pool.difference.poolStandardError).toBeCloseTo(cd.poolStandardError, 14);
  });
  it('refuses weights that miss a stratum, cover a stratum the pool lacks, or do not sum to 1', () => {
    const d = A.design as DesignFile;
    const l = labels(A.labels);
    expect(() => designHeadline(d, l, { weights: [{ stratum: 'routine', weight: 1 }] })).toThrow(/"rare" has 50 pool items but no traffic share/);
    expect(() => designHeadline(d, l, { weights: [...weightsOf(A.traffic).map((w) => ({ ...w, weight: w.weight * 0.9 })), { stratum: 'ghost', weight: 0.1 }] })).toThrow(/"ghost" has traffic share 0.1 but no item in the pool/);
    expect(() => designHeadline(d, l, { weights: weightsOf(A.traffic).map((w) => ({ ...w, weight: w.weight / 2 })) })).toThrow(/must sum to 1 \(got 0.5\)/);
  });
});

describe('the beta-smoothed interval of a candidate\'s own 0/1 headline (the default), against R', () => {
  // Expected: tests/reference/selection/headline_beta_smoothed.R on the same case (the formula in R,
  // Clopper–Pearson by qbeta at the effective size n* = p̃(1 − p̃)/Ṽ · (t(n − 1)/t(n − H))²).
  const A = ref.stratified;
  const bs = JSON.parse(readFileSync(new URL('../reference/selection/headline_beta_smoothed.json', import.meta.url), 'utf8'));
  const r = designHeadline(A.design as DesignFile, labels(A.labels), { weights: weightsOf(A.traffic) });
  it.each([
    ['a', 0],
    ['b', 1],
  ] as const)('%s: interval = R\'s', (key, k) => {
    const got = r.models[k].headline;
    expect(got.intervalMethod).toBe('beta-smoothed');
    expect(got.estimate).toBeCloseTo(bs.results[key].estimate, 12);
    expect(got.interval[0]).toBeCloseTo(bs.results[key].interval[0], 8);
    expect(got.interval[1]).toBeCloseTo(bs.results[key].interval[1], 8);
  });
  it('is wider than svyciprop(method = "beta") on the one-phase design, and the plain beta stays available', () => {
    const plain = designHeadline(A.design as DesignFile, labels(A.labels), { weights: weightsOf(A.traffic), smoothConstantCells: false });
    expect(plain.models[0].headline.intervalMethod).toBe('beta');
    const [lo, hi] = r.models[0].headline.interval;
    expect(lo).toBeLessThan(bs.results.a.svycipropBetaOnePhase[0]);
    expect(hi).toBeGreaterThan(bs.results.a.svycipropBetaOnePhase[1]);
  });
});

describe('a constant 0/1 cell in a candidate\'s own headline', () => {
  // Hand derivation: one stratum, two cells. "d" (4 items) fully labelled: A = 1, 0, 1, 1.
  // "a" (10 items) 4 labelled, all 1: ȳ_a = 1, s² = 0. Jeffreys: p̃ = (4 + ½)/(4 + 1) = 0.9,
  // s̃² = 0.09; with a = 1/14, V₂ = 10² (1 − 4/10) · 0.09 / 4 · (1/14)² = 1.35 / 196.
  const rows = [...['d1', 'd2', 'd3', 'd4'].map((item) => ({ item, cell: 'd', kind: 'disagree' as const, selected: true, inclusionProbability: 1 })), ...Array.from({ length: 10 }, (_, k) => ({ item: `a${k}`, cell: 'a', kind: 'agree' as const, selected: k < 4, inclusionProbability: 0.4 }))];
  const design = { kind: 'benchplan-selection-design', version: 1, pool: 'p', a: 'A', b: 'B', method: 'disagreement', sampling: 'stratified', equality: 'e', budget: 8, auditShare: 0.1, seed: '0', poolSize: 14, selected: 8, cells: [{ cell: 'd', stratum: '', kind: 'disagree', size: 4, sampled: 4, inclusionProbability: 1 }, { cell: 'a', stratum: '', kind: 'agree', size: 10, sampled: 4, inclusionProbability: 0.4 }], rows: rows.map((r) => ({ ...r, stratum: '' })) } as DesignFile;
  const scores = new Map([['d1', { a: 1, b: 0 }], ['d2', { a: 0, b: 1 }], ['d3', { a: 1, b: 0 }], ['d4', { a: 1, b: 1 }], ...[0, 1, 2, 3].map((k) => [`a${k}`, { a: 1, b: 1 }] as [string, { a: number; b: number }])]);
  it('gets the Jeffreys variance p̃(1 − p̃), p̃ = (x + ½)/(m + 1), and a warning; the difference is not smoothed', () => {
    const r = designHeadline(design, scores);
    expect(r.models[0].headline.estimate).toBeCloseTo(13 / 14, 14);
    expect(r.models[0].headline.poolStandardError).toBeCloseTo(Math.sqrt(1.35 / 196), 14);
    expect(r.warnings.join('\n')).toMatch(/A: every labelled item of cell a has the same score; for 0\/1 scores/);
    expect(r.difference.poolStandardError).toBe(0);
    const plain = designHeadline(design, scores, { smoothConstantCells: false });
    expect(plain.models[0].headline.poolStandardError).toBe(0);
  });
});

describe('cluster design (whole documents) against R survey', () => {
  const B = ref.cluster;
  const design = B.design as DesignFile;
  it('compare --design: svytotal(~I(d / N), svydesign(ids = ~doc, strata = ~cell, fpc = ~M)) plus phase 1 by document', () => {
    const diff = new Map<string, number>(B.labels.map((l: { item: string; a: number; b: number }) => [l.item, l.a - l.b]));
    const r = designDifference(design, diff, 0.95);
    const want = B.results.d.pool;
    expect(r.estimator).toBe('cluster-horvitz-thompson');
    expect(r.estimate).toBeCloseTo(want.estimate, 12);
    expect(r.poolStandardError).toBeCloseTo(want.poolStandardError, 12);
    expect(r.standardError).toBeCloseTo(want.standardError, 12);
    // t interval with R's degf(design) = sampled documents − cells
    expect(r.degreesOfFreedom).toBe(want.degf);
    expect(r.interval[0]).toBeCloseTo(want.tInterval[0], 10);
    expect(r.interval[1]).toBeCloseTo(want.tInterval[1], 10);
  });
  it('traffic-weighted headlines: svytotal(~I(y · T_s / N_s), same design)', () => {
    const r = designHeadline(design, labels(B.labels), { weights: weightsOf(B.traffic), smoothConstantCells: false });
    for (const [k, got] of [['a', r.models[0].headline], ['b', r.models[1].headline], ['d', r.difference]] as const) {
      const want = B.results[k].traffic;
      expect(got.estimate).toBeCloseTo(want.estimate, 12);
      expect(got.poolStandardError).toBeCloseTo(want.poolStandardError, 12);
      expect(got.standardError).toBeCloseTo(want.standardError, 12);
    }
    expect(r.difference.interval[0]).toBeCloseTo(B.results.d.traffic.tInterval[0], 10);
    expect(r.difference.interval[1]).toBeCloseTo(B.results.d.traffic.tInterval[1], 10);
    expect(r.estimator).toBe('cluster-horvitz-thompson');
  });
  it('every document labelled: the SE is svymean(~d, svydesign(ids = ~doc))', () => {
    const all = { ...design, rows: design.rows.map((x) => ({ ...x, selected: true })), cells: design.cells.map((c) => ({ ...c, sampled: c.size })) };
    const diff = new Map<string, number>(B.fullyLabelled.labels.map((l: { item: string; a: number; b: number }) => [l.item, l.a - l.b]));
    const r = designDifference(all, diff, 0.95);
    expect(r.estimate).toBeCloseTo(B.fullyLabelled.estimate, 12);
    expect(r.poolStandardError).toBe(0);
    expect(r.standardError).toBeCloseTo(B.fullyLabelled.standardError, 12);
  });
  it('refuses a chosen document labelled only in part', () => {
    const diff = new Map<string, number>(B.labels.map((l: { item: string; a: number; b: number }) => [l.item, l.a - l.b]));
    diff.delete(B.labels[0].item);
    expect(() => designDifference(design, diff, 0.95)).toThrow(/labelled only in part|items without a label/);
  });
});

describe('designHeadline on a Poisson (active) design against R survey', () => {
  const C = ref.poisson;
  it('svytotal(~I(a · y), svydesign(probs = ~pi, pps = poisson_sampling(pi)))', () => {
    const r = designHeadline(C.design as DesignFile, labels(C.labels), { weights: weightsOf(C.traffic), smoothConstantCells: false });
    for (const [k, got] of [['a', r.models[0].headline], ['b', r.models[1].headline], ['d', r.difference]] as const) {
      expect(got.estimate).toBeCloseTo(C.results[k].estimate, 12);
      expect(got.poolStandardError).toBeCloseTo(C.results[k].poolStandardError, 12);
    }
    expect(r.estimator).toBe('horvitz-thompson');
  });
});

describe('designWeightedMean reduces to the item estimators (a_i = 1/N, one group)', () => {
  const sref = JSON.parse(readFileSync(new URL('../reference/selection/survey.json', import.meta.url), 'utf8'));
  it('stratified: stratifiedDifferenceEstimate (R svymean / twophase)', () => {
    const cells = sref.stratified.cells as Array<{ cell: string; size: number; differences: number[] }>;
    const N = cells.reduce((s, c) => s + c.size, 0);
    const rows = cells.flatMap((c) => Array.from({ length: c.size }, (_, k) => ({ weight: 1 / N, value: c.differences[k], inclusionProbability: c.differences.length / c.size, cell: c.cell, unit: `${c.cell}:${k}`, group: '' })));
    const r = designWeightedMean(rows, { sampling: 'stratified', cellSizes: new Map(cells.map((c) => [c.cell, c.size])) });
    const s = stratifiedDifferenceEstimate(cells);
    expect(r.estimate).toBeCloseTo(sref.stratified.populationEstimate, 12);
    expect(r.standardError).toBeCloseTo(sref.stratified.populationStandardError, 12);
    expect(r.poolStandardError).toBeCloseTo(s.poolStandardError, 14);
  });
  it('poisson: poissonDifferenceEstimate without a judge', () => {
    const rows = sref.poisson.rows as Array<{ inclusionProbability: number; difference?: number }>;
    const N = rows.length;
    const r = designWeightedMean(rows.map((x, i) => ({ weight: 1 / N, value: x.difference, inclusionProbability: x.inclusionProbability, cell: 'all', unit: String(i), group: '' })), { sampling: 'poisson' });
    const p = poissonDifferenceEstimate(rows.map(({ inclusionProbability, difference }) => ({ inclusionProbability, difference })));
    expect(r.estimate).toBeCloseTo(sref.poisson.ht.estimate, 12);
    expect(r.poolStandardError).toBeCloseTo(sref.poisson.ht.standardError, 12);
    expect(r.standardError).toBeCloseTo(p.standardError, 14);
  });
  it('the JSDoc example', () => {
    expect(designWeightedMean([{ weight: 0.5, value: 1, inclusionProbability: 1, cell: 'c', unit: 'x', group: '' }, { weight: 0.5, value: 0, inclusionProbability: 1, cell: 'c', unit: 'y', group: '' }], { sampling: 'stratified', cellSizes: new Map([['c', 2]]) }).estimate).toBe(0.5);
  });
});
