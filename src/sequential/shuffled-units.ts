import { createRng, shuffle, type Seed } from '../random/index.js';
import { compareIds } from '../rotation/hash.js';
import type { MonitorUnits } from './units.js';

/**
 * The units in a seeded uniformly random order that does not depend on the table's row order:
 * first sorted by id (compareIds, the same on every machine), then a Fisher–Yates shuffle seeded
 * by the stream `${seed}:gate-order`.
 *
 * Why: a confidence sequence assumes each unit's conditional mean, given the units before it, is
 * the mean being bounded. A table sorted by score (or by stratum, or difficulty) breaks that, and
 * the bound at the end of the sequence then depends on the sort: on examples/scores.csv as stored
 * (sorted) the aGRAPA 97.5% lower bound is 0.139, against 0.087 averaged over random orders and
 * 0.109 for the fixed-n t bound. A random permutation drawn independently of the scores makes the
 * order exchangeable: if the units are an i.i.d. draw from the population of items, the permuted
 * sequence is again i.i.d. from it, whatever order the file had, so the sequence's guarantee holds.
 * Reference: Waudby-Smith & Ramdas, JRSSB 2024, §2 (the i.i.d. / constant-conditional-mean condition).
 * Cost: O(n log n) for the sort.
 * @param units the units in any order (ids unique, as monitorUnits gives them).
 * @param seed any string or finite number; the same seed and the same units give the same order.
 * @returns a new MonitorUnits with every per-unit field in the permuted order.
 * @example shuffledUnits(monitorUnits(paired, undefined, false), 0).ids // => the item ids in seed 0's order
 */
export function shuffledUnits(units: MonitorUnits, seed: Seed): MonitorUnits {
  const order = Array.from({ length: units.ids.length }, (_, k) => k).sort((x, y) => compareIds(units.ids[x], units.ids[y]));
  shuffle(order, createRng(seed, 'gate-order'));
  return {
    kind: units.kind,
    ids: order.map((k) => units.ids[k]),
    values: Float64Array.from(order, (k) => units.values[k]),
    items: Int32Array.from(order, (k) => units.items[k]),
    stratum: units.stratum === null ? null : Int32Array.from(order, (k) => units.stratum![k]),
    strata: units.strata,
    batch: units.batch === null ? null : Int32Array.from(order, (k) => units.batch![k]),
  };
}
