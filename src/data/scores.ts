import { FloatColumn, IntColumn, Interner, toFiniteNumber, toText } from './columns.js';
import { InputError, showValue } from './errors.js';
import { IdSpellings } from './id-spelling.js';
import { OUTCOME_KINDS, OUTCOME_SCORE, outcomeContradicts, outcomeKind, type OutcomeKind } from './outcomes.js';
import { openTable, type TableRecord } from './read.js';

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
    const itemName = this.id(values.item, 'item', line);
    const modelName = this.id(values.model, 'model', line);

    // The score first: a bad score in a table with an outcome column is named as the score.
    const rawScore = values.score;
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
      const raw = toText(values.outcome);
      const canonical = raw === undefined ? undefined : outcomeKind(raw);
      if (canonical === undefined) {
        const what = raw === undefined || raw.trim() === '' ? 'outcome is empty: it must be one of' : 'outcome must be one of';
        this.fail(`${what} ${OUTCOME_KINDS.join(', ')} (or correct, wrong, hallucinated)`, line, values.outcome ?? '');
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
      const x = toFiniteNumber(values.repeat);
      if (x === undefined || !Number.isInteger(x) || x < 0 || x > 2 ** 31 - 1) {
        this.fail('repeat must be a whole number ≥ 0', line, values.repeat);
      }
      rep = x;
    }

    const i = this.items.id(itemName);
    const stratum = this.present.stratum ? this.strata.id(this.id(values.stratum, 'stratum', line)) : -1;
    const cluster = this.present.cluster ? this.clusters.id(this.id(values.cluster, 'cluster', line)) : -1;
    if (i === this.itemStratum.length) {
      this.itemStratum.push(stratum);
      this.itemCluster.push(cluster);
      this.itemLine.push(line);
    } else {
      if (this.itemStratum.data[i] !== stratum) {
        this.fail(
          `item "${itemName}" has stratum "${this.strata.names[this.itemStratum.data[i]]}" on line ${this.itemLine.data[i]} but a different stratum here`,
          line,
          values.stratum,
        );
      }
      if (this.itemCluster.data[i] !== cluster) {
        this.fail(
          `item "${itemName}" has cluster "${this.clusters.names[this.itemCluster.data[i]]}" on line ${this.itemLine.data[i]} but a different cluster here`,
          line,
          values.cluster,
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
    checkDuplicates(table);
    return table;
  }
}

/** Duplicate (item, model, repeat) rows: found by sorting row numbers, so memory stays O(rows). */
function checkDuplicates(table: ScoresTable): void {
  const order = new Int32Array(table.rowCount);
  for (let r = 0; r < order.length; r++) order[r] = r;
  const { item, model, repeat } = table;
  order.sort((x, y) => item[x] - item[y] || model[x] - model[y] || repeat[x] - repeat[y] || x - y);
  for (let k = 1; k < order.length; k++) {
    const x = order[k - 1];
    const y = order[k];
    if (item[x] === item[y] && model[x] === model[y] && repeat[x] === repeat[y]) {
      const what = table.hasRepeat
        ? `duplicate row for item "${table.items[item[y]]}", model "${table.models[model[y]]}", repeat ${repeat[y]} (first on line ${table.line[x]})`
        : `duplicate row for item "${table.items[item[y]]}" and model "${table.models[model[y]]}" (first on line ${table.line[x]}); add a repeat column if these are repeats`;
      throw new InputError(what, { file: table.source, line: table.line[y], value: `${table.items[item[y]]},${table.models[model[y]]}` });
    }
  }
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
