import { CheckFailed } from '../data/errors.js';
import type { VersionRecord } from './version-record.js';
import { benchmarkFingerprint } from './fingerprint.js';
import { versionRecordDigest } from './record-digest.js';
import { versionCounts, versionStratumCounts } from './version-counts.js';

/** One thing wrong inside a version record: the field and what is wrong with it. */
export interface RecordIssue {
  /** The field path, e.g. `recordDigest`, `counts.eval`, `strata`, `parent.recordDigest`. */
  field: string;
  detail: string;
}

/**
 * What is wrong inside a record that parsed, by field: a fingerprint its items no longer give
 * (an edited label, stratum, split or content hash), counts or per-stratum counts its items do
 * not add up to, and a record digest that no longer matches its content (any other edit: the
 * date, an item's added, source or bytes, the chain fields). A record frozen before records
 * carried a digest is judged by the rest. Pure; O(items).
 * @returns the issues, in a stable order (empty for an intact record).
 * @example versionRecordIssues(readArchiveVersion('out/archive', '2026Q3')) // => []
 */
export function versionRecordIssues(record: VersionRecord): RecordIssue[] {
  const out: RecordIssue[] = [];
  try {
    const computed = benchmarkFingerprint(record.items, record.guideline);
    if (computed !== record.fingerprint) out.push({ field: 'fingerprint', detail: `its items no longer match its fingerprint (recorded ${record.fingerprint.slice(0, 12)}…, computed ${computed.slice(0, 12)}…)` });
  } catch (error) {
    out.push({ field: 'items', detail: (error as Error).message });
  }
  const counts = versionCounts(record.items);
  for (const key of ['items', 'eval', 'dev'] as const) {
    if (record.counts[key] !== counts[key]) out.push({ field: `counts.${key}`, detail: `counts.${key} is ${record.counts[key]}, but its items give ${counts[key]}` });
  }
  const given = new Map<string, { eval: number; dev: number }>();
  for (const s of record.strata) {
    if (given.has(s.stratum)) out.push({ field: 'strata', detail: `strata lists "${s.stratum}" twice` });
    else given.set(s.stratum, s);
  }
  const computed = versionStratumCounts(record.items);
  for (const s of computed) {
    const g = given.get(s.stratum);
    if (!g) out.push({ field: 'strata', detail: `strata does not list "${s.stratum}" (its items give eval ${s.eval}, dev ${s.dev})` });
    else if (g.eval !== s.eval || g.dev !== s.dev) out.push({ field: 'strata', detail: `strata: "${s.stratum}" is eval ${g.eval}, dev ${g.dev}, but its items give eval ${s.eval}, dev ${s.dev}` });
  }
  for (const name of given.keys()) if (!computed.some((s) => s.stratum === name)) out.push({ field: 'strata', detail: `strata lists "${name}", which no item is in` });
  if (record.recordDigest !== undefined) {
    const digest = versionRecordDigest(record);
    if (digest !== record.recordDigest) {
      out.push({ field: 'recordDigest', detail: `the record was edited after it was frozen: its content no longer matches its record digest (recorded ${record.recordDigest.slice(0, 12)}…, computed ${digest.slice(0, 12)}…)` });
    }
  }
  return out;
}

/**
 * Refuses a version to build on (rotate --apply, drift, a freeze's parent) when its record is
 * not intact: the first issue becomes `FILE: FIELD: what is wrong; run benchplan verify` (exit 1).
 * @param file the record's path, for the message.
 * @throws {CheckFailed} naming the file and the field.
 * @example assertVersionIntact(readArchiveVersion('out/archive', '2026Q3'), 'out/archive/versions/2026Q3.json') // => undefined (intact)
 */
export function assertVersionIntact(record: VersionRecord, file: string): void {
  const issues = versionRecordIssues(record);
  if (issues.length === 0) return;
  const first = issues[0] as RecordIssue;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new CheckFailed(`${file}: ${first.field}: ${first.detail}${more}; refusing to build on a changed version: run benchplan verify`);
}
