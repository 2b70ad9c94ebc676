import { spawnSync } from 'node:child_process';
import fs, { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckFailed, InputError } from '../../src/data/errors.js';
import { loadManifest } from '../../src/data/manifest.js';
import { freezeVersion, listArchiveVersions, readArchiveVersion, readVersionItems, VERSION_RECORD_FORMAT } from '../../src/rotation/archive.js';
import { benchmarkItemsFromManifest } from '../../src/rotation/content.js';
import { benchmarkFingerprint } from '../../src/rotation/fingerprint.js';
import { sha256Hex } from '../../src/rotation/hash.js';
import { checkVersionId } from '../../src/rotation/version-id.js';
import { verifyArchive } from '../../src/rotation/verify.js';
import { item, smallBenchmark, tempDir } from './helpers.js';

const DATE = '2026-07-01';

/** Makes the n-th call of fs[name] fail like a full disk, for the duration of fn (fault injection). */
function failOnCall(name: 'linkSync' | 'writeSync' | 'openSync', n: number, fn: () => void): void {
  const target = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = target[name];
  let calls = 0;
  target[name] = (...args: unknown[]) => {
    calls += 1;
    if (calls === n) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    return original(...args);
  };
  syncBuiltinESMExports();
  try {
    fn();
  } finally {
    target[name] = original;
    syncBuiltinESMExports();
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      if (name.isDirectory()) walk(join(d, name.name), `${prefix}${name.name}/`);
      else out.push(`${prefix}${name.name}`);
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return out.sort();
}

describe('freezeVersion', () => {
  it('stores each content once under its hash and a record with items, strata, splits, labels, fingerprint, guideline and date', () => {
    const dir = tempDir();
    const items = [...smallBenchmark(), item('routine-dup', 'routine', 'Eval item 1 of stratum routine: clause number 7 applies here.')];
    const result = freezeVersion(dir, items, { version: '2026Q3', date: DATE, guideline: '2026.2' });
    const distinct = new Set(items.map((x) => sha256Hex(x.content)));
    expect(result).toMatchObject({ version: '2026Q3', items: 13, objectsWritten: distinct.size, objectsShared: 0, guideline: '2026.2', date: DATE, parent: null });
    expect(filesUnder(join(dir, 'objects'))).toEqual([...distinct].sort());
    for (const x of items) expect(readFileSync(join(dir, 'objects', sha256Hex(x.content)))).toEqual(Buffer.from(x.content));
    const record = readArchiveVersion(dir, '2026Q3');
    expect(record.format).toBe(VERSION_RECORD_FORMAT);
    expect(record.fingerprint).toBe(benchmarkFingerprint(record.items, '2026.2'));
    expect(record.fingerprint).toBe(result.fingerprint);
    expect(record.items.map((x) => x.item)).toEqual([...items.map((x) => x.item)].sort());
    expect(record.strata).toEqual([
      { stratum: 'routine', eval: 6, dev: 1 },
      { stratum: 'rare_clause', eval: 5, dev: 1 },
    ]);
    expect(record.items.find((x) => x.item === 'routine-e1')).toEqual({
      item: 'routine-e1',
      stratum: 'routine',
      split: 'eval',
      label: 'present',
      added: '2026Q2',
      sha256: sha256Hex('Eval item 1 of stratum routine: clause number 7 applies here.'),
      bytes: 61,
    });
    expect(record.counts).toEqual({ items: 13, eval: 11, dev: 2 });
    expect(listArchiveVersions(dir)).toEqual(['2026Q3']);
  });

  it('shares content across versions and writes the same bytes for the same input', () => {
    const a = tempDir();
    const b = tempDir();
    const items = smallBenchmark();
    freezeVersion(a, items, { version: 'v1', date: DATE });
    const second = freezeVersion(a, [...items.slice(1), item('new', 'routine', 'A new item.')], { version: 'v2', date: DATE });
    expect(second.objectsWritten).toBe(1);
    expect(second.objectsShared).toBe(items.length - 1);
    freezeVersion(b, [...items].reverse(), { version: 'v1', date: DATE });
    // Same items in another order: the same fingerprint and the same record bytes (strata in first-appearance order aside).
    expect(readArchiveVersion(b, 'v1').fingerprint).toBe(readArchiveVersion(a, 'v1').fingerprint);
    expect(readArchiveVersion(b, 'v1').items).toEqual(readArchiveVersion(a, 'v1').items);
    const c = tempDir();
    freezeVersion(c, items, { version: 'v1', date: DATE });
    expect(readFileSync(join(c, 'versions', 'v1.json'))).toEqual(readFileSync(join(a, 'versions', 'v1.json')));
  });

  it('refuses to freeze an existing version twice (CheckFailed), leaving the first untouched', () => {
    const dir = tempDir();
    freezeVersion(dir, smallBenchmark(), { version: '2026Q3', date: DATE });
    const before = readFileSync(join(dir, 'versions', '2026Q3.json'));
    expect(() => freezeVersion(dir, [item('x', 'routine', 'other')], { version: '2026Q3', date: DATE })).toThrow(CheckFailed);
    expect(() => freezeVersion(dir, [item('x', 'routine', 'other')], { version: '2026Q3', date: DATE })).toThrow(/already exists; a frozen version is never overwritten/);
    expect(readFileSync(join(dir, 'versions', '2026Q3.json'))).toEqual(before);
    expect(filesUnder(join(dir, 'objects'))).not.toContain(sha256Hex('other'));
    expect(verifyArchive(dir).ok).toBe(true);
  });

  it('writes read-only files', () => {
    const dir = tempDir();
    freezeVersion(dir, smallBenchmark(), { version: 'v1', date: DATE });
    expect(fs.statSync(join(dir, 'versions', 'v1.json')).mode & 0o777).toBe(0o444);
  });

  // Call counts: linkSync 1 is the version lock; then one link per new content file; writeSync
  // 1 is the lock's content. A content file, once linked, is never deleted (a concurrent writer
  // of another version may already share it): it stays as an unreferenced leftover.
  it.each([
    ['a failure writing the 3rd content file', 'writeSync' as const, 4, 2],
    ['a failure linking the 2nd content file into place', 'linkSync' as const, 3, 1],
    ['a failure linking the version record into place (8 new content files, then the head lock, then the record)', 'linkSync' as const, 11, 8],
  ])('leaves no partial version after %s', (_what, call, n, leftBehind) => {
    const dir = tempDir();
    const first = smallBenchmark(['routine'], 3);
    freezeVersion(dir, first, { version: 'v1', date: DATE });
    const before = filesUnder(dir);
    const head = readFileSync(join(dir, 'head.json'));
    const items = smallBenchmark(['routine', 'rare_clause', 'past_failure'], 3); // 12 items, 4 already stored
    expect(() => failOnCall(call, n, () => freezeVersion(dir, items, { version: 'v2', date: DATE }))).toThrow(/ENOSPC/);
    // No record, no lock, no temporary file; the head is as it was.
    expect(filesUnder(dir).filter((f) => !f.startsWith('objects/'))).toEqual(before.filter((f) => !f.startsWith('objects/')));
    expect(readFileSync(join(dir, 'head.json'))).toEqual(head);
    expect(filesUnder(dir).filter((f) => f.startsWith('objects/')).length - before.filter((f) => f.startsWith('objects/')).length).toBe(leftBehind);
    expect(listArchiveVersions(dir)).toEqual(['v1']);
    const report = verifyArchive(dir);
    expect(report.ok).toBe(true);
    expect(report.leftovers.map((x) => x.kind)).toEqual(Array(leftBehind).fill('unreferenced'));
    // Nothing was left half-done: the same freeze now succeeds and adopts what was written.
    expect(freezeVersion(dir, items, { version: 'v2', date: DATE }).items).toBe(12);
    expect(verifyArchive(dir)).toMatchObject({ ok: true, leftovers: [] });
  });

  it('leaves the whole version or none when the process is killed mid-freeze (kill -9)', () => {
    const dir = tempDir();
    const script = join(tempDir(), 'crash.mts');
    const archiveModule = resolve('src/rotation/archive.ts');
    // The child freezes 6 items and is killed (SIGKILL: no cleanup runs) at its 4th hard link.
    writeFileSync(
      script,
      `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const original = fs.linkSync;
let calls = 0;
fs.linkSync = (...args) => { calls += 1; if (calls === 4) process.kill(process.pid, 'SIGKILL'); return original(...args); };
syncBuiltinESMExports();
const { freezeVersion } = await import(${JSON.stringify(archiveModule)});
const items = [1, 2, 3, 4, 5, 6].map((k) => ({ item: 'i' + k, stratum: 's', split: 'eval', content: Buffer.from('content ' + k) }));
freezeVersion(${JSON.stringify(dir)}, items, { version: 'v1', date: '2026-07-01' });
`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(child.signal).toBe('SIGKILL');
    expect(listArchiveVersions(dir)).toEqual([]);
    expect(existsSync(join(dir, 'versions', 'v1.json'))).toBe(false);
    // What a hard crash can leave: content files no version refers to, a temporary file and
    // the stale lock. verify lists them as leftovers and passes; nothing is a problem.
    const report = verifyArchive(dir);
    expect(report.ok).toBe(true);
    expect(report.problems).toEqual([]);
    const kinds = new Set(report.leftovers.map((x) => x.kind));
    expect(kinds.has('stale-lock')).toBe(true);
    expect([...kinds].every((k) => k === 'stale-lock' || k === 'unreferenced' || k === 'interrupted')).toBe(true);
    // Freezing again breaks the stale lock, removes the dead writer's temporary files and adopts the stored content.
    const items = [1, 2, 3, 4, 5, 6].map((k) => item(`i${k}`, 's', `content ${k}`));
    freezeVersion(dir, items, { version: 'v1', date: DATE });
    expect(verifyArchive(dir)).toMatchObject({ ok: true, problems: [], leftovers: [] });
  });

  it('refuses an object in the archive that no longer matches its hash, instead of sharing it', () => {
    const dir = tempDir();
    const items = smallBenchmark(['routine'], 2);
    freezeVersion(dir, items, { version: 'v1', date: DATE });
    const path = join(dir, 'objects', sha256Hex(items[0].content));
    chmodSync(path, 0o644);
    writeFileSync(path, 'tampered');
    expect(() => freezeVersion(dir, items, { version: 'v2', date: DATE })).toThrow(/does not match its name/);
    expect(listArchiveVersions(dir)).toEqual(['v1']);
  });

  it('never follows a symbolic link inside the archive', () => {
    const dir = tempDir();
    const outside = tempDir();
    const items = smallBenchmark(['routine'], 2);
    fs.mkdirSync(join(dir, 'objects'), { recursive: true });
    symlinkSync(outside, join(dir, 'versions'));
    expect(() => freezeVersion(dir, items, { version: 'v1', date: DATE })).toThrow(/versions must be a folder inside the archive \(it is a symbolic link/);
    expect(readdirSync(outside)).toEqual([]);

    const dir2 = tempDir();
    fs.mkdirSync(join(dir2, 'objects'), { recursive: true });
    writeFileSync(join(outside, 'secret'), 'secret');
    symlinkSync(join(outside, 'secret'), join(dir2, 'objects', sha256Hex(items[0].content)));
    expect(() => freezeVersion(dir2, items, { version: 'v1', date: DATE })).toThrow(/not a regular file \(a link or folder is never followed\)/);
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('secret');
  });

  it('refuses bad dates and empty versions', () => {
    const dir = tempDir();
    expect(() => freezeVersion(dir, smallBenchmark(), { version: 'v1', date: '2026-02-30' })).toThrow(InputError);
    expect(() => freezeVersion(dir, [], { version: 'v1', date: DATE })).toThrow(RangeError);
  });
});

describe('checkVersionId', () => {
  it.each(['2026Q3', 'v1', 'release-2026.10_b', 'A'.repeat(64), '0'])('accepts %s', (id) => {
    expect(checkVersionId(id)).toBe(id);
  });
  it.each(['../x', '..', 'a/b', 'a\\b', '.hidden', '-rf', '', ' v1', 'v 1', 'a..b', 'v1/', '/etc/passwd', 'a\0b', 'A'.repeat(65), 'ü', 'C:x'])('refuses %j', (id) => {
    expect(() => checkVersionId(id)).toThrow(InputError);
    expect(() => checkVersionId(id)).toThrow(/--version: must be 1–64 letters, digits/);
  });
});

describe('readArchiveVersion / readVersionItems', () => {
  it('round-trips the items with their content, and names the versions there are when one is unknown', () => {
    const dir = tempDir();
    const items = smallBenchmark();
    freezeVersion(dir, items, { version: 'v1', date: DATE });
    const back = readVersionItems(dir, readArchiveVersion(dir, 'v1'));
    const byId = new Map(back.map((x) => [x.item, x]));
    for (const x of items) {
      expect(Buffer.from(byId.get(x.item)?.content as Uint8Array).toString()).toBe(Buffer.from(x.content).toString());
      expect(byId.get(x.item)?.label).toBe(x.label);
    }
    expect(() => readArchiveVersion(dir, 'v2', '--from')).toThrow(/--from: version "v2" is not in the archive .* \(versions: v1\)/);
    expect(() => readArchiveVersion(join(dir, 'nope'), 'v1')).toThrow(/no archive here/);
  });
});

describe('benchmarkItemsFromManifest', () => {
  it('reads the bundled manifest: 100 items, inline text as UTF-8 (and freezes as the JSDoc example says)', () => {
    const items = benchmarkItemsFromManifest(loadManifest('examples/manifest.yaml'));
    expect(items).toHaveLength(100);
    expect(Buffer.from(items[0].content).toString()).toBe('Payment is due in full within 51 days after the invoice date.');
    const r = freezeVersion(tempDir(), items, { version: '2026Q3', date: DATE, guideline: '2026.2' });
    expect(r).toMatchObject({ version: '2026Q3', items: 100, objectsWritten: 90, objectsShared: 0 });
    expect(r.fingerprint.slice(0, 4)).toBe('9925');
  });

  it('reads content files inside the manifest folder and refuses a link pointing outside', () => {
    const dir = tempDir();
    const outside = tempDir();
    fs.mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.txt'), 'document A');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    writeFileSync(join(dir, 'manifest.yaml'), 'items:\n  - { item: a, stratum: s, split: eval, path: docs/a.txt }\n');
    expect(Buffer.from(benchmarkItemsFromManifest(loadManifest(join(dir, 'manifest.yaml')))[0].content).toString()).toBe('document A');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'docs', 'b.txt'));
    writeFileSync(join(dir, 'manifest2.yaml'), 'items:\n  - { item: b, stratum: s, split: eval, path: docs/b.txt }\n');
    expect(() => benchmarkItemsFromManifest(loadManifest(join(dir, 'manifest2.yaml')))).toThrow(/manifest2.yaml:2: path must be a file inside the manifest's folder \(it is a link to a file outside\) \(got "docs\/b.txt"\)/);
    writeFileSync(join(dir, 'manifest3.yaml'), 'items:\n  - { item: c, stratum: s, split: eval, path: docs/missing.txt }\n');
    expect(() => benchmarkItemsFromManifest(loadManifest(join(dir, 'manifest3.yaml')))).toThrow(/manifest3.yaml:2: path: cannot read the item's file: ENOENT/);
  });
});
