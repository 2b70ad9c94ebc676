import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintFile, fingerprintFolder } from '../../src/report/fingerprint.js';
import { archiveSection, latestRotation, versionsInOrder } from '../../src/report/sections/archive.js';
import { freezeVersion, readArchiveVersion } from '../../src/rotation/archive.js';
import { MAX_ITEM_BYTES } from '../../src/rotation/content.js';
import { sha256Hex } from '../../src/rotation/hash.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-report-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (id: string) => ({ item: id, stratum: 's', split: 'eval' as const, content: Buffer.from(`Item ${id}: a clause of its own.`) });

describe('the archive section: the latest rotation follows the parent chain', () => {
  it('freeze v9, rotate to v10: "From v9 to v10" (sorting ids as text said "From v10 to v9")', () => {
    const archive = join(dir, 'v9-v10');
    const v9 = freezeVersion(archive, [text('a'), text('b'), text('c')], { version: 'v9', date: '2026-07-01' });
    freezeVersion(archive, [text('a'), text('b'), text('d')], { version: 'v10', date: '2026-10-01', parent: { version: 'v9', fingerprint: v9.fingerprint } });
    const { section } = archiveSection(archive);
    expect(section.paragraphs).toContainEqual(expect.stringMatching(/^From v9 to v10: 1 eval items left the split, 1 joined it/));
    expect(section.tables[0].rows.map((r) => r[0])).toEqual(['v9', 'v10']);
    expect(section.tables[1].caption).toBe('v9 → v10 by stratum (eval items)');
    expect(section.settings).toContainEqual(['versions', 'v9, v10']);
  });

  it('same day: the child comes after its parent; otherwise by date, then id; a latest version without a parent compares with the one before', () => {
    const archive = join(dir, 'same-day');
    const b = freezeVersion(archive, [text('a')], { version: 'b', date: '2026-07-01' });
    freezeVersion(archive, [text('x')], { version: 'a', date: '2026-07-01', parent: { version: 'b', fingerprint: b.fingerprint } });
    freezeVersion(archive, [text('y')], { version: 'c0', date: '2026-01-01' });
    const records = ['a', 'b', 'c0'].map((v) => readArchiveVersion(archive, v));
    expect(versionsInOrder(records).map((r) => r.version)).toEqual(['c0', 'b', 'a']);
    const latest = latestRotation(records);
    expect([latest?.previous.version, latest?.last.version]).toEqual(['b', 'a']);
    expect(latestRotation(records.slice(1, 3))?.previous.version).toBe('c0'); // b has no parent: the version before it
    expect(latestRotation(records.slice(0, 1))).toBeNull();
  });
});

describe('report fingerprints: files hashed in chunks', () => {
  // 2.5 MiB: two whole 1 MiB chunks and a part, so a chunking error would show.
  const big = Buffer.alloc(2.5 * 1024 * 1024);
  for (let k = 0; k < big.length; k++) big[k] = (k * 2654435761) >>> 24;
  const whole = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

  it('fingerprintFile is sha256sum of the bytes', () => {
    const path = join(dir, 'big.bin');
    writeFileSync(path, big);
    expect(fingerprintFile('scores', path)).toEqual({ role: 'scores', path, sha256: whole(big), bytes: big.length });
    expect(() => fingerprintFile('scores', join(dir, 'nope.csv'))).toThrow(`${join(dir, 'nope.csv')}: cannot read file: ENOENT`);
    expect(() => fingerprintFile('scores', dir)).toThrow(`${dir}: not a regular file (got directory)`);
  });

  it('fingerprintFolder hashes the sha256sum-style listing, one file at a time; links are left out', () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'sub', 'big.bin'), big);
    writeFileSync(join(folder, 'a.txt'), 'abc');
    writeFileSync(join(folder, '.x.1.tmp'), 'temporary');
    symlinkSync('/etc/hostname', join(folder, 'link'));
    // By hand: `sha256sum a.txt sub/big.bin` lines, sorted by path, hashed together.
    const listing = `${whole('abc')}  a.txt\n${whole(big)}  sub/big.bin\n`;
    expect(whole('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'); // FIPS 180-2 example
    expect(fingerprintFolder('archive', folder)).toEqual({ role: 'archive', path: folder, sha256: whole(listing), bytes: big.length + 3 });
  });

  it('an archive with an oversized object: the section says NOT intact instead of crashing', () => {
    const archive = join(dir, 'oversized');
    freezeVersion(archive, [text('a'), text('b')], { version: 'v1', date: '2026-07-01' });
    const object = join(archive, 'objects', sha256Hex(text('a').content));
    chmodSync(object, 0o644);
    truncateSync(object, 2_200_000_000); // sparse; before: ERR_FS_FILE_TOO_LARGE in verify
    const { section } = archiveSection(archive);
    expect(section.paragraphs).toContainEqual(expect.stringMatching(/^The archive is NOT intact: 1 problem/));
    expect(section.warnings).toEqual([expect.stringMatching(new RegExp(`^changed: objects/[0-9a-f]{64} \\(2200000000 bytes, more than an item may hold \\(${MAX_ITEM_BYTES}\\); not read`))]);
  });
});
