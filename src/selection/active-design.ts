import { createRng } from '../random/index.js';
import { DEFAULT_AUDIT_SHARE } from './disagreement-design.js';
import { cappedInclusionProbabilities } from './inclusion-probabilities.js';
import type { DesignCell, DesignRow, PoolItem, SelectionDesign } from './types.js';

/** Options of {@link activeDesign}. */
export interface ActiveDesignOptions {
  /** Expected number of labels, a whole number ≥ 1 (Poisson sampling: the realised count varies around it). */
  budget: number;
  /**
   * Share of the probability mass spread evenly over all items, in (0, 1); default 0.1. It keeps
   * every π above 0 (agreeing items are audited at a low rate, and no item has an unbounded weight 1/π).
   */
  auditShare?: number;
  seed?: string | number;
}

/**
 * Active selection: each item is labelled independently with probability π_i that favours items
 * whose paired difference is uncertain, then weighted by 1/π_i (Poisson sampling). The uncertainty
 * u_i is 0 for agreeing items (the difference is 0 if the same output gets the same score) and the
 * item's `uncertainty` (default 1) otherwise; the sizes are
 *   w_i = (1 − τ) · u_i / Σ u + τ / N,
 * so a share τ of the budget is spread over every item, and π_i = min(1, c · w_i) with Σ π_i =
 * budget ({@link cappedInclusionProbabilities}). Draws come from one seeded stream
 * (`seed:select:active`) in pool order. Estimate with {@link poissonDifferenceEstimate}.
 * Reference: Zrnic & Candès (2024), "Active Statistical Inference", ICML (labelling probabilities
 * ∝ uncertainty, mixed with uniform, inverse-probability weighting); Särndal et al. (1992) §3.6
 * for Poisson sampling.
 * @param items the pool (stratum, agree, optional uncertainty ≥ 0).
 * @returns the design: every item with π and whether it was drawn; cells summarise by stratum × agree.
 * @throws {RangeError} for an empty pool, a budget not a whole number in [1, N], τ outside (0, 1), or a negative uncertainty.
 * @example activeDesign(items, { budget: 100, seed: 0 }).rows[0].inclusionProbability // => π of the first item
 */
export function activeDesign(items: readonly PoolItem[], options: ActiveDesignOptions): SelectionDesign {
  const { budget } = options;
  const tau = options.auditShare ?? DEFAULT_AUDIT_SHARE;
  const seed = String(options.seed ?? '0');
  const N = items.length;
  if (N === 0) throw new RangeError('the pool has no items');
  if (!(Number.isInteger(budget) && budget >= 1 && budget <= N)) throw new RangeError(`budget must be a whole number in [1, ${N}] (got ${budget})`);
  if (!(tau > 0 && tau < 1)) throw new RangeError(`auditShare must be in (0, 1) for the active design (got ${tau})`);
  const u = items.map((it, i) => {
    const x = it.agree ? 0 : (it.uncertainty ?? 1);
    if (!(Number.isFinite(x) && x >= 0)) throw new RangeError(`item ${it.item} (${i}): uncertainty must be a finite number ≥ 0 (got ${x})`);
    return x;
  });
  const totalU = u.reduce((a, b) => a + b, 0);
  const warnings: string[] = [];
  if (totalU === 0) warnings.push('no item has an uncertain difference (all agree, or zero uncertainty): the probabilities are uniform');
  const sizes = u.map((x) => (totalU > 0 ? ((1 - tau) * x) / totalU : 0) + (totalU > 0 ? tau : 1) / N);
  const pi = cappedInclusionProbabilities(sizes, budget);
  const rng = createRng(seed, 'select', 'active');
  const rows: DesignRow[] = items.map((it, i) => {
    const kind = it.agree ? 'agree' : 'disagree';
    const row: DesignRow = { item: it.item, stratum: it.stratum, kind, cell: it.stratum === '' ? kind : `${it.stratum}/${kind}`, inclusionProbability: pi[i], selected: rng.nextFloat() < pi[i] };
    if (it.prediction !== undefined) row.prediction = it.prediction;
    if (it.cluster !== undefined) row.cluster = it.cluster;
    return row;
  });
  const byCell = new Map<string, DesignCell>();
  for (const r of rows) {
    let c = byCell.get(r.cell);
    if (!c) {
      c = { cell: r.cell, stratum: r.stratum, kind: r.kind, size: 0, sampled: 0, inclusionProbability: 0 };
      byCell.set(r.cell, c);
    }
    c.size += 1;
    c.sampled += r.selected ? 1 : 0;
    c.inclusionProbability += r.inclusionProbability;
  }
  const cells = [...byCell.values()].map((c) => ({ ...c, inclusionProbability: c.inclusionProbability / c.size }));
  const selected = rows.reduce((s, r) => s + (r.selected ? 1 : 0), 0);
  return { method: 'active', sampling: 'poisson', budget, auditShare: tau, seed, poolSize: N, selected, unspent: 0, cells, rows, warnings };
}
