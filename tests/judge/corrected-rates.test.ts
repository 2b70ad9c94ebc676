import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadJudgeLabels } from '../../src/data/judge-labels.js';
import { correctedRates, type CorrectionRow } from '../../src/judge/corrected-rates.js';
import { validateJudge } from '../../src/judge/validate-judge.js';

// Made by tests/reference/judge/corrected_rates_reference.R: rates by the numerical-gradient delta
// method, differences by the multivariate delta method on item/cluster means (another route than
// the library's influence sums), and a paired bootstrap as a sanity check.
const REF = JSON.parse(readFileSync('tests/reference/judge/corrected-rates.json', 'utf8'));
const exampleRows: CorrectionRow[] = loadJudgeLabels('examples/judge-labels.csv').rows.map((r) => ({ item: r.item, model: r.model, judge: r.judge as 0 | 1, ...(r.human !== undefined ? { human: r.human as 0 | 1 } : {}) }));
const syntheticRows: CorrectionRow[] = (REF.synthetic.rows as Array<{ item: string; model: string; cluster: string; judge: number; score: number | null }>).map((r) => ({
  item: r.item,
  model: r.model,
  cluster: r.cluster,
  judge: r.judge as 0 | 1,
  ...(r.score !== null && r.score !== undefined ? { human: r.score as 0 | 1 } : {}),
}));
const close = (got: number, want: number, tol: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(tol);

describe.each([
  ['example (items independent)', exampleRows, REF.example],
  ['synthetic (clusters of 3, three candidates)', syntheticRows, REF.synthetic],
] as const)('correctedRates against R: %s', (_name, rows, ref) => {
  for (const [source, key] of [['per-candidate', 'perCandidate'], ['pooled', 'pooled']] as const) {
    const got = correctedRates(rows, { source });
    it(`${source}: each rate and its delta-method SE`, () => {
      expect(got.rates.map((r) => r.model)).toEqual(ref[key].rates.map((r: { model: string }) => r.model));
      got.rates.forEach((r, k) => {
        const want = ref[key].rates[k];
        close(r.judgeRate, want.judgeRate, 1e-12);
        close(r.sensitivity, want.sensitivity, 1e-12);
        close(r.specificity, want.specificity, 1e-12);
        close(r.unclippedEstimate, want.estimate, 1e-12);
        close(r.standardError, want.standardError, 1e-7);
        expect(r.corrected).toBe(true);
        expect(r.correctionSource).toBe(source);
      });
    });
    it(`${source}: each A − B and its linearised SE (multivariate delta method in R)`, () => {
      expect(got.differences).toHaveLength(ref[key].differences.length);
      got.differences.forEach((d, k) => {
        const want = ref[key].differences[k];
        expect([d.a, d.b]).toEqual([want.a, want.b]);
        close(d.estimate, want.estimate, 1e-9);
        close(d.standardError, want.standardError, 1e-6 * Math.max(1, want.standardError));
        expect(d.nClusters).toBe(want.nClusters);
        // The linearisation agrees with the paired bootstrap where the denominators are stable
        // (Fieller's g ≤ 0.1 for both candidates); bootstrap SE's Monte Carlo error ≈ 1%.
        const stable = [d.a, d.b].every((m) => (got.rates.find((r) => r.model === m)?.fiellerG as number) <= 0.1);
        if (stable) expect(Math.abs(d.standardError / want.bootstrapStandardError - 1)).toBeLessThan(0.1);
      });
    });
  }
});

describe('correctedRates: dependence, instability and bad input', () => {
  it('per-candidate is the default and differs from pooled when the judge errs differently per candidate', () => {
    const per = correctedRates(exampleRows);
    const pooled = correctedRates(exampleRows, { source: 'pooled' });
    expect(per.correctionSource).toBe('per-candidate');
    // gamma's specificity on its own rows is 10/28, far below the pooled 57/86.
    expect(per.rates[2].specificity).toBeCloseTo(10 / 28, 12);
    expect(pooled.rates[2].specificity).toBeCloseTo(57 / 86, 12);
    expect(per.rates[2].estimate).not.toBeCloseTo(pooled.rates[2].estimate, 2);
  });
  it('warns that the interval is too narrow when the judge barely beats chance (gamma, g ≈ 0.48)', () => {
    const per = correctedRates(exampleRows);
    expect(per.rates[2].fiellerG).toBeGreaterThan(0.1);
    expect(per.rates[2].fiellerG).toBeLessThan(1);
    expect(per.warnings.join('\n')).toMatch(/gamma: the judge barely beats chance .* too narrow/);
    expect(per.rates[0].fiellerG).toBeLessThan(0.1);
  });
  it('an undistinguishable-from-chance denominator makes the rate [0, 1] and the difference [−1, 1]', () => {
    // Candidate y: 6 labelled rows, Se = 2/3, Sp = 2/3, J = 1/3: g = 1.96²·(2/9·2/3)/(1/9) ≫ 1.
    const rows: CorrectionRow[] = [];
    for (let i = 0; i < 40; i++) rows.push({ item: `i${i}`, model: 'x', judge: (i % 2) as 0 | 1, ...(i < 20 ? { human: (i % 2) as 0 | 1 } : {}) });
    const yh = [1, 1, 1, 0, 0, 0];
    const yj = [1, 1, 0, 0, 0, 1];
    for (let i = 0; i < 40; i++) rows.push({ item: `i${i}`, model: 'y', judge: (i < 6 ? yj[i] : i % 3 === 0 ? 1 : 0) as 0 | 1, ...(i < 6 ? { human: yh[i] as 0 | 1 } : {}) });
    const r = correctedRates(rows);
    expect(r.rates[1].fiellerG).toBeGreaterThan(1);
    expect(r.rates[1].confidenceInterval).toEqual([0, 1]);
    expect(r.differences[0].confidenceInterval).toEqual([-1, 1]);
    expect(r.warnings.join('\n')).toMatch(/y: .* not distinguishable from 0 .* inconclusive/);
  });
  it('a candidate with no labelled negative gives NaN with a warning, not a number', () => {
    const rows: CorrectionRow[] = [
      { item: 'a', model: 'x', judge: 1, human: 1 },
      { item: 'b', model: 'x', judge: 0, human: 0 },
      { item: 'a', model: 'y', judge: 1, human: 1 },
      { item: 'b', model: 'y', judge: 1, human: 1 },
    ];
    const r = correctedRates(rows);
    expect(r.rates[1].estimate).toBeNaN();
    expect(r.differences[0].estimate).toBeNaN();
    expect(r.warnings.join('\n')).toMatch(/y: Rogan–Gladen: the correction needs .* 0 human negatives/);
  });
  it('rejects a judge call that is not 0/1 and a repeated (item, candidate)', () => {
    expect(() => correctedRates([{ item: 'a', model: 'x', judge: 2 as 0 }])).toThrow(/row 0: the judge's call must be 0 or 1 \(got 2\)/);
    expect(() => correctedRates([{ item: 'a', model: 'x', judge: 1 }, { item: 'a', model: 'x', judge: 0 }])).toThrow(/row 1: item "a" appears twice/);
    expect(() => correctedRates([])).toThrow(/at least one row/);
  });
  it('validateJudge carries the per-candidate corrections (default) and the pooled ones on request', () => {
    const rows = loadJudgeLabels('examples/judge-labels.csv').rows;
    const v = validateJudge(rows, { seed: 0, nPermutations: 19 });
    expect(v.correction).toBe('per-candidate');
    expect(v.correctedRates?.[2].unclippedEstimate).toBeCloseTo(REF.example.perCandidate.rates[2].estimate, 12);
    expect(v.correctedDifferences?.[1].standardError).toBeCloseTo(REF.example.perCandidate.differences[1].standardError, 6);
    const p = validateJudge(rows, { seed: 0, nPermutations: 19, correction: 'pooled' });
    expect(p.correctedDifferences?.[0].estimate).toBeCloseTo(REF.example.pooled.differences[0].estimate, 9);
  });
});
