import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgedComparison, labelledSubsetCheck, NotRandomSubsetError, powerTuningLambda, ppiMean, stratifiedPpiMean } from '../../src/judge/index.js';

// Expected values: tests/reference/judge/ppi_reference.py, a numpy hand implementation of
// ppi_py's ppi_mean_ci / _calc_lam_glm formulas for the mean (run with /usr/bin/python3).
const reference = JSON.parse(readFileSync(new URL('../reference/judge/ppi.json', import.meta.url), 'utf8'));

describe('ppiMean against the numpy reference', () => {
  for (const c of reference.cases) {
    it(c.name, () => {
      const r = ppiMean(c.labels, c.predictions, c.unlabelledPredictions, { confidenceLevel: c.confidenceLevel, lambda: c.fixedLambda ?? undefined });
      const e = c.expected;
      expect(r.lambda).toBeCloseTo(e.lambda, 12);
      expect(r.estimate).toBeCloseTo(e.estimate, 12);
      expect(r.standardError).toBeCloseTo(e.standardError, 12);
      expect(r.confidenceInterval[0]).toBeCloseTo(e.interval[0], 10);
      expect(r.confidenceInterval[1]).toBeCloseTo(e.interval[1], 10);
      expect(r.classicalEstimate).toBeCloseTo(e.classicalEstimate, 12);
      expect(r.classicalStandardError).toBeCloseTo(e.classicalStandardError, 12);
      expect(r.classicalInterval[0]).toBeCloseTo(e.classicalInterval[0], 10);
      expect(r.lambdaTuned).toBe(c.fixedLambda === null);
    });
  }

  it('powerTuningLambda is the lambda ppiMean uses', () => {
    const c = reference.cases[0];
    expect(powerTuningLambda(c.labels, c.predictions, c.unlabelledPredictions)).toBeCloseTo(c.expected.lambda, 14);
  });

  it('with lambda = 0 is the labels alone, and effective labels equal n', () => {
    const c = reference.cases[1];
    const r = ppiMean(c.labels, c.predictions, c.unlabelledPredictions, { lambda: 0 });
    expect(r.estimate).toBeCloseTo(c.expected.classicalEstimate, 14);
    expect(r.standardError).toBeCloseTo(c.expected.classicalStandardError, 14);
    expect(r.effectiveLabels).toBeCloseTo(c.labels.length, 10);
  });

  it('a clipped-to-0 lambda (anti-correlated judge) gives the classical interval', () => {
    const c = reference.cases.find((x: { name: string }) => x.name === 'anticorrelated-judge');
    const r = ppiMean(c.labels, c.predictions, c.unlabelledPredictions);
    expect(r.lambda).toBe(0);
    expect(r.confidenceInterval).toEqual(r.classicalInterval);
  });

  it('refuses what it cannot estimate', () => {
    expect(() => ppiMean([1], [1], [1, 2])).toThrow(/at least 2 labelled/);
    expect(() => ppiMean([1, 0], [1, 0], [])).toThrow(/at least 1 item without/);
    expect(() => ppiMean([1, 0], [1], [1])).toThrow(/pair up/);
    expect(() => ppiMean([1, NaN], [1, 0], [1])).toThrow(/labels\[1\] must be a finite number/);
    expect(() => ppiMean([1, 0], [1, 0], [1], { lambda: 2 })).toThrow(/lambda must be in \[0, 1\]/);
    expect(() => ppiMean([1, 0], [1, 0], [1], { confidenceLevel: 1 })).toThrow(/confidenceLevel/);
  });

  it('constant data: NaN interval with a warning', () => {
    const r = ppiMean([1, 1, 1], [1, 1, 1], [1, 1]);
    expect(r.confidenceInterval.every(Number.isNaN)).toBe(true);
    expect(r.warnings[0]).toMatch(/constant/);
  });
});

describe('stratifiedPpiMean against the numpy reference', () => {
  // The point estimate and each stratum's λ are ppi_py's; the variance is no longer its
  // divide-by-n one (unbiased variances, small-strata floor, Satterthwaite t: checked against R in
  // tests/strata-small/stratified-ppi.test.ts), so it can only be at least as large here.
  it('combines per-stratum PPI++ with item-share weights', () => {
    const s = reference.stratified;
    const r = stratifiedPpiMean(s.strata);
    expect(r.estimate).toBeCloseTo(s.expected.estimate, 12);
    expect(r.standardError).toBeGreaterThanOrEqual(s.expected.standardError);
    expect(r.classicalEstimate).toBeCloseTo(s.expected.classicalEstimate, 12);
    expect(r.classicalStandardError).toBeGreaterThanOrEqual(s.expected.classicalStandardError);
    for (let h = 0; h < s.strata.length; h++) expect(r.strata[h].lambda).toBeCloseTo(s.strata[h].expected.lambda, 12);
  });

  it('with one stratum has ppiMean\'s estimate, and the variance with divisors n − 1 and N − 1', () => {
    const c = reference.cases[0];
    const one = stratifiedPpiMean([{ stratum: 'x', weight: 3, labels: c.labels, predictions: c.predictions, unlabelledPredictions: c.unlabelledPredictions }]);
    expect(one.estimate).toBeCloseTo(c.expected.estimate, 14);
    const n = c.labels.length;
    const N = c.unlabelledPredictions.length;
    const lambda = one.strata[0].lambda;
    const rect = c.labels.map((y: number, i: number) => y - lambda * c.predictions[i]);
    const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
    const svar = (x: number[]) => x.reduce((a, b) => a + (b - mean(x)) ** 2, 0) / (x.length - 1);
    expect(one.standardError ** 2).toBeCloseTo(svar(rect) / n + (lambda ** 2 * svar(c.unlabelledPredictions)) / N, 14);
  });

  it('pools a stratum with too few labels instead of refusing, and says so', () => {
    const r = stratifiedPpiMean([
      { stratum: 'common', weight: 0.9, labels: [1, 0, 1, 1, 0], predictions: [1, 0, 1, 0, 0], unlabelledPredictions: [1, 0, 1, 1, 0, 1] },
      { stratum: 'rare', weight: 0.1, labels: [1], predictions: [1], unlabelledPredictions: [1, 0] },
    ]);
    expect(r.collapsedStrata).toEqual([['common', 'rare']]);
    expect(r.strata).toHaveLength(1);
    expect(r.strata[0].stratum).toBe('common + rare');
    expect(r.warnings.join(' ')).toMatch(/pooled with a neighbour: "common" \+ "rare" estimated as one stratum \(labels "common" 5, "rare" 1\)/);
    expect(Number.isFinite(r.confidenceInterval[0])).toBe(true);
  });

  it('refuses only what no pooling can fix: fewer than 2 labels in all, or bad weights', () => {
    expect(() => stratifiedPpiMean([{ stratum: 'rare', weight: 1, labels: [1], predictions: [1], unlabelledPredictions: [1] }])).toThrow(/PPI needs at least 2 labelled items \(got 1\)/);
    expect(() => stratifiedPpiMean([{ stratum: 'x', weight: -1, labels: [1, 0], predictions: [1, 0], unlabelledPredictions: [1] }])).toThrow(/weight/);
  });
});

describe('labelledSubsetCheck', () => {
  it('computes the two-sample z test by hand', () => {
    // means 2 and 0; population variances 2/3 and 2/3 over 3 items each: se = √(4/9) = 2/3, z = 3.
    const r = labelledSubsetCheck([1, 2, 3], [-1, 0, 1]);
    expect(r.z).toBeCloseTo(3, 14);
    expect(r.pValue).toBeCloseTo(0.0026997960632601866, 12); // scipy: 2 * norm.sf(3)
    expect(r.rejected).toBe(false);
    expect(labelledSubsetCheck([1, 1, 1, 0.9], [0, 0.1, 0, 0.2]).rejected).toBe(true);
  });
});

describe('judgedComparison', () => {
  // Two strata labelled at very different rates, each at random within itself; the judge's mean
  // difference differs between strata (0.5 vs −0.5), so the pooled labelled set is not random.
  function items() {
    const out = [];
    for (let i = 0; i < 200; i++) {
      const s = i < 100 ? 'x' : 'y';
      const f = (s === 'x' ? 0.5 : -0.5) + ((i * 7919) % 13) / 13 - 0.5;
      const labelled = s === 'x' ? i % 2 === 0 : i % 10 === 0;
      out.push({ item: `i${i}`, stratum: s, judgeA: f, judgeB: 0, ...(labelled ? { humanA: f > 0 ? 1 : 0, humanB: 0 } : {}) });
    }
    return out;
  }
  it('checks randomness within strata when stratified, so unequal labelling rates are allowed', () => {
    expect(() => judgedComparison(items())).not.toThrow();
    expect(() => judgedComparison(items(), { stratified: false })).toThrow(NotRandomSubsetError);
  });
});

describe('traffic-weighted stratified PPI++ against the numpy reference', () => {
  // tests/reference/judge/ppi_reference.py "stratifiedTraffic": the same strata, each with its own
  // tuned λ, combined with traffic shares: θ = Σ T_h θ_h, SE² = Σ T_h² SE_h² (Fisch et al. 2024).
  const s = reference.stratified;
  const t = reference.stratifiedTraffic;
  const items = s.strata.flatMap((st: { stratum: string; labels: number[]; predictions: number[]; unlabelledPredictions: number[] }) => [
    ...st.labels.map((y, i) => ({ item: `${st.stratum}-l${i}`, stratum: st.stratum, judgeA: st.predictions[i], judgeB: 0, humanA: y, humanB: 0 })),
    ...st.unlabelledPredictions.map((f, i) => ({ item: `${st.stratum}-u${i}`, stratum: st.stratum, judgeA: f, judgeB: 0 })),
  ]);
  const weights = Object.entries(t.traffic as Record<string, number>).map(([stratum, weight]) => ({ stratum, weight }));
  it('judgedComparison with weights: estimate, SE, interval, humans-only, effective labels', () => {
    const r = judgedComparison(items, { assumeRandom: true, weights });
    expect(r.weighting).toBe('traffic');
    // Estimates as numpy's; the variances are now unbiased (≥ ppi_py's divide-by-n ones).
    expect(r.estimate).toBeCloseTo(t.expected.estimate, 12);
    expect(r.standardError).toBeGreaterThanOrEqual(t.expected.standardError);
    expect(r.confidenceInterval[0]).toBeLessThanOrEqual(t.expected.interval[0]);
    expect(r.confidenceInterval[1]).toBeGreaterThanOrEqual(t.expected.interval[1]);
    expect(r.classicalEstimate).toBeCloseTo(t.expected.classicalEstimate, 12);
    expect(r.effectiveLabels).toBeGreaterThan(0);
    // each stratum keeps its own λ (the item-share fit's)
    s.strata.forEach((st: { expected: { lambda: number } }, h: number) => expect(r.strata[h].lambda).toBeCloseTo(st.expected.lambda, 12));
  });
  it('item-share weights are the default; traffic equal to the item shares changes nothing', () => {
    const plain = judgedComparison(items, { assumeRandom: true });
    expect(plain.weighting).toBe('items');
    const shares = plain.strata.map((x) => ({ stratum: x.stratum, weight: x.weight }));
    const same = judgedComparison(items, { assumeRandom: true, weights: shares });
    expect(same.estimate).toBeCloseTo(plain.estimate, 14);
    expect(same.standardError).toBeCloseTo(plain.standardError, 14);
  });
  it('refuses weights that miss a stratum, cover an absent one, or do not sum to 1', () => {
    expect(() => judgedComparison(items, { assumeRandom: true, weights: [{ stratum: 'routine', weight: 1 }] })).toThrow(/"rare_clause" has judged items but no traffic share/);
    expect(() => judgedComparison(items, { assumeRandom: true, weights: [...weights.map((w) => ({ ...w, weight: w.weight * 0.5 })), { stratum: 'ghost', weight: 0.5 }] })).toThrow(/"ghost" has traffic share 0.5 but no judged item/);
    expect(() => judgedComparison(items, { assumeRandom: true, weights: weights.map((w) => ({ ...w, weight: w.weight * 2 })) })).toThrow(/must sum to 1 \(got 2\)/);
  });
});
