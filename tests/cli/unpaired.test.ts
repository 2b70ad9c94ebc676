import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

// compare, gate and report treat items one model did not score the same way: refused with exit 2
// and a message naming them, unless --drop-unpaired, which all three accept and which leaves them
// out (before, report dropped them by itself in its comparison, refused them in its per-stratum
// section, and rejected the flag).
const dir = tempDir('benchplan-unpaired-');
const rows = ['item,model,score,stratum'];
for (let k = 0; k < 30; k++) rows.push(`i${k},main,${k % 3 === 0 ? 0 : 1},${k % 2 ? 's1' : 's2'}`, `i${k},pr,${k % 4 === 0 ? 0 : 1},${k % 2 ? 's1' : 's2'}`);
rows.push('u1,main,1,s1', 'u2,pr,0,s2');
const scores = writeInput(dir, 'scores.csv', `${rows.join('\n')}\n`);
const strata = writeInput(dir, 'strata.yaml', 'strata:\n  s1: { traffic: 0.5 }\n  s2: { traffic: 0.5 }\n');

const commands: Record<string, string[]> = {
  compare: ['compare', scores, '--a', 'pr', '--b', 'main', '--resamples', '199'],
  gate: ['gate', scores, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.1', '--resamples', '199'],
  report: ['report', '--scores', scores, '--strata', strata, '--resamples', '199', '-o', join(dir, 'report.html')],
  // Without strata only the comparison section pairs the models: it used to drop them silently.
  'report (comparison only)': ['report', '--scores', scores, '--resamples', '199', '-o', join(dir, 'report.html')],
};

describe('unpaired items: the same in compare, gate and report', () => {
  for (const [name, args] of Object.entries(commands)) {
    it(`${name} refuses them by default, naming them, with exit 2`, async () => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/2 items are not scored by .*"u1", "u2"; pass --drop-unpaired to leave them out/);
    });
    it(`${name} --drop-unpaired leaves them out`, async () => {
      const run = await runCli(['--json', ...args, '--drop-unpaired']);
      expect(run.stderr).not.toMatch(/^error/m);
      expect(name === 'gate' ? [0, 1, 3] : [0]).toContain(run.code);
      const json = JSON.parse(run.stdout);
      if (name.startsWith('report')) {
        expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('2 items not scored by every model were left out (--drop-unpaired).');
      } else {
        expect(json).toMatchObject({ n: 30, dropped: 2 });
      }
    });
  }
});
