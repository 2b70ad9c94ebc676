import { InputError } from '../data/errors.js';
import { OUTCOME_KINDS, type OutcomeKind } from '../data/outcomes.js';
import { alignModels } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';

/** How many outcomes of each kind: the vector a person signs off on. */
export type OutcomeCounts = Record<OutcomeKind, number>;

/** Per model and document, how many outcomes of each kind: the input of every cost calculation. */
export interface OutcomeTally {
  /** The scores file the outcomes came from. */
  source: string;
  models: string[];
  /** The documents (distinct `cluster` values, or the item ids when there is no cluster column). */
  documents: string[];
  /** Where documents come from: the `cluster` column, or one document per item. */
  documentsFrom: 'cluster' | 'item';
  /** Items every model scored (the ones counted). */
  items: number;
  /**
   * Per model (same order as `models`): outcome counts, document-major, entry
   * `d * OUTCOME_KINDS.length + k` for document d and kind OUTCOME_KINDS[k]. An item scored
   * several times (repeats) contributes the share of its repeats with each kind, so it weighs one
   * slot; without repeats every entry is a whole number.
   */
  perDocument: Float64Array[];
  /** Per model: the totals over documents. */
  counts: OutcomeCounts[];
  /** True when some item had repeats and its outcomes were averaged. */
  repeatsAveraged: boolean;
  /** Items left out because some model did not score them (only with dropUnpaired). */
  dropped: number;
  warnings: string[];
}

export interface TallyOptions {
  /** Leave out items some model did not score instead of throwing (the CLI's --drop-unpaired). */
  dropUnpaired?: boolean;
  /** Only these models, in this order; default every model in the table, in order of appearance. */
  models?: readonly string[];
}

/** A zero for every outcome kind, in OUTCOME_KINDS order (stable JSON keys). */
export function emptyOutcomeCounts(): OutcomeCounts {
  return Object.fromEntries(OUTCOME_KINDS.map((kind) => [kind, 0])) as OutcomeCounts;
}

/**
 * Counts each model's outcomes per document, on the items every model scored.
 * The document is the unit the cost is expressed per (DESIGN.md: `cluster` is the document a slot
 * belongs to); without a cluster column each item is its own document.
 * Repeats of an item are averaged (each repeat weighs 1/repeats), as everywhere in benchplan.
 * O(rows + models × documents × kinds).
 * @param table a scores table with an `outcome` column.
 * @returns per-document and total counts per model.
 * @throws {InputError} when the table has no outcome column, a named model is missing, or some
 *   items are not scored by every model (unless dropUnpaired).
 * @example tallyOutcomes(scoresFromRows([{ item: 's1', model: 'm', outcome: 'hit' }])).counts[0].hit // => 1
 */
export function tallyOutcomes(table: ScoresTable, options: TallyOptions = {}): OutcomeTally {
  if (!table.hasOutcome) {
    throw new InputError(`has no "outcome" column: cost scoring needs one outcome a row (${OUTCOME_KINDS.join(', ')})`, { file: table.source });
  }
  const models = options.models ? [...options.models] : [...table.models];
  const aligned = alignModels(table, models, { dropUnpaired: options.dropUnpaired ?? false });
  const nItems = table.items.length;
  const K = OUTCOME_KINDS.length;
  // Table item index → aligned position, and the position's document.
  const position = new Int32Array(nItems).fill(-1);
  const itemIndex = new Map<string, number>();
  table.items.forEach((name, i) => itemIndex.set(name, i));
  aligned.items.forEach((name, k) => {
    position[itemIndex.get(name) as number] = k;
  });
  const documents = aligned.cluster ? aligned.clusters : aligned.items;
  const documentOf = aligned.cluster ?? Int32Array.from(aligned.items, (_, k) => k);
  const modelSlot = new Int32Array(table.models.length).fill(-1);
  models.forEach((name, m) => {
    modelSlot[table.models.indexOf(name)] = m;
  });

  // Rows per (model, aligned item), so each repeat weighs 1 / repeats.
  const nAligned = aligned.items.length;
  const rowsPerCell = new Int32Array(models.length * nAligned);
  for (let r = 0; r < table.rowCount; r++) {
    const m = modelSlot[table.model[r]];
    const k = position[table.item[r]];
    if (m >= 0 && k >= 0) rowsPerCell[m * nAligned + k] += 1;
  }
  let repeatsAveraged = false;
  const perDocument = models.map(() => new Float64Array(documents.length * K));
  for (let r = 0; r < table.rowCount; r++) {
    const m = modelSlot[table.model[r]];
    const k = position[table.item[r]];
    if (m < 0 || k < 0) continue;
    const rows = rowsPerCell[m * nAligned + k];
    if (rows > 1) repeatsAveraged = true;
    perDocument[m][documentOf[k] * K + table.outcome[r]] += 1 / rows;
  }
  const counts = perDocument.map((cells) => {
    const total = emptyOutcomeCounts();
    for (let d = 0; d < documents.length; d++) {
      for (let k = 0; k < K; k++) total[OUTCOME_KINDS[k]] += cells[d * K + k];
    }
    return total;
  });
  const warnings: string[] = [];
  if (repeatsAveraged) warnings.push('some items have repeats: their outcomes are averaged, so counts may be fractional and the Wilson intervals treat each item as one slot');
  if (aligned.dropped > 0) warnings.push(`${aligned.dropped} item${aligned.dropped === 1 ? '' : 's'} not scored by every model left out`);
  return {
    source: table.source,
    models,
    documents: [...documents],
    documentsFrom: aligned.cluster ? 'cluster' : 'item',
    items: nAligned,
    perDocument,
    counts,
    repeatsAveraged,
    dropped: aligned.dropped,
    warnings,
  };
}
