import { join } from 'node:path';
import { CheckFailed, InputError } from '../data/errors.js';
import { readArchiveVersion, type VersionRecord } from './archive.js';
import { assertVersionIntact, versionRecordIssues, type RecordIssue } from './record-check.js';
import { versionRecordDigest } from './record-digest.js';

/**
 * Refuses a version to build on whose links are broken: the parent it was rotated from and the
 * version frozen before it (the hash chain) must be in the archive with the record digests (and
 * the parent's fingerprint) it recorded. Records frozen before these fields carry no links to check.
 * @throws {CheckFailed} naming the record file and the field (`parent.recordDigest`, `previous.recordDigest`, …).
 * @example assertVersionLinks('out/archive', readArchiveVersion('out/archive', '2026Q4')) // => undefined (links intact)
 */
export function assertVersionLinks(archiveDir: string, record: VersionRecord): void {
  const file = join(archiveDir, 'versions', `${record.version}.json`);
  const links: Array<{ field: string; version: string; recordDigest?: string; fingerprint?: string; what: string }> = [];
  if (record.parent) links.push({ field: 'parent', version: record.parent.version, fingerprint: record.parent.fingerprint, what: 'rotated from', ...(record.parent.recordDigest !== undefined ? { recordDigest: record.parent.recordDigest } : {}) });
  if (record.previous) links.push({ field: 'previous', version: record.previous.version, recordDigest: record.previous.recordDigest, what: 'frozen after (the hash chain)' });
  for (const link of links) {
    const other = join(archiveDir, 'versions', `${link.version}.json`);
    let linked: VersionRecord;
    try {
      linked = readArchiveVersion(archiveDir, link.version, `${file}: ${link.field}.version`);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw new CheckFailed(`${file}: ${link.field}.version: names ${link.version}, which it was ${link.what}, but that record is missing or does not read (${error.message}); refusing to build on it: run benchplan verify`);
    }
    const issues = versionRecordIssues(linked);
    if (issues.length > 0) throw new CheckFailed(`${other}: ${(issues[0] as RecordIssue).field}: ${(issues[0] as RecordIssue).detail} (the version ${file} was ${link.what}); refusing to build on it: run benchplan verify`);
    if (link.fingerprint !== undefined && linked.fingerprint !== link.fingerprint) throw new CheckFailed(`${other}: fingerprint: not the one ${file} recorded for it (${link.fingerprint.slice(0, 12)}…); refusing to build on it: run benchplan verify`);
    if (link.recordDigest !== undefined && (linked.recordDigest ?? versionRecordDigest(linked)) !== link.recordDigest) throw new CheckFailed(`${other}: recordDigest: not the record ${file} recorded in ${link.field}.recordDigest (${link.recordDigest.slice(0, 12)}…): it was replaced; refusing to build on it: run benchplan verify`);
  }
}

/** `assertVersionIntact` and `assertVersionLinks` for one version read from the archive: what rotate and drift check before building on it. */
export function assertVersionSound(archiveDir: string, record: VersionRecord): void {
  assertVersionIntact(record, join(archiveDir, 'versions', `${record.version}.json`));
  assertVersionLinks(archiveDir, record);
}
