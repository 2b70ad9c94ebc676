import { describe, expect, it } from 'vitest';
import { CheckFailed, InputError } from '../../src/data/errors.js';
import { EXIT_INTERNAL_ERROR, reportError, type Io } from '../../src/cli/io.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

function capture(): { io: Io; text: () => string } {
  let text = '';
  return { io: { stdout: () => {}, stderr: (t) => (text += t), stderrIsTTY: false }, text: () => text };
}

describe('exit status', () => {
  it('is 2 for bad input, 1 for a failed check, 70 for a bug (with its stack)', () => {
    const a = capture();
    expect(reportError(new InputError('bad', { file: 'x.csv', line: 3, value: 'v' }), a.io)).toBe(2);
    expect(a.text()).toBe('error: x.csv:3: bad (got "v")\n');
    expect(reportError(new CheckFailed('gate failed'), capture().io)).toBe(1);
    const c = capture();
    expect(reportError(new TypeError('boom'), c.io)).toBe(EXIT_INTERNAL_ERROR);
    expect(EXIT_INTERNAL_ERROR).not.toBe(1);
    expect(c.text()).toMatch(/internal error[\s\S]*TypeError: boom\n\s+at /);
  });

  it('gate --cluster --stratified with a cluster across strata is bad input (2), not a failed gate (1)', async () => {
    const dir = tempDir();
    const path = writeInput(dir, 'spanning.csv', 'item,model,score,stratum,cluster\nx,a,1,rare,d1\nx,b,0,rare,d1\ny,a,1,routine,d1\ny,b,1,routine,d1\nz,a,0,routine,d2\nz,b,0,routine,d2\n');
    const { code, stderr } = await runCli(['gate', path, '--baseline', 'a', '--candidate', 'b', '--margin', '0.1', '--cluster', '--stratified']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/spanning\.csv: cluster "d1" has items in two strata .* \(got "d1"\)/);
  });

  it('compare refuses a one-sided test without --a/--b (its direction would be chosen after seeing the data)', async () => {
    const { code, stderr } = await runCli(['compare', 'examples/scores.csv', '--alternative', 'greater']);
    expect(code).toBe(2);
    expect(stderr).toContain('error: --alternative: a one-sided test needs --a and --b');
  });
});
