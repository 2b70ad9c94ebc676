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

describe('a reader that closes the pipe early (benchplan … | head)', () => {
  it('ends the command quietly with status 0, not an unhandled EPIPE', async () => {
    const { spawn } = await import('node:child_process');
    const { resolve } = await import('node:path');
    const bin = resolve(import.meta.dirname, '..', '..', 'bin', 'benchplan.js');
    for (const args of [['monitor', '--help'], ['compare', '--help']]) {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      // Read nothing, like `head -0`: the first write after this meets a closed pipe.
      child.stdout.destroy();
      const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
      expect(stderr, args.join(' ')).not.toContain('EPIPE');
      expect(status, args.join(' ')).toBe(0);
    }
  });
});
