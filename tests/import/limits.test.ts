import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'fflate';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { InputError } from '../../src/data/errors.js';
import { ImportByteBudget } from '../../src/import/budget.js';
import { importResults } from '../../src/import/import-results.js';
import { forEachJsonArrayElement } from '../../src/import/json-array.js';
import { ZipArchive } from '../../src/import/zip.js';
import { runCli } from '../helpers/cli.js';
import { deflateRepeating, emptyObjectsEntry, inspectHeaderEntry, textEntry, zipArchive } from './bomb.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-bomb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const MiB = 1024 * 1024;
const header = inspectHeaderEntry();

/** Writes an archive into the temporary folder and returns its path. */
function write(name: string, data: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
}

/** The error a call throws (or fails the test). */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

// The finding: a 255 KB .eval whose summaries.json is 250 MiB of [{},{},…] ran 814 s, grew to
// 6.86 GB and aborted in JSON.parse. This one is made the same way (1 016 063 matches of 258
// bytes: 262 144 261 bytes, 87 million objects), from a 1.6 MB fixed-Huffman deflate stream.
const big = emptyObjectsEntry(1_016_063);
const bigBomb = write('bomb.eval', zipArchive([header, big]));

describe('the generated bomb', () => {
  it('is a valid archive holding what it says (checked on a small one: same code, 100 matches)', () => {
    const small = emptyObjectsEntry(100);
    const text = new TextDecoder().decode(inflateSync(small.compressed));
    expect(text).toBe(`[${Array.from({ length: small.objects }, () => '{}').join(',')}]`);
    expect(text.length).toBe(small.size);
    const archive = ZipArchive.open(write('small-bomb.eval', zipArchive([header, small])));
    try {
      expect(archive.readJson(archive.entry('summaries.json')!)).toHaveLength(small.objects);
    } finally {
      archive.close();
    }
  });

  it('is 250 MiB behind a file of under 2 MB', () => {
    expect(big.size).toBe(262_144_261);
    expect(big.objects).toBe(87_381_420);
    expect(statSync(bigBomb).size).toBeLessThan(2 * MiB);
  });

  it('decodes as deflate: the hand-written encoder agrees with fflate on a pattern with period 1', () => {
    const out = inflateSync(deflateRepeating(new TextEncoder().encode('ab'), 1, 3, new TextEncoder().encode('c')));
    expect(new TextDecoder().decode(out)).toBe(`ab${'b'.repeat(3 * 258)}c`);
  });
});

describe('importing a zip bomb', () => {
  it('is refused as an InputError naming the file and the entry, before the entry is decompressed', () => {
    const budget = new ImportByteBudget();
    const error = thrown(() => importResults('inspect', [bigBomb], { budget }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/bomb\.eval: summaries\.json: archive entry would expand from \d+ to 262144261 bytes \(\d+×\), more than the 100× a real log compresses by \(maxExpansionRatio\)/);
    // Only header.json was decompressed.
    expect(budget.used).toBe(header.size);
  });

  it('exits 2 from the CLI with that message', async () => {
    const run = await runCli(['import', 'inspect', bigBomb, '-o', join(dir, 'out', 'scores.csv')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: .*bomb\.eval: summaries\.json: archive entry would expand from \d+ to 262144261 bytes/);
    expect(run.stdout).toBe('');
  });

  it('with the ratio allowed, the 64 MiB cap on a JSON entry still refuses it undecompressed', () => {
    const budget = new ImportByteBudget();
    const error = thrown(() => importResults('inspect', [bigBomb], { budget, maxExpansionRatio: 10_000 }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/bomb\.eval: summaries\.json: archive entry would decompress to 262144261 bytes, over the limit of 67108864 for one JSON entry \(maxJsonBytes\)/);
    expect(budget.used).toBe(header.size);
  });

  it('with every per-entry limit lifted, the budget of the import refuses it undecompressed', () => {
    const budget = new ImportByteBudget(64 * MiB);
    const error = thrown(() => importResults('inspect', [bigBomb], { budget, maxExpansionRatio: 10_000, maxJsonBytes: 512 * MiB, maxEntryBytes: 512 * MiB }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/bomb\.eval: summaries\.json: would take the bytes read in this import to \d+, over the limit of 67108864 for all files together \(maxTotalBytes\)/);
    expect(budget.used).toBe(header.size);
  });

  it('within every limit, the first sample is checked before the rest is parsed', () => {
    // 10 MiB of [{},{},…] (3.5 million objects), all limits lifted: read, then refused at [0].
    const mid = emptyObjectsEntry(40_000);
    const file = write('mid-bomb.eval', zipArchive([header, mid]));
    const parse = vi.spyOn(JSON, 'parse');
    const error = thrown(() => importResults('inspect', [file], { maxExpansionRatio: 10_000 }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`${file}: summaries.json[0].id: is missing: expected a sample id (a string or number)`);
    // JSON.parse saw the header and the first element only, never the 10 MiB array.
    const parsed = parse.mock.calls.map(([text]) => String(text).length);
    expect(Math.max(...parsed)).toBeLessThan(200);
  });

  it('never decompresses past the declared size of an entry that lies about it', () => {
    // Declares 1000 bytes; the stream would inflate to 25 MiB (ratio check passes on the declared size).
    const liar = { ...emptyObjectsEntry(100_000), size: 1000 };
    const file = write('liar.eval', zipArchive([header, liar]));
    const budget = new ImportByteBudget();
    const error = thrown(() => importResults('inspect', [file], { budget }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/liar\.eval: summaries\.json: archive entry decompresses to more than its declared 1000 bytes/);
    expect(budget.used).toBeLessThanOrEqual(header.size + 1000);
  });
});

describe('one byte budget over all files of an import', () => {
  // Two logs whose entries fit the budget one at a time but not together.
  const summaries = (model: string) => textEntry('summaries.json', JSON.stringify(Array.from({ length: 50 }, (_, k) => ({ id: k, epoch: 1, scores: { match: { value: k % 2 ? 'C' : 'I' } }, metadata: { model } }))));
  const a = write('budget-a.eval', zipArchive([header, summaries('a')]));
  const b = write('budget-b.eval', zipArchive([header, summaries('b')]));
  const one = header.size + summaries('a').size;

  it('passes each file alone and refuses the second file of the pair, naming it', () => {
    expect(importResults('inspect', [a], { maxTotalBytes: one }).rowCount).toBe(50);
    expect(importResults('inspect', [b], { maxTotalBytes: one }).rowCount).toBe(50);
    const error = thrown(() => importResults('inspect', [a, b], { maxTotalBytes: one + 100, model: ['a', 'b'] }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/budget-b\.eval: (header|summaries)\.json: would take the bytes read in this import to \d+, over the limit of \d+ for all files together \(maxTotalBytes\)/);
  });

  it('counts plain JSON files too', () => {
    const budget = new ImportByteBudget(100);
    const error = thrown(() => importResults('promptfoo', ['tests/fixtures/import/promptfoo/results.json'], { budget }));
    expect(error.message).toMatch(/results\.json: would take the bytes read in this import to \d+, over the limit of 100/);
  });
});

describe('forEachJsonArrayElement', () => {
  const elements = (text: string) => {
    const seen: unknown[] = [];
    const read = forEachJsonArrayElement(text, (value, k) => {
      expect(k).toBe(seen.length);
      seen.push(value);
    });
    return { read, seen };
  };

  it('gives the same values as JSON.parse, one element at a time', () => {
    const docs = ['[]', ' [ ] ', '[1]', '[1, "a,]}", {"b": [2, {"c": "\\"]"}]}, null, [[]], true]', '\n[{"x": "\\\\"}, -1.5e3]\n'];
    for (const text of docs) {
      const { read, seen } = elements(text);
      expect(read).toEqual({ isArray: true, length: (JSON.parse(text) as unknown[]).length });
      expect(seen).toEqual(JSON.parse(text));
    }
  });

  it('returns a value that is not an array, parsed whole', () => {
    expect(forEachJsonArrayElement('{"a": 1}', () => {})).toEqual({ isArray: false, value: { a: 1 } });
  });

  const bad = ['', '[', '[1', '[1,', '[1,]', '[,1]', '[1 2]', '[1]x', '[1}', '["a]', '[{]', '[1,,2]', '{"a": 1'];
  for (const text of bad) {
    it(`throws a SyntaxError for ${JSON.stringify(text)}, as JSON.parse does`, () => {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => forEachJsonArrayElement(text, () => {})).toThrow(SyntaxError);
    });
  }
});
