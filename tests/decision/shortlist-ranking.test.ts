import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// shortlist ranks its candidates with rank's own numbers (issue 26 item 2, end): the same data,
// confidence level, resamples, seed, cluster setting and incumbent give the very same P(best),
// simultaneous intervals and selection-adjusted bound as `benchplan rank`.
describe('shortlist carries benchplan rank\'s numbers', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['items, with an incumbent', ['--incumbent', 'gamma'], ['--incumbent', 'gamma']],
    ['clusters, another seed and level', ['--cluster', '--seed', 'q4', '--confidence', '0.9'], ['--cluster', '--seed', 'q4', '--confidence', '0.9']],
    ['two of three candidates', ['--model', 'beta', '--model', 'gamma', '--incumbent', 'gamma'], ['--model', 'beta', '--model', 'gamma', '--incumbent', 'gamma']],
  ];
  for (const [name, shortlistFlags, rankFlags] of cases) {
    it(`the same numbers as rank: ${name}`, async () => {
      const s = await runCli(['shortlist', 'examples/scores.csv', '--resamples', '999', ...shortlistFlags, '--json']);
      const r = await runCli(['rank', 'examples/scores.csv', '--resamples', '999', ...rankFlags, '--json']);
      expect(s.code).toBe(0);
      expect(r.code).toBe(0);
      const ranking = JSON.parse(s.stdout).ranking;
      const rank = JSON.parse(r.stdout);
      for (const key of ['models', 'n', 'nUnits', 'leader', 'runnerUp', 'incumbent', 'candidates', 'selection', 'confidenceLevel', 'nResamples', 'seed', 'methodUsed']) expect(ranking[key]).toEqual(rank[key]);
      // Not a vacuous equality: P(best) and the intervals are there.
      expect(ranking.candidates.length).toBeGreaterThanOrEqual(2);
      expect(ranking.candidates.every((c: { pBest: number; fromBest: { confidenceInterval: number[] } }) => c.pBest >= 0 && c.fromBest.confidenceInterval.length === 2)).toBe(true);
    });
  }

  it('the text output shows the ranking; --resamples 0 leaves it out; an incumbent that is not a candidate is refused', async () => {
    const text = await runCli(['shortlist', 'examples/scores.csv', '--resamples', '999', '--incumbent', 'gamma']);
    expect(text.stdout).toMatch(/Ranking \(as benchplan rank: max-t bootstrap, 95% simultaneous intervals, 999 resamples, seed 0\):/);
    expect(text.stdout).toMatch(/alpha − gamma = 0\.18: selection-adjusted 95% lower bound/);
    expect(JSON.parse((await runCli(['shortlist', 'examples/scores.csv', '--resamples', '0', '--json'])).stdout).ranking).toBeNull();
    const bad = await runCli(['shortlist', 'examples/scores.csv', '--model', 'alpha', '--model', 'beta', '--incumbent', 'gamma']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--incumbent: is not one of the candidates (alpha, beta) (got "gamma")');
  });
});
