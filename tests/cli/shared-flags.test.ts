import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { commands } from '../../scripts/docs-flags.js';
import { confidenceFlag, threadsFlag } from '../../src/cli/shared-flags.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

// The flags many commands share are defined once, in src/cli/shared-flags.ts: no command file
// spells one out itself, and every command that has one has the same placeholder and default.
const SHARED: Record<string, { flags: string; defaultValue: string | undefined }> = {
  '--seed': { flags: '--seed <seed>', defaultValue: '0' },
  '--confidence': { flags: '--confidence <level>', defaultValue: '0.95' },
  '--drop-unpaired': { flags: '--drop-unpaired', defaultValue: undefined },
  '--threads': { flags: '--threads <k>', defaultValue: '1' },
  '--json': { flags: '--json', defaultValue: undefined },
};
const dir = join(import.meta.dirname, '..', '..', 'src', 'cli');

describe('shared flags, defined once', () => {
  it('no command file registers a shared flag or parses --confidence / --threads itself', () => {
    const offenders: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'shared-flags.ts' && f !== 'program-shell.ts')) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const m of text.matchAll(/option\('(--seed|--confidence|--resamples|--drop-unpaired|--threads|--json)\b|numberFlag\('(--confidence|--threads)'/g)) offenders.push(`${file}: ${m[0]}`);
    }
    expect(offenders).toEqual([]);
  });
  it('every command with a shared flag has its placeholder and default', () => {
    let seen = 0;
    for (const [name, command] of commands()) {
      for (const option of command.options as readonly Option[]) {
        const shared = SHARED[option.long ?? ''];
        if (shared === undefined) continue;
        seen++;
        // plan records a setting only when its flag is given (withoutDefault): same placeholder, no default.
        const expected = name === 'plan' ? { ...shared, defaultValue: undefined } : shared;
        expect({ command: name, flags: option.flags, defaultValue: option.defaultValue }).toEqual({ command: name, ...expected });
      }
    }
    expect(seen).toBeGreaterThan(40);
  });
  it('--resamples has one placeholder and a whole-number default everywhere', () => {
    for (const [name, command] of commands()) {
      const option = (command.options as readonly Option[]).find((o) => o.long === '--resamples');
      if (option !== undefined) expect([name, option.flags, /^\d+$/.test(String(option.defaultValue))]).toEqual([name, '--resamples <n>', name !== 'plan']);
    }
  });
  it('the shared parsers refuse values outside their domain, naming the flag', () => {
    expect(confidenceFlag('0.9')).toBe(0.9);
    for (const bad of ['0', '1', '95', 'x']) expect(() => confidenceFlag(bad)).toThrow(/--confidence/);
    expect(() => confidenceFlag('0.5', 0.5)).toThrow(/--confidence/);
    expect(threadsFlag('4')).toBe(4);
    for (const bad of ['0', '257', '1.5']) expect(() => threadsFlag(bad)).toThrow(/--threads/);
  });
});

describe('a deprecated flag name keeps working, with one warning line', () => {
  const dir = tempDir('benchplan-alias-');
  const pool = join(import.meta.dirname, '..', '..', 'examples', 'pool.csv');
  it('select --out FILE writes what -o FILE writes and warns once', async () => {
    const current = await runCli(['select', pool, '--budget', '20', '-o', join(dir, 'a.csv')]);
    const old = await runCli(['select', pool, '--budget', '20', '--out', join(dir, 'b.csv')]);
    expect([current.code, old.code]).toEqual([0, 0]);
    expect(current.stderr).toBe('');
    expect(old.stderr).toBe('warning: --out is deprecated; use --output\n');
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));
  });
  it('both names, or neither, is bad input (exit 2)', async () => {
    const both = await runCli(['select', pool, '--budget', '20', '-o', join(dir, 'c.csv'), '--out', join(dir, 'd.csv')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: --out: is the deprecated name of --output: give one of them/);
    const neither = await runCli(['select', pool, '--budget', '20']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/^error: --output: is required/);
  });
  it('the old name is not in --help', async () => {
    const help = await runCli(['select', '--help']);
    expect(help.stdout).toContain('-o, --output <file>');
    expect(help.stdout).not.toContain('--out <file>');
  });
});
