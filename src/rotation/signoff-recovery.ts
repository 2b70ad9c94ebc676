import { closeSync, constants, fsyncSync, linkSync, openSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { foreignWriterPids, isDeadWriter, temporaryFileWriter } from './leftovers.js';
import { readSmallFile } from './head.js';
import { parseJsonText } from '../data/json-text.js';
import { versionRecordDigest } from './record-digest.js';
import { readSignoffHead, type SignoffHead } from './signoff-head.js';
import { lstatOrNull, MAX_SIGNOFF_BYTES, SIGNOFF_FOLDER, SignoffRecordSchema, type SignoffRecord } from './signoff-record.js';

/**
 * A sign-off whose commit was interrupted after `signoffs/head.json` named it and before its
 * record was linked into place: the head's link and the record, written and flushed before the
 * head, still under its writer's temporary name `signoffs/.<id>.json.PID.K.tmp`.
 */
export interface PendingSignoff {
  /** The head that names the missing record. */
  head: SignoffHead;
  /** The temporary file holding the record, relative to the archive. */
  temporary: string;
  /** The writer's process id (not running: the writer died). */
  pid: number;
  record: SignoffRecord;
}

/**
 * Finds the record of an interrupted sign-off commit: when `signoffs/head.json` names a sign-off
 * whose `signoffs/<id>.json` is missing, a temporary file `.<id>.json.PID.K.tmp` of a writer that
 * is no longer running which reads as a sign-off record of that id, whose own digest is right and
 * is the digest and place the head holds. That file is exactly the record the head commits to
 * (written and flushed before the head was replaced), so completing the commit (linking it into
 * place) is a roll forward that loses and invents nothing. Null when the head is absent or
 * unreadable, its record is there, or no such file is (then a missing record is a deletion).
 * Cost: one listing of `signoffs/` and a read of each candidate temporary file.
 * @example pendingSignoff('out/archive') // => null (nothing interrupted)
 */
export function pendingSignoff(archiveDir: string): PendingSignoff | null {
  const read = readSignoffHead(archiveDir);
  if (!('head' in read)) return null;
  const head = read.head;
  const folder = join(archiveDir, SIGNOFF_FOLDER);
  if (lstatOrNull(join(folder, `${head.id}.json`)) !== null) return null;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return null;
  }
  const foreign = foreignWriterPids(archiveDir);
  const prefix = `.${head.id}.json.`;
  for (const name of names.sort()) {
    if (!name.startsWith(prefix)) continue;
    const pid = temporaryFileWriter(name);
    if (pid === null || !isDeadWriter(pid, foreign)) continue;
    const text = readSmallFile(join(folder, name), MAX_SIGNOFF_BYTES);
    if (!('text' in text)) continue;
    let record: SignoffRecord;
    try {
      const parsed = SignoffRecordSchema.safeParse(parseJsonText(text.text, { file: name }));
      if (!parsed.success) continue;
      record = parsed.data;
    } catch {
      continue;
    }
    if (record.id !== head.id || record.recordDigest !== head.recordDigest || versionRecordDigest(record) !== head.recordDigest) continue;
    if (record.sequence !== head.sequence) continue;
    const prev = record.previous ?? null;
    if ((prev === null) !== (head.previous === null) || (prev !== null && (prev.id !== head.previous?.id || prev.recordDigest !== head.previous?.recordDigest))) continue;
    return { head, temporary: `${SIGNOFF_FOLDER}/${name}`, pid, record };
  }
  return null;
}

/**
 * Completes an interrupted sign-off commit (pendingSignoff): links the record into place as
 * `signoffs/<id>.json` (never replacing a file of that name), flushes the folder and removes the
 * temporary name. Call it under the sign-off lock (SIGNOFF_LOCK_PATH). A roll forward, as the
 * archive's freeze rolls a head back: after it `verify` finds the chain whole.
 * @returns the sign-off completed, or null when none was pending.
 * @throws the file system's error when the link cannot be made (other than the name existing).
 * @example completeInterruptedSignoff('out/archive') // => { id: 'q4-pick', … } after a signoff killed between its head and its record
 */
export function completeInterruptedSignoff(archiveDir: string): SignoffRecord | null {
  const pending = pendingSignoff(archiveDir);
  if (pending === null) return null;
  const folder = join(archiveDir, SIGNOFF_FOLDER);
  const temp = join(archiveDir, pending.temporary);
  try {
    linkSync(temp, join(folder, `${pending.record.id}.json`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  syncFolder(folder);
  rmSync(temp, { force: true });
  return pending.record;
}

/** Flushes a folder's entries (a new link) to disk, where the system allows it. */
export function syncFolder(path: string): void {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every system can fsync a folder; the link itself is made.
  }
}
