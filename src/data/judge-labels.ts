import { requiredText, toFiniteNumber } from './columns.js';
import { InputError } from './errors.js';
import { assertNoLookalikeNames } from './lookalike-names.js';
import { openTable } from './read.js';

/** One (item, candidate) row of a judge-validation table. */
export interface JudgeLabelRow {
  item: string;
  model: string;
  line: number;
  /** The judge's score (required on every row). */
  judge: number;
  /** The human label; undefined when the cell is empty (not labelled). */
  human?: number;
  /** The judge's score in a second run (drift); undefined when the cell is empty or no column. */
  rerun?: number;
  stratum?: string;
  cluster?: string;
  /** Output length (any unit, e.g. tokens); undefined on an unlabelled row with an empty cell. */
  length?: number;
  /** Position of the output in a pairwise prompt (e.g. 1 or 2). */
  position?: number;
  /** Named numeric covariates (--covariate), by name. */
  covariates: Record<string, number>;
}

/** A judge-validation table and which optional columns it has. */
export interface JudgeLabelsTable {
  source: string;
  rows: JudgeLabelRow[];
  /** Items and models in order of first appearance. */
  items: string[];
  models: string[];
  humanColumn: string;
  judgeColumn: string;
  rerunColumn: string | null;
  covariates: string[];
  hasStratum: boolean;
  hasCluster: boolean;
  hasLength: boolean;
  hasPosition: boolean;
}

/** Options of {@link loadJudgeLabels}. */
export interface LoadJudgeLabelsOptions {
  /** Column of human labels (empty cell: not labelled); default 'score'. */
  humanColumn?: string;
  /** Column of the judge's scores; default 'judge'. */
  judgeColumn?: string;
  /** Column of the judge's scores in a second run (anchor items; empty: not re-judged). */
  rerunColumn?: string;
  /** Numeric columns to probe as covariates of the judge's error. */
  covariates?: readonly string[];
}

/**
 * Loads a table for `benchplan judge`: CSV or JSONL, one row per (item, candidate) with `item`,
 * `model`, the judge's score (column `judge`), the human label (column `score`, empty where not
 * labelled), and optionally `stratum`, `cluster`, `length` (output length), `position` (slot in a
 * pairwise prompt), a rerun column and named covariates. length, position and covariates must be
 * numbers on labelled rows (the probes use them) and may be empty elsewhere.
 * @throws {InputError} naming the file, line, field and value: a missing column, an empty id, a
 *   human label without a judge score, a non-numeric value, a duplicate (item, model), or an item
 *   whose stratum or cluster differs between rows.
 * @example loadJudgeLabels('examples/judge-labels.csv').models // => ['alpha', 'beta', 'gamma']
 */
export function loadJudgeLabels(path: string, options: LoadJudgeLabelsOptions = {}): JudgeLabelsTable {
  const humanColumn = options.humanColumn ?? 'score';
  const judgeColumn = options.judgeColumn ?? 'judge';
  const rerunColumn = options.rerunColumn ?? null;
  const covariates = [...(options.covariates ?? [])];
  const reader = openTable(path);
  const rows: JudgeLabelRow[] = [];
  const items: string[] = [];
  const models: string[] = [];
  const seenItem = new Map<string, { stratum?: string; cluster?: string; line: number }>();
  const seenPair = new Map<string, number>();
  const present = { stratum: false, cluster: false, length: false, position: false };
  let first = true;
  const check = (columns: string[], line: number) => {
    const need = ['item', 'model', judgeColumn, humanColumn, ...(rerunColumn !== null ? [rerunColumn] : []), ...covariates];
    for (const name of need) if (!columns.includes(name)) throw new InputError(`missing column "${name}"${name === humanColumn ? ' (the human labels; name another with --human)' : name === judgeColumn ? ' (the judge scores; name another with --judge)' : ''}`, { file: path, line, value: columns.join(',') });
    present.stratum = columns.includes('stratum');
    present.cluster = columns.includes('cluster');
    present.length = columns.includes('length');
    present.position = columns.includes('position');
  };
  if (reader.columns) check(reader.columns, 1);
  for (const { line, values } of reader.records) {
    if (first && !reader.columns) check(Object.keys(values), line);
    first = false;
    const id = (field: string): string => requiredText(values, field, path, line);
    const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    const optionalNumber = (field: string, what: string): number | undefined => {
      const raw = values[field];
      if (blank(raw)) return undefined;
      const x = toFiniteNumber(raw);
      if (x === undefined) throw new InputError(`${field} (${what}) must be a finite number, or empty`, { file: path, line, field, value: raw });
      return x;
    };
    const item = id('item');
    const model = id('model');
    const key = `${item}\u0000${model}`;
    const dup = seenPair.get(key);
    if (dup !== undefined) throw new InputError(`item "${item}" and model "${model}" appear twice (first on line ${dup})`, { file: path, line, field: 'model', value: model });
    seenPair.set(key, line);
    const human = optionalNumber(humanColumn, 'the human label');
    const judgeRaw = values[judgeColumn];
    if (blank(judgeRaw)) {
      throw new InputError(human !== undefined ? `a human label without a judge score: every row needs the judge's score (${humanColumn} is ${human})` : "every row needs the judge's score", { file: path, line, field: judgeColumn, value: judgeRaw ?? null });
    }
    const judge = toFiniteNumber(judgeRaw);
    if (judge === undefined) throw new InputError(`${judgeColumn} (the judge score) must be a finite number`, { file: path, line, field: judgeColumn, value: judgeRaw });
    const row: JudgeLabelRow = { item, model, line, judge, covariates: {} };
    if (human !== undefined) row.human = human;
    if (rerunColumn !== null) {
      const r = optionalNumber(rerunColumn, "the judge's score in the second run");
      if (r !== undefined) row.rerun = r;
    }
    const probe = (field: string, what: string): number | undefined => {
      const x = optionalNumber(field, what);
      if (x === undefined && human !== undefined) throw new InputError(`${field} (${what}) is needed on every labelled row: the bias probes regress on it`, { file: path, line, field, value: values[field] ?? null });
      return x;
    };
    if (present.length) row.length = probe('length', 'output length');
    if (present.position) row.position = probe('position', 'position in the prompt');
    for (const c of covariates) {
      const x = probe(c, 'a covariate');
      if (x !== undefined) row.covariates[c] = x;
    }
    if (present.stratum) row.stratum = id('stratum');
    if (present.cluster) row.cluster = id('cluster');
    const known = seenItem.get(item);
    if (!known) {
      seenItem.set(item, { stratum: row.stratum, cluster: row.cluster, line });
      items.push(item);
    } else {
      if (known.stratum !== row.stratum) throw new InputError(`item "${item}" has stratum "${known.stratum}" on line ${known.line} but another here`, { file: path, line, field: 'stratum', value: row.stratum });
      if (known.cluster !== row.cluster) throw new InputError(`item "${item}" has cluster "${known.cluster}" on line ${known.line} but another here`, { file: path, line, field: 'cluster', value: row.cluster });
    }
    if (!models.includes(model)) models.push(model);
    rows.push(row);
  }
  if (first) throw new InputError('has no rows', { file: path });
  assertNoLookalikeNames(models, { file: path, field: 'model', lineOf: (name) => rows.find((r) => r.model === name)?.line });
  return { source: path, rows, items, models, humanColumn, judgeColumn, rerunColumn, covariates, hasStratum: present.stratum, hasCluster: present.cluster, hasLength: present.length, hasPosition: present.position };
}
