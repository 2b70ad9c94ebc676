import { describe, expect, it } from 'vitest';
import { allocationSds } from '../../src/strata/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

describe('a stratum whose pilot shows no disagreement', () => {
  it('is weighed at the rule-of-three bound, not at 0', () => {
    // 0/1 scores, 30 agreeing items: p ≤ 3/30 = 0.1, so sd ≤ √0.1 = 0.316227766…
    const r = allocationSds({ strata: [{ stratum: 'x', n: 30, sd: 0 }, { stratum: 'y', n: 20, sd: 0.5 }], largestDifference: 1 });
    expect(r.sd.x).toBeCloseTo(Math.sqrt(0.1), 15);
    expect(r.sd.y).toBe(0.5);
    expect(r.floored).toEqual(['x']);
    // Points scale: the largest |A − B| seen (40) sets the scale; 3 items cap p at 1.
    expect(allocationSds({ strata: [{ stratum: 'x', n: 3, sd: 0 }], largestDifference: 40 }).sd.x).toBe(40);
  });

  it('still gets items under Neyman allocation, with a warning saying why', async () => {
    const dir = tempDir();
    const rows = ['item,model,stratum,score'];
    for (let i = 0; i < 20; i++) rows.push(`x${i},a,x,1`, `x${i},b,x,1`); // x: the models always agree
    for (let i = 0; i < 20; i++) rows.push(`y${i},a,y,${i % 2}`, `y${i},b,y,${i % 3 === 0 ? 1 : 0}`);
    const pilot = writeInput(dir, 'pilot.csv', `${rows.join('\n')}\n`);
    const strata = writeInput(dir, 'strata.yaml', 'strata:\n  x: { traffic: 0.7 }\n  y: { traffic: 0.3 }\n');
    const { code, stdout } = await runCli(['allocate', '--strata', strata, '--budget', '100', '--method', 'neyman', '--pilot', pilot, '--a', 'a', '--b', 'b', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    const x = report.allocation.find((s: { stratum: string }) => s.stratum === 'x');
    expect(x.n).toBeGreaterThan(0);
    expect(report.warnings.join('\n')).toMatch(/stratum "x": the models agreed on every pilot item \(sd 0\).*rule-of-three bound 0\.387/);
  });
});
