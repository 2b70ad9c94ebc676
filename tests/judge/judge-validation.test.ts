import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadJudgeLabels } from '../../src/data/judge-labels.js';
import { biasProbes, maxTStepDown } from '../../src/judge/bias-probes.js';
import { holmAdjust } from '../../src/paired/holm.js';
import { candidateBias } from '../../src/judge/candidate-bias.js';
import { calibrationTable, judgeAgreement, normalMean, pearsonWithInterval } from '../../src/judge/judge-agreement.js';
import { judgeDrift } from '../../src/judge/judge-drift.js';
import { hc3Design, hc3Statistic, olsHc3 } from '../../src/judge/ols-hc3.js';
import { roganGladen } from '../../src/judge/rogan-gladen.js';
import { JudgeDataError, validateJudge, type JudgeRow } from '../../src/judge/validate-judge.js';
import { designLabels } from '../../src/selection/design-sizing.js';
import { itemsForIntervalWidth } from '../../src/sizing/interval.js';

// Made by tests/reference/judge/judge_reference.R (R sandwich, prop.test, cor.test) and
// judge_reference.py (statsmodels, scipy) on examples/judge-labels.csv.
const R = JSON.parse(readFileSync('tests/reference/judge/judge-r.json', 'utf8'));
const SM = JSON.parse(readFileSync('tests/reference/judge/judge-statsmodels.json', 'utf8'));
const table = loadJudgeLabels('examples/judge-labels.csv');
const labelled = table.rows.filter((r) => r.human !== undefined);

const close = (got: number, want: number, rel = 1e-9) => expect(Math.abs(got - want)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(want)));

describe('olsHc3 against R sandwich::vcovHC(type = "HC3") and statsmodels cov_type="HC3"', () => {
  const X = labelled.map((r) => [1, r.human as number, r.length as number, r.position as number, r.model === 'gamma' ? 1 : 0]);
  const y = labelled.map((r) => r.judge - (r.human as number));
  const fit = olsHc3(y, X);
  it('the example: error ~ human + length + position + self', () => {
    expect(fit.n).toBe(R.hc3Example.n);
    for (let j = 0; j < 5; j++) {
      close(fit.coefficients[j], R.hc3Example.coefficients[j], 1e-8);
      close(fit.standardError[j], R.hc3Example.standardError[j], 1e-8);
      close(fit.standardError[j], SM.hc3Example.standardError[j], 1e-8);
    }
  });
  it('a small design with a high-leverage row (leverage weights matter)', () => {
    const small = olsHc3(R.hc3Small.y, R.hc3Small.x.map((x: number) => [1, x]));
    for (let j = 0; j < 2; j++) {
      close(small.coefficients[j], R.hc3Small.coefficients[j]);
      close(small.standardError[j], R.hc3Small.standardError[j]);
      close(small.standardError[j], SM.hc3Small.standardError[j]);
    }
  });
  it('the fixed-design fast path gives olsHc3\'s statistic', () => {
    const d = hc3Design(X);
    for (let j = 0; j < 5; j++) close(hc3Statistic(d, y, j), fit.statistic[j], 1e-10);
  });
  it('refuses a singular design and too few rows, naming them', () => {
    expect(() => olsHc3([1, 2, 3], [[1, 1], [1, 1], [1, 1]])).toThrow(/singular/);
    expect(() => olsHc3([1, 2], [[1, 0], [1, 1]])).toThrow(/more rows than columns/);
  });
  it('JSDoc example', () => {
    const r = olsHc3([1, 2, 2, 4], [[1, 0], [1, 1], [1, 2], [1, 3]]);
    close(r.coefficients[0], 0.9, 1e-12);
    close(r.coefficients[1], 0.9, 1e-12);
  });
});

describe('judgeAgreement against R prop.test / statsmodels cohens_kappa / cor.test', () => {
  const all = judgeAgreement(labelled.map((r) => r.judge), labelled.map((r) => r.human as number), { group: 'all', name: 'all', binary: true });
  it('accuracy, sensitivity, specificity with Wilson intervals', () => {
    expect([all.accuracy?.successes, all.accuracy?.trials]).toEqual(R.agreement.accuracy);
    expect([all.sensitivity?.successes, all.sensitivity?.trials]).toEqual(R.agreement.sensitivity);
    expect([all.specificity?.successes, all.specificity?.trials]).toEqual(R.agreement.specificity);
    for (const [got, want] of [
      [all.accuracy?.confidenceInterval, R.agreement.accuracyInterval],
      [all.accuracy?.confidenceInterval, SM.accuracyInterval],
      [all.sensitivity?.confidenceInterval, R.agreement.sensitivityInterval],
      [all.specificity?.confidenceInterval, R.agreement.specificityInterval],
    ]) {
      close((got as number[])[0], want[0], 1e-9);
      close((got as number[])[1], want[1], 1e-9);
    }
  });
  it("Cohen's kappa and its SE, overall and per candidate", () => {
    close(all.kappa?.estimate as number, SM.kappa.all.kappa, 1e-12);
    close(all.kappa?.standardError as number, SM.kappa.all.standardError, 1e-10);
    for (const m of ['alpha', 'beta', 'gamma']) {
      const rows = labelled.filter((r) => r.model === m);
      const a = judgeAgreement(rows.map((r) => r.judge), rows.map((r) => r.human as number), { group: 'candidate', name: m, binary: true });
      expect(a.n).toBe(SM.kappa[m].n);
      close(a.kappa?.estimate as number, SM.kappa[m].kappa, 1e-12);
      close(a.kappa?.standardError as number, SM.kappa[m].standardError, 1e-10);
    }
  });
  it('Pearson r with the Fisher-z interval (R cor.test, scipy pearsonr)', () => {
    const g = labelled.map((r) => (r.length as number) / 500 + (r.human as number));
    const p = pearsonWithInterval(g, labelled.map((r) => r.human as number), 0.95);
    close(p.estimate, R.pearson.estimate, 1e-12);
    close(p.confidenceInterval[0], R.pearson.confidenceInterval[0], 1e-9);
    close(p.confidenceInterval[1], R.pearson.confidenceInterval[1], 1e-9);
    close(p.confidenceInterval[0], SM.pearson.confidenceInterval[0], 1e-9);
  });
  it('JSDoc examples', () => {
    expect(judgeAgreement([1, 0, 1, 1], [1, 0, 0, 1], { group: 'all', name: 'all', binary: true }).accuracy?.estimate).toBe(0.75);
    close(pearsonWithInterval([1, 2, 3, 4, 5], [1, 3, 2, 5, 4], 0.95).estimate, 0.8, 1e-12);
    close(normalMean([1, 2, 3], 0.95).standardError, 0.5773502691896258, 1e-12);
    expect(calibrationTable([0.1, 0.9, 0.9], [0, 1, 0], { binaryHuman: true })).toHaveLength(2);
  });
  it('calibration bins keep ties together and cover every row', () => {
    const j = Array.from({ length: 50 }, (_, i) => Math.round((i * 7) % 23) / 23);
    const h = j.map((x, i) => (x > 0.5 || i % 5 === 0 ? 1 : 0));
    const bins = calibrationTable(j, h, { binaryHuman: true, bins: 5 });
    expect(bins.reduce((s, b) => s + b.n, 0)).toBe(50);
    for (let k = 1; k < bins.length; k++) expect(bins[k].low).toBeGreaterThan(bins[k - 1].high);
  });
});

describe('roganGladen against the delta method with a numerical gradient in R', () => {
  const rg = R.roganGladen;
  it('per candidate, Se and Sp pooled', () => {
    for (const c of rg.byCandidate) {
      const r = roganGladen({ judgePositive: c.judgePositive, judged: c.judged, humanPositive: rg.humanPositive, truePositive: rg.truePositive, humanNegative: rg.humanNegative, trueNegative: rg.trueNegative });
      close(r.unclippedEstimate, c.estimate, 1e-12);
      // The R gradient is a central difference (h = 1e-6): agreement to ~1e-7 relative.
      close(r.standardError, c.standardError, 1e-6);
    }
  });
  it('JSDoc example, a judge no better than chance, and clipping', () => {
    expect(roganGladen({ judgePositive: 300, judged: 1000, humanPositive: 100, truePositive: 90, humanNegative: 200, trueNegative: 180 }).estimate).toBeCloseTo(0.25, 12);
    const chance = roganGladen({ judgePositive: 50, judged: 100, humanPositive: 10, truePositive: 5, humanNegative: 10, trueNegative: 5 });
    expect(chance.estimate).toBeNaN();
    expect(chance.warnings[0]).toMatch(/no better than chance/);
    const clipped = roganGladen({ judgePositive: 99, judged: 100, humanPositive: 10, truePositive: 9, humanNegative: 10, trueNegative: 9 });
    expect(clipped.estimate).toBe(1);
    expect(clipped.unclippedEstimate).toBeGreaterThan(1);
    expect(() => roganGladen({ judgePositive: 5, judged: 4, humanPositive: 1, truePositive: 1, humanNegative: 1, trueNegative: 1 })).toThrow(/judgePositive/);
  });
  it('every outcome of a tiny validation set: the interval is inside [0, 1] and contains the clipped estimate', () => {
    for (let n1 = 1; n1 <= 4; n1++) for (let tp = 0; tp <= n1; tp++) for (let n0 = 1; n0 <= 4; n0++) for (let tn = 0; tn <= n0; tn++) for (let jp = 0; jp <= 6; jp++) {
      const r = roganGladen({ judgePositive: jp, judged: 6, humanPositive: n1, truePositive: tp, humanNegative: n0, trueNegative: tn });
      if (Number.isNaN(r.estimate)) {
        expect(tp / n1 + tn / n0 - 1).toBeLessThanOrEqual(0);
        continue;
      }
      expect(r.confidenceInterval[0]).toBeGreaterThanOrEqual(0);
      expect(r.confidenceInterval[1]).toBeLessThanOrEqual(1);
      expect(r.confidenceInterval[0]).toBeLessThanOrEqual(r.estimate + 1e-12);
      expect(r.confidenceInterval[1]).toBeGreaterThanOrEqual(r.estimate - 1e-12);
    }
  });
});

describe('biasProbes', () => {
  const error = labelled.map((r) => r.judge - (r.human as number));
  const terms = [
    { name: 'length', values: labelled.map((r) => r.length as number) },
    { name: 'self', values: labelled.map((r) => (r.model === 'gamma' ? 1 : 0)) },
  ];
  const controls = [{ name: 'human label', values: labelled.map((r) => r.human as number) }];
  it('the estimates and HC3 SEs are the joint regression\'s; same seed, same p-values', () => {
    const a = biasProbes(error, terms, { controls, nPermutations: 199, seed: 3 });
    const fit = olsHc3(error, labelled.map((r, i) => [1, r.human as number, terms[0].values[i], terms[1].values[i]]));
    close(a.probes[0].estimate, fit.coefficients[2]);
    close(a.probes[1].standardError, fit.standardError[3]);
    const b = biasProbes(error, terms, { controls, nPermutations: 199, seed: 3 });
    expect(b).toEqual(a);
    for (const p of a.probes) {
      expect(p.pValue).toBeGreaterThanOrEqual(1 / 200);
      expect(p.adjustedPValue).toBeGreaterThanOrEqual(p.pValue);
    }
  });
  it('a planted effect far beyond noise is detected; a constant probe is left out with a warning', () => {
    const n = 200;
    const x = Array.from({ length: n }, (_, i) => i % 10);
    const y = x.map((v, i) => 0.3 * v + ((i * 37) % 11) / 11 - 0.5);
    const r = biasProbes(y, [{ name: 'x', values: x }, { name: 'flat', values: new Array(n).fill(2) }], { nPermutations: 99 });
    expect(r.probes.map((p) => p.name)).toEqual(['x']);
    expect(r.probes[0].verdict).toBe('bias detected');
    expect(r.probes[0].pValue).toBe(0.01); // none of 99 permutations reaches it: (1 + 0) / 100
    expect(r.warnings[0]).toMatch(/"flat" left out/);
  });
  it('max-T step-down on a hand-worked table of draws (Westfall & Young 1993, Algorithm 2.8)', () => {
    // Ranked by |t|: test 1 (3), test 0 (2.5), test 2 (0.5). Step 1: max over all three ≥ 3 in draw 3
    // only → 2/5; step 2: max over tests 0, 2 ≥ 2.5 in draw 2 only → 2/5; step 3: test 2 ≥ 0.5 in
    // draws 1 and 4 → 3/5.
    const draws = [[1, 1, 1], [2.6, 0.1, 0.2], [0.2, 3.5, 0.3], [0.1, 0.2, 0.6]].map((d) => Float64Array.from(d));
    expect(maxTStepDown([2.5, -3, 0.5], draws)).toEqual([0.4, 0.4, 0.6]);
    // Monotone down the order: a smaller |t| never gets a smaller adjusted p.
    // Step 1: max ≥ 3 in draws 1, 2 → 3/4; step 2 alone would be 1/4 but is raised to 3/4.
    expect(maxTStepDown([3, 2.9], [[3.5, 0.1], [3.2, 0.1], [0, 0]].map((d) => Float64Array.from(d)))).toEqual([0.75, 0.75]);
    expect(maxTStepDown([NaN, 1], [Float64Array.of(0, 0)])).toEqual([1, 0.5]);
  });
  it('max-T (default) and Holm read the same draws; one probe: max-T is its own p; blocks restrict the permutation', () => {
    const m = biasProbes(error, terms, { controls, nPermutations: 199, seed: 3 });
    const h = biasProbes(error, terms, { controls, nPermutations: 199, seed: 3, multiplicity: 'holm' });
    expect(m.multiplicity).toBe('max-t');
    expect(h.probes.map((p) => p.pValue)).toEqual(m.probes.map((p) => p.pValue));
    expect(h.probes.map((p) => p.adjustedPValue)).toEqual(holmAdjust(m.probes.map((p) => p.pValue)));
    for (const p of m.probes) expect(p.adjustedPValue).toBeGreaterThanOrEqual(p.pValue);
    const one = biasProbes(error, terms.slice(0, 1), { controls, nPermutations: 199, seed: 3 });
    expect(one.probes[0].adjustedPValue).toBe(one.probes[0].pValue);
    // Blocks of one row each leave nothing to permute: every permuted t equals the observed, p = 1.
    const singletons = biasProbes(error, terms, { controls, nPermutations: 49, seed: 3, blocks: error.map((_, i) => i) });
    expect(singletons.exchangeabilityBlocks).toBe(error.length);
    for (const p of singletons.probes) expect([p.pValue, p.adjustedPValue]).toEqual([1, 1]);
    const byLabel = biasProbes(error, terms, { controls, nPermutations: 199, seed: 3, blocks: controls[0].values });
    expect(byLabel.exchangeabilityBlocks).toBe(2);
    expect(byLabel.probes.map((p) => p.pValue)).not.toEqual(m.probes.map((p) => p.pValue));
    expect(() => biasProbes(error, terms, { controls, blocks: [0, 1] })).toThrow(/blocks has 2 values/);
  });
});

describe('candidateBias and judgeDrift', () => {
  it('with every item labelled the error difference is judge-only minus humans-only, and PPI++ has nothing to add', () => {
    const items = [0, 1, 2, 3, 4, 5].map((i) => ({ item: `i${i}`, stratum: '', judgeA: i % 2, judgeB: i % 3 === 0 ? 1 : 0, humanA: i < 3 ? 1 : 0, humanB: i % 2 }));
    const c = candidateBias('a', 'b', items);
    close(c.errorDifference.estimate, c.judgeOnly.estimate - c.humanOnly.estimate, 1e-12);
    expect(c.ppi).toBeNull();
    expect(c.warnings.join(' ')).toMatch(/nothing to add/);
  });
  it('labels needed are size --judge\'s numbers: itemsForIntervalWidth then designLabels with the judge–human correlation', () => {
    const rows = table.rows;
    const items = table.items.map((item) => {
      const a = rows.find((r) => r.item === item && r.model === 'alpha') as JudgeRow;
      const b = rows.find((r) => r.item === item && r.model === 'beta') as JudgeRow;
      return { item, stratum: '', judgeA: a.judge, judgeB: b.judge, ...(a.human !== undefined ? { humanA: a.human, humanB: b.human } : {}) };
    });
    const c = candidateBias('alpha', 'beta', items, { mde: 0.2 });
    const y = items.filter((i) => i.humanA !== undefined).map((i) => (i.humanA as number) - (i.humanB as number));
    const m = y.reduce((s, v) => s + v, 0) / y.length;
    const v = y.reduce((s, x) => s + (x - m) ** 2, 0) / (y.length - 1);
    const plain = itemsForIntervalWidth({ varianceOfDifference: v, mde: 0.2 }).n;
    expect(c.labelsNeeded?.plain).toBe(plain);
    expect(c.labelsNeeded?.ppi).toBe(designLabels(plain, { judgeCorrelation: c.labelsNeeded?.judgeCorrelation, judgedItems: 240 }).ppi?.labels);
    expect(c.labelsNeeded?.ppi).toBeLessThan(plain);
  });
  it('drift: JSDoc example and the flipped rows', () => {
    const d = judgeDrift([{ item: 'x', model: 'a', before: 0, after: 1 }, { item: 'y', model: 'a', before: 1, after: 1 }, { item: 'z', model: 'b', before: 1, after: 0 }], { binary: true });
    expect([d.up, d.down]).toEqual([1, 1]);
    expect(d.flipped.map((f) => f.item)).toEqual(['x', 'z']);
    expect(d.pValue).toBe(1);
    close(d.change.estimate, 0, 1e-15);
  });
});

describe('validateJudge: what it refuses, and what it reports on the example', () => {
  const base: JudgeRow[] = [
    { item: 'a', model: 'x', judge: 1, human: 1, stratum: 's' },
    { item: 'a', model: 'y', judge: 0, human: 0, stratum: 's' },
    { item: 'b', model: 'x', judge: 1, stratum: 't' },
    { item: 'b', model: 'y', judge: 0, stratum: 't' },
  ];
  it('a stratum with no labelled row, a constant judge, no labels', () => {
    const err = (rows: JudgeRow[]) => {
      try {
        validateJudge(rows);
      } catch (e) {
        return e as JudgeDataError;
      }
      throw new Error('no error');
    };
    expect(err(base)).toMatchObject({ name: 'JudgeDataError', rowIndex: 2, field: 'stratum', value: 't' });
    expect(err(base.map((r) => ({ ...r, judge: 1, stratum: 's' })))).toMatchObject({ field: 'judge', value: 1 });
    expect(err(base.map(({ human: _h, ...r }) => r)).message).toMatch(/no row has a human label/);
  });
  it('the example: all pairs, probes with the human control, drift and corrected rates', () => {
    const rows = loadJudgeLabels('examples/judge-labels.csv', { rerunColumn: 'rerun' }).rows;
    const r = validateJudge(rows, { selfFamily: ['gamma'], nPermutations: 199, seed: 0, correction: 'pooled' });
    expect(r.kind).toBe('binary');
    expect(r.candidates.map((c) => `${c.a}-${c.b}`)).toEqual(['alpha-beta', 'alpha-gamma', 'beta-gamma']);
    expect(r.probes?.controls.map((c) => c.name)).toEqual(['human label']);
    expect(r.probes?.probes.map((p) => p.name)).toEqual(['length', 'position', 'self-preference']);
    // 0/1 human labels: permuted within the label, max-T across probes.
    expect([r.probes?.multiplicity, r.probes?.exchangeabilityBlocks]).toEqual(['max-t', 2]);
    close(r.probes?.probes[2].standardError as number, R.hc3Example.standardError[4], 1e-8);
    expect(r.drift?.n).toBe(90);
    expect(r.correctedRates?.map((c) => c.model)).toEqual(['alpha', 'beta', 'gamma']);
    close(r.correctedRates?.[2].unclippedEstimate as number, R.roganGladen.byCandidate[2].estimate, 1e-12);
    // alpha − gamma's error difference excludes 0 on the example: the pooled correction is flagged.
    expect(r.warnings.join('\n')).toMatch(/Rogan–Gladen pools sensitivity and specificity .* alpha vs gamma/);
  });
});
