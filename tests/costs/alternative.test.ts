import { describe, expect, it } from 'vitest';
import { bandRankings, compareScorings, costSweep, tallyOutcomes } from '../../src/costs/index.js';
import { loadPolicy, loadScores, scoresFromRows, type CostPolicy, type ScoreRow } from '../../src/data/index.js';

const policy: CostPolicy = {
  owner: 'Risk',
  decided: '2026-10-01',
  costs: { hit: 0, miss: 1, fabrication: 8, wrong_span: 2, correct_absent: 0 },
  sweep: { vary: 'fabrication', band: [4, 20] },
};

function scored(rows: ScoreRow[], source: string) {
  const table = scoresFromRows(rows, source);
  return { table, sweep: costSweep(tallyOutcomes(table), policy) };
}

// Two models on four slots. First judge: a misses one, invents one (1 + 8f... at f = 8: 9);
// b misses three (3). Second judge reads the invented value as a hit: a costs 1, b still 3.
const first: ScoreRow[] = [
  { item: 's1', model: 'a', outcome: 'miss' },
  { item: 's2', model: 'a', outcome: 'fabrication' },
  { item: 's3', model: 'a', outcome: 'hit' },
  { item: 's4', model: 'a', outcome: 'hit' },
  { item: 's1', model: 'b', outcome: 'miss' },
  { item: 's2', model: 'b', outcome: 'correct_absent' },
  { item: 's3', model: 'b', outcome: 'miss' },
  { item: 's4', model: 'b', outcome: 'miss' },
];
const second = first.map((row) => (row.item === 's2' && row.model === 'a' ? { ...row, outcome: 'hit' } : row));

describe('compareScorings', () => {
  it('a scoring compared with itself survives everywhere and changes nothing', () => {
    const a = scored(first, 'one.csv');
    const result = compareScorings(a, scored(first, 'two.csv'));
    expect(result).toMatchObject({ rankingSurvives: true, leaderSurvives: true, verdictSurvives: true, bandRankingsSurvive: true, unmatchedRows: 0, warnings: [] });
    expect(result.models.map((m) => m.changedOutcomes.changed)).toEqual([0, 0]);
  });

  it('flipping one contested label reverses the ranking, and says which outcome changed', () => {
    // First judge: a = 1 + 8 = 9, b = 3 → b < a. Second: a = 1, b = 3 → a < b.
    const result = compareScorings(scored(first, 'one.csv'), scored(second, 'two.csv'));
    expect(result.ranking).toEqual(['b', 'a']);
    expect(result.alternativeRanking).toEqual(['a', 'b']);
    expect(result.rankingSurvives).toBe(false);
    expect(result.leaderSurvives).toBe(false);
    const a = result.models.find((m) => m.model === 'a');
    expect(a?.changedOutcomes).toEqual({ model: 'a', changed: 1, compared: 4, changes: { 'fabrication→hit': 1 } });
    expect(a?.costPerDocument).toBe(9 / 4);
    expect(a?.alternativeCostPerDocument).toBe(1 / 4);
    // a = 1 + f vs b = 3 crosses at f = 2 (outside [4, 20]) under the first scoring; no crossing under the second.
    expect(result.crossingShifts).toEqual([]);
    expect(result.verdictSurvives).toBe(true);
  });

  it('needs the same models in both scorings', () => {
    const other = scored(first.map((row) => (row.model === 'b' ? { ...row, model: 'c' } : row)), 'two.csv');
    expect(() => compareScorings(scored(first, 'one.csv'), other)).toThrow(/two\.csv: the alternative scoring must score the same models as one\.csv \(a, b\)/);
  });

  it('counts rows found in only one scoring', () => {
    const fewer = first.filter((row) => row.item !== 's4');
    const result = compareScorings(scored(first, 'one.csv'), scored(fewer, 'two.csv'));
    expect(result.unmatchedRows).toBe(2);
    expect(result.warnings.join('\n')).toMatch(/2 rows appear in only one/);
  });

  it('on the bundled examples: the rescoring keeps the order at 8 but moves the alpha/beta tie out of the band', () => {
    const p = loadPolicy('examples/policy.yaml');
    const one = loadScores('examples/scores.csv');
    const two = loadScores('examples/scores-rescored.csv');
    const result = compareScorings({ table: one, sweep: costSweep(tallyOutcomes(one), p) }, { table: two, sweep: costSweep(tallyOutcomes(two), p) });
    expect(result.rankingSurvives).toBe(true);
    expect(result.verdictSurvives).toBe(false);
    expect(result.bandRankings).toEqual([
      ['alpha', 'beta', 'gamma'],
      ['beta', 'alpha', 'gamma'],
    ]);
    expect(result.crossingShifts[0]).toMatchObject({ models: ['alpha', 'beta'], value: 13.8 });
    expect(result.crossingShifts[0].alternativeValue).toBeGreaterThan(20);
    expect(bandRankings(costSweep(tallyOutcomes(two), p))).toEqual([['alpha', 'beta', 'gamma']]);
  });
});
