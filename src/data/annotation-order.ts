import { toFiniteNumber, toText } from './columns.js';
import { InputError } from './errors.js';
import { openTable } from './read.js';

/** When each item was labelled: read from a scores table's `order` and `batch` columns. */
export interface AnnotationOrder {
  source: string;
  /** Which columns the order came from: 'order', 'batch', both, or neither (file order). */
  hasOrder: boolean;
  hasBatch: boolean;
  /** Per item id: its order value (the first row's line number when there is no order column). */
  order: Map<string, number>;
  /** Per item id: its batch number (absent without a batch column). */
  batch: Map<string, number>;
}

/**
 * Reads the annotation order of the items of a scores table (`.csv` or `.jsonl`), for
 * `monitor`: an `order` column (any finite number, smaller first) and/or a `batch` column
 * (a whole number ≥ 0: looks happen after each batch). Every row of an item must carry the
 * same values; without either column the order is the file's (the line an item first appears on).
 * @param path the scores file (its other columns are checked by loadScores, not here).
 * @returns per-item order and batch maps.
 * @throws {InputError} naming file, line and value for a non-numeric order, a batch that is not
 *   a whole number ≥ 0, a column present on some rows only, or an item whose rows disagree.
 */
export function loadAnnotationOrder(path: string): AnnotationOrder {
  const reader = openTable(path);
  const order = new Map<string, number>();
  const batch = new Map<string, number>();
  const firstLine = new Map<string, number>();
  let hasOrder: boolean | null = reader.columns ? reader.columns.includes('order') : null;
  let hasBatch: boolean | null = reader.columns ? reader.columns.includes('batch') : null;
  for (const { line, values } of reader.records) {
    if (hasOrder === null) hasOrder = values.order !== undefined;
    if (hasBatch === null) hasBatch = values.batch !== undefined;
    for (const [name, has] of [['order', hasOrder], ['batch', hasBatch]] as const) {
      if ((values[name] !== undefined) !== has) {
        throw new InputError(has ? `column "${name}" is missing here but present on earlier rows` : `column "${name}" appears here but not on earlier rows`, { file: path, line });
      }
    }
    const item = toText(values.item)?.trim();
    if (item === undefined || item === '') continue; // loadScores names this error
    let o = line;
    if (hasOrder) {
      const x = toFiniteNumber(values.order);
      if (x === undefined) throw new InputError('order must be a finite number', { file: path, line, value: values.order });
      o = x;
    }
    let b = 0;
    if (hasBatch) {
      const x = toFiniteNumber(values.batch);
      if (x === undefined || !Number.isInteger(x) || x < 0) throw new InputError('batch must be a whole number ≥ 0', { file: path, line, value: values.batch });
      b = x;
    }
    const seen = firstLine.get(item);
    if (seen === undefined) {
      firstLine.set(item, line);
      order.set(item, o);
      if (hasBatch) batch.set(item, b);
    } else {
      if (hasOrder && order.get(item) !== o) throw new InputError(`item "${item}" has order ${order.get(item)} on line ${seen} but a different order here`, { file: path, line, value: values.order });
      if (hasBatch && batch.get(item) !== b) throw new InputError(`item "${item}" has batch ${batch.get(item)} on line ${seen} but a different batch here`, { file: path, line, value: values.batch });
    }
  }
  return { source: path, hasOrder: Boolean(hasOrder), hasBatch: Boolean(hasBatch), order, batch };
}
