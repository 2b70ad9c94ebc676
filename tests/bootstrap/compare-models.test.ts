import { beforeEach, describe, expect, it, vi } from 'vitest';

// Count buildDesign calls: compareModels computes each pair's differences and design once and
// shares them between the pair's bootstrap and its test.
const calls = vi.hoisted(() => ({ buildDesign: 0 }));
vi.mock('../../src/bootstrap/design.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/bootstrap/design.js')>();
  return {
    ...actual,
    buildDesign: (...args: Parameters<typeof actual.buildDesign>) => {
      calls.buildDesign += 1;
      return actual.buildDesign(...args);
    },
  };
});

const { compareModels } = await import('../../src/paired/compare-models.js');
const { bootstrapMeanDifference } = await import('../../src/bootstrap/index.js');
const { tInterval } = await import('../../src/paired/index.js');
const { alignModels, scoresFromRows } = await import('../../src/data/index.js');

function aligned() {
  const rows = [];
  for (let i = 0; i < 12; i++) for (const [m, model] of ['alpha', 'beta', 'gamma'].entries()) rows.push({ item: `q${i}`, model, score: ((i + 1) * (m + 2)) % 7 });
  return alignModels(scoresFromRows(rows), ['alpha', 'beta', 'gamma']);
}

describe('compareModels builds each pair’s differences and design once', () => {
  beforeEach(() => {
    calls.buildDesign = 0;
  });

  it("method 't' on a plain design (no clusters or strata): no design at all (plainTResult, plainTInterval, plainMean give the same bits)", () => {
    const data = aligned();
    const result = compareModels(data, { method: 't' });
    // Before: 3 pairs + 3 models (6), and earlier still each pair's design again for its t-test (9).
    expect(calls.buildDesign).toBe(0);
    // And the shared design gives the same numbers as computing the pair on its own.
    const alone = tInterval(Array.from(data.scores[0], (v, t) => v - data.scores[1][t]));
    expect(result.pairs[0].pValue).toBe(alone.pValue);
    expect(result.pairs[0].confidenceInterval).toEqual(alone.confidenceInterval);
  });

  it("method 't' with clusters: one design per pair (shared by the interval and the t-test) plus one per model for the means", () => {
    const data = aligned();
    const cluster = Int32Array.from({ length: 12 }, (_, i) => i >> 2);
    const result = compareModels(data, { method: 't', cluster });
    expect(calls.buildDesign).toBe(6);
    expect(result.pairs[0].bootstrap.nClusters).toBe(3);
  });

  it('bootstrap methods: one design per pair, one per sign-flip test (its own index-path design); the plain means need none', () => {
    const data = aligned();
    const result = compareModels(data, { method: 'percentile', nResamples: 99, nPermutations: 99 });
    expect(calls.buildDesign).toBe(6);
    const alone = bootstrapMeanDifference(data.scores[1], data.scores[2], { method: 'percentile', nResamples: 99 });
    expect(result.pairs[2].confidenceInterval).toEqual(alone.confidenceInterval);
  });

  it('a score that is not finite names the models and the item', () => {
    const data = aligned();
    data.scores[2][4] = NaN;
    expect(() => compareModels(data, { method: 't' })).toThrow('scores of alpha and gamma at item q4 must be finite (got 3 and NaN)');
  });
});
