import { FloatColumn, IntColumn, Interner, plainDecimalAt, toFiniteNumber, toText } from './columns.js';
import { InputError, showValue } from './errors.js';
import { IdSpellings } from './id-spelling.js';
import { assertNoLookalikeNames } from './lookalike-names.js';
import { OUTCOME_KINDS, OUTCOME_SCORE, outcomeContradicts, outcomeKind, type OutcomeKind } from './outcomes.js';
import { MAX_RECORD_CHARS, openTable, readTextChunks, type TableRecord } from './read.js';
import { extname } from 'node:path';

/** One row of the scores table as a notebook would write it. */
export interface ScoreRow {
  item: string;
  model: string;
  score?: number;
  stratum?: string;
  cluster?: string;
  outcome?: string;
  repeat?: number;
}

/**
 * The scores table in columns: one entry a row, strings interned to indices.
 * Stratum and cluster are per item (they must agree across models); outcome is per row.
 */
export interface ScoresTable {
  /** Where the rows came from, for messages. */
  source: string;
  rowCount: number;
  items: string[];
  models: string[];
  /** Stratum names, in order of first appearance; empty when the table has no stratum column. */
  strata: string[];
  /** Cluster (document) names, in order of first appearance; empty without a cluster column. */
  clusters: string[];
  hasStratum: boolean;
  hasCluster: boolean;
  hasOutcome: boolean;
  hasRepeat: boolean;
  /** Per row: item index, model index, score, repeat (0 when absent), outcome (index into OUTCOME_KINDS, −1 when absent), source line. */
  item: Int32Array;
  model: Int32Array;
  score: Float64Array;
  repeat: Int32Array;
  outcome: Int8Array;
  line: Int32Array;
  /** Per item: stratum index and cluster index (−1 when absent). */
  itemStratum: Int32Array;
  itemCluster: Int32Array;
}

/**
 * The largest score magnitude a table may hold: 10¹⁵, far past any score unit (0/1, [0, 1],
 * points, cost), below 2⁵³ so whole-number scores stay exact, and small enough that differences,
 * sums and sums of squares over millions of rows stay finite (1e308 − (−1e308) is Infinity).
 */
export const MAX_ABS_SCORE = 1e15;

const OPTIONAL = ['stratum', 'cluster', 'outcome', 'repeat'] as const;
type Optional = (typeof OPTIONAL)[number];

/**
 * Accumulates score rows, validating each as it arrives: ids present, score finite, outcome
 * known, repeat a whole number, the item's stratum and cluster the same on every row.
 */
class ScoresBuilder {
  private readonly items = new Interner();
  private readonly models = new Interner();
  private readonly strata = new Interner();
  private readonly clusters = new Interner();
  private readonly item = new IntColumn();
  private readonly model = new IntColumn();
  private readonly score = new FloatColumn();
  private readonly repeat = new IntColumn();
  private readonly outcome = new IntColumn();
  private readonly line = new IntColumn();
  private readonly itemStratum = new IntColumn();
  private readonly itemCluster = new IntColumn();
  private readonly itemLine = new IntColumn();
  private present: Record<Optional, boolean> | null = null;
  private firstLine = 0;

  constructor(private readonly source: string, columns: string[] | null) {
    if (columns) {
      this.present = { stratum: false, cluster: false, outcome: false, repeat: false };
      for (const name of OPTIONAL) this.present[name] = columns.includes(name);
      for (const name of ['item', 'model']) {
        if (!columns.includes(name)) this.fail(`missing required column "${name}"`, 1, columns.join(','));
      }
      if (!columns.includes('score') && !columns.includes('outcome')) {
        this.fail('missing required column "score" (or "outcome" to derive it)', 1, columns.join(','));
      }
    }
  }

  private fail(what: string, line: number, value?: unknown): never {
    throw new InputError(what, value === undefined ? { file: this.source, line } : { file: this.source, line, value });
  }

  add({ line, values }: TableRecord): void {
    if (this.present === null) {
      this.present = { stratum: false, cluster: false, outcome: false, repeat: false };
      for (const name of OPTIONAL) this.present[name] = values[name] !== undefined;
      this.firstLine = line;
    } else {
      for (const name of OPTIONAL) {
        const has = values[name] !== undefined;
        if (has !== this.present[name]) {
          this.fail(
            has ? `column "${name}" appears here but not on line ${this.firstLine || 1}` : `column "${name}" is missing here but present on earlier rows`,
            line,
            has ? values[name] : undefined,
          );
        }
      }
    }
    this.addRow(line, values.item, values.model, values.score, values.stratum, values.cluster, values.outcome, values.repeat);
  }

  /**
   * One row's cells, after add has checked which columns it has (or, for the CSV fast path of
   * loadScores, the header did): the cells as read, or the score as a number already parsed in place.
   */
  addRow(line: number, itemValue: unknown, modelValue: unknown, rawScore: unknown, stratumValue: unknown, clusterValue: unknown, outcomeValue: unknown, repeatValue: unknown): void {
    if (this.present === null) throw new Error('addRow before the columns are known');
    const itemName = this.id(itemValue, 'item', line);
    const modelName = this.id(modelValue, 'model', line);

    // The score first: a bad score in a table with an outcome column is named as the score.
    const scoreGiven = rawScore !== undefined && !(this.present.outcome && typeof rawScore === 'string' && rawScore.trim() === '');
    let score = NaN;
    if (scoreGiven) {
      const x = toFiniteNumber(rawScore);
      if (x === undefined) this.fail('score must be a finite number', line, rawScore);
      if (Math.abs(x) > MAX_ABS_SCORE) this.fail(`score must be between -1e15 and 1e15 (a difference or a square of larger scores loses all precision or overflows)`, line, rawScore);
      score = x;
    }
    let kind = -1;
    if (this.present.outcome) {
      const raw = toText(outcomeValue);
      const canonical = raw === undefined ? undefined : outcomeKind(raw);
      if (canonical === undefined) {
        const what = raw === undefined || raw.trim() === '' ? 'outcome is empty: it must be one of' : 'outcome must be one of';
        this.fail(`${what} ${OUTCOME_KINDS.join(', ')} (or correct, wrong, hallucinated)`, line, outcomeValue ?? '');
      }
      kind = OUTCOME_KINDS.indexOf(canonical);
      if (scoreGiven) {
        const contradiction = outcomeContradicts(canonical, score);
        if (contradiction !== undefined) this.fail(`outcome "${raw?.trim()}" contradicts the score: ${contradiction}`, line, rawScore);
      }
    }
    // A row with an outcome may leave the score empty: the outcome supplies it.
    if (!scoreGiven) {
      if (kind < 0) this.fail('score is missing and there is no outcome to derive it from', line);
      score = OUTCOME_SCORE[OUTCOME_KINDS[kind] as OutcomeKind];
    }
    let rep = 0;
    if (this.present.repeat) {
      const x = toFiniteNumber(repeatValue);
      if (x === undefined || !Number.isInteger(x) || x < 0 || x > 2 ** 31 - 1) {
        this.fail('repeat must be a whole number ≥ 0', line, repeatValue);
      }
      rep = x;
    }

    const i = this.items.id(itemName);
    const stratum = this.present.stratum ? this.strata.id(this.id(stratumValue, 'stratum', line)) : -1;
    const cluster = this.present.cluster ? this.clusters.id(this.id(clusterValue, 'cluster', line)) : -1;
    if (i === this.itemStratum.length) {
      this.itemStratum.push(stratum);
      this.itemCluster.push(cluster);
      this.itemLine.push(line);
    } else {
      if (this.itemStratum.data[i] !== stratum) {
        this.fail(
          `item "${itemName}" has stratum "${this.strata.names[this.itemStratum.data[i]]}" on line ${this.itemLine.data[i]} but a different stratum here`,
          line,
          stratumValue,
        );
      }
      if (this.itemCluster.data[i] !== cluster) {
        this.fail(
          `item "${itemName}" has cluster "${this.clusters.names[this.itemCluster.data[i]]}" on line ${this.itemLine.data[i]} but a different cluster here`,
          line,
          clusterValue,
        );
      }
    }
    this.item.push(i);
    this.model.push(this.models.id(modelName));
    this.score.push(score);
    this.repeat.push(rep);
    this.outcome.push(kind);
    this.line.push(line);
  }

  private readonly spellings = new Map<string, IdSpellings>();

  private id(value: unknown, field: string, line: number): string {
    const text = toText(value);
    if (text === undefined || text.trim() === '') this.fail(`${field} must be a non-empty string`, line, value ?? '');
    let spellings = this.spellings.get(field);
    if (spellings === undefined) {
      const interner = field === 'item' ? this.items : field === 'model' ? this.models : field === 'stratum' ? this.strata : this.clusters;
      spellings = new IdSpellings(this.source, field, (id) => interner.get(id) !== undefined);
      this.spellings.set(field, spellings);
    }
    return spellings.trimmed(text, line);
  }

  finish(): ScoresTable {
    const present = this.present ?? { stratum: false, cluster: false, outcome: false, repeat: false };
    const table: ScoresTable = {
      source: this.source,
      rowCount: this.item.length,
      items: this.items.names,
      models: this.models.names,
      strata: this.strata.names,
      clusters: this.clusters.names,
      hasStratum: present.stratum,
      hasCluster: present.cluster,
      hasOutcome: present.outcome,
      hasRepeat: present.repeat,
      item: this.item.toArray(),
      model: this.model.toArray(),
      score: this.score.toArray(),
      repeat: this.repeat.toArray(),
      outcome: Int8Array.from(this.outcome.toArray()),
      line: this.line.toArray(),
      itemStratum: this.itemStratum.toArray(),
      itemCluster: this.itemCluster.toArray(),
    };
    if (table.rowCount === 0) throw new InputError('has no score rows', { file: this.source });
    assertNoLookalikeNames(table.models, { file: table.source, field: 'model', lineOf: (name) => firstLineOfModel(table, name) });
    checkDuplicates(table);
    return table;
  }
}

/** The line of a model's first row (for a message), or undefined for rows built in memory. */
function firstLineOfModel(table: ScoresTable, name: string): number | undefined {
  const k = table.models.indexOf(name);
  for (let r = 0; r < table.rowCount; r++) if (table.model[r] === k) return table.line[r] || undefined;
  return undefined;
}

/**
 * Duplicate (item, model, repeat) rows. The rows are grouped by item in O(rows) (a counting sort:
 * item indices are dense), then each item's few rows are sorted by (model, repeat, row); the
 * first adjacent pair that agrees is reported, which is the pair a sort of all rows by (item,
 * model, repeat, row) finds first. Memory O(rows + items).
 */
function checkDuplicates(table: ScoresTable): void {
  const { item, model, repeat, rowCount } = table;
  const nItems = table.items.length;
  const start = new Int32Array(nItems + 1);
  for (let r = 0; r < rowCount; r++) start[item[r] + 1] += 1;
  for (let i = 0; i < nItems; i++) start[i + 1] += start[i];
  const next = start.slice(0, nItems);
  const order = new Int32Array(rowCount);
  for (let r = 0; r < rowCount; r++) order[next[item[r]]++] = r;
  const before = (x: number, y: number) => model[x] - model[y] || repeat[x] - repeat[y] || x - y;
  for (let i = 0; i < nItems; i++) {
    const a = start[i];
    const b = start[i + 1];
    if (b - a < 2) continue;
    if (b - a > 32) order.subarray(a, b).sort(before);
    else {
      // Insertion sort: an item has a row per model (and repeat), a handful.
      for (let k = a + 1; k < b; k++) {
        const r = order[k];
        let j = k - 1;
        while (j >= a && before(order[j], r) > 0) {
          order[j + 1] = order[j];
          j -= 1;
        }
        order[j + 1] = r;
      }
    }
    for (let k = a + 1; k < b; k++) {
      const x = order[k - 1];
      const y = order[k];
      if (model[x] === model[y] && repeat[x] === repeat[y]) duplicateRow(table, x, y);
    }
  }
}

function duplicateRow(table: ScoresTable, x: number, y: number): never {
  const { item, model, repeat } = table;
  const what = table.hasRepeat
    ? `duplicate row for item "${table.items[item[y]]}", model "${table.models[model[y]]}", repeat ${repeat[y]} (first on line ${table.line[x]})`
    : `duplicate row for item "${table.items[item[y]]}" and model "${table.models[model[y]]}" (first on line ${table.line[x]}); add a repeat column if these are repeats`;
  throw new InputError(what, { file: table.source, line: table.line[y], value: `${table.items[item[y]]},${table.models[model[y]]}` });
}

/**
 * Loads a scores table (DESIGN.md "Scores table") from a `.csv` or `.jsonl` file, streaming:
 * memory grows with the rows parsed (about 40 bytes a row plus the distinct ids), not the text.
 * @param path the file; its extension picks the format, unless `format` is given.
 * @param format `csv` or `jsonl`, whatever the file's name (loadResults passes what the content shows).
 * @returns the table in columns.
 * @throws {InputError} naming file, line and value for a missing column, an empty id, a
 *   non-finite score, an unknown outcome, a bad repeat, an item whose stratum or cluster differs
 *   between rows, or a duplicate (item, model, repeat).
 */
export function loadScores(path: string, format?: 'csv' | 'jsonl'): ScoresTable {
  if (format === 'csv' || (format === undefined && extname(path).toLowerCase() === '.csv')) {
    const table = loadPlainCsv(path);
    if (table !== null) return table;
  }
  const reader = openTable(path, format);
  const builder = new ScoresBuilder(path, reader.columns);
  for (const record of reader.records) builder.add(record);
  return builder.finish();
}

/**
 * Builds a scores table from rows in memory, with the same checks as loadScores; line
 * numbers in messages are the 1-based row positions.
 * @example scoresFromRows([{ item: 'a', model: 'm', score: 1 }]).rowCount // => 1
 */
export function scoresFromRows(rows: readonly ScoreRow[], source = '<rows>'): ScoresTable {
  if (!Array.isArray(rows)) throw new TypeError('scoresFromRows needs an array of rows');
  const builder = new ScoresBuilder(source, null);
  rows.forEach((row, k) => builder.add({ line: k + 1, values: row as unknown as Record<string, unknown> }));
  return builder.finish();
}

/** Quotes a short list of ids for a message: `"a", "b", "c" and 4 more`. */
export function listIds(ids: readonly string[], max = 5): string {
  const shown = ids.slice(0, max).map(showValue).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

/** Thrown inside loadPlainCsv when a line needs the general CSV reader. */
const NOT_PLAIN = Symbol('not plain CSV');

/**
 * The fast path of loadScores for the usual CSV (issue #19: 10⁶ rows in well under 1.5 s): no
 * quotes, no lone carriage return, no cell written as `'=…`. Lines are cut at `\n` (a `\r` before it
 * dropped), cells at commas, and only the cells the table keeps become strings; a score is parsed
 * where it lies in the text (plainDecimalAt). The rows go through the same ScoresBuilder as the
 * general reader's, so every check and message is the same. At the first line this path does not
 * read exactly as the general reader (csvRecords and openTable) would, a quote, a stray `\r`, a
 * field count other than the header's, or a header the general reader refuses, it gives up and
 * returns null, and loadScores reads the file again the general way, from the start.
 * @returns the table, or null when the file is not plain CSV.
 */
function loadPlainCsv(path: string): ScoresTable | null {
  let builder: ScoresBuilder | null = null;
  let width = 0;
  // Column index of each cell the builder reads (−1: absent).
  let cItem = -1;
  let cModel = -1;
  let cScore = -1;
  let cStratum = -1;
  let cCluster = -1;
  let cOutcome = -1;
  let cRepeat = -1;
  const ends = new Int32Array(256);
  let lineNo = 0;

  const header = (text: string, start: number, end: number): void => {
    const names: string[] = [];
    let from = start;
    for (let i = start; i <= end; i++) {
      if (i === end || text.charCodeAt(i) === 44) {
        names.push(text.slice(from, i).trim());
        from = i + 1;
      }
    }
    const seen = new Set<string>();
    for (const name of names) {
      if (name === '' || seen.has(name)) throw NOT_PLAIN; // the general reader names the problem
      seen.add(name);
    }
    width = names.length;
    cItem = names.indexOf('item');
    cModel = names.indexOf('model');
    cScore = names.indexOf('score');
    cStratum = names.indexOf('stratum');
    cCluster = names.indexOf('cluster');
    cOutcome = names.indexOf('outcome');
    cRepeat = names.indexOf('repeat');
    builder = new ScoresBuilder(path, names);
  };

  // One line, text[start, end), without its line break.
  const line = (text: string, start: number, end: number): void => {
    lineNo += 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end -= 1;
    if (end === start) return; // a blank line, skipped as csvRecords does
    // Cell ends, checking that nothing here reads otherwise in the general reader.
    let cells = 0;
    if (text.charCodeAt(start) === 39) throw NOT_PLAIN;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 44) {
        if (cells >= ends.length - 1) throw NOT_PLAIN;
        ends[cells++] = i;
        if (i + 1 < end && text.charCodeAt(i + 1) === 39) throw NOT_PLAIN;
      } else if (c === 34 || c === 13) throw NOT_PLAIN;
    }
    ends[cells++] = end;
    if (builder === null) return header(text, start, end);
    if (cells !== width) throw NOT_PLAIN; // the general reader names the count
    const cell = (k: number): string | undefined => (k < 0 ? undefined : text.slice(k === 0 ? start : ends[k - 1] + 1, ends[k]));
    let score: unknown;
    if (cScore >= 0 && cOutcome < 0) {
      const from = cScore === 0 ? start : ends[cScore - 1] + 1;
      score = plainDecimalAt(text, from, ends[cScore]) ?? text.slice(from, ends[cScore]);
    } else score = cell(cScore);
    builder.addRow(lineNo, cell(cItem), cell(cModel), score, cell(cStratum), cell(cCluster), cell(cOutcome), cell(cRepeat));
  };

  try {
    let pending = '';
    for (const chunk of readTextChunks(path)) {
      let from = 0;
      let nl = chunk.indexOf('\n');
      if (pending !== '' && nl >= 0) {
        const joined = pending + chunk.slice(0, nl);
        line(joined, 0, joined.length);
        pending = '';
        from = nl + 1;
        nl = chunk.indexOf('\n', from);
      }
      while (nl >= 0) {
        line(chunk, from, nl);
        from = nl + 1;
        nl = chunk.indexOf('\n', from);
      }
      pending += chunk.slice(from);
      if (pending.length > MAX_RECORD_CHARS) throw NOT_PLAIN;
    }
    if (pending !== '') line(pending, 0, pending.length);
  } catch (error) {
    if (error === NOT_PLAIN) return null;
    throw error;
  }
  if (builder === null) return null; // no header: the general reader says so
  return (builder as ScoresBuilder).finish();
}
