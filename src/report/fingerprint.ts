import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError } from '../data/errors.js';
import type { ReportInput } from './html.js';

/**
 * The sha256 fingerprint of an input file's bytes, for the report's provenance table.
 * Equivalent to `sha256sum FILE`.
 * @throws {InputError} when the file cannot be read.
 */
export function fingerprintFile(role: string, path: string): ReportInput {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  return { role, path, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

/**
 * The fingerprint of a folder (an archive): sha256 over its sorted listing, one line a file,
 * `sha256  relative/path\n` (the `sha256sum` format, paths with `/`), so it changes when any
 * file is added, removed, renamed or edited. Temporary files (`.*.tmp`) are left out.
 * `bytes` is the total size of the files.
 * @throws {InputError} when the folder cannot be read.
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
    .map((file) => ({ name: relative(path, file).split(sep).join('/'), bytes: readFileSync(file) }))
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const listing = rows.map((row) => `${createHash('sha256').update(row.bytes).digest('hex')}  ${row.name}\n`).join('');
  return { role, path, sha256: createHash('sha256').update(listing).digest('hex'), bytes: rows.reduce((sum, row) => sum + row.bytes.length, 0) };
}
