import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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
  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(temp, 'wx', 0o644);
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new InputError(`cannot write file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
}
