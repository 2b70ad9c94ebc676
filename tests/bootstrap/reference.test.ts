import { describe, expect, it } from 'vitest';
import { bootstrapMean, signFlipTest } from '../../src/bootstrap/index.js';
import { clusteredStandardError, holmAdjust, mcnemarFromCounts, tInterval } from '../../src/paired/index.js';
import { normalCdf, normalQuantile, studentTQuantile } from '../../src/distributions/index.js';
import { intervalsFromIndices } from '../../src/bootstrap/statistic.js';
import { end, maxAbsError, referenceJson } from './reference.js';

// Reference values: tests/reference/bootstrap/scipy_reference.py (scipy 1.10, numpy 1.24, statsmodels
// 0.13, mpmath) → scipy.json, and r_reference.R (R 4.2, boot 1.3-28, survey 4.1) → r.json.

interface ScipyJson {
  sameResamples: Array<{
    name: string;
    a: number[];
    b: number[];
    nResamples: number;
    indices: number[];
    intervals: Array<{ method: 'percentile' | 'basic' | 'bca'; confidenceLevel: number; alternative: 'two-sided' | 'less' | 'greater'; interval: [number | null, number | null]; standardError: number }>;
  }>;
  scipyAgainstR: { x: number[]; expected: Record<'basic' | 'percentile' | 'bca', [number, number]>; rtol: number };
  tInterval: Array<{
    a: number[];
    b: number[];
    confidenceLevel: number;
    alternative: 'two-sided' | 'less' | 'greater';
    interval: [number | null, number | null];
    mpmathInterval: [number | null, number | null];
    scipyQuantileError: number;
    standardError: number;
    tStatistic: number;
    pValue: number;
    df: number;
  }>;
  tQuantiles: Array<{ df: number; p: number; quantile: number; scipy: number }>;
  normal: Array<{ p: number; quantile: number }>;
  normalCdf: Array<{ z: number; cdf: number }>;
  mcnemar: Array<{ onlyA: number; onlyB: number; exactPValue: number; chiSquare: number; chiSquarePValue: number; chiSquarePlain: number; chiSquarePlainPValue: number }>;
  signFlip: Array<{ d: number[]; alternative: 'two-sided' | 'less' | 'greater'; pValue: number; statistic: number }>;
}

interface RJson {
  sameResamples: { a: number[]; b: number[]; nResamples: number; t0: number; tiesWithEstimate: number; indices: number[]; intervals: Array<{ method: 'percentile' | 'basic' | 'bca'; confidenceLevel: number; interval: [number, number] }> };
  holm: Array<{ p: Array<number | null>; adjusted: Array<number | null> }>;
  mcnemar: Array<{ onlyA: number; onlyB: number; chiSquare: number; chiSquarePValue: number; exactPValue: number }>;
  clustered: { x: number[]; cluster: number[]; svymeanSE: number; svymean: number; G: number };
}

const scipy = referenceJson<ScipyJson>('scipy.json');
const r = referenceJson<RJson>('r.json');
const diff = (a: number[], b: number[]) => a.map((x, i) => x - b[i]);

describe('the same resamples as scipy.stats.bootstrap(paired=True)', () => {
  // The indices were drawn by np.random.default_rng(seed).integers(0, n, (B, n)), which is what
  // scipy.stats.bootstrap(..., random_state=default_rng(seed)) draws; the script asserts that.
  for (const c of scipy.sameResamples) {
    it(`${c.name}: every method, level and side to 1e-12`, () => {
      const pairs: Array<[number, number]> = [];
      for (const ref of c.intervals) {
        const got = intervalsFromIndices(diff(c.a, c.b), c.indices, c.nResamples, { method: ref.method, confidenceLevel: ref.confidenceLevel, alternative: ref.alternative });
        pairs.push([got.confidenceInterval[0], end(ref.interval[0], 'low')], [got.confidenceInterval[1], end(ref.interval[1], 'high')]);
        pairs.push([got.standardError, ref.standardError]);
      }
      const worst = maxAbsError(pairs);
      expect(worst).toBeLessThan(1e-12);
    });
  }

  it('the binary case has resample means equal to the estimate, so the tie split in z0 matters', () => {
    const c = scipy.sameResamples.find((x) => x.name.startsWith('binary'))!;
    const got = intervalsFromIndices(diff(c.a, c.b), c.indices, c.nResamples, { method: 'bca' });
    const ties = got.distribution.filter((t) => t === got.estimate).length;
    expect(ties).toBeGreaterThan(0);
    const strict = intervalsFromIndices(diff(c.a, c.b), c.indices, c.nResamples, { method: 'bca', biasRule: 'strict' });
    expect(strict.biasCorrection).not.toBe(got.biasCorrection);
  });
});

describe('the same resamples as R boot.ci', () => {
  // R: res <- boot(d, function(data, i) mean(data$a[i] - data$b[i]), R = 1999);
  //    boot.ci(res, conf, type = c("perc", "basic", "bca"), L = (n - 1) * (mean(tj) - tj)),
  // with the indices from boot.array(res, indices = TRUE). boot.ci reads quantiles by norm.inter
  // and z0 as qnorm(mean(t < t0)): the 'boot' and 'strict' rules of the internal entry point.
  it('percentile, basic and BCa at 95%, 90%, 80% to 1e-12', () => {
    const c = r.sameResamples;
    expect(c.tiesWithEstimate).toBe(0);
    const pairs: Array<[number, number]> = [];
    for (const ref of c.intervals) {
      const got = intervalsFromIndices(diff(c.a, c.b), c.indices, c.nResamples, { method: ref.method, confidenceLevel: ref.confidenceLevel, quantileRule: 'boot', biasRule: 'strict' });
      pairs.push([got.confidenceInterval[0], ref.interval[0]], [got.confidenceInterval[1], ref.interval[1]]);
      expect(Math.abs(got.estimate - c.t0)).toBeLessThan(1e-14);
    }
    expect(maxAbsError(pairs)).toBeLessThan(1e-12);
  });
});

describe("scipy's own comparison with R boot (test_bootstrap_against_R)", () => {
  // R: boot(x, function(x, a) mean(x[a]), 1000000); boot.ci(...) → basic (23.77, 79.12),
  // percentile (28.86, 84.21), BCa (32.31, 91.43). scipy checks its own B = 10^6 run with rtol 0.005;
  // so do we. Monte Carlo error: the bootstrap SE of the mean is ≈ 14.2 and the density of the
  // (near-normal) bootstrap distribution at its 2.5% point ≈ φ(1.96) / 14.2 ≈ 0.0041, so a quantile
  // from 10^6 resamples has SD ≈ √(0.025 · 0.975 / 10^6) / 0.0041 ≈ 0.038; R's run has the same, so the
  // two differ by SD ≈ 0.054, and rtol 0.005 (0.14 at 28.86, more at the upper ends) is ≥ 2.6 SD.
  const { x, expected, rtol } = scipy.scipyAgainstR;
  for (const method of ['percentile', 'basic', 'bca'] as const) {
    it(method, () => {
      const got = bootstrapMean(x, { method, nResamples: 1_000_000 });
      for (const k of [0, 1]) expect(Math.abs(got.confidenceInterval[k] - expected[method][k])).toBeLessThan(rtol * Math.abs(expected[method][k]));
    });
  }
});

describe('the t interval against scipy ttest_rel(a, b).confidence_interval()', () => {
  it('interval, t statistic and p-value to 1e-10', () => {
    // scipy 1.10's t.ppf (cephes stdtrit) is itself off by up to ~3e-9 relative (e.g. t.ppf(0.9, 29));
    // the JSON records that error per case (scipy's quantile minus the 40-digit mpmath one), and the
    // tolerance adds its effect on the interval, |error| · SE, to 1e-10.
    const pairs: Array<[number, number]> = [];
    for (const c of scipy.tInterval) {
      const got = tInterval(diff(c.a, c.b), { confidenceLevel: c.confidenceLevel, alternative: c.alternative });
      const allowance = 1e-10 + Math.abs(c.scipyQuantileError) * c.standardError;
      for (const k of [0, 1] as const) {
        const want = end(c.interval[k], k === 0 ? 'low' : 'high');
        if (Number.isFinite(want)) expect(Math.abs(got.confidenceInterval[k] - want)).toBeLessThanOrEqual(allowance);
        else expect(got.confidenceInterval[k]).toBe(want);
      }
      pairs.push([got.tStatistic, c.tStatistic], [got.pValue, c.pValue]);
      expect(got.df).toBe(c.df);
    }
    expect(maxAbsError(pairs)).toBeLessThan(1e-10);
  });

  it('interval to 1e-12 against the same formula with the t quantile to 40 digits (mpmath)', () => {
    const pairs: Array<[number, number]> = [];
    for (const c of scipy.tInterval) {
      const got = tInterval(diff(c.a, c.b), { confidenceLevel: c.confidenceLevel, alternative: c.alternative });
      pairs.push([got.confidenceInterval[0], end(c.mpmathInterval[0], 'low')], [got.confidenceInterval[1], end(c.mpmathInterval[1], 'high')]);
    }
    expect(maxAbsError(pairs)).toBeLessThan(1e-12);
  });

  it('t quantiles to 1e-13 relative against mpmath (40 digits); scipy 1.10 t.ppf itself is off by up to ~1e-9', () => {
    let worst = 0;
    for (const q of scipy.tQuantiles) worst = Math.max(worst, Math.abs(studentTQuantile(q.p, q.df) - q.quantile) / q.quantile);
    expect(worst).toBeLessThan(1e-13);
  });

  it('normal quantiles and CDF against mpmath', () => {
    for (const q of scipy.normal) expect(Math.abs(normalQuantile(q.p) - q.quantile)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(q.quantile)));
    for (const c of scipy.normalCdf) expect(Math.abs(normalCdf(c.z) - c.cdf)).toBeLessThanOrEqual(3e-14 * c.cdf);
  });
});

describe('McNemar', () => {
  it('b = 15, c = 5: exact p = 2 · Σ_{k≤5} C(20, k) / 2^20 = 2 · 21700 / 1048576 = 0.0413895', () => {
    // by hand: C(20,0..5) = 1, 20, 190, 1140, 4845, 15504; sum 21700.
    expect(Math.abs(mcnemarFromCounts(15, 5).exactPValue - (2 * 21700) / 1048576)).toBeLessThan(1e-15);
    expect(mcnemarFromCounts(15, 5).exactPValue.toFixed(7)).toBe('0.0413895');
  });

  it('exact and chi-square against statsmodels mcnemar(table, exact=…, correction=…)', () => {
    for (const c of scipy.mcnemar) {
      const corrected = mcnemarFromCounts(c.onlyA, c.onlyB);
      const plain = mcnemarFromCounts(c.onlyA, c.onlyB, { correction: false });
      expect(Math.abs(corrected.exactPValue - c.exactPValue)).toBeLessThan(1e-14);
      // b = c: benchplan follows R (no correction, χ² = 0); statsmodels corrects anyway (tests/bootstrap/mcnemar-ties.test.ts)
      if (c.onlyA !== c.onlyB) {
        expect(Math.abs(corrected.chiSquare - c.chiSquare)).toBeLessThan(1e-12);
        expect(Math.abs(corrected.chiSquarePValue - c.chiSquarePValue)).toBeLessThan(1e-14);
      }
      expect(Math.abs(plain.chiSquare - c.chiSquarePlain)).toBeLessThan(1e-12);
      expect(Math.abs(plain.chiSquarePValue - c.chiSquarePlainPValue)).toBeLessThan(1e-14);
    }
  });

  it('against R mcnemar.test (corrected) and binom.test (exact)', () => {
    for (const c of r.mcnemar) {
      const got = mcnemarFromCounts(c.onlyA, c.onlyB);
      expect(Math.abs(got.exactPValue - c.exactPValue)).toBeLessThan(1e-14);
      expect(Math.abs(got.chiSquare - c.chiSquare)).toBeLessThan(1e-12);
      expect(Math.abs(got.chiSquarePValue - c.chiSquarePValue)).toBeLessThan(1e-14);
    }
  });
});

describe('Holm against R p.adjust(p, method = "holm")', () => {
  it('every vector, NA as NaN', () => {
    for (const c of r.holm) {
      const got = holmAdjust(c.p.map((p) => (p === null ? NaN : p)));
      got.forEach((v, i) => {
        const want = c.adjusted[i];
        if (want === null) expect(v).toBeNaN();
        else expect(Math.abs(v - want)).toBeLessThan(1e-15);
      });
    }
  });
});

describe('sign-flip test against scipy permutation_test(permutation_type="samples") (exact)', () => {
  it('p-values and statistics to 1e-12', () => {
    for (const c of scipy.signFlip) {
      const got = signFlipTest(c.d, { alternative: c.alternative });
      expect(got.exact).toBe(true);
      expect(Math.abs(got.pValue - c.pValue)).toBeLessThan(1e-12);
      expect(Math.abs(got.statistic - c.statistic)).toBeLessThan(1e-12);
    }
  });
});

describe("Miller's clustered SE against R survey", () => {
  it('Miller variance = (G − 1)/G · svymean variance + Σ(x − x̄)² / (n² (n − 1))', () => {
    // survey's ultimate-cluster variance is G/(G−1) · Σ_c (Σ_{i∈c}(x_i − x̄))² / n²; Miller's is
    // SE_CLT² + cross terms = Σ_c (…)² / n² + Σ_i (x_i − x̄)² / (n² (n − 1)).
    const { x, cluster, svymeanSE, svymean, G } = r.clustered;
    const got = clusteredStandardError(x, Int32Array.from(cluster));
    const n = x.length;
    const mean = x.reduce((s, v) => s + v, 0) / n;
    const squares = x.reduce((s, v) => s + (v - mean) ** 2, 0);
    const want = Math.sqrt(((G - 1) / G) * svymeanSE ** 2 + squares / (n * n * (n - 1)));
    expect(Math.abs(got.estimate - svymean)).toBeLessThan(1e-13);
    expect(Math.abs(got.clusteredStandardError - want)).toBeLessThan(1e-13);
    expect(got.nClusters).toBe(G);
    expect(got.designEffect).toBeGreaterThan(1);
  });
});
