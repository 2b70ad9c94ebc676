import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError } from '../data/errors.js';
import { MAX_TABLE_BYTES, readInputChunks } from '../data/read.js';
import { sha256File } from '../rotation/hash.js';
import type { ReportInput } from './html.js';

/** The largest input file the report fingerprints: the largest table any loader reads (MAX_TABLE_BYTES). */
export const MAX_FINGERPRINT_BYTES = MAX_TABLE_BYTES;

/**
 * The sha256 fingerprint of an input file's bytes, for the report's provenance table.
 * Equivalent to `sha256sum FILE`. The file is hashed in 1 MiB chunks through the shared bounded
 * reader (`readInputChunks`): memory stays at one chunk, a FIFO or device (`/dev/zero`) is
 * refused instead of hashed forever, and so is a file past MAX_FINGERPRINT_BYTES.
 * @throws {InputError} when the file cannot be read, is not a regular file or is too large
 *   (naming the path and the error code or kind).
 */
export function fingerprintFile(role: string, path: string): ReportInput {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const chunk of readInputChunks(path, { maxBytes: MAX_FINGERPRINT_BYTES })) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { role, path, sha256: hash.digest('hex'), bytes };
}

/**
 * The fingerprint of a folder (an archive): sha256 over its sorted listing, one line a file,
 * `sha256  relative/path\n` (the `sha256sum` format, paths with `/`), so it changes when any
 * file is added, removed, renamed or edited. Temporary files (`.*.tmp`) are left out, and so
 * are symbolic links (never followed). Each file is hashed in 1 MiB chunks, one file at a time,
 * so memory stays small whatever the archive holds.
 * `bytes` is the total size of the files.
 * @throws {InputError} when the folder or one of its files cannot be read (naming the path and the error code).
 */
export function fingerprintFolder(role: string, path: string): ReportInput {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && !/^\..*\.tmp$/.test(entry.name)) files.push(full);
    }
  };
  try {
    if (!statSync(path).isDirectory()) throw new InputError('must be a folder', { file: path });
    walk(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  const rows = files
    .map((file) => ({ file, name: relative(path, file).split(sep).join('/') }))
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const listing = createHash('sha256');
  let total = 0;
  for (const row of rows) {
    let digest: { sha256: string; bytes: number };
    try {
      digest = sha256File(row.file, { followLinks: false });
    } catch (error) {
      throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: row.file });
    }
    listing.update(`${digest.sha256}  ${row.name}\n`);
    total += digest.bytes;
  }
  return { role, path, sha256: listing.digest('hex'), bytes: total };
}
