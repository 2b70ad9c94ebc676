import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from './errors.js';

/**
 * Writes a file atomically: the content goes to a temporary file beside the target, is
 * flushed, then renamed over it, so a reader (or a crash) sees the old file or the new one,
 * never half of one. Creates the target's folder if needed.
 * @throws {InputError} when the folder cannot be created or the file cannot be written.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const dir = dirname(path);
  let temp = '';
  try {
    mkdirSync(dir, { recursive: true });
    temp = writeTempFile(path, content);
    renameSync(temp, path);
  } catch (error) {
    if (temp !== '') rmSync(temp, { force: true });
    throw new InputError(`cannot write file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
}

let tempCounter = 0;

/**
 * Writes content to a new temporary file beside `path` (`.NAME.PID.K.tmp`) and flushes it to
 * disk; the caller renames or links it into place and removes it on failure.
 * @returns the temporary file's path.
 * @throws the file system's error (the temporary file is removed first).
 */
export function writeTempFile(path: string, content: string | Uint8Array, mode = 0o644): string {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${(tempCounter += 1)}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  return temp;
}

/**
 * Checks, before any work with side effects, that an output file can be written: its folder
 * exists or can be made, and a file can be created in it. A command with several outputs (a
 * frozen version and a chart, an adjudication list and a chart) checks them all first, so a bad
 * path fails before anything is written rather than after half of it.
 * @throws {InputError} naming the path and the file system's reason.
 */
export function preflightOutput(path: string, flag?: string): void {
  const where = flag === undefined ? { file: path } : { file: flag, value: path };
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (existsSync(path) && statSync(path).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    rmSync(writeTempFile(path, ''), { force: true });
  } catch (error) {
    throw new InputError(`cannot write there: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, where);
  }
}
