import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { createHash, hash as oneShotHash } from 'node:crypto';

/**
 * True when node:crypto has the one-shot `hash(algorithm, data)` (Node 20.12, 21.7 and later): no
 * Hash object per call, which at 10⁵ small files is a measurable share of verify (issue 33).
 */
const HAS_ONE_SHOT_HASH = ((): boolean => {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 21 || (major === 21 && minor >= 7) || (major === 20 && minor >= 12);
})();

/**
 * The SHA-256 of some bytes (or of a string's UTF-8 bytes), as 64 lowercase hex digits: the
 * name an item's content is stored under in the archive.
 * Reference: FIPS 180-4; the same digest as `sha256sum FILE`.
 * @example sha256Hex('abc') // => "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(content: string | Uint8Array): string {
  return HAS_ONE_SHOT_HASH ? oneShotHash('sha256', content, 'hex') : createHash('sha256').update(content).digest('hex');
}

/** Bytes read at a time by `sha256File`. */
export const HASH_CHUNK_BYTES = 1 << 20;

/**
 * The one read buffer every `sha256File` call reuses (allocated on first use). Reads are
 * synchronous, so no two calls share it at once; a fresh 1 MiB buffer per file made verify spend
 * most of its time collecting garbage at 10⁵ item files (issue 33).
 */
let sharedChunk: Buffer | null = null;

/** A file's SHA-256 and the number of bytes hashed. */
export interface FileDigest {
  sha256: string;
  bytes: number;
}

export interface Sha256FileOptions {
  /** Refuse a file larger than this many bytes (checked before reading and while reading). Default: no limit. */
  maxBytes?: number;
  /** Follow a symbolic link at `path` (default true); false opens with O_NOFOLLOW, so a link fails with ELOOP. */
  followLinks?: boolean;
  /**
   * Open without blocking (O_NONBLOCK) and refuse anything but a regular file after fstat, with
   * `code` 'ENOTREG': a FIFO or device is never read (default false).
   */
  regularOnly?: boolean;
  /**
   * The size the file must have: checked after fstat (and after `maxBytes`), before reading; a
   * file of another size is not read and throws a RangeError with `code` 'ESIZE' and `size`.
   */
  expectBytes?: number;
}

/**
 * The SHA-256 of a file, read in chunks of HASH_CHUNK_BYTES from one file descriptor into one
 * buffer shared by all calls, so memory stays at one chunk whatever the file's size or the number
 * of files (a whole-file read fails past 2 GiB and holds it all). The digest is the one
 * `sha256sum FILE` prints.
 * Cost: O(file bytes) time, O(1 MiB) memory.
 * @returns the digest and the number of bytes hashed (the bytes read, not the size a stat gave).
 * @throws the file system's error (ENOENT, EACCES, EISDIR, ELOOP for a link when
 *   `followLinks` is false, …) with its `code`; a RangeError with `code` 'ETOOBIG' (and `size`,
 *   `whileReading`) when the file is larger than `maxBytes`, 'ESIZE' when it is not `expectBytes`.
 * @example sha256File('examples/strata.yaml').sha256 // => the same as `sha256sum examples/strata.yaml`
 */
export function sha256File(path: string, options: Sha256FileOptions = {}): FileDigest {
  const maxBytes = options.maxBytes ?? Infinity;
  const flags = constants.O_RDONLY | (options.followLinks === false ? constants.O_NOFOLLOW : 0) | (options.regularOnly ? constants.O_NONBLOCK : 0);
  const fd = openSync(path, flags);
  try {
    const stat = fstatSync(fd);
    if (options.regularOnly && !stat.isFile()) throw Object.assign(new Error(`ENOTREG: not a regular file, read '${path}'`), { code: 'ENOTREG' });
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR' });
    if (stat.size > maxBytes) throw tooBig(path, stat.size, maxBytes);
    if (options.expectBytes !== undefined && stat.size !== options.expectBytes) throw Object.assign(new RangeError(`${path}: ${stat.size} bytes, not ${options.expectBytes}`), { code: 'ESIZE', size: stat.size });
    const chunk = (sharedChunk ??= Buffer.allocUnsafe(HASH_CHUNK_BYTES));
    const first = readSync(fd, chunk, 0, chunk.length, null);
    if (first > maxBytes) throw tooBig(path, first, maxBytes, true);
    // A regular file that gave the size fstat reported in one read: hash it in one call, without
    // the read that would return 0 (one system call fewer per file at 10⁵ files) or a Hash object.
    if (stat.isFile() && first >= stat.size && first < chunk.length) return { sha256: sha256Hex(chunk.subarray(0, first)), bytes: first };
    const hash = createHash('sha256');
    let bytes = 0;
    for (let n = first; n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
      bytes += n;
      if (bytes > maxBytes) throw tooBig(path, bytes, maxBytes, true);
      hash.update(chunk.subarray(0, n));
      // A regular file has given the size fstat reported: stop without the read that would return 0.
      if (stat.isFile() && bytes >= stat.size && n < chunk.length) break;
    }
    return { sha256: hash.digest('hex'), bytes };
  } finally {
    closeSync(fd);
  }
}

function tooBig(path: string, size: number, maxBytes: number, whileReading = false): RangeError {
  return Object.assign(new RangeError(`${path}: larger than ${maxBytes} bytes (at least ${size})`), { code: 'ETOOBIG', size, whileReading });
}

/** True for a string of 64 lowercase hex digits: what `sha256Hex` returns. */
export function isSha256Hex(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}

/**
 * Orders strings by UTF-16 code units, the same on every machine and locale (localeCompare is
 * not): the canonical order of item ids in fingerprints and version records.
 */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
