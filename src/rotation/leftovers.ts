import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { lockHost, processIsAlive, readLock } from './lock.js';
import { readSignoffHead } from './signoff-head.js';

/**
 * A temporary file's name as the archive writes them: `.NAME.PID.K.tmp` (the file it will
 * become, the writer's process id, a counter). Returns the PID, or null for any other name.
 * @example temporaryFileWriter('.9f86d08188.4242.3.tmp') // => 4242
 */
export function temporaryFileWriter(name: string): number | null {
  const match = /^\..+\.(\d{1,10})\.\d{1,15}\.tmp$/.exec(name);
  return match ? Number(match[1]) : null;
}

/** The archive's folders that writers put temporary files in, relative to the archive. */
export const TEMPORARY_FILE_FOLDERS = ['', 'objects', 'versions', 'locks', 'signoffs'] as const;

/**
 * The PIDs named by lock files of writers on other hosts: their temporary files are never
 * judged by a PID check on this host.
 */
export function foreignWriterPids(archiveDir: string): Set<number> {
  const out = new Set<number>();
  let names: string[];
  try {
    names = readdirSync(join(archiveDir, 'locks'));
  } catch {
    return out;
  }
  const host = lockHost();
  for (const name of names) {
    if (!name.endsWith('.lock') && !name.endsWith('.break')) continue;
    const state = readLock(join(archiveDir, 'locks', name));
    if (state?.owner && state.owner.host !== host) out.add(state.owner.pid);
  }
  return out;
}

/**
 * True when a temporary file of writer `pid` was left by a writer that died: the PID is not
 * running on this host and no lock of another host names it.
 */
export function isDeadWriter(pid: number, foreign: ReadonlySet<number>): boolean {
  return !foreign.has(pid) && !processIsAlive(pid);
}

/**
 * Removes the temporary files that writers which died left in the archive (kill -9, power
 * loss): only files named `.NAME.PID.K.tmp` whose PID is not running on this host (and that no
 * other host's lock names). A temporary file is never a version's content (objects are
 * hard-linked from it, so removing the temporary name leaves the object whole), so this cannot
 * lose data. The record of an interrupted sign-off commit (pendingSignoff: the sign-off head names
 * it) is kept for the next sign-off to link. Live writers' files are left alone. A stale `locks/*.break` file (a writer that
 * died while breaking a stale lock) goes too.
 * @returns the removed files, relative to the archive.
 */
export function removeDeadWritersTemporaryFiles(archiveDir: string): string[] {
  const foreign = foreignWriterPids(archiveDir);
  const removed: string[] = [];
  // The record of an interrupted sign-off commit is not a leftover: the head names it, and the next sign-off links it.
  const pending = interruptedSignoffPrefix(archiveDir);
  for (const folder of TEMPORARY_FILE_FOLDERS) {
    const dir = folder === '' ? archiveDir : join(archiveDir, folder);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (folder === 'locks' && name.endsWith('.break')) {
        // A stale-lock breaker that died mid-break: its own lock is stale too (removed as breakStaleLock would).
        const state = readLock(join(dir, name));
        if (state?.stale) {
          rmSync(join(dir, name), { force: true });
          removed.push(`locks/${name}`);
        }
        continue;
      }
      const pid = temporaryFileWriter(name);
      if (pid === null || !isDeadWriter(pid, foreign)) continue;
      const path = join(dir, name);
      if (folder === 'signoffs' && pending !== null && name.startsWith(pending)) continue;
      try {
        if (!lstatSync(path).isFile()) continue; // not ours: verify reports it
        rmSync(path, { force: true });
        removed.push(folder === '' ? name : `${folder}/${name}`);
      } catch {
        // gone meanwhile, or not removable: verify reports what remains
      }
    }
  }
  return removed;
}

/**
 * The temporary-name prefix (`.<id>.json.`) of the record `signoffs/head.json` names when that
 * record is missing: a sign-off commit interrupted between the head and the link, whose record
 * the next signoff links (pendingSignoff checks its content). Null otherwise.
 */
function interruptedSignoffPrefix(archiveDir: string): string | null {
  const read = readSignoffHead(archiveDir);
  if (!('head' in read)) return null;
  try {
    lstatSync(join(archiveDir, 'signoffs', `${read.head.id}.json`));
    return null;
  } catch {
    return `.${read.head.id}.json.`;
  }
}

/** How old a temporary file in a user's folder must be before a dead writer's is removed: one minute. */
export const FOLDER_LEFTOVER_MIN_AGE_MS = 60_000;

/**
 * Removes the temporary files (`.NAME.PID.K.tmp`, writeFileAtomic) that writers which died left
 * in an output folder (report, import, select, review, shortlist, agree, charts): only regular
 * files whose writer PID is not running on this host and whose last change is at least
 * `minAgeMs` before `now` — a writer holds its temporary file for the milliseconds between
 * creating and renaming it, so a file a minute old whose PID is gone is not a live writer's (the
 * age also guards against a writer on another host or PID namespace sharing the folder).
 * Nothing else is touched, and a file that cannot be removed is left.
 * @param dir the folder.
 * @param now the current time in ms since the epoch (the library reads no clock).
 * @returns the names removed.
 * @example removeDeadWritersFilesIn('no-such-folder', { now: 0 }) // => []
 */
export function removeDeadWritersFilesIn(dir: string, options: { now: number; minAgeMs?: number }): string[] {
  const minAge = options.minAgeMs ?? FOLDER_LEFTOVER_MIN_AGE_MS;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = temporaryFileWriter(name);
    if (pid === null || processIsAlive(pid)) continue;
    const path = join(dir, name);
    try {
      const s = lstatSync(path);
      if (!s.isFile() || options.now - s.mtimeMs < minAge) continue;
      rmSync(path);
      removed.push(name);
    } catch {
      // gone meanwhile, or not removable
    }
  }
  return removed;
}
