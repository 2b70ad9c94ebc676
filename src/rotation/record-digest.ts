import { canonicalJsonSha256 } from '../data/canonical-json.js';


/**
 * The digest a version record carries of itself (`recordDigest`): the SHA-256 of the record's
 * canonical JSON with the `recordDigest` field left out. It changes when any field of the
 * record changes (its date, counts, strata, an item's `added`, `source` or `bytes`, which the
 * fingerprint leaves out), and not when the file is only re-indented or its keys reordered.
 *
 * It catches accidental edits, not forgery: whoever edits a record can recompute it. What binds
 * an old version against a deliberate rewrite is the parent chain (each rotated version records
 * its parent's fingerprint) and a copy of the fingerprints kept elsewhere.
 * @param record a version record, with or without `recordDigest` (ignored).
 * @returns 64 hex digits.
 * @example versionRecordDigest(readArchiveVersion('out/archive', '2026Q3')) === readArchiveVersion('out/archive', '2026Q3').recordDigest // => true
 */
export function versionRecordDigest(record: object): string {
  const { recordDigest: _ignored, ...rest } = record as { recordDigest?: unknown };
  // Hashed as it is written (canonicalJsonSha256): the same digest as sha256Hex(canonicalJson(rest)).
  return canonicalJsonSha256(rest);
}
