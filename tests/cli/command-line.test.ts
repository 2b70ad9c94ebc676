import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAZY_COMMANDS, runCommandLine } from '../../src/cli/command-line.js';
import { createProgram, run } from '../../src/cli/program.js';
import { VERSION } from '../../src/cli/version.js';

// bin/benchplan.js registers only the command named on the command line (runCommandLine); these
// check that it prints the same bytes and exit status as the whole program (run).
async function both(args: readonly string[]): Promise<Array<{ code: number; stdout: string; stderr: string }>> {
  const out = [];
  for (const runner of [run, runCommandLine]) {
    let stdout = '';
    let stderr = '';
    const code = await runner(['node', 'benchplan', ...args], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTTY: false });
    out.push({ code, stdout, stderr });
  }
  return out;
}

describe('runCommandLine (one command loaded)', () => {
  it('knows every command the program registers, and no other', () => {
    expect([...LAZY_COMMANDS].sort()).toEqual(createProgram().commands.map((c) => c.name()).sort());
  });

  for (const name of LAZY_COMMANDS) {
    it(`${name} --help is the whole program's`, async () => {
      const [whole, lazy] = await both([name, '--help']);
      expect(lazy).toEqual(whole);
      expect(lazy.stdout).toContain(`Usage: benchplan ${name}`);
    });
  }

  const cases: Array<[string, string[]]> = [
    ['--version', ['--version']],
    ['-V after --json', ['--json', '-V']],
    ['--help', ['--help']],
    ['-h', ['-h']],
    ['--help after --json', ['--json', '--help']],
    ['--help with a stray argument', ['--help', 'extra']],
    ['no arguments', []],
    ['a misspelt command', ['compair', 'examples/scores.csv']],
    ['help compare', ['help', 'compare']],
    ['an unknown option', ['compare', 'examples/scores.csv', '--nope']],
    ['a bad flag value', ['compare', 'examples/scores.csv', '--resamples', 'many']],
    ['a missing argument', ['sweep']],
    ['a run, --json before the command', ['--json', 'compare', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--resamples', '199']],
    ['a run, --json after it', ['allocate', '--strata', 'examples/strata.yaml', '--budget', '300', '--json']],
  ];
  for (const [label, args] of cases) {
    it(`${label}: the same output and exit status`, async () => {
      const [whole, lazy] = await both(args);
      expect(lazy).toEqual(whole);
    });
  }

  it('--version prints the package version', async () => {
    const [, lazy] = await both(['--version']);
    expect(lazy).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});

describe('the bundled CLI', () => {
  const bin = join(import.meta.dirname, '..', '..', 'bin', 'benchplan.js');
  it.skipIf(!existsSync(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bundle', 'main.js')))('runs a command from its own chunk, and a ZIP import through the lazily loaded decompressor', () => {
    const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(version.stdout).toBe(`${VERSION}\n`);
    const compare = spawnSync(process.execPath, [bin, 'compare', 'examples/tools/inspect/run-a.eval', 'examples/tools/inspect/run-b.eval', '--json'], { encoding: 'utf8', cwd: join(import.meta.dirname, '..', '..') });
    expect(compare.status, compare.stderr).toBe(0);
    expect(JSON.parse(compare.stdout).pairs.length).toBeGreaterThan(0);
  });
});
