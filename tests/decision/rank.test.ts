import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rankCandidates } from '../../src/decision/rank.js';

// Exact bootstrap values from tests/reference/rank/rank_reference.py (numpy, all 5^5 = 3125 resamples enumerated).
const reference = JSON.parse(readFileSync('tests/reference/rank/rank_reference.json', 'utf8')) as {
  models: string[];
  scores: number[][];
  incumbent: string;
  pBest: number[];
  rankDistribution: Array<Record<string, number>>;
  standardErrorFromIncumbent: Record<string, number>;
  plugInStandardError: Record<string, number>;
};

/** Type-1 quantile of a discrete distribution given as { value: probability }. */
function exactQuantile(dist: Record<string, number>, p: number): { value: number; distance: number } {
  const values = Object.keys(dist).map(Number).sort((a, b) => a - b);
  let cdf = 0;
  let distance = Infinity;
  for (const v of values) {
    cdf += dist[v.toFixed(1)];
    distance = Math.min(distance, Math.abs(cdf - p));
    if (cdf >= p - 1e-12) return { value: v, distance };
  }
  return { value: values[values.length - 1], distance };
}

describe('rankCandidates against the exact bootstrap (tests/reference/rank)', () => {
  const B = 40000;
  const r = rankCandidates(reference.scores, { models: reference.models, incumbent: reference.incumbent, nResamples: B, seed: 'rank-ref' });

  it('P(best) with ties shared: within 4 Monte Carlo SE of the enumeration', () => {
    reference.models.forEach((model, j) => {
      const p = reference.pBest[j];
      const got = r.candidates.find((c) => c.model === model)!.pBest;
      expect(Math.abs(got - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / B) + 1e-9);
    });
    expect(r.candidates.reduce((s, c) => s + c.pBest, 0)).toBeCloseTo(1, 12);
  });

  it('rank intervals: the exact 2.5% and 97.5% rank quantiles (where the exact CDF is not within 5 SE of the cut)', () => {
    const se = Math.sqrt(0.025 / B);
    reference.models.forEach((model, j) => {
      const c = r.candidates.find((x) => x.model === model)!;
      for (const [p, got] of [[0.025, c.rankInterval[0]], [0.975, c.rankInterval[1]]] as const) {
        const q = exactQuantile(reference.rankDistribution[j], p);
        if (q.distance > 5 * se) expect(got).toBe(q.value);
      }
    });
  });

  it('the bootstrap SE of each difference from the incumbent: the exact one (population SD of d / √n), within 2%', () => {
    for (const model of ['a', 'b']) {
      const c = r.candidates.find((x) => x.model === model)!;
      expect(reference.standardErrorFromIncumbent[model]).toBeCloseTo(reference.plugInStandardError[model], 12);
      // Relative MC error of an SD from B draws ≈ 1/√(2B) = 0.35%; 2% is ~6 of those.
      expect(Math.abs(c.fromIncumbent!.standardError / reference.standardErrorFromIncumbent[model] - 1)).toBeLessThan(0.02);
    }
  });

  it('names the leader and runner-up, and bounds the chosen one against the incumbent: adjusted below naive here', () => {
    expect([r.leader, r.runnerUp, r.incumbent]).toEqual(['a', 'b', 'c']);
    const s = r.selection!;
    expect(s.chosen).toBe('a');
    expect(s.estimate).toBeCloseTo(0.4, 12);
    expect(s.naiveLowerBound).toBeCloseTo(0.4 - 1.6448536269514722 * s.standardError, 12);
    // The max over two positively correlated studentized deviations has a larger quantile than one of them.
    expect(s.criticalValue).toBeGreaterThan(s.naiveCriticalValue);
    expect(s.adjustedLowerBound).toBeLessThan(s.naiveLowerBound);
    expect(s.adjustedLowerBound).toBeCloseTo(s.estimate - s.criticalValue * s.standardError, 12);
  });
});

describe('rankCandidates: settings, clusters, label more', () => {
  const scores = [
    [1, 1, 0, 1, 1, 1, 0, 1, 1, 1],
    [1, 0, 1, 1, 0, 1, 0, 1, 0, 1],
    [0, 1, 0, 1, 0, 0, 0, 1, 0, 1],
  ];
  const models = ['a', 'b', 'c'];

  it('is the same for the same seed, and echoes its settings', () => {
    const x = rankCandidates(scores, { models, incumbent: 'c', nResamples: 999, seed: 7, budget: 50 });
    const y = rankCandidates(scores, { models, incumbent: 'c', nResamples: 999, seed: 7, budget: 50 });
    expect(JSON.stringify(x)).toBe(JSON.stringify(y));
    expect(x).toMatchObject({ confidenceLevel: 0.95, nResamples: 999, seed: '7', methodUsed: 'max-t bootstrap', n: 10, nUnits: 10 });
  });

  it('resamples whole clusters when given, and refuses a cluster across strata', () => {
    const cluster = Int32Array.from([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    const r = rankCandidates(scores, { models, nResamples: 999, cluster });
    expect(r.nUnits).toBe(5);
    expect(() => rankCandidates(scores, { models, cluster, strata: Int32Array.from([0, 1, 0, 0, 0, 0, 0, 0, 0, 0]) })).toThrow(/cluster 0 spans two strata/);
  });

  it('"label more?": no budget, no probability; a leader far ahead rarely changes; items to separate grow as the gap shrinks', () => {
    expect(rankCandidates(scores, { models, nResamples: 199 }).labelMore.pLeaderChanges).toBeNull();
    const far = rankCandidates([Array(40).fill(1), Array(40).fill(0)], { models: ['x', 'y'], nResamples: 199, budget: 100 });
    expect(far.labelMore.pLeaderChanges).toBe(0);
    const close = rankCandidates(scores, { models, nResamples: 999, budget: 200, margin: 0 });
    expect(close.labelMore.pLeaderChanges).toBeGreaterThanOrEqual(0);
    expect(close.labelMore.itemsToSeparate).toBeGreaterThanOrEqual(10);
  });

  it('"label more?" with a huge budget tends to 1 − P(best) of the leader: the new items outweigh the old, and their truth is a bootstrap draw', () => {
    const r = rankCandidates(scores.slice(0, 2), { models: ['a', 'b'], nResamples: 2000, budget: 5000, seed: 3 });
    const leader = r.candidates.find((c) => c.model === r.leader)!;
    // Both are shares of the same 2000 bootstrap draws, up to the noise of 5000 new items (SD of their mean gap ≈ 0.007 against bootstrap shifts ≈ 0.15) and ties (P(best) shares them): within 0.05.
    expect(Math.abs(r.labelMore.pLeaderChanges! - (1 - leader.pBest))).toBeLessThan(0.05);
  });

  it('rejects bad input', () => {
    expect(() => rankCandidates([scores[0]], { models: ['a'] })).toThrow(RangeError);
    expect(() => rankCandidates(scores, { models, incumbent: 'z' })).toThrow(/incumbent must be one of a, b, c \(got z\)/);
    expect(() => rankCandidates([[1, 0], [1]], { models: ['a', 'b'] })).toThrow(/same 2 items/);
    expect(() => rankCandidates(scores, { models, budget: 0 })).toThrow(/budget/);
  });

  it('the JSDoc example', () => {
    expect(rankCandidates([[1, 1, 1, 0], [0, 1, 0, 0]], { models: ['a', 'b'], nResamples: 999 }).leader).toBe('a');
  });
});
