import { createRng } from '../random/index.js';
import { largestRemainder } from '../strata/largest-remainder.js';
import type { CellKind, DesignCell, DesignRow, PoolItem, SelectionDesign } from './types.js';

/** Options of {@link disagreementDesign}. */
export interface DisagreementDesignOptions {
  /** Labels available (items to annotate), a whole number ≥ 1. */
  budget: number;
  /** Share of the budget for the audit sample of agreeing items, in [0, 1); default 0.1. */
  auditShare?: number;
  /** Seed of the draws; default '0'. */
  seed?: string | number;
}

/** The default audit share: a tenth of the budget checks "same output ⇒ same score". */
export const DEFAULT_AUDIT_SHARE = 0.1;

/** Each sampled cell gets at least this many items when it has them, so its variance can be estimated. */
const MIN_PER_CELL = 2;

/**
 * The disagreement-stratified annotation design. Items are split into cells by stratum and by
 * whether the candidates' outputs agree. The audit takes round(auditShare · budget) agreeing
 * items (at least 2 per agreeing cell when they exist), spread over strata in proportion to their
 * agreeing items; the rest of the budget goes to disagreeing items: all of them when it suffices
 * (π = 1, the leftover is reported as unspent), otherwise in proportion to each stratum's
 * disagreements (at least 2 per cell). Within each cell a simple random sample without replacement
 * is drawn from its own seeded stream (`seed:select:stratum:kind`), so every item has inclusion
 * probability π = n_h / N_h and the pool's mean difference is estimated by
 * {@link stratifiedDifferenceEstimate}.
 * Reference: Cochran (1977), Sampling Techniques, ch. 5 (stratified random sampling); the
 * agree/disagree split is the chapter's "items where both candidates agree cancel out".
 * @param items the pool, one entry per item (stratum, agree).
 * @returns the design: cells with N_h, n_h, π; every item with its cell, π and whether chosen.
 * @throws {RangeError} for an empty pool, a budget that is not a whole number ≥ 1, or an audit share outside [0, 1).
 * Cost O(n log n).
 * @example disagreementDesign(items, { budget: 120, seed: 0 }).selected // => ≤ 120
 */
export function disagreementDesign(items: readonly PoolItem[], options: DisagreementDesignOptions): SelectionDesign {
  const { budget } = options;
  const auditShare = options.auditShare ?? DEFAULT_AUDIT_SHARE;
  const seed = String(options.seed ?? '0');
  if (items.length === 0) throw new RangeError('the pool has no items');
  if (!(Number.isInteger(budget) && budget >= 1)) throw new RangeError(`budget must be a whole number ≥ 1 (got ${budget})`);
  if (!(auditShare >= 0 && auditShare < 1)) throw new RangeError(`auditShare must be in [0, 1) (got ${auditShare})`);
  const warnings: string[] = [];

  // Cells in order of first appearance: strata as in the pool, disagree before agree.
  const strata: string[] = [];
  const members = new Map<string, { disagree: number[]; agree: number[] }>();
  items.forEach((it, i) => {
    let m = members.get(it.stratum);
    if (!m) {
      m = { disagree: [], agree: [] };
      members.set(it.stratum, m);
      strata.push(it.stratum);
    }
    (it.agree ? m.agree : m.disagree).push(i);
  });
  const D = strata.map((s) => (members.get(s) as { disagree: number[] }).disagree.length);
  const A = strata.map((s) => (members.get(s) as { agree: number[] }).agree.length);
  const totalD = D.reduce((x, y) => x + y, 0);
  const totalA = A.reduce((x, y) => x + y, 0);

  const budgetForAll = Math.min(budget, items.length);
  if (budget > items.length) warnings.push(`the budget ${budget} exceeds the pool's ${items.length} items: every disagreement is chosen, and the audit takes its share of the ${items.length} (not of the budget) from the agreeing items`);
  const minAudit = A.reduce((s, a) => s + Math.min(MIN_PER_CELL, a), 0);
  let audit = Math.min(totalA, Math.max(Math.round(auditShare * budgetForAll), auditShare > 0 ? minAudit : 0));
  audit = Math.min(audit, budgetForAll);
  const disagreeBudget = Math.min(totalD, budgetForAll - audit);
  // Leftover after every disagreement is taken goes unspent: that is the saving.
  const auditCounts = split(A, audit);
  const disagreeCounts = split(D, disagreeBudget);
  if (totalA > 0 && audit === 0) warnings.push('no agreeing item is audited (audit share 0): the estimate assumes, unchecked, that the same output always gets the same score');
  if (disagreeBudget < totalD) warnings.push(`the budget covers ${disagreeBudget} of ${totalD} disagreeing items: they are sampled, and the interval reflects it`);

  const cells: DesignCell[] = [];
  const rows: DesignRow[] = new Array(items.length);
  strata.forEach((stratum, h) => {
    const m = members.get(stratum) as { disagree: number[]; agree: number[] };
    for (const kind of ['disagree', 'agree'] as CellKind[]) {
      const indices = m[kind];
      if (indices.length === 0) continue;
      const size = indices.length;
      const sampled = kind === 'disagree' ? disagreeCounts[h] : auditCounts[h];
      const cell = stratum === '' ? kind : `${stratum}/${kind}`;
      const pi = sampled / size;
      cells.push({ cell, stratum, kind, size, sampled, inclusionProbability: pi });
      if (sampled === 0) warnings.push(`cell ${cell}: none of its ${size} items is chosen, so the estimate cannot cover them`);
      else if (sampled === 1 && size > 1) warnings.push(`cell ${cell}: 1 item chosen of ${size}; its variance cannot be estimated`);
      const chosen = sampleWithoutReplacement(size, sampled, createRng(seed, 'select', stratum, kind));
      indices.forEach((i, k) => {
        rows[i] = { item: items[i].item, stratum, kind, cell, inclusionProbability: pi, selected: chosen[k] === 1 };
        if (items[i].prediction !== undefined) rows[i].prediction = items[i].prediction;
        if (items[i].cluster !== undefined) rows[i].cluster = items[i].cluster;
      });
    }
  });
  const selected = rows.reduce((s, r) => s + (r.selected ? 1 : 0), 0);
  return { method: 'disagreement', sampling: 'stratified', budget, auditShare, seed, poolSize: items.length, selected, unspent: Math.max(0, budget - selected), cells, rows, warnings };
}

/**
 * Splits `total` over groups: min(2, size) each first when the total allows, the rest in
 * proportion to the room each group has left (largest remainder), never above a group's size.
 * Shared with the cluster design (module-internal; not re-exported from the index).
 */
export function split(sizes: number[], total: number): number[] {
  const sum = sizes.reduce((x, y) => x + y, 0);
  if (total === 0 || sum === 0) return sizes.map(() => 0);
  let lower = sizes.map((s) => Math.min(MIN_PER_CELL, s));
  if (lower.reduce((x, y) => x + y, 0) > total) lower = sizes.map(() => 0);
  const room = sizes.map((s, h) => s - lower[h]);
  const roomTotal = room.reduce((x, y) => x + y, 0);
  const rest = total - lower.reduce((x, y) => x + y, 0);
  if (rest === 0 || roomTotal === 0) return lower;
  const extra = largestRemainder(room.map((r) => (r / roomTotal) * rest), rest, room.map(() => 0), room);
  return lower.map((l, h) => l + extra[h]);
}

/**
 * A simple random sample of k of n positions (partial Fisher–Yates), as a 0/1 mask.
 * Each k-subset is equally likely, so each position has inclusion probability k / n.
 */
export function sampleWithoutReplacement(n: number, k: number, rng: { nextInt: (m: number) => number }): Uint8Array {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + rng.nextInt(n - i);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  const mask = new Uint8Array(n);
  for (let i = 0; i < k; i++) mask[order[i]] = 1;
  return mask;
}
