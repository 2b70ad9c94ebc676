import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freezeVersion } from '../../src/rotation/archive.js';
import { MAX_ITEM_BYTES } from '../../src/rotation/content.js';
import { sha256Hex } from '../../src/rotation/hash.js';
import { verifyArchive, type VerifyResult } from '../../src/rotation/verify.js';
import { item, smallBenchmark, tempDir } from './helpers.js';

/**
 * verify hashes objects on this thread and, for large archives, one worker thread (issue 33).
 * Whatever the threads, the result must be the same, problem for problem and byte for byte: here
 * an archive of 600+ objects (three chunks of 256) with every kind of damage verify reports about
 * an object, checked with threads 1 and 2, whole and with --version.
 */
function damaged(): string {
  const dir = tempDir('benchplan-verify-threads-');
  const items = smallBenchmark(['routine', 'rare_clause', 'past_failure'], 172);
  const v1 = freezeVersion(dir, items, { version: 'v1', date: '2026-07-01', guideline: 'g1' });
  // v2 shares all but one content with v1.
  freezeVersion(dir, [...items.slice(1), item('new', 'routine', 'A new incident.')], { version: 'v2', date: '2026-10-01', guideline: 'g1', parent: { version: 'v1', fingerprint: v1.fingerprint } });
  const object = (k: number) => join(dir, 'objects', sha256Hex(items[k]!.content));
  const edit = (path: string, change: (p: string) => void) => {
    chmodSync(path, 0o644);
    change(path);
  };
  edit(object(3), (p) => writeFileSync(p, readFileSync(p, 'utf8').replace('clause', 'Clause'))); // same size, another hash
  edit(object(10), (p) => writeFileSync(p, 'short')); // another size than the intact records give: not read
  edit(object(20), (p) => truncateSync(p, MAX_ITEM_BYTES + 1)); // too large: not read
  rmSync(object(30)); // missing
  rmSync(object(40));
  symlinkSync(object(41), object(40)); // a link: never followed
  rmSync(object(50));
  execFileSync('mkfifo', [object(50)]); // a FIFO: never opened
  rmSync(object(60));
  mkdirSync(object(60)); // a folder
  writeFileSync(join(dir, 'objects', 'notes.txt'), 'stray'); // not a content hash
  writeFileSync(join(dir, 'objects', '.x.999999.1.tmp'), 'tmp'); // a dead writer's temporary file
  writeFileSync(join(dir, 'objects', sha256Hex('unreferenced')), 'unreferenced'); // intact, no user
  writeFileSync(join(dir, 'objects', sha256Hex('garbage')), 'not garbage'); // hash-named, wrong content, no user
  // v1's record edited: item 70's bytes (so v1 is not intact: its sizes are not trusted).
  const v1Path = join(dir, 'versions', 'v1.json');
  const data = JSON.parse(readFileSync(v1Path, 'utf8')) as { items: Array<{ sha256: string; bytes: number }> };
  const edited = data.items.find((x) => x.sha256 === sha256Hex(items[70]!.content))!;
  edited.bytes += 1;
  edit(v1Path, (p) => writeFileSync(p, JSON.stringify(data, null, 2)));
  return dir;
}

const strip = (r: VerifyResult) => JSON.stringify(r);

describe('verifyArchive on one thread and two', () => {
  it('gives the same result, problem for problem, for every kind of damaged object', () => {
    const dir = damaged();
    const one = verifyArchive(dir, { threads: 1 });
    // Every kind is there (so each is compared), in the one-thread wording.
    const details = one.problems.map((p) => `${p.kind} ${p.detail}`).join('\n');
    for (const want of [/changed its content hash is now/, /changed 5 bytes, but item .* records \d+; not read/, /more than an item may hold/, /missing item /, /symbolic link/, /a FIFO; never opened/, /a folder; never opened/, /extra not a content hash/, /records \d+ bytes, but its content/]) expect(details).toMatch(want);
    expect(one.leftovers.map((l) => l.kind).sort()).toEqual(['interrupted', 'unreferenced']);
    expect(one.objects).toBeGreaterThan(512); // three chunks of 256
    for (let run = 0; run < 3; run++) expect(strip(verifyArchive(dir, { threads: 2 }))).toBe(strip(one));
    expect(strip(verifyArchive(dir))).toBe(strip(one)); // the default (below PARALLEL_MIN_OBJECTS: one thread)
    const v2 = verifyArchive(dir, { version: 'v2', threads: 1 });
    expect(v2.ok).toBe(false);
    expect(strip(verifyArchive(dir, { version: 'v2', threads: 2 }))).toBe(strip(v2));
  });

  it('an intact archive: the same result on either, every object hashed', () => {
    const dir = tempDir('benchplan-verify-threads-');
    freezeVersion(dir, smallBenchmark(['a', 'b'], 60), { version: 'v1', date: '2026-07-01' });
    const one = verifyArchive(dir, { threads: 1 });
    expect(one).toMatchObject({ ok: true, objects: 122, items: 122 });
    expect(strip(verifyArchive(dir, { threads: 2 }))).toBe(strip(one));
  });
});
