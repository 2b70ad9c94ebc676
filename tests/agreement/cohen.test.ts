import { describe, expect, it } from 'vitest';
import { cohenKappa } from '../../src/agreement/index.js';
import { inputs, psych, statsmodels } from './reference.js';
import tiesR from '../reference/ties/r.json' with { type: 'json' };
import tiesStatsmodels from '../reference/ties/statsmodels.json' with { type: 'json' };

// References (tests/reference/agreement/):
//   Python: statsmodels.stats.inter_rater.cohens_kappa(table, return_results=True) -> kappa, std_kappa, std_kappa0
//   R:      ck <- psych::cohen.kappa(cbind(a, b)); ck$kappa, sqrt(ck$var.kappa), ck$confid["unweighted kappa", ]
const TOL = 1e-12;

function column(labels: Array<Array<string | null>>, k: number): Array<string | null> {
  return labels.map((row) => row[k]);
}

describe('cohenKappa', () => {
  it('matches the Wikipedia example (kappa 0.4) and both references on it', () => {
    const r = cohenKappa(inputs.cohenWikipedia.a, inputs.cohenWikipedia.b);
    expect(r.kappa).toBeCloseTo(inputs.cohenWikipedia.published, 12);
    expect(Math.abs(r.kappa - statsmodels.cohen.wikipedia.kappa)).toBeLessThan(TOL);
    expect(Math.abs(r.standardError - statsmodels.cohen.wikipedia.standardError)).toBeLessThan(TOL);
    expect(Math.abs(r.standardErrorNull - (statsmodels.cohen.wikipedia.standardErrorNull as number))).toBeLessThan(TOL);
    expect(Math.abs(r.standardError - psych.wikipedia.standardError)).toBeLessThan(TOL);
    expect(Math.abs(r.interval[0] - (psych.wikipedia.interval as number[])[0])).toBeLessThan(TOL);
    expect(Math.abs(r.interval[1] - (psych.wikipedia.interval as number[])[1])).toBeLessThan(TOL);
    expect(r.n).toBe(50);
  });

  it('uses only items both annotators labelled (missing labels)', () => {
    const r = cohenKappa(inputs.cohenMissing.a, inputs.cohenMissing.b);
    expect(r.n).toBe(statsmodels.cohen.missing.n);
    expect(r.n).toBe(psych.missing.n);
    expect(r.dropped).toBe(inputs.cohenMissing.a.length - r.n);
    expect(Math.abs(r.kappa - statsmodels.cohen.missing.kappa)).toBeLessThan(TOL);
    expect(Math.abs(r.standardError - statsmodels.cohen.missing.standardError)).toBeLessThan(TOL);
    expect(Math.abs(r.standardError - psych.missing.standardError)).toBeLessThan(TOL);
    expect(Math.abs(r.interval[0] - (psych.missing.interval as number[])[0])).toBeLessThan(TOL);
    expect(Math.abs(r.interval[1] - (psych.missing.interval as number[])[1])).toBeLessThan(TOL);
  });

  for (const [type, data] of Object.entries(inputs.examples)) {
    it(`matches statsmodels and psych on examples/annotations.csv, ${type} (${data.annotators[0]} / ${data.annotators[1]})`, () => {
      const r = cohenKappa(column(data.labels, 0), column(data.labels, 1));
      const sm = statsmodels.cohen.examples[type];
      const ps = psych.examples[type];
      expect(sm.pair).toEqual(data.annotators.slice(0, 2));
      expect(Math.abs(r.kappa - sm.kappa)).toBeLessThan(TOL);
      expect(Math.abs(r.kappa - ps.kappa)).toBeLessThan(TOL);
      expect(Math.abs(r.standardError - sm.standardError)).toBeLessThan(TOL);
      expect(Math.abs(r.standardError - ps.standardError)).toBeLessThan(TOL);
      expect(Math.abs(r.standardErrorNull - (sm.standardErrorNull as number))).toBeLessThan(TOL);
      // psych clips the interval to [-1, 1]; so do we.
      expect(Math.abs(r.interval[0] - (ps.interval as number[])[0])).toBeLessThan(TOL);
      expect(Math.abs(r.interval[1] - (ps.interval as number[])[1])).toBeLessThan(TOL);
    });
  }

  it('repeats its JSDoc example', () => {
    // p_o = 3/4; label shares A (y .5, n .5), B (y .25, n .75): p_e = .125 + .375 = .5; κ = .25 / .5.
    expect(cohenKappa(['y', 'y', 'n', 'n'], ['y', 'n', 'n', 'n']).kappa).toBeCloseTo(0.5, 15);
  });

  it('widens with the confidence level', () => {
    const a = cohenKappa(inputs.cohenWikipedia.a, inputs.cohenWikipedia.b, { confidenceLevel: 0.8 });
    const b = cohenKappa(inputs.cohenWikipedia.a, inputs.cohenWikipedia.b, { confidenceLevel: 0.99 });
    // qnorm(0.9) = 1.2815515655446004, qnorm(0.995) = 2.5758293035489004 (R)
    expect(a.interval[1] - a.kappa).toBeCloseTo(1.2815515655446004 * a.standardError, 12);
    expect(b.interval[1] - b.kappa).toBeCloseTo(2.5758293035489004 * b.standardError, 12);
  });

  it('returns NaN with a warning when kappa is undefined', () => {
    const none = cohenKappa(['a', null], [null, 'b']);
    expect(none.kappa).toBeNaN();
    expect(none.n).toBe(0);
    expect(none.warnings.join()).toMatch(/no item has labels from both/);
    const constant = cohenKappa(['a', 'a', 'a'], ['a', 'a', 'a']);
    expect(constant.kappa).toBeNaN();
    expect(constant.warnings.join()).toMatch(/only the label "a"/);
  });

  it('warns that a perfect-agreement interval carries no sampling error', () => {
    const r = cohenKappa(['a', 'b', 'a', 'b'], ['a', 'b', 'a', 'b']);
    expect([r.kappa, r.standardError, ...r.interval]).toEqual([1, 0, 1, 1]);
    expect(r.warnings.join()).toMatch(/agree on all 4 items: the large-sample standard error is 0/);
  });

  it('perfect agreement: SE exactly 0, as R psych (tests/reference/ties); statsmodels\' cancellation gives NaN or −1e-17', () => {
    // psych::cohen.kappa(cbind(a, a))$var.kappa is 0 on all three; statsmodels cohens_kappa's var_kappa
    // is −1.48e-17 on the 12-item, 5-label case (std NaN); benchplan's own formula gave SE 1.09e-8 there.
    for (const [k, c] of tiesR.cohenPerfect.entries()) {
      const got = cohenKappa(c.labels, c.labels);
      expect(got.kappa).toBe(c.kappa);
      expect(got.standardError).toBe(c.standardError);
      expect(got.standardError).toBe(0);
      expect(got.interval).toEqual([1, 1]);
      const sm = tiesStatsmodels.cohenPerfect[k];
      expect(sm.n).toBe(c.labels.length);
      expect(Math.abs(sm.varKappa)).toBeLessThan(1e-16);
    }
  });

  it('rejects vectors of different lengths and a bad confidence level', () => {
    expect(() => cohenKappa(['a'], ['a', 'b'])).toThrow(TypeError);
    expect(() => cohenKappa(['a'], ['a'], { confidenceLevel: 1 })).toThrow(/confidenceLevel/);
  });
});
