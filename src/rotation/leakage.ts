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
 * whose word-shingle Jaccard similarity is at least the threshold (`near`). Exact, by prefix
 * filtering (Chaudhuri, Ganti & Kaushik 2006; Xiao et al. 2008, PPJoin): order every shingle by
 * how rare it is over both sides; if J(x, y) ≥ t then |x ∩ y| ≥ ⌈t·|x|⌉ and ≥ ⌈t·|y|⌉, so the
 * |x| − ⌈t·|x|⌉ + 1 rarest shingles of x and the |y| − ⌈t·|y|⌉ + 1 rarest of y share one. Only
 * pairs sharing a prefix shingle are scored, on their whole sets, so no pair at or above the
 * threshold is missed (recall 1) and boilerplate shared by every item (the common shingles,
 * which sort last) never makes the check quadratic. O(total shingles · log + candidate pairs).
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
  // Shingles as integer tokens, ranked rarest first over both sides (ties by first appearance,
  // which is deterministic in input order), so each set is a sorted Int32Array of ranks.
  const tokenOf = new Map<string, number>();
  const frequency: number[] = [];
  const tokenise = (text: string): number[] => {
    const ids: number[] = [];
    for (const shingle of wordShingles(text, shingleSize)) {
      let id = tokenOf.get(shingle);
      if (id === undefined) {
        id = frequency.length;
        tokenOf.set(shingle, id);
        frequency.push(0);
      }
      frequency[id] += 1;
      ids.push(id);
    }
    return ids;
  };
  const rightIds = right.map((x) => tokenise(textOf(x.content)));
  const leftIds = left.map((x) => tokenise(textOf(x.content)));
  const order = Array.from(frequency.keys()).sort((a, b) => frequency[a] - frequency[b] || a - b);
  const rank = new Int32Array(frequency.length);
  order.forEach((token, r) => (rank[token] = r));
  const ranked = (ids: number[]) => Int32Array.from(ids, (id) => rank[id]).sort();
  const rightSets = rightIds.map(ranked);
  // Prefix length |x| − ⌈t·|x|⌉ + 1; the 1e-9 keeps t·|x| = 7.000000000000001 from shortening it.
  const prefixLength = (size: number) => Math.min(size, size - Math.ceil(threshold * size - 1e-9) + 1);
  const index = new Map<number, number[]>();
  rightSets.forEach((set, r) => {
    for (let k = 0; k < prefixLength(set.length); k++) {
      let list = index.get(set[k]);
      if (!list) index.set(set[k], (list = []));
      list.push(r);
    }
  });
  const rightHash = right.map((x) => hashOf(x.content));
  const byHash = new Map<string, number[]>();
  rightHash.forEach((h, r) => {
    const list = byHash.get(h);
    if (list) list.push(r);
    else byHash.set(h, [r]);
  });
  const pairs: DuplicatePair[] = [];
  left.forEach((x, l) => {
    const exact = new Set(byHash.get(hashOf(x.content)) ?? []);
    for (const r of exact) pairs.push({ left: x.item, right: right[r].item, kind: 'exact', similarity: 1 });
    const mine = ranked(leftIds[l]);
    const candidates = new Set<number>();
    for (let k = 0; k < prefixLength(mine.length); k++) for (const r of index.get(mine[k]) ?? []) candidates.add(r);
    for (const r of candidates) {
      if (exact.has(r)) continue;
      const theirs = rightSets[r];
      const count = sortedOverlap(mine, theirs);
      const similarity = count / (mine.length + theirs.length - count);
      if (similarity >= threshold) pairs.push({ left: x.item, right: right[r].item, kind: 'near', similarity });
    }
  });
  return pairs.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'exact' ? -1 : 1) || compareIds(a.left, b.left) || compareIds(a.right, b.right));
}

/** |a ∩ b| of two ascending arrays of distinct integers, by a merge. */
function sortedOverlap(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let count = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      count += 1;
      i += 1;
      j += 1;
    } else if (a[i] < b[j]) i += 1;
    else j += 1;
  }
  return count;
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
