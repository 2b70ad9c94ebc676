/**
 * File-system behaviour that needs a hand on node:fs: a file the system refuses to read (the
 * tests run as root here, where chmod 000 does not stop a read), and how many times a rotation
 * opens each content file.
 */
import { sep } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const fsHooks = vi.hoisted(() => ({ refuse: new Set<string>(), objectOpens: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const guard = (path: unknown) => {
    if (typeof path !== 'string') return;
    if (fsHooks.refuse.has(path)) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', path });
    if (path.includes(`${sep}objects${sep}`) && !path.endsWith('.tmp')) fsHooks.objectOpens.push(path);
  };
  const openSync = ((path: Parameters<typeof fs.openSync>[0], ...rest: unknown[]) => {
    guard(path);
    return (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
  }) as typeof fs.openSync;
  const readFileSync = ((path: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) => {
    guard(path);
    return (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, openSync, readFileSync }, openSync, readFileSync };
});

const { join } = await import('node:path');
const { freezeVersion, readArchiveObject, readArchiveVersion } = await import('../../src/rotation/archive.js');
const { sha256Hex } = await import('../../src/rotation/hash.js');
const { verifyArchive } = await import('../../src/rotation/verify.js');
const { runCli } = await import('../helpers/cli.js');
const { smallBenchmark, tempDir } = await import('./helpers.js');

beforeEach(() => {
  fsHooks.refuse.clear();
  fsHooks.objectOpens.length = 0;
});

describe('a file the system will not let us read', () => {
  it('an unreadable content file is a finding of verify (exit 1), named with the code; elsewhere bad input (exit 2)', async () => {
    const dir = tempDir();
    const items = smallBenchmark();
    freezeVersion(dir, items, { version: 'v1', date: '2026-07-01' });
    const hash = sha256Hex(items[0].content);
    fsHooks.refuse.add(join(dir, 'objects', hash));
    expect(verifyArchive(dir).problems).toEqual([{ kind: 'unreadable', path: `objects/${hash}`, detail: 'cannot be read: EACCES (item routine-e1 of v1)' }]);
    const cli = await runCli(['verify', '--archive', dir]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`unreadable objects/${hash}: cannot be read: EACCES`);
    expect(() => readArchiveObject(dir, hash)).toThrow(`${join(dir, 'objects', hash)}: cannot read: EACCES`);
    const rotate = await runCli(['rotate', '--archive', dir, '--from', 'v1', '--incidents', 'examples/incidents.jsonl']);
    expect(rotate.code).toBe(2);
    expect(rotate.stderr).toBe(`error: ${join(dir, 'objects', hash)}: cannot read: EACCES\n`);
  });

  it('an unreadable record is a finding of verify; diff, drift and rotate say which file and why (exit 2)', async () => {
    const dir = tempDir();
    freezeVersion(dir, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
    const record = join(dir, 'versions', 'v1.json');
    fsHooks.refuse.add(record);
    const r = verifyArchive(dir);
    expect(r.problems[0]).toEqual({ kind: 'unreadable', path: 'versions/v1.json', detail: 'cannot read: EACCES' });
    expect((await runCli(['verify', '--archive', dir])).code).toBe(1);
    for (const args of [
      ['diff', '--archive', dir, 'v1', 'v1'],
      ['rotate', '--archive', dir, '--from', 'v1', '--incidents', 'examples/incidents.jsonl'],
      ['drift', '--before', 'examples/rotation/drift-before.csv', '--rerun', 'examples/rotation/drift-rerun.csv', '--after', 'examples/rotation/drift-after.csv', '--archive', dir, '--from', 'v1', '--to', 'v1'],
    ]) {
      const run = await runCli(args);
      expect(run.stderr).toBe(`error: ${record}: cannot read: EACCES\n`);
      expect(run.code).toBe(2);
    }
  });
});

describe('rotate --apply reads each content file once', () => {
  it('opens each distinct object of the version rotated from exactly once, for plan and freeze together', async () => {
    const archive = join(tempDir(), 'archive');
    expect((await runCli(['freeze', 'examples/manifest.yaml', '--archive', archive, '--version', 'v1', '--date', '2026-07-01'])).code).toBe(0);
    const distinct = new Set(readArchiveVersion(archive, 'v1').items.map((x) => x.sha256));
    expect(distinct.size).toBe(90); // 100 items, 10 repeat another's text
    fsHooks.objectOpens.length = 0;
    const r = await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', 'examples/incidents.jsonl', '--apply', '--version', 'v2', '--date', '2026-10-01']);
    expect(r.code).toBe(0);
    // Before: each of the 100 items read twice to plan (once to check, once to use), twice
    // again to freeze, and each kept object hashed once more by freeze: 478 opens.
    const opened = fsHooks.objectOpens.map((p) => p.slice(p.lastIndexOf(sep) + 1));
    expect(opened.length).toBe(distinct.size);
    expect(new Set(opened)).toEqual(distinct);
  });
});
