import { statSync } from 'node:fs';
import { readInputHead } from '../data/read.js';
import { extname } from 'node:path';
import { InputError } from '../data/errors.js';
import { OUTCOME_SCORE, type OutcomeKind } from '../data/outcomes.js';
import { arrayAt, at, failAt, idAt, indexAt, isRecord, objectAt, type Place } from './fields.js';
import { detectFileFormat } from './detect.js';
import { ImportIdSpellings } from './id-spellings.js';
import { itemDigest } from './item-digest.js';
import { modelOverride, readJsonFile, type PlacedRow } from './source.js';
import type { ImportedFile, ImportOptions } from './types.js';
import { ZipArchive, type ZipEntry } from './zip.js';
import { parseEpochReducer, reduceEpochs, type EpochReducer } from './epoch-reducer.js';

/**
 * Inspect's score letters (inspect_ai.scorer CORRECT, INCORRECT, PARTIAL, NOANSWER) as the
 * canonical outcome kinds of src/data/outcomes.ts. N (no answer) maps to `miss` and I (wrong
 * answer) to `wrong_span`, so a model that abstains stays apart from one that answers wrongly;
 * both score 0, P scores 0.5, C scores 1 (Inspect's value_to_float).
 */
export const INSPECT_LETTER_OUTCOMES: Readonly<Record<string, OutcomeKind>> = {
  C: 'hit',
  I: 'wrong_span',
  P: 'partial',
  N: 'miss',
};

/**
 * What a row needs of a sample (or sample summary), checked and taken out as soon as the sample
 * is parsed: the rest of it (input, messages, events) is dropped at once. Errored samples are
 * only counted.
 */
interface InspectSample {
  id: string;
  epoch: number;
  scores: Record<string, unknown> | undefined;
  metadata: Record<string, unknown>;
  /** itemDigest of { input, target }, when the sample records its input. */
  digest: string | undefined;
  /** The model's answer: output.completion, when the sample records it. */
  output: string | undefined;
  place: Place;
}

interface InspectLog {
  file: string;
  fileIndex: number;
  model: string;
  task: string | undefined;
  samples: InspectSample[];
  /** Samples that ended in an error, left out. */
  errors: number;
  /** The header's run facts: status, epoch reducer, --limit, error message. */
  run: RunInfo;
}

interface RunInfo {
  /** `success`, `cancelled`, `error`, `started`, or undefined when the log has no header (a run that did not finish). */
  status: string | undefined;
  /** eval.config.epochs_reducer (Inspect's default, mean, when not recorded). */
  reducers: string[];
  epochs: number | undefined;
  limit: unknown;
  error: string | undefined;
}

function runInfo(header: Record<string, unknown> | undefined): RunInfo {
  if (header === undefined) return { status: undefined, reducers: [], epochs: undefined, limit: undefined, error: undefined };
  const spec = isRecord(header.eval) ? header.eval : {};
  const config = isRecord(spec.config) ? spec.config : {};
  const reducers = Array.isArray(config.epochs_reducer) ? config.epochs_reducer.filter((r): r is string => typeof r === 'string') : [];
  const error = isRecord(header.error) && typeof header.error.message === 'string' ? header.error.message : undefined;
  return {
    status: typeof header.status === 'string' ? header.status : undefined,
    reducers,
    epochs: typeof config.epochs === 'number' ? config.epochs : undefined,
    limit: config.limit ?? undefined,
    error,
  };
}

/** Collects a log's samples, checking each one's shape as it arrives. */
class SampleCollector {
  readonly samples: InspectSample[] = [];
  errors = 0;

  constructor(private readonly spellings: ImportIdSpellings) {}

  add(value: unknown, place: Place): void {
    const s = objectAt(value, place);
    if (hasError(s)) {
      this.errors += 1;
      return;
    }
    this.samples.push({
      id: idAt(s.id, at(place, 'id'), 'a sample id', this.spellings),
      epoch: indexAt(s.epoch, at(place, 'epoch')),
      scores: isRecord(s.scores) ? s.scores : undefined,
      metadata: isRecord(s.metadata) ? s.metadata : {},
      digest: s.input === undefined ? undefined : itemDigest({ input: s.input, target: s.target ?? null }),
      output: inspectCompletion(s.output),
      place,
    });
  }
}

/** The numeric value (and letter outcome, if any) of one score value. */
interface ScoreValue {
  score: number;
  outcome: OutcomeKind | undefined;
}

/**
 * Inspect's value_to_float, stricter: C/I/P/N letters, yes/no/true/false, numeric strings,
 * booleans and numbers are read; anything else is an error rather than a silent 0.
 */
function scoreValue(value: unknown, place: Place): ScoreValue {
  if (typeof value === 'number') {
    // NaN is Inspect's unscored sentinel; the caller counts it. Infinity is a bad value.
    if (!Number.isFinite(value) && !Number.isNaN(value)) throw failAt(place, 'must be a finite number', value);
    return { score: value, outcome: undefined };
  }
  if (typeof value === 'boolean') return { score: value ? 1 : 0, outcome: undefined };
  if (typeof value === 'string') {
    const letter = INSPECT_LETTER_OUTCOMES[value];
    if (letter !== undefined) return { score: OUTCOME_SCORE[letter], outcome: letter };
    const lower = value.trim().toLowerCase();
    if (lower === 'yes' || lower === 'true') return { score: 1, outcome: undefined };
    if (lower === 'no' || lower === 'false') return { score: 0, outcome: undefined };
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(lower)) return { score: Number(lower), outcome: undefined };
  }
  throw failAt(place, 'must be a score: C, I, P, N, a number, true/false or yes/no', value);
}

function readHeader(archive: ZipArchive): { json: unknown; name: string } {
  for (const name of ['header.json', '_journal/start.json', 'start.json']) {
    const entry = archive.entry(name);
    if (entry !== undefined) return { json: archive.readJson(entry), name };
  }
  throw new InputError('is not an Inspect .eval log: it has no header.json (nor _journal/start.json)', { file: archive.file });
}

/** The summary entries, in the order Inspect reads them (the consolidated file, else the journal). */
function summaryEntries(archive: ZipArchive): ZipEntry[] {
  for (const name of ['summaries.json', 'summary.json']) {
    const entry = archive.entry(name);
    if (entry !== undefined) return [entry];
  }
  for (const dir of ['_journal/summaries/', 'summaries/']) {
    const numbered = archive.entries
      .filter((e) => e.name.startsWith(dir) && /^\d+\.json$/.test(e.name.slice(dir.length)))
      .sort((a, b) => Number(a.name.slice(dir.length, -5)) - Number(b.name.slice(dir.length, -5)));
    if (numbered.length > 0) return numbered;
  }
  return [];
}

function readEvalZip(file: string, fileIndex: number, options: ImportOptions, spellings: ImportIdSpellings): InspectLog {
  const archive = ZipArchive.open(file, options);
  try {
    const header = readHeader(archive);
    const headerPlace: Place = { file: `${file}: ${header.name}`, path: '' };
    const spec = objectAt(objectAt(header.json, headerPlace).eval, at(headerPlace, 'eval'));
    const model = idAt(spec.model, at(at(headerPlace, 'eval'), 'model'), 'a model name', spellings);
    const task = typeof spec.task === 'string' && spec.task.trim() !== '' ? spec.task.trim() : undefined;
    const collector = new SampleCollector(spellings);
    let seen = 0;
    for (const entry of summaryEntries(archive)) {
      const place: Place = { file, path: entry.name };
      // Each summary is checked as it is parsed: a bad first sample stops the read there.
      const read = archive.readJsonArray(entry, (value, k) => collector.add(value, at(place, k)));
      if (!read.isArray) arrayAt(read.value, place);
      else seen += read.length;
    }
    if (seen === 0) throw new InputError('has no sample summaries (summaries.json): did the eval run any samples?', { file });
    // Without header.json the run never finished: its start record has no status.
    const run = runInfo(header.name === 'header.json' ? objectAt(header.json, headerPlace) : undefined);
    if (header.name !== 'header.json') {
      run.status = undefined;
      const config = isRecord(spec.config) ? spec.config : {};
      run.reducers = Array.isArray(config.epochs_reducer) ? config.epochs_reducer.filter((r): r is string => typeof r === 'string') : [];
    }
    return { file, fileIndex, model, task, samples: collector.samples, errors: collector.errors, run };
  } finally {
    archive.close();
  }
}

function readJsonLog(file: string, fileIndex: number, options: ImportOptions, spellings: ImportIdSpellings): InspectLog {
  const root: Place = { file, path: '' };
  const doc = objectAt(readJsonFile(file, options.budget), root);
  const spec = objectAt(doc.eval, at(root, 'eval'));
  const model = idAt(spec.model, at(at(root, 'eval'), 'model'), 'a model name', spellings);
  const task = typeof spec.task === 'string' && spec.task.trim() !== '' ? spec.task.trim() : undefined;
  if (doc.samples === undefined || doc.samples === null) throw failAt(at(root, 'samples'), 'is missing: the log has no samples (was it written with --no-log-samples?)');
  const list = arrayAt(doc.samples, at(root, 'samples'));
  const collector = new SampleCollector(spellings);
  list.forEach((value, k) => collector.add(value, at(at(root, 'samples'), k)));
  return { file, fileIndex, model, task, samples: collector.samples, errors: collector.errors, run: runInfo(doc) };
}

/** Whether a file starts with the ZIP local-file signature (an `.eval` archive); false for one that cannot be read (the readers then say why). */
function isZip(file: string): boolean {
  try {
    const head = readInputHead(file, 4);
    return head.length === 4 && head.readUInt32LE(0) === 0x04034b50;
  } catch {
    return false;
  }
}

function readInspectLog(file: string, fileIndex: number, options: ImportOptions, spellings: ImportIdSpellings): InspectLog {
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file });
  }
  if (stat.isDirectory()) {
    throw new InputError('is a directory: name the log files in it (benchplan import inspect DIR/*.eval), or give the directory to compare, gate or report, which read every log in it', { file });
  }
  // By content: an archive is an .eval log whatever its name; anything else is read as a .json log.
  if (isZip(file)) return readEvalZip(file, fileIndex, options, spellings);
  const ext = extname(file).toLowerCase();
  if (ext === '.eval') return readEvalZip(file, fileIndex, options, spellings);
  // A log renamed without .json still reads if its content is one; anything else is refused here.
  if (ext !== '.json' && detectFileFormat(file) !== 'inspect') throw new InputError('is not an Inspect log: expected a .eval or .json file', { file, value: ext || '(no extension)' });
  return readJsonLog(file, fileIndex, options, spellings);
}

function hasError(sample: Record<string, unknown>): boolean {
  const error = sample.error;
  if (error === undefined || error === null) return false;
  if (typeof error === 'string') return error.trim() !== '';
  return true; // EvalError objects in full samples
}

/** A stratum or cluster value from the sample's metadata.KEY. */
/**
 * A sample's answer: output.completion, else the first choice's message content (text, or the
 * text parts of a content list); undefined when the sample records none.
 */
function inspectCompletion(output: unknown): string | undefined {
  if (!isRecord(output)) return undefined;
  if (typeof output.completion === 'string' && output.completion !== '') return output.completion;
  const first = Array.isArray(output.choices) ? output.choices[0] : undefined;
  const content = isRecord(first) && isRecord(first.message) ? first.message.content : undefined;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.filter((c): c is Record<string, unknown> => isRecord(c) && typeof c.text === 'string').map((c) => c.text as string);
    return texts.length > 0 ? texts.join('\n') : undefined;
  }
  return undefined;
}

function metadataKey(sample: InspectSample, key: string, flag: string, what: string, spellings: ImportIdSpellings): string {
  const metadataPlace = at(sample.place, 'metadata');
  const metadata = sample.metadata;
  if (metadata[key] === undefined || metadata[key] === null) throw failAt(at(metadataPlace, key), `is missing (${flag} ${key} reads the sample's metadata.${key})`);
  return idAt(metadata[key], at(metadataPlace, key), what, spellings);
}

/** The warnings a log's header calls for: a run that was cancelled, errored, did not finish, or ran with --limit. */
function runWarnings(log: InspectLog): string[] {
  const out: string[] = [];
  const { status, error, limit } = log.run;
  if (status === undefined) out.push(`${log.file}: has no header.json, so the run did not finish (cancelled, crashed or still running): its samples are the ones done so far`);
  else if (status === 'cancelled') out.push(`${log.file}: the run was cancelled (status "cancelled"): its samples are the ones finished before it stopped, not the whole task`);
  else if (status === 'error') out.push(`${log.file}: the run ended in an error (status "error"${error === undefined ? '' : `: ${error.split('\n')[0].slice(0, 120)}`}): its samples may not cover the whole task`);
  else if (status !== 'success') out.push(`${log.file}: the run has status "${status}", not "success"`);
  if (limit !== undefined && limit !== null) out.push(`${log.file}: the run used --limit ${JSON.stringify(limit)}: it scored only part of the dataset (the first samples, not a random sample)`);
  return out;
}

/**
 * Reads Inspect logs into score rows: `.eval` archives (header.json `eval.model`, rows from
 * summaries.json or the journal's summaries; entries may be deflate or zstd, method 93) and
 * `.json` logs (`samples[]`); an archive is recognised by its content, whatever its name.
 * - item: sample `id` (prefixed `task/` when the files hold more than one task); repeat: `epoch`;
 * - score: `scores.<scorer>.value` (scorer chosen with options.scorer, or the only one;
 *   `scorer.key` picks from a dict value). C/I/P/N letters become outcomes (INSPECT_LETTER_OUTCOMES)
 *   when every kept value is a letter; otherwise all values are numbers and a warning says so;
 *   a NaN value (Inspect's unscored sentinel) is left out and counted as unscored;
 * - epochs: reduced with the log's epoch reducer (eval.config.epochs_reducer) or
 *   options.epochReducer (reduceEpochs). `mean` keeps each epoch as a repeat, since benchplan
 *   averages repeats, which is the same mean; any other reducer gives one row per sample;
 * - digest: itemDigest of the sample's { input, target };
 * - samples that ended in an error are left out and counted; samples the scorer did not score
 *   are left out and counted as unscored;
 * - warnings: cancelled, errored or unfinished runs, and runs with --limit.
 * Reference: inspect_ai/log/_recorders/eval.py (entry names), log/_log.py (EvalSampleSummary),
 * scorer/_metric.py (value_to_float), scorer/_reducer/reducer.py.
 */
export function readInspect(
  files: readonly string[],
  options: ImportOptions,
): { rows: PlacedRow[]; files: ImportedFile[]; scorer: string; hasOutcome: boolean; epochReducer: string; warnings: string[] } {
  const override = modelOverride(options.model, files);
  const spellings = new ImportIdSpellings();
  const logs = files.map((file, k) => readInspectLog(file, k, options, spellings));
  const tasks = new Set(logs.map((log) => log.task ?? ''));
  const prefixTask = !options.keepTask && tasks.size > 1;
  const warnings: string[] = logs.flatMap(runWarnings);

  // The epoch reducer: given, else the one the logs record (mean when none does).
  const recorded = new Set<string>();
  for (const log of logs) for (const r of log.run.reducers) recorded.add(r);
  let reducer: EpochReducer;
  if (options.epochReducer !== undefined) reducer = parseEpochReducer(options.epochReducer);
  else if (recorded.size === 0) reducer = parseEpochReducer('mean');
  else {
    const names = [...recorded];
    reducer = parseEpochReducer(names[0], `${files[0]}: eval.config.epochs_reducer`);
    if (names.length > 1) warnings.push(`the logs record several epoch reducers (${names.join(', ')}): ${reducer.name} was applied; choose another with --epoch-reducer`);
  }

  // The scorer: named, or the only one any sample uses.
  const scorers = new Set<string>();
  for (const log of logs) for (const s of log.samples) if (s.scores !== undefined) for (const name of Object.keys(s.scores)) scorers.add(name);
  let scorer = options.scorer;
  let valueKey: string | undefined;
  if (scorer === undefined) {
    if (logs.every((log) => log.samples.length === 0 && log.errors === 0)) {
      throw new InputError(`has no samples${logs[0].run.status === 'cancelled' ? ': the run was cancelled before any finished' : ''}: nothing to import`, { file: files[0] });
    }
    if (scorers.size === 0) throw new InputError('no sample has scores (the task ran without a scorer, or was not scored yet): nothing to import', { file: files[0] });
    if (scorers.size > 1) throw new InputError(`the logs have several scorers (${[...scorers].join(', ')}): choose one with --scorer NAME`, { file: files[0] });
    scorer = [...scorers][0];
  } else if (!scorers.has(scorer)) {
    const dot = scorer.lastIndexOf('.');
    if (dot > 0 && scorers.has(scorer.slice(0, dot))) {
      valueKey = scorer.slice(dot + 1);
      scorer = scorer.slice(0, dot);
    } else {
      throw new InputError(`is not a scorer in the logs (scorers: ${[...scorers].join(', ') || 'none'})`, { file: '--scorer', value: options.scorer });
    }
  }

  const counts: ImportedFile[] = logs.map((log) => ({ file: log.file, models: [], rows: 0, errors: log.errors, unscored: 0 }));
  const rows: PlacedRow[] = [];
  const raws: string[] = [];
  let letters = 0;
  let nan = 0;
  for (const log of logs) {
    const count = counts[log.fileIndex];
    const model = override(log.fileIndex) ?? log.model;
    for (const sample of log.samples) {
      const { id, epoch, scores } = sample;
      const scoresPlace = at(sample.place, 'scores');
      if (scores === undefined || scores[scorer] === undefined || scores[scorer] === null) {
        count.unscored += 1;
        continue;
      }
      const scorePlace = at(scoresPlace, scorer);
      const score = objectAt(scores[scorer], scorePlace);
      let value = score.value;
      let valuePlace = at(scorePlace, 'value');
      if (isRecord(value)) {
        if (valueKey === undefined) throw failAt(valuePlace, `holds several values (${Object.keys(value).join(', ')}): choose one with --scorer ${scorer}.KEY`);
        if (value[valueKey] === undefined) throw failAt(valuePlace, `has no value "${valueKey}" (keys: ${Object.keys(value).join(', ')})`);
        valuePlace = at(valuePlace, valueKey);
        value = value[valueKey];
      } else if (valueKey !== undefined) {
        throw failAt(valuePlace, `is a single value, not a dict with key "${valueKey}": use --scorer ${scorer}`, value);
      }
      const parsed = scoreValue(value, valuePlace);
      if (Number.isNaN(parsed.score)) {
        nan += 1;
        count.unscored += 1;
        continue;
      }
      const row: PlacedRow = { item: prefixTask ? `${log.task ?? ''}/${id}` : id, model, score: parsed.score, repeat: epoch, place: sample.place };
      if (options.keepTask) row.task = log.task ?? '';
      if (sample.digest !== undefined) row.digest = sample.digest;
      if (sample.output !== undefined) row.output = sample.output;
      if (parsed.outcome !== undefined) {
        row.outcome = parsed.outcome;
        letters += 1;
      }
      if (options.stratumKey !== undefined) row.stratum = metadataKey(sample, options.stratumKey, '--stratum-key', 'a stratum name', spellings);
      if (options.clusterKey !== undefined) row.cluster = metadataKey(sample, options.clusterKey, '--cluster-key', 'a cluster name', spellings);
      rows.push(row);
      raws.push(typeof value === 'string' ? `s:${value}` : `v:${String(value)}`);
      count.rows += 1;
      if (!count.models.includes(model)) count.models.push(model);
    }
  }
  if (nan > 0) warnings.push(`${nan} score${nan === 1 ? ' was' : 's were'} NaN (Inspect's mark for a sample the scorer could not score): left out as unscored`);
  let hasOutcome = rows.length > 0 && letters === rows.length;
  if (!hasOutcome && letters > 0) {
    warnings.push(`${letters} of ${rows.length} values were C/I/P/N letters and the rest numbers: all are written as numbers (C 1, P 0.5, I and N 0), so a non-answer (N) is no longer told apart from a wrong answer (I)`);
    for (const row of rows) delete row.outcome;
  }
  let out = rows;
  if (reducer.kind !== 'mean') {
    const reduced = reduceRows(rows, raws, reducer, counts, logs);
    out = reduced;
    if (reducer.kind !== 'mode' && reducer.kind !== 'max') hasOutcome = false;
    if (!hasOutcome) for (const row of out) delete row.outcome;
  }
  return { rows: out, files: counts, scorer: valueKey === undefined ? scorer : `${scorer}.${valueKey}`, hasOutcome, epochReducer: reducer.name, warnings };
}

/** One row per (file, item, model): the epochs reduced; the row keeps the first epoch's place, and mode/max keep the chosen value's outcome. */
function reduceRows(rows: readonly PlacedRow[], raws: readonly string[], reducer: EpochReducer, counts: ImportedFile[], logs: readonly InspectLog[]): PlacedRow[] {
  const groups = new Map<string, number[]>();
  rows.forEach((row, k) => {
    const key = `${row.place.file}\u0000${row.task ?? ''}\u0000${row.item}\u0000${row.model}`;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [k]);
    else list.push(k);
  });
  // A reducer that needs K epochs on logs with fewer would score every sample 0 (at_least) or leave
  // it unscored (pass_at, pass_k) without a word: refuse it, naming both numbers.
  if (reducer.kind === 'at_least' || reducer.kind === 'pass_at' || reducer.kind === 'pass_k') {
    let most = 0;
    for (const members of groups.values()) most = Math.max(most, members.length);
    if (groups.size > 0 && most < reducer.k) {
      throw new InputError(`needs at least ${reducer.k} epochs of a sample, but these logs have at most ${most}: every sample would ${reducer.kind === 'at_least' ? 'score 0' : 'be unscored'}`, { file: '--epoch-reducer', value: reducer.name });
    }
  }
  const out: PlacedRow[] = [];
  for (const c of counts) c.rows = 0;
  const fileIndex = new Map(logs.map((log) => [log.file, log.fileIndex]));
  for (const members of groups.values()) {
    const first = rows[members[0]];
    const score = reduceEpochs(
      members.map((k) => ({ score: rows[k].score, raw: raws[k] })),
      reducer,
    );
    const count = counts[fileIndex.get(first.place.file) ?? 0];
    if (Number.isNaN(score)) {
      count.unscored += members.length;
      continue;
    }
    const { repeat: _repeat, outcome: _outcome, ...rest } = first;
    const row: PlacedRow = { ...rest, score };
    if (reducer.kind === 'mode' || reducer.kind === 'max') {
      // The epoch whose value was chosen: for mode, one with the most common raw value (I and N both score 0).
      const counts = new Map<string, number>();
      for (const k of members) counts.set(raws[k], (counts.get(raws[k]) ?? 0) + 1);
      const chosen =
        reducer.kind === 'mode'
          ? members.find((k) => rows[k].score === score && counts.get(raws[k]) === Math.max(...members.filter((j) => rows[j].score === score).map((j) => counts.get(raws[j]) ?? 0)))
          : members.find((k) => rows[k].score === score);
      if (chosen !== undefined && rows[chosen].outcome !== undefined) row.outcome = rows[chosen].outcome;
    }
    out.push(row);
    count.rows += 1;
  }
  return out;
}
