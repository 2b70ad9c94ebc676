import { describe, expect, it } from 'vitest';
import type { DesignFile } from '../../src/data/design-file.js';
import { designDifference, designGate } from '../../src/selection/index.js';

// z_{0.95} = 1.6448536269514722 (qnorm(0.95) in R; published normal tables give 1.6449).
const Z95 = 1.6448536269514722;

/** A design of one fully labelled disagree cell (6 items) plus one agree cell of 4 with 2 audited. */
function design(): { design: DesignFile; difference: Map<string, number> } {
  const d = [1, 0, -1, 1, 1, 0];
  const rows: DesignFile['rows'] = [
    ...d.map((_, i) => ({ item: `d${i}`, stratum: 'all', kind: 'disagree' as const, cell: 'all/disagree', inclusionProbability: 1, selected: true })),
    ...[0, 1, 2, 3].map((i) => ({ item: `g${i}`, stratum: 'all', kind: 'agree' as const, cell: 'all/agree', inclusionProbability: 0.5, selected: i < 2 })),
  ];
  const file: DesignFile = {
    kind: 'benchplan-selection-design',
    version: 1,
    pool: 'p.csv',
    a: 'a',
    b: 'b',
    method: 'disagreement',
    sampling: 'stratified',
    equality: 'exact',
    budget: 8,
    auditShare: 0.1,
    seed: '0',
    poolSize: 10,
    selected: 8,
    cells: [
      { cell: 'all/disagree', stratum: 'all', kind: 'disagree', size: 6, sampled: 6, inclusionProbability: 1 },
      { cell: 'all/agree', stratum: 'all', kind: 'agree', size: 4, sampled: 2, inclusionProbability: 0.5 },
    ],
    rows,
  };
  const difference = new Map<string, number>([...d.map((v, i) => [`d${i}`, v] as [string, number]), ['g0', 0], ['g1', 0]]);
  return { design: file, difference };
}

describe('designGate', () => {
  it('the bound is estimate − z_{0.95}·SE, the lower end of the two-sided 90% interval', () => {
    const { design: file, difference } = design();
    const g = designGate(file, difference, { baseline: 'b', candidate: 'a', margin: 0.05 });
    // Hand: the agree cell is all 0, so the estimate is (6/10)·(1/3) = 0.2.
    expect(g.estimate).toBeCloseTo(0.2, 14);
    expect(g.lowerBound).toBeCloseTo(0.2 - Z95 * g.standardError, 12);
    const two = designDifference(file, difference, 0.9);
    expect(g.lowerBound).toBeCloseTo(two.interval[0], 12);
    // exactly 0.9, not 2·0.95 − 1 = 0.8999999999999999
    expect(g.twoSidedLevel).toBe(0.9);
    expect(g.lowerBound).toBe(two.interval[0]);
    expect(g.passed).toBe(g.lowerBound > -0.05);
    expect(g.assumptionFailed).toBe(false);
  });

  it('swapping the roles negates the estimate; the bound is then minus the upper end', () => {
    const { design: file, difference } = design();
    const g = designGate(file, difference, { baseline: 'a', candidate: 'b', margin: 0 });
    const two = designDifference(file, difference, 0.9);
    expect(g.estimate).toBeCloseTo(-0.2, 14);
    expect(g.lowerBound).toBeCloseTo(-two.interval[1], 12);
    expect(g.passed).toBe(false);
    expect(g.cells[0].mean).toBeCloseTo(-1 / 3, 14);
  });

  it('a failed audit is reported (the estimate then uses the audit for the agreeing cell)', () => {
    const { design: file, difference } = design();
    difference.set('g1', 1);
    const g = designGate(file, difference, { baseline: 'b', candidate: 'a', margin: 1 });
    expect(g.assumptionFailed).toBe(true);
    expect(g.audit).toMatchObject({ audited: 2, differing: 1, examples: ['g1'] });
    // (6/10)·(1/3) + (4/10)·(1/2) = 0.4
    expect(g.estimate).toBeCloseTo(0.4, 14);
    expect(g.warnings.join(' ')).toMatch(/"same output ⇒ same score" does not hold/);
  });

  it('refuses models outside the design, a level ≤ 0.5 and a negative margin', () => {
    const { design: file, difference } = design();
    expect(() => designGate(file, difference, { baseline: 'a', candidate: 'c', margin: 0 })).toThrow(RangeError);
    expect(() => designGate(file, difference, { baseline: 'a', candidate: 'a', margin: 0 })).toThrow(RangeError);
    expect(() => designGate(file, difference, { baseline: 'a', candidate: 'b', margin: 0, confidenceLevel: 0.5 })).toThrow(RangeError);
    expect(() => designGate(file, difference, { baseline: 'a', candidate: 'b', margin: -0.1 })).toThrow(RangeError);
  });
});
