import { createRng } from '../random/index.js';
import { DEFAULT_AUDIT_SHARE, sampleWithoutReplacement, split } from './disagreement-design.js';
import type { CellKind, DesignCell, DesignRow, PoolItem, SelectionDesign } from './types.js';

/** Options of {@link clusterDisagreementDesign}. */
export interface ClusterDisagreementDesignOptions {
  /** Labels available (items to annotate), a whole number ≥ 1; met on average, since clusters differ in size. */
  budget: number;
  /** Share of the budget for the audit of agreeing clusters, in [0, 1); default 0.1. */
  auditShare?: number;
  seed?: string | number;
}

/** The design stratum of a cluster whose items belong to more than one stratum. */
export const MIXED_STRATUM = '(mixed)';

/**
 * The disagreement design with whole clusters (documents) as the sampling unit: a chosen cluster
 * has every one of its items labelled, so annotators read a document once. A cluster is
 * "disagree" when the candidates' outputs differ on any of its items, else "agree"; its design
 * stratum is its items' stratum, or {@link MIXED_STRATUM} when they span several. Cells are
 * stratum × kind. The item budget is split as {@link disagreementDesign} splits it (the audit
 * round(auditShare · budget) on agreeing clusters, the rest on disagreeing ones, in proportion to
 * each cell's items, at least 2 clusters a sampled cell), and a cell with b_h items of budget and
 * mean cluster size s̄_h gets m_h = round(b_h / s̄_h) of its M_h clusters (all of them when its
 * items fit). A simple random sample of m_h clusters is drawn in each cell from its own stream
 * (`seed:select:cluster:stratum:kind`), so every item of a cluster has π = m_h / M_h. Estimate with
 * {@link designWeightedMean} on cluster totals (compare / gate / headline --design do).
 * Reference: Cochran (1977) §9A.2 (stratified sampling of clusters of unequal size, the unbiased
 * estimator of the total); R `svydesign(ids = ~cluster, strata = ~cell, fpc = ~M)`.
 * @param items the pool, each item with its cluster.
 * @returns the design: cells count clusters (size M_h, sampled m_h, items, chosenItems); every item with its cluster's cell and π.
 * @throws {RangeError} for an empty pool, an item without a cluster, a budget that is not a whole number ≥ 1, or an audit share outside [0, 1).
 * Cost O(n log n).
 * @example clusterDisagreementDesign(items, { budget: 120, seed: 0 }).sampling // => "cluster"
 */
export function clusterDisagreementDesign(items: readonly PoolItem[], options: ClusterDisagreementDesignOptions): SelectionDesign {
  const { budget } = options;
  const auditShare = options.auditShare ?? DEFAULT_AUDIT_SHARE;
  const seed = String(options.seed ?? '0');
  if (items.length === 0) throw new RangeError('the pool has no items');
  if (!(Number.isInteger(budget) && budget >= 1)) throw new RangeError(`budget must be a whole number ≥ 1 (got ${budget})`);
  if (!(auditShare >= 0 && auditShare < 1)) throw new RangeError(`auditShare must be in [0, 1) (got ${auditShare})`);
  const warnings: string[] = [];

  // Clusters in order of first appearance, each with its items, kind and design stratum.
  const clusters = new Map<string, { indices: number[]; strata: Set<string>; disagree: boolean }>();
  items.forEach((it, i) => {
    if (it.cluster === undefined) throw new RangeError(`item ${it.item}: cluster sampling needs a cluster for every item`);
    let c = clusters.get(it.cluster);
    if (!c) {
      c = { indices: [], strata: new Set(), disagree: false };
      clusters.set(it.cluster, c);
    }
    c.indices.push(i);
    c.strata.add(it.stratum);
    if (!it.agree) c.disagree = true;
  });
  const strata: string[] = [];
  const members = new Map<string, { disagree: string[]; agree: string[] }>();
  for (const [name, c] of clusters) {
    const stratum = c.strata.size === 1 ? [...c.strata][0] : MIXED_STRATUM;
    let m = members.get(stratum);
    if (!m) {
      m = { disagree: [], agree: [] };
      members.set(stratum, m);
      strata.push(stratum);
    }
    (c.disagree ? m.disagree : m.agree).push(name);
  }
  const itemsIn = (names: readonly string[]) => names.reduce((s, n) => s + (clusters.get(n) as { indices: number[] }).indices.length, 0);
  const D = strata.map((s) => itemsIn((members.get(s) as { disagree: string[] }).disagree));
  const A = strata.map((s) => itemsIn((members.get(s) as { agree: string[] }).agree));
  const totalD = D.reduce((x, y) => x + y, 0);
  const totalA = A.reduce((x, y) => x + y, 0);

  const budgetForAll = Math.min(budget, items.length);
  if (budget > items.length) warnings.push(`the budget ${budget} exceeds the pool's ${items.length} items: every cluster with a disagreement is chosen, and the audit takes its share of agreeing ones`);
  const audit = Math.min(totalA, budgetForAll, auditShare > 0 ? Math.max(Math.round(auditShare * budgetForAll), 1) : 0);
  const disagreeBudget = Math.min(totalD, budgetForAll - audit);
  const auditItems = split(A, audit);
  const disagreeItems = split(D, disagreeBudget);
  if (totalA > 0 && audit === 0) warnings.push('no agreeing cluster is audited (audit share 0): the estimate assumes, unchecked, that the same output always gets the same score');
  if (disagreeBudget < totalD) warnings.push(`the budget covers ${disagreeBudget} of the ${totalD} items in clusters with a disagreement: those clusters are sampled, and the interval reflects it`);

  const cells: DesignCell[] = [];
  const rows: DesignRow[] = new Array(items.length);
  strata.forEach((stratum, h) => {
    const m = members.get(stratum) as { disagree: string[]; agree: string[] };
    for (const kind of ['disagree', 'agree'] as CellKind[]) {
      const names = m[kind];
      if (names.length === 0) continue;
      const M = names.length;
      const cellItems = kind === 'disagree' ? D[h] : A[h];
      const itemBudget = kind === 'disagree' ? disagreeItems[h] : auditItems[h];
      const sampled = itemBudget >= cellItems ? M : itemBudget === 0 ? 0 : Math.min(M, Math.max(Math.min(2, M), Math.round((itemBudget * M) / cellItems)));
      const cell = stratum === '' ? kind : `${stratum}/${kind}`;
      const pi = sampled / M;
      if (sampled === 0) warnings.push(`cell ${cell}: none of its ${M} clusters is chosen, so the estimate cannot cover them`);
      else if (sampled === 1 && M > 1) warnings.push(`cell ${cell}: 1 cluster chosen of ${M}; its variance cannot be estimated`);
      const chosen = sampleWithoutReplacement(M, sampled, createRng(seed, 'select', 'cluster', stratum, kind));
      let chosenItems = 0;
      names.forEach((name, k) => {
        const selected = chosen[k] === 1;
        for (const i of (clusters.get(name) as { indices: number[] }).indices) {
          const it = items[i];
          rows[i] = { item: it.item, stratum: it.stratum, kind: it.agree ? 'agree' : 'disagree', cell, inclusionProbability: pi, selected, cluster: name };
          if (it.prediction !== undefined) rows[i].prediction = it.prediction;
          if (selected) chosenItems += 1;
        }
      });
      cells.push({ cell, stratum, kind, size: M, sampled, inclusionProbability: pi, items: cellItems, chosenItems });
    }
  });
  const selected = rows.reduce((s, r) => s + (r.selected ? 1 : 0), 0);
  if (selected > budget) warnings.push(`the chosen clusters hold ${selected} items, ${selected - budget} over the budget ${budget}: clusters differ in size, so the budget is met on average`);
  return { method: 'disagreement', sampling: 'cluster', budget, auditShare, seed, poolSize: items.length, selected, unspent: Math.max(0, budget - selected), cells, rows, warnings };
}
