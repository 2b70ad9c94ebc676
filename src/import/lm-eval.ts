import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../data/errors.js';
import { lines } from '../data/read.js';
import { at, failAt, idAt, isRecord, objectAt, type Place } from './fields.js';
import { lmEvalDocHash } from './item-digest.js';
import { ImportIdSpellings } from './id-spellings.js';
import { parsePythonJson } from './python-json.js';
import { modelOverride, readJsonFile, readTextFile, type PlacedRow } from './source.js';
import type { ImportByteBudget } from './budget.js';
import type { ImportedFile, ImportOptions } from './types.js';

/** Keys of an lm-eval sample line that are not metrics. */
const SAMPLE_FIELDS = new Set(['doc_id', 'doc', 'target', 'arguments', 'resps', 'filtered_resps', 'filter', 'metrics', 'doc_hash', 'prompt_hash', 'target_hash', 'task_name', 'success']);

/**
 * `samples_<task>_<timestamp>.jsonl` as lm-eval's EvaluationTracker names them; from May to
 * mid-June 2024 its main branch wrote the same name ending in `.json` (still one object a line).
 */
const SAMPLES_NAME = /^samples_(.+?)_(\d{4}-\d{2}-\d{2}T[\d.-]+?)\.jsonl?$/;

/** The task and timestamp a samples file name carries. */
export function lmEvalSamplesName(file: string): { task: string; timestamp: string | undefined } {
  const name = basename(file);
  const match = SAMPLES_NAME.exec(name);
  if (match) return { task: match[1], timestamp: match[2] };
  const loose = /^samples_(.+?)\.jsonl?$/.exec(name);
  if (loose) return { task: loose[1], timestamp: undefined };
  return { task: name.replace(/\.jsonl?$/i, ''), timestamp: undefined };
}

/**
 * The model name in an lm-eval results file: `model_name`, else `pretrained=` / `model=` /
 * `engine=` / `path=` in `config.model_args` (a string "k=v,k=v" or an object), else `config.model`.
 */
export function lmEvalModelName(results: unknown, file: string): string {
  const root: Place = { file, path: '' };
  const doc = objectAt(results, root);
  if (typeof doc.model_name === 'string' && doc.model_name.trim() !== '') return doc.model_name.trim();
  const config = isRecord(doc.config) ? doc.config : {};
  const args = config.model_args;
  const keys = ['pretrained', 'model', 'engine', 'path', 'model_name'];
  if (typeof args === 'string') {
    const pairs = new Map<string, string>();
    for (const part of args.split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) pairs.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    for (const key of keys) if (pairs.get(key)) return pairs.get(key) as string;
  } else if (isRecord(args)) {
    for (const key of keys) if (typeof args[key] === 'string' && (args[key] as string).trim() !== '') return (args[key] as string).trim();
  }
  if (typeof config.model === 'string' && config.model.trim() !== '') return config.model.trim();
  throw failAt(at(root, 'model_name'), 'is missing, and config.model_args names no pretrained model: pass --model NAME');
}

/** The results file beside a samples file: the one with the same timestamp, else the only one. */
function siblingResults(file: string, timestamp: string | undefined, task: string): string | undefined {
  const dir = dirname(file);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^results(_.*)?\.json$/.test(name)).sort();
  } catch {
    return undefined;
  }
  if (timestamp !== undefined) {
    // results_<ts>.json, or results_<model>_<ts>.json as some wrappers name it.
    const same = names.filter((name) => name === `results_${timestamp}.json` || name.endsWith(`_${timestamp}.json`));
    if (same.length === 1) return join(dir, same[0]);
  }
  if (names.length === 1) return join(dir, names[0]);
  if (names.length > 1) {
    const what = timestamp === undefined ? `and the file name (task "${task}") carries no timestamp to choose one by` : `and none ends in its timestamp ${timestamp}`;
    throw new InputError(`has ${names.length} results_*.json files beside it (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}) ${what}: pass the model name with --model (import) or --model-name FILE=NAME`, { file });
  }
  return undefined;
}

/** One sample record of a samples file, with its place. */
interface SampleRecord {
  values: Record<string, unknown>;
  place: Place;
}

/**
 * The records of a samples file: one JSON object a line (lm-eval ≥ 0.4.3, in `.jsonl`, and in
 * `.json` from May to mid-June 2024), or one JSON array (lm-eval v0.4.0–v0.4.2 wrote
 * `json.dumps(samples, indent=2)` into a `.jsonl`). NaN and Infinity tokens are read as numbers.
 * @throws {InputError} naming the line (or array element) that is not a JSON object, and saying so
 *   when the file is an lm-eval results file instead.
 * @example lmEvalSampleRecords('examples/tools/lm-eval/pythia-410m/samples_gsm8k_2024-05-05T11-00-01.000001.jsonl').length // => 12 (6 documents × 2 filters)
 */
export function lmEvalSampleRecords(file: string, budget?: ImportByteBudget): SampleRecord[] {
  const text = readTextFile(file, budget);
  const start = text.search(/\S/);
  if (start >= 0 && text[start] === '[') {
    let doc: unknown;
    try {
      doc = parsePythonJson(text);
    } catch (error) {
      throw new InputError(`not valid JSON (a samples file written as one JSON array, lm-eval v0.4.0–v0.4.2): ${(error as Error).message}`, { file });
    }
    const list = doc as unknown[];
    return list.map((value, k) => ({ values: objectAt(value, { file, path: `[${k}]` }), place: { file, path: `[${k}]` } }));
  }
  const firstLine = text.slice(start, text.indexOf('\n', start) < 0 ? undefined : text.indexOf('\n', start)).trim();
  if (firstLine === '{') {
    // An indented JSON document, not one object a line: say what it is when it is a results file.
    let doc: unknown;
    try {
      doc = parsePythonJson(text);
    } catch {
      doc = undefined;
    }
    if (isRecord(doc) && isRecord(doc.results)) {
      throw new InputError(
        'is an lm-eval results file (aggregate metrics per task), not a samples file: benchplan pairs per-sample scores, in the samples_<task>_<timestamp>.jsonl files lm-eval writes beside it with --log_samples',
        { file },
      );
    }
    throw new InputError('is one indented JSON object, not an lm-eval samples file (one JSON object a line, or one JSON array)', { file });
  }
  const out: SampleRecord[] = [];
  for (const { line, text: lineText } of lines([text], file)) {
    const trimmed = lineText.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = parsePythonJson(trimmed);
    } catch (error) {
      throw new InputError(`not valid JSON: ${(error as Error).message}`, { file, line, value: trimmed.slice(0, 60) });
    }
    if (!isRecord(value)) throw new InputError('each line must be a JSON object (one lm-eval sample)', { file, line, value: trimmed.slice(0, 60) });
    if (out.length === 0 && value.doc_id === undefined && isRecord(value.results)) {
      throw new InputError(
        'is an lm-eval results file (aggregate metrics per task), not a samples file: benchplan pairs per-sample scores, in the samples_<task>_<timestamp>.jsonl files lm-eval writes beside it with --log_samples',
        { file },
      );
    }
    out.push({ values: value, place: { file, line, path: '' } });
  }
  return out;
}

/** The task of a v0.4.0–v0.4.2 samples file `<model_args>_<task>.jsonl`: the results file's task whose name ends the file name. */
function taskFromResults(file: string, results: unknown): string | undefined {
  if (!isRecord(results) || !isRecord(results.results)) return undefined;
  const stem = basename(file).replace(/\.jsonl?$/i, '');
  const tasks = Object.keys(results.results).filter((task) => stem === task || stem.endsWith(`_${task}`));
  return tasks.sort((a, b) => b.length - a.length)[0];
}

/** Warnings a results file calls for: a run limited with --limit to fewer docs than the task has. */
function limitWarning(results: unknown, resultsFile: string, task: string): string | undefined {
  if (!isRecord(results)) return undefined;
  const counts = isRecord(results['n-samples']) && isRecord(results['n-samples'][task]) ? results['n-samples'][task] : undefined;
  const config = isRecord(results.config) ? results.config : {};
  const limit = config.limit;
  if (counts !== undefined && typeof counts.original === 'number' && typeof counts.effective === 'number' && counts.effective < counts.original) {
    return `${resultsFile}: task "${task}" was run with --limit ${limit ?? counts.effective}: ${counts.effective} of its ${counts.original} documents, so its scores describe a subset (the first documents, not a random sample)`;
  }
  if (counts === undefined && typeof limit === 'number') {
    return `${resultsFile}: the run used --limit ${limit}: its tasks may cover only their first ${limit} documents`;
  }
  return undefined;
}

function metricNames(line: Record<string, unknown>, place: Place): string[] {
  if (line.metrics !== undefined) {
    if (!Array.isArray(line.metrics) || !line.metrics.every((m) => typeof m === 'string')) throw failAt(at(place, 'metrics'), 'must be a list of metric names', line.metrics);
    return line.metrics as string[];
  }
  // Older versions list no metric names: the numeric keys that are not sample fields are metrics.
  return Object.keys(line).filter((key) => !SAMPLE_FIELDS.has(key) && (typeof line[key] === 'number' || typeof line[key] === 'boolean'));
}

/** A stratum or cluster value from the sample's doc.KEY. */
function docKey(line: Record<string, unknown>, place: Place, key: string, flag: string, what: string, spellings: ImportIdSpellings): string {
  const doc = isRecord(line.doc) ? line.doc : {};
  if (doc[key] === undefined || doc[key] === null) throw failAt(at(at(place, 'doc'), key), `is missing (${flag} ${key} reads the sample's doc.${key})`);
  return idAt(doc[key], at(at(place, 'doc'), key), what, spellings);
}

/**
 * Reads lm-evaluation-harness per-sample logs (`--log_samples`) into score rows: every version in
 * use: samples_<task>_<time>.jsonl, the `.json` name of May–June 2024, and the one-JSON-array
 * `<model_args>_<task>.jsonl` of v0.4.0–v0.4.2 (see lmEvalSampleRecords).
 * - item: `doc_id` (prefixed `task/` when the files hold more than one task; the task is the file
 *   name without `samples_` and the timestamp, so runs at different times pair on doc_id);
 * - model: from the sibling results file of the same timestamp (lmEvalModelName), or options.model;
 * - score: the metric key (options.metric, or the only metric the file records); it must be a
 *   number per sample: corpus-level metrics (f1, bleu, …) store tuples and cannot be paired.
 *   A NaN or ±Infinity (Python writes them, e.g. an MAE that could not be parsed) is an unscored
 *   sample: left out, counted and warned about;
 * - filter: one filter's rows (options.filter, or the only one in the file): a task with
 *   several filters writes one line per document per filter;
 * - digest: `doc_hash` (computed the same way from `doc` when the file does not record it);
 *   doc_hash is also kept as an extra column;
 * - warnings: a task run with `--limit` (the results file's n-samples or config.limit).
 * Reference: lm_eval/evaluator.py (the logged example dict), lm_eval/loggers/evaluation_tracker.py.
 */
export function readLmEval(files: readonly string[], options: ImportOptions): { rows: PlacedRow[]; files: ImportedFile[]; metric: string; filter: string; warnings: string[] } {
  const override = modelOverride(options.model, files);
  const names = files.map(lmEvalSamplesName);
  const warnings: string[] = [];
  const models = files.map((file, k) => {
    const given = override(k);
    let resultsFile: string | undefined;
    try {
      resultsFile = siblingResults(file, names[k].timestamp, names[k].task);
    } catch (error) {
      if (given === undefined) throw error;
    }
    if (resultsFile === undefined) {
      if (given !== undefined) return given;
      throw new InputError('has no results_*.json beside it to name the model: pass the model name with --model (import) or --model-name FILE=NAME', { file });
    }
    const results = readJsonFile(resultsFile, options.budget);
    if (names[k].timestamp === undefined && !basename(file).startsWith('samples_')) {
      const task = taskFromResults(file, results);
      if (task !== undefined) names[k] = { task, timestamp: undefined };
    }
    const limited = limitWarning(results, resultsFile, names[k].task);
    if (limited !== undefined && !warnings.includes(limited)) warnings.push(limited);
    return given ?? lmEvalModelName(results, resultsFile);
  });
  const prefixTask = !options.keepTask && new Set(names.map((n) => n.task)).size > 1;
  const records = files.map((file) => lmEvalSampleRecords(file, options.budget));

  // First pass: which filters and metrics the files hold.
  const filters = new Set<string>();
  const metrics = new Set<string>();
  for (const list of records) {
    for (const { values: value, place } of list) {
      filters.add(typeof value.filter === 'string' ? value.filter : 'none');
      for (const name of metricNames(value, place)) metrics.add(name);
    }
  }
  let filter = options.filter;
  if (filter === undefined) {
    if (filters.size > 1) throw new InputError(`the samples hold several filters (${[...filters].join(', ')}): choose one with --filter NAME`, { file: files[0] });
    filter = [...filters][0] ?? 'none';
  } else if (!filters.has(filter)) {
    throw new InputError(`is not a filter in the samples (filters: ${[...filters].join(', ')})`, { file: '--filter', value: filter });
  }
  let metric = options.metric;
  if (metric === undefined) {
    if (metrics.size === 0) throw new InputError('records no per-sample metric: nothing to import', { file: files[0] });
    if (metrics.size > 1) throw new InputError(`the samples record several metrics (${[...metrics].join(', ')}): choose one with --metric NAME`, { file: files[0] });
    metric = [...metrics][0];
  } else if (!metrics.has(metric)) {
    throw new InputError(`is not a metric in the samples (metrics: ${[...metrics].join(', ') || 'none'})`, { file: '--metric', value: metric });
  }

  const counts: ImportedFile[] = files.map((file, k) => ({ file, models: [models[k]], rows: 0, errors: 0, unscored: 0 }));
  const rows: PlacedRow[] = [];
  const spellings = new ImportIdSpellings();
  const nonFinite = { nan: 0, infinite: 0 };
  files.forEach((file, k) => {
    for (const { values: value, place } of records[k]) {
      if ((typeof value.filter === 'string' ? value.filter : 'none') !== filter) continue;
      const docId = idAt(value.doc_id, at(place, 'doc_id'), 'a doc id', spellings);
      const raw = value[metric as string];
      let score: number;
      if (typeof raw === 'number' && Number.isFinite(raw)) score = raw;
      else if (typeof raw === 'number') {
        // NaN / Infinity: the metric could not be computed for this sample.
        if (Number.isNaN(raw)) nonFinite.nan += 1;
        else nonFinite.infinite += 1;
        counts[k].unscored += 1;
        continue;
      } else if (typeof raw === 'boolean') score = raw ? 1 : 0;
      else if (raw === undefined) throw failAt(at(place, metric as string), `is missing: this sample does not record metric "${metric}"`);
      else throw failAt(at(place, metric as string), 'must be a number per sample (corpus-level metrics such as f1 or bleu store tuples and cannot be paired item by item)', raw);
      const row: PlacedRow = { item: prefixTask ? `${names[k].task}/${docId}` : docId, model: models[k], score, place };
      // What the model answered: filtered_resps (after the task's filter), else resps; text as is, anything else as JSON.
      const answer = value.filtered_resps ?? value.resps;
      if (answer !== undefined && answer !== null) row.output = typeof answer === 'string' ? answer : Array.isArray(answer) && answer.length === 1 && typeof answer[0] === 'string' ? answer[0] : JSON.stringify(answer);
      if (options.keepTask) row.task = names[k].task;
      if (options.stratumKey !== undefined) row.stratum = docKey(value, place, options.stratumKey, '--stratum-key', 'a stratum name', spellings);
      if (options.clusterKey !== undefined) row.cluster = docKey(value, place, options.clusterKey, '--cluster-key', 'a cluster name', spellings);
      if (value.doc_hash !== undefined) {
        if (typeof value.doc_hash !== 'string') throw failAt(at(place, 'doc_hash'), 'must be a string', value.doc_hash);
        row.docHash = value.doc_hash;
        row.digest = value.doc_hash;
      } else if (value.doc !== undefined) {
        row.digest = lmEvalDocHash(value.doc);
      }
      rows.push(row);
      counts[k].rows += 1;
    }
  });
  if (nonFinite.nan + nonFinite.infinite > 0) {
    const parts = [nonFinite.nan > 0 ? `${nonFinite.nan} NaN` : '', nonFinite.infinite > 0 ? `${nonFinite.infinite} ±Infinity` : ''].filter(Boolean).join(' and ');
    warnings.push(`${parts} value${nonFinite.nan + nonFinite.infinite === 1 ? '' : 's'} of metric "${metric}" (samples the metric could not score): left out as unscored`);
  }
  // The same doc_id should be the same document in every run: doc_hash says whether it was.
  const hashes = new Map<string, string>();
  const differing = new Set<string>();
  for (const r of rows) {
    if (r.docHash === undefined) continue;
    const key = `${r.task ?? ''}\u0000${r.item}`;
    const first = hashes.get(key);
    if (first === undefined) hashes.set(key, r.docHash);
    else if (first !== r.docHash) differing.add(r.item);
  }
  if (differing.size > 0) {
    warnings.push(`${differing.size} item${differing.size === 1 ? ' has' : 's have'} a different doc_hash in different files (${[...differing].slice(0, 5).join(', ')}${differing.size > 5 ? ', …' : ''}): the runs did not see the same documents under those doc_ids`);
  }
  // doc_hash must be on every row or none (it is a column).
  if (rows.some((r) => r.docHash !== undefined)) for (const r of rows) r.docHash ??= '';
  return { rows, files: counts, metric, filter, warnings };
}
