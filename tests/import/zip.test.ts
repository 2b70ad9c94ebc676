import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/data/errors.js';
import { ZipArchive, zipCrc32 } from '../../src/import/zip.js';

const F = 'tests/fixtures/import';

describe('zipCrc32', () => {
  it('gives the CRC-32 check value of "123456789"', () => {
    // The standard check value of CRC-32/ISO-HDLC (the ZIP CRC), e.g. Python: zlib.crc32(b"123456789") → 0xcbf43926
    expect(zipCrc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(zipCrc32(new Uint8Array(0))).toBe(0);
  });
});

describe('ZipArchive', () => {
  it('lists entries and reads a deflate entry as JSON', () => {
    const archive = ZipArchive.open(`${F}/inspect/run-a.eval`);
    try {
      expect(archive.entries.map((e) => e.name)).toContain('summaries.json');
      const summaries = archive.readJson(archive.entry('summaries.json')!) as unknown[];
      expect(summaries).toHaveLength(10);
      expect(archive.entry('summaries.json')!.method).toBe(8);
    } finally {
      archive.close();
    }
  });

  it('reads zstd entries (method 93)', () => {
    const archive = ZipArchive.open(`${F}/inspect/run-b.eval`);
    try {
      const entry = archive.entry('summaries.json')!;
      expect(entry.method).toBe(93);
      const summaries = archive.readJson(entry) as Array<{ id: number }>;
      expect(summaries.map((s) => s.id)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    } finally {
      archive.close();
    }
  });

  it('refuses an entry over the per-entry limit before decompressing it', () => {
    const archive = ZipArchive.open(`${F}/inspect/run-a.eval`, { maxEntryBytes: 1000 });
    try {
      expect(() => archive.read(archive.entry('summaries.json')!)).toThrow(/would decompress to \d+ bytes, over the limit of 1000/);
    } finally {
      archive.close();
    }
  });

  it('refuses entries over the total limit (the byte budget, shared by every file of an import)', () => {
    const archive = ZipArchive.open(`${F}/inspect/run-a.eval`, { maxTotalBytes: 3000 });
    try {
      archive.read(archive.entry('header.json')!);
      expect(() => archive.read(archive.entry('summaries.json')!)).toThrow(/summaries\.json: would take the bytes read in this import to \d+, over the limit of 3000 for all files together/);
    } finally {
      archive.close();
    }
  });

  const bad: Array<[string, string, RegExp]> = [
    ['not a zip', 'bad/not-a-zip.eval', /not-a-zip\.eval: is not a readable ZIP archive: no end-of-central-directory record/],
    ['CRC mismatch', 'bad/crc.eval', /crc\.eval: summaries\.json: archive is corrupt: CRC-32 mismatch/],
    ['output longer than declared (a lying size)', 'bad/lying-size.eval', /lying-size\.eval: summaries\.json: archive entry decompresses to more than its declared 100 bytes/],
    ['unsupported method', 'bad/bzip2.eval', /unsupported compression method .*\(got 12\)/],
    ['zstd frame declaring a huge window', 'bad/huge-window.eval', /declares a zstd window of 2199023255552 bytes, over the limit/],
  ];
  for (const [what, file, message] of bad) {
    it(`rejects ${what}`, () => {
      let error: unknown;
      try {
        const archive = ZipArchive.open(`${F}/${file}`);
        try {
          for (const entry of archive.entries) archive.read(entry);
        } finally {
          archive.close();
        }
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(message);
    });
  }
});
