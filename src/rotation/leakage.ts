import { contentText } from './content.js';
import { compareIds, sha256Hex } from './hash.js';

/** An item as the leakage check sees it: its id, place and content. */
export interface LeakageInput {
  item: string;
  stratum: string;
  split: 'dev' | 'eval';
  /** Text, or bytes read as UTF-8. */
  content: string | Uint8Array;
}

export interface NearDuplicateOptions {
  /** Jaccard similarity of word shingles at or above which two texts count as near duplicates, in (0, 1]. Default 0.8. */
  threshold?: number;
  /** Words per shingle, a whole number ≥ 1. Default 3. */
  shingleSize?: number;
}

/** Two items whose content is the same (`exact`: equal bytes) or nearly so (`near`). */
export interface DuplicatePair {
  left: string;
  right: string;
  kind: 'exact' | 'near';
  /** Jaccard similarity of the two shingle sets (1 for exact). */
  similarity: number;
}

/** An eval item whose content also appears in dev. */
export interface LeakPair {
  evalItem: string;
  devItem: string;
  stratum: string;
  devStratum: string;
  kind: 'exact' | 'near';
  similarity: number;
}

export interface LeakageResult {
  threshold: number;
  shingleSize: number;
  /** Every (eval, dev) pair found, exact ones first, then by eval id and dev id. */
  pairs: LeakPair[];
  /** The eval items in at least one pair, sorted. */
  leakedEvalItems: string[];
  evalItems: number;
  devItems: number;
}

/**
 * Normalises text for near-duplicate comparison: Unicode NFKC, lower case, every run of
 * characters that are not letters or digits turned into one space, then split into words. So
 * "Payment is due—in FULL." and "payment is due in full" compare equal.
 * @example normalisedWords('Payment is due—in FULL.') // => ['payment', 'is', 'due', 'in', 'full']
 */
export function normalisedWords(text: string): string[] {
  const cleaned = text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return cleaned === '' ? [] : cleaned.split(' ');
}

/**
 * The set of w-word shingles (overlapping runs of w consecutive words) of a text's normalised
 * words; a text shorter than w words is one shingle of all its words, an empty text none.
 * Reference: Broder (1997), "On the resemblance and containment of documents".
 * @example wordShingles('a b c d', 3) // => Set { 'a b c', 'b c d' }
 */
export function wordShingles(text: string, shingleSize = 3): Set<string> {
  checkShingleSize(shingleSize);
  const words = normalisedWords(text);
  const out = new Set<string>();
  if (words.length === 0) return out;
  if (words.length < shingleSize) out.add(words.join(' '));
  for (let i = 0; i + shingleSize <= words.length; i++) out.add(words.slice(i, i + shingleSize).join(' '));
  return out;
}

/**
 * Jaccard similarity |A ∩ B| / |A ∪ B| of two sets; NaN when both are empty.
 * @example jaccardSimilarity(new Set(['a', 'b']), new Set(['b', 'c'])) // => 0.3333333333333333
 */
export function jaccardSimilarity<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return NaN;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/**
 * Every pair (one from `left`, one from `right`) whose content is byte-identical (`exact`) or
 * whose word-shingle Jaccard similarity is at least the threshold (`near`). An inverted index
 * from shingle to right-hand items means only pairs sharing a shingle are scored: O(total
 * shingles + pairs sharing one), not O(|left| × |right|) text comparisons.
 * @returns pairs sorted: exact first, then by left id and right id.
 * @throws {RangeError} for a threshold outside (0, 1] or a shingle size that is not a whole number ≥ 1.
 */
export function findNearDuplicates(
  left: ReadonlyArray<{ item: string; content: string | Uint8Array }>,
  right: ReadonlyArray<{ item: string; content: string | Uint8Array }>,
  options: NearDuplicateOptions = {},
): DuplicatePair[] {
  const threshold = options.threshold ?? 0.8;
  const shingleSize = options.shingleSize ?? 3;
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`near-duplicate threshold must be in (0, 1] (got ${threshold})`);
  checkShingleSize(shingleSize);
  const textOf = (c: string | Uint8Array) => (typeof c === 'string' ? c : contentText(c));
  const hashOf = (c: string | Uint8Array) => sha256Hex(c);
  const rightHash = right.map((x) => hashOf(x.content));
  const rightShingles = right.map((x) => wordShingles(textOf(x.content), shingleSize));
  const index = new Map<string, number[]>();
  rightShingles.forEach((set, r) => {
    for (const s of set) {
      let list = index.get(s);
      if (!list) index.set(s, (list = []));
      list.push(r);
    }
  });
  const byHash = new Map<string, number[]>();
  rightHash.forEach((h, r) => {
    const list = byHash.get(h);
    if (list) list.push(r);
    else byHash.set(h, [r]);
  });
  const pairs: DuplicatePair[] = [];
  for (const x of left) {
    const exact = new Set(byHash.get(hashOf(x.content)) ?? []);
    for (const r of exact) pairs.push({ left: x.item, right: right[r].item, kind: 'exact', similarity: 1 });
    const mine = wordShingles(textOf(x.content), shingleSize);
    const shared = new Map<number, number>();
    for (const s of mine) for (const r of index.get(s) ?? []) shared.set(r, (shared.get(r) ?? 0) + 1);
    for (const [r, count] of shared) {
      if (exact.has(r)) continue;
      const similarity = count / (mine.size + rightShingles[r].size - count);
      if (similarity >= threshold) pairs.push({ left: x.item, right: right[r].item, kind: 'near', similarity });
    }
  }
  return pairs.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'exact' ? -1 : 1) || compareIds(a.left, b.left) || compareIds(a.right, b.right));
}

/**
 * Leakage between the splits of one benchmark version: eval items whose content also appears in
 * dev, verbatim (equal bytes) or nearly (normalised word shingles, Jaccard ≥ threshold). Dev is
 * where prompts are iterated on; an eval item with a copy there has been tuned against, and its
 * score no longer predicts anything (the seed chapter's "Keeping it from going stale").
 * @param items every item of the version, both splits.
 * @example findLeakage(items).leakedEvalItems // => ['e026', 'e046'] on the bundled manifest
 */
export function findLeakage(items: readonly LeakageInput[], options: NearDuplicateOptions = {}): LeakageResult {
  const evalItems = items.filter((x) => x.split === 'eval');
  const devItems = items.filter((x) => x.split === 'dev');
  const stratumOf = new Map(items.map((x) => [x.item, x.stratum]));
  const pairs = findNearDuplicates(evalItems, devItems, options).map((p) => ({
    evalItem: p.left,
    devItem: p.right,
    stratum: stratumOf.get(p.left) as string,
    devStratum: stratumOf.get(p.right) as string,
    kind: p.kind,
    similarity: p.similarity,
  }));
  return {
    threshold: options.threshold ?? 0.8,
    shingleSize: options.shingleSize ?? 3,
    pairs,
    leakedEvalItems: [...new Set(pairs.map((p) => p.evalItem))].sort(compareIds),
    evalItems: evalItems.length,
    devItems: devItems.length,
  };
}

function checkShingleSize(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`shingle size must be a whole number ≥ 1 (got ${k})`);
}
