import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('compare reports McNemar for 0/1 scores', () => {
  it('gives the discordant counts and both p-values for alpha vs beta', async () => {
    const { code, stdout } = await runCli(['compare', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--resamples', '99', '--json']);
    expect(code).toBe(0);
    const { mcnemar } = JSON.parse(stdout);
    // Counted from examples/scores.csv: 75 slots only alpha got right, 14 only beta.
    expect(mcnemar.onlyA).toBe(75);
    expect(mcnemar.onlyB).toBe(14);
    // scipy 1.10: binomtest(14, 89, 0.5).pvalue → 3.0109103586376684e-11;
    // chi2.sf((75 - 14 - 1)**2 / 89, 1) → 2.0177045732527352e-10 (continuity-corrected).
    expect(Math.abs(mcnemar.exactPValue - 3.0109103586376684e-11) / 3.0109103586376684e-11).toBeLessThan(1e-9);
    expect(Math.abs(mcnemar.chiSquarePValue - 2.0177045732527352e-10) / 2.0177045732527352e-10).toBeLessThan(1e-9);
  });

  it('leaves it out (null) when scores are not all 0 or 1', async () => {
    const { code, stdout } = await runCli(['compare', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--resamples', '99', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).mcnemar).toBeNull();
  });
});
