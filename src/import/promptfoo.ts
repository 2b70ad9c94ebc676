import { extname } from 'node:path';
import { InputError } from '../data/errors.js';
import { arrayAt, at, failAt, idAt, indexAt, isRecord, numberAt, objectAt, type Place } from './fields.js';
import { jsonlRecords } from '../data/read.js';
import type { ImportByteBudget } from './budget.js';
import { fileSize, modelOverride, readJsonFile, type PlacedRow } from './source.js';
import type { ImportedFile, ImportOptions } from './types.js';
import { ImportIdSpellings } from './id-spellings.js';
import { itemDigest } from './item-digest.js';
import { nestingDepth } from '../data/json-text.js';
import { isPromptfooIdentityVar, promptfooVarsItemId } from './vars-hash.js';

/** promptfoo's ResultFailureReason.ERROR: the provider or the harness failed, not the output. */
const FAILURE_REASON_ERROR = 2;
const MAX_PROMPT_LABEL = 60;

interface PromptfooResultAt {
  value: Record<string, unknown>;
  place: Place;
  fileIndex: number;
}

/**
 * The result objects of one promptfoo output file: `promptfoo eval -o results.json` (an
 * OutputFile whose `results` is an EvaluateSummary of version 2 or 3, results under
 * `results.results[]`), a bare EvaluateSummary (`results[]`), or `-o results.jsonl` (one
 * EvalResult a line).
 * Reference: promptfoo src/types/index.ts (EvaluateResult, EvaluateSummaryV3), src/util/output.ts.
 */
function readPromptfooFile(file: string, fileIndex: number, budget: ImportByteBudget | undefined): PromptfooResultAt[] {
  const ext = extname(file).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') {
    // Every line's object is kept until the rows are built, so the file counts against the budget.
    budget?.charge(fileSize(file), file);
    const out: PromptfooResultAt[] = [];
    for (const { line, values: value } of jsonlRecords(file)) out.push({ value, place: { file, line, path: '' }, fileIndex });
    return out;
  }
  const doc = objectAt(readJsonFile(file, budget), { file, path: '' });
  let summary: Record<string, unknown>;
  let prefix: Place;
  if (isRecord(doc.results)) {
    summary = doc.results;
    prefix = { file, path: 'results' };
  } else if (Array.isArray(doc.results)) {
    summary = doc;
    prefix = { file, path: '' };
  } else {
    throw new InputError('is not a promptfoo results file: expected results.results[] (from promptfoo eval -o results.json)', { file });
  }
  if (summary.version !== undefined && summary.version !== 2 && summary.version !== 3) {
    throw failAt(at(prefix, 'version'), 'is not a supported promptfoo results version (2 or 3)', summary.version);
  }
  const list = arrayAt(summary.results, at(prefix, 'results'));
  return list.map((value, k) => {
    const place = at(at(prefix, 'results'), k);
    return { value: objectAt(value, place), place, fileIndex };
  });
}

function providerName(result: Record<string, unknown>, place: Place, spellings: ImportIdSpellings): string {
  const provider = result.provider;
  if (typeof provider === 'string') return idAt(provider, at(place, 'provider'), 'a provider id', spellings);
  const p = objectAt(provider, at(place, 'provider'));
  if (typeof p.label === 'string' && p.label.trim() !== '') return idAt(p.label, at(at(place, 'provider'), 'label'), 'a provider id', spellings);
  return idAt(p.id, at(at(place, 'provider'), 'id'), 'a provider id', spellings);
}

/** The prompt's short name: its label when short and on one line, else its id. */
function promptName(result: Record<string, unknown>, place: Place): string {
  const prompt = isRecord(result.prompt) ? result.prompt : {};
  const label = typeof prompt.label === 'string' ? prompt.label.trim() : '';
  if (label !== '' && label.length <= MAX_PROMPT_LABEL && !/[\r\n]/.test(label)) return label;
  const id = typeof result.promptId === 'string' && result.promptId !== '' ? result.promptId : typeof prompt.id === 'string' ? prompt.id : '';
  if (id !== '') return `prompt ${id.slice(0, 8)}`;
  if (typeof result.promptIdx === 'number') return `prompt ${result.promptIdx}`;
  throw failAt(at(place, 'prompt'), 'has no label, id or promptIdx to name the prompt by');
}

function varsOf(result: Record<string, unknown>): Record<string, unknown> | undefined {
  const testCase = isRecord(result.testCase) ? result.testCase : {};
  if (isRecord(testCase.vars)) return testCase.vars;
  if (isRecord(result.vars)) return result.vars;
  return undefined;
}

/** A stratum or cluster value from testCase.metadata.KEY, else vars.KEY. */
function keyed(result: Record<string, unknown>, place: Place, key: string, flag: string, spellings: ImportIdSpellings): string {
  const what = flag === '--stratum-key' ? 'a stratum name' : 'a cluster name';
  const testCase = isRecord(result.testCase) ? result.testCase : {};
  const metadata = isRecord(testCase.metadata) ? testCase.metadata : {};
  if (metadata[key] !== undefined && metadata[key] !== null) return idAt(metadata[key], at(at(at(place, 'testCase'), 'metadata'), key), what, spellings);
  const vars = varsOf(result);
  if (vars !== undefined && vars[key] !== undefined && vars[key] !== null) {
    const varsPlace = isRecord(testCase.vars) ? at(at(place, 'testCase'), 'vars') : at(place, 'vars');
    return idAt(vars[key], at(varsPlace, key), what, spellings);
  }
  throw failAt(at(at(at(place, 'testCase'), 'metadata'), key), `is missing (${flag} ${key} looks in testCase.metadata.${key}, then vars.${key})`);
}

function scoreOf(result: Record<string, unknown>, place: Place, field: string): number | undefined {
  if (field === 'score') return numberAt(result.score, at(place, 'score'));
  if (field === 'success') {
    if (typeof result.success !== 'boolean') throw failAt(at(place, 'success'), result.success === undefined ? 'is missing: expected true or false' : 'must be true or false', ...(result.success === undefined ? [] : [result.success]));
    return result.success ? 1 : 0;
  }
  const name = field.slice('namedScores.'.length);
  const named = result.namedScores;
  if (named === undefined || named === null) return undefined;
  const scores = objectAt(named, at(place, 'namedScores'));
  if (scores[name] === undefined) return undefined;
  return numberAt(scores[name], at(at(place, 'namedScores'), name));
}

/** The repeat a result records: `repeatIndex`, or the `__repeatIndex` var older versions kept. */
function repeatOf(result: Record<string, unknown>, place: Place): number | undefined {
  if (result.repeatIndex !== undefined) return indexAt(result.repeatIndex, at(place, 'repeatIndex'));
  const testCase = isRecord(result.testCase) ? result.testCase : {};
  if (isRecord(testCase.vars) && testCase.vars.__repeatIndex !== undefined) return indexAt(testCase.vars.__repeatIndex, at(at(at(place, 'testCase'), 'vars'), '__repeatIndex'));
  if (isRecord(result.vars) && result.vars.__repeatIndex !== undefined) return indexAt(result.vars.__repeatIndex, at(at(place, 'vars'), '__repeatIndex'));
  return undefined;
}

/**
 * Reads promptfoo results into score rows.
 * - item: `testIdx` (one file), or with itemKey `vars` the stable hash of the test's vars
 *   (promptfooVarsItemId), which pairs the same test across files and across `--repeat` runs (promptfoo
 *   gives each repeat its own testIdx);
 * - model: `provider.label ?? provider.id`, followed by ` [prompt label]` when the files hold more
 *   than one prompt; or options.model, followed by the label when its file holds more than one;
 * - score: `score`, `success` as 1/0, or `namedScores.NAME` (rows without it are counted as unscored);
 * - rows with `failureReason` 2 (an error, not a failed assertion) are left out and counted;
 * - repeat: `repeatIndex` when recorded; with itemKey `vars` and no record, repeats of a
 *   (test, model) within a file are numbered in file order and `repeatsInferred` is set.
 * - digest: itemDigest of the test's identity vars, so pairing by testIdx across files that
 *   ran different tests can be caught (promptfooTestDigest);
 * - with `namedScores.NAME`, a name no result has is an error listing the names the results have.
 * @returns the rows, per-file counts, whether repeats were inferred, and warnings.
 */
/** The deepest nesting of objects and arrays a test's vars may have (real vars nest a few levels). */
const MAX_VARS_DEPTH = 1000;

export function readPromptfoo(files: readonly string[], options: ImportOptions): { rows: PlacedRow[]; files: ImportedFile[]; repeatsInferred: boolean; itemKey: 'testIdx' | 'vars'; score: string; warnings: string[] } {
  const scoreField = options.score ?? 'score';
  if (scoreField !== 'score' && scoreField !== 'success' && !/^namedScores\..+/.test(scoreField)) {
    throw new InputError('must be score, success or namedScores.NAME', { file: '--score', value: scoreField });
  }
  if (files.length > 1 && options.itemKey === undefined) {
    throw new InputError(
      'several promptfoo files: say how to match tests across them with --item-key vars (a hash of each test\'s vars) or --item-key testIdx (only when every file ran the same test list)',
      { file: '--item-key' },
    );
  }
  const itemKey = options.itemKey ?? 'testIdx';
  const override = modelOverride(options.model, files);
  const spellings = new ImportIdSpellings();
  const results = files.flatMap((file, k) => readPromptfooFile(file, k, options.budget));

  // Prompt labels join the model name when there are several prompts: across all files, or,
  // when --model names each file's run, within the file.
  const prompts = new Set<string>();
  const filePrompts = files.map(() => new Set<string>());
  for (const r of results) {
    const name = promptName(r.value, r.place);
    prompts.add(name);
    filePrompts[r.fileIndex].add(name);
  }
  const labelled = (fileIndex: number) => (override(fileIndex) === undefined ? prompts.size > 1 : filePrompts[fileIndex].size > 1);

  const counts: ImportedFile[] = files.map((file) => ({ file, models: [], rows: 0, errors: 0, unscored: 0 }));
  const rows: PlacedRow[] = [];
  const explicitRepeat: boolean[] = [];
  const rowFile: number[] = [];
  for (const { value: r, place, fileIndex } of results) {
    const count = counts[fileIndex];
    if (r.failureReason !== undefined && r.failureReason !== null) {
      const reason = numberAt(r.failureReason, at(place, 'failureReason'));
      if (reason === FAILURE_REASON_ERROR) {
        count.errors += 1;
        continue;
      }
    }
    const base = override(fileIndex) ?? providerName(r, place, spellings);
    const model = labelled(fileIndex) ? `${base} [${promptName(r, place)}]` : base;
    // The vars are hashed (item id, digest) by a recursive canonical JSON: refuse absurd nesting by name, not by a stack overflow.
    const varsNow = varsOf(r);
    if (varsNow !== undefined && nestingDepth(varsNow, MAX_VARS_DEPTH) > MAX_VARS_DEPTH) {
      throw failAt(isRecord(r.testCase) && isRecord((r.testCase as Record<string, unknown>).vars) ? at(at(place, 'testCase'), 'vars') : at(place, 'vars'), `nests deeper than ${MAX_VARS_DEPTH} levels (objects and arrays inside one another): not a test's variables`);
    }
    let item: string;
    if (itemKey === 'testIdx') item = String(indexAt(r.testIdx, at(place, 'testIdx')));
    else {
      const vars = varsOf(r);
      const id = vars === undefined ? undefined : promptfooVarsItemId(vars);
      if (id === undefined) throw failAt(at(at(place, 'testCase'), 'vars'), 'has no vars (besides _* and sessionId) to identify the test by; --item-key vars needs them (it is the default with several files; --item-key testIdx pairs tests by position instead)');
      item = id;
    }
    const score = scoreOf(r, place, scoreField);
    if (score === undefined) {
      count.unscored += 1;
      continue;
    }
    const row: PlacedRow = { item, model, score, place };
    const digest = promptfooTestDigest(r);
    if (digest !== undefined) row.digest = digest;
    // What the provider answered (response.output: text, or a structured answer as its JSON).
    const response = isRecord(r.response) ? r.response.output : undefined;
    if (typeof response === 'string') row.output = response;
    else if (response !== undefined && response !== null) row.output = JSON.stringify(response);
    if (options.stratumKey !== undefined) row.stratum = keyed(r, place, options.stratumKey, '--stratum-key', spellings);
    if (options.clusterKey !== undefined) row.cluster = keyed(r, place, options.clusterKey, '--cluster-key', spellings);
    const repeat = repeatOf(r, place);
    if (repeat !== undefined) row.repeat = repeat;
    explicitRepeat.push(repeat !== undefined);
    rowFile.push(fileIndex);
    rows.push(row);
    count.rows += 1;
    if (!count.models.includes(model)) count.models.push(model);
  }

  const warnings: string[] = [];
  if (scoreField.startsWith('namedScores.')) {
    const missing = counts.reduce((n, c) => n + c.unscored, 0);
    if (missing > 0) {
      const available = new Set<string>();
      for (const { value: r } of results) if (isRecord(r.namedScores)) for (const key of Object.keys(r.namedScores)) available.add(key);
      const names = [...available].sort();
      const listing = names.length === 0 ? 'no result has namedScores (they come from assertions with a metric: name)' : `the named scores in the files: ${names.join(', ')}`;
      if (rows.length === 0) throw new InputError(`no result has this named score; ${listing}`, { file: '--score', value: scoreField });
      warnings.push(`${missing} result${missing === 1 ? '' : 's'} without ${scoreField} left out as unscored (${listing})`);
    }
  }
  let repeatsInferred = false;
  const anyRepeat = explicitRepeat.some(Boolean);
  if (itemKey === 'vars' && explicitRepeat.some((x) => !x)) {
    // Number the unrecorded repeats of each (test, model) in file order, within each file: the
    // same test and model in two files is a clash to report, not a repeat.
    const seen = new Map<string, number>();
    rows.forEach((row, k) => {
      if (explicitRepeat[k]) return;
      const key = `${rowFile[k]}\u0000${row.item}\u0000${row.model}`;
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      row.repeat = n;
      if (n > 0) repeatsInferred = true;
    });
    if (!repeatsInferred && !anyRepeat) for (const row of rows) delete row.repeat;
  } else if (anyRepeat) {
    for (const row of rows) row.repeat ??= 0;
  }
  return { rows, files: counts, repeatsInferred, itemKey, score: scoreField, warnings };
}

/**
 * The content digest of a promptfoo test: itemDigest of its identity vars
 * (isPromptfooIdentityVar), what the test asks. Its assertions are left out: promptfoo can scope
 * them to a provider, so one test may record different ones per provider within one run.
 * Undefined when the test has no identity var.
 * @example promptfooTestDigest({ vars: { q: 'x', _conversation: [] } }) === promptfooTestDigest({ testCase: { vars: { q: 'x' } } }) // => true
 */
export function promptfooTestDigest(result: Record<string, unknown>): string | undefined {
  const vars = varsOf(result);
  if (vars === undefined) return undefined;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(vars)) if (isPromptfooIdentityVar(key) && vars[key] !== undefined) kept[key] = vars[key];
  if (Object.keys(kept).length === 0) return undefined;
  return itemDigest({ vars: kept });
}
