import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignModels, loadScores, pairScores } from '../../src/data/index.js';
import { reweightedHeadline, stratifiedHeadlines, stratumDiscordance, stratumScores, StratumRangeError } from '../../src/strata/index.js';

/**
 * Reference values from R survey 4.1.1, made by tests/reference/strata/survey.R:
 *
 *   d$w <- traffic[d$stratum] / n_h[d$stratum]          # each stratum's weights sum to W_h
 *   des <- svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = d)
 *   svymean(~score, des); confint(svymean(~score, des))
 *   svyby(~score, ~stratum, des, svymean); confint(svyby(...))
 *   svymean(~d, des) with d = score A − score B             # the difference of headlines
 *
 * Why they agree with src/strata by construction: survey's estimate is Σ w_i y_i / Σ w_i =
 * Σ_h W_h ȳ_h (the weights of stratum h sum to W_h and all of them to 1). Its variance, with
 * strata and no fpc (with-replacement sampling), is Σ_h n_h/(n_h − 1) Σ_i (z_hi − z̄_h)² with the
 * ratio's influence values z_hi = w_i (y_i − ȳ_w); inside stratum h, z_hi − z̄_h = (W_h/n_h)(y_i −
 * ȳ_h), so the sum is Σ_h W_h² (n_h − 1) s_h² / n_h² · n_h/(n_h − 1) = Σ_h W_h² s_h² / n_h with s_h²
 * the n_h − 1 sample variance: exactly reweightedHeadline's formula. confint uses qnorm, as we
 * do. For a domain that is a whole stratum, svyby's SE is s_h / √n_h, stratumScores' SE.
 */
interface Reference {
  cases: Array<{
    name: string;
    scores: string;
    traffic: Record<string, number>;
    confidenceLevel: number;
    models: Array<{
      model: string;
      estimate: number;
      standardError: number;
      interval: [number, number];
      rawMean: number;
      strata: Array<{ stratum: string; n: number; mean: number; standardError: number; interval: [number, number] }>;
    }>;
    differences: Array<{ a: string; b: string; estimate: number; standardError: number }>;
  }>;
}
const reference = JSON.parse(readFileSync(new URL('../reference/strata/survey.json', import.meta.url), 'utf8')) as Reference;

describe('reweighted headline against R survey (svydesign + svymean), to 1e-9', () => {
  for (const c of reference.cases) {
    it(c.name, () => {
      const table = loadScores(c.scores);
      const aligned = alignModels(table, table.models);
      const weights = Object.entries(c.traffic).map(([stratum, weight]) => ({ stratum, weight }));
      const order = weights.map((w) => w.stratum);
      for (const ref of c.models) {
        const m = aligned.models.indexOf(ref.model);
        const scores = stratumScores(aligned.scores[m], aligned.stratum!, aligned.strata, { strata: order, confidenceLevel: c.confidenceLevel, intervalMethod: 'wald' });
        scores.strata.forEach((s, h) => {
          const r = ref.strata[h];
          expect(s.stratum).toBe(r.stratum);
          expect(s.n).toBe(r.n);
          expect(Math.abs(s.mean - r.mean)).toBeLessThan(1e-9);
          expect(Math.abs(s.standardError - r.standardError)).toBeLessThan(1e-9);
          expect(Math.abs(s.interval[0] - r.interval[0])).toBeLessThan(1e-9);
          expect(Math.abs(s.interval[1] - r.interval[1])).toBeLessThan(1e-9);
        });
        const headline = reweightedHeadline(scores.strata, weights, { confidenceLevel: c.confidenceLevel, intervalMethod: 'wald' });
        expect(Math.abs(headline.estimate - ref.estimate)).toBeLessThan(1e-9);
        expect(Math.abs(headline.standardError - ref.standardError)).toBeLessThan(1e-9);
        expect(Math.abs(headline.interval[0] - ref.interval[0])).toBeLessThan(1e-9);
        expect(Math.abs(headline.interval[1] - ref.interval[1])).toBeLessThan(1e-9);
        expect(headline.weights).toEqual(weights);
        expect(headline.warnings).toEqual([]);
      }
      for (const ref of c.differences) {
        const paired = pairScores(table, ref.a, ref.b);
        const d = stratumScores(paired.differences, paired.stratum!, paired.strata, { strata: order });
        const difference = reweightedHeadline(d.strata, weights);
        expect(Math.abs(difference.estimate - ref.estimate)).toBeLessThan(1e-9);
        expect(Math.abs(difference.standardError - ref.standardError)).toBeLessThan(1e-9);
      }
    });
  }
});

describe('stratifiedHeadlines', () => {
  const c = reference.cases[0];
  const table = loadScores(c.scores);
  const aligned = alignModels(table, table.models);
  const weights = Object.entries(c.traffic).map(([stratum, weight]) => ({ stratum, weight }));

  it('reports per model the R values and the plain mean, and differences of headlines', () => {
    const r = stratifiedHeadlines(aligned, weights, { nResamples: 2000, seed: 7 });
    for (const ref of c.models) {
      const m = r.models.find((x) => x.model === ref.model)!;
      expect(Math.abs(m.headline.estimate - ref.estimate)).toBeLessThan(1e-9);
      expect(Math.abs(m.headline.standardError - ref.standardError)).toBeLessThan(1e-9);
      expect(Math.abs(m.rawMean - ref.rawMean)).toBeLessThan(1e-12);
    }
    expect(r.differences.map((d) => [d.a, d.b])).toEqual([
      ['alpha', 'beta'],
      ['alpha', 'gamma'],
      ['beta', 'gamma'],
    ]);
    for (const ref of c.differences) {
      const d = r.differences.find((x) => x.a === ref.a && x.b === ref.b)!;
      // The difference of headlines is the headline of the differences.
      const ha = r.models.find((x) => x.model === ref.a)!.headline.estimate;
      const hb = r.models.find((x) => x.model === ref.b)!.headline.estimate;
      expect(d.estimate).toBeCloseTo(ha - hb, 12);
      expect(Math.abs(d.estimate - ref.estimate)).toBeLessThan(1e-9);
      expect(Math.abs(d.standardError - ref.standardError)).toBeLessThan(1e-9);
      // The stratified bootstrap's SE estimates the same variance, shrunk by (n_h − 1)/n_h per
      // stratum (≤ 1.3% here, n_h ≥ 80) and with Monte Carlo error ≈ 1/√(2B) ≈ 1.6% relative at
      // B = 2000: 8% is over 4 of those errors combined.
      expect(Math.abs(d.bootstrapStandardError / d.standardError - 1)).toBeLessThan(0.08);
      expect(d.interval[0]).toBeLessThan(d.estimate);
      expect(d.interval[1]).toBeGreaterThan(d.estimate);
    }
    expect(r.method).toBe('bca');
    expect(r.nResamples).toBe(2000);
    expect(r.seed).toBe('7');
  });

  it('is deterministic: same seed, same bytes', () => {
    const a = JSON.stringify(stratifiedHeadlines(aligned, weights, { nResamples: 500, seed: 'x', method: 'percentile' }));
    const b = JSON.stringify(stratifiedHeadlines(aligned, weights, { nResamples: 500, seed: 'x', method: 'percentile' }));
    expect(a).toBe(b);
    const other = JSON.stringify(stratifiedHeadlines(aligned, weights, { nResamples: 500, seed: 'y', method: 'percentile' }));
    expect(other).not.toBe(a);
  });

  it('one model: no differences', () => {
    const one = alignModels(table, ['beta']);
    const r = stratifiedHeadlines(one, weights);
    expect(r.models.map((m) => m.model)).toEqual(['beta']);
    expect(r.differences).toEqual([]);
  });
});

describe('equal traffic and quota shares: the headline is the plain mean (fast-check)', () => {
  it('Σ (n_h / n) ȳ_h = ȳ', () => {
    // When each stratum's traffic share equals its share of the set, reweighting changes nothing.
    const arb = fc.array(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(arb, (groups) => {
        const scores = groups.flat();
        const stratum = groups.flatMap((g, h) => g.map(() => h));
        const names = groups.map((_, h) => `s${h}`);
        const n = scores.length;
        const weights = groups.map((g, h) => ({ stratum: names[h], weight: g.length / n }));
        const rows = stratumScores(scores, stratum, names).strata;
        const headline = reweightedHeadline(rows, weights);
        const plain = scores.reduce((a, b) => a + b, 0) / n;
        expect(Math.abs(headline.estimate - plain)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(plain)) + 1e-12 * 100);
      }),
      { numRuns: 500 },
    );
  });
});

describe('degenerate strata: explicit warnings or errors, never a silent NaN', () => {
  const weights = [
    { stratum: 'x', weight: 0.5 },
    { stratum: 'y', weight: 0.5 },
  ];

  it('a stratum with one item: NaN standard error, said so', () => {
    const rows = stratumScores([1, 0, 1], [0, 0, 1], ['x', 'y'], { intervalMethod: 'wald' });
    expect(rows.strata[1].n).toBe(1);
    expect(rows.strata[1].standardError).toBeNaN();
    expect(rows.warnings.join()).toMatch(/stratum "y" has one item: its standard error and interval are NaN/);
    const h = reweightedHeadline(rows.strata, weights);
    expect(h.estimate).toBe(0.5 * 0.5 + 0.5 * 1);
    expect(h.standardError).toBeNaN();
    expect(h.warnings.join()).toMatch(/stratum "y" has one item: the headline's standard error and interval are NaN/);
  });

  it('a weighted stratum with no items: NaN headline, said so; weight 0: left out, said so', () => {
    const rows = stratumScores([1, 0, 1], [0, 0, 0], ['x'], { strata: ['x', 'y'] });
    expect(rows.strata[1]).toMatchObject({ stratum: 'y', n: 0 });
    expect(rows.warnings.join()).toMatch(/stratum "y" has no items/);
    const h = reweightedHeadline(rows.strata, weights);
    expect(h.estimate).toBeNaN();
    expect(h.standardError).toBeNaN();
    expect(h.warnings.join()).toMatch(/stratum "y" has traffic share 0.5 but no items in the scores, so the reweighted headline is NaN/);
    const zero = reweightedHeadline(rows.strata, [
      { stratum: 'x', weight: 1 },
      { stratum: 'y', weight: 0 },
    ]);
    expect(zero.estimate).toBeCloseTo(2 / 3, 15);
    expect(zero.standardError).toBeCloseTo(Math.sqrt(1 / 3 / 3), 15);
    expect(zero.warnings.join()).toMatch(/"y" has no items and traffic share 0: it does not enter the headline/);
  });

  it('a stratum in the scores but not in the weights: an error naming it', () => {
    const rows = stratumScores([1, 0, 1, 1], [0, 0, 1, 1], ['x', 'z']).strata;
    expect(() => reweightedHeadline(rows, weights)).toThrow(StratumRangeError);
    expect(() => reweightedHeadline(rows, weights)).toThrow(/strata\.z: has 2 items in the scores but no traffic share/);
  });

  it('bad weights and settings', () => {
    const rows = stratumScores([1, 0, 1, 1], [0, 0, 1, 1], ['x', 'y']).strata;
    expect(() => reweightedHeadline(rows, [{ stratum: 'x', weight: 0.5 }, { stratum: 'y', weight: 0.4 }])).toThrow(/weights must sum to 1 \(got 0\.9\)/);
    expect(() => reweightedHeadline(rows, [{ stratum: 'x', weight: -0.5 }, { stratum: 'y', weight: 1.5 }])).toThrow(/strata\.x: weight must be a finite number ≥ 0/);
    expect(() => reweightedHeadline(rows, weights, { confidenceLevel: 1 })).toThrow(/confidenceLevel must be in \(0, 1\)/);
    expect(() => stratumScores([1, NaN], [0, 0], ['x'])).toThrow(/scores\[1\] must be finite/);
    expect(() => stratumScores([1, 1], [0, 2], ['x'])).toThrow(/stratum\[1\] must index names/);
  });

  it('constant scores: zero-width interval, said so', () => {
    const rows = stratumScores([1, 1, 1, 0, 1], [0, 0, 0, 1, 1], ['x', 'y'], { intervalMethod: 'wald' });
    expect(rows.strata[0].standardError).toBe(0);
    expect(rows.warnings.join()).toMatch(/stratum "x": every item scores 1, so its standard error is 0/);
  });
});

describe('discordance per stratum (hand-computed)', () => {
  it('share of disagreeing items and the variance of the difference', () => {
    // x: A = (1, 1, 0, 1), B = (1, 0, 0, 0): differ on 2 of 4; d = (0, 1, 0, 1): mean .5, var (4·.25)/3 = 1/3.
    // y: A = (0, 1), B = (0, 1): agree everywhere, var 0.
    const r = stratumDiscordance({ scoreA: [1, 1, 0, 1, 0, 1], scoreB: [1, 0, 0, 0, 0, 1], stratum: [0, 0, 0, 0, 1, 1], strata: ['x', 'y'] });
    expect(r.binary).toBe(true);
    expect(r.strata[0]).toMatchObject({ stratum: 'x', n: 4, discordance: 0.5, meanDifference: 0.5 });
    expect(r.strata[0].varianceOfDifference).toBeCloseTo(1 / 3, 15);
    expect(r.strata[1]).toMatchObject({ stratum: 'y', n: 2, discordance: 0, meanDifference: 0, varianceOfDifference: 0, sd: 0 });
    expect(r.warnings).toEqual([]);
  });

  it('on the bundled pilot: rare clauses separate the candidates, routine work barely does', () => {
    const paired = pairScores(loadScores('examples/pilot.csv'), 'candidate', 'baseline');
    const r = stratumDiscordance(paired, { strata: ['routine', 'rare_clause', 'past_failure', 'negative_control', 'missing'] });
    expect(r.binary).toBe(false);
    const sd = Object.fromEntries(r.strata.map((s) => [s.stratum, s.sd]));
    expect(sd.rare_clause).toBeGreaterThan(5 * sd.routine);
    expect(r.strata[4].n).toBe(0);
    expect(r.warnings.join()).toMatch(/stratum "missing" has no paired items/);
  });
});

describe('the JSDoc @examples', () => {
  it('hold', async () => {
    const s = await import('../../src/strata/index.js');
    expect(new s.StratumRangeError('rare_clause', 'optimal allocation needs a cost', undefined).stratum).toBe('rare_clause');
    expect(s.largestRemainder([76.923, 76.923, 46.154], 200)).toEqual([77, 77, 46]);
    expect(s.allocationTargets([{ name: 'a', traffic: 0.5, cost: 4 }], 'optimal', { a: 0.3 })).toEqual([0.075]);
    expect(s.stratumDiscordance({ scoreA: [1, 1, 0, 1], scoreB: [1, 0, 0, 0], stratum: [0, 0, 1, 1], strata: ['x', 'y'] }).strata.map((x) => x.discordance)).toEqual([0.5, 0.5]);
    expect(s.stratumScores([1, 0, 1, 1], [0, 0, 1, 1], ['x', 'y']).strata[0].mean).toBe(0.5);
    expect(
      s.reweightedHeadline(
        [
          { stratum: 'routine', n: 4, mean: 0.9, sd: 0.1 },
          { stratum: 'rare', n: 4, mean: 0.5, sd: 0.2 },
        ],
        [
          { stratum: 'routine', weight: 0.75 },
          { stratum: 'rare', weight: 0.25 },
        ],
      ).estimate,
    ).toBeCloseTo(0.8, 15);
    expect(s.compareAllocations([{ name: 'a', traffic: 0.5 }, { name: 'b', traffic: 0.5 }], { budget: 100, sd: { a: 1, b: 3 } }).compare.map((c) => c.method)).toEqual(['proportional', 'neyman']);
    const r = s.stratifiedHeadlines({ models: ['m'], scores: [[1, 0, 1, 1]], stratum: Int32Array.from([0, 0, 1, 1]), strata: ['x', 'y'] }, [
      { stratum: 'x', weight: 0.8 },
      { stratum: 'y', weight: 0.2 },
    ]);
    expect(r.models[0].headline.estimate).toBeCloseTo(0.6, 15);
    expect(r.models[0].rawMean).toBe(0.75);
  });
});
