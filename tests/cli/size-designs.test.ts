import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

describe('benchplan size with annotation designs', () => {
  it('adds the labels select and PPI++ need beside the plain counts', async () => {
    const { code, stdout } = await runCli(['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--agree-share', '0.8', '--judge-correlation', '0.7', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    const n = r.n;
    expect(r.designs.forWidth.plain).toBe(n);
    expect(r.designs.forWidth.select.labels).toBe(Math.ceil((0.2 * n) / 0.9 - 1e-9));
    expect(r.designs.forWidth.ppi.labels).toBe(Math.ceil(n * 0.51 - 1e-9));
    expect(r.designs.forPower.plain).toBe(r.nForPower);
    expect(r.designs.judgeCorrelationSource).toBe('flag');
  });

  it('measures the judge correlation on a pilot with a judge column', async () => {
    const dir = tempDir();
    const y = [1, 0, -1, 0, 1, 0, 1, -1];
    const f = [0.6, 0.1, -0.5, 0.2, 0.3, -0.1, 0.8, -0.2];
    const rows = ['item,model,score,judge'];
    y.forEach((d, i) => rows.push(`i${i},a,${d},${f[i]}`, `i${i},b,0,0`));
    const pilot = writeInput(dir, 'pilot.csv', `${rows.join('\n')}\n`);
    const { code, stdout } = await runCli(['size', pilot, '--a', 'a', '--b', 'b', '--mde', '0.5', '--judge', 'judge', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    // R: cor(y, f) = 0.907841299003204
    expect(r.designs.forWidth.ppi.judgeCorrelation).toBeCloseTo(0.907841299003204, 13);
    expect(r.designs.judgeCorrelationSource).toBe('pilot');
    expect(r.designs.forWidth.select).toBeNull();
  });

  it('refuses both --judge and --judge-correlation', async () => {
    const { code, stderr } = await runCli(['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--judge', 'judge', '--judge-correlation', '0.5']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/not both/);
  });
});
