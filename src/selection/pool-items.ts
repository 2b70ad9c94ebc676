import { InputError } from '../data/errors.js';
import type { PoolRow, PoolTable } from '../data/pool.js';
import { outputsMatch, type EqualityMode } from './equality.js';
import type { PoolItem } from './types.js';

/**
 * The selection designs' view of a loaded pool: one entry per item with both candidates' outputs
 * compared ({@link outputsMatch}); when the pool has judge scores, the predicted difference
 * judgeA − judgeB, and, for judge scores in [0, 1] read as the probability that an output is
 * right, the uncertainty √(pA(1 − pA) + pB(1 − pB)) (the standard deviation of a 0/1 difference
 * given the judge, treating the two verdicts as independent), which the active design favours.
 * @param pool a pool loaded with an output column.
 * @param a candidate A; @param b candidate B (both in the pool).
 * @returns items in pool order; items with neither candidate are skipped.
 * @throws {InputError} naming the file and line of an item that has a row for only one candidate.
 * @example poolItems(loadPool('examples/pool.csv', { outputColumn: 'output', judgeColumn: 'judge' }), 'alpha', 'beta', { mode: 'normalised', tolerance: 0 }).length // => 400
 */
export function poolItems(pool: PoolTable, a: string, b: string, equality: { mode: EqualityMode; tolerance: number }): PoolItem[] {
  const byItem = new Map<string, { a?: PoolRow; b?: PoolRow }>();
  for (const row of pool.rows) {
    if (row.model !== a && row.model !== b) continue;
    const e = byItem.get(row.item) ?? {};
    if (row.model === a) e.a = row;
    else e.b = row;
    byItem.set(row.item, e);
  }
  const out: PoolItem[] = [];
  for (const item of pool.items) {
    const e = byItem.get(item);
    if (!e) continue;
    const missing = e.a === undefined ? a : e.b === undefined ? b : undefined;
    if (missing !== undefined) throw new InputError(`item "${item}" has no row for model "${missing}": every pool item needs both candidates' outputs`, { file: pool.source, line: (e.a ?? e.b)?.line });
    const ra = e.a as PoolRow;
    const rb = e.b as PoolRow;
    const it: PoolItem = { item, stratum: ra.stratum ?? '', agree: outputsMatch(ra.output ?? '', rb.output ?? '', equality) };
    if (ra.cluster !== undefined) it.cluster = ra.cluster;
    if (pool.hasJudge) {
      const pa = ra.judge as number;
      const pb = rb.judge as number;
      it.prediction = pa - pb;
      if (pa >= 0 && pa <= 1 && pb >= 0 && pb <= 1) it.uncertainty = Math.sqrt(pa * (1 - pa) + pb * (1 - pb));
    }
    out.push(it);
  }
  return out;
}
