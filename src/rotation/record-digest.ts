import { compareIds, sha256Hex } from './hash.js';

/**
 * Canonical JSON: no white space, object keys sorted by UTF-16 code units at every depth,
 * arrays in order, keys whose value is `undefined` left out (as JSON.stringify does). Two
 * values that JSON.parse the same give the same text, whatever their key order or indentation.
 * Cf. RFC 8785 (JCS), whose key order and number form this follows for the values a version
 * record holds (strings, integers, booleans, null).
 * @example canonicalJson({ b: 1, a: [true, null] }) // => '{"a":[true,null],"b":1}'
 * @throws {TypeError} for a value JSON cannot hold (a function, a symbol, a bigint, a non-finite number).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((x) => (x === undefined ? 'null' : canonicalJson(x))).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => compareIds(a, b));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}

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
  return sha256Hex(canonicalJson(rest));
}
