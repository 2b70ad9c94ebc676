import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// Issue 25 item 3: 4 documents whose totals cancel (each document's mean A − B is 0 though items
// differ) made compare --cluster print [0, 0] and "a gap of up to 0 either way is still consistent".
const dir = mkdtempSync(join(tmpdir(), 'benchplan-cancel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const rows = ['item,model,score,cluster'];
// Per document: one item A wins, one B wins, one tie (both right): T_g = 0 for every g.
for (const doc of ['d1', 'd2', 'd3', 'd4']) {
  const cells: Array<[number, number]> = [[1, 0], [0, 1], [1, 1]];
  cells.forEach(([a, b], k) => {
    rows.push(`${doc}-${k},A,${a},${doc}`);
    rows.push(`${doc}-${k},B,${b},${doc}`);
  });
}
const file = join(dir, 'cancel.csv');
writeFileSync(file, rows.join('\n') + '\n');

describe('few clusters whose totals cancel', () => {
  it('compare --cluster says the data cannot support an interval, never [0, 0]', async () => {
    const run = await runCli(['compare', file, '--cluster']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/\[0, 0\]|up to 0 either way/);
    expect(run.stdout).toMatch(/No verdict on A vs B: the 4 clusters' totals cancel/);
    expect(run.stdout).not.toMatch(/treat each as a tie/);
    expect(run.stdout).toMatch(/cannot support an interval/);
    const json = await runCli(['compare', file, '--cluster', '--json']);
    const report = JSON.parse(json.stdout);
    expect(report.pairs[0].noInterval).toMatch(/totals cancel/);
    expect(report.pairs[0].confidenceInterval).toEqual([null, null]);
  });
  it('the gate does not pass: no valid bound, with the reason', async () => {
    const run = await runCli(['gate', file, '--baseline', 'B', '--candidate', 'A', '--margin', '0.05', '--cluster', '--json']);
    expect(run.code).not.toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.passed).toBe(false);
    expect(JSON.stringify(report)).toMatch(/no valid bound: the 4 clusters' totals cancel/);
  });
});
