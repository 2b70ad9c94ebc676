import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('benchplan rank', () => {
  it('ranks the bundled candidates: JSON with P(best), the selection bound against the incumbent, label more', async () => {
    const run = await runCli(['rank', 'examples/scores.csv', '--incumbent', 'gamma', '--budget', '200', '--resamples', '999', '--json']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect([r.leader, r.runnerUp, r.incumbent, r.n]).toEqual(['alpha', 'beta', 'gamma', 400]);
    expect(r.candidates.reduce((s: number, c: { pBest: number }) => s + c.pBest, 0)).toBeCloseTo(1, 12);
    expect(r.selection.chosen).toBe('alpha');
    expect(r.selection.adjustedLowerBound).toBeLessThanOrEqual(r.selection.naiveLowerBound);
    expect(r.labelMore.budget).toBe(200);
    expect(r).toMatchObject({ methodUsed: 'max-t bootstrap', nResamples: 999, seed: '0', confidenceLevel: 0.95 });
    // Same seed, same bytes.
    expect((await runCli(['rank', 'examples/scores.csv', '--incumbent', 'gamma', '--budget', '200', '--resamples', '999', '--json'])).stdout).toBe(run.stdout);
  });

  it('prints a table and the selection-adjusted bound in words', async () => {
    const run = await runCli(['rank', 'examples/scores.csv', '--incumbent', 'gamma', '--resamples', '999']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Leader: alpha \(mean 0\.882, P\(best\) /);
    expect(run.stdout).toMatch(/alpha − gamma = 0\.18: selection-adjusted 95% lower bound 0\.\d+ \(max-T over the 2 challengers/);
  });

  it('exits 2 for an unknown incumbent, a bad budget, or a missing cluster column', async () => {
    const bad = await runCli(['rank', 'examples/scores.csv', '--incumbent', 'delta']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--incumbent: is not one of the candidates \(alpha, beta, gamma\) \(got "delta"\)/);
    const budget = await runCli(['rank', 'examples/scores.csv', '--budget', '2.5']);
    expect(budget.code).toBe(2);
    expect(budget.stderr).toMatch(/--budget: must be a whole number of items \(got "2\.5"\)/);
    const cluster = await runCli(['rank', 'examples/pilot.csv', '--cluster']);
    expect(cluster.code).toBe(2);
  });
});
