import { closeSync, constants, fstatSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { writeTempFile } from '../data/atomic.js';
import { CheckFailed, InputError } from '../data/errors.js';
import { parseJsonText } from '../data/json-text.js';
import { parseWith } from '../data/validate.js';
import { MAX_ITEM_BYTES, type BenchmarkItem } from './content.js';
import { isIsoDate } from '../data/dates.js';
import { benchmarkFingerprint } from './fingerprint.js';
import { compareIds, sha256File, sha256Hex } from './hash.js';
import { ARCHIVE_HEAD_FILE, ARCHIVE_HEAD_FORMAT, archiveHeadText, readArchiveHead, type ArchiveHead, type ChainLink } from './head.js';
import { removeDeadWritersTemporaryFiles } from './leftovers.js';
import { describeLockOwner, lockWithin, readLock, removeStaleLock, tryLock, type HeldLock } from './lock.js';
import { assertVersionIntact } from './record-check.js';
import { versionCounts, versionStratumCounts } from './version-counts.js';
import { versionRecordDigest } from './record-digest.js';
import { checkVersionId, VERSION_ID_PATTERN } from './version-id.js';

export * from './version-record.js';
import { MAX_RECORD_BYTES, plainVersionItems, VERSION_RECORD_FORMAT, VersionRecordSchema, type VersionItem, type VersionRecord, type VersionStratumCount } from './version-record.js';

export interface FreezeOptions {
  /** The new version's id (checked by `checkVersionId`). */
  version: string;
  /** The day of freezing, `YYYY-MM-DD` (the library never reads the clock for records). */
  date: string;
  /** The annotation guideline version, or undefined / null when none is recorded. */
  guideline?: string | null;
  /**
   * The version this one was rotated from, with its fingerprint. freezeVersion reads that record,
   * refuses it if it is not intact (exit 1, naming the file and field), and records its digest
   * too, so `verify` can check the lineage.
   */
  parent?: { version: string; fingerprint: string } | null;
  /**
   * Hashes of objects already in the archive that the caller has just read back and checked
   * (`readVersionItems`, as `prepareRotation` does): freeze checks that each is still a regular
   * file of the right size instead of hashing it again. Any other stored object is re-hashed.
   */
  checkedObjects?: ReadonlySet<string>;
}

export interface FreezeResult {
  archive: string;
  version: string;
  date: string;
  guideline: string | null;
  fingerprint: string;
  /** The new record's digest of itself, and its place in the archive's hash chain. */
  recordDigest: string;
  sequence: number;
  /** The version frozen just before it into this archive, or null for the first of the chain. */
  previous: ChainLink | null;
  parent: { version: string; fingerprint: string; recordDigest?: string } | null;
  /** Number of items (eval + dev). */
  items: number;
  strata: VersionStratumCount[];
  /** Content files written by this freeze, and content already in the archive (shared with other versions). */
  objectsWritten: number;
  objectsShared: number;
  /** Temporary files, and a stale head lock, of writers that died (kill -9) that this freeze removed first. */
  leftoversRemoved: number;
  /** The record's path inside the archive, `versions/<id>.json`. */
  record: string;
}

/** Where a record sits in the archive's hash chain. */
export interface ChainPlace {
  sequence: number;
  previous: ChainLink | null;
}

/**
 * Builds the record of a version from items in hand: items sorted by id, per-stratum counts
 * (strata in order of first appearance), the fingerprint, its place in the archive's hash
 * chain (default: the first, sequence 1, no previous) and the record's digest of itself
 * (`versionRecordDigest`, over everything else). Pure: nothing is written.
 * @throws {RangeError} for duplicate ids, an empty item list or a content larger than
 *   MAX_ITEM_BYTES; {InputError} for a bad id or date.
 */
export function buildVersionRecord(
  items: readonly BenchmarkItem[],
  options: Omit<FreezeOptions, 'parent'> & { parent?: { version: string; fingerprint: string; recordDigest?: string } | null; chain?: ChainPlace },
): VersionRecord {
  checkVersionId(options.version);
  if (!isIsoDate(options.date)) throw new InputError('must be a date YYYY-MM-DD', { file: '--date', value: options.date });
  if (items.length === 0) throw new RangeError('a benchmark version needs at least one item (got 0)');
  for (const x of items) {
    // verify reports a larger object as changed without reading it, so none may be written.
    if (x.content.byteLength > MAX_ITEM_BYTES) throw new RangeError(`item "${x.item}": content larger than ${MAX_ITEM_BYTES} bytes (got ${x.content.byteLength})`);
  }
  const guideline = options.guideline ?? null;
  // Keys in a fixed order (id, place, label, provenance, content) so the record's bytes are stable.
  const entries: VersionItem[] = items.map((x) => ({
    item: x.item,
    stratum: x.stratum,
    split: x.split,
    ...(x.label !== undefined ? { label: x.label } : {}),
    ...(x.added !== undefined ? { added: x.added } : {}),
    ...(x.source !== undefined ? { source: x.source } : {}),
    sha256: sha256Hex(x.content),
    bytes: x.content.byteLength,
  }));
  const fingerprint = benchmarkFingerprint(entries, guideline);
  entries.sort((a, b) => compareIds(a.item, b.item));
  const p = options.parent ?? null;
  const parent = p ? { version: p.version, fingerprint: p.fingerprint, ...(p.recordDigest !== undefined ? { recordDigest: p.recordDigest } : {}) } : null;
  const chain = options.chain ?? { sequence: 1, previous: null };
  return signVersionRecord({
    format: VERSION_RECORD_FORMAT,
    version: options.version,
    date: options.date,
    guideline,
    fingerprint,
    sequence: chain.sequence,
    previous: chain.previous,
    parent,
    counts: versionCounts(entries),
    strata: versionStratumCounts(items),
    items: entries,
  });
}

/** The record with its `recordDigest` (re)computed, keys in the schema's order so the record's bytes are stable. */
function signVersionRecord(record: Omit<VersionRecord, 'recordDigest'>): VersionRecord {
  const { format, version, date, guideline, fingerprint, sequence, previous, parent, counts, strata, items } = record;
  const unsigned = { format, version, date, guideline, fingerprint, sequence, previous, parent, counts, strata, items };
  return { format, version, date, guideline, fingerprint, recordDigest: versionRecordDigest(unsigned), sequence, previous, parent, counts, strata, items };
}

/** How long a freeze waits for another writer's commit (which holds the head lock for milliseconds). */
export const HEAD_LOCK_WAIT_MS = 20_000;

export { versionCounts, versionStratumCounts };

/** The version lock's file, relative to the archive: held for a whole freeze of that version. */
export function versionLockPath(version: string): string {
  return `locks/${version}.lock`;
}

/** The head lock's file, relative to the archive: held while a freeze commits (record + head.json). */
export const HEAD_LOCK_PATH = 'locks/.head.lock';

/**
 * Freezes a benchmark version into a write-once, content-addressed archive:
 *
 *   DIR/objects/<sha256>     each distinct content once, shared by every version that holds it
 *   DIR/versions/<id>.json   the version record (items, strata, splits, labels, fingerprint,
 *                            record digest, place in the hash chain, guideline, date, parent)
 *   DIR/head.json            the newest version of the hash chain and its record digest
 *   DIR/locks/               lock files of writers at work
 *
 * Write-once and multi-writer safe: any number of processes may freeze or rotate into one
 * archive at once. A freeze first takes the version's lock (`locks/<id>.lock`, created
 * exclusively, holding PID, host and time); another live writer of the same version makes it
 * fail at once with exit 1, "locked by PID … on HOST since T", and an existing version with
 * "already exists". A lock whose owner ran on this host and is gone (kill -9) is stale and is
 * removed atomically. Contents are written to `objects/.HASH.PID.K.tmp`, flushed and
 * hard-linked into place (a link never replaces a file); content already stored is checked
 * (size, then hash, in chunks) and shared. No freeze ever deletes an object: once linked, an
 * object may already be shared by another writer's version, so a failed or killed freeze can
 * leave contents no version refers to, which verify lists as leftovers (not problems) and a
 * later freeze adopts. The commit takes the archive's head lock (waiting up to
 * HEAD_LOCK_WAIT_MS), checks the newest chained version it will follow, writes `head.json`
 * (rename) and then links the record; a reader sees the whole version or none. Before writing,
 * it removes temporary files left by writers that died (PID not running on this host) and a stale head lock.
 * Symbolic links inside the archive are never followed, and nothing is opened in a way that can
 * block (O_NONBLOCK, then fstat). Files are written read-only (0444).
 * Not covered: archives on network file systems (NFS: link and O_EXCL semantics, and PIDs of
 * other hosts, which are never judged stale), and clocks (the lock's time is only shown).
 * Cost: O(total content bytes) to hash, plus one write per new object.
 * @param archiveDir the archive's folder (created if absent).
 * @param items the version's items with their content (e.g. from `benchmarkItemsFromManifest`).
 * @returns what was written, with the fingerprint, the chain place and per-stratum counts.
 * @throws {CheckFailed} when the version already exists or is locked by a live writer, the
 *   parent or the newest chained version is not intact, or an object in the archive does not
 *   match its name. {InputError} for a bad version id or date, an archive whose `objects` /
 *   `versions` is not a real folder, or a file the system will not let us read or write (the
 *   message names the path and the error code, e.g. ENOTDIR, EACCES, ENOSPC). {RangeError} for
 *   duplicate ids, no items, or a content larger than MAX_ITEM_BYTES.
 * @example freezeVersion('archive', benchmarkItemsFromManifest(loadManifest('examples/manifest.yaml')), { version: '2026Q3', date: '2026-07-01', guideline: '2026.2' })
 * // => { version: '2026Q3', fingerprint: '9925…', items: 100, objectsWritten: 90, objectsShared: 0, sequence: 1, … } (10 items repeat another's text)
 */
export function freezeVersion(archiveDir: string, items: readonly BenchmarkItem[], options: FreezeOptions): FreezeResult {
  const draft = buildVersionRecord(items, { ...options, parent: null });
  const { objects, versions } = archiveFolders(archiveDir, { create: true });
  const locks = join(archiveDir, 'locks');
  if (!lstatOrNull(locks)) makeFolder(locks, false);
  const recordPath = join(versions, `${draft.version}.json`);
  // The lock first: taking it also clears a stale one (and the existence check below then sees a committed record).
  const versionLock = takeLock(archiveDir, versionLockPath(draft.version), 0, `version "${draft.version}"`);
  try {
    // The head lock is held only for a commit and, unlike a version lock (which chainTip reads to
    // roll back a head whose record was never linked), is evidence of nothing: a stale one goes now.
    // Left for the next commit, a writer killed after linking its record but before releasing the
    // head lock would leave it behind its own re-run, which stops at "already exists".
    const staleHeadLock = removeStaleLock(join(archiveDir, HEAD_LOCK_PATH)) ? 1 : 0;
    const leftoversRemoved = removeDeadWritersTemporaryFiles(archiveDir).length + staleHeadLock;
    if (lstatOrNull(recordPath)) throw new CheckFailed(versionExistsMessage(archiveDir, draft.version));
    let parent: { version: string; fingerprint: string; recordDigest: string } | null = null;
    if (options.parent) {
      const record = readArchiveVersion(archiveDir, options.parent.version, '--from');
      assertVersionIntact(record, join(versions, `${record.version}.json`));
      if (record.fingerprint !== options.parent.fingerprint) throw new CheckFailed(`${join(versions, `${record.version}.json`)}: fingerprint: version ${record.version} changed since the rotation was planned (fingerprint ${record.fingerprint.slice(0, 12)}…)`);
      parent = { version: record.version, fingerprint: record.fingerprint, recordDigest: versionRecordDigest(record) };
    }
    const stored = new Map(draft.items.map((x) => [x.item, x]));
    let written = 0;
    let shared = 0;
    const seen = new Set<string>();
    for (const x of items) {
      const { sha256: hash, bytes } = stored.get(x.item) as VersionItem;
      if (seen.has(hash)) continue;
      seen.add(hash);
      const path = join(objects, hash);
      const stat = lstatOrNull(path);
      if (stat) {
        checkStoredObject(archiveDir, hash, stat, bytes, options.checkedObjects?.has(hash) ?? false);
        shared += 1;
        continue;
      }
      if (writeNewFile(path, x.content)) written += 1;
      else {
        // Linked by a concurrent writer meanwhile: same name, so it should be the same content; check it.
        checkStoredObject(archiveDir, hash, lstatOrNull(path) as Stats, bytes, false);
        shared += 1;
      }
    }
    const committed = commitRecord(archiveDir, draft, parent, options);
    return {
      archive: archiveDir,
      version: committed.version,
      date: committed.date,
      guideline: committed.guideline,
      fingerprint: committed.fingerprint,
      recordDigest: committed.recordDigest as string,
      sequence: committed.sequence as number,
      previous: committed.previous ?? null,
      parent: committed.parent,
      items: committed.counts.items,
      strata: committed.strata,
      objectsWritten: written,
      objectsShared: shared,
      leftoversRemoved,
      record: `versions/${committed.version}.json`,
    };
  } finally {
    versionLock.release();
  }
}

/**
 * The commit: under the head lock, find the newest chained version (rolling back a head whose
 * record a dead writer never linked), check it is intact, sign the record with its place in the
 * chain, write head.json (temporary file, flush, rename), then link the record into place.
 */
function commitRecord(archiveDir: string, draft: VersionRecord, parent: { version: string; fingerprint: string; recordDigest: string } | null, options: FreezeOptions): VersionRecord {
  const versions = join(archiveDir, 'versions');
  const headLock = takeLock(archiveDir, HEAD_LOCK_PATH, HEAD_LOCK_WAIT_MS, 'the archive\'s head');
  try {
    const tip = chainTip(archiveDir, draft.version);
    const record = signVersionRecord({ ...draft, parent, sequence: tip.sequence, previous: tip.previous });
    const recordPath = join(versions, `${record.version}.json`);
    if (lstatOrNull(recordPath)) throw new CheckFailed(versionExistsMessage(archiveDir, record.version));
    const head: ArchiveHead = { format: ARCHIVE_HEAD_FORMAT, version: record.version, recordDigest: record.recordDigest as string, sequence: record.sequence as number, previous: record.previous ?? null };
    const headPath = join(archiveDir, ARCHIVE_HEAD_FILE);
    const recordTemp = writeTemp(recordPath, versionRecordText(record));
    try {
      const headTemp = writeTemp(headPath, archiveHeadText(head), 0o644);
      try {
        renameSync(headTemp, headPath);
      } catch (error) {
        rmSync(headTemp, { force: true });
        throw fileSystemError(error, headPath, 'write');
      }
      let linked: boolean;
      try {
        linked = linkNoClobber(recordTemp, recordPath);
      } catch (error) {
        restoreHead(archiveDir, tip);
        throw error;
      }
      if (!linked) {
        // Only a writer that takes no locks (an older benchplan) gets here: put the head back.
        restoreHead(archiveDir, tip);
        throw new CheckFailed(versionExistsMessage(archiveDir, record.version));
      }
      syncFolder(versions);
    } finally {
      rmSync(recordTemp, { force: true });
    }
    return record;
  } finally {
    headLock.release();
  }
}

/**
 * The place the next record takes: after the head, or (when head.json names a record that is not
 * there, because its writer died between writing the head and linking the record, or it is this
 * very version's own earlier attempt) after the head's previous link. Refuses a head whose record
 * is missing without such a reason, and a newest record that is not intact.
 */
function chainTip(archiveDir: string, version: string): ChainPlace {
  const read = readArchiveHead(archiveDir);
  const headFile = join(archiveDir, ARCHIVE_HEAD_FILE);
  if ('problem' in read) throw new CheckFailed(`${headFile}: ${read.problem}; run benchplan verify`);
  if ('absent' in read) return { sequence: 1, previous: null };
  let link: ChainLink | null = { version: read.head.version, recordDigest: read.head.recordDigest };
  let sequence = read.head.sequence;
  const path = join(archiveDir, 'versions', `${link.version}.json`);
  if (!lstatOrNull(path)) {
    // Its writer's lock shows the head was written by a commit that never linked the record: held by
    // a dead writer, or by a re-run of it at work (not committing: we hold the head lock).
    const lock = readLock(join(archiveDir, versionLockPath(link.version)));
    if (link.version !== version && !lock?.owner) {
      throw new CheckFailed(`${headFile}: version: names ${link.version} as the newest version, but ${path} is missing (deleted?); run benchplan verify`);
    }
    link = read.head.previous;
    sequence -= 1;
    if (!link) return { sequence: 1, previous: null };
  }
  const record = readArchiveVersion(archiveDir, link.version, ARCHIVE_HEAD_FILE);
  const recordFile = join(archiveDir, 'versions', `${link.version}.json`);
  assertVersionIntact(record, recordFile);
  if (versionRecordDigest(record) !== link.recordDigest) throw new CheckFailed(`${recordFile}: recordDigest: not the record the archive's hash chain holds for ${link.version} (replaced?); run benchplan verify`);
  return { sequence: sequence + 1, previous: link };
}

function restoreHead(archiveDir: string, tip: ChainPlace): void {
  const headPath = join(archiveDir, ARCHIVE_HEAD_FILE);
  if (!tip.previous) {
    rmSync(headPath, { force: true });
    return;
  }
  const record = readArchiveVersion(archiveDir, tip.previous.version, ARCHIVE_HEAD_FILE);
  const head: ArchiveHead = { format: ARCHIVE_HEAD_FORMAT, version: record.version, recordDigest: tip.previous.recordDigest, sequence: tip.sequence - 1, previous: record.previous ?? null };
  const temp = writeTemp(headPath, archiveHeadText(head), 0o644);
  renameSync(temp, headPath);
}

/** Takes a lock file under the archive, waiting up to `waitMs`; CheckFailed "locked by PID … on HOST since T" when a live writer keeps it. */
function takeLock(archiveDir: string, relative: string, waitMs: number, what: string): HeldLock {
  const path = join(archiveDir, relative);
  let attempt;
  try {
    attempt = waitMs > 0 ? lockWithin(path, waitMs) : tryLock(path);
  } catch (error) {
    throw fileSystemError(error, path, 'create the lock');
  }
  if ('held' in attempt) return attempt.held;
  throw new CheckFailed(`${archiveDir}: ${what} is locked by ${describeLockOwner(attempt.busy.owner)} (${relative}): another freeze or rotate --apply is writing it; try again when it is done`);
}

function versionExistsMessage(archiveDir: string, version: string): string {
  return `${archiveDir}: version "${version}" already exists; a frozen version is never overwritten (choose a new --version)`;
}

/** The record as stored: two-space JSON with a final newline, keys in the schema's order. */
export function versionRecordText(record: VersionRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/**
 * A file-system error as bad input naming the path and the error's code (exit 2 in the CLI);
 * our own errors pass through.
 */
function fileSystemError(error: unknown, path: string, doing: string): Error {
  if (error instanceof InputError || error instanceof CheckFailed) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new InputError(`cannot ${doing}: ${code ?? (error as Error).message ?? String(error)}`, { file: path });
}

/**
 * Checks an object already in the archive before a freeze shares it: a regular file of the
 * expected size whose content hashes to its name (hashed in chunks, opened without blocking;
 * skipped when `checked`, i.e. the caller has just read it back and checked it).
 */
function checkStoredObject(archiveDir: string, hash: string, stat: Stats, bytes: number, checked: boolean): void {
  if (!stat.isFile()) throw new CheckFailed(`${archiveDir}: objects/${hash} is not a regular file (a link or folder is never followed); run benchplan verify`);
  if (stat.size !== bytes) throw new CheckFailed(`${archiveDir}: objects/${hash} does not match its name (${stat.size} bytes; its content has ${bytes}): the archive was changed; run benchplan verify`);
  if (checked) return;
  const path = join(archiveDir, 'objects', hash);
  let actual: string;
  try {
    actual = sha256File(path, { followLinks: false, maxBytes: bytes, regularOnly: true }).sha256;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ETOOBIG') throw new CheckFailed(`${archiveDir}: objects/${hash} does not match its name (it grew past ${bytes} bytes): the archive was changed; run benchplan verify`);
    if (code === 'ENOTREG' || code === 'ELOOP') throw new CheckFailed(`${archiveDir}: objects/${hash} is not a regular file (a link or folder is never followed); run benchplan verify`);
    throw fileSystemError(error, path, 'read');
  }
  if (actual !== hash) throw new CheckFailed(`${archiveDir}: objects/${hash} does not match its name (content hash ${actual}): the archive was changed; run benchplan verify`);
}

function writeTemp(path: string, content: string | Uint8Array, mode = 0o444): string {
  try {
    return writeTempFile(path, content, mode);
  } catch (error) {
    throw fileSystemError(error, path, 'write');
  }
}

/**
 * Hard-links `temp` to `path` unless `path` exists (false then). Where the file system has no
 * hard links, falls back to an existence check and a rename.
 */
function linkNoClobber(temp: string, path: string): boolean {
  try {
    try {
      linkSync(temp, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      if (lstatOrNull(path)) return false;
      renameSync(temp, path);
    }
    return true;
  } catch (error) {
    throw fileSystemError(error, path, 'write');
  }
}

/** Flushes a folder's entries (the new link) to disk, where the system allows it. */
function syncFolder(path: string): void {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every system can fsync a folder; the link itself is already made.
  }
}

/**
 * Writes a file that must not exist yet: temporary file (`.NAME.PID.K.tmp`), flush, hard link
 * into place, remove the temporary name. Returns false (writing nothing) when the target exists.
 * @throws {InputError} naming the path and the code when the file system refuses.
 */
function writeNewFile(path: string, content: string | Uint8Array): boolean {
  const temp = writeTemp(path, content);
  try {
    return linkNoClobber(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** lstat, or null when nothing is there. @throws {InputError} naming the path and the code for any other error (ENOTDIR, EACCES, …). */
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fileSystemError(error, path, 'read');
  }
}

/**
 * The archive's two folders, checked to be real folders (not links).
 * @param options.create make them (and the archive folder) when absent.
 * @throws {InputError} when the archive is missing (and not to be created), a folder is a link
 *   or a file, or the file system refuses (the path and the code, e.g. ENOTDIR when a parent is a file).
 */
export function archiveFolders(archiveDir: string, options: { create?: boolean } = {}): { objects: string; versions: string } {
  const top = lstatOrNull(archiveDir);
  if (!top) {
    if (!options.create) throw new InputError('no archive here (the folder does not exist)', { file: archiveDir });
    makeFolder(archiveDir, true);
  } else if (!top.isDirectory() && !(top.isSymbolicLink() && isDirectoryFollowing(archiveDir))) {
    throw new InputError('the archive must be a folder', { file: archiveDir });
  }
  const out = { objects: join(archiveDir, 'objects'), versions: join(archiveDir, 'versions') };
  for (const [name, path] of Object.entries(out)) {
    const stat = lstatOrNull(path);
    if (!stat) {
      if (options.create) makeFolder(path, false);
      continue;
    }
    if (!stat.isDirectory()) throw new InputError(`${name} must be a folder inside the archive (it is ${stat.isSymbolicLink() ? 'a symbolic link, never followed' : 'a file'})`, { file: archiveDir });
  }
  return out;
}

function makeFolder(path: string, recursive: boolean): void {
  try {
    mkdirSync(path, { recursive });
  } catch (error) {
    // Another writer made it meanwhile (two first freezes of a new archive at once).
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && lstatOrNull(path)?.isDirectory()) return;
    throw fileSystemError(error, path, 'create the folder');
  }
}

function isDirectoryFollowing(path: string): boolean {
  try {
    return readdirSync(path) !== undefined;
  } catch {
    return false;
  }
}

/** readdir, or InputError naming the folder and the code. */
function readFolder(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (error) {
    throw fileSystemError(error, path, 'list the folder');
  }
}

/**
 * The ids of the versions in an archive, sorted by id (code-unit order).
 * @throws {InputError} when there is no archive at that folder, or it cannot be read.
 */
export function listArchiveVersions(archiveDir: string): string[] {
  const { versions } = archiveFolders(archiveDir);
  if (!lstatOrNull(versions)) return [];
  return readFolder(versions)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => VERSION_ID_PATTERN.test(id) && !id.includes('..') && lstatOrNull(join(versions, `${id}.json`))?.isFile())
    .sort(compareIds);
}

/**
 * Reads and checks one version record: a regular file (not a link) of at most MAX_RECORD_BYTES,
 * valid JSON, the documented shape, and the id inside matching the file name. The record's
 * digest is not checked here (`verifyArchive` does).
 * @param flag the flag the id came from, for messages (default `--version`).
 * @throws {InputError} for a bad id, an unknown version (the message lists the versions there
 *   are), a malformed or oversized record, or one the file system will not let us read (the path and the code).
 */
export function readArchiveVersion(archiveDir: string, version: string, flag = '--version'): VersionRecord {
  checkVersionId(version, flag);
  const { versions } = archiveFolders(archiveDir);
  const path = join(versions, `${version}.json`);
  const stat = lstatOrNull(path);
  if (!stat) {
    const known = lstatOrNull(versions) ? listArchiveVersions(archiveDir) : [];
    throw new InputError(`version "${version}" is not in the archive ${archiveDir} (versions: ${known.length ? known.join(', ') : 'none'})`, { file: flag, value: version });
  }
  if (!stat.isFile()) throw new InputError('a version record must be a regular file (a link is never followed)', { file: path });
  return parseVersionRecord(readVersionRecordText(path), path, version);
}

/**
 * The text of a record file, read without following a link or blocking (O_NONBLOCK, then
 * fstat: only a regular file is read) and refusing one larger than MAX_RECORD_BYTES before reading it.
 * @throws {InputError} naming the path: too large, or the file system's code (ENOENT, EACCES, ELOOP for a link, …).
 */
export function readVersionRecordText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw fileSystemError(error, path, 'read');
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new InputError('a version record must be a regular file (not a FIFO, device or folder)', { file: path });
    const size = stat.size;
    if (size > MAX_RECORD_BYTES) throw new InputError(`is too large for a version record (${size} bytes; limit ${MAX_RECORD_BYTES})`, { file: path });
    return readFileSync(fd, 'utf8');
  } catch (error) {
    throw fileSystemError(error, path, 'read');
  } finally {
    closeSync(fd);
  }
}

/**
 * The record when its items are plainly valid (plainVersionItems) and the rest passes the schema,
 * checked without the items; undefined otherwise, so the whole record goes through the schema and
 * any error is the one it gives. The same record either way (tests/rotation/record-fast-parse.test.ts).
 */
function parseRecordItemsApart(data: unknown): VersionRecord | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const items = plainVersionItems((data as { items?: unknown }).items);
  if (items === undefined) return undefined;
  const rest = VersionRecordSchema.safeParse({ ...data, items: [] });
  if (!rest.success) return undefined;
  rest.data.items = items;
  return rest.data;
}

/** Parses a record's text; `expected` is the id its file name promises. @throws {InputError}. */
export function parseVersionRecord(text: string, file: string, expected: string): VersionRecord {
  // parseJsonText refuses a key named twice: JSON.parse keeps the last, so a forged first value would read as intact.
  const data = parseJsonText(text, { file });
  const record = parseRecordItemsApart(data) ?? (parseWith(VersionRecordSchema, data, { file }) as VersionRecord);
  if (record.version !== expected) throw new InputError(`the record says version "${record.version}" but its file name says "${expected}"`, { file, field: 'version', value: record.version });
  return record;
}

/**
 * Reads one stored content and checks it: a regular file (a link is never followed), no larger
 * than MAX_ITEM_BYTES and of the recorded size (both checked before reading, so a huge file is
 * never loaded), whose content hashes to its name.
 * @param bytes the size the record gives, when known.
 * @throws {CheckFailed} when the object is missing, a link, of the wrong size, or does not
 *   match its name; {InputError} naming the path and the code when the file system refuses (EACCES, EIO, …).
 */
export function readArchiveObject(archiveDir: string, sha256: string, bytes?: number): Uint8Array {
  const path = join(archiveDir, 'objects', sha256);
  const changed = (what: string) => new CheckFailed(`${archiveDir}: objects/${sha256} ${what}: the archive was changed; run benchplan verify`);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO planted as an object must not wait for a writer; fstat then refuses it.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CheckFailed(`${archiveDir}: objects/${sha256} is missing; run benchplan verify`);
    if (code === 'ELOOP') throw changed('is a symbolic link (never followed)');
    if (code === 'ENXIO') throw changed('is not a regular file (a socket)');
    throw fileSystemError(error, path, 'read');
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw changed('is not a regular file');
    if (stat.size > MAX_ITEM_BYTES) throw changed(`has ${stat.size} bytes, more than an item may hold (${MAX_ITEM_BYTES})`);
    if (bytes !== undefined && stat.size !== bytes) throw changed(`has ${stat.size} bytes, but the record says ${bytes}`);
    const content = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < content.length) {
      const n = readSync(fd, content, read, content.length - read, null);
      if (n === 0) break;
      read += n;
    }
    if (read !== content.length) throw changed(`shrank while being read (${read} of ${content.length} bytes)`);
    const actual = sha256Hex(content);
    if (actual !== sha256) throw changed(`does not match its name (content hash ${actual})`);
    return content;
  } catch (error) {
    throw fileSystemError(error, path, 'read');
  } finally {
    closeSync(fd);
  }
}

/**
 * A frozen version's items with their content read back from the archive (each distinct object
 * read once and checked against its size and hash): the input to freezing a rotated version.
 * @throws {CheckFailed} when an object is missing or changed; {InputError} when one cannot be read.
 */
export function readVersionItems(archiveDir: string, record: VersionRecord): BenchmarkItem[] {
  const contents = new Map<string, Uint8Array>();
  return record.items.map((x) => {
    let content = contents.get(x.sha256);
    if (!content) contents.set(x.sha256, (content = readArchiveObject(archiveDir, x.sha256, x.bytes)));
    else if (content.byteLength !== x.bytes) throw new CheckFailed(`${archiveDir}: version ${record.version}: item ${x.item} says ${x.bytes} bytes, but its content (objects/${x.sha256}) has ${content.byteLength}: the record was changed; run benchplan verify`);
    const out: BenchmarkItem = { item: x.item, stratum: x.stratum, split: x.split, content };
    if (x.label !== undefined) out.label = x.label;
    if (x.added !== undefined) out.added = x.added;
    if (x.source !== undefined) out.source = x.source;
    return out;
  });
}
