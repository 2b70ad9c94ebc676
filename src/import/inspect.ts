import { extname } from 'node:path';
import { InputError } from '../data/errors.js';
import { OUTCOME_SCORE, type OutcomeKind } from '../data/outcomes.js';
import { arrayAt, at, failAt, idAt, indexAt, isRecord, objectAt, type Place } from './fields.js';
import { modelOverride, readJsonFile, type PlacedRow } from './source.js';
import type { ImportedFile, ImportOptions } from './types.js';
import { ZipArchive, type ZipEntry } from './zip.js';

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
}

/** Collects a log's samples, checking each one's shape as it arrives. */
class SampleCollector {
  readonly samples: InspectSample[] = [];
  errors = 0;

  add(value: unknown, place: Place): void {
    const s = objectAt(value, place);
    if (hasError(s)) {
      this.errors += 1;
      return;
    }
    this.samples.push({
      id: idAt(s.id, at(place, 'id'), 'a sample id'),
      epoch: indexAt(s.epoch, at(place, 'epoch')),
      scores: isRecord(s.scores) ? s.scores : undefined,
      metadata: isRecord(s.metadata) ? s.metadata : {},
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
    if (!Number.isFinite(value)) throw failAt(place, 'must be a finite number', value);
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

function readEvalZip(file: string, fileIndex: number, options: ImportOptions): InspectLog {
  const archive = ZipArchive.open(file, options);
  try {
    const header = readHeader(archive);
    const headerPlace: Place = { file: `${file}: ${header.name}`, path: '' };
    const spec = objectAt(objectAt(header.json, headerPlace).eval, at(headerPlace, 'eval'));
    const model = idAt(spec.model, at(at(headerPlace, 'eval'), 'model'), 'a model name');
    const task = typeof spec.task === 'string' && spec.task.trim() !== '' ? spec.task.trim() : undefined;
    const collector = new SampleCollector();
    let seen = 0;
    for (const entry of summaryEntries(archive)) {
      const place: Place = { file, path: entry.name };
      // Each summary is checked as it is parsed: a bad first sample stops the read there.
      const read = archive.readJsonArray(entry, (value, k) => collector.add(value, at(place, k)));
      if (!read.isArray) arrayAt(read.value, place);
      else seen += read.length;
    }
    if (seen === 0) throw new InputError('has no sample summaries (summaries.json): did the eval run any samples?', { file });
    return { file, fileIndex, model, task, samples: collector.samples, errors: collector.errors };
  } finally {
    archive.close();
  }
}

function readJsonLog(file: string, fileIndex: number, options: ImportOptions): InspectLog {
  const root: Place = { file, path: '' };
  const doc = objectAt(readJsonFile(file, options.budget), root);
  const spec = objectAt(doc.eval, at(root, 'eval'));
  const model = idAt(spec.model, at(at(root, 'eval'), 'model'), 'a model name');
  const task = typeof spec.task === 'string' && spec.task.trim() !== '' ? spec.task.trim() : undefined;
  if (doc.samples === undefined || doc.samples === null) throw failAt(at(root, 'samples'), 'is missing: the log has no samples (was it written with --no-log-samples?)');
  const list = arrayAt(doc.samples, at(root, 'samples'));
  const collector = new SampleCollector();
  list.forEach((value, k) => collector.add(value, at(at(root, 'samples'), k)));
  return { file, fileIndex, model, task, samples: collector.samples, errors: collector.errors };
}

function readInspectLog(file: string, fileIndex: number, options: ImportOptions): InspectLog {
  const ext = extname(file).toLowerCase();
  if (ext === '.eval') return readEvalZip(file, fileIndex, options);
  if (ext === '.json') return readJsonLog(file, fileIndex, options);
  throw new InputError('is not an Inspect log: expected a .eval or .json file', { file, value: ext || '(no extension)' });
}

function hasError(sample: Record<string, unknown>): boolean {
  const error = sample.error;
  if (error === undefined || error === null) return false;
  if (typeof error === 'string') return error.trim() !== '';
  return true; // EvalError objects in full samples
}

/** A stratum or cluster value from the sample's metadata.KEY. */
function metadataKey(sample: InspectSample, key: string, flag: string, what: string): string {
  const metadataPlace = at(sample.place, 'metadata');
  const metadata = sample.metadata;
  if (metadata[key] === undefined || metadata[key] === null) throw failAt(at(metadataPlace, key), `is missing (${flag} ${key} reads the sample's metadata.${key})`);
  return idAt(metadata[key], at(metadataPlace, key), what);
}

/**
 * Reads Inspect logs into score rows: `.eval` archives (header.json `eval.model`, rows from
 * summaries.json or the journal's summaries; entries may be deflate or zstd, method 93) and
 * `.json` logs (`samples[]`).
 * - item: sample `id` (prefixed `task/` when the files hold more than one task); repeat: `epoch`;
 * - score: `scores.<scorer>.value` (scorer chosen with options.scorer, or the only one;
 *   `scorer.key` picks from a dict value). C/I/P/N letters become outcomes (INSPECT_LETTER_OUTCOMES)
 *   when every kept value is a letter; otherwise all values are numbers and a warning says so;
 * - samples that ended in an error are left out and counted; samples the scorer did not score
 *   are left out and counted as unscored.
 * Reference: inspect_ai/log/_recorders/eval.py (entry names), log/_log.py (EvalSampleSummary),
 * scorer/_metric.py (value_to_float).
 */
export function readInspect(files: readonly string[], options: ImportOptions): { rows: PlacedRow[]; files: ImportedFile[]; scorer: string; hasOutcome: boolean; warnings: string[] } {
  const override = modelOverride(options.model, files);
  const logs = files.map((file, k) => readInspectLog(file, k, options));
  const tasks = new Set(logs.map((log) => log.task ?? ''));
  const prefixTask = tasks.size > 1;

  // The scorer: named, or the only one any sample uses.
  const scorers = new Set<string>();
  for (const log of logs) for (const s of log.samples) if (s.scores !== undefined) for (const name of Object.keys(s.scores)) scorers.add(name);
  let scorer = options.scorer;
  let valueKey: string | undefined;
  if (scorer === undefined) {
    if (scorers.size === 0) throw new InputError('no sample has scores: nothing to import', { file: files[0] });
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
  let letters = 0;
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
      const row: PlacedRow = { item: prefixTask ? `${log.task ?? ''}/${id}` : id, model, score: parsed.score, repeat: epoch, place: sample.place };
      if (parsed.outcome !== undefined) {
        row.outcome = parsed.outcome;
        letters += 1;
      }
      if (options.stratumKey !== undefined) row.stratum = metadataKey(sample, options.stratumKey, '--stratum-key', 'a stratum name');
      if (options.clusterKey !== undefined) row.cluster = metadataKey(sample, options.clusterKey, '--cluster-key', 'a cluster name');
      rows.push(row);
      count.rows += 1;
      if (!count.models.includes(model)) count.models.push(model);
    }
  }
  const warnings: string[] = [];
  const hasOutcome = rows.length > 0 && letters === rows.length;
  if (!hasOutcome && letters > 0) {
    warnings.push(`${letters} of ${rows.length} values were C/I/P/N letters and the rest numbers: all are written as numbers (C 1, P 0.5, I and N 0), so a non-answer (N) is no longer told apart from a wrong answer (I)`);
    for (const row of rows) delete row.outcome;
  }
  return { rows, files: counts, scorer: valueKey === undefined ? scorer : `${scorer}.${valueKey}`, hasOutcome, warnings };
}
