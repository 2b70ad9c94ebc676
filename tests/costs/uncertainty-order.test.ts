import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

// The resamples are drawn over documents, so listing beta's rows before alpha's changes nothing
// about them; the crossing interval must not change either. Before the fix, resamples in which the
// alpha and beta lines ran parallel were sent to −∞ or +∞ by the sign of the intercept gap alone,
// which flips with the pair's order: [6, 68] became [5.714, 60] (review finding).
describe('sweep crossing interval', () => {
  it('does not depend on the order of the models in the file', async () => {
    const [header, ...rows] = readFileSync('examples/scores.csv', 'utf8').trimEnd().split('\n');
    const betaFirst = [header, ...rows.filter((r) => r.split(',')[1] === 'beta'), ...rows.filter((r) => r.split(',')[1] !== 'beta')].join('\n');
    const path = writeInput(tempDir(), 'beta-first.csv', `${betaFirst}\n`);
    const run = async (file: string) => {
      const { code, stdout } = await runCli(['sweep', file, '--policy', 'examples/policy.yaml', '--resamples', '4999', '--json']);
      expect(code).toBe(0);
      return JSON.parse(stdout).uncertainty;
    };
    const original = await run('examples/scores.csv');
    const reordered = await run(path);
    expect(reordered.leaderAheadProbability).toBe(original.leaderAheadProbability);
    const pick = (u: { crossings: Array<{ models: string[]; confidenceInterval: [number, number] }> }) =>
      u.crossings.map((c) => ({ models: [...c.models].sort(), interval: c.confidenceInterval }));
    expect(pick(reordered)).toEqual(pick(original));
  });
});
