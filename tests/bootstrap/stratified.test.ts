import { describe, expect, it } from 'vitest';
import { bootstrapMean, bootstrapMeanDifference, bootstrapStatistic, signFlipTest } from '../../src/bootstrap/index.js';
import { compareModels } from '../../src/paired/index.js';
import { buildDesign } from '../../src/bootstrap/design.js';
import { stratifiedAcceleration } from '../../src/bootstrap/intervals.js';
import { designTInterval } from '../../src/bootstrap/mean.js';
import { alignModels, scoresFromRows } from '../../src/data/index.js';
import { referenceJson } from './reference.js';

// Reference values: tests/reference/bootstrap/stratified_reference.py (numpy: the Davison & Hinkley
// stratified acceleration from analytic influence values and by brute-force leave-one-out, checked by
// Monte Carlo against skewness / 6) → stratified.json; stratified_reference.R (R 4.2, survey 4.1,
// boot 1.3-28: svymean + confint(df = degf), empinf(type = "inf", strata =)) → stratified-r.json.

interface PyJson {
  data: { y: number[]; stratum: number[]; cluster: number[]; weights: number[] };
  acceleration: Record<'unweighted' | 'weighted' | 'clusteredUnweighted' | 'clusteredWeighted' | 'pooledJackknife' | 'clusteredPooledJackknife' | 'beforeFix', number>;
  symmetric: { y: number[]; stratum: number[]; acceleration: number; beforeFix: number };
}
interface SvyCase {
  estimate: number;
  standardError: number;
  df: number;
  interval: [number, number];
}
interface RJson {
  unweighted: SvyCase;
  weighted: SvyCase;
  clusteredUnweighted: SvyCase & { surveyStandardError: number };
  clusteredWeighted: SvyCase;
  acceleration: { unweighted: number; weighted: number; bootBcaCiUnweighted: number };
}

const py = referenceJson<PyJson>('stratified.json');
const r = referenceJson<RJson>('stratified-r.json');
const { y, weights } = py.data;
const strata = Int32Array.from(py.data.stratum);
const cluster = Int32Array.from(py.data.cluster);
const meanOf = (ix: Int32Array) => {
  let s = 0;
  for (const i of ix) s += y[i];
  return s / ix.length;
};

describe('BCa acceleration with strata: Davison & Hinkley (1997) §3.7 / §5.3.2, within-stratum influence values', () => {
  // a = Σ_h m_h⁻³ Σ_j l_hj³ / (6 (Σ_h m_h⁻² Σ_j l_hj²)^1.5); numpy from l_hj = w_h (y_hj − ȳ_h), w_h = N_h / N unweighted.
  const bca = { method: 'bca' as const, nResamples: 199 };
  it('unweighted strata (compare --stratified): numpy to 1e-14, boot::empinf(type = "inf") to 1e-11', () => {
    const a = bootstrapMean(y, { ...bca, strata }).acceleration;
    expect(Math.abs(a - py.acceleration.unweighted)).toBeLessThan(1e-14);
    // empinf's numerical derivative (eps = 0.001 / n) and 15 printed digits: 4e-13 off numpy.
    expect(Math.abs(a - r.acceleration.unweighted)).toBeLessThan(1e-11);
    // Before the fix: the pooled leave-one-out jackknife centred on the overall mean (numpy reproduces it).
    expect(Math.abs(a - py.acceleration.beforeFix)).toBeGreaterThan(5e-3);
  });

  it('weighted strata (headline): numpy to 1e-14, boot::empinf to 1e-11', () => {
    const a = bootstrapMean(y, { ...bca, strata, stratumWeights: weights }).acceleration;
    expect(Math.abs(a - py.acceleration.weighted)).toBeLessThan(1e-14);
    expect(Math.abs(a - r.acceleration.weighted)).toBeLessThan(1e-11);
  });

  it('clusters within strata, unweighted and weighted: the brute-force leave-one-cluster-out of numpy to 1e-14', () => {
    expect(Math.abs(bootstrapMean(y, { ...bca, strata, cluster }).acceleration - py.acceleration.clusteredUnweighted)).toBeLessThan(1e-14);
    expect(Math.abs(bootstrapMean(y, { ...bca, strata, cluster, stratumWeights: weights }).acceleration - py.acceleration.clusteredWeighted)).toBeLessThan(1e-14);
  });

  it('bootstrapStatistic centres and scales its jackknife within strata (a pooled-mean statistic, items and clusters)', () => {
    expect(Math.abs(bootstrapStatistic(y.length, meanOf, { ...bca, strata }).acceleration - py.acceleration.pooledJackknife)).toBeLessThan(1e-14);
    expect(Math.abs(bootstrapStatistic(y.length, meanOf, { ...bca, strata, cluster }).acceleration - py.acceleration.clusteredPooledJackknife)).toBeLessThan(1e-14);
  });

  it('symmetric within strata (90 items around 0, 10 around 10): a = 0 by symmetry, both paths', () => {
    // Each stratum's values are ±k·0.01 or 10 ± k·0.1: every Σ_j l_hj³ is 0, so a = 0 up to rounding
    // (seen: 4e-17 and 1.5e-15; the bound 1e-12 is far below any real skew: before the fix benchplan
    // gave 0.0440 (py.symmetric.beforeFix), the skew of the mix of strata).
    const s = Int32Array.from(py.symmetric.stratum);
    const x = py.symmetric.y;
    expect(Math.abs(bootstrapMean(x, { ...bca, strata: s }).acceleration)).toBeLessThan(1e-12);
    const pooled = (ix: Int32Array) => ix.reduce((t, i) => t + x[i], 0) / ix.length;
    expect(Math.abs(bootstrapStatistic(x.length, pooled, { ...bca, strata: s }).acceleration)).toBeLessThan(1e-12);
    expect(py.symmetric.beforeFix).toBeGreaterThan(0.04);
  });

  it('stratifiedAcceleration: the JSDoc example, and one stratum is the unstratified formula', () => {
    expect(stratifiedAcceleration(Float64Array.of(1, 2, 3, 10, 20, 30), Int32Array.of(0, 3, 6), Int32Array.of(0, 1, 2, 3, 4, 5))).toBe(0);
    // One stratum: l = (m − 1)(θ̄ − θ_(i)), and the m and (m − 1) scales cancel.
    const jack = Float64Array.of(0.3, 0.1, 0.7, 0.2);
    const u = [0.025, 0.225, -0.375, 0.125]; // mean 0.325 − θ_(i)
    const hand = u.reduce((t, v) => t + v ** 3, 0) / (6 * u.reduce((t, v) => t + v ** 2, 0) ** 1.5);
    expect(Math.abs(stratifiedAcceleration(jack, Int32Array.of(0, 4), Int32Array.of(0, 1, 2, 3)) - hand)).toBeLessThan(1e-15);
  });
});

describe("method 't' with strata: R survey svymean and confint(df = degf(design))", () => {
  const cases: Array<[string, Parameters<typeof bootstrapMean>[1], SvyCase, number]> = [
    ['unweighted: √Σ (N_h/N)² s_h²/N_h, N − H df', { strata }, r.unweighted, 1e-14],
    ['weighted: √Σ W_h² s_h²/N_h, N − H df', { strata, stratumWeights: weights }, r.weighted, 1e-14],
    ['clusters within strata, unweighted: Miller per stratum (survey less C_h/(C_h − 1), plus Miller’s item term), G − H df', { strata, cluster }, r.clusteredUnweighted, 1e-13],
    ['clusters within strata, weighted: Σ W_h² · Miller(mean_h), G − H df', { strata, cluster, stratumWeights: weights }, r.clusteredWeighted, 1e-13],
  ];
  for (const [name, options, want, tolerance] of cases) {
    it(name, () => {
      const got = bootstrapMean(y, { ...options, method: 't' });
      expect(Math.abs(got.estimate - want.estimate)).toBeLessThan(1e-14);
      expect(Math.abs(got.standardError - want.standardError)).toBeLessThan(tolerance);
      // The t quantile at df 57 or 22 (R qt) and 15 printed digits: 1e-12.
      for (const k of [0, 1]) expect(Math.abs(got.confidenceInterval[k] - want.interval[k])).toBeLessThan(1e-12);
      const t = designTInterval(buildDesign(y.length, options!, Float64Array.from(y)), Float64Array.from(y), { confidenceLevel: 0.95, alternative: 'two-sided' });
      expect(t.df).toBe(want.df);
    });
  }

  it('naiveStandardError of an unweighted stratified mean is the stratified SE (not the pooled sd/√n)', () => {
    expect(Math.abs(bootstrapMean(y, { strata, method: 'percentile', nResamples: 99 }).naiveStandardError - r.unweighted.standardError)).toBeLessThan(1e-14);
  });

  it('survey’s own stratified cluster SE is larger by the C_h/(C_h − 1) factors benchplan (Miller 2024) leaves out', () => {
    expect(r.clusteredUnweighted.surveyStandardError).toBeGreaterThan(r.clusteredUnweighted.standardError);
  });
});

describe('a stratum with a single unit: no interval (NaN bounds and SE) and a warning naming it', () => {
  // The reviewer's case: 40 items in x, 1 in y, traffic 0.7 / 0.3. y's mean never varies between
  // resamples, so a percentile interval treated it as known (and came out "excluding 0").
  const x = Array.from({ length: 41 }, (_, i) => (i < 40 ? Math.sin(i) + 0.4 : 0.1));
  const s = Int32Array.from({ length: 41 }, (_, i) => (i < 40 ? 0 : 1));
  for (const method of ['percentile', 'basic', 'bca', 't'] as const) {
    it(`${method}: weighted, with strataNames`, () => {
      const got = bootstrapMean(x, { strata: s, stratumWeights: [0.7, 0.3], strataNames: ['x', 'y'], method, nResamples: 199 });
      expect(got.confidenceInterval[0]).toBeNaN();
      expect(got.confidenceInterval[1]).toBeNaN();
      expect(got.standardError).toBeNaN();
      expect(got.nResamples).toBe(0);
      expect(got.warnings).toContain('stratum "y" has a single item: a one-unit stratum has no sampling variance to estimate, so the interval and standard error are undefined (NaN); add items to it, merge it with a similar stratum, or give it weight 0');
    });
  }

  it('unweighted, without names: `stratum #1`; one-sided keeps its infinite end', () => {
    const got = bootstrapMean(x, { strata: s, method: 'percentile', nResamples: 99, alternative: 'greater' });
    expect(got.confidenceInterval[0]).toBeNaN();
    expect(got.confidenceInterval[1]).toBe(Infinity);
    expect(got.warnings[0]).toMatch(/^stratum #1 has a single item: .* add items to it or merge it with a similar stratum$/);
  });

  it('a stratum of one cluster (of several items) is just as thin; the clustered SE is NaN', () => {
    // Items 0–37: 19 clusters of two in "main"; items 38–40: one cluster of three in "tail".
    const c = Int32Array.from({ length: 41 }, (_, i) => (i < 38 ? i >> 1 : 19));
    const got = bootstrapMean(x, { strata: Int32Array.from({ length: 41 }, (_, i) => (i < 38 ? 0 : 1)), cluster: c, method: 't', strataNames: ['main', 'tail'] });
    expect(got.confidenceInterval[0]).toBeNaN();
    expect(got.clusteredStandardError).toBeNaN();
    expect(got.warnings.join('\n')).toMatch(/stratum "tail" has a single cluster: a one-unit stratum has no sampling variance/);
  });

  it('a one-item stratum with weight 0 carries nothing: the interval is defined', () => {
    const got = bootstrapMean(x, { strata: s, stratumWeights: [1, 0], method: 'bca', nResamples: 199 });
    expect(Number.isFinite(got.confidenceInterval[0])).toBe(true);
    expect(Number.isFinite(got.standardError)).toBe(true);
    expect(got.warnings.join(' ')).not.toMatch(/single/);
  });

  it('bootstrapStatistic (which cannot know how much the statistic weighs a stratum): the interval, with a warning naming the stratum', () => {
    const got = bootstrapStatistic(41, (ix) => ix.reduce((t, i) => t + x[i], 0) / ix.length, { strata: s, strataNames: ['x', 'y'], method: 'bca', nResamples: 99 });
    expect(Number.isFinite(got.confidenceInterval[0])).toBe(true);
    expect(got.warnings[0]).toBe('stratum "y" has a single item: it never varies between resamples, so the interval treats its part of the statistic as known (too narrow if that part matters)');
  });
});

describe('strata and clusters are named in warnings and errors', () => {
  const names = { strataNames: ['routine', 'rare'], clusterNames: ['doc-a', 'doc-b'] };
  it('a cluster across strata', () => {
    const run = (extra: object) => () => bootstrapMean([1, 2, 3], { cluster: Int32Array.of(0, 1, 1), strata: Int32Array.of(0, 0, 1), ...extra });
    expect(run(names)).toThrow('cluster "doc-b" spans two strata, "routine" and "rare": clusters must lie within one stratum');
    expect(run({})).toThrow('cluster #1 spans two strata, #0 and #1: clusters must lie within one stratum');
    expect(() => signFlipTest([1, 2, 3], { cluster: Int32Array.of(0, 1, 1), strata: Int32Array.of(0, 0, 1), ...names })).toThrow('cluster "doc-b" spans two strata');
  });

  it('a weighted stratum with no items, and a bad weight', () => {
    expect(() => bootstrapMean([1, 2], { strata: Int32Array.of(0, 0), stratumWeights: [0.5, 0.5], strataNames: ['routine', 'rare'] })).toThrow('stratum "rare" has weight 0.5 but no items');
    expect(() => bootstrapMean([1, 2], { strata: Int32Array.of(0, 0), stratumWeights: [0.5, 0.5] })).toThrow('stratum #1 has weight 0.5 but no items');
    expect(() => bootstrapMean([1, 2], { strata: Int32Array.of(0, 1), stratumWeights: [1, -1], strataNames: ['routine', 'rare'] })).toThrow('stratumWeights[1] (stratum "rare") must be a finite number ≥ 0 (got -1)');
  });

  it('names past the end fall back to the index; names must be an array', () => {
    const got = bootstrapMean([1, 2, 3], { strata: Int32Array.of(0, 0, 1), strataNames: ['only-one'], method: 'percentile', nResamples: 9 });
    expect(got.warnings[0]).toMatch(/^stratum #1 has a single item/);
    expect(() => bootstrapMean([1, 2], { strata: Int32Array.of(0, 0), strataNames: 'routine' as never })).toThrow(/strataNames must be an array of names/);
  });

  it('compareModels names strata by the aligned table (compare --stratified)', () => {
    const rows = [];
    for (let i = 0; i < 9; i++) {
      const stratum = i < 8 ? 'routine' : 'rare_clause';
      rows.push({ item: `q${i}`, model: 'a', score: (i * 7) % 5, stratum }, { item: `q${i}`, model: 'b', score: (i * 3) % 4, stratum });
    }
    const aligned = alignModels(scoresFromRows(rows), ['a', 'b']);
    const result = compareModels(aligned, { strata: aligned.stratum, method: 'percentile', nResamples: 99, nPermutations: 99 });
    expect(result.pairs[0].confidenceInterval[0]).toBeNaN();
    expect(result.warnings.join('\n')).toMatch(/a − b: stratum "rare_clause" has a single item/);
    const d = bootstrapMeanDifference(aligned.scores[0], aligned.scores[1], { strata: aligned.stratum, method: 'percentile', nResamples: 99 });
    expect(d.warnings[0]).toMatch(/^stratum #\d has a single item/);
  });
});

describe('index draws within strata: single-item units', () => {
  it('draw the same items as the same strata with one-item clusters (the general path), redraws included', async () => {
    const { resampleIndexChunk } = await import('../../src/bootstrap/resample.js');
    // 49,152 = 3 · 2^14 items in one stratum: 2^32 mod m = 16,384, so about one resample in six is redrawn.
    const sizes = [49_152, 7, 1, 300];
    const n = sizes.reduce((x, y) => x + y, 0);
    const strata = new Int32Array(n);
    let at = 0;
    sizes.forEach((m, g) => strata.fill(g, at, (at += m)));
    for (let i = n - 1; i > 0; i--) {
      const j = (i * 7919) % (i + 1);
      [strata[i], strata[j]] = [strata[j], strata[i]];
    }
    const single = buildDesign(n, { strata }, null);
    const general = buildDesign(n, { strata, cluster: Int32Array.from({ length: n }, (_, i) => i) }, null);
    expect(single.singleItemUnits).toBe(true);
    expect(general.singleItemUnits).toBe(false);
    const draws = (design: typeof single) => {
      const out = new Int32Array(60 * n);
      resampleIndexChunk(design, 'strata', 0, 60, (indices, r) => out.set(indices, r * n));
      return Buffer.from(out.buffer);
    };
    const a = draws(single);
    expect(a.equals(draws(general))).toBe(true);
    expect(new Set(new Int32Array(a.buffer, 0, n)).size).toBeGreaterThan(n / 2);
  });
});
