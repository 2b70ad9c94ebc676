import { describe, expect, it } from 'vitest';
import { judgeHumanCorrelation } from '../../src/judge/index.js';
import { designLabels } from '../../src/selection/index.js';

describe('designLabels', () => {
  it('select: every disagreement of an n-item pool plus the audit', () => {
    // ⌈0.2 · 264 / 0.9⌉ = ⌈58.67⌉ = 59
    expect(designLabels(264, { agreeShare: 0.8 }).select).toEqual({ labels: 59, poolItems: 264, agreeShare: 0.8, auditShare: 0.1 });
    // no audit, nothing agrees: the plain count
    expect(designLabels(264, { agreeShare: 0, auditShare: 0 }).select?.labels).toBe(264);
  });
  it('PPI++: n(1 − ρ²) with unlimited judge scores; the finite-T solution otherwise', () => {
    // 264 · 0.51 = 134.64 → 135
    expect(designLabels(264, { judgeCorrelation: 0.7 }).ppi?.labels).toBe(135);
    // T = 1000: 264 · 0.51 / (1 − 264 · 0.49 / 1000) = 134.64 / 0.87064 = 154.65 → 155
    expect(designLabels(264, { judgeCorrelation: 0.7, judgedItems: 1000 }).ppi?.labels).toBe(155);
    // and that n' indeed gives the plain variance: (1/n')(1 − ρ²(T − n')/T) ≤ 1/264 at 155, > at 154
    const factor = (n: number) => (1 - 0.49 * (1000 - n) / 1000) / n;
    expect(factor(155)).toBeLessThanOrEqual(1 / 264);
    expect(factor(154)).toBeGreaterThan(1 / 264);
  });
  it('fewer judged items than the plain count: PPI++ cannot reach the width, so the plain count, with a warning', () => {
    // T = 10 < 151: all 10 labelled gives variance σ²/10 > σ²/151 (the formula's denominator
    // 1 − 151 · 0.49 / 10 is negative; it used to come out as the floor of 2 labels)
    const r = designLabels(151, { judgeCorrelation: 0.7, judgedItems: 10 });
    expect(r.ppi?.labels).toBe(151);
    expect(r.warnings[0]).toMatch(/the judge scores only 10 items, fewer than the 151 labels/);
    // T = plain: n' = 151 · 0.51 / (1 − 0.49) = 151 exactly (all items labelled, the judge adds nothing)
    expect(designLabels(151, { judgeCorrelation: 0.7, judgedItems: 151 }).ppi?.labels).toBe(151);
    // ρ = 1 with T = plain is 0 / 0 in the formula; the judge alone carries it: the floor of 2
    expect(designLabels(151, { judgeCorrelation: 1, judgedItems: 151 }).ppi?.labels).toBe(2);
  });
  it('an anti-correlated judge saves nothing, with a warning', () => {
    const r = designLabels(100, { judgeCorrelation: -0.5 });
    expect(r.ppi?.labels).toBe(100);
    expect(r.warnings[0]).toMatch(/clips to 0/);
  });
  it('refuses bad inputs', () => {
    expect(() => designLabels(0)).toThrow(/plain/);
    expect(() => designLabels(10, { agreeShare: 1 })).toThrow(/agreeShare/);
    expect(() => designLabels(10, { judgeCorrelation: 2 })).toThrow(/judgeCorrelation/);
  });
});

describe('judgeHumanCorrelation', () => {
  it('matches R cor(y, f)', () => {
    const y = [1, 0, -1, 0, 1, 0, 1, -1];
    const f = [0.6, 0.1, -0.5, 0.2, 0.3, -0.1, 0.8, -0.2];
    // R: cor(c(1,0,-1,0,1,0,1,-1), c(0.6,0.1,-0.5,0.2,0.3,-0.1,0.8,-0.2)) → 0.907841299003204
    const items = y.map((d, i) => ({ item: `i${i}`, stratum: '', humanA: d, humanB: 0, judgeA: f[i], judgeB: 0 }));
    expect(judgeHumanCorrelation(items)).toBeCloseTo(0.907841299003204, 13);
    expect(judgeHumanCorrelation(items.slice(0, 1))).toBeNaN();
  });
});
