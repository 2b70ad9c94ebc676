import { closeSync, readSync } from 'node:fs';
import { Inflate } from 'fflate';
import { Decompress as ZstdDecompress } from 'fzstd';
import { InputError } from '../data/errors.js';
import { parseJsonText } from '../data/json-text.js';
import { openInputFile } from '../data/read.js';
import { DEFAULT_IMPORT_MAX_TOTAL_BYTES, ImportByteBudget } from './budget.js';
import { forEachJsonArrayElement, type JsonArrayRead } from './json-array.js';

/** One entry of a ZIP archive's central directory. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate, 93 zstd (the methods this reader can expand). */
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header in the file. */
  localOffset: number;
  encrypted: boolean;
}

/**
 * Limits that keep a hostile archive (a zip bomb) from exhausting memory or time. A 255 KB
 * `.eval` can hold 250 MiB of `[{},{},…]`; parsed whole that is 87 million objects (gigabytes,
 * minutes). So an entry is refused, before anything is decompressed, when it expands far more
 * than real logs do, when a JSON entry is larger than a real log's, or when it would pass the
 * byte budget of the whole import; and the decoders stop at the declared size.
 */
export interface ZipLimits {
  /** Largest decompressed size of one entry, in bytes (default 256 MiB). */
  maxEntryBytes?: number;
  /**
   * Largest decompressed size of one JSON entry, in bytes (default 64 MiB). Inspect's entries
   * read here hold the log header and per-sample summaries, not transcripts; raise it for a
   * log whose summaries really are larger.
   */
  maxJsonBytes?: number;
  /**
   * Largest ratio of decompressed to compressed size of an entry over 1 MiB (default 100).
   * Logs of varied text compress by far less; a bomb by about 1000× (deflate's maximum is
   * 1032:1) or more (zstd).
   */
  maxExpansionRatio?: number;
  /**
   * Largest decompressed size of everything read, in bytes (default 512 MiB), when no `budget`
   * is given. importResults applies it to all files of one import together.
   */
  maxTotalBytes?: number;
  /** A byte budget shared with the other files of an import (importResults makes one). */
  budget?: ImportByteBudget;
}

export const DEFAULT_ZIP_MAX_ENTRY_BYTES = 256 * 1024 * 1024;
export const DEFAULT_ZIP_MAX_TOTAL_BYTES = DEFAULT_IMPORT_MAX_TOTAL_BYTES;
export const DEFAULT_ZIP_MAX_JSON_BYTES = 64 * 1024 * 1024;
export const DEFAULT_ZIP_MAX_EXPANSION_RATIO = 100;
/** Entries up to this size are not held to maxExpansionRatio (a small file of repeats is harmless). */
export const ZIP_EXPANSION_RATIO_FLOOR = 1024 * 1024;
const MAX_ENTRIES = 1_000_000;
const MAX_CENTRAL_DIRECTORY_BYTES = 256 * 1024 * 1024;
// Compressed input is fed to the decoders in small pieces so one push can expand to at most
// piece × maximum ratio (deflate ≈ 1032:1, zstd RLE blocks ≈ 32768:1) before the count is checked.
const DEFLATE_PIECE = 16 * 1024;
const ZSTD_PIECE = 1024;
/**
 * A ZIP archive opened for reading entries by name. Only the end-of-central-directory record,
 * the central directory and the entries asked for are read from disk, so a large log costs
 * little to open. Entry names are data only: nothing is ever written to a path taken from one.
 * Reference: PKWARE APPNOTE.TXT 6.3.10 (records, ZIP64 extensions); zstd is method 93.
 */
export class ZipArchive {
  readonly file: string;
  readonly entries: ZipEntry[];
  private readonly fd: number;
  private readonly fileSize: number;
  private readonly limits: Required<Omit<ZipLimits, 'budget' | 'maxTotalBytes'>>;
  /** The budget every decompressed byte is charged to, as it is produced. */
  readonly budget: ImportByteBudget;

  private constructor(file: string, fd: number, fileSize: number, entries: ZipEntry[], limits: ZipLimits) {
    this.file = file;
    this.fd = fd;
    this.fileSize = fileSize;
    this.entries = entries;
    this.limits = {
      maxEntryBytes: limits.maxEntryBytes ?? DEFAULT_ZIP_MAX_ENTRY_BYTES,
      maxJsonBytes: limits.maxJsonBytes ?? DEFAULT_ZIP_MAX_JSON_BYTES,
      maxExpansionRatio: limits.maxExpansionRatio ?? DEFAULT_ZIP_MAX_EXPANSION_RATIO,
    };
    this.budget = limits.budget ?? new ImportByteBudget(limits.maxTotalBytes ?? DEFAULT_ZIP_MAX_TOTAL_BYTES);
  }

  /**
   * Opens an archive and reads its central directory.
   * @throws {InputError} when the file cannot be read or is not a well-formed ZIP.
   */
  static open(file: string, limits: ZipLimits = {}): ZipArchive {
    // A regular file only: a folder, FIFO or device is refused on the open descriptor, without blocking.
    const { fd, size } = openInputFile(file);
    try {
      const entries = readCentralDirectory(file, fd, size);
      checkLimits(limits);
      return new ZipArchive(file, fd, size, entries, limits);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * The entry with this name. A name that repeats is refused: which copy a reader takes differs
   * (Python's zipfile the last, others the first), so a log with two `summaries.json` would be
   * read as one of two different results without a word.
   * @throws {InputError} naming the archive, the entry and how many times it appears.
   */
  entry(name: string): ZipEntry | undefined {
    let found: ZipEntry | undefined;
    let count = 0;
    for (const e of this.entries) {
      if (e.name !== name) continue;
      count += 1;
      found = e;
    }
    if (count > 1) throw new InputError(`has ${count} entries named ${name}: a log written once has one; which to read is ambiguous (the file was appended to or altered)`, { file: this.file, field: name, value: name });
    return found;
  }

  /**
   * The decompressed bytes of an entry, checked against its declared size and CRC-32. The
   * limits are checked on the declared sizes before anything is decompressed, and the decoders
   * stop at the declared size, so no entry ever expands past them.
   * @throws {InputError} naming the file and the entry: for an encrypted entry, an unsupported
   *   method, a size over maxEntryBytes, an expansion over maxExpansionRatio, a size that would
   *   pass the budget, output longer than declared, or a CRC mismatch (a corrupt archive).
   */
  read(entry: ZipEntry): Uint8Array {
    return this.readChecked(entry, this.limits.maxEntryBytes, '');
  }

  private readChecked(entry: ZipEntry, maxBytes: number, what: string): Uint8Array {
    const where = { file: `${this.file}: ${entry.name}` };
    if (entry.encrypted) throw new InputError('archive entry is encrypted', where);
    const ratio = this.limits.maxExpansionRatio;
    if (entry.size > ZIP_EXPANSION_RATIO_FLOOR && entry.size > ratio * entry.compressedSize) {
      throw new InputError(
        `archive entry would expand from ${entry.compressedSize} to ${entry.size} bytes (${Math.floor(entry.size / Math.max(1, entry.compressedSize))}×), more than the ${ratio}× a real log compresses by (maxExpansionRatio): a zip bomb?`,
        where,
      );
    }
    if (entry.size > maxBytes) {
      throw new InputError(`archive entry would decompress to ${entry.size} bytes, over the limit of ${maxBytes}${what}`, where);
    }
    this.budget.check(entry.size, where.file);
    const header = this.bytes(entry.localOffset, 30, entry.name);
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    if (view.getUint32(0, true) !== 0x04034b50) throw new InputError('archive is corrupt: bad local header signature', where);
    const dataStart = entry.localOffset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
    const compressed = this.bytes(dataStart, entry.compressedSize, entry.name);
    const charge = (bytes: number) => this.budget.charge(bytes, where.file);
    let out: Uint8Array;
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw new InputError('archive is corrupt: stored entry sizes differ', where);
      charge(compressed.length);
      out = compressed;
    } else if (entry.method === 8) {
      out = inflateBounded(compressed, entry.size, where.file, charge);
    } else if (entry.method === 93) {
      out = zstdBounded(compressed, entry.size, this.limits.maxEntryBytes, where.file, charge);
    } else {
      throw new InputError('archive entry uses an unsupported compression method (supported: 0 stored, 8 deflate, 93 zstd)', { ...where, value: entry.method });
    }
    if (zipCrc32(out) !== entry.crc32) throw new InputError('archive is corrupt: CRC-32 mismatch', where);
    return out;
  }

  /**
   * Reads an entry as UTF-8 text and parses it as JSON.
   * @throws {InputError} as read does, for an entry over maxJsonBytes, or for text that is not UTF-8 JSON.
   */
  readJson(entry: ZipEntry): unknown {
    return parseJsonText(this.readText(entry), { file: `${this.file}: ${entry.name}` });
  }

  /**
   * Reads an entry that should hold a JSON array, handing each element to `visit` as soon as it
   * is parsed, so a check in `visit` that throws on the first bad element stops the read before
   * the rest is parsed (and no parsed element need be kept).
   * @returns `{ isArray: true }`, or the parsed value when the entry is not an array.
   * @throws {InputError} as readJson does; and whatever `visit` throws.
   */
  readJsonArray(entry: ZipEntry, visit: (value: unknown, index: number) => void): JsonArrayRead {
    const text = this.readText(entry);
    try {
      return forEachJsonArrayElement(text, visit);
    } catch (error) {
      if (error instanceof SyntaxError) throw new InputError(`not valid JSON: ${error.message}`, { file: `${this.file}: ${entry.name}` });
      throw error;
    }
  }

  private readText(entry: ZipEntry): string {
    const where = { file: `${this.file}: ${entry.name}` };
    const json = this.limits.maxJsonBytes < this.limits.maxEntryBytes;
    const bytes = this.readChecked(entry, json ? this.limits.maxJsonBytes : this.limits.maxEntryBytes, json ? ' for one JSON entry (maxJsonBytes)' : '');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new InputError('is not valid UTF-8 text', where);
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  private bytes(offset: number, length: number, name: string): Uint8Array {
    if (offset < 0 || length < 0 || offset + length > this.fileSize) {
      throw new InputError('archive is corrupt: entry data lies outside the file', { file: `${this.file}: ${name}` });
    }
    return readAt(this.fd, offset, length);
  }
}

function readAt(fd: number, offset: number, length: number): Uint8Array {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, offset + done);
    if (n === 0) break;
    done += n;
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, done);
}

function readCentralDirectory(file: string, fd: number, size: number): ZipEntry[] {
  const corrupt = (what: string): never => {
    throw new InputError(`is not a readable ZIP archive: ${what}`, { file });
  };
  if (size < 22) corrupt('too short');
  // The end-of-central-directory record is in the last 22 + 65535 (comment) bytes.
  const tailLength = Math.min(size, 22 + 65535 + 20);
  const tailStart = size - tailLength;
  const tail = readAt(fd, tailStart, tailLength);
  const tv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let k = tail.length - 22; k >= 0; k--) {
    if (tv.getUint32(k, true) === 0x06054b50) {
      eocd = k;
      break;
    }
  }
  if (eocd < 0) corrupt('no end-of-central-directory record');
  let count = tv.getUint16(eocd + 10, true);
  let cdSize = tv.getUint32(eocd + 12, true);
  let cdOffset = tv.getUint32(eocd + 16, true);
  if (eocd >= 20 && tv.getUint32(eocd - 20, true) === 0x07064b50) {
    // ZIP64: the locator points at the ZIP64 end-of-central-directory record.
    const z64 = Number(tv.getBigUint64(eocd - 20 + 8, true));
    if (z64 < 0 || z64 + 56 > size) corrupt('bad ZIP64 locator');
    const rec = readAt(fd, z64, 56);
    const rv = new DataView(rec.buffer, rec.byteOffset, rec.byteLength);
    if (rv.getUint32(0, true) !== 0x06064b50) corrupt('bad ZIP64 end record');
    count = Number(rv.getBigUint64(32, true));
    cdSize = Number(rv.getBigUint64(40, true));
    cdOffset = Number(rv.getBigUint64(48, true));
  }
  if (count > MAX_ENTRIES) corrupt(`too many entries (${count})`);
  if (cdSize > MAX_CENTRAL_DIRECTORY_BYTES || cdOffset + cdSize > size) corrupt('central directory lies outside the file');
  const cd = readAt(fd, cdOffset, cdSize);
  const v = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let k = 0; k < count; k++) {
    if (p + 46 > cd.length || v.getUint32(p, true) !== 0x02014b50) corrupt(`bad central directory entry ${k}`);
    const flags = v.getUint16(p + 8, true);
    const method = v.getUint16(p + 10, true);
    const crc = v.getUint32(p + 16, true);
    let compressedSize = v.getUint32(p + 20, true);
    let entrySize = v.getUint32(p + 24, true);
    const nameLength = v.getUint16(p + 28, true);
    const extraLength = v.getUint16(p + 30, true);
    const commentLength = v.getUint16(p + 32, true);
    let localOffset = v.getUint32(p + 42, true);
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > cd.length) corrupt(`central directory entry ${k} runs past its end`);
    const name = new TextDecoder('utf-8').decode(cd.subarray(p + 46, p + 46 + nameLength));
    // ZIP64 extra field: 64-bit values for whichever 32-bit fields are saturated, in this order.
    let x = p + 46 + nameLength;
    const extraEnd = x + extraLength;
    while (x + 4 <= extraEnd) {
      const id = v.getUint16(x, true);
      const length = v.getUint16(x + 2, true);
      if (id === 0x0001) {
        let q = x + 4;
        const take = (): number => {
          if (q + 8 > x + 4 + length) corrupt(`short ZIP64 field in entry ${k}`);
          const value = Number(v.getBigUint64(q, true));
          q += 8;
          return value;
        };
        if (entrySize === 0xffffffff) entrySize = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localOffset === 0xffffffff) localOffset = take();
      }
      x += 4 + length;
    }
    entries.push({ name, method, crc32: crc, compressedSize, size: entrySize, localOffset, encrypted: (flags & 1) !== 0 });
    p = end;
  }
  return entries;
}

function checkLimits(limits: ZipLimits): void {
  const whole = (name: keyof ZipLimits, min: number) => {
    const value = limits[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= min)) {
      throw new RangeError(`ZipArchive: ${name} must be a whole number ≥ ${min} (got ${String(value)})`);
    }
  };
  whole('maxEntryBytes', 0);
  whole('maxJsonBytes', 0);
  whole('maxTotalBytes', 0);
  whole('maxExpansionRatio', 1);
}

function inflateBounded(compressed: Uint8Array, declared: number, where: string, charge: (bytes: number) => void): Uint8Array {
  const out = new Uint8Array(declared);
  let length = 0;
  let finished = false;
  const inflater = new Inflate((chunk, final) => {
    if (length + chunk.length > declared) {
      throw new InputError(`archive entry decompresses to more than its declared ${declared} bytes`, { file: where });
    }
    charge(chunk.length);
    out.set(chunk, length);
    length += chunk.length;
    if (final) finished = true;
  });
  try {
    for (let at = 0; at < compressed.length; at += DEFLATE_PIECE) {
      const end = Math.min(compressed.length, at + DEFLATE_PIECE);
      inflater.push(compressed.subarray(at, end), end === compressed.length);
    }
    if (compressed.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`archive entry is not valid deflate data: ${(error as Error).message}`, { file: where });
  }
  if (!finished || length !== declared) throw new InputError(`archive is corrupt: entry decompresses to ${length} bytes, not the declared ${declared}`, { file: where });
  return out;
}

/**
 * Walks the frames of a zstd stream (RFC 8878 §3.1) without decoding them, returning the
 * largest window a decoder would allocate. fzstd allocates the window a frame header declares,
 * so a header declaring gigabytes is refused here before any allocation.
 */
function zstdLargestWindow(data: Uint8Array, where: string): number {
  const bad = (what: string): never => {
    throw new InputError(`archive entry is not valid zstd data: ${what}`, { file: where });
  };
  let p = 0;
  let largest = 0;
  while (p < data.length) {
    if (p + 4 > data.length) bad('truncated frame');
    const magic = (data[p] | (data[p + 1] << 8) | (data[p + 2] << 16) | (data[p + 3] << 24)) >>> 0;
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      if (p + 8 > data.length) bad('truncated skippable frame');
      const length = (data[p + 4] | (data[p + 5] << 8) | (data[p + 6] << 16) | (data[p + 7] << 24)) >>> 0;
      p += 8 + length;
      continue;
    }
    if (magic !== 0xfd2fb528) bad('bad frame magic');
    const descriptor = data[p + 4];
    const singleSegment = (descriptor >> 5) & 1;
    const checksum = (descriptor >> 2) & 1;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3];
    const sizeFlag = descriptor >> 6;
    let q = p + 5;
    let window = 0;
    if (!singleSegment) {
      const wd = data[q++];
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    q += dictionaryBytes;
    const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag;
    let contentSize = 0;
    for (let k = 0; k < sizeBytes; k++) contentSize += data[q + k] * 2 ** (8 * k);
    if (sizeFlag === 1) contentSize += 256;
    q += sizeBytes;
    if (singleSegment) window = contentSize;
    largest = Math.max(largest, window, contentSize);
    for (;;) {
      if (q + 3 > data.length) bad('truncated block');
      const header = data[q] | (data[q + 1] << 8) | (data[q + 2] << 16);
      const last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >> 3;
      if (type === 3) bad('reserved block type');
      q += 3 + (type === 1 ? 1 : size);
      if (last) break;
    }
    p = q + (checksum ? 4 : 0);
  }
  return largest;
}

function zstdBounded(compressed: Uint8Array, declared: number, maxEntryBytes: number, where: string, charge: (bytes: number) => void): Uint8Array {
  const window = zstdLargestWindow(compressed, where);
  if (window > maxEntryBytes) {
    throw new InputError(`archive entry declares a zstd window of ${window} bytes, over the limit of ${maxEntryBytes}`, { file: where });
  }
  const out = new Uint8Array(declared);
  let length = 0;
  const decoder = new ZstdDecompress((chunk) => {
    if (length + chunk.length > declared) {
      throw new InputError(`archive entry decompresses to more than its declared ${declared} bytes`, { file: where });
    }
    charge(chunk.length);
    out.set(chunk, length);
    length += chunk.length;
  });
  try {
    for (let at = 0; at < compressed.length; at += ZSTD_PIECE) {
      const end = Math.min(compressed.length, at + ZSTD_PIECE);
      decoder.push(compressed.subarray(at, end), end === compressed.length);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`archive entry is not valid zstd data: ${(error as Error).message}`, { file: where });
  }
  if (length !== declared) throw new InputError(`archive is corrupt: entry decompresses to ${length} bytes, not the declared ${declared}`, { file: where });
  return out;
}

let crcTable: Uint32Array | null = null;

/**
 * CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum ZIP stores per entry.
 * @example zipCrc32(new TextEncoder().encode('123456789')) // => 0xcbf43926
 */
export function zipCrc32(data: Uint8Array): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let k = 0; k < data.length; k++) c = crcTable[(c ^ data[k]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
