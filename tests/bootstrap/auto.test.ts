import { describe, expect, it } from 'vitest';
import { normalQuantile } from '../../src/distributions/index.js';
import { autoPairedInterval } from '../../src/paired/auto-interval.js';
import { AUTO_BCA_MIN_ITEMS, chooseIntervalMethod } from '../../src/paired/choose-method.js';
import { compareModels, compareModelsParallel } from '../../src/paired/compare-models.js';
import { cr2Interval } from '../../src/paired/cr2.js';
import { bootstrapMeanDifference } from '../../src/bootstrap/mean.js';
import { pairedCounts, pairedProportionInterval } from '../../src/paired/paired-proportion.js';
import { studentizedBootstrap } from '../../src/bootstrap/studentized.js';
import { tInterval } from '../../src/paired/t-interval.js';
import { alignModels, pairScores } from '../../src/data/pairing.js';
import { loadScores } from '../../src/data/scores.js';
import { createRng } from '../../src/random/index.js';

const table = loadScores('examples/scores.csv');

describe('chooseIntervalMethod: the documented rule', () => {
  it('0/1 scores, no clusters → tango; clusters → cr2 (cluster-t when CR2 is off); continuous → t below 100 items, else bca', () => {
    expect(chooseIntervalMethod({ a: [1, 1, 1], b: [1, 1, 1] }).methodUsed).toBe('tango');
    expect(chooseIntervalMethod({ a: [1, 0, 1], b: [1, 1, 0], cluster: [0, 0, 1] }).methodUsed).toBe('cr2');
    const fallback = chooseIntervalMethod({ a: [1, 0, 1], b: [1, 1, 0], cluster: [0, 0, 1] }, { cr2Available: false });
    expect(fallback.methodUsed).toBe('cluster-t');
    expect(fallback.methodReason).toMatch(/G − 1 = 1 degrees of freedom/);
    const small = Array.from({ length: AUTO_BCA_MIN_ITEMS - 1 }, (_, i) => i / 7);
    const large = Array.from({ length: AUTO_BCA_MIN_ITEMS }, (_, i) => i / 7);
    expect(chooseIntervalMethod({ a: small, b: small.map(() => 0) }).methodUsed).toBe('t');
    expect(chooseIntervalMethod({ a: large, b: large.map(() => 0) }).methodUsed).toBe('bca');
    // Differences alone cannot show 0/1 scores: continuous.
    expect(chooseIntervalMethod({ differences: [1, 0, -1] }).methodUsed).toBe('t');
    // A reweighted statistic is not a plain paired proportion.
    expect(chooseIntervalMethod({ a: [1, 0], b: [0, 0], strata: [0, 1], stratumWeights: [0.5, 0.5] }).methodUsed).toBe('t');
    expect(() => chooseIntervalMethod({ a: [1], b: [1, 0] })).toThrow(/same length/);
  });
});

describe('autoPairedInterval is the chosen method, unchanged', () => {
  const paired = pairScores(table, 'alpha', 'beta');

  it('0/1: Tango with the p-value of its score test (McNemar’s Z), no resampling', () => {
    const r = autoPairedInterval(paired.scoreA, paired.scoreB);
    const direct = pairedProportionInterval(pairedCounts(paired.scoreA, paired.scoreB), { method: 'tango' });
    expect(r.methodUsed).toBe('tango');
    expect(r.confidenceInterval).toEqual(direct.confidenceInterval);
    expect(r.pValue).toBe(direct.scorePValue);
    expect(r.pValueTest).toBe('tango-score');
    expect(r.bootstrap).toBeNull();
    // Hand computation: Z(0) = (75 − 14)/√89 = 6.466; two-sided p = 2Φ(−6.466) ≈ 1.0e-10.
    expect(r.pValue).toBeLessThan(2e-10);
    expect(r.pValue).toBeGreaterThan(5e-11);
    expect(r.pairedProportion?.counts).toMatchObject({ onlyA: 75, onlyB: 14 });
  });

  it('clustered: CR2', () => {
    const r = autoPairedInterval(paired.scoreA, paired.scoreB, { cluster: paired.cluster, clusterNames: paired.clusters });
    const direct = cr2Interval(paired.differences, Array.from(paired.cluster!, (c) => paired.clusters[c]));
    expect(r.methodUsed).toBe('cr2');
    expect(r.confidenceInterval).toEqual(direct.confidenceInterval);
    expect(r.df).toBe(direct.df);
  });

  it('continuous, 80 items on a bounded scale: the t interval (scipy ttest_rel, as tInterval); on 0–100 scores, not bounded to [0, 1]: studentized', () => {
    const pilot = pairScores(loadScores('examples/pilot.csv'), 'candidate', 'baseline');
    const unbounded = autoPairedInterval(pilot.scoreA, pilot.scoreB, { nResamples: 999, seed: 2 });
    expect(unbounded.methodUsed).toBe('studentized');
    expect(unbounded.confidenceInterval).toEqual(studentizedBootstrap(pilot.differences, { nResamples: 999, seed: 2 }).confidenceInterval);
    // Declared on its 0–100 scale, the same scores get the betting interval (two-sided, every sample).
    expect(autoPairedInterval(pilot.scoreA, pilot.scoreB, { scoreRange: [0, 100] }).methodUsed).toBe('betting');
    // Brought to [0, 1] without a declaration: t.
    const r = autoPairedInterval(pilot.scoreA.map((x) => x / 100), pilot.scoreB.map((x) => x / 100));
    expect(r.methodUsed).toBe('t');
    const t = tInterval(pilot.differences.map((x) => x / 100));
    expect(r.confidenceInterval[0]).toBeCloseTo(t.confidenceInterval[0], 12);
    expect(r.confidenceInterval[1]).toBeCloseTo(t.confidenceInterval[1], 12);
    expect(r.pValue).toBeCloseTo(t.pValue, 12);
  });

  it('continuous, 150 items in [0, 1]: still t (no BCa from 100 items on a bounded scale), with the t test’s p-value; with strata, BCa from 100 as before', () => {
    const rng = createRng('auto-bca');
    const a = Array.from({ length: 150 }, () => rng.nextFloat());
    const b = Array.from({ length: 150 }, () => rng.nextFloat());
    const r = autoPairedInterval(a, b, { nResamples: 999, seed: 3 });
    expect(r.methodUsed).toBe('t');
    const t = tInterval(a.map((x, i) => x - b[i]));
    expect(r.confidenceInterval[0]).toBeCloseTo(t.confidenceInterval[0], 12);
    expect(r.pValue).toBeCloseTo(t.pValue, 12);
    expect(r.pValueTest).toBe('t');
    // compareModels on the same pair: the t test's p-value, no sign-flip permutations (an analytic path does no resampling work).
    const viaCompare = compareModels(
      { source: 'test', models: ['a', 'b'], items: a.map((_, i) => `i${i}`), scores: [Float64Array.from(a), Float64Array.from(b)], repeats: [new Int32Array(150).fill(1), new Int32Array(150).fill(1)], repeatVariance: [new Float64Array(150), new Float64Array(150)], stratum: null, strata: [], cluster: null, clusters: [], dropped: 0, droppedItems: [] },
      { method: 'auto', nResamples: 999, seed: 3 },
    ).pairs[0];
    expect(viaCompare.methodUsed).toBe('t');
    expect('exact' in viaCompare.test).toBe(false);
    expect(viaCompare.pValue).toBeCloseTo(t.pValue, 12);
    const strata = Int32Array.from({ length: 150 }, (_, i) => i % 3);
    const s = autoPairedInterval(a, b, { nResamples: 999, seed: 3, strata });
    expect(s.methodUsed).toBe('bca');
    expect(s.confidenceInterval).toEqual(bootstrapMeanDifference(a, b, { nResamples: 999, seed: 3, strata }).confidenceInterval);
  });
});

describe('compareModels with method auto', () => {
  it('uses each pair’s method and p-value, echoes methodUsed, and any thread count gives the same bytes', async () => {
    const aligned = alignModels(table, ['alpha', 'beta', 'gamma']);
    const r = compareModels(aligned, { method: 'auto' });
    expect(r.method).toBe('auto');
    for (const p of r.pairs) {
      expect(p.methodUsed).toBe('tango');
      expect(p.pValue).toBe(p.auto!.pairedProportion!.scorePValue);
    }
    const clustered = compareModels(aligned, { method: 'auto', cluster: aligned.cluster });
    expect(clustered.pairs.every((p) => p.methodUsed === 'cr2')).toBe(true);
    const parallel = await compareModelsParallel(aligned, { method: 'auto', cluster: aligned.cluster, threads: 2 });
    expect(JSON.stringify(parallel)).toBe(JSON.stringify(clustered));
  });

  it('leaves a named method exactly as it was', () => {
    const aligned = alignModels(table, ['alpha', 'beta']);
    const r = compareModels(aligned, { method: 'bca', nResamples: 499 });
    expect(r.pairs[0].methodUsed).toBeUndefined();
    expect(r.pairs[0].confidenceInterval).toEqual(bootstrapMeanDifference(aligned.scores[0], aligned.scores[1], { nResamples: 499 }).confidenceInterval);
  });
});

describe('McNemar mid-p as an option', () => {
  it('compare --mid-p reports the mid-p of the paired table (2 P(X < 14) + P(X = 14), X ~ Bin(89, ½))', () => {
    const aligned = alignModels(table, ['alpha', 'beta']);
    const exact = compareModels(aligned, { method: 'auto' }).pairs[0];
    const mid = compareModels(aligned, { method: 'auto', midP: true }).pairs[0];
    expect(mid.auto!.pValueTest).toBe('mcnemar-mid-p');
    expect(mid.pValue).toBe(mid.auto!.pairedProportion!.midPValue);
    expect(mid.pValue).toBeLessThan(exact.pValue);
    expect(mid.confidenceInterval).toEqual(exact.confidenceInterval);
  });
});

describe('chooseIntervalMethod with skewAware (autoPairedInterval, the gate): skewness screen and one-sided rule', () => {
  // 30 items: b all 0, a = 1 on 3 items and 0 elsewhere except one 0.5 → differences in [0, 1],
  // G1 = 2.51 (scipy skew(bias=False) of 3 ones, one half, 26 zeros), so Cochran's 25·G1² ≈ 157 > 30.
  const a = Array.from({ length: 30 }, (_, i) => (i < 3 ? 1 : i === 3 ? 0.5 : 0));
  const b = a.map(() => 0);
  it('scores in [0, 1], too skewed for the CLT: two-sided → t with a warning (never chosen by the shape); one-sided → betting', () => {
    const c = chooseIntervalMethod({ a, b }, { skewAware: true });
    expect(c.methodUsed).toBe('t');
    expect(c.warnings?.[0]).toMatch(/Cochran's rule n > 25·G1² asks for \d+ items, these are 30/);
    const one = chooseIntervalMethod({ a, b, alternative: 'greater' }, { skewAware: true });
    expect(one.methodUsed).toBe('betting');
    expect(one.methodReason).toMatch(/Cochran's rule n > 25·G1² asks for \d+ items, these are 30/);
    // Off by default: the classic rule (t below 100 items).
    expect(chooseIntervalMethod({ a, b }).methodUsed).toBe('t');
  });
  it('the same shape on an unbounded scale → studentized, with a warning that no interval of a mean holds 95% on every such population', () => {
    const c = chooseIntervalMethod({ a: a.map((x) => 10 * x), b }, { skewAware: true });
    expect(c.methodUsed).toBe('studentized');
    expect(c.warnings?.[0]).toMatch(/skewed .* no interval of a mean holds 95%/);
  });
  it('[0, 1] scores with no spread in the differences → betting (an honest width, not a point)', () => {
    const flat = Array.from({ length: 20 }, () => 0.5);
    expect(chooseIntervalMethod({ a: flat, b: flat }, { skewAware: true }).methodUsed).toBe('betting');
  });
  it('symmetric continuous scores: one-sided → t at any n; two-sided on [0, 1] → t at any n; unbounded → studentized at any n', () => {
    const rng = createRng('skew-aware');
    const x = Array.from({ length: 400 }, () => rng.nextFloat());
    const y = Array.from({ length: 400 }, () => rng.nextFloat());
    expect(chooseIntervalMethod({ a: x, b: y, alternative: 'greater' }, { skewAware: true }).methodUsed).toBe('t');
    expect(chooseIntervalMethod({ a: x, b: y }, { skewAware: true }).methodUsed).toBe('t');
    expect(chooseIntervalMethod({ a: x.slice(0, 50), b: y.slice(0, 50) }, { skewAware: true }).methodUsed).toBe('t');
    expect(chooseIntervalMethod({ a: x.map((v) => 10 * v), b: y }, { skewAware: true }).methodUsed).toBe('studentized');
    // Without skewAware (headline differences, sweep's cost gaps): t below 100 items, BCa from 100, as before.
    expect(chooseIntervalMethod({ a: x, b: y }).methodUsed).toBe('bca');
  });
  it('a one-sided bound on unbounded scores skewed toward its side → studentized, even where Cochran passes; otherwise t', () => {
    // 400 items, differences −exp(0.3·z) at the normal quantiles z = Φ⁻¹((i + ½)/400): G1 ≈ −0.95,
    // so Cochran's rule wants about 23 items (it passes); the lower tail is the long one.
    const d = Array.from({ length: 400 }, (_, i) => -Math.exp(0.3 * normalQuantile((i + 0.5) / 400)));
    const base = d.map(() => 5);
    const left = d.map((x) => 5 + x);
    const right = d.map((x) => 5 - x);
    const lower = chooseIntervalMethod({ a: left, b: base, alternative: 'greater' }, { skewAware: true });
    expect(lower.methodUsed).toBe('studentized');
    expect(lower.methodReason).toMatch(/one-sided bound, unbounded scores skewed toward the bound's side \(G1 = -0\.9\d\)/);
    expect(chooseIntervalMethod({ a: right, b: base, alternative: 'greater' }, { skewAware: true }).methodUsed).toBe('t');
    // An upper bound is threatened by the right tail: the mirror.
    expect(chooseIntervalMethod({ a: right, b: base, alternative: 'less' }, { skewAware: true }).methodUsed).toBe('studentized');
    expect(chooseIntervalMethod({ a: left, b: base, alternative: 'less' }, { skewAware: true }).methodUsed).toBe('t');
    // Two-sided on an unbounded scale: studentized at every n, whatever the shape.
    expect(chooseIntervalMethod({ a: left, b: base }, { skewAware: true }).methodUsed).toBe('studentized');
    // Bounded to [0, 1] (divide by 10): t, as before.
    expect(chooseIntervalMethod({ a: left.map((x) => x / 10), b: base.map((x) => x / 10), alternative: 'greater' }, { skewAware: true }).methodUsed).toBe('t');
  });
  it('autoPairedInterval runs the chosen interval and carries the warning', () => {
    const r = autoPairedInterval(a, b, { seed: 1, alternative: 'greater' });
    expect(r.methodUsed).toBe('betting');
    expect(r.confidenceInterval[0]).toBeLessThan(r.estimate);
    const u = autoPairedInterval(a.map((x) => 10 * x), b, { seed: 1, nResamples: 999 });
    expect(u.methodUsed).toBe('studentized');
    expect(u.warnings.some((w) => /skewed for a mean's interval/.test(w))).toBe(true);
  });
});

describe('the skewness screen with strata', () => {
  it('a stratum of 2 items, or one too skewed for its size, sends a stratified mean to the stratified studentized bootstrap', () => {
    const rng = createRng('strata-screen');
    const x = Array.from({ length: 40 }, () => rng.nextFloat() * 3);
    const y = Array.from({ length: 40 }, () => rng.nextFloat() * 3);
    const even = Int32Array.from({ length: 40 }, (_, i) => i % 2);
    // Two strata of 20 uniform-difference items: G1 small, 25·G1² well under 20 → the classic rule (t).
    expect(chooseIntervalMethod({ a: x, b: y, strata: even }, { skewAware: true }).methodUsed).toBe('t');
    const tiny = Int32Array.from({ length: 40 }, (_, i) => (i < 2 ? 1 : 0));
    const c = chooseIntervalMethod({ a: x, b: y, strata: tiny }, { skewAware: true });
    expect(c.methodUsed).toBe('studentized');
    expect(c.methodReason).toMatch(/stratum #1 has 2 items/);
    const r = autoPairedInterval(x, y, { strata: tiny, nResamples: 499 });
    expect(r.methodUsed).toBe('studentized');
    expect(r.warnings.some((w) => /too small or too skewed/.test(w))).toBe(true);
  });
});
