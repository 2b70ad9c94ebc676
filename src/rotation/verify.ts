import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../data/errors.js';
import { archiveFolders, parseVersionRecord, type VersionRecord } from './archive.js';
import { benchmarkFingerprint } from './fingerprint.js';
import { compareIds, isSha256Hex, sha256Hex } from './hash.js';
import { checkVersionId, VERSION_ID_PATTERN } from './version-id.js';

/** One thing wrong with an archive: a file that changed, is missing, or should not be there. */
export interface ArchiveProblem {
  kind: 'changed' | 'missing' | 'extra';
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
  /** True when there is no problem. */
  ok: boolean;
}

/**
 * Re-hashes an archive and reports every changed, missing or extra file.
 *
 * - each record must parse, carry its own file name's id, and have a fingerprint that matches
 *   its items (so an edited label or stratum is caught), and the parent it names must still
 *   have the fingerprint it had when this version was rotated from it;
 * - each object's SHA-256 must equal its file name, and every object a record names must exist;
 * - for the whole archive (no `version`), any other file is extra: a leftover temporary file,
 *   a file with a foreign name, a symbolic link (never followed), or an object no version refers
 *   to (an interrupted freeze leaves these; freezing again adopts them).
 *
 * Cost: O(total bytes in the archive) to hash.
 * @param options.version check only this version's record and objects.
 * @returns the problems in a stable order (records first, then objects, each by path).
 * @throws {InputError} when there is no archive at `archiveDir`, or `version` is a bad id or
 *   not in the archive.
 * @example verifyArchive('out/archive') // => { ok: true, versions: ['2026Q3', '2026Q4'], items: 200, objects: 101, problems: [], … } (after the demo)
 */
export function verifyArchive(archiveDir: string, options: { version?: string } = {}): VerifyResult {
  const only = options.version === undefined ? null : checkVersionId(options.version);
  const { objects, versions } = archiveFolders(archiveDir);
  const problems: ArchiveProblem[] = [];
  const records = new Map<string, VersionRecord>();

  const versionFiles = listFolder(versions);
  const objectFiles = listFolder(objects);

  if (only === null) {
    for (const name of [...listFolder(archiveDir).keys()].sort(compareIds)) {
      if (name !== 'objects' && name !== 'versions') problems.push({ kind: 'extra', path: name, detail: 'not part of the archive layout (objects/, versions/)' });
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
        problems.push({ kind: 'extra', path: `versions/${name}`, detail: name.startsWith('.') && name.endsWith('.tmp') ? 'a temporary file left by an interrupted write' : 'not a version record name (<id>.json)' });
      } else idsToRead.push(id);
    }
  }

  for (const id of idsToRead) {
    const path = `versions/${id}.json`;
    const stat = versionFiles.get(`${id}.json`) as Stats;
    if (!stat.isFile()) {
      problems.push({ kind: 'extra', path, detail: stat.isSymbolicLink() ? 'a symbolic link (never followed)' : 'not a regular file' });
      continue;
    }
    let record: VersionRecord;
    try {
      record = parseVersionRecord(readFileSync(join(versions, `${id}.json`), 'utf8'), path, id);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push({ kind: 'changed', path, detail: `the record no longer reads: ${error.message.replace(`${path}: `, '')}` });
      continue;
    }
    let computed: string;
    try {
      computed = benchmarkFingerprint(record.items, record.guideline);
    } catch (error) {
      problems.push({ kind: 'changed', path, detail: (error as Error).message });
      continue;
    }
    if (computed !== record.fingerprint) {
      problems.push({ kind: 'changed', path, detail: `its items no longer match its fingerprint (recorded ${record.fingerprint.slice(0, 12)}…, computed ${computed.slice(0, 12)}…)` });
    }
    records.set(id, record);
  }

  // The chain: a version's parent must still be the version it was rotated from.
  for (const record of records.values()) {
    if (!record.parent) continue;
    const parentPath = `versions/${record.parent.version}.json`;
    let parent = records.get(record.parent.version);
    if (!parent && only !== null && versionFiles.get(`${record.parent.version}.json`)?.isFile()) {
      try {
        parent = parseVersionRecord(readFileSync(join(versions, `${record.parent.version}.json`), 'utf8'), parentPath, record.parent.version);
      } catch {
        parent = undefined;
      }
    }
    if (!versionFiles.has(`${record.parent.version}.json`)) {
      problems.push({ kind: 'missing', path: parentPath, detail: `version ${record.version} was rotated from it` });
    } else if (parent && parent.fingerprint !== record.parent.fingerprint) {
      problems.push({ kind: 'changed', path: parentPath, detail: `its fingerprint is not the one version ${record.version} recorded when rotated from it (${record.parent.fingerprint.slice(0, 12)}…)` });
    }
  }

  // Objects: every referenced one present and intact; in a whole-archive check, no others.
  const referencedBy = new Map<string, string>();
  let items = 0;
  for (const record of records.values()) {
    items += record.items.length;
    for (const x of record.items) if (!referencedBy.has(x.sha256)) referencedBy.set(x.sha256, `item ${x.item} of ${record.version}`);
  }
  let hashed = 0;
  const objectProblems: ArchiveProblem[] = [];
  const names = only === null ? [...objectFiles.keys()] : [...referencedBy.keys()].filter((h) => objectFiles.has(h));
  for (const name of names.sort(compareIds)) {
    const path = `objects/${name}`;
    const stat = objectFiles.get(name) as Stats;
    if (!isSha256Hex(name)) {
      objectProblems.push({ kind: 'extra', path, detail: name.startsWith('.') && name.endsWith('.tmp') ? 'a temporary file left by an interrupted write' : 'not a content hash' });
      continue;
    }
    if (!stat.isFile()) {
      objectProblems.push({ kind: referencedBy.has(name) ? 'changed' : 'extra', path, detail: stat.isSymbolicLink() ? 'a symbolic link (never followed)' : 'not a regular file' });
      continue;
    }
    hashed += 1;
    const actual = sha256Hex(readFileSync(join(objects, name)));
    if (actual !== name) objectProblems.push({ kind: 'changed', path, detail: `its content hash is now ${actual.slice(0, 12)}…${referencedBy.has(name) ? ` (${referencedBy.get(name)})` : ''}` });
    else if (!referencedBy.has(name)) objectProblems.push({ kind: 'extra', path, detail: 'no version refers to it (left by an interrupted freeze?)' });
  }
  for (const [hash, who] of referencedBy) {
    if (!objectFiles.has(hash)) objectProblems.push({ kind: 'missing', path: `objects/${hash}`, detail: who });
  }
  objectProblems.sort((a, b) => compareIds(a.path, b.path));
  problems.push(...objectProblems);

  return {
    archive: archiveDir,
    version: only,
    versions: [...records.keys()],
    objects: hashed,
    items,
    problems,
    ok: problems.length === 0,
  };
}

/** A folder's entries with their lstat (links are not followed); empty when the folder is absent. */
function listFolder(path: string): Map<string, Stats> {
  const out = new Map<string, Stats>();
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw error;
  }
  for (const name of names) out.set(name, lstatSync(join(path, name)));
  return out;
}
