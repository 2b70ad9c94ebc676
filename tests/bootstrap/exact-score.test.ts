import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exactScoreNonInferiority } from '../../src/paired/exact-score.js';
import { pairedProportionBounds, pairedProportionInterval, tangoStatistic, type PairedCounts } from '../../src/paired/paired-proportion.js';

// Reference: tests/reference/paired-proportions/tango_exact_score.py (scipy 1.10) → tango_exact_score.json,
// written from Tango (1998) and Hsueh, Liu & Chen (2001): the nuisance parameter profiled by numerical
// maximisation, every table enumerated, the supremum over a 4,001-point grid refined by a bounded
// minimiser. Published: Fagerland, Lydersen & Laake (2017) ch. 8 (Cavo et al. 2012), as printed by
// the authors' R package contingencytables.
interface Reference {
  published: Array<{ counts: PairedCounts; publishedInterval: [number, number]; publishedDecimals: number; pythonInterval: [number, number] }>;
  scoreTests: Array<{ counts: PairedCounts; note: string; twoSidedPValue: number; greaterPValue: number }>;
  exactScore: Array<{ counts: PairedCounts; nullDifference: number; note: string; statistic: number; pValue: number }>;
}
const reference = JSON.parse(readFileSync(new URL('../reference/paired-proportions/tango_exact_score.json', import.meta.url), 'utf8')) as Reference;

describe('Tango, the 0/1 default, against published values and the Python reference', () => {
  it('Cavo et al. (2012) table (59, 6 / 16, 80): −0.1240 to −0.0054 (Fagerland et al. 2017), to 4 decimals', () => {
    for (const x of reference.published) {
      // Published values are Tango's interval as published: the default n/(n − 1) correction off
      // (the corrected default is checked against R in tests/bootstrap/paired-proportion.test.ts).
      const r = pairedProportionInterval(x.counts, { biasCorrection: false });
      expect(r.method).toBe('tango');
      const half = 0.5 * 10 ** -x.publishedDecimals;
      expect(Math.abs(r.confidenceInterval[0] - x.publishedInterval[0])).toBeLessThanOrEqual(half);
      expect(Math.abs(r.confidenceInterval[1] - x.publishedInterval[1])).toBeLessThanOrEqual(half);
      // The Python profile maximiser (xatol 1e-14) agrees to about 1e-7.
      expect(Math.abs(r.confidenceInterval[0] - x.pythonInterval[0])).toBeLessThan(1e-7);
      expect(Math.abs(r.confidenceInterval[1] - x.pythonInterval[1])).toBeLessThan(1e-7);
    }
  });

  it('the score test p-value (McNemar’s Z, the test the interval inverts): scipy norm.sf; Cavo: 0.033006 as contingencytables prints', () => {
    for (const x of reference.scoreTests) {
      expect(pairedProportionInterval(x.counts, { biasCorrection: false }).scorePValue).toBeCloseTo(x.twoSidedPValue, 12);
      expect(pairedProportionInterval(x.counts, { alternative: 'greater', biasCorrection: false }).scorePValue).toBeCloseTo(x.greaterPValue, 12);
    }
    expect(pairedProportionInterval({ both: 59, onlyA: 6, onlyB: 16, neither: 80 }, { biasCorrection: false }).scorePValue.toFixed(6)).toBe('0.033006');
  });

  it('the interval excludes 0 exactly when the score test rejects at its level', () => {
    for (let b = 0; b <= 12; b++) {
      for (let c = 0; c <= 12; c++) {
        for (const biasCorrection of [true, false]) {
          const r = pairedProportionInterval({ both: 20, onlyA: b, onlyB: c, neither: 10 }, { biasCorrection });
          const excludes = r.confidenceInterval[0] > 0 || r.confidenceInterval[1] < 0;
          expect(excludes).toBe(r.scorePValue < 0.05);
        }
      }
    }
  });
});

describe('exactScoreNonInferiority against the Python reference', () => {
  it.each(reference.exactScore.map((x) => [x.note, x] as const))('%s', (_note, x) => {
    const r = exactScoreNonInferiority(x.counts, x.nullDifference);
    expect(r.statistic).toBeCloseTo(x.statistic, 6);
    // Both take a supremum over a grid refined around its best point: agreement to 1e-6.
    expect(Math.abs(r.pValue - x.pValue)).toBeLessThan(1e-6);
  });

  it('an all-agreeing table: p ≥ (1 − m)^n, the chance of no discordant item when the candidate only loses at rate m (equal at n = 52, 59)', () => {
    // At θ = m (no wins) only the all-agreeing table is as extreme, so the supremum is at least
    // (1 − m)^n; at larger n a θ with some wins gives more (n = 100: 0.0138 > 0.95^100 = 0.0059).
    for (const n of [20, 52, 59, 100]) expect(exactScoreNonInferiority({ both: n, onlyA: 0, onlyB: 0, neither: 0 }, -0.05).pValue).toBeGreaterThanOrEqual(0.95 ** n - 1e-12);
    for (const n of [52, 59]) expect(exactScoreNonInferiority({ both: n, onlyA: 0, onlyB: 0, neither: 0 }, -0.05).pValue).toBeCloseTo(0.95 ** n, 10);
  });

  it('its p-value is the brute-force size at the supremum it reports: every (B, C) table summed with its trinomial probability (checks the CDF recurrence)', () => {
    // Independent of the library's summation: P_θ(Z(B, C; δ0) ≥ Z_obs) by enumerating all tables, log-space trinomials.
    const logFactorial = (k: number) => {
      let s = 0;
      for (let j = 2; j <= k; j++) s += Math.log(j);
      return s;
    };
    const cases: Array<[PairedCounts, number]> = [
      [{ both: 20, onlyA: 2, onlyB: 1, neither: 7 }, -0.05],
      [{ both: 30, onlyA: 3, onlyB: 3, neither: 14 }, -0.05],
      [{ both: 25, onlyA: 6, onlyB: 2, neither: 7 }, -0.1],
      [{ both: 40, onlyA: 1, onlyB: 0, neither: 19 }, -0.02],
    ];
    for (const [counts, d0] of cases) {
      const r = exactScoreNonInferiority(counts, d0);
      const n = r.n;
      const theta = r.nuisanceAtSupremum;
      const p10 = theta + d0;
      const cut = r.statistic - 1e-9 * Math.max(1, Math.abs(r.statistic));
      let size = 0;
      for (let b = 0; b <= n; b++) {
        for (let c = 0; b + c <= n; c++) {
          if (!(tangoStatistic(b, c, n, d0) >= cut)) continue;
          const rest = Math.max(0, 1 - p10 - theta);
          const log = logFactorial(n) - logFactorial(b) - logFactorial(c) - logFactorial(n - b - c) + (b > 0 ? b * Math.log(p10) : 0) + (c > 0 ? c * Math.log(theta) : 0) + (n - b - c > 0 ? (n - b - c) * Math.log(rest) : 0);
          size += Math.exp(log);
        }
      }
      expect(Math.abs(r.pValue - size)).toBeLessThan(1e-12);
    }
  });

  it('JSDoc examples', () => {
    expect(exactScoreNonInferiority({ both: 30, onlyA: 0, onlyB: 0, neither: 22 }, -0.05).pValue).toBeCloseTo(0.0694, 4);
    expect(pairedProportionBounds({ both: 20, onlyA: 0, onlyB: 0, neither: 19 }, 'tango', 1.6448536269514722)[0]).toBeCloseTo(-0.0665, 4);
    expect(pairedProportionBounds({ both: 20, onlyA: 0, onlyB: 0, neither: 19 }, 'tango', 1.6448536269514722, false)[0]).toBeCloseTo(-0.0649, 4);
  });

  it('rejects bad input', () => {
    expect(() => exactScoreNonInferiority({ both: 1.5, onlyA: 0, onlyB: 0, neither: 0 }, -0.05)).toThrow(/whole number/);
    expect(() => exactScoreNonInferiority({ both: 0, onlyA: 0, onlyB: 0, neither: 0 }, -0.05)).toThrow(/at least one item/);
    expect(() => exactScoreNonInferiority({ both: 3, onlyA: 0, onlyB: 0, neither: 0 }, -1)).toThrow(/nullDifference/);
  });
});

describe('degenerate 0/1 data (issue 25 item 3): never a zero-width interval', () => {
  it('all agreeing (b = c = 0), any split of the agreeing items: ±z²/(n − 1 + z²) (the n/(n − 1) correction), width > 0, with a warning', () => {
    const z = 1.959963984540054;
    for (const n of [1, 2, 3, 10, 39, 100, 1000, 100000]) {
      for (const both of [0, Math.floor(n / 2), n]) {
        const r = pairedProportionInterval({ both, onlyA: 0, onlyB: 0, neither: n - both });
        expect(r.confidenceInterval[1] - r.confidenceInterval[0]).toBeGreaterThan(0);
        expect(r.confidenceInterval[0]).toBeCloseTo(-(z * z) / (n - 1 + z * z), 10);
        expect(r.warnings.join(' ')).toMatch(/agree on all/);
        expect(r.scorePValue).toBe(1);
      }
    }
  });
});
