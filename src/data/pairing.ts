import { InputError } from './errors.js';
import { listIds, type ScoresTable } from './scores.js';

/** Per (model, item): the mean over repeats, the number of repeats, and their sample variance. */
export interface ItemMeans {
  models: string[];
  items: string[];
  /** model-major: entry m * items.length + i; NaN where the model did not score the item. */
  mean: Float64Array;
  count: Int32Array;
  /** Sample variance (ddof 1) of the item's repeats; NaN with fewer than two. */
  variance: Float64Array;
}

/**
 * Averages each item's repeats per model (DESIGN.md: repeats are averaged and their spread
 * reported). One pass over the rows for sums, one for squared deviations, so the variance is
 * not the cancellation-prone E[x²] − E[x]².
 * O(rows + models × items) time and memory.
 */
export function itemMeans(table: ScoresTable): ItemMeans {
  const nItems = table.items.length;
  const cells = table.models.length * nItems;
  const sum = new Float64Array(cells);
  const count = new Int32Array(cells);
  for (let r = 0; r < table.rowCount; r++) {
    const cell = table.model[r] * nItems + table.item[r];
    sum[cell] += table.score[r];
    count[cell] += 1;
  }
  const mean = new Float64Array(cells);
  for (let c = 0; c < cells; c++) mean[c] = count[c] > 0 ? sum[c] / count[c] : NaN;
  const squares = new Float64Array(cells);
  for (let r = 0; r < table.rowCount; r++) {
    const cell = table.model[r] * nItems + table.item[r];
    const d = table.score[r] - mean[cell];
    squares[cell] += d * d;
  }
  const variance = new Float64Array(cells);
  for (let c = 0; c < cells; c++) variance[c] = count[c] > 1 ? squares[c] / (count[c] - 1) : NaN;
  return { models: table.models, items: table.items, mean, count, variance };
}

/** Several models' scores on the items all of them scored, aligned position by position. */
export interface AlignedScores {
  source: string;
  models: string[];
  /** The common items, in the order they first appear in the table. */
  items: string[];
  /** Per model (same order as `models`): repeat-averaged score per aligned item. */
  scores: Float64Array[];
  /** Per model: how many repeats each aligned item had. */
  repeats: Int32Array[];
  /** Per model: the sample variance of each item's repeats (NaN with one repeat). */
  repeatVariance: Float64Array[];
  /** Per aligned item: index into `strata`, or null when the table has no stratum column. */
  stratum: Int32Array | null;
  strata: string[];
  /** Per aligned item: index into `clusters` (only clusters that occur here), or null. */
  cluster: Int32Array | null;
  clusters: string[];
  /** Items left out because some model did not score them (only with dropUnpaired). */
  dropped: number;
  droppedItems: string[];
}

/**
 * The aligned scores with the models ordered best first: by mean score, highest first, ties in
 * their given order; each model keeps its scores, repeats and repeat variances. compare's every-
 * pair mode uses it so that each estimate reads "the better-scoring model minus the other".
 * @example alignedBestFirst(alignModels(scoresFromRows([{ item: 'i', model: 'x', score: 0 }, { item: 'i', model: 'y', score: 1 }]), ['x', 'y'])).models // => ['y', 'x']
 */
export function alignedBestFirst(aligned: AlignedScores): AlignedScores {
  const means = aligned.scores.map((s) => s.reduce((x, y) => x + y, 0) / s.length);
  const order = aligned.models.map((_, k) => k).sort((i, j) => means[j] - means[i] || i - j);
  return {
    ...aligned,
    models: order.map((k) => aligned.models[k]),
    scores: order.map((k) => aligned.scores[k]),
    repeats: order.map((k) => aligned.repeats[k]),
    repeatVariance: order.map((k) => aligned.repeatVariance[k]),
  };
}

/** Two models' aligned scores, with the per-item differences A − B. */
export interface PairedScores extends AlignedScores {
  a: string;
  b: string;
  scoreA: Float64Array;
  scoreB: Float64Array;
  differences: Float64Array;
}

export interface AlignOptions {
  /** Leave out items some model did not score instead of throwing (the CLI's --drop-unpaired). */
  dropUnpaired?: boolean;
}

/**
 * Aligns the named models on the items every one of them scored, averaging repeats.
 * @param table a loaded scores table.
 * @param models two or more distinct model names present in the table.
 * @throws {InputError} when a model is not in the table, or when some items are not scored by
 *   every model and dropUnpaired is not set (the message gives the count and the first ids).
 */
export function alignModels(table: ScoresTable, models: readonly string[], options: AlignOptions = {}): AlignedScores {
  if (models.length < 1) throw new InputError('name at least one model', { file: table.source });
  const modelIndex = models.map((name) => {
    const m = table.models.indexOf(name);
    if (m < 0) throw new InputError(`model "${name}" is not in the scores (models: ${table.models.join(', ')})`, { file: table.source });
    return m;
  });
  if (new Set(models).size !== models.length) throw new InputError('the same model is named twice', { file: table.source, value: models.join(',') });
  const means = itemMeans(table);
  const nItems = table.items.length;
  const kept: number[] = [];
  const unpaired: string[] = [];
  for (let i = 0; i < nItems; i++) {
    let scoredBy = 0;
    for (const m of modelIndex) if (means.count[m * nItems + i] > 0) scoredBy += 1;
    if (scoredBy === models.length) kept.push(i);
    else if (scoredBy > 0) unpaired.push(table.items[i]);
  }
  if (unpaired.length > 0 && !options.dropUnpaired) {
    const who = models.length === 2 ? `both "${models[0]}" and "${models[1]}"` : `every one of ${models.join(', ')}`;
    throw new InputError(`${unpaired.length} item${unpaired.length === 1 ? ' is' : 's are'} not scored by ${who}: ${listIds(unpaired)}; pass --drop-unpaired to leave them out`, {
      file: table.source,
    });
  }
  if (kept.length === 0) throw new InputError(`no item is scored by ${models.join(' and ')}`, { file: table.source });
  const n = kept.length;
  // Plain loops: TypedArray.from with a mapping function costs V8 about 10× more per element (0.6 s
  // of a 10⁶-item compare).
  const pick = <T extends Float64Array | Int32Array>(from: T, m: number, out: T): T => {
    const base = m * nItems;
    for (let k = 0; k < n; k++) out[k] = from[base + kept[k]];
    return out;
  };
  const scores = modelIndex.map((m) => pick(means.mean, m, new Float64Array(n)));
  const repeats = modelIndex.map((m) => pick(means.count, m, new Int32Array(n)));
  const repeatVariance = modelIndex.map((m) => pick(means.variance, m, new Float64Array(n)));
  let cluster: Int32Array | null = null;
  const clusters: string[] = [];
  if (table.hasCluster) {
    const remap = new Map<number, number>();
    cluster = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const c = table.itemCluster[kept[k]];
      let local = remap.get(c);
      if (local === undefined) {
        local = clusters.length;
        remap.set(c, local);
        clusters.push(table.clusters[c]);
      }
      cluster[k] = local;
    }
  }
  const items = new Array<string>(n);
  for (let k = 0; k < n; k++) items[k] = table.items[kept[k]];
  let stratum: Int32Array | null = null;
  if (table.hasStratum) {
    stratum = new Int32Array(n);
    for (let k = 0; k < n; k++) stratum[k] = table.itemStratum[kept[k]];
  }
  return {
    source: table.source,
    models: [...models],
    items,
    scores,
    repeats,
    repeatVariance,
    stratum,
    strata: table.strata,
    cluster,
    clusters,
    dropped: unpaired.length,
    droppedItems: unpaired,
  };
}

/**
 * Pairs two models' scores item by item: the input of every paired analysis.
 * @example pairScores(table, 'alpha', 'beta').differences // => Float64Array of A − B per item
 * @throws {InputError} as alignModels.
 */
export function pairScores(table: ScoresTable, a: string, b: string, options: AlignOptions = {}): PairedScores {
  if (a === b) throw new InputError('compare two different models', { file: table.source, value: a });
  const aligned = alignModels(table, [a, b], options);
  const [scoreA, scoreB] = aligned.scores;
  const differences = new Float64Array(scoreA.length);
  for (let k = 0; k < differences.length; k++) differences[k] = scoreA[k] - scoreB[k];
  return { ...aligned, a, b, scoreA, scoreB, differences };
}

/**
 * Checks that every cluster lies within one stratum, as resampling clusters within strata needs.
 * @throws {InputError} naming the cluster, its two strata and an item of each.
 */
export function checkClustersWithinStrata(aligned: AlignedScores): void {
  const { cluster, stratum, clusters, strata, items } = aligned;
  if (cluster === null || stratum === null) return;
  const first = new Map<number, number>();
  for (let i = 0; i < cluster.length; i++) {
    const seen = first.get(cluster[i]);
    if (seen === undefined) first.set(cluster[i], i);
    else if (stratum[seen] !== stratum[i]) {
      throw new InputError(
        `cluster "${clusters[cluster[i]]}" has items in two strata ("${strata[stratum[seen]]}" for "${items[seen]}", "${strata[stratum[i]]}" for "${items[i]}"): resampling clusters within strata needs each cluster inside one stratum`,
        { file: aligned.source, value: clusters[cluster[i]] },
      );
    }
  }
}
