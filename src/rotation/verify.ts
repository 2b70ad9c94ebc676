import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../data/errors.js';
import { archiveFolders, MAX_RECORD_BYTES, parseVersionRecord, readVersionRecordText, versionCounts, versionStratumCounts, type VersionRecord } from './archive.js';
import { MAX_ITEM_BYTES } from './content.js';
import { benchmarkFingerprint } from './fingerprint.js';
import { compareIds, isSha256Hex, sha256File } from './hash.js';
import { versionRecordDigest } from './record-digest.js';
import { checkVersionId, VERSION_ID_PATTERN } from './version-id.js';

/** One thing wrong with an archive: a file that changed, is missing, should not be there, or cannot be read. */
export interface ArchiveProblem {
  kind: 'changed' | 'missing' | 'extra' | 'unreadable';
  /** The file, relative to the archive folder (`objects/<sha256>`, `versions/<id>.json`). */
  path: string;
  /** What is wrong, in words. */
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
  /** True when there is no problem. */
  ok: boolean;
}

/**
 * Re-hashes an archive and reports every changed, missing, extra or unreadable file.
 *
 * - each record must parse, carry its own file name's id, and have a fingerprint that matches
 *   its items (so an edited label or stratum is caught); its `counts` and `strata` must be the
 *   ones its items give; its `recordDigest` must match its content (so an edited date, an item's
 *   `added`, `source` or `bytes` is caught: accidental edits, not a forger who recomputes the
 *   digest); a record without a digest (frozen by an older benchplan) gets a note, not a
 *   problem; and the parent it names must still have the fingerprint it had when this version
 *   was rotated from it;
 * - each object's SHA-256 must equal its file name, its size the `bytes` its items record, and
 *   every object a record names must exist. Objects are hashed in 1 MiB chunks. One larger than
 *   MAX_ITEM_BYTES, or whose size differs from what an intact record (digest checked) says, is
 *   changed and is not read;
 * - for the whole archive (no `version`), any other file is extra: a leftover temporary file,
 *   a file with a foreign name, a symbolic link (never followed), or an object no version refers
 *   to (an interrupted freeze leaves these; freezing again adopts them).
 *
 * A record or object the file system will not let us read is a problem (`unreadable`, with the
 * error code), not an error: it is part of the archive's content.
 * Cost: O(total bytes in the archive) to hash, O(1 MiB) memory for it.
 * @param options.version check only this version's record and objects.
 * @returns the problems in a stable order (stray top-level files, then records, then objects,
 *   each by path), and notes.
 * @throws {InputError} when there is no archive at `archiveDir`, `version` is a bad id or not in
 *   the archive, or the archive's folders cannot be listed (the path and the error code).
 * @example verifyArchive('out/archive') // => { ok: true, versions: ['2026Q3', '2026Q4'], items: 200, objects: 101, problems: [], notes: [], … } (after the demo)
 */
export function verifyArchive(archiveDir: string, options: { version?: string } = {}): VerifyResult {
  const only = options.version === undefined ? null : checkVersionId(options.version);
  const { objects, versions } = archiveFolders(archiveDir);
  const topProblems: ArchiveProblem[] = [];
  const recordProblems: ArchiveProblem[] = [];
  const notes: string[] = [];
  const records = new Map<string, VersionRecord>();
  /** Records whose digest matches: their `bytes` can be trusted to judge an object by its size. */
  const intact = new Set<string>();

  const versionFiles = listFolder(versions);
  const objectFiles = listFolder(objects);

  if (only === null) {
    for (const name of [...listFolder(archiveDir).keys()].sort(compareIds)) {
      if (name !== 'objects' && name !== 'versions') topProblems.push({ kind: 'extra', path: name, detail: 'not part of the archive layout (objects/, versions/)' });
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
        recordProblems.push({ kind: 'extra', path: `versions/${name}`, detail: isTempName(name) ? 'a temporary file left by an interrupted write' : 'not a version record name (<id>.json)' });
      } else idsToRead.push(id);
    }
  }

  let unread = 0;
  for (const id of idsToRead) {
    const path = `versions/${id}.json`;
    const read = readRecord(versions, id, versionFiles.get(`${id}.json`) as Stats);
    if ('problem' in read) {
      recordProblems.push(read.problem);
      unread += 1;
      continue;
    }
    const record = read.record;
    for (const detail of recordContentProblems(record)) recordProblems.push({ kind: 'changed', path, detail });
    if (record.recordDigest === undefined) notes.push(`${path}: no record digest (frozen by an older benchplan): an edit of its date, counts or an item's added, source or bytes cannot be detected`);
    else {
      const computed = versionRecordDigest(record);
      if (computed === record.recordDigest) intact.add(id);
      else recordProblems.push({ kind: 'changed', path, detail: `the record was edited after it was frozen: its content no longer matches its record digest (recorded ${record.recordDigest.slice(0, 12)}…, computed ${computed.slice(0, 12)}…)` });
    }
    records.set(id, record);
  }

  // The chain: a version's parent must still be the version it was rotated from.
  for (const record of records.values()) {
    if (!record.parent) continue;
    const parentPath = `versions/${record.parent.version}.json`;
    const parentStat = versionFiles.get(`${record.parent.version}.json`);
    let parent = records.get(record.parent.version);
    if (!parent && only !== null && parentStat) {
      const read = readRecord(versions, record.parent.version, parentStat);
      parent = 'record' in read ? read.record : undefined;
    }
    if (!parentStat) {
      recordProblems.push({ kind: 'missing', path: parentPath, detail: `version ${record.version} was rotated from it` });
    } else if (parent && parent.fingerprint !== record.parent.fingerprint) {
      recordProblems.push({ kind: 'changed', path: parentPath, detail: `its fingerprint is not the one version ${record.version} recorded when rotated from it (${record.parent.fingerprint.slice(0, 12)}…)` });
    }
  }

  // Objects: every referenced one present, of its recorded size and intact; in a whole-archive check, no others.
  const users = new Map<string, Array<{ version: string; item: string; bytes: number }>>();
  let items = 0;
  for (const record of records.values()) {
    items += record.items.length;
    for (const x of record.items) {
      let list = users.get(x.sha256);
      if (!list) users.set(x.sha256, (list = []));
      list.push({ version: record.version, item: x.item, bytes: x.bytes });
    }
  }
  let hashed = 0;
  const objectProblems: ArchiveProblem[] = [];
  const names = only === null ? [...objectFiles.keys()] : [...users.keys()].filter((h) => objectFiles.has(h));
  for (const name of names.sort(compareIds)) {
    const path = `objects/${name}`;
    const stat = objectFiles.get(name) as Stats;
    if (!isSha256Hex(name)) {
      objectProblems.push({ kind: 'extra', path, detail: isTempName(name) ? 'a temporary file left by an interrupted write' : 'not a content hash' });
      continue;
    }
    const who = users.get(name);
    const kindIfBad = who ? 'changed' : 'extra';
    const of = who ? ` (item ${who[0].item} of ${who[0].version})` : '';
    if (!stat.isFile()) {
      objectProblems.push({ kind: kindIfBad, path, detail: `${stat.isSymbolicLink() ? 'a symbolic link (never followed)' : 'not a regular file'}${of}` });
      continue;
    }
    if (stat.size > MAX_ITEM_BYTES) {
      objectProblems.push({ kind: kindIfBad, path, detail: `${stat.size} bytes, more than an item may hold (${MAX_ITEM_BYTES}); not read${of}` });
      continue;
    }
    const trusted = who?.find((u) => intact.has(u.version));
    if (trusted && stat.size !== trusted.bytes) {
      objectProblems.push({ kind: 'changed', path, detail: `${stat.size} bytes, but item ${trusted.item} of ${trusted.version} records ${trusted.bytes}; not read` });
      continue;
    }
    let digest: { sha256: string; bytes: number };
    try {
      digest = sha256File(join(objects, name), { followLinks: false, maxBytes: MAX_ITEM_BYTES });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ETOOBIG') objectProblems.push({ kind: kindIfBad, path, detail: `grew past ${MAX_ITEM_BYTES} bytes while being read${of}` });
      else objectProblems.push({ kind: 'unreadable', path, detail: `cannot be read: ${code ?? String(error)}${of}` });
      continue;
    }
    hashed += 1;
    if (digest.sha256 !== name) {
      objectProblems.push({ kind: 'changed', path, detail: `its content hash is now ${digest.sha256.slice(0, 12)}…${of}` });
      continue;
    }
    if (!who) {
      objectProblems.push({ kind: 'extra', path, detail: unread > 0 ? 'no version that still reads refers to it' : 'no version refers to it (left by an interrupted freeze?)' });
      continue;
    }
    // The object is intact, so its size is the content's true size: a record saying otherwise was edited.
    for (const u of who) {
      if (u.bytes !== digest.bytes) recordProblems.push({ kind: 'changed', path: `versions/${u.version}.json`, detail: `item ${u.item} records ${u.bytes} bytes, but its content (${path}, intact) has ${digest.bytes}` });
    }
  }
  for (const [hash, who] of users) {
    if (!objectFiles.has(hash)) objectProblems.push({ kind: 'missing', path: `objects/${hash}`, detail: `item ${who[0].item} of ${who[0].version}` });
  }
  // Stable sorts: a record's own problems stay in the order they were found.
  recordProblems.sort((a, b) => compareIds(a.path, b.path));
  objectProblems.sort((a, b) => compareIds(a.path, b.path));
  const problems = [...topProblems, ...recordProblems, ...objectProblems];

  return {
    archive: archiveDir,
    version: only,
    versions: [...records.keys()],
    objects: hashed,
    items,
    problems,
    notes,
    ok: problems.length === 0,
  };
}

/**
 * What is wrong inside a record that parsed: a fingerprint its items no longer give, counts or
 * per-stratum counts its items do not add up to. Pure.
 */
function recordContentProblems(record: VersionRecord): string[] {
  const out: string[] = [];
  try {
    const computed = benchmarkFingerprint(record.items, record.guideline);
    if (computed !== record.fingerprint) out.push(`its items no longer match its fingerprint (recorded ${record.fingerprint.slice(0, 12)}…, computed ${computed.slice(0, 12)}…)`);
  } catch (error) {
    out.push((error as Error).message);
  }
  const counts = versionCounts(record.items);
  for (const key of ['items', 'eval', 'dev'] as const) {
    if (record.counts[key] !== counts[key]) out.push(`counts.${key} is ${record.counts[key]}, but its items give ${counts[key]}`);
  }
  const given = new Map<string, { eval: number; dev: number }>();
  for (const s of record.strata) {
    if (given.has(s.stratum)) out.push(`strata lists "${s.stratum}" twice`);
    else given.set(s.stratum, s);
  }
  const computed = versionStratumCounts(record.items);
  for (const s of computed) {
    const g = given.get(s.stratum);
    if (!g) out.push(`strata does not list "${s.stratum}" (its items give eval ${s.eval}, dev ${s.dev})`);
    else if (g.eval !== s.eval || g.dev !== s.dev) out.push(`strata: "${s.stratum}" is eval ${g.eval}, dev ${g.dev}, but its items give eval ${s.eval}, dev ${s.dev}`);
  }
  for (const name of given.keys()) if (!computed.some((s) => s.stratum === name)) out.push(`strata lists "${name}", which no item is in`);
  return out;
}

/** Reads one record for verify: a problem (not an error) when it is a link, too large, unreadable or malformed. */
function readRecord(versions: string, id: string, stat: Stats): { record: VersionRecord } | { problem: ArchiveProblem } {
  const path = `versions/${id}.json`;
  if (!stat.isFile()) return { problem: { kind: 'extra', path, detail: stat.isSymbolicLink() ? 'a symbolic link (never followed)' : 'not a regular file' } };
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

function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/**
 * A folder's entries with their lstat (links are not followed); empty when the folder is absent.
 * @throws {InputError} naming the folder and the error code when it cannot be listed.
 */
function listFolder(path: string): Map<string, Stats> {
  const out = new Map<string, Stats>();
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return out;
    throw new InputError(`cannot list the folder: ${code ?? String(error)}`, { file: path });
  }
  for (const name of names) {
    try {
      out.set(name, lstatSync(join(path, name)));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // removed while we listed
      throw new InputError(`cannot read the folder's entries: ${code ?? String(error)}`, { file: join(path, name) });
    }
  }
  return out;
}
