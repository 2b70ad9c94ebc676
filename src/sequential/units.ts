import type { PairedScores } from '../data/pairing.js';

/** When each paired item was labelled, aligned with `paired.items`. */
export interface Arrival {
  /** Sort key per aligned item (smaller first; ties keep file order). */
  position: ArrayLike<number>;
  /** Batch number per aligned item, or null: looks then follow a fixed count of units. */
  batch: ArrayLike<number> | null;
}

/** The monitored units in arrival order: items, or whole clusters (documents). */
export interface MonitorUnits {
  kind: 'item' | 'cluster';
  /** Per unit: its id (item or cluster name). */
  ids: string[];
  /** Per unit: the mean of A − B over its items (one item: that item's difference). */
  values: Float64Array;
  /** Per unit: how many items it holds. */
  items: Int32Array;
  /** Per unit: index into `strata`, or null without strata. */
  stratum: Int32Array | null;
  strata: string[];
  /** Per unit: the batch it completed in, or null. */
  batch: Int32Array | null;
}

/**
 * Puts paired items in annotation order and, with `cluster`, folds each cluster into one unit
 * whose value is its mean difference: a document's slots are not independent, so the sequence
 * treats the document as the draw. A cluster arrives when its LAST item is labelled (a
 * half-labelled document is not yet a unit); its batch is that item's batch. The estimand is then
 * the mean over documents of the per-document mean difference.
 * Cost: O(n log n) for the sort.
 * @param paired two models' aligned scores (stratum and cluster per item as loaded).
 * @param arrival per-item order and batch; omitted → file order, no batches.
 * @param cluster monitor whole clusters (needs a cluster column).
 * @returns the units in the order they completed.
 * @throws {RangeError} when arrival lengths differ from the items, a position is not finite, or
 *   cluster is asked without a cluster column.
 * @example monitorUnits(paired, undefined, false).values // => the differences in file order
 */
export function monitorUnits(paired: PairedScores, arrival: Arrival | undefined, cluster: boolean): MonitorUnits {
  const n = paired.items.length;
  const position = arrival?.position;
  const batch = arrival?.batch ?? null;
  if (position !== undefined && position.length !== n) throw new RangeError(`arrival.position has ${position.length} entries for ${n} items`);
  if (batch !== null && batch.length !== n) throw new RangeError(`arrival.batch has ${batch.length} entries for ${n} items`);
  const order = Array.from({ length: n }, (_, k) => k);
  if (position !== undefined) {
    for (let k = 0; k < n; k++) if (!Number.isFinite(position[k])) throw new RangeError(`arrival.position[${k}] is not finite (got ${position[k]})`);
  }
  order.sort((x, y) => (batch === null ? 0 : batch[x] - batch[y]) || (position === undefined ? 0 : position[x] - position[y]) || x - y);
  if (!cluster) {
    return {
      kind: 'item',
      ids: order.map((k) => paired.items[k]),
      values: Float64Array.from(order, (k) => paired.differences[k]),
      items: new Int32Array(n).fill(1),
      stratum: paired.stratum === null ? null : Int32Array.from(order, (k) => paired.stratum![k]),
      strata: paired.strata,
      batch: batch === null ? null : Int32Array.from(order, (k) => batch[k]),
    };
  }
  if (paired.cluster === null) throw new RangeError('cluster monitoring needs a cluster column');
  const clusterOf = paired.cluster;
  const size = new Int32Array(paired.clusters.length);
  for (let k = 0; k < n; k++) size[clusterOf[k]] += 1;
  const sum = new Float64Array(paired.clusters.length);
  const seen = new Int32Array(paired.clusters.length);
  const done: Array<{ c: number; last: number }> = [];
  for (const k of order) {
    const c = clusterOf[k];
    sum[c] += paired.differences[k];
    seen[c] += 1;
    if (seen[c] === size[c]) done.push({ c, last: k });
  }
  return {
    kind: 'cluster',
    ids: done.map((d) => paired.clusters[d.c]),
    values: Float64Array.from(done, (d) => sum[d.c] / size[d.c]),
    items: Int32Array.from(done, (d) => size[d.c]),
    stratum: paired.stratum === null ? null : Int32Array.from(done, (d) => paired.stratum![d.last]),
    strata: paired.strata,
    batch: batch === null ? null : Int32Array.from(done, (d) => batch[d.last]),
  };
}
