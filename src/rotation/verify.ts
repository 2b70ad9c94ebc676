import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../data/errors.js';
import { archiveFolders, MAX_RECORD_BYTES, parseVersionRecord, readVersionRecordText, VERSION_RECORD_FORMAT, versionLockPath, type VersionRecord } from './archive.js';
import { MAX_ITEM_BYTES } from './content.js';
import { compareIds, isSha256Hex, sha256File } from './hash.js';
import { ANY_SIZE, coreToSpare, INTACT, NO_FAST_PATH, ObjectHasher, PARALLEL_MIN_RECORD_BYTES } from './object-hashing.js';
import { ARCHIVE_HEAD_FILE, readArchiveHead, type ChainLink } from './head.js';
import { foreignWriterPids, isDeadWriter, temporaryFileWriter } from './leftovers.js';
import { describeLockOwner, readLock } from './lock.js';
import { versionRecordIssues } from './record-check.js';
import { versionRecordDigest } from './record-digest.js';
import { verifySignoffChain } from './signoff-chain.js';
import { SIGNOFF_HEAD_FILE } from './signoff-head.js';
import { SIGNOFF_FOLDER, verifySignoff } from './signoff-record.js';
import { pendingSignoff } from './signoff-recovery.js';
import { PLAN_FOLDER, verifyPlan } from './plan-record.js';
import { checkVersionId, VERSION_ID_PATTERN } from './version-id.js';

/** Stands for the lstat of a folder entry that is a regular file, for checks that need only that. */
const REGULAR = { isFile: () => true } as Stats;

/** The items that use one content hash (see verifyArchive's object check). */
interface ObjectUsers {
  list: Array<{ version: string; item: string; bytes: number }>;
  /** The size every user gives the object, or NO_FAST_PATH when they differ (the hash then re-checks it as one thread would). */
  bytes: number;
  /** Set when the object's name was listed in objects/. */
  onDisk: boolean;
}

/** How verify opens an object no intact record gives a size for. */
const UNTRUSTED_OBJECT = { followLinks: false, maxBytes: MAX_ITEM_BYTES, regularOnly: true } as const;

/** What verify says removes a dead writer's temporary file in the archive. */
const REMOVED_BY = 'the next freeze, rotate --apply or signoff on this archive removes it';

/** One thing wrong with an archive: a file that changed, is missing, should not be there, or cannot be read. */
export interface ArchiveProblem {
  kind: 'changed' | 'missing' | 'extra' | 'unreadable';
  /** The file, relative to the archive folder (`objects/<sha256>`, `versions/<id>.json`). */
  path: string;
  /** What is wrong, in words. */
  detail: string;
}

/**
 * Something in the archive that is not a version's content and cannot change one: what a
 * writer at work, or one that died, leaves. Reported, never a reason to fail.
 * - `interrupted`: a temporary file of a writer that is no longer running (kill -9, power
 *   loss); the next freeze, rotate --apply or signoff on the archive removes it (the record of
 *   an interrupted sign-off commit, which the sign-off head names, is linked into place instead).
 * - `in-progress`: a temporary file or lock of a writer that is running now.
 * - `stale-lock`: a lock whose writer ran on this host and is gone; the next writer removes it.
 * - `unreferenced`: an intact content file no version refers to (a freeze that failed or was
 *   killed after writing it; content files are never deleted, since another writer may share
 *   them); a freeze of a version holding it adopts it.
 */
export interface ArchiveLeftover {
  kind: 'interrupted' | 'in-progress' | 'stale-lock' | 'unreferenced';
  path: string;
  detail: string;
}

export interface VerifyResult {
  archive: string;
  /** The version checked, or null when the whole archive was. */
  version: string | null;
  /** The versions whose records were read. */
  versions: string[];
  /** Content files re-hashed. */
  objects: number;
  /** Items across the versions checked. */
  items: number;
  problems: ArchiveProblem[];
  /** Things worth knowing that are not problems, e.g. a record frozen before records carried a digest. */
  notes: string[];
  /** What writers at work, or writers that died, left: temporary files, locks, unreferenced contents. Not problems. */
  leftovers: ArchiveLeftover[];
  /**
   * The newest version of the archive's hash chain, with its record digest and place (null when
   * no record is chained, or with `version`). Keep a copy elsewhere: it binds the whole history.
   */
  head: (ChainLink & { sequence: number }) | null;
  /** The sign-offs checked (`signoffs/<id>.json`, whole-archive checks only), and the evidence files re-hashed for them. */
  signoffs: string[];
  /** The analysis plans checked (`plans/<id>.json`, whole-archive checks only): each must read and match its record digest. */
  plans: string[];
  /** The newest sign-off of the sign-off chain (signoffs/head.json), null when none is chained: keep its digest elsewhere too. */
  signoffHead: { id: string; recordDigest: string; sequence: number } | null;
  evidenceFiles: number;
  /** True when there is no problem. */
  ok: boolean;
}

/**
 * Re-hashes an archive and reports every changed, missing, extra or unreadable file, and what
 * writers left behind.
 *
 * - each record must parse, carry its own file name's id, and have a fingerprint that matches
 *   its items (so an edited label or stratum is caught); its `counts` and `strata` must be the
 *   ones its items give; its `recordDigest` must match its content (so an edited date, an item's
 *   `added`, `source` or `bytes` is caught); a record without a digest (frozen by an older
 *   benchplan) gets a note, not a problem; and the parent it names must still have the
 *   fingerprint (and record digest) it had when this version was rotated from it;
 * - the hash chain (format-3 records): `head.json` names the newest version and its digest;
 *   from there each record's `previous` must name an existing record whose digest is the one
 *   recorded, with the sequence one lower, down to the first (sequence 1). A deleted record
 *   (even one whose contents other versions share), a replaced one (edited and re-digested) or
 *   a re-ordered chain breaks a link; a record the chain does not reach was inserted. Records
 *   frozen before the chain get a note: their deletion cannot be detected;
 * - each object's SHA-256 must equal its file name, its size the `bytes` its items record, and
 *   every object a record names must exist. An object that is not a regular file (FIFO, device,
 *   link) is a problem and is never opened; files are opened with O_NONBLOCK and fstat-ed, so
 *   nothing blocks. Objects are hashed in 1 MiB chunks; one larger than MAX_ITEM_BYTES, or whose
 *   size differs from what an intact record says, is changed and is not read;
 * - leftovers are listed, not failed: temporary files `.NAME.PID.K.tmp` (of a writer that died:
 *   interrupted; of a running one: in progress), locks (stale or live), intact objects no
 *   version refers to, and a head.json whose record a dead writer never linked;
 * - for the whole archive, each sign-off is checked (verifySignoff) and the sign-off chain is
 *   walked from `signoffs/head.json` (verifySignoffChain): a deleted, replaced or re-ordered
 *   sign-off, or a chained one the walk never reaches, is a problem naming its file;
 * - for the whole archive (no `version`), any other file is extra: a file with a foreign name,
 *   a symbolic link (never followed), a folder or FIFO where a file belongs.
 *
 * A record or object the file system will not let us read is a problem (`unreadable`, with the
 * error code), not an error: it is part of the archive's content.
 * Cost: O(total bytes in the archive) to hash, O(1 MiB) memory for it.
 * Objects are hashed on this thread and, for records of PARALLEL_MIN_RECORD_BYTES or more when a
 * core is likely free (coreToSpare: 1-minute load below cores + 1), one worker thread that also lists objects/ while the records are
 * read (ObjectHasher); anything but an intact object is re-checked on this thread, so the result
 * is the same, byte for byte, whatever the threads (tests/rotation/verify-threads.test.ts).
 * @param options.version check only this version's record and objects (and its chain links).
 * @param options.threads 1 or 2 to choose instead of deciding from the records' size and the load.
 * @returns the problems in a stable order (stray top-level files, then records, then objects,
 *   each by path), notes, leftovers and the head.
 * @throws {InputError} when there is no archive at `archiveDir`, `version` is a bad id or not in
 *   the archive, or the archive's folders cannot be listed (the path and the error code).
 * @example verifyArchive('out/archive') // => { ok: true, versions: ['2026Q3', '2026Q4'], items: 200, objects: 101, problems: [], notes: [], leftovers: [], head: { version: '2026Q4', sequence: 2, … }, … } (after the demo)
 */
export function verifyArchive(archiveDir: string, options: { version?: string; threads?: 1 | 2 } = {}): VerifyResult {
  const held: { hasher: ObjectHasher | null } = { hasher: null };
  try {
    return verifyWith(archiveDir, options, held);
  } finally {
    held.hasher?.stop(); // also when an error is thrown: no worker outlives the call
  }
}

function verifyWith(archiveDir: string, options: { version?: string; threads?: 1 | 2 }, held: { hasher: ObjectHasher | null }): VerifyResult {
  const only = options.version === undefined ? null : checkVersionId(options.version);
  const { objects, versions } = archiveFolders(archiveDir);
  const topProblems: ArchiveProblem[] = [];
  const recordProblems: ArchiveProblem[] = [];
  const notes: string[] = [];
  const leftovers: ArchiveLeftover[] = [];
  const records = new Map<string, VersionRecord>();
  /** Records whose digest matches: their `bytes` can be trusted to judge an object by its size. */
  const intact = new Set<string>();
  /** Every record's digest as computed now (also for records read only as parents or chain links). */
  const digests = new Map<string, string>();

  const versionFiles = listFolder(versions);
  // Objects are hashed while the records are checked (issue 33): on this thread and, when the
  // records are large, one worker thread (ObjectHasher), which starts now and lists objects/ (after
  // versions/, as before: every object a listed record names was written before it) while this
  // thread reads the records.
  let recordBytes = 0;
  for (const [name, stat] of versionFiles) if (only === null || name === `${only}.json`) recordBytes += stat.size;
  const threads = options.threads ?? (recordBytes >= PARALLEL_MIN_RECORD_BYTES && coreToSpare() ? 2 : 1);
  const hasher = (held.hasher = new ObjectHasher(threads === 2));
  if (only === null) hasher.listEarly(objects);
  const lockFiles = listFolder(join(archiveDir, 'locks'));
  const foreign = foreignWriterPids(archiveDir);
  const pendingSignoffFile = only === null ? (pendingSignoff(archiveDir)?.temporary ?? null) : null;

  /** A temporary file is a leftover: interrupted when its writer is gone, in progress when it runs. */
  const temporary = (path: string, name: string, stat: Stats): boolean => {
    const pid = temporaryFileWriter(name);
    if (pid === null || !stat.isFile()) return false;
    if (path === pendingSignoffFile) return true; // reported with the sign-off chain below
    if (isDeadWriter(pid, foreign)) leftovers.push({ kind: 'interrupted', path, detail: `a temporary file of a write that was interrupted (its writer, PID ${pid}, is not running); ${REMOVED_BY}` });
    else leftovers.push({ kind: 'in-progress', path, detail: `a temporary file of a write in progress (PID ${pid} is running${foreign.has(pid) ? ' on another host' : ''})` });
    return true;
  };

  if (only === null) {
    const top = listFolder(archiveDir);
    for (const name of [...top.keys()].sort(compareIds)) {
      const stat = top.get(name) as Stats;
      if (name === 'objects' || name === 'versions') continue;
      if (name === 'locks' && stat.isDirectory()) continue;
      if (name === SIGNOFF_FOLDER && stat.isDirectory()) continue;
      if (name === PLAN_FOLDER && stat.isDirectory()) continue;
      if (name === ARCHIVE_HEAD_FILE && stat.isFile()) continue;
      if (temporary(name, name, stat)) continue;
      topProblems.push({ kind: 'extra', path: name, detail: 'not part of the archive layout (objects/, versions/, locks/, signoffs/, plans/, head.json)' });
    }
    for (const name of [...lockFiles.keys()].sort(compareIds)) {
      const path = `locks/${name}`;
      const stat = lockFiles.get(name) as Stats;
      if (temporary(path, name, stat)) continue;
      const isLockName = name.endsWith('.lock') || name.endsWith('.break');
      const state = isLockName ? readLock(join(archiveDir, path)) : null;
      if (isLockName && stat.isFile() && state === null) continue; // released while we listed
      if (!stat.isFile() || !state?.owner) {
        topProblems.push({ kind: 'extra', path, detail: stat.isFile() ? 'not a lock file' : 'not a regular file' });
        continue;
      }
      if (state.stale) leftovers.push({ kind: 'stale-lock', path, detail: `a lock left by a writer that died (${describeLockOwner(state.owner)}); the next writer removes it` });
      else leftovers.push({ kind: 'in-progress', path, detail: `held by ${describeLockOwner(state.owner)}: a freeze, rotate --apply or signoff at work` });
    }
  }

  const idsToRead: string[] = [];
  if (only !== null) {
    if (!versionFiles.has(`${only}.json`)) throw new InputError(`version "${only}" is not in the archive ${archiveDir}`, { file: '--version', value: only });
    idsToRead.push(only);
  } else {
    for (const name of [...versionFiles.keys()].sort(compareIds)) {
      const id = name.endsWith('.json') ? name.slice(0, -5) : '';
      if (id === '' || !VERSION_ID_PATTERN.test(id) || id.includes('..')) {
        if (temporary(`versions/${name}`, name, versionFiles.get(name) as Stats)) continue;
        recordProblems.push({ kind: 'extra', path: `versions/${name}`, detail: 'not a version record name (<id>.json)' });
      } else idsToRead.push(id);
    }
  }

  let items = 0;
  let hashed = 0;
  const objectProblems: ArchiveProblem[] = [];
  let head: VerifyResult['head'] = null;
  let unread = 0;
  for (const id of idsToRead) {
    const read = readRecord(versions, id, versionFiles.get(`${id}.json`) as Stats);
    if ('problem' in read) {
      recordProblems.push(read.problem);
      unread += 1;
      continue;
    }
    records.set(id, read.record);
  }

  // Per content hash: the items that use it, the size they all give it, and whether the object is
  // on disk; one Map lookup per item and one per object (issue 33).
  const users = new Map<string, ObjectUsers>();
  for (const record of records.values()) {
    items += record.items.length;
    for (const x of record.items) {
      const group = users.get(x.sha256);
      const user = { version: record.version, item: x.item, bytes: x.bytes };
      if (!group) users.set(x.sha256, { list: [user], bytes: x.bytes, onDisk: false });
      else {
        if (group.bytes !== x.bytes) group.bytes = NO_FAST_PATH;
        group.list.push(user);
      }
    }
  }
  // The entries of objects/ that are not regular files by their folder entry, with their lstat
  // (null for a regular file), and the names to look at, sorted by UTF-16 code units (the default
  // sort, as compareIds, without a call per comparison). From the worker's listing, only the few
  // entries that are not regular files are looked up (an entry removed meanwhile is left out, as
  // listFolder does); without it, objects/ is listed here.
  const listed = hasher.takeListing();
  let names: readonly string[];
  let objectFiles: Map<string, Stats | null>;
  if (listed) {
    objectFiles = folderFromListing(objects, listed.others);
    names = objectFiles.size === listed.others.length ? listed.names : listed.names.filter((h) => !listed.others.includes(h) || objectFiles.has(h));
  } else {
    objectFiles = listFolder(objects, { regularByEntry: true });
    names = only !== null ? [...users.keys()].filter((h) => objectFiles.has(h)).sort() : [...objectFiles.keys()].sort();
  }
  // Per name: its users and its lstat (one look-up each, kept for the loop below); and the objects
  // that loop hashes (a user's name or a content hash; a regular file by its entry), with the size
  // every record gives each: hashed now, while the records are checked.
  const groupOf: Array<ObjectUsers | undefined> = new Array(names.length);
  const statOf: Array<Stats | null> = new Array(names.length);
  const toHash: string[] = [];
  const expected = new Float64Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const group = users.get(name);
    const stat = objectFiles.get(name) ?? null;
    groupOf[i] = group;
    statOf[i] = stat;
    if (group) group.onDisk = true;
    if (!group && !isSha256Hex(name)) continue;
    if (stat !== null && !stat.isFile()) continue;
    expected[toHash.length] = group ? group.bytes : ANY_SIZE;
    toHash.push(name);
  }
  const objectsPrefix = join(objects, '_').slice(0, -1); // join(objects, name) for a plain name, built once
  hasher.start(objectsPrefix, toHash, expected, MAX_ITEM_BYTES);

  for (const record of records.values()) {
    const id = record.version;
    const path = `versions/${id}.json`;
    const issues = versionRecordIssues(record);
    for (const issue of issues) recordProblems.push({ kind: 'changed', path, detail: issue.detail });
    if (record.recordDigest === undefined) notes.push(`${path}: no record digest (frozen by an older benchplan): an edit of its date, counts or an item's added, source or bytes cannot be detected`);
    else if (!issues.some((i) => i.field === 'recordDigest')) intact.add(id);
    if (record.format !== VERSION_RECORD_FORMAT && only === null) notes.push(`${path}: not in the archive's hash chain (frozen by an older benchplan): its deletion or replacement cannot be detected`);
    // A link compares with the digest the record carries: an edit that left it behind is the record's own problem, reported above.
    digests.set(id, record.recordDigest ?? versionRecordDigest(record));
  }

  /** A record read only to check a link (`--version`): its digest, fingerprint and sequence, or undefined. */
  const other = (id: string): VersionRecord | undefined => {
    const known = records.get(id);
    if (known) return known;
    const stat = versionFiles.get(`${id}.json`);
    if (!stat) return undefined;
    const read = readRecord(versions, id, stat);
    if (!('record' in read)) return undefined;
    digests.set(id, read.record.recordDigest ?? versionRecordDigest(read.record));
    return read.record;
  };

  // Lineage: a version's parent must still be the version it was rotated from.
  for (const record of records.values()) {
    if (!record.parent) continue;
    const parentPath = `versions/${record.parent.version}.json`;
    const parent = other(record.parent.version);
    if (!versionFiles.has(`${record.parent.version}.json`)) {
      recordProblems.push({ kind: 'missing', path: parentPath, detail: `version ${record.version} was rotated from it` });
    } else if (parent && parent.fingerprint !== record.parent.fingerprint) {
      recordProblems.push({ kind: 'changed', path: parentPath, detail: `its fingerprint is not the one version ${record.version} recorded when rotated from it (${record.parent.fingerprint.slice(0, 12)}…)` });
    } else if (parent && record.parent.recordDigest !== undefined && digests.get(parent.version) !== record.parent.recordDigest) {
      recordProblems.push({ kind: 'changed', path: parentPath, detail: `its record digest is not the one version ${record.version} recorded when rotated from it (${record.parent.recordDigest.slice(0, 12)}…): the record was replaced` });
    }
  }

  // The hash chain.
  const chainLink = (from: string, link: ChainLink, sequence: number): VersionRecord | null => {
    const path = `versions/${link.version}.json`;
    if (!versionFiles.has(`${link.version}.json`)) {
      recordProblems.push({ kind: 'missing', path, detail: `${from} names it as the version frozen before (the archive's hash chain, sequence ${sequence})` });
      return null;
    }
    const record = other(link.version);
    if (!record) return null; // its own problem is reported
    if (record.format !== VERSION_RECORD_FORMAT || digests.get(link.version) !== link.recordDigest) {
      recordProblems.push({ kind: 'changed', path, detail: `recordDigest: not the record ${from} chained to (recorded ${link.recordDigest.slice(0, 12)}…): it was replaced` });
    } else if (record.sequence !== sequence) {
      recordProblems.push({ kind: 'changed', path, detail: `sequence is ${record.sequence}, but ${from} puts it at ${sequence}: the chain was re-ordered` });
    }
    return record;
  };
  if (only !== null) {
    const record = records.get(only);
    if (record?.previous) chainLink(`versions/${only}.json`, record.previous, (record.sequence as number) - 1);
  } else {
    const chained = [...records.values()].filter((r) => r.format === VERSION_RECORD_FORMAT);
    const headRead = readArchiveHead(archiveDir);
    const visited = new Set<string>();
    let start: { from: string; link: ChainLink; sequence: number } | null = null;
    if ('problem' in headRead) {
      topProblems.push({ kind: 'changed', path: ARCHIVE_HEAD_FILE, detail: headRead.problem });
    } else if ('absent' in headRead) {
      if (chained.length > 0) topProblems.push({ kind: 'missing', path: ARCHIVE_HEAD_FILE, detail: `names the newest version of the hash chain (${chained.length} chained record${chained.length === 1 ? '' : 's'})` });
    } else {
      const h = headRead.head;
      head = { version: h.version, recordDigest: h.recordDigest, sequence: h.sequence };
      if (!versionFiles.has(`${h.version}.json`)) {
        const lock = readLock(join(archiveDir, versionLockPath(h.version)));
        let linkedMeanwhile = false;
        try {
          linkedMeanwhile = lstatSync(join(versions, `${h.version}.json`)).isFile();
        } catch {
          // still not there
        }
        if (linkedMeanwhile) {
          // A writer committed after we listed the records: judge the chain up to the one before it.
          leftovers.push({ kind: 'in-progress', path: `versions/${h.version}.json`, detail: 'committed while verify ran (not checked; run verify again)' });
          head = h.previous ? { ...h.previous, sequence: h.sequence - 1 } : null;
          if (h.previous) start = { from: ARCHIVE_HEAD_FILE, link: h.previous, sequence: h.sequence - 1 };
        } else if (lock?.owner) {
          leftovers.push({ kind: lock.stale ? 'interrupted' : 'in-progress', path: ARCHIVE_HEAD_FILE, detail: `names ${h.version}, whose freeze ${lock.stale ? 'died before linking its record (the next freeze rolls the head back)' : 'is at work (committing it, or re-running after an interrupted commit)'}` });
          head = h.previous ? { ...h.previous, sequence: h.sequence - 1 } : null;
          if (h.previous) start = { from: ARCHIVE_HEAD_FILE, link: h.previous, sequence: h.sequence - 1 };
        } else {
          topProblems.push({ kind: 'missing', path: `versions/${h.version}.json`, detail: `${ARCHIVE_HEAD_FILE} names it as the newest version (sequence ${h.sequence})` });
          if (h.previous) start = { from: `${ARCHIVE_HEAD_FILE} (as the one before ${h.version})`, link: h.previous, sequence: h.sequence - 1 };
        }
      } else start = { from: ARCHIVE_HEAD_FILE, link: { version: h.version, recordDigest: h.recordDigest }, sequence: h.sequence };
    }
    // Walk from the head down; across a deleted record, carry on from the one the chain says came before it.
    const bySequence = new Map<number, VersionRecord[]>();
    for (const r of chained) {
      const list = bySequence.get(r.sequence as number) ?? [];
      list.push(r);
      bySequence.set(r.sequence as number, list);
    }
    while (start) {
      const record = chainLink(start.from, start.link, start.sequence);
      let next: VersionRecord | undefined = record ?? undefined;
      if (!record) {
        const candidates = (bySequence.get(start.sequence - 1) ?? []).filter((r) => !visited.has(r.version));
        next = candidates.length === 1 ? candidates[0] : undefined;
        if (next) visited.add(next.version);
        if (!next) break;
      } else {
        if (visited.has(record.version)) break; // a loop: reported as a replaced record
        visited.add(record.version);
      }
      const n = next as VersionRecord;
      start = n.previous ? { from: `versions/${n.version}.json`, link: n.previous, sequence: (n.sequence as number) - 1 } : null;
    }
    for (const r of chained) {
      if (!visited.has(r.version)) recordProblems.push({ kind: 'changed', path: `versions/${r.version}.json`, detail: `not in the archive's hash chain: no later version and not ${ARCHIVE_HEAD_FILE} lead to it (sequence ${r.sequence}); it was inserted, or the record after it replaced` });
    }
  }

  // Objects: every referenced one present, of its recorded size and intact; in a whole-archive check, no others.
  const hashes = hasher.finish();
  let next = 0; // the place in toHash of the next object that reaches the hash below
  // The per-object work below is what 10⁵ items multiply (issue 33): no string, object or regular
  // expression per object beyond a look-up unless something is wrong.
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const path = `objects/${name}`;
    // null: a regular file by its folder entry, not lstat-ed (the hash's fstat checks it and its size).
    const stat = statOf[i] as Stats | null;
    // A name a record uses is a content hash (the record's schema checked it), so only others are tested.
    const who = groupOf[i]?.list;
    if (!who && !isSha256Hex(name)) {
      if (temporary(path, name, stat ?? REGULAR)) continue;
      objectProblems.push({ kind: 'extra', path, detail: 'not a content hash' });
      continue;
    }
    const kindIfBad = who ? 'changed' : 'extra';
    if (stat !== null && !stat.isFile()) {
      objectProblems.push({ kind: kindIfBad, path, detail: `${stat.isSymbolicLink() ? 'a symbolic link (never followed)' : `not a regular file (${fileKind(stat)}; never opened)`}${ofUser(who)}` });
      continue;
    }
    const at = next++;
    let digest: { sha256: string; bytes: number };
    if (toHash[at] === name && hashes.status[at] === INTACT) {
      // Regular, of the size every record gives it (when any does), and its SHA-256 is its name.
      digest = { sha256: name, bytes: hashes.bytes[at] as number };
    } else {
      // Anything else is re-checked here as one thread would: the first user in an intact record gives the size it must have.
      const trusted = who?.find((u) => intact.has(u.version));
      try {
        digest = sha256File(objectsPrefix + name, trusted ? { followLinks: false, maxBytes: MAX_ITEM_BYTES, regularOnly: true, expectBytes: trusted.bytes } : UNTRUSTED_OBJECT);
      } catch (error) {
        const e = error as NodeJS.ErrnoException & { size?: number; whileReading?: boolean };
        const code = e.code;
        if (code === 'ETOOBIG' && !e.whileReading) objectProblems.push({ kind: kindIfBad, path, detail: `${e.size} bytes, more than an item may hold (${MAX_ITEM_BYTES}); not read${ofUser(who)}` });
        else if (code === 'ETOOBIG') objectProblems.push({ kind: kindIfBad, path, detail: `grew past ${MAX_ITEM_BYTES} bytes while being read${ofUser(who)}` });
        else if (code === 'ESIZE' && trusted) objectProblems.push({ kind: 'changed', path, detail: `${e.size} bytes, but item ${trusted.item} of ${trusted.version} records ${trusted.bytes}; not read` });
        else if (code === 'ENOTREG' || code === 'ELOOP') objectProblems.push({ kind: kindIfBad, path, detail: stat === null ? `not a regular file (${code === 'ELOOP' ? 'a symbolic link, never followed' : 'never read'})${ofUser(who)}` : `not a regular file (replaced while verify ran; never read)${ofUser(who)}` });
        else objectProblems.push({ kind: 'unreadable', path, detail: `cannot be read: ${code ?? String(error)}${ofUser(who)}` });
        continue;
      }
    }
    hashed += 1;
    if (digest.sha256 !== name) {
      objectProblems.push({ kind: 'changed', path, detail: `its content hash is now ${digest.sha256.slice(0, 12)}…${ofUser(who)}` });
      continue;
    }
    if (!who) {
      if (unread > 0) objectProblems.push({ kind: 'extra', path, detail: 'no version that still reads refers to it' });
      else leftovers.push({ kind: 'unreferenced', path, detail: 'intact, but no version refers to it: left by a freeze that failed or was killed after writing it (contents are never deleted, as another writer may share them); a freeze of a version holding it adopts it' });
      continue;
    }
    // The object is intact, so its size is the content's true size: a record saying otherwise was edited.
    for (const u of who) {
      if (u.bytes !== digest.bytes) recordProblems.push({ kind: 'changed', path: `versions/${u.version}.json`, detail: `item ${u.item} records ${u.bytes} bytes, but its content (${path}, intact) has ${digest.bytes}` });
    }
  }
  // Every name on disk a record uses is in names (so marked onDisk above), listed here or by the worker.
  for (const [hash, { list: who, onDisk }] of users) {
    if (!onDisk) objectProblems.push({ kind: 'missing', path: `objects/${hash}`, detail: `item ${who[0].item} of ${who[0].version}` });
  }
  // Sign-offs: each record intact, its version unchanged, its evidence files unchanged where they still are.
  const signoffs: string[] = [];
  let evidenceFiles = 0;
  let signoffHead: VerifyResult['signoffHead'] = null;
  if (only === null) {
    // A link in place of the folder is reported as extra above and never followed.
    let folder: Stats | null = null;
    try {
      folder = lstatSync(join(archiveDir, SIGNOFF_FOLDER));
    } catch {
      folder = null;
    }
    const files = folder?.isDirectory() ? listFolder(join(archiveDir, SIGNOFF_FOLDER)) : new Map<string, Stats>();
    for (const name of [...files.keys()].sort(compareIds)) {
      const path = `${SIGNOFF_FOLDER}/${name}`;
      if (name === SIGNOFF_HEAD_FILE) continue; // the sign-off chain's head, walked below
      const id = name.endsWith('.json') ? name.slice(0, -5) : '';
      if (id === '' || !VERSION_ID_PATTERN.test(id) || id.includes('..')) {
        if (temporary(path, name, files.get(name) as Stats)) continue;
        recordProblems.push({ kind: 'extra', path, detail: 'not a sign-off record name (<id>.json)' });
        continue;
      }
      const check = verifySignoff(archiveDir, id, digests);
      signoffs.push(id);
      evidenceFiles += check.evidenceChecked;
      recordProblems.push(...check.problems);
      notes.push(...check.notes);
    }
    // The chain: a deleted, replaced or re-ordered sign-off, or one outside the chain.
    if (folder?.isDirectory()) {
      const chain = verifySignoffChain(archiveDir, signoffs);
      if (chain.interrupted) leftovers.push({ kind: 'interrupted', path: chain.interrupted.path, detail: `the record of sign-off ${chain.interrupted.id}, whose commit was interrupted after ${SIGNOFF_FOLDER}/${SIGNOFF_HEAD_FILE} named it (its writer, PID ${chain.interrupted.pid}, is not running); the next signoff on this archive links it into place` });
      recordProblems.push(...chain.problems);
      notes.push(...chain.notes);
      signoffHead = chain.head;
    }
  }
  // Plans: each intact (its shape, its id, its record digest); a sign-off made under one checks its digest too.
  const plans: string[] = [];
  if (only === null) {
    const files = listFolder(join(archiveDir, PLAN_FOLDER));
    for (const name of [...files.keys()].sort(compareIds)) {
      const path = `${PLAN_FOLDER}/${name}`;
      const stat = files.get(name) as Stats;
      const id = name.endsWith('.json') ? name.slice(0, -5) : '';
      if (id === '' || !VERSION_ID_PATTERN.test(id) || id.includes('..')) {
        if (temporary(path, name, stat)) continue;
        recordProblems.push({ kind: 'extra', path, detail: 'not a plan record name (<id>.json)' });
        continue;
      }
      if (!stat.isFile()) {
        recordProblems.push({ kind: 'extra', path, detail: stat.isSymbolicLink() ? 'a symbolic link (never followed)' : `not a regular file (${fileKind(stat)}; never opened)` });
        continue;
      }
      plans.push(id);
      recordProblems.push(...verifyPlan(archiveDir, id).problems);
    }
  }
  // Stable sorts: a record's own problems stay in the order they were found.
  topProblems.sort((a, b) => compareIds(a.path, b.path));
  recordProblems.sort((a, b) => compareIds(a.path, b.path));
  objectProblems.sort((a, b) => compareIds(a.path, b.path));
  leftovers.sort((a, b) => compareIds(a.path, b.path));
  const problems = [...topProblems, ...recordProblems, ...objectProblems];

  return {
    archive: archiveDir,
    version: only,
    versions: [...records.keys()],
    objects: hashed,
    items,
    problems,
    notes,
    leftovers,
    head,
    signoffs,
    plans,
    signoffHead,
    evidenceFiles,
    ok: problems.length === 0,
  };
}

/** ` (item ITEM of VERSION)` naming an object's first user, for a problem's detail; empty for an object no record names. */
function ofUser(who: ReadonlyArray<{ version: string; item: string }> | undefined): string {
  return who ? ` (item ${who[0].item} of ${who[0].version})` : '';
}

/** What kind of file a non-regular entry is, in words. */
function fileKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a file';
}

/** Reads one record for verify: a problem (not an error) when it is a link, too large, unreadable or malformed. */
function readRecord(versions: string, id: string, stat: Stats): { record: VersionRecord } | { problem: ArchiveProblem } {
  const path = `versions/${id}.json`;
  if (!stat.isFile()) return { problem: { kind: 'extra', path, detail: stat.isSymbolicLink() ? 'a symbolic link (never followed)' : `not a regular file (${fileKind(stat)}; never opened)` } };
  if (stat.size > MAX_RECORD_BYTES) return { problem: { kind: 'changed', path, detail: `${stat.size} bytes, more than a version record may hold (${MAX_RECORD_BYTES}); not read` } };
  let text: string;
  try {
    text = readVersionRecordText(join(versions, `${id}.json`));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { problem: { kind: 'unreadable', path, detail: error.message.replace(`${join(versions, `${id}.json`)}: `, '') } };
  }
  try {
    return { record: parseVersionRecord(text, path, id) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { problem: { kind: 'changed', path, detail: `the record no longer reads: ${error.message.replace(`${path}: `, '')}` } };
  }
}


/**
 * The lstat of each entry a listing made elsewhere (ObjectHasher.listEarly) found not to be a
 * regular file by its folder entry, as listFolder gives them; one removed meanwhile is left out.
 * @throws {InputError} as listFolder.
 */
function folderFromListing(path: string, others: readonly string[]): Map<string, Stats | null> {
  const out = new Map<string, Stats | null>();
  for (const name of others) addLstat(out, path, name);
  return out;
}

/**
 * Puts the lstat of folder entry `name` into `out`; an entry removed since the folder was listed is
 * left out.
 * @throws {InputError} naming the entry and the error code for any other failure.
 */
function addLstat(out: Map<string, Stats | null>, path: string, name: string): void {
  try {
    out.set(name, lstatSync(join(path, name)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // removed while we listed
    throw new InputError(`cannot read the folder's entries: ${code ?? String(error)}`, { file: join(path, name) });
  }
}

/**
 * A folder's entries with their lstat (links are not followed); empty when the folder is absent.
 * @throws {InputError} naming the folder and the error code when it cannot be listed.
 */
function listFolder(path: string): Map<string, Stats>;
function listFolder(path: string, options: { regularByEntry: true }): Map<string, Stats | null>;
function listFolder(path: string, options: { regularByEntry?: boolean } = {}): Map<string, Stats | null> {
  const out = new Map<string, Stats | null>();
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return out;
    throw new InputError(`cannot list the folder: ${code ?? String(error)}`, { file: path });
  }
  for (const entry of entries) {
    const name = entry.name;
    // With regularByEntry, a regular file by its folder entry (d_type) is not lstat-ed: the caller
    // opens it without following links or blocking and fstat-s it (one system call fewer per object).
    if (options.regularByEntry && entry.isFile()) {
      out.set(name, null);
      continue;
    }
    addLstat(out, path, name);
  }
  return out;
}
