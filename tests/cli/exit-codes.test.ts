import { describe, expect, it } from 'vitest';
import { CheckFailed, InputError } from '../../src/data/errors.js';
import { EXIT_INTERNAL_ERROR, reportError, type Io } from '../../src/cli/io.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';
import { normalQuantile } from '../../src/distributions/index.js';

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

  it('gate exits 3 (inconclusive) on unbounded scores skewed toward the candidate’s losses, naming G1 and the items Cochran’s rule wants', async () => {
    const dir = tempDir();
    // 30 items on a 1–10 scale: b scores 5, a scores 5 + the (i + ½)/30 quantiles of −0.3 × a standardised lognormal.
    const rows = Array.from({ length: 30 }, (_, i) => {
      const d = (-0.3 * (Math.exp(normalQuantile((i + 0.5) / 30)) - Math.exp(0.5))) / 2.16;
      return `q${i},cand,${(5 + d).toPrecision(17)}\nq${i},base,5\n`;
    });
    const path = writeInput(dir, 'losses.csv', `item,model,score\n${rows.join('')}`);
    const { code, stdout } = await runCli(['gate', path, '--baseline', 'base', '--candidate', 'cand', '--margin', '0.2', '--resamples', '1999']);
    expect(code).toBe(3);
    expect(stdout).toMatch(/skewed toward the candidate's losses \(G1 = -2\.47\)/);
    expect(stdout).toContain("Cochran's rule (n > 25·G1²) wants 153 items");
    const json = JSON.parse((await runCli(['gate', path, '--baseline', 'base', '--candidate', 'cand', '--margin', '0.2', '--resamples', '1999', '--json'])).stdout);
    expect(json).toMatchObject({ passed: false, verdict: 'inconclusive', methodUsed: 'studentized' });
    expect(json.overall.itemsNeeded).toBe(153);
    // Declared bounded, the same scores get the betting bound (exit 3 here: too wide on 30 items to decide).
    const declared = await runCli(['gate', path, '--baseline', 'base', '--candidate', 'cand', '--margin', '0.2', '--score-range', '1,10', '--json']);
    expect(declared.code).toBe(3);
    expect(JSON.parse(declared.stdout)).toMatchObject({ methodUsed: 'betting', passed: false, verdict: 'inconclusive', scoreRange: [1, 10] });
    // A score outside the declared range, or a named method given a range: bad input, exit 2.
    const outside = await runCli(['gate', path, '--baseline', 'base', '--candidate', 'cand', '--margin', '0.2', '--score-range', '4.5,5']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/losses\.csv:2: score: item "q0" of model "cand" scores 5\.21\d*, outside the declared score range \[4\.5, 5\] \(got 5\.21\d*\)/);
    const named = await runCli(['gate', path, '--baseline', 'base', '--candidate', 'cand', '--margin', '0.2', '--score-range', '1,10', '--method', 't']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('error: --score-range: is used by --method auto (and --sequential) only');
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
