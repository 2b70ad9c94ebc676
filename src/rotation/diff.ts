import type { VersionItem, VersionRecord } from './archive.js';
import { compareIds } from './hash.js';

/** An item as a diff lists it. */
export interface DiffItem {
  item: string;
  stratum: string;
  split: 'dev' | 'eval';
}

/** What changed about an item present in both versions. */
export interface ChangedItem extends DiffItem {
  /** In words, e.g. `content`, `label "present" → "absent"`, `stratum routine → rare_clause`, `split dev → eval`. */
  changes: string[];
}

export interface StratumDiff {
  stratum: string;
  /** Items (both splits) in the stratum in A and in B. */
  before: number;
  after: number;
  /** Eval items in A and in B. */
  evalBefore: number;
  evalAfter: number;
  added: number;
  retired: number;
  changed: number;
}

export interface VersionDiff {
  from: string;
  to: string;
  fromFingerprint: string;
  toFingerprint: string;
  /** In B, not in A (by id). */
  added: DiffItem[];
  /** In A, not in B. */
  retired: DiffItem[];
  /** In both, with a different content, label, stratum or split. */
  changed: ChangedItem[];
  unchanged: number;
  /** Set when the annotation guideline version differs. */
  guideline: { from: string | null; to: string | null } | null;
  strata: StratumDiff[];
}

/**
 * Added, retired and changed items between two versions, by stratum: what a rotation did, or
 * what drifted between two freezes of a manifest. Items are matched by id; a changed item is
 * listed under its stratum in B. Pure. O(n log n).
 * @example diffVersions(q3, q4).strata[0] // => { stratum: 'routine', before: 25, after: 25, evalBefore: 20, evalAfter: 20, added: 4, retired: 4, changed: 0 }
 * // (the bundled 2026Q3 rotated with examples/rotation/scores-2026Q3.csv, as in the demo)
 */
export function diffVersions(a: VersionRecord, b: VersionRecord): VersionDiff {
  const inA = new Map(a.items.map((x) => [x.item, x]));
  const inB = new Map(b.items.map((x) => [x.item, x]));
  const pickItem = (x: VersionItem): DiffItem => ({ item: x.item, stratum: x.stratum, split: x.split });
  const added = b.items.filter((x) => !inA.has(x.item)).map(pickItem);
  const retired = a.items.filter((x) => !inB.has(x.item)).map(pickItem);
  const changed: ChangedItem[] = [];
  let unchanged = 0;
  for (const y of b.items) {
    const x = inA.get(y.item);
    if (!x) continue;
    const changes: string[] = [];
    if (x.sha256 !== y.sha256) changes.push('content');
    if (JSON.stringify(x.label ?? null) !== JSON.stringify(y.label ?? null)) changes.push(`label ${JSON.stringify(x.label ?? null)} → ${JSON.stringify(y.label ?? null)}`);
    if (x.stratum !== y.stratum) changes.push(`stratum ${x.stratum} → ${y.stratum}`);
    if (x.split !== y.split) changes.push(`split ${x.split} → ${y.split}`);
    if (changes.length > 0) changed.push({ ...pickItem(y), changes });
    else unchanged += 1;
  }
  const names = [...new Set([...a.strata.map((s) => s.stratum), ...b.strata.map((s) => s.stratum), ...a.items.map((x) => x.stratum), ...b.items.map((x) => x.stratum)])];
  const count = (items: readonly VersionItem[], stratum: string, split?: 'eval') => items.filter((x) => x.stratum === stratum && (split === undefined || x.split === split)).length;
  const strata = names.map((stratum) => ({
    stratum,
    before: count(a.items, stratum),
    after: count(b.items, stratum),
    evalBefore: count(a.items, stratum, 'eval'),
    evalAfter: count(b.items, stratum, 'eval'),
    added: added.filter((x) => x.stratum === stratum).length,
    retired: retired.filter((x) => x.stratum === stratum).length,
    changed: changed.filter((x) => x.stratum === stratum).length,
  }));
  const byStratumThenId = (p: DiffItem, q: DiffItem) => names.indexOf(p.stratum) - names.indexOf(q.stratum) || compareIds(p.item, q.item);
  return {
    from: a.version,
    to: b.version,
    fromFingerprint: a.fingerprint,
    toFingerprint: b.fingerprint,
    added: added.sort(byStratumThenId),
    retired: retired.sort(byStratumThenId),
    changed: changed.sort(byStratumThenId),
    unchanged,
    guideline: a.guideline === b.guideline ? null : { from: a.guideline, to: b.guideline },
    strata,
  };
}
