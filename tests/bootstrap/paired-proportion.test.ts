import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pairedCounts, pairedProportionInterval, type PairedCounts } from '../../src/paired/paired-proportion.js';

// Reference: tests/reference/paired-proportions/paired_proportions.py (scipy 1.10, statsmodels 0.13)
// → paired_proportions.json. Tango's interval there profiles the nuisance parameter by numerical
// maximisation of the restricted likelihood (not Tango's closed form) and inverts with brentq
// (xtol 1e-13); Newcombe's method 10 uses statsmodels' Wilson intervals.
interface Case {
  counts: PairedCounts;
  note: string;
  confidenceLevel: number;
  alternative: 'two-sided' | 'less' | 'greater';
  tango: [number, number];
  newcombe: [number, number];
  exactPValue: number;
  midPValue: number;
}
const reference = JSON.parse(readFileSync(new URL('../reference/paired-proportions/paired_proportions.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('pairedProportionInterval against the Python reference', () => {
  it.each(reference.cases.map((c) => [`${c.note}, ${c.confidenceLevel} ${c.alternative}`, c] as const))('%s', (_name, c) => {
    for (const method of ['tango', 'newcombe'] as const) {
      // The Python reference is Tango's published interval: the n/(n − 1) correction off.
      const r = pairedProportionInterval(c.counts, { method, confidenceLevel: c.confidenceLevel, alternative: c.alternative, biasCorrection: false });
      // The reference's bounded scalar optimiser (xatol 1e-14) limits agreement to about 1e-7 for Tango;
      // Newcombe is closed form (1e-12).
      const tolerance = method === 'tango' ? 1e-7 : 1e-12;
      expect(Math.abs(r.confidenceInterval[0] - c[method][0])).toBeLessThan(tolerance);
      expect(Math.abs(r.confidenceInterval[1] - c[method][1])).toBeLessThan(tolerance);
      expect(r.exactPValue).toBeCloseTo(c.exactPValue, 12);
      expect(r.midPValue).toBeCloseTo(c.midPValue, 12);
    }
  });
});

// Reference: tests/reference/paired-proportions/tango_bcf.R (R 4.2) → tango_bcf.json: the default
// interval (Tango's score with the null variance × n/(n − 1)) computed independently: restricted
// likelihood maximised numerically with optimize(), the factor inside the statistic (the library
// instead inflates the quantile to z √(n/(n − 1))), roots by uniroot(); and the score p-value.
interface BcfCase {
  counts: PairedCounts;
  note: string;
  confidenceLevel: number;
  alternative: 'two-sided' | 'less' | 'greater';
  tangoBcf: [number, number];
  tango: [number, number];
  scorePValue: number;
}
const bcfReference = JSON.parse(readFileSync(new URL('../reference/paired-proportions/tango_bcf.json', import.meta.url), 'utf8')) as { cases: BcfCase[] };

describe('the default tango interval (n/(n − 1) correction) against the R reference', () => {
  it.each(bcfReference.cases.map((c) => [`${c.note}, ${c.confidenceLevel} ${c.alternative}`, c] as const))('%s', (_name, c) => {
    const r = pairedProportionInterval(c.counts, { confidenceLevel: c.confidenceLevel, alternative: c.alternative });
    expect(r.method).toBe('tango');
    // optimize()'s tolerance limits the profile to about 1e-8; the roots are to 1e-14.
    expect(Math.abs(r.confidenceInterval[0] - c.tangoBcf[0])).toBeLessThan(1e-7);
    expect(Math.abs(r.confidenceInterval[1] - c.tangoBcf[1])).toBeLessThan(1e-7);
    // The reference's Z(0) also goes through optimize() (q̃ = (b + c)/(2n) exactly in the library): ~1e-9.
    expect(r.scorePValue).toBeCloseTo(c.scorePValue, 7);
    const plain = pairedProportionInterval(c.counts, { confidenceLevel: c.confidenceLevel, alternative: c.alternative, biasCorrection: false });
    expect(Math.abs(plain.confidenceInterval[0] - c.tango[0])).toBeLessThan(1e-7);
    expect(Math.abs(plain.confidenceInterval[1] - c.tango[1])).toBeLessThan(1e-7);
  });
});

describe('pairedProportionInterval by hand', () => {
  it('all agreeing items: ± z²/(n − 1 + z²) (± z²/(n + z²) uncorrected), never [0, 0]', () => {
    // Hand derivation: with b = c = 0, Tango's Z(δ) = √(n|δ| / (1 − |δ|)); Z = z gives |δ| = z²/(n + z²);
    // with the variance × n/(n − 1), Z = z √(n/(n − 1)) gives |δ| = z²/(n − 1 + z²).
    const z = 1.6448536269514722; // Φ⁻¹(0.95), one-sided
    for (const n of [3, 39, 50]) {
      const r = pairedProportionInterval({ both: n, onlyA: 0, onlyB: 0, neither: 0 }, { alternative: 'greater' });
      expect(r.confidenceInterval[0]).toBeCloseTo(-(z * z) / (n - 1 + z * z), 10);
      expect(r.confidenceInterval[1]).toBe(1);
      expect(r.exactPValue).toBe(1);
      const plain = pairedProportionInterval({ both: n, onlyA: 0, onlyB: 0, neither: 0 }, { alternative: 'greater', biasCorrection: false });
      expect(plain.confidenceInterval[0]).toBeCloseTo(-(z * z) / (n + z * z), 10);
    }
    const two = pairedProportionInterval({ both: 3, onlyA: 0, onlyB: 0, neither: 0 });
    expect(two.confidenceInterval[0]).toBeCloseTo(-0.6576, 4);
    expect(two.confidenceInterval[1]).toBeCloseTo(0.6576, 4);
  });

  it('one item: the corrected interval is [−1, 1] and its score p-value 1', () => {
    const r = pairedProportionInterval({ both: 0, onlyA: 1, onlyB: 0, neither: 0 });
    expect(r.confidenceInterval).toEqual([-1, 1]);
    expect(r.scorePValue).toBe(1);
  });

  it('counts a paired table from 0/1 scores and rejects other values', () => {
    expect(pairedCounts([1, 1, 0, 0, 1], [1, 0, 1, 0, 0])).toEqual({ both: 1, onlyA: 2, onlyB: 1, neither: 1 });
    expect(() => pairedCounts([0.5], [1])).toThrow(/0 or 1/);
    expect(() => pairedProportionInterval({ both: -1, onlyA: 0, onlyB: 0, neither: 0 })).toThrow(/whole number/);
  });

  it('mid-p: exact binomial tail minus half the observed probability (b = 3, c = 0: 1/8 − 1/16 one-sided)', () => {
    const r = pairedProportionInterval({ both: 7, onlyA: 3, onlyB: 0, neither: 0 }, { alternative: 'greater' });
    expect(r.exactPValue).toBe(0.125);
    expect(r.midPValue).toBe(0.0625);
  });
});

describe('JSDoc examples', () => {
  it('tangoStatistic, pairedItemsNeeded', async () => {
    const { tangoStatistic, pairedItemsNeeded } = await import('../../src/paired/paired-proportion.js');
    // Hand derivation: b = c = 0 → Z(δ) = √(n|δ| / (1 − |δ|)).
    expect(tangoStatistic(0, 0, 50, -0.1)).toBeCloseTo(Math.sqrt((50 * 0.1) / 0.9), 12);
    // 1 + z²(1 − m)/m = 1 + 1.6449² · 19 = 52.4 → 53 agreeing items (uncorrected z² · 19 = 51.4 → 52).
    expect(pairedItemsNeeded({ both: 3, onlyA: 0, onlyB: 0, neither: 0 }, -0.05)).toBe(53);
    expect(pairedItemsNeeded({ both: 3, onlyA: 0, onlyB: 0, neither: 0 }, -0.05, { biasCorrection: false })).toBe(52);
    expect(pairedItemsNeeded({ both: 3, onlyA: 0, onlyB: 1, neither: 0 }, -0.05)).toBeNull(); // estimate −0.25 ≤ −0.05
  });

  it('autoPairedInterval', async () => {
    const { autoPairedInterval } = await import('../../src/paired/auto-interval.js');
    const r = autoPairedInterval([1, 1, 1], [1, 1, 1]);
    const z = 1.959963984540054;
    expect(r.confidenceInterval[0]).toBeCloseTo(-(z * z) / (2 + z * z), 12);
    expect(r.confidenceInterval[1]).toBeCloseTo((z * z) / (2 + z * z), 12);
  });

  it('reasonNumber', async () => {
    const { reasonNumber } = await import('../../src/gate/gate.js');
    expect(reasonNumber(-0.0649267)).toBe('-0.0649');
  });
});

describe("pairedProportionInterval against Newcombe's (1998) published examples", () => {
  // tests/reference/paired-proportions/newcombe1998_examples.json: Newcombe (1998) Stat Med 17:2635,
  // examples (a)–(d), method 10, as transcribed in the R package propint's tests (source in the JSON).
  // Published to 4 decimals, so the tolerance is half a unit in the 4th decimal.
  const published = JSON.parse(readFileSync(new URL('../reference/paired-proportions/newcombe1998_examples.json', import.meta.url), 'utf8')) as {
    examples: { e: number; f: number; g: number; h: number; lower: number; upper: number }[];
  };
  it.each(published.examples.map((x) => [`e=${x.e} f=${x.f} g=${x.g} h=${x.h}`, x] as const))('%s', (_name, x) => {
    const r = pairedProportionInterval({ both: x.e, onlyA: x.f, onlyB: x.g, neither: x.h }, { method: 'newcombe' });
    expect(r.estimate).toBeCloseTo((x.f - x.g) / (x.e + x.f + x.g + x.h), 12);
    expect(Math.abs(r.confidenceInterval[0] - x.lower)).toBeLessThanOrEqual(0.00005);
    expect(Math.abs(r.confidenceInterval[1] - x.upper)).toBeLessThanOrEqual(0.00005);
  });
});
