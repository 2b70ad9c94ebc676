import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { OUTCOME_KINDS } from '../data/outcomes.js';
import { REPEAT_SEPARATOR, type OutputsByModel } from '../data/outputs.js';
import { InputError } from '../data/errors.js';
import { openTable, readInputHead } from '../data/read.js';
import { listIds, loadScores, scoresFromRows, type ScoreRow, type ScoresTable } from '../data/scores.js';
import { detectFileFormat, detectSource, RESULT_FORMATS, type ResultFormat } from './detect.js';
import { importResults } from './import-results.js';
import { lmEvalSamplesName } from './lm-eval.js';
import type { ImportedRow, ImportFormat, ImportOptions } from './types.js';

/** Options of loadResults: the import options of each tool, plus how to name and check the inputs. */
export interface LoadResultsOptions extends Omit<ImportOptions, 'model' | 'keepTask'> {
  /** Read every path as this format instead of detecting it from the content. */
  format?: ResultFormat;
  /** Model names by path (as given on the command line, or one file of a directory): overrides what the files say. */
  modelNames?: Readonly<Record<string, string>>;
  /** Pair items whose content digests differ (warn instead of refusing). */
  allowChangedItems?: boolean;
}

/**
 * The loader's settings as a command's JSON echoes them: each only when its flag was given, so a
 * run without them prints what it always did.
 */
export interface LoaderSettingsEcho {
  /** `--input-format`: the format every input was read as (absent: detected from each file). */
  inputFormat?: ResultFormat;
  /** `--model-name FILE=NAME`: the model names given, by input path (absent: the files' own). */
  modelNames?: Record<string, string>;
}

/** One path that was read. */
export interface LoadedSource {
  path: string;
  format: ResultFormat;
  /** The files read (a directory's result files). */
  files: string[];
  /** The model names its rows carry (after any renaming). */
  models: string[];
  rows: number;
  /** Rows left out because the run errored. */
  errors: number;
  /** Rows left out because their score was absent or NaN. */
  unscored: number;
}

/** What loadResults read: one scores table over every path, and what each path gave. */
export interface LoadResultsResult {
  table: ScoresTable;
  sources: LoadedSource[];
  /** How many items carry a content digest, and how many of them differ between inputs (with allowChangedItems). */
  digestedItems: number;
  changedItems: string[];
  /**
   * The suite's fingerprint: sha256 (hex) of the lines `item<TAB>digest\n` of every item that
   * has a digest, sorted by item (the first input's digest where they differ), and the length in
   * bytes of that listing; null when no item has a digest. Two runs of the same suite give the
   * same value whatever their files' bytes, order or scores.
   */
  suiteDigest: { sha256: string; bytes: number; items: number } | null;
  /** What each model answered on each item (model → item → text, repeats joined), where the tools' files record it; null when none does. */
  outputs?: OutputsByModel | null;
  /** The import settings each tool's files were read with (null for what did not apply). */
  settings: Record<string, string | null>;
  warnings: string[];
}

/** Which ImportOptions keys each tool reads (as importResults checks). */
const OPTION_FORMATS: Readonly<Record<string, { formats: ImportFormat[]; flag: string }>> = {
  itemKey: { formats: ['promptfoo'], flag: '--item-key' },
  score: { formats: ['promptfoo'], flag: '--score' },
  scorer: { formats: ['inspect'], flag: '--scorer' },
  epochReducer: { formats: ['inspect'], flag: '--epoch-reducer' },
  metric: { formats: ['lm-eval'], flag: '--metric' },
  filter: { formats: ['lm-eval'], flag: '--filter' },
};

interface SourceRows {
  path: string;
  format: ResultFormat;
  files: string[];
  rows: ImportedRow[];
  /** Where each row came from, for messages: `file:line` or the file. */
  where: string[];
  /** The file each row came from: digests are compared between files, never within one run's file. */
  fileOf: string[];
  named: boolean;
  errors: number;
  unscored: number;
}

/**
 * Reads scores from any mix of inputs into one scores table, so every command can take the
 * tools' files directly: promptfoo results, Inspect logs and log directories, lm-eval samples
 * files and output directories, and benchplan's own CSV / JSONL tables, each recognised by its
 * content (detectSource) unless options.format says.
 * - model names come from the files (options.modelNames overrides them per path); when two
 *   inputs give the same model name for the same items (two promptfoo runs of one provider, say),
 *   each is named `NAME (file)` and a warning says so, so a baseline and a candidate stay apart;
 * - items: each tool's ids (see importResults); with several tasks over all inputs, ids are
 *   prefixed `task/` consistently; several promptfoo files pair on the hash of each test's vars
 *   unless options.itemKey says `testIdx`;
 * - suite binding: every row carries its item's content digest where the file records the
 *   content (lm-eval doc_hash, Inspect input and target, promptfoo vars, or a `digest`
 *   column); an item whose digest differs between inputs is refused, naming the item and
 *   both files, unless options.allowChangedItems;
 * - one benchplan table alone is read by loadScores exactly as before.
 * @param paths files or directories, in order (the first is the baseline where order matters).
 * @returns the table, per-input counts and models, the settings used, and warnings (cancelled
 *   or limited runs, NaN scores, renamed models, changed items allowed).
 * @throws {InputError} for a path of no known format, an option no input's format reads, an
 *   item whose content differs between inputs, and everything loadScores and importResults refuse.
 * @example loadResults(['examples/promptfoo/main.json', 'examples/promptfoo/pr.json']).table.models.length // => 2
 */
export function loadResults(paths: readonly string[], options: LoadResultsOptions = {}): LoadResultsResult {
  if (paths.length === 0) throw new InputError('name at least one results file', { file: 'FILE' });
  if (options.format !== undefined && !(RESULT_FORMATS as readonly string[]).includes(options.format)) {
    throw new InputError(`must be one of ${RESULT_FORMATS.join(', ')}`, { file: '--input-format', value: options.format });
  }
  const detected = paths.map((path) => detectSource(path, options.format));
  const formats = new Set(detected.map((d) => d.format));
  for (const [key, { formats: readers, flag }] of Object.entries(OPTION_FORMATS)) {
    if ((options as Record<string, unknown>)[key] === undefined) continue;
    if (!readers.some((f) => formats.has(f))) throw new InputError(`applies to ${readers.join(', ')} files only, and no input is one (inputs: ${[...formats].join(', ')})`, { file: flag });
  }
  const modelNames = options.modelNames ?? {};
  for (const key of Object.keys(modelNames)) {
    if (!detected.some((d) => d.path === key || d.files.includes(key))) {
      throw new InputError(`names no input given (inputs: ${paths.join(', ')})`, { file: '--model-name', value: `${key}=${modelNames[key]}` });
    }
  }

  // One benchplan table and nothing else: read as always (its own line numbers in every message).
  if (detected.length === 1 && detected[0].format === 'table' && modelNames[paths[0]] === undefined) {
    const path = paths[0];
    const table = loadScores(path, tableFormatOf(path));
    const digests = tableDigests(path);
    const changed = digests === undefined ? [] : checkTableDigests(path, digests, options.allowChangedItems ?? false);
    return {
      table,
      sources: [{ path, format: 'table', files: [path], models: table.models, rows: table.rowCount, errors: 0, unscored: 0 }],
      digestedItems: digests === undefined ? 0 : new Set(digests.map((d) => d.item)).size,
      changedItems: changed,
      suiteDigest: suiteDigestOf((digests ?? []).map((d) => [d.item, d.digest])),
      settings: {},
      warnings: changed.length > 0 ? [changedWarning(changed)] : [],
    };
  }

  const promptfooFiles = detected.filter((d) => d.format === 'promptfoo').reduce((n, d) => n + d.files.length, 0);
  const warnings: string[] = [];
  const settings: Record<string, string | null> = {};
  const tableChanged: string[] = [];
  const sources: SourceRows[] = detected.map((d) => {
    const name = modelNames[d.path];
    if (d.format === 'table') return tableSource(d.path, d.files, name, options.allowChangedItems ?? false, tableChanged);
    const importOptions: ImportOptions = { keepTask: true, withDigest: true, ...(options.keepOutputs ? { keepOutputs: true } : {}) };
    for (const key of ['stratumKey', 'clusterKey', 'maxJsonBytes', 'maxExpansionRatio', 'maxTotalBytes', 'maxEntryBytes', 'budget'] as const) {
      if (options[key] !== undefined) (importOptions as Record<string, unknown>)[key] = options[key];
    }
    for (const [key, { formats: readers }] of Object.entries(OPTION_FORMATS)) {
      if (readers.includes(d.format) && (options as Record<string, unknown>)[key] !== undefined) (importOptions as Record<string, unknown>)[key] = (options as Record<string, unknown>)[key];
    }
    if (d.format === 'promptfoo' && importOptions.itemKey === undefined && promptfooFiles > 1) importOptions.itemKey = 'vars';
    if (name !== undefined) importOptions.model = [name];
    else {
      // A name given for one file of a directory applies to that file only.
      const perFile = d.files.map((f) => modelNames[f]);
      if (perFile.some((n) => n !== undefined)) {
        if (perFile.some((n) => n === undefined)) throw new InputError(`names one file of the directory ${d.path}: name every file, or the directory`, { file: '--model-name' });
        importOptions.model = perFile as string[];
      }
    }
    if (d.format === 'lm-eval' && d.files.length > 1 && d.files.some((f) => f !== d.path)) checkOneRunPerTask(d.path, d.files);
    const result = importResults(d.format, d.files, importOptions);
    for (const w of result.warnings) if (!warnings.includes(w)) warnings.push(w);
    for (const [key, value] of Object.entries(result.settings)) if (value !== null && key !== 'stratumKey' && key !== 'clusterKey') settings[key] = String(value);
    // importResults keeps the rows in file order, so the per-file counts say which file each came from.
    const fileOf = result.files.flatMap((f) => Array.from({ length: f.rows }, () => f.file));
    if (fileOf.length !== result.rows.length) throw new Error(`row count ${result.rows.length} differs from the per-file counts ${fileOf.length}`);
    return {
      path: d.path,
      format: d.format,
      files: d.files,
      rows: result.rows,
      where: fileOf,
      fileOf,
      named: importOptions.model !== undefined,
      errors: result.errors,
      unscored: result.unscored,
    };
  });

  prefixTasks(sources);
  renameClashingModels(sources, warnings);
  const changed = [...new Set([...tableChanged, ...checkDigests(sources, options.allowChangedItems ?? false)])];
  if (changed.length > 0) warnings.push(changedWarning(changed));

  const rows: ScoreRow[] = [];
  const digested = new Set<string>();
  const pairs: Array<[string, string]> = [];
  for (const s of sources) {
    for (const r of s.rows) {
      const row: ScoreRow = { item: r.item, model: r.model, score: r.score };
      if (r.outcome !== undefined) row.outcome = r.outcome;
      if (r.stratum !== undefined) row.stratum = r.stratum;
      if (r.cluster !== undefined) row.cluster = r.cluster;
      if (r.repeat !== undefined) row.repeat = r.repeat;
      rows.push(row);
      if (r.digest !== undefined && r.digest !== '') {
        digested.add(r.item);
        pairs.push([r.item, r.digest]);
      }
    }
  }
  normaliseColumns(rows, sources);
  const table = scoresFromRows(rows, paths.join(' + '));
  // The answers, by the final model names and item ids (after renaming and task prefixes).
  let outputs: OutputsByModel | null = null;
  for (const s of sources) {
    for (const r of s.rows) {
      if (r.output === undefined) continue;
      outputs ??= new Map();
      let byItem = outputs.get(r.model);
      if (byItem === undefined) outputs.set(r.model, (byItem = new Map()));
      const before = byItem.get(r.item);
      byItem.set(r.item, before === undefined ? r.output : `${before}${REPEAT_SEPARATOR}${r.output}`);
    }
  }
  const count = digested.size;
  return {
    table,
    sources: sources.map((s) => ({
      path: s.path,
      format: s.format,
      files: s.files,
      models: [...new Set(s.rows.map((r) => r.model))],
      rows: s.rows.length,
      errors: s.errors,
      unscored: s.unscored,
    })),
    digestedItems: count,
    changedItems: changed,
    suiteDigest: suiteDigestOf(pairs),
    settings,
    warnings,
    outputs,
  };
}

function tableFormatOf(path: string): 'csv' | 'jsonl' {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  // By content: a JSON object on the first line is JSONL, anything else a CSV header.
  return detectFileFormat(path) === 'table' && /^\s*\{/.test(readHead(path)) ? 'jsonl' : 'csv';
}

function readHead(path: string): string {
  return readInputHead(path, 64).toString('utf8');
}

/** A benchplan table as rows, with a digest column when it has one. */
function tableSource(path: string, files: string[], name: string | undefined, allow: boolean, changed: string[]): SourceRows {
  const format = tableFormatOf(path);
  const table = loadScores(path, format);
  const digestOf = new Map<number, string>();
  const digests = tableDigests(path);
  const rows: ImportedRow[] = [];
  const where: string[] = [];
  for (let r = 0; r < table.rowCount; r++) {
    const row: ImportedRow = { item: table.items[table.item[r]], model: name ?? table.models[table.model[r]], score: table.score[r] };
    if (table.hasOutcome && table.outcome[r] >= 0) row.outcome = OUTCOME_KINDS[table.outcome[r]];
    if (table.hasStratum) row.stratum = table.strata[table.itemStratum[table.item[r]]];
    if (table.hasCluster) row.cluster = table.clusters[table.itemCluster[table.item[r]]];
    if (table.hasRepeat) row.repeat = table.repeat[r];
    rows.push(row);
    where.push(`${path}:${table.line[r]}`);
  }
  if (digests !== undefined) {
    // Within the table first (its models on one item), then between inputs like any other.
    for (const item of checkTableDigests(path, digests, allow)) if (!changed.includes(item)) changed.push(item);
    for (const d of digests) digestOf.set(d.line, d.digest);
    for (let r = 0; r < table.rowCount; r++) {
      const digest = digestOf.get(table.line[r]);
      if (digest !== undefined && digest !== '') rows[r].digest = digest;
    }
  }
  return { path, format: 'table', files, rows, where, fileOf: rows.map(() => path), named: name !== undefined, errors: 0, unscored: 0 };
}

/** A table's digest column, row by row (undefined when it has none). */
function tableDigests(path: string): { line: number; item: string; model: string; digest: string }[] | undefined {
  const reader = openTable(path, tableFormatOf(path));
  if (reader.columns !== null && !reader.columns.includes('digest')) return undefined;
  const out: { line: number; item: string; model: string; digest: string }[] = [];
  let any = false;
  for (const { line, values } of reader.records) {
    const digest = values.digest;
    if (digest !== undefined && digest !== null && String(digest).trim() !== '') any = true;
    out.push({ line, item: String(values.item ?? '').trim(), model: String(values.model ?? '').trim(), digest: digest === undefined || digest === null ? '' : String(digest).trim() });
  }
  return any ? out : undefined;
}

/** Within one table: every row of an item carries the same digest. */
function checkTableDigests(path: string, digests: readonly { line: number; item: string; model: string; digest: string }[], allow: boolean): string[] {
  const first = new Map<string, { digest: string; line: number; model: string }>();
  const changed = new Set<string>();
  for (const d of digests) {
    if (d.digest === '') continue;
    const seen = first.get(d.item);
    if (seen === undefined) first.set(d.item, { digest: d.digest, line: d.line, model: d.model });
    else if (seen.digest !== d.digest) {
      if (!allow) {
        throw new InputError(
          `item "${d.item}" has digest ${seen.digest} for model "${seen.model}" (line ${seen.line}) but ${d.digest} for model "${d.model}": the models did not score the same item under this id; pass --allow-changed-items to pair them anyway`,
          { file: path, line: d.line, value: d.digest },
        );
      }
      changed.add(d.item);
    }
  }
  return [...changed];
}

function changedWarning(changed: readonly string[]): string {
  return `${changed.length} item${changed.length === 1 ? '' : 's'} changed content between inputs and ${changed.length === 1 ? 'was' : 'were'} paired anyway (--allow-changed-items): ${listIds(changed)}`;
}

/** With several tasks over all inputs, every tool row's id becomes `task/id`, the same way in every input. */
function prefixTasks(sources: SourceRows[]): void {
  const tasks = new Set<string>();
  for (const s of sources) for (const r of s.rows) if (r.task !== undefined) tasks.add(r.task);
  const prefix = tasks.size > 1;
  for (const s of sources) {
    for (const r of s.rows) {
      if (r.task === undefined) continue;
      if (prefix) r.item = `${r.task}/${r.item}`;
      delete r.task;
    }
  }
}

/**
 * Two inputs that give the same model name for the same items (two promptfoo runs of one
 * provider, two Inspect logs of one model) would be one model with duplicate rows: each is named
 * `NAME (input)` instead, unless the name was given with --model-name.
 */
function renameClashingModels(sources: SourceRows[], warnings: string[]): void {
  const itemsOf = sources.map((s) => {
    const byModel = new Map<string, Set<string>>();
    for (const r of s.rows) {
      const set = byModel.get(r.model) ?? new Set<string>();
      set.add(r.item);
      byModel.set(r.model, set);
    }
    return byModel;
  });
  const renamed = new Map<number, Map<string, string>>();
  for (let a = 0; a < sources.length; a++) {
    for (let b = a + 1; b < sources.length; b++) {
      for (const [model, items] of itemsOf[a]) {
        const other = itemsOf[b].get(model);
        if (other === undefined) continue;
        let shared = false;
        for (const item of items) if (other.has(item)) { shared = true; break; }
        if (!shared) continue;
        if (sources[a].named && sources[b].named) {
          throw new InputError(`gives the same model name "${model}" to ${sources[a].path} and ${sources[b].path}, which score the same items: give them different names`, { file: '--model-name' });
        }
        for (const k of [a, b]) {
          if (sources[k].named) continue;
          const map = renamed.get(k) ?? new Map<string, string>();
          map.set(model, `${model} (${labelOf(sources, k)})`);
          renamed.set(k, map);
        }
      }
    }
  }
  const notes = new Map<string, string[]>();
  for (const [k, map] of renamed) {
    for (const r of sources[k].rows) r.model = map.get(r.model) ?? r.model;
    for (const [from, to] of map) notes.set(from, [...(notes.get(from) ?? []), `"${to}"`]);
  }
  for (const [from, names] of notes) {
    warnings.push(`several inputs name their model "${from}" and score the same items: they are told apart as ${names.join(' and ')} (name them with --model-name FILE=NAME)`);
  }
}

/** A short label for an input: its file name, or the path when two inputs share a file name. */
function labelOf(sources: readonly SourceRows[], k: number): string {
  const name = basename(sources[k].path);
  return sources.filter((s) => basename(s.path) === name).length > 1 ? sources[k].path : name;
}

/**
 * Suite binding: an item's content digest must be the same in every input that scores it.
 * @returns the items whose digests differ (only with allow; otherwise the first one throws).
 */
function checkDigests(sources: readonly SourceRows[], allow: boolean): string[] {
  // Between inputs only: within one run the tool itself guarantees one item per id.
  const first = new Map<string, { digest: string; where: string; model: string; file: string }>();
  const changed = new Set<string>();
  for (const s of sources) {
    s.rows.forEach((r, k) => {
      if (r.digest === undefined || r.digest === '') return;
      const seen = first.get(r.item);
      if (seen === undefined) first.set(r.item, { digest: r.digest, where: s.where[k], model: r.model, file: s.fileOf[k] });
      else if (seen.file !== s.fileOf[k] && seen.digest !== r.digest) {
        if (!allow) {
          throw new InputError(
            `item "${r.item}" is not the same item in ${seen.where} (model "${seen.model}", digest ${seen.digest}) and ${s.where[k]} (model "${r.model}", digest ${r.digest}): the runs scored different content under this id (another test list, a changed dataset, or --item-key testIdx over files whose tests differ); pass --allow-changed-items to pair them anyway`,
            { file: s.fileOf[k] },
          );
        }
        changed.add(r.item);
      }
    });
  }
  return [...changed];
}

/** Optional columns must be on every row or none: outcome, stratum, cluster, repeat are filled or dropped. */
function normaliseColumns(rows: ScoreRow[], sources: readonly SourceRows[]): void {
  const all = (key: keyof ScoreRow) => rows.every((r) => r[key] !== undefined);
  const some = (key: keyof ScoreRow) => rows.some((r) => r[key] !== undefined);
  if (some('repeat') && !all('repeat')) for (const r of rows) r.repeat ??= 0;
  if (some('outcome') && !all('outcome')) for (const r of rows) delete r.outcome;
  for (const key of ['stratum', 'cluster'] as const) {
    if (some(key) && !all(key)) {
      const without = sources.find((s) => s.rows.some((r) => r[key] === undefined));
      throw new InputError(`has no ${key} for its rows while other inputs do: give --${key}-key for every tool's files, or add the column`, { file: without?.path ?? 'FILE' });
    }
  }
}

/** sha256 of `item\tdigest\n` lines, one per item (its first digest), sorted by item. */
function suiteDigestOf(pairs: ReadonlyArray<readonly [string, string]>): LoadResultsResult['suiteDigest'] {
  const first = new Map<string, string>();
  for (const [item, digest] of pairs) if (digest !== '' && !first.has(item)) first.set(item, digest);
  if (first.size === 0) return null;
  const items = [...first.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const listing = items.map((item) => `${item}\t${first.get(item)}\n`).join('');
  return { sha256: createHash('sha256').update(listing, 'utf8').digest('hex'), bytes: Buffer.byteLength(listing, 'utf8'), items: items.length };
}

/** An lm-eval directory with two runs of one task (two timestamps) would give each document twice: say which. */
function checkOneRunPerTask(dir: string, files: readonly string[]): void {
  const byTask = new Map<string, string[]>();
  for (const file of files) {
    // Per folder: lm-eval writes <output>/<model>/samples_*, so one task in two folders is two models.
    const key = `${dirname(file)}\u0000${lmEvalSamplesName(file).task}`;
    byTask.set(key, [...(byTask.get(key) ?? []), basename(file)]);
  }
  for (const [key, names] of byTask) {
    const task = key.slice(key.indexOf('\u0000') + 1);
    if (names.length > 1) {
      throw new InputError(
        `holds ${names.length} runs of task "${task}" (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}): give one run's samples files instead of the directory, or each run as its own input (they are then told apart by file)`,
        { file: dir },
      );
    }
  }
}
