import { describe, expect, it } from 'vitest';
import { bettingInterval } from '../../src/paired/betting-interval.js';
import { compareModels } from '../../src/paired/compare-models.js';
import { alignModels } from '../../src/data/pairing.js';
import { loadScores } from '../../src/data/scores.js';
import { runCli } from '../helpers/cli.js';

// examples/rare-losses.csv: 30 items on a 1–10 scale, pr gains a little on most and loses up to 0.94 on a few.
const FILE = 'examples/rare-losses.csv';

describe('--score-range on compare and gate (declared bounded scale)', () => {
  const table = loadScores(FILE);
  const aligned = alignModels(table, ['pr', 'main']);
  const differences = Array.from(aligned.scores[0], (x, i) => x - aligned.scores[1][i]);

  it('compare: a skewed pair on a declared scale gets the betting interval on differences in [low − high, high − low]', async () => {
    const { code, stdout } = await runCli(['compare', FILE, '--a', 'pr', '--b', 'main', '--score-range', '1,10', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r.methodUsed).toBe('betting');
    expect(r.methodReason).toMatch(/^scores in \[1, 10\] \(declared\)/);
    expect(r.scoreRange).toEqual([1, 10]); // the setting echoed
    const plain = JSON.parse((await runCli(['compare', FILE, '--a', 'pr', '--b', 'main', '--json', '--resamples', '999'])).stdout);
    expect('scoreRange' in plain).toBe(false); // and absent when not given: other output unchanged
    const direct = bettingInterval(differences, { range: [-9, 9], seed: '0' });
    expect(r.confidenceInterval).toEqual(direct.confidenceInterval);
    // The library says the same, and without the range the pair is unbounded: studentized.
    const lib = compareModels(aligned, { method: 'auto', scoreRange: [1, 10] });
    expect(lib.pairs[0].confidenceInterval).toEqual(direct.confidenceInterval);
    expect(compareModels(aligned, { method: 'auto', nResamples: 999 }).pairs[0].auto?.methodUsed).toBe('studentized');
  });

  it('compare: the same bytes on 2 threads', async () => {
    const one = await runCli(['compare', FILE, '--score-range', '1,10', '--json']);
    const two = await runCli(['compare', FILE, '--score-range', '1,10', '--json', '--threads', '2']);
    expect(one.code).toBe(0);
    expect(JSON.parse(two.stdout)).toEqual({ ...JSON.parse(one.stdout), threads: 2 });
  });

  it('rejects a score outside the declared range, a named method, and --judge, with exit 2', async () => {
    const outside = await runCli(['compare', FILE, '--score-range', '4,5']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toBe('error: examples/rare-losses.csv:3: score: item "q01" of model "pr" scores 5.2125, outside the declared score range [4, 5] (got 5.2125)\n');
    const gate = await runCli(['gate', FILE, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.2', '--score-range', '4,5']);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toBe(outside.stderr);
    const named = await runCli(['compare', FILE, '--score-range', '1,10', '--method', 'bca']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('error: --score-range: is used by --method auto only');
    const judge = await runCli(['compare', FILE, '--score-range', '1,10', '--judge', 'judge']);
    expect(judge.code).toBe(2);
    expect(judge.stderr).toContain('error: --score-range: goes with the plain paired comparison');
    const malformed = await runCli(['compare', FILE, '--score-range', '10,1']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--score-range');
  });
});
