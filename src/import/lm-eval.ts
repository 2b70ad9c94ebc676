import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../data/errors.js';
import { at, failAt, idAt, isRecord, objectAt, type Place } from './fields.js';
import { jsonlRecords } from '../data/read.js';
import { modelOverride, readJsonFile, type PlacedRow } from './source.js';
import type { ImportedFile, ImportOptions } from './types.js';

/** Keys of an lm-eval sample line that are not metrics. */
const SAMPLE_FIELDS = new Set(['doc_id', 'doc', 'target', 'arguments', 'resps', 'filtered_resps', 'filter', 'metrics', 'doc_hash', 'prompt_hash', 'target_hash', 'task_name', 'success']);

/** `samples_<task>_<timestamp>.jsonl` as lm-eval's EvaluationTracker names them. */
const SAMPLES_NAME = /^samples_(.+?)_(\d{4}-\d{2}-\d{2}T[\d.-]+)\.jsonl$/;

/** The task and timestamp a samples file name carries. */
export function lmEvalSamplesName(file: string): { task: string; timestamp: string | undefined } {
  const name = basename(file);
  const match = SAMPLES_NAME.exec(name);
  if (match) return { task: match[1], timestamp: match[2] };
  const loose = /^samples_(.+)\.jsonl$/.exec(name);
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
function siblingResults(file: string, timestamp: string | undefined): string | undefined {
  const dir = dirname(file);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^results_.*\.json$/.test(name)).sort();
  } catch {
    return undefined;
  }
  if (timestamp !== undefined) {
    const same = names.find((name) => name === `results_${timestamp}.json`);
    if (same !== undefined) return join(dir, same);
  }
  if (names.length === 1) return join(dir, names[0]);
  if (names.length > 1) {
    throw new InputError(`has ${names.length} results_*.json files beside it and none with its timestamp: pass --model NAME`, { file });
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
function docKey(line: Record<string, unknown>, place: Place, key: string, flag: string, what: string): string {
  const doc = isRecord(line.doc) ? line.doc : {};
  if (doc[key] === undefined || doc[key] === null) throw failAt(at(at(place, 'doc'), key), `is missing (${flag} ${key} reads the sample's doc.${key})`);
  return idAt(doc[key], at(at(place, 'doc'), key), what);
}

/**
 * Reads lm-evaluation-harness per-sample logs (`--log_samples`: samples_<task>_<time>.jsonl)
 * into score rows.
 * - item: `doc_id` (prefixed `task/` when the files hold more than one task);
 * - model: from the sibling results_<time>.json (lmEvalModelName), or options.model;
 * - score: the metric key (options.metric, or the only metric the file records); it must be a
 *   number per sample: corpus-level metrics (f1, bleu, …) store tuples and cannot be paired;
 * - filter: one filter's rows (options.filter, or the only one in the file): a task with
 *   several filters writes one line per document per filter;
 * - doc_hash is kept as an extra column, so two runs can be checked to have seen the same docs.
 * Reference: lm_eval/evaluator.py (the logged example dict), lm_eval/loggers/evaluation_tracker.py.
 */
export function readLmEval(files: readonly string[], options: ImportOptions): { rows: PlacedRow[]; files: ImportedFile[]; metric: string; filter: string; warnings: string[] } {
  const override = modelOverride(options.model, files);
  const names = files.map(lmEvalSamplesName);
  const prefixTask = new Set(names.map((n) => n.task)).size > 1;
  const models = files.map((file, k) => {
    const given = override(k);
    if (given !== undefined) return given;
    const results = siblingResults(file, names[k].timestamp);
    if (results === undefined) throw new InputError('has no results_*.json beside it to name the model: pass --model NAME', { file });
    return lmEvalModelName(readJsonFile(results, options.budget), results);
  });

  // First pass: which filters and metrics the files hold.
  const filters = new Set<string>();
  const metrics = new Set<string>();
  for (const file of files) {
    for (const { line, values: value } of jsonlRecords(file)) {
      const place: Place = { file, line, path: '' };
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
  files.forEach((file, k) => {
    for (const { line, values: value } of jsonlRecords(file)) {
      if ((typeof value.filter === 'string' ? value.filter : 'none') !== filter) continue;
      const place: Place = { file, line, path: '' };
      const docId = idAt(value.doc_id, at(place, 'doc_id'), 'a doc id');
      const raw = value[metric as string];
      let score: number;
      if (typeof raw === 'number' && Number.isFinite(raw)) score = raw;
      else if (typeof raw === 'boolean') score = raw ? 1 : 0;
      else if (raw === undefined) throw failAt(at(place, metric as string), `is missing: this sample does not record metric "${metric}"`);
      else throw failAt(at(place, metric as string), 'must be a number per sample (corpus-level metrics such as f1 or bleu store tuples and cannot be paired item by item)', raw);
      const row: PlacedRow = { item: prefixTask ? `${names[k].task}/${docId}` : docId, model: models[k], score, place };
      if (options.stratumKey !== undefined) row.stratum = docKey(value, place, options.stratumKey, '--stratum-key', 'a stratum name');
      if (options.clusterKey !== undefined) row.cluster = docKey(value, place, options.clusterKey, '--cluster-key', 'a cluster name');
      if (value.doc_hash !== undefined) {
        if (typeof value.doc_hash !== 'string') throw failAt(at(place, 'doc_hash'), 'must be a string', value.doc_hash);
        row.docHash = value.doc_hash;
      }
      rows.push(row);
      counts[k].rows += 1;
    }
  });
  // The same doc_id should be the same document in every run: doc_hash says whether it was.
  const warnings: string[] = [];
  const hashes = new Map<string, string>();
  const differing = new Set<string>();
  for (const r of rows) {
    if (r.docHash === undefined) continue;
    const first = hashes.get(r.item);
    if (first === undefined) hashes.set(r.item, r.docHash);
    else if (first !== r.docHash) differing.add(r.item);
  }
  if (differing.size > 0) {
    warnings.push(`${differing.size} item${differing.size === 1 ? ' has' : 's have'} a different doc_hash in different files (${[...differing].slice(0, 5).join(', ')}${differing.size > 5 ? ', …' : ''}): the runs did not see the same documents under those doc_ids`);
  }
  // doc_hash must be on every row or none (it is a column).
  if (rows.some((r) => r.docHash !== undefined)) for (const r of rows) r.docHash ??= '';
  return { rows, files: counts, metric, filter, warnings };
}
