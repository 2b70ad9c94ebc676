import { requiredText, toFiniteNumber, toText } from './columns.js';
import { InputError } from './errors.js';
import { assertNoLookalikeNames } from './lookalike-names.js';
import { openTable } from './read.js';

/** One row of an unlabelled pool or a judged table: an (item, model) with its fields. */
export interface PoolRow {
  item: string;
  model: string;
  line: number;
  /** The compared output (select); undefined when the table has no output column. */
  output?: string;
  /** Judge score; undefined without a judge column. */
  judge?: number;
  /** Human score; undefined when the table has no score column or the cell is empty (not labelled). */
  score?: number;
  stratum?: string;
  cluster?: string;
}

/** A pool or judged table: rows, and which optional columns it has. */
export interface PoolTable {
  source: string;
  rows: PoolRow[];
  /** Items and models in order of first appearance. */
  items: string[];
  models: string[];
  hasStratum: boolean;
  hasCluster: boolean;
  hasJudge: boolean;
  hasScore: boolean;
  hasOutput: boolean;
}

/** Options of {@link loadPool}. */
export interface LoadPoolOptions {
  /** Column holding the compared output (required when given). */
  outputColumn?: string;
  /** Column holding the judge's score (finite number on every row when given). */
  judgeColumn?: string;
  /** The judge column must be there (compare --judge COLUMN). */
  requireJudge?: boolean;
}

/**
 * Loads an unlabelled pool (for `select`) or a judged table (for `compare --judge COLUMN`):
 * CSV or JSONL with `item`, `model`, and optionally the output column, a judge column,
 * `score` (human score; an empty cell means not labelled), `stratum`, `cluster`. Stratum and
 * cluster must agree across an item's rows; each (item, model) appears once.
 * @throws {InputError} naming the file, line, field and value for a missing column, an empty id,
 *   a non-numeric judge or score, a duplicate row, or an item whose stratum differs between rows.
 */
export function loadPool(path: string, options: LoadPoolOptions = {}): PoolTable {
  const reader = openTable(path);
  const rows: PoolRow[] = [];
  const items: string[] = [];
  const models: string[] = [];
  const seenItem = new Map<string, { stratum?: string; cluster?: string; line: number }>();
  const seenModel = new Set<string>();
  const seenPair = new Map<string, number>();
  const present = { stratum: false, cluster: false, judge: false, score: false, output: false };
  let first = true;
  const judgeColumn = options.judgeColumn;
  const outputColumn = options.outputColumn;
  const check = (columns: string[], line: number) => {
    for (const name of ['item', 'model']) if (!columns.includes(name)) throw new InputError(`missing required column "${name}"`, { file: path, line, value: columns.join(',') });
    if (outputColumn !== undefined && !columns.includes(outputColumn)) throw new InputError(`missing the output column "${outputColumn}"`, { file: path, line, value: columns.join(',') });
    if (judgeColumn !== undefined && options.requireJudge && !columns.includes(judgeColumn)) throw new InputError(`missing the judge column "${judgeColumn}"`, { file: path, line, value: columns.join(',') });
    present.stratum = columns.includes('stratum');
    present.cluster = columns.includes('cluster');
    present.judge = judgeColumn !== undefined && columns.includes(judgeColumn);
    present.score = columns.includes('score') && judgeColumn !== 'score';
    present.output = outputColumn !== undefined;
  };
  if (reader.columns) check(reader.columns, 1);
  for (const { line, values } of reader.records) {
    if (first && !reader.columns) check(Object.keys(values), line);
    first = false;
    const id = (field: string): string => requiredText(values, field, path, line);
    const row: PoolRow = { item: id('item'), model: id('model'), line };
    const key = `${row.item}\u0000${row.model}`;
    const dup = seenPair.get(key);
    if (dup !== undefined) throw new InputError(`item "${row.item}" and model "${row.model}" appear twice (first on line ${dup})`, { file: path, line });
    seenPair.set(key, line);
    if (present.output) {
      const v = values[outputColumn as string];
      const text = v === null || v === undefined ? undefined : typeof v === 'string' ? v : toText(v) ?? JSON.stringify(v);
      if (text === undefined) throw new InputError(`${outputColumn} is missing`, { file: path, line, field: outputColumn, value: v ?? null });
      row.output = text;
    }
    if (present.judge) {
      const x = toFiniteNumber(values[judgeColumn as string]);
      if (x === undefined) throw new InputError(`${judgeColumn} (the judge score) must be a finite number on every row`, { file: path, line, field: judgeColumn, value: values[judgeColumn as string] ?? null });
      row.judge = x;
    }
    if (present.score) {
      const raw = values.score;
      const blank = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
      if (!blank) {
        const x = toFiniteNumber(raw);
        if (x === undefined) throw new InputError('score must be a finite number, or empty when the item is not labelled', { file: path, line, field: 'score', value: raw });
        row.score = x;
      }
    }
    if (present.stratum) row.stratum = id('stratum');
    if (present.cluster) row.cluster = id('cluster');
    const known = seenItem.get(row.item);
    if (!known) {
      seenItem.set(row.item, { stratum: row.stratum, cluster: row.cluster, line });
      items.push(row.item);
    } else {
      if (known.stratum !== row.stratum) throw new InputError(`item "${row.item}" has stratum "${known.stratum}" on line ${known.line} but another here`, { file: path, line, field: 'stratum', value: row.stratum });
      if (known.cluster !== row.cluster) throw new InputError(`item "${row.item}" has cluster "${known.cluster}" on line ${known.line} but another here`, { file: path, line, field: 'cluster', value: row.cluster });
    }
    if (!seenModel.has(row.model)) {
      seenModel.add(row.model);
      models.push(row.model);
    }
    rows.push(row);
  }
  if (first) throw new InputError('has no rows', { file: path });
  assertNoLookalikeNames(models, { file: path, field: 'model', lineOf: (name) => rows.find((r) => r.model === name)?.line });
  return { source: path, rows, items, models, hasStratum: present.stratum, hasCluster: present.cluster, hasJudge: present.judge, hasScore: present.score, hasOutput: present.output };
}
