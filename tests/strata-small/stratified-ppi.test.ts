import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { stratifiedPpiMean } from '../../src/judge/stratified-ppi.js';
import { judgedComparison } from '../../src/judge/judged-comparison.js';

// tests/reference/strata-small/strata_small_reference.R, case "ppi": an independent R computation.
const ref = JSON.parse(readFileSync(new URL('../reference/strata-small/strata-small.json', import.meta.url), 'utf8'));

describe('stratified PPI++ with few labels (issue 25 item 5)', () => {
  it('matches the R computation: λ per stratum, unbiased variances, pooled floor for 3 equal labels, Satterthwaite t', () => {
    const c = ref.ppi;
    const r = stratifiedPpiMean(c.strata);
    expect(r.estimate).toBeCloseTo(c.expected.estimate, 12);
    expect(r.standardError).toBeCloseTo(c.expected.standardError, 12);
    expect(r.df).toBeCloseTo(c.expected.df, 8);
    expect(r.confidenceInterval[0]).toBeCloseTo(c.expected.interval[0], 8);
    expect(r.confidenceInterval[1]).toBeCloseTo(c.expected.interval[1], 8);
    r.strata.forEach((s, h) => expect(s.lambda).toBeCloseTo(c.expected.lambda[h], 12));
    expect(r.warnings.join(' ')).toMatch(/stratum "c": its 3 labels show no variation, so the pooled within-stratum variance/);
  });
  it('effective labels come from the variance actually used (both sides floored alike)', () => {
    const r = stratifiedPpiMean(ref.ppi.strata);
    expect(r.effectiveLabels).toBeCloseTo((r.nLabelled * r.classicalStandardError ** 2) / r.standardError ** 2, 12);
  });
  it('never refuses a random draw of 30 labels over strata of 420/150/30 items (55% leave the 5% stratum < 2 labels)', () => {
    let pooled = 0;
    for (let k = 0; k < 200; k++) {
      const rng = seedrandom.alea(`ppi-draw:${k}`);
      const sizes = [420, 150, 30];
      const all: Array<{ h: number; y: number; f: number }> = [];
      sizes.forEach((m, h) => {
        for (let i = 0; i < m; i++) {
          const y = Math.floor(rng() * 3) - 1;
          all.push({ h, y, f: rng() < 0.7 ? y : Math.floor(rng() * 3) - 1 });
        }
      });
      const order = all.map((_, i) => i);
      for (let i = 0; i < 30; i++) {
        const j = i + Math.floor(rng() * (order.length - i));
        [order[i], order[j]] = [order[j], order[i]];
      }
      const labelled = new Set(order.slice(0, 30));
      const items = all.map((it, i) => ({ item: `i${i}`, stratum: `s${it.h}`, judgeA: it.f, judgeB: 0, ...(labelled.has(i) ? { humanA: it.y, humanB: 0 } : {}) }));
      const r = judgedComparison(items, { assumeRandom: true });
      expect(Number.isFinite(r.confidenceInterval[0]) || r.noInterval !== null).toBe(true);
      if (r.collapsedStrata.length > 0) pooled += 1;
    }
    // P(the 30-item stratum gets < 3 of 30 labels from 600) ≈ 0.81: most draws pool it, none is refused.
    expect(pooled).toBeGreaterThan(100);
  });
});
