import { createHash } from 'node:crypto';
import { compareIds } from './hash.js';

/** What the fingerprint covers for one item: its id, place, label and content hash. */
export interface FingerprintItem {
  item: string;
  stratum: string;
  split: 'dev' | 'eval';
  label?: string | number | boolean;
  /** SHA-256 of the item's content (hex). */
  sha256: string;
}

/** The first line of the canonical text the fingerprint hashes; bump it if that text changes. */
export const FINGERPRINT_FORMAT = 'benchplan-fingerprint/1';

/**
 * The fingerprint of a benchmark version: one SHA-256 that changes when any item's content,
 * label, stratum or split changes, when an item is added or removed, or when the annotation
 * guideline version changes, and does not change when only the manifest's order does. It is
 * what a score should be quoted against ("0.81 on fingerprint 3fa2…"), the dataset-fingerprint
 * idea of the contract-reading eval in seeds/000.
 *
 * Canonical text: the line `benchplan-fingerprint/1`, the line `guideline <JSON of the version or
 * null>`, then one line per item sorted by id (UTF-16 code-unit order):
 * `JSON.stringify([item, stratum, split, label ?? null, sha256])`, lines joined by "\n".
 * JSON keeps `1` and `"1"` apart, so a label's type is part of it. `added` and `source` are
 * provenance and are left out: re-dating an item does not change what is measured.
 * @param items the items with their content hashes; any order; ids must be unique.
 * @param guideline the annotation guideline version, or undefined / null when none is recorded.
 * @returns 64 hex digits.
 * @throws {RangeError} when an id appears twice.
 * @example benchmarkFingerprint([{ item: 'a', stratum: 's', split: 'eval', sha256: sha256Hex('x') }], '1')
 * // => "865a036880d74f57302ad4e161b0e213673c4d524d60102a4ebefdefb8805f09"
 */
export function benchmarkFingerprint(items: readonly FingerprintItem[], guideline: string | null | undefined): string {
  // The text of fingerprintText, hashed in pieces of about 64 K characters as it is built (no 10 MB
  // string at 10⁵ items, issue 33). Each piece ends at a line's end, never inside a surrogate pair.
  const hash = createHash('sha256');
  let pending = '';
  forEachLine(items, guideline, (line, first) => {
    pending += first ? line : `\n${line}`;
    if (pending.length >= 1 << 16) {
      hash.update(pending, 'utf8');
      pending = '';
    }
  });
  hash.update(pending, 'utf8');
  return hash.digest('hex');
}

/** The canonical text `benchmarkFingerprint` hashes (exported so a reader can check it by hand). */
export function fingerprintText(items: readonly FingerprintItem[], guideline: string | null | undefined): string {
  const lines: string[] = [];
  forEachLine(items, guideline, (line) => lines.push(line));
  return lines.join('\n');
}

/** The canonical text's lines in order (see benchmarkFingerprint). @throws {RangeError} when an id appears twice. */
function forEachLine(items: readonly FingerprintItem[], guideline: string | null | undefined, emit: (line: string, first: boolean) => void): void {
  const sorted = [...items].sort((x, y) => compareIds(x.item, y.item));
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k].item === sorted[k - 1].item) throw new RangeError(`item id appears twice in a benchmark version (got "${sorted[k].item}")`);
  }
  emit(FINGERPRINT_FORMAT, true);
  emit(`guideline ${JSON.stringify(guideline ?? null)}`, false);
  for (const x of sorted) emit(JSON.stringify([x.item, x.stratum, x.split, x.label ?? null, x.sha256]), false);
}
