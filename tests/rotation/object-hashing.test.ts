import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/rotation/hash.js';
import { ANY_SIZE, INTACT, NO_FAST_PATH, ObjectHasher, RECHECK } from '../../src/rotation/object-hashing.js';
import { tempDir } from './helpers.js';

const MAX = 4 << 20;

/**
 * A folder of objects of every kind the hash meets, with what each must give: INTACT (with its
 * bytes) only for a regular file of the expected size whose SHA-256 is its name; RECHECK for
 * everything else, so verify's one-thread code judges it.
 */
function objects(): { dir: string; names: string[]; expected: Float64Array; want: Array<[number, number]> } {
  const dir = tempDir('benchplan-hashing-');
  const rows: Array<{ name: string; expected: number; want: [number, number]; make?: (path: string) => void; content?: Buffer }> = [];
  const intact = (content: Buffer, expected = content.length) => rows.push({ name: sha256Hex(content), expected, want: [INTACT, content.length], content });
  for (let k = 0; k < 20; k++) intact(Buffer.from(`item ${k}: payment is due within ${k + 3} days.`));
  intact(Buffer.alloc(0)); // empty
  intact(Buffer.alloc(2.5 * (1 << 20), 7)); // more than one 1 MiB read
  intact(Buffer.alloc(1 << 20, 9)); // exactly one read's worth: the loop, not the one-call path
  intact(Buffer.from('no size recorded'), ANY_SIZE);
  const odd = (name: string, expected: number, make: (path: string) => void) => rows.push({ name, expected, want: [RECHECK, 0], make });
  const text = Buffer.from('some content');
  odd(sha256Hex(Buffer.from('other content')), text.length, (p) => writeFileSync(p, text)); // another hash
  odd(sha256Hex(text), text.length + 1, (p) => writeFileSync(p, text)); // another size than recorded
  odd(sha256Hex(Buffer.from('disagree')), NO_FAST_PATH, (p) => writeFileSync(p, 'disagree')); // records disagree on its size
  odd(sha256Hex(Buffer.from('missing')), 7, () => undefined); // not there
  odd(sha256Hex(Buffer.from('link')), 4, (p) => symlinkSync(join(dir, rows[0]!.name), p)); // a link (never followed)
  odd(sha256Hex(Buffer.from('folder')), ANY_SIZE, (p) => mkdirSync(p));
  odd(sha256Hex(Buffer.from('fifo')), ANY_SIZE, (p) => execFileSync('mkfifo', [p]));
  odd(sha256Hex(Buffer.from('huge')), ANY_SIZE, (p) => {
    writeFileSync(p, '');
    truncateSync(p, MAX + 1); // sparse, over maxBytes: not read
  });
  for (const row of rows) {
    const path = join(dir, row.name);
    if (row.content) writeFileSync(path, row.content);
    else row.make?.(path);
  }
  return { dir, names: rows.map((r) => r.name), expected: Float64Array.from(rows.map((r) => r.expected)), want: rows.map((r) => r.want) };
}

function outcomes(r: { status: Uint8Array; bytes: Float64Array }): Array<[number, number]> {
  return [...r.status].map((s, i) => [s, s === INTACT ? (r.bytes[i] as number) : 0]);
}

describe('ObjectHasher (verify on two threads)', () => {
  it('gives each object its outcome on this thread alone, on the worker alone, and on both taking chunks of one', () => {
    const { dir, names, expected, want } = objects();
    const prefix = `${dir}/`;
    expect(outcomes(new ObjectHasher(false).start(prefix, names, expected, MAX).finish())).toEqual(want);
    // The worker alone runs hashChunks's source text: its outcomes are the same.
    const alone = new ObjectHasher(true).start(prefix, names, expected, MAX, 1);
    const workerOnly = alone.finish({ help: false, takeOverMs: 60_000 });
    expect(outcomes(workerOnly)).toEqual(want);
    expect([...alone.job!.done]).toEqual(names.map(() => 1)); // every chunk finished by the worker, none taken over
    for (let run = 0; run < 3; run++) expect(outcomes(new ObjectHasher(true).start(prefix, names, expected, MAX, 1).finish())).toEqual(want);
  });

  it('hashes here a chunk the worker took and never finished (a worker that died)', () => {
    const { dir, names, expected, want } = objects();
    const hasher = new ObjectHasher(false).start(`${dir}/`, names, expected, MAX, 4);
    // As if a worker had taken chunks 0 and 1 and died: this thread takes the rest, waits, then hashes them itself.
    Atomics.add(hasher.job!.control, 0, 2);
    expect(outcomes(hasher.finish({ takeOverMs: 20 }))).toEqual(want);
  });

  it('an empty batch gives empty outcomes', () => {
    const r = new ObjectHasher(true).start('/nonexistent/', [], new Float64Array(0), MAX).finish();
    expect(r.status.length).toBe(0);
    expect(r.bytes.length).toBe(0);
  });
});
