import { InputError } from '../data/errors.js';
import type { PoolTable } from '../data/pool.js';
import type { JudgedItem } from './judged-comparison.js';

/**
 * The judged comparison's view of a table with a judge column and a (partly empty) human `score`
 * column: one entry per item with both candidates' judge scores, and their human scores where
 * the item is labelled.
 * @param pool a table loaded with `loadPool(path, { judgeColumn, requireJudge: true })`.
 * @param a candidate A; @param b candidate B.
 * @returns items in table order.
 * @throws {InputError} naming the file and line of an item without a row for both candidates, or
 *   with a human score for only one of them.
 * @example judgedItemsFromPool(loadPool('examples/pool-judged.csv', { judgeColumn: 'judge', requireJudge: true }), 'alpha', 'beta').length // => 400
 */
export function judgedItemsFromPool(pool: PoolTable, a: string, b: string): JudgedItem[] {
  const byItem = new Map<string, { stratum: string; judgeA?: number; judgeB?: number; humanA?: number; humanB?: number; line: number }>();
  for (const row of pool.rows) {
    if (row.model !== a && row.model !== b) continue;
    const e = byItem.get(row.item) ?? { stratum: row.stratum ?? '', line: row.line };
    if (row.model === a) {
      e.judgeA = row.judge;
      e.humanA = row.score;
    } else {
      e.judgeB = row.judge;
      e.humanB = row.score;
    }
    byItem.set(row.item, e);
  }
  const items: JudgedItem[] = [];
  for (const [item, e] of byItem) {
    if (e.judgeA === undefined || e.judgeB === undefined) throw new InputError(`item "${item}" needs a row for both ${a} and ${b}`, { file: pool.source, line: e.line });
    if ((e.humanA === undefined) !== (e.humanB === undefined)) throw new InputError(`item "${item}" has a human score for one candidate only: label both or neither`, { file: pool.source, line: e.line });
    items.push({ item, stratum: e.stratum, judgeA: e.judgeA, judgeB: e.judgeB, ...(e.humanA !== undefined ? { humanA: e.humanA, humanB: e.humanB } : {}) });
  }
  return items;
}
