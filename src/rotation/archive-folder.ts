import { lstatSync, mkdirSync } from 'node:fs';
import { InputError } from '../data/errors.js';

// Small file-system steps shared by the archive's write-once records (sign-offs, plans).

/** lstat, or null when the path does not exist; any other failure is an InputError naming the path. */
export function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InputError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
}

/**
 * Makes `folder` (named `name` in messages) inside an archive if it is missing; a concurrent
 * writer making it first is fine. A file or symbolic link in its place is an InputError (a link is
 * never followed).
 */
export function makeArchiveFolder(archiveDir: string, folder: string, name: string): void {
  const stat = lstatOrNull(folder);
  if (stat === null) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new InputError(`cannot create the folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: folder });
    }
  } else if (!stat.isDirectory()) throw new InputError(`${name} must be a folder inside the archive (it is ${stat.isSymbolicLink() ? 'a symbolic link, never followed' : 'a file'})`, { file: archiveDir });
}
