import { describe, expect, it } from 'vitest';
import { bootstrapMeanDifference } from '../../src/bootstrap/mean.js';
import { stratifiedHeadlines } from '../../src/strata/headlines.js';

describe('stratifiedHeadlines differences with method auto', () => {
  // 40 items in 2 strata: a reweighted statistic below 100 items → the stratified t interval
  // (chooseIntervalMethod), df n − H, the same as bootstrapMeanDifference with method 't'.
  const n = 40;
  const stratum = Int32Array.from({ length: n }, (_, i) => (i < 30 ? 0 : 1));
  const a = Array.from({ length: n }, (_, i) => ((i * 7) % 10) / 10);
  const b = Array.from({ length: n }, (_, i) => ((i * 3) % 10) / 10);
  const weights = [
    { stratum: 'common', weight: 0.8 },
    { stratum: 'rare', weight: 0.2 },
  ];

  it('uses the stratified t interval below 100 items and says so', () => {
    const r = stratifiedHeadlines({ models: ['a', 'b'], scores: [a, b], stratum, strata: ['common', 'rare'] }, weights, { method: 'auto' });
    expect(r.method).toBe('auto');
    const d = r.differences[0];
    expect(d.methodUsed).toBe('t');
    expect(d.methodReason).toMatch(/reweighted headline on 40 items/);
    const t = bootstrapMeanDifference(a, b, { method: 't', strata: stratum, stratumWeights: [0.8, 0.2] });
    expect(d.interval).toEqual(t.confidenceInterval);
  });

  it('keeps a named method as before (no methodUsed)', () => {
    const r = stratifiedHeadlines({ models: ['a', 'b'], scores: [a, b], stratum, strata: ['common', 'rare'] }, weights, { method: 'percentile', nResamples: 199 });
    expect(r.differences[0].methodUsed).toBeUndefined();
  });
});
