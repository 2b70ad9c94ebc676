import { createRng } from '../random/xoshiro.js';
import type { Seed } from '../random/seed.js';
import type { VersionRecord } from './archive.js';
import { compareIds } from './hash.js';

/** Why an item leaves the eval split, in the order rotation retires them. */
export type RetireReason = 'saturated' | 'leaked' | 'oldest';

/** An incident that could replace a retired item. */
export interface RotationCandidate {
  item: string;
  stratum: string;
  /** When it was logged (version or date, sorts as text); newer incidents are used first. */
  added?: string;
}

export interface RotationOptions {
  /** Share of the eval items to retire, in [0, 1]: round(fraction × eval items) (Math.round). Default 0.2. */
  fraction?: number;
  /** Seed for breaking ties (same seed, same plan). Default 0. */
  seed?: Seed;
  /** Eval items every candidate passes (from `measureSaturation`): retired first. */
  saturated?: readonly string[];
  /** Eval items leaked into dev (from `findLeakage`): retired next. */
  leaked?: readonly string[];
  /** Candidates that must not be used, with the reason (id already used, duplicates a dev item…). */
  excluded?: ReadonlyMap<string, string>;
}

export interface RotationStratum {
  stratum: string;
  /** Eval items before and after the rotation (equal unless the incidents log ran short… which keeps them equal by retiring fewer). */
  before: number;
  after: number;
  retired: number;
  added: number;
  /** Retirements this stratum wanted and could not replace (items kept instead). */
  shortBy: number;
}

export interface RotationPlan {
  from: string;
  fromFingerprint: string;
  fraction: number;
  seed: string;
  /** round(fraction × eval items): how many the plan set out to retire. */
  target: number;
  /** Items leaving the eval split, in priority order. */
  retire: Array<{ item: string; stratum: string; reason: RetireReason; added?: string }>;
  /** Incidents joining the eval split. */
  add: Array<{ item: string; stratum: string; added?: string }>;
  /** Eval items staying. */
  keep: number;
  strata: RotationStratum[];
  /** Candidates left out, with why. */
  skipped: Array<{ item: string; stratum: string; reason: string }>;
  warnings: string[];
}

/**
 * Next quarter's rotation plan (the seed chapter: "rotating twenty percent per quarter, drawn
 * from recent incidents, keeps the items current and slowly retires the ones every candidate now
 * passes").
 *
 * 1. Retire round(fraction × n_eval) eval items in this order: saturated (every candidate passes
 *    them, so they add nothing to any difference), then leaked into dev (tuned against), then the
 *    oldest by `added` (missing `added` counts as oldest); ties broken by a seeded shuffle
 *    (`createRng(seed, 'rotate', from)`), so the same seed gives the same plan.
 * 2. Replace stratum by stratum from the candidates of that stratum, newest `added` first (ties
 *    seeded too), so every stratum keeps its count. Where a stratum has fewer usable candidates
 *    than retirements, the lowest-priority retirements there are kept instead and a warning says
 *    so: the count holds, and the rotation is smaller than asked.
 *
 * Pure: reads nothing, writes nothing. Cost O(n log n).
 * @param from the version rotated from.
 * @param candidates the incidents log (split ignored: new items join eval).
 * @throws {RangeError} for a fraction outside [0, 1].
 * @example planRotation(record, incidents, { fraction: 0.2, seed: 0, saturated, leaked }).strata[0]
 * // => { stratum: 'routine', before: 20, after: 20, retired: 4, added: 4, shortBy: 0 } (the bundled 2026Q3 with its scores)
 */
export function planRotation(from: VersionRecord, candidates: readonly RotationCandidate[], options: RotationOptions = {}): RotationPlan {
  const fraction = options.fraction ?? 0.2;
  if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`rotation fraction must be in [0, 1] (got ${fraction})`);
  const seed = String(options.seed ?? 0);
  const saturated = new Set(options.saturated ?? []);
  const leaked = new Set(options.leaked ?? []);
  const evalItems = from.items.filter((x) => x.split === 'eval'); // sorted by id in the record
  const target = Math.round(fraction * evalItems.length);

  const tieRng = createRng(seed, 'rotate', from.version);
  const ranked = evalItems
    .map((x) => ({
      x,
      reason: (saturated.has(x.item) ? 'saturated' : leaked.has(x.item) ? 'leaked' : 'oldest') as RetireReason,
      tie: tieRng.nextUint32(),
    }))
    .sort((a, b) => rank(a.reason) - rank(b.reason) || compareAdded(a.x.added, b.x.added) || a.tie - b.tie);
  const planned = ranked.slice(0, target);

  // Usable candidates per stratum, newest first, seeded ties.
  const excluded = options.excluded ?? new Map<string, string>();
  const skipped: RotationPlan['skipped'] = [];
  const inVersion = new Set(from.items.map((x) => x.item));
  const candidateRng = createRng(seed, 'rotate', from.version, 'incidents');
  const pool = new Map<string, Array<{ c: RotationCandidate; tie: number }>>();
  const seen = new Set<string>();
  for (const c of [...candidates].sort((a, b) => compareIds(a.item, b.item))) {
    const tie = candidateRng.nextUint32();
    const why = seen.has(c.item) ? 'appears twice in the incidents log' : inVersion.has(c.item) ? `id already in version ${from.version}` : excluded.get(c.item);
    seen.add(c.item);
    if (why !== undefined) {
      skipped.push({ item: c.item, stratum: c.stratum, reason: why });
      continue;
    }
    let list = pool.get(c.stratum);
    if (!list) pool.set(c.stratum, (list = []));
    list.push({ c, tie });
  }
  for (const list of pool.values()) list.sort((a, b) => -compareAdded(a.c.added, b.c.added) || a.tie - b.tie);

  const strataOrder = [...new Set(evalItems.map((x) => x.stratum))];
  const orderedStrata = [...from.strata.map((s) => s.stratum).filter((s) => strataOrder.includes(s)), ...strataOrder.filter((s) => !from.strata.some((t) => t.stratum === s))];
  const retire: RotationPlan['retire'] = [];
  const add: RotationPlan['add'] = [];
  const strata: RotationStratum[] = [];
  const warnings: string[] = [];
  const retiredSet = new Set<string>();
  for (const stratum of orderedStrata) {
    const before = evalItems.filter((x) => x.stratum === stratum).length;
    const wanted = planned.filter((p) => p.x.stratum === stratum);
    const available = pool.get(stratum) ?? [];
    const n = Math.min(wanted.length, available.length);
    const shortBy = wanted.length - n;
    if (shortBy > 0) {
      const kept = wanted.slice(n).map((p) => p.x.item);
      warnings.push(
        `the incidents log runs short in stratum "${stratum}": ${available.length} usable incident${available.length === 1 ? '' : 's'} for ${wanted.length} retirement${wanted.length === 1 ? '' : 's'}; ${kept.length} item${kept.length === 1 ? '' : 's'} due to retire ${kept.length === 1 ? 'is' : 'are'} kept (${kept.join(', ')})`,
      );
    }
    for (const p of wanted.slice(0, n)) retiredSet.add(p.x.item);
    for (const a of available.slice(0, n)) add.push({ item: a.c.item, stratum, ...(a.c.added !== undefined ? { added: a.c.added } : {}) });
    strata.push({ stratum, before, after: before, retired: n, added: n, shortBy });
  }
  for (const p of planned) {
    if (retiredSet.has(p.x.item)) retire.push({ item: p.x.item, stratum: p.x.stratum, reason: p.reason, ...(p.x.added !== undefined ? { added: p.x.added } : {}) });
  }
  const unusedStrata = [...pool.keys()].filter((s) => !orderedStrata.includes(s));
  if (unusedStrata.length > 0) warnings.push(`incidents in strata the version does not have were not used: ${unusedStrata.join(', ')}`);
  return {
    from: from.version,
    fromFingerprint: from.fingerprint,
    fraction,
    seed,
    target,
    retire,
    add,
    keep: evalItems.length - retire.length,
    strata,
    skipped,
    warnings,
  };
}

function rank(reason: RetireReason): number {
  return reason === 'saturated' ? 0 : reason === 'leaked' ? 1 : 2;
}

/** Older first; a missing `added` is older than any. */
function compareAdded(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return compareIds(a, b);
}
