import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freezeVersion, readArchiveVersion } from '../../src/rotation/archive.js';
import { sha256Hex } from '../../src/rotation/hash.js';
import { verifyArchive } from '../../src/rotation/verify.js';
import { runCli } from '../helpers/cli.js';
import { item, smallBenchmark, tempDir } from './helpers.js';

const DATE = '2026-07-01';

/** An archive with v1 and v2 (v2 rotated from v1: one item replaced). */
function twoVersions() {
  const dir = tempDir();
  const items = smallBenchmark();
  const v1 = freezeVersion(dir, items, { version: 'v1', date: DATE, guideline: 'g1' });
  freezeVersion(dir, [...items.slice(1), item('new', 'routine', 'A new incident.')], { version: 'v2', date: '2026-10-01', guideline: 'g1', parent: { version: 'v1', fingerprint: v1.fingerprint } });
  return { dir, items };
}

function rewrite(path: string, content: string): void {
  chmodSync(path, 0o644);
  writeFileSync(path, content);
}

describe('verifyArchive', () => {
  it('passes an intact archive, counting versions, items and re-hashed files', () => {
    const { dir } = twoVersions();
    const r = verifyArchive(dir);
    expect(r).toMatchObject({ ok: true, problems: [], versions: ['v1', 'v2'], items: 24, objects: 13 });
    expect(verifyArchive(dir, { version: 'v2' })).toMatchObject({ ok: true, version: 'v2', versions: ['v2'], items: 12, objects: 12 });
  });

  it('catches a changed content file and names the item', () => {
    const { dir, items } = twoVersions();
    const hash = sha256Hex(items[0].content);
    rewrite(join(dir, 'objects', hash), 'Eval item 1 of stratum routine: clause number 8 applies here.');
    const r = verifyArchive(dir);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([{ kind: 'changed', path: `objects/${hash}`, detail: expect.stringMatching(/^its content hash is now [0-9a-f]{12}… \(item routine-e1 of v1\)$/) }]);
  });

  it('catches a missing content file and a removed parent version', () => {
    const { dir, items } = twoVersions();
    const hash = sha256Hex(items[3].content);
    rmSync(join(dir, 'objects', hash));
    rmSync(join(dir, 'versions', 'v1.json'));
    const r = verifyArchive(dir);
    // Records first, then files under objects/ by path.
    expect(r.problems[0]).toEqual({ kind: 'missing', path: 'versions/v1.json', detail: 'version v2 was rotated from it' });
    expect(r.problems).toHaveLength(3);
    expect(r.problems.slice(1)).toEqual(expect.arrayContaining([
      { kind: 'extra', path: `objects/${sha256Hex(items[0].content)}`, detail: 'no version refers to it (left by an interrupted freeze?)' },
      { kind: 'missing', path: `objects/${hash}`, detail: 'item routine-e4 of v2' },
    ]));
  });

  it('catches extra files: a stray file, a leftover temporary file, a foreign record name, a link', () => {
    const { dir } = twoVersions();
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    writeFileSync(join(dir, 'objects', '.abc.123.1.tmp'), 'partial');
    writeFileSync(join(dir, 'versions', 'draft.txt'), '{}');
    symlinkSync('/etc/hostname', join(dir, 'versions', 'v3.json'));
    const kinds = verifyArchive(dir).problems.map((p) => `${p.kind} ${p.path}: ${p.detail}`);
    expect(kinds).toEqual([
      'extra notes.txt: not part of the archive layout (objects/, versions/)',
      'extra versions/draft.txt: not a version record name (<id>.json)',
      'extra versions/v3.json: a symbolic link (never followed)',
      'extra objects/.abc.123.1.tmp: a temporary file left by an interrupted write',
    ]);
  });

  it('catches an edited label, an edited fingerprint, and an unreadable record', () => {
    const { dir } = twoVersions();
    const path = join(dir, 'versions', 'v2.json');
    const record = readArchiveVersion(dir, 'v2');
    const edited = { ...record, items: record.items.map((x, k) => (k === 0 ? { ...x, label: 'absent' } : x)) };
    rewrite(path, JSON.stringify(edited, null, 2));
    expect(verifyArchive(dir).problems).toEqual([{ kind: 'changed', path: 'versions/v2.json', detail: expect.stringMatching(/^its items no longer match its fingerprint \(recorded [0-9a-f]{12}…, computed [0-9a-f]{12}…\)$/) }]);

    // Re-forging v1's fingerprint to match an edit is caught by v2, which recorded v1's fingerprint.
    const v1Path = join(dir, 'versions', 'v1.json');
    const v1 = readArchiveVersion(dir, 'v1');
    rewrite(path, `${JSON.stringify(record, null, 2)}\n`);
    rewrite(v1Path, JSON.stringify({ ...v1, guideline: 'g2', fingerprint: sha256Hex('forged') }, null, 2));
    const problems = verifyArchive(dir).problems;
    expect(problems.map((p) => `${p.kind} ${p.path}`)).toEqual(['changed versions/v1.json', 'changed versions/v1.json']);
    expect(problems[1].detail).toMatch(/not the one version v2 recorded when rotated from it/);

    rewrite(v1Path, '{ not json');
    expect(verifyArchive(dir).problems[0]).toEqual({ kind: 'changed', path: 'versions/v1.json', detail: expect.stringMatching(/^the record no longer reads: not valid JSON/) });
  });

  it('with a version, checks only that version', () => {
    const { dir, items } = twoVersions();
    rewrite(join(dir, 'objects', sha256Hex(items[0].content)), 'changed'); // only v1 has items[0]
    writeFileSync(join(dir, 'stray'), 'x');
    expect(verifyArchive(dir, { version: 'v2' }).ok).toBe(true);
    expect(verifyArchive(dir, { version: 'v1' }).problems.map((p) => p.kind)).toEqual(['changed']);
    expect(() => verifyArchive(dir, { version: 'v9' })).toThrow(/--version: version "v9" is not in the archive/);
  });

  it('reports a record moved to another name', () => {
    const { dir } = twoVersions();
    renameSync(join(dir, 'versions', 'v2.json'), join(dir, 'versions', 'v3.json'));
    expect(verifyArchive(dir).problems[0]).toEqual({ kind: 'changed', path: 'versions/v3.json', detail: expect.stringMatching(/the record says version "v2" but its file name says "v3"/) });
  });
});

describe('benchplan verify', () => {
  it('exits 0 with one summary line when intact', async () => {
    const { dir } = twoVersions();
    const r = await runCli(['verify', '--archive', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`archive ${dir} intact: 2 versions (v1, v2), 24 items, 13 content files re-hashed, fingerprints match\n`);
  });

  it('exits 1 naming each changed, missing or extra file', async () => {
    const { dir, items } = twoVersions();
    rewrite(join(dir, 'objects', sha256Hex(items[1].content)), 'tampered');
    rmSync(join(dir, 'objects', sha256Hex(items[2].content)));
    mkdirSync(join(dir, 'objects', 'sub'));
    const r = await runCli(['verify', '--archive', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`changed objects/${sha256Hex(items[1].content)}: its content hash is now`);
    expect(r.stdout).toContain(`missing objects/${sha256Hex(items[2].content)}: item routine-e3 of v1`);
    expect(r.stdout).toContain('extra   objects/sub: not a content hash');
    expect(r.stdout).toMatch(/3 problems in 2 versions/);
    expect(r.stderr).toBe(`verify: archive ${dir} failed: 3 changed, missing or extra files\n`);
    const json = await runCli(['verify', '--archive', dir, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { ok: boolean; problems: Array<{ kind: string }> };
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.kind).sort()).toEqual(['changed', 'extra', 'missing']);
  });

  it('reads a record the same way twice (no write)', async () => {
    const { dir } = twoVersions();
    const before = readFileSync(join(dir, 'versions', 'v1.json'));
    await runCli(['verify', '--archive', dir]);
    expect(readFileSync(join(dir, 'versions', 'v1.json'))).toEqual(before);
  });
});
