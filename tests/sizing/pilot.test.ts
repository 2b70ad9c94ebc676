import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScores, loadStrata, pairScores, scoresFromRows, strataFromSpec, type PairedScores } from '../../src/data/index.js';
import { clusterDesign, sizeFromPilot, stratifiedVariance, type PilotSizing } from '../../src/sizing/index.js';
import { bootstrapMeanDifference } from '../../src/bootstrap/index.js';

// numpy / scipy / statsmodels: tests/reference/sizing/pilot.py; R survey: tests/reference/sizing/pilot.R.
const py = JSON.parse(readFileSync(new URL('../reference/sizing/pilot.json', import.meta.url), 'utf8'));
const r = JSON.parse(readFileSync(new URL('../reference/sizing/pilot-r.json', import.meta.url), 'utf8'));

let pilot: PairedScores;
let sized: PilotSizing;
beforeAll(async () => {
  pilot = pairScores(await loadScores('examples/pilot.csv'), 'candidate', 'baseline');
  sized = sizeFromPilot(pilot, { mde: 5, budget: 400, perStratum: true, strata: loadStrata('examples/strata.yaml') });
});

describe('sizeFromPilot on examples/pilot.csv (numpy: var(d, ddof=1); scipy chi2.ppf; statsmodels solve_power)', () => {
  const b = py.bundled;
  it('gives the variance of differences and the interval-width count', () => {
    expect(sized.pilotItems).toBe(b.pilotItems);
    expect(sized.meanDifference).toBeCloseTo(b.meanDifference, 12);
    expect(sized.varianceOfDifference).toBeCloseTo(b.varianceOfDifference, 10);
    expect(sized.nExact).toBeCloseTo(b.nExact, 9);
    expect(sized.n).toBe(b.n);
  });
  it('gives the power count (statsmodels solve_power, its own tolerance 1e-5)', () => {
    expect(Math.abs(sized.nForPowerExact - b.nForPowerExact)).toBeLessThan(1e-5);
    expect(sized.nForPower).toBe(Math.ceil(b.nForPowerExact));
  });
  it('gives the chi-square interval of the variance and the count at its upper end', () => {
    expect(sized.varianceInterval[0]).toBeCloseTo(b.varianceInterval[0], 9);
    expect(sized.varianceInterval[1]).toBeCloseTo(b.varianceInterval[1], 9);
    expect(sized.nUpper).toBe(b.nUpper);
    expect(sized.nUpper).toBeGreaterThan(sized.n);
  });
  it('gives the gap the budget resolves: 2z√(v/400)', () => {
    expect(sized.mdeAtBudget).toBeCloseTo(b.mdeAtBudget, 12);
    expect(sized.mdeForPowerAtBudget).toBeLessThan(sized.mdeAtBudget!);
  });
  it('sizes each stratum on its own variance', () => {
    expect(sized.strata!.map((s) => s.stratum)).toEqual(b.strata.map((s: { stratum: string }) => s.stratum));
    sized.strata!.forEach((s, h) => {
      const want = b.strata[h];
      expect(s.pilotItems).toBe(want.pilotItems);
      expect(s.meanDifference).toBeCloseTo(want.meanDifference, 12);
      expect(s.varianceOfDifference).toBeCloseTo(want.varianceOfDifference, 10);
      expect(s.varianceInterval[1]).toBeCloseTo(want.varianceInterval[1], 9);
      expect([s.n, s.nForPower, s.nUpper]).toEqual([want.n, want.nForPower, want.nUpper]);
    });
  });
  it('gives what the planned allocation buys, for both estimators', () => {
    const plan = sized.plan!;
    expect(plan.budget).toBe(400);
    expect(plan.quotaWeighted.perItemVariance).toBeCloseTo(b.plan.quotaPerItemVariance, 10);
    expect(plan.quotaWeighted.n).toBe(b.plan.quotaN);
    expect(plan.quotaWeighted.variance).toBeCloseTo(b.plan.quotaVarianceAtBudget, 12);
    expect(plan.trafficReweighted!.perItemVariance).toBeCloseTo(b.plan.trafficPerItemVariance, 10);
    expect(plan.trafficReweighted!.n).toBe(b.plan.trafficN);
    expect(plan.trafficReweighted!.variance).toBeCloseTo(b.plan.trafficVarianceAtBudget, 12);
    expect(plan.pilotMixDistance).toBeCloseTo(b.plan.pilotMixDistance, 12);
  });
  it('warns that the blended pilot variance sizes a mix the plan will not have', () => {
    expect(sized.warnings.some((w) => /stratum mix differs from the planned quotas/.test(w))).toBe(true);
    expect(sized.plan!.warnings[0]).toContain(`n = ${b.n}`);
    expect(sized.plan!.warnings[0]).toContain(`n = ${b.plan.quotaN}`);
  });
  it('echoes its settings and keeps plain JSON-able fields', () => {
    expect(sized).toMatchObject({ method: 'pilot-sizing', a: 'candidate', b: 'baseline', mde: 5, confidenceLevel: 0.95, power: 0.8, budget: 400 });
    expect(JSON.parse(JSON.stringify(sized)).curve[0]).toEqual(sized.curve[0]);
  });
});

describe('design-based variances against R survey', () => {
  it('stratifiedVariance with the pilot’s own mix is svymean’s SE² on a stratified design', () => {
    const s = sized.strata!;
    const n = s.map((x) => x.pilotItems);
    const total = n.reduce((a, c) => a + c, 0);
    const v = stratifiedVariance(n.map((x) => x / total), s.map((x) => x.varianceOfDifference), n);
    expect(v).toBeCloseTo(r.stratified.quotaWeightedVariance, 12);
  });
  it('stratifiedVariance with traffic weights is svymean’s SE² with weights traffic_h / n_h', () => {
    const s = sized.strata!;
    const traffic = sized.plan!.strata.map((x) => x.traffic!);
    const v = stratifiedVariance(traffic, s.map((x) => x.varianceOfDifference), s.map((x) => x.pilotItems));
    expect(v).toBeCloseTo(r.stratified.trafficWeightedVariance, 12);
  });
  it('clusterDesign’s Var(mean) is Miller’s clustered variance (survey’s SE² with ids = ~cluster, less C/(C − 1), plus s²/N²), and deff its ratio to the SRS SE²', async () => {
    // Expected values re-derived with Miller's convention (no C/(C − 1)) by tests/reference/sizing/pilot.R:
    // millerVarianceOfMean = Σ_c e_c²/N² + Σ_i (d_i − d̄)²/(N²(N − 1)), checked there against
    // (C − 1)/C · SE²(svydesign(ids = ~cluster)) + SE²(svydesign(ids = ~1)) / N. deff = 1.28954 (survey's
    // convention gave 1.29519, which `size` reported before it shared compare's function).
    const paired = pairScores(await loadScores('examples/scores.csv'), 'alpha', 'beta');
    const design = clusterDesign(paired.differences, paired.cluster!, paired.clusters.length);
    expect(design.clusters).toBe(r.clustered.clusters);
    expect(design.varianceOfMean).toBeCloseTo(r.clustered.millerVarianceOfMean, 15);
    expect(design.designEffect).toBeCloseTo(r.clustered.millerVarianceOfMean / r.clustered.srsVarianceOfMean, 12);
    const G = r.clustered.clusters;
    expect(design.varianceOfMean).toBeCloseTo(((G - 1) / G) * r.clustered.varianceOfMean + r.clustered.srsVarianceOfMean / r.clustered.items, 15);
  });
  it('size and compare report the same design effect on the same data (one clustered-variance function)', async () => {
    const paired = pairScores(await loadScores('examples/scores.csv'), 'alpha', 'beta');
    const design = clusterDesign(paired.differences, paired.cluster!, paired.clusters.length);
    const compared = bootstrapMeanDifference(paired.scoreA, paired.scoreB, { cluster: paired.cluster, method: 't' });
    expect(Math.abs(design.designEffect - compared.designEffect!)).toBeLessThan(1e-12);
    expect(Math.abs(design.varianceOfMean - compared.clusteredStandardError! ** 2)).toBeLessThan(1e-17);
  });
});

describe('clustered pilots', () => {
  it('size with the effective variance deff·s², in items and in clusters', async () => {
    const paired = pairScores(await loadScores('examples/scores.csv'), 'alpha', 'beta');
    const out = sizeFromPilot(paired, { mde: 0.05, budget: 400 });
    const c = out.clusters!;
    const deff = r.clustered.millerVarianceOfMean / r.clustered.srsVarianceOfMean;
    expect(out.sizingVariance).toBeCloseTo(deff * out.varianceOfDifference, 12);
    // By hand: n = ceil(deff·s²·(2z/mde)²); clusters = ceil(n_exact / m̄), m̄ = 400/159.
    const z = 1.959963984540054;
    const nExact = deff * out.varianceOfDifference * ((2 * z) / 0.05) ** 2;
    expect(out.n).toBe(Math.ceil(nExact));
    expect(c.nClusters).toBe(Math.ceil(nExact / (400 / 159)));
    expect(c.nIgnoringClusters).toBe(Math.ceil(out.varianceOfDifference * ((2 * z) / 0.05) ** 2));
    expect(out.n).toBeGreaterThan(c.nIgnoringClusters);
    // The chi-square interval uses clusters − 1 degrees of freedom.
    expect(out.varianceInterval[1]).toBeGreaterThan(out.sizingVariance);
  });
  it('ignores clusters when asked', async () => {
    const paired = pairScores(await loadScores('examples/scores.csv'), 'alpha', 'beta');
    const out = sizeFromPilot(paired, { mde: 0.05, ignoreClusters: true });
    expect(out.clusters).toBeNull();
    expect(out.sizingVariance).toBe(out.varianceOfDifference);
  });
});

describe('repeats (Miller 2024): between- and within-item variance, n by K', () => {
  it('matches the numpy decomposition of tests/reference/sizing/pilot-repeats.csv', async () => {
    const want = py.repeats;
    const paired = pairScores(await loadScores(want.file), 'candidate', 'baseline');
    const out = sizeFromPilot(paired, { mde: want.mde });
    const rep = out.repeats!;
    expect(out.varianceOfDifference).toBeCloseTo(want.varianceOfDifference, 12);
    expect(rep.withinVarianceA).toBeCloseTo(want.withinVarianceA, 12);
    expect(rep.withinVarianceB).toBeCloseTo(want.withinVarianceB, 12);
    expect(rep.withinVarianceOfDifference).toBeCloseTo(want.withinVarianceOfDifference, 12);
    expect(rep.betweenItemVariance).toBeCloseTo(want.betweenItemVariance, 12);
    expect(rep.byRepeats.map((row) => row.repeats)).toEqual(want.byRepeats.map((row: { repeats: number }) => row.repeats));
    rep.byRepeats.forEach((row, k) => {
      expect(row.perItemVariance).toBeCloseTo(want.byRepeats[k].perItemVariance, 12);
      expect([row.n, row.nForPower]).toEqual([want.byRepeats[k].n, want.byRepeats[k].nForPower]);
      expect(row.runs).toBe(row.n * row.repeats);
    });
    expect(rep.nLimit).toBe(want.nLimit);
    // At the pilot's own K = 4 the per-item variance is the pilot's variance of differences.
    expect(rep.byRepeats.find((row) => row.repeats === 4)!.n).toBe(out.n);
  });
  it('floors a negative between-item estimate at 0 with a warning', () => {
    // Item means agree exactly (d = 0 on every item) while repeats vary: all spread is repeat noise.
    const rows = ['x', 'y', 'z'].flatMap((item) =>
      ['a', 'b'].flatMap((model) => [0, 1].map((k) => ({ item, model, repeat: k, score: k }))),
    );
    const out = sizeFromPilot(pairScores(scoresFromRows(rows), 'a', 'b'), { mde: 0.1 });
    expect(out.repeats!.betweenItemVariance).toBe(0);
    expect(out.warnings.some((w) => /repeat noise .* exceeds/.test(w))).toBe(true);
  });
});

describe('degenerate and small pilots', () => {
  const pair = (diffs: number[], strata?: string[]) =>
    pairScores(
      scoresFromRows(diffs.flatMap((d, i) => [
        { item: `i${i}`, model: 'a', score: d, ...(strata ? { stratum: strata[i] } : {}) },
        { item: `i${i}`, model: 'b', score: 0, ...(strata ? { stratum: strata[i] } : {}) },
      ])),
      'a',
      'b',
    );
  it('gives NaN counts and a warning when every difference is the same', () => {
    const out = sizeFromPilot(pair([1, 1, 1, 1]), { mde: 1 });
    expect(out.n).toBeNaN();
    expect(out.nForPower).toBeNaN();
    expect(out.warnings.some((w) => /no spread/.test(w))).toBe(true);
  });
  it('warns about a small pilot and a stratum with fewer than 10 items', () => {
    const diffs = Array.from({ length: 15 }, (_, i) => (i % 3) - 1);
    const strata = diffs.map((_, i) => (i < 12 ? 'big' : 'tiny'));
    const out = sizeFromPilot(pair(diffs, strata), { mde: 0.5, perStratum: true });
    expect(out.warnings.some((w) => /only 15 paired items/.test(w))).toBe(true);
    const tiny = out.strata!.find((s) => s.stratum === 'tiny')!;
    expect(tiny.pilotItems).toBe(3);
    expect(tiny.warnings[0]).toMatch(/stratum "tiny" has only 3 pilot items \(fewer than 10\)/);
  });
  it('rejects a one-item pilot, mde ≤ 0 and a bad budget', () => {
    expect(() => sizeFromPilot(pair([1]), { mde: 1 })).toThrow('the pilot has 1 paired item; a variance needs at least 2');
    expect(() => sizeFromPilot(pair([1, 2]), { mde: 0 })).toThrow('mde must be a finite number > 0 (got 0)');
    expect(() => sizeFromPilot(pair([1, 2]), { mde: 1, budget: 1 })).toThrow('budget must be a finite number of items > 1 (got 1)');
  });
  it('asks for a stratum column for per-stratum sizing, and for every pilot stratum in the plan', () => {
    expect(() => sizeFromPilot(pair([1, 2, 3]), { mde: 1, perStratum: true })).toThrow(/needs a "stratum" column/);
    const strata = strataFromSpec({ strata: { big: { quota: 1 } } }, 'plan.yaml');
    expect(() => sizeFromPilot(pair([1, 2, 3], ['big', 'big', 'odd']), { mde: 1, strata })).toThrow(
      'plan.yaml: stratum "odd" of the pilot is not in the strata file (strata: big)',
    );
  });
});

describe('count quotas and quota-0 strata in a plan', () => {
  it('uses count quotas as the planned items, and makes the traffic headline infinite when a trafficked stratum gets none', () => {
    const diffs = Array.from({ length: 40 }, (_, i) => ((i * 7) % 5) - 2);
    const names = diffs.map((_, i) => (i % 2 === 0 ? 'p' : 'q'));
    const paired = pairScores(
      scoresFromRows(diffs.flatMap((d, i) => [
        { item: `i${i}`, model: 'a', score: d, stratum: names[i] },
        { item: `i${i}`, model: 'b', score: 0, stratum: names[i] },
      ])),
      'a',
      'b',
    );
    const counts = strataFromSpec({ strata: { p: { quota: 300, traffic: 0.5 }, q: { quota: 100, traffic: 0.5 } } }, 'c.yaml');
    const out = sizeFromPilot(paired, { mde: 1, strata: counts, budget: 500 });
    expect(out.plan!.quotaKind).toBe('count');
    expect(out.plan!.budget).toBe(400);
    expect(out.plan!.strata.map((s) => s.plannedItems)).toEqual([300, 100]);
    expect(out.plan!.warnings.some((w) => /counts totalling 400; the plan uses them, not the budget 500/.test(w))).toBe(true);
    const zero = strataFromSpec({ strata: { p: { quota: 1, traffic: 0.5 }, q: { quota: 0, traffic: 0.5 } } }, 'z.yaml');
    const out0 = sizeFromPilot(paired, { mde: 1, strata: zero, budget: 400 });
    expect(out0.plan!.trafficReweighted!.perItemVariance).toBe(Infinity);
    expect(out0.plan!.warnings.some((w) => /quota of 0/.test(w))).toBe(true);
  });
});
