import { describe, expect, it } from 'vitest';
import { betaQuantile } from '../../src/distributions/index.js';
import { reweightedHeadline, stratumScores, weightedProportionInterval } from '../../src/strata/index.js';
import reference from '../reference/strata-proportions/proportions.json' with { type: 'json' };

/**
 * Reference values from R survey 4.1.1 and prop.test, made by
 * tests/reference/strata-proportions/proportions.R:
 *   des <- svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = d)   # w = W_h / n_h
 *   svyciprop(~y, des, method = "logit" | "xlogit" | "beta", level)
 *   prop.test(x, n, correct = FALSE)$conf.int                               # Wilson, per stratum
 * survey's "logit" fits a quasibinomial svyglm by IRLS, so it matches the closed form only to the
 * IRLS tolerance (differences ~5e-10 on these data); "xlogit" is the same closed form by the delta
 * method and is matched to 1e-12. betaSmoothed is benchplan's own variant (Jeffreys-smoothed stratum
 * variances), implemented by hand in the same R script from its formula.
 */
function headlineOf(c: { scores: number[]; strata: string[]; traffic: unknown }, method: 'logit' | 'beta' | 'beta-smoothed' | 'wald', confidenceLevel: number) {
  const names = Object.keys(c.traffic as Record<string, number>);
  const index = (c.strata as string[]).map((s) => names.indexOf(s));
  const rows = stratumScores(c.scores, index, names, { confidenceLevel });
  const weights = names.map((stratum) => ({ stratum, weight: (c.traffic as unknown as Record<string, number>)[stratum] }));
  return { rows, headline: reweightedHeadline(rows.strata, weights, { confidenceLevel, intervalMethod: method }) };
}

describe('reweighted headline of [0, 1] scores against R survey svyciprop', () => {
  for (const c of reference.cases) {
    it(`${c.name}: logit, beta and Wald at 95% and 90%`, () => {
      for (const ref of c.intervals) {
        const logit = headlineOf(c, 'logit', ref.confidenceLevel).headline;
        expect(Math.abs(logit.estimate - c.estimate)).toBeLessThan(1e-12);
        expect(Math.abs(logit.standardError - c.standardError)).toBeLessThan(1e-12);
        expect(logit.method).toBe('logit');
        for (let k = 0; k < 2; k++) {
          expect(Math.abs(logit.interval[k] - ref.xlogit[k])).toBeLessThan(1e-12);
          expect(Math.abs(logit.interval[k] - ref.logit[k])).toBeLessThan(2e-9);
        }
        const beta = headlineOf(c, 'beta', ref.confidenceLevel).headline;
        expect(beta.method).toBe('beta');
        for (let k = 0; k < 2; k++) expect(Math.abs(beta.interval[k] - ref.beta[k])).toBeLessThan(1e-10);
        const smoothed = headlineOf(c, 'beta-smoothed', ref.confidenceLevel).headline;
        expect(smoothed.method).toBe('beta-smoothed');
        for (let k = 0; k < 2; k++) expect(Math.abs(smoothed.interval[k] - ref.betaSmoothed[k])).toBeLessThan(1e-10);
        const wald = headlineOf(c, 'wald', ref.confidenceLevel).headline;
        for (let k = 0; k < 2; k++) expect(Math.abs(wald.interval[k] - ref.wald[k])).toBeLessThan(1e-12);
      }
    });
  }

  it('beta-smoothed when every item passes: inside [0, 1], never the point [1, 1] (the R hand implementation)', () => {
    const r = headlineOf(reference.allPass, 'beta-smoothed', 0.95).headline;
    expect(r.interval[1]).toBe(1);
    expect(Math.abs(r.interval[0] - reference.allPass.betaSmoothed95[0])).toBeLessThan(1e-10);
    expect(r.interval[0]).toBeLessThan(1);
  });

  it('auto: beta-smoothed for 0/1 scores, Wald for partial credit', () => {
    const [binary, , , partial] = reference.cases;
    const names = Object.keys(binary.traffic);
    const auto = (c: typeof binary) => {
      const rows = stratumScores(c.scores, (c.strata as string[]).map((s) => names.indexOf(s)), names);
      return reweightedHeadline(rows.strata, names.map((stratum) => ({ stratum, weight: (c.traffic as unknown as Record<string, number>)[stratum] })));
    };
    expect(auto(binary).method).toBe('beta-smoothed');
    expect(Math.abs(auto(binary).interval[0] - binary.intervals[0].betaSmoothed[0])).toBeLessThan(1e-10);
    expect(auto(partial).method).toBe('wald');
  });
});

describe('per-stratum Wilson intervals against R prop.test(x, n, correct = FALSE)', () => {
  for (const c of reference.cases.filter((c) => c.perStratum.length > 0)) {
    it(c.name, () => {
      const { rows } = headlineOf(c, 'beta', 0.95);
      const rows90 = headlineOf(c, 'beta', 0.9).rows;
      c.perStratum.forEach((ref, h) => {
        expect(rows.strata[h]).toMatchObject({ stratum: ref.stratum, n: ref.n, method: 'wilson', binary: true });
        for (let k = 0; k < 2; k++) {
          expect(Math.abs(rows.strata[h].interval[k] - ref.wilson95[k])).toBeLessThan(1e-12);
          expect(Math.abs(rows90.strata[h].interval[k] - ref.wilson90[k])).toBeLessThan(1e-12);
        }
      });
    });
  }
});

describe('degenerate headlines stay inside [0, 1] and are never a point', () => {
  it('every item passes: Clopper–Pearson at Kish size, [(α/2)^(1/n*), 1], the JSDoc example', () => {
    // one stratum of 10 items, all 1: n* = 10, low = 0.025^(1/10) = 0.6915028921812392 (R: qbeta(0.025, 10, 1))
    const r = weightedProportionInterval({ estimate: 1, variance: 0, items: 10, strata: 1, kishSize: 10, confidenceLevel: 0.95 }, 'beta');
    expect(r.interval[0]).toBeCloseTo(0.6915028921812392, 14);
    expect(r.interval[1]).toBe(1);
    expect(r.warnings.join()).toMatch(/Kish's effective size 10/);
    const h = reweightedHeadline(
      stratumScores(new Array(12).fill(1), [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1], ['a', 'b']).strata,
      [
        { stratum: 'a', weight: 0.5 },
        { stratum: 'b', weight: 0.5 },
      ],
      { intervalMethod: 'beta' },
    );
    // Kish: 1 / (0.25/4 + 0.25/8) = 32/3; low = 0.025^(3/32)
    expect(h.interval[0]).toBeCloseTo(0.025 ** (3 / 32), 12);
    expect(h.interval[1]).toBe(1);
    expect(h.method).toBe('beta');
    expect(weightedProportionInterval({ estimate: 1, variance: 0, items: 10, strata: 1, kishSize: 10, confidenceLevel: 0.95 }, 'logit').method).toBe('beta');
  });
  it('the logit/beta methods refuse scores outside [0, 1]', () => {
    const rows = stratumScores([2, 0, 1, 1], [0, 0, 0, 0], ['a']);
    expect(() => reweightedHeadline(rows.strata, [{ stratum: 'a', weight: 1 }], { intervalMethod: 'beta' })).toThrow(/needs every score in \[0, 1\]/);
    expect(reweightedHeadline(rows.strata, [{ stratum: 'a', weight: 1 }]).method).toBe('wald');
  });
  it('betaQuantile against R qbeta', () => {
    // R: qbeta(0.975, 3.5, 0.2) = 0.9999999979527355309; qbeta(1e-6, 50, 2) = 0.7185140387155659614
    expect(betaQuantile(0.025, 1, 10)).toBeCloseTo(0.0025285785444617843, 15);
    expect(Math.abs(betaQuantile(0.975, 3.5, 0.2) - 0.9999999979527355309)).toBeLessThan(1e-15);
    expect(Math.abs(betaQuantile(1e-6, 50, 2) - 0.7185140387155659614)).toBeLessThan(1e-14);
  });
});

describe('clopperPearson (exported for headline --design)', () => {
  it('the JSDoc example: 10 of 10 gives [0.025^(1/10), 1] (Clopper–Pearson by hand)', async () => {
    const { clopperPearson } = await import('../../src/strata/proportion-interval.js');
    const [lo, hi] = clopperPearson(1, 10, 0.05);
    expect(lo).toBeCloseTo(0.025 ** (1 / 10), 12);
    expect(hi).toBe(1);
  });
});
