import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freezeVersion, readArchiveObject, readArchiveVersion, VERSION_RECORD_FORMAT_V1, VERSION_RECORD_FORMAT_V2, type VersionRecord } from '../../src/rotation/archive.js';
import { MAX_ITEM_BYTES } from '../../src/rotation/content.js';
import { canonicalJson } from '../../src/data/canonical-json.js';
import { versionRecordDigest } from '../../src/rotation/record-digest.js';
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
    expect(r.problems).toEqual([
      { kind: 'missing', path: 'versions/v1.json', detail: 'version v2 was rotated from it' },
      { kind: 'missing', path: 'versions/v1.json', detail: "versions/v2.json names it as the version frozen before (the archive's hash chain, sequence 1)" },
      { kind: 'missing', path: `objects/${hash}`, detail: 'item routine-e4 of v2' },
    ]);
    // The content only v1 held is intact and harmless: a leftover, not a problem (the chain names the deletion).
    expect(r.leftovers).toEqual([{ kind: 'unreferenced', path: `objects/${sha256Hex(items[0].content)}`, detail: expect.stringMatching(/^intact, but no version refers to it/) }]);
  });

  it('catches extra files: a stray file, a leftover temporary file, a foreign record name, a link', () => {
    const { dir } = twoVersions();
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    writeFileSync(join(dir, 'objects', '.abc.99999999.1.tmp'), 'partial'); // no such PID: an interrupted write
    writeFileSync(join(dir, 'versions', 'draft.txt'), '{}');
    symlinkSync('/etc/hostname', join(dir, 'versions', 'v3.json'));
    const kinds = verifyArchive(dir).problems.map((p) => `${p.kind} ${p.path}: ${p.detail}`);
    expect(kinds).toEqual([
      'extra notes.txt: not part of the archive layout (objects/, versions/, locks/, signoffs/, plans/, head.json)',
      'extra versions/draft.txt: not a version record name (<id>.json)',
      'extra versions/v3.json: a symbolic link (never followed)',
    ]);
    // A temporary file of a writer that is gone is an interrupted write, not tampering.
    expect(verifyArchive(dir).leftovers).toEqual([
      { kind: 'interrupted', path: 'objects/.abc.99999999.1.tmp', detail: 'a temporary file of a write that was interrupted (its writer, PID 99999999, is not running); the next freeze, rotate --apply or signoff on this archive removes it' },
    ]);
  });

  it('catches an edited label, an edited fingerprint, and an unreadable record', () => {
    const { dir } = twoVersions();
    const path = join(dir, 'versions', 'v2.json');
    const record = readArchiveVersion(dir, 'v2');
    const edited = { ...record, items: record.items.map((x, k) => (k === 0 ? { ...x, label: 'absent' } : x)) };
    rewrite(path, JSON.stringify(edited, null, 2));
    expect(verifyArchive(dir).problems).toEqual([
      { kind: 'changed', path: 'versions/v2.json', detail: expect.stringMatching(/^its items no longer match its fingerprint \(recorded [0-9a-f]{12}…, computed [0-9a-f]{12}…\)$/) },
      { kind: 'changed', path: 'versions/v2.json', detail: expect.stringMatching(/^the record was edited after it was frozen: its content no longer matches its record digest/) },
    ]);

    // Re-forging v1's fingerprint to match an edit is caught by v2, which recorded v1's fingerprint.
    const v1Path = join(dir, 'versions', 'v1.json');
    const v1 = readArchiveVersion(dir, 'v1');
    rewrite(path, `${JSON.stringify(record, null, 2)}\n`);
    rewrite(v1Path, JSON.stringify({ ...v1, guideline: 'g2', fingerprint: sha256Hex('forged') }, null, 2));
    const problems = verifyArchive(dir).problems;
    expect(problems.map((p) => `${p.kind} ${p.path}`)).toEqual(['changed versions/v1.json', 'changed versions/v1.json', 'changed versions/v1.json']);
    expect(problems[1].detail).toMatch(/no longer matches its record digest/);
    expect(problems[2].detail).toMatch(/not the one version v2 recorded when rotated from it/);

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
    expect(verifyArchive(dir).problems).toContainEqual({ kind: 'changed', path: 'versions/v3.json', detail: expect.stringMatching(/the record says version "v2" but its file name says "v3"/) });
    expect(verifyArchive(dir).problems).toContainEqual({ kind: 'missing', path: 'versions/v2.json', detail: 'head.json names it as the newest version (sequence 2)' });
  });
});

describe('benchplan verify', () => {
  it('exits 0 with one summary line when intact', async () => {
    const { dir } = twoVersions();
    const r = await runCli(['verify', '--archive', dir]);
    expect(r.code).toBe(0);
    const head = readArchiveVersion(dir, 'v2').recordDigest;
    expect(r.stdout).toBe(`archive ${dir} intact: 2 versions (v1, v2), 24 items, 13 content files re-hashed, fingerprints, counts, record digests and the hash chain match\nchain head: v2 (sequence 2, record digest ${head})\n`);
  });

  it('exits 1 naming each changed, missing or extra file', async () => {
    const { dir, items } = twoVersions();
    rewrite(join(dir, 'objects', sha256Hex(items[1].content)), 'tampered');
    rmSync(join(dir, 'objects', sha256Hex(items[2].content)));
    mkdirSync(join(dir, 'objects', 'sub'));
    const r = await runCli(['verify', '--archive', dir]);
    expect(r.code).toBe(1);
    // 'tampered' has another size than the recorded one: changed, and not read.
    expect(r.stdout).toContain(`changed objects/${sha256Hex(items[1].content)}: 8 bytes, but item routine-e2 of v1 records ${items[1].content.byteLength}; not read`);
    expect(r.stdout).toContain(`missing objects/${sha256Hex(items[2].content)}: item routine-e3 of v1`);
    expect(r.stdout).toContain('extra   objects/sub: not a content hash');
    expect(r.stdout).toMatch(/3 problems in 2 versions/);
    expect(r.stderr).toBe(`verify: archive ${dir} failed: 3 changed, missing, extra or unreadable files\n`);
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

/** Points head.json at the newest record as it now is (what a forger would do after re-digesting it). */
function resignHead(dir: string): void {
  const path = join(dir, 'head.json');
  const head = JSON.parse(readFileSync(path, 'utf8'));
  head.recordDigest = JSON.parse(readFileSync(join(dir, 'versions', `${head.version}.json`), 'utf8')).recordDigest;
  writeFileSync(path, JSON.stringify(head));
}

/** Rewrites the archive's records as an older benchplan froze them: the given formats, no chain fields, no head.json. */
function makeOldArchive(dir: string, formats: Record<string, string>): void {
  for (const [version, format] of Object.entries(formats)) {
    editRecord(dir, version, (r) => {
      r.format = format;
      delete r.sequence;
      delete r.previous;
      if (r.parent) delete r.parent.recordDigest;
      delete r.recordDigest;
      if (format !== VERSION_RECORD_FORMAT_V1) r.recordDigest = versionRecordDigest(r);
    });
  }
  rmSync(join(dir, 'head.json'));
}

/** Edits v1's record with `edit` (on its parsed JSON) and writes it back, indented as freeze writes it. */
function editRecord(dir: string, version: string, edit: (record: Record<string, any>) => void): void {
  const path = join(dir, 'versions', `${version}.json`);
  const record = JSON.parse(readFileSync(path, 'utf8'));
  edit(record);
  rewrite(path, `${JSON.stringify(record, null, 2)}\n`);
}

describe('verifyArchive: fields the fingerprint leaves out', () => {
  // Each of these edits went unnoticed (exit 0) before records carried a digest and verify
  // recomputed counts, strata and sizes. `added` decides which items rotate retires as oldest.
  const edits: Array<[string, (r: Record<string, any>) => void, RegExp | null]> = [
    ['date', (r) => (r.date = '2020-01-01'), null],
    ['counts.eval', (r) => (r.counts.eval -= 1), /^counts\.eval is 9, but its items give 10$/],
    ['strata[0].eval', (r) => (r.strata[0].eval += 1), /^strata: "routine" is eval 6, dev 1, but its items give eval 5, dev 1$/],
    ["items[0]'s added", (r) => (r.items[0].added = '1999Q1'), null],
    ["items[0]'s source", (r) => (r.items[0].source = 'forged'), null],
    ["items[0]'s bytes", (r) => (r.items[0].bytes += 1), /^item rare_clause-d1 records \d+ bytes, but its content \(objects\/[0-9a-f]{64}, intact\) has \d+$/],
  ];
  it.each(edits)('an edited %s is a problem, named', (_name, edit, specific) => {
    const { dir } = twoVersions();
    editRecord(dir, 'v1', edit);
    const r = verifyArchive(dir);
    expect(r.ok).toBe(false);
    const details = r.problems.map((p) => `${p.kind} ${p.path}: ${p.detail}`);
    expect(details).toContainEqual(expect.stringMatching(/^changed versions\/v1\.json: the record was edited after it was frozen: its content no longer matches its record digest \(recorded [0-9a-f]{12}…, computed [0-9a-f]{12}…\)$/));
    if (specific) expect(r.problems).toContainEqual({ kind: 'changed', path: 'versions/v1.json', detail: expect.stringMatching(specific) });
    // Only the edited record is blamed; the content files are intact.
    expect(r.problems.every((p) => p.path === 'versions/v1.json')).toBe(true);
  });

  it('the digest is over canonical JSON: re-indenting or reordering keys is not an edit', () => {
    const { dir } = twoVersions();
    const path = join(dir, 'versions', 'v1.json');
    const record = JSON.parse(readFileSync(path, 'utf8'));
    const reversed = Object.fromEntries(Object.entries(record).reverse());
    rewrite(path, JSON.stringify(reversed));
    expect(verifyArchive(dir)).toMatchObject({ ok: true, notes: [] });
  });

  it('recordDigest = sha256 of the canonical JSON without it (checked by hand)', () => {
    const { dir } = twoVersions();
    const record = readArchiveVersion(dir, 'v1');
    const { recordDigest, ...rest } = record;
    // Canonical JSON by hand: keys sorted at every depth, no white space.
    const sortKeys = (v: unknown): unknown => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])])) : v);
    expect(canonicalJson(rest)).toBe(JSON.stringify(sortKeys(rest)));
    expect(recordDigest).toBe(sha256Hex(JSON.stringify(sortKeys(rest))));
    expect(versionRecordDigest(record)).toBe(recordDigest);
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });

  it('records frozen by an older benchplan (no digest, no chain) get notes, not failures; a current one that lost a field fails', () => {
    const { dir } = twoVersions();
    makeOldArchive(dir, { v1: VERSION_RECORD_FORMAT_V1, v2: VERSION_RECORD_FORMAT_V2 });
    const r = verifyArchive(dir);
    expect(r.ok).toBe(true);
    expect(r.notes).toEqual([
      expect.stringMatching(/^versions\/v1\.json: no record digest \(frozen by an older benchplan\)/),
      "versions/v1.json: not in the archive's hash chain (frozen by an older benchplan): its deletion or replacement cannot be detected",
      "versions/v2.json: not in the archive's hash chain (frozen by an older benchplan): its deletion or replacement cannot be detected",
    ]);
    editRecord(dir, 'v2', (x) => delete x.recordDigest);
    const problems = verifyArchive(dir).problems;
    expect(problems[0]).toEqual({ kind: 'changed', path: 'versions/v2.json', detail: expect.stringMatching(/^the record no longer reads: .*recordDigest: is required in a benchplan-version\/2 record/) });
    // The object only v2 holds is now unreferenced by any record that reads.
    expect(problems.slice(1)).toEqual([{ kind: 'extra', path: expect.stringMatching(/^objects\//), detail: 'no version that still reads refers to it' }]);
  });

  it('a current record that lost its chain fields fails', () => {
    const { dir } = twoVersions();
    editRecord(dir, 'v2', (x) => delete x.previous);
    expect(verifyArchive(dir).problems[0]).toEqual({ kind: 'changed', path: 'versions/v2.json', detail: expect.stringMatching(/previous: is required in a benchplan-version\/3 record/) });
  });

  it('catches a forger who recomputes the digest of an older record (the chain), or of the newest (head.json); not one who also rewrites head.json', () => {
    const { dir } = twoVersions();
    editRecord(dir, 'v1', (r) => {
      r.items[0].added = '1999Q1';
      r.recordDigest = versionRecordDigest(r);
    });
    const problems = verifyArchive(dir).problems.map((p) => `${p.kind} ${p.path}: ${p.detail}`);
    expect(problems).toEqual([
      expect.stringMatching(/^changed versions\/v1\.json: its record digest is not the one version v2 recorded when rotated from it \([0-9a-f]{12}…\): the record was replaced$/),
      expect.stringMatching(/^changed versions\/v1\.json: recordDigest: not the record versions\/v2\.json chained to \(recorded [0-9a-f]{12}…\): it was replaced$/),
    ]);

    const fresh = twoVersions().dir;
    editRecord(fresh, 'v2', (r) => {
      r.date = '2020-01-01';
      r.recordDigest = versionRecordDigest(r);
    });
    expect(verifyArchive(fresh).problems).toEqual([{ kind: 'changed', path: 'versions/v2.json', detail: expect.stringMatching(/^recordDigest: not the record head\.json chained to/) }]);
    resignHead(fresh);
    expect(verifyArchive(fresh).ok).toBe(true); // a consistent rewrite of the newest version: keep the head digest elsewhere
  });

  it('counts and strata recomputed from the items, in any order of strata', () => {
    const { dir } = twoVersions();
    editRecord(dir, 'v2', (r) => {
      r.strata.reverse();
      r.recordDigest = versionRecordDigest(r as VersionRecord);
    });
    resignHead(dir);
    expect(verifyArchive(dir).ok).toBe(true);
    editRecord(dir, 'v2', (r) => {
      r.strata.push({ stratum: 'ghost', eval: 0, dev: 0 });
      r.recordDigest = versionRecordDigest(r as VersionRecord);
    });
    resignHead(dir);
    expect(verifyArchive(dir).problems).toEqual([{ kind: 'changed', path: 'versions/v2.json', detail: 'strata lists "ghost", which no item is in' }]);
  });
});

describe('verifyArchive: objects by size, hashed in chunks', () => {
  it('an object of 2.2 GB (sparse) is changed and not read; reading it for a rotation fails the same way', async () => {
    const { dir, items } = twoVersions();
    const hash = sha256Hex(items[0].content);
    const path = join(dir, 'objects', hash);
    chmodSync(path, 0o644);
    truncateSync(path, 2_200_000_000); // before: ERR_FS_FILE_TOO_LARGE with a stack trace
    const r = verifyArchive(dir);
    expect(r.problems).toEqual([{ kind: 'changed', path: `objects/${hash}`, detail: `2200000000 bytes, more than an item may hold (${MAX_ITEM_BYTES}); not read (item routine-e1 of v1)` }]);
    expect(r.objects).toBe(12); // 13 files, one not read
    expect(() => readArchiveObject(dir, hash)).toThrow(/objects\/[0-9a-f]{64} has 2200000000 bytes, more than an item may hold/);
    const cli = await runCli(['verify', '--archive', dir]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).not.toMatch(/internal error|at /);
  });

  it('an object whose size is not the one an intact record gives is changed without being read', () => {
    const { dir, items } = twoVersions();
    const hash = sha256Hex(items[0].content);
    rewrite(join(dir, 'objects', hash), 'short');
    expect(verifyArchive(dir).problems).toEqual([{ kind: 'changed', path: `objects/${hash}`, detail: `5 bytes, but item routine-e1 of v1 records ${items[0].content.byteLength}; not read` }]);
    expect(() => readArchiveObject(dir, hash, items[0].content.byteLength)).toThrow(`has 5 bytes, but the record says ${items[0].content.byteLength}`);
  });

  it('hashes a content larger than one chunk the same as hashing it whole', () => {
    const dir = tempDir();
    // 2.5 MiB: two full 1 MiB chunks and a partial one.
    const big = Buffer.alloc(2.5 * 1024 * 1024);
    for (let k = 0; k < big.length; k++) big[k] = (k * 2654435761) >>> 24;
    const v = freezeVersion(dir, [{ item: 'big', stratum: 's', split: 'eval', content: big }], { version: 'v1', date: DATE });
    expect(verifyArchive(dir)).toMatchObject({ ok: true, objects: 1 });
    expect(readArchiveVersion(dir, 'v1').items[0]).toMatchObject({ sha256: sha256Hex(big), bytes: big.length });
    expect(v.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });
});
