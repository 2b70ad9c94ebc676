import { InputError } from '../data/errors.js';
import { scoresFromRows, type ScoreRow } from '../data/scores.js';
import { DEFAULT_IMPORT_MAX_TOTAL_BYTES, ImportByteBudget } from './budget.js';
import { readInspect } from './inspect.js';
import { readLmEval } from './lm-eval.js';
import { readPromptfoo } from './promptfoo.js';
import { checkRows, type PlacedRow } from './source.js';
import { IMPORT_FORMATS, type ImportedFile, type ImportedRow, type ImportFormat, type ImportOptions, type ImportResult } from './types.js';

/** Which options each format reads; giving another format's option is an error, not a no-op. */
const FORMAT_OPTIONS: Readonly<Record<ImportFormat, ReadonlyArray<keyof ImportOptions>>> = {
  promptfoo: ['itemKey', 'score'],
  inspect: ['scorer', 'epochReducer'],
  'lm-eval': ['metric', 'filter'],
};
const FLAG_OF: Partial<Record<keyof ImportOptions, string>> = {
  itemKey: '--item-key',
  score: '--score',
  scorer: '--scorer',
  metric: '--metric',
  filter: '--filter',
  epochReducer: '--epoch-reducer',
};

const DUPLICATE_HINT: Readonly<Record<ImportFormat, string>> = {
  promptfoo: 'with several files or --repeat runs pass --item-key vars; if two runs share a provider, name them apart with --model (once per file)',
  inspect: 'if two logs come from the same model, name them apart with --model (once per file)',
  'lm-eval': 'if two runs come from the same model, name them apart with --model (once per file)',
};

/**
 * Converts other eval tools' result files into the scores table of DESIGN.md: one row per
 * (item, model[, repeat]), ready for every paired analysis.
 * @param format `promptfoo`, `inspect` or `lm-eval` (see readPromptfoo, readInspect, readLmEval
 *   for how each maps to item, model, score, outcome, stratum and repeat).
 * @param files one or more result files of that format.
 * @param options format options; the settings used are echoed in `settings`.
 * @returns the rows (in file order), the models, per-file counts of rows kept, of errored runs
 *   left out (promptfoo failureReason 2, Inspect sample errors) and of unscored rows, whether
 *   the table has an outcome column, whether repeats were inferred, and warnings.
 * @throws {InputError} naming the file and the path inside it for a malformed file, a missing
 *   field, two rows for the same (item, model, repeat), or an item whose stratum differs; for
 *   an option that does not apply to the format; and, naming the file and the entry, for an
 *   archive entry over the limits of ZipLimits (a zip bomb): over maxJsonBytes (64 MiB), expanding
 *   more than maxExpansionRatio (100×), or taking the import past maxTotalBytes (512 MiB for all
 *   files together), refused before it is decompressed.
 * @example importResults('promptfoo', ['tests/fixtures/import/promptfoo/results.json']).rows[0] // => { item: '0', model: 'gpt-4o-mini', score: 1 }
 */
export function importResults(format: ImportFormat, files: readonly string[], options: ImportOptions = {}): ImportResult {
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) throw new InputError(`must be one of ${IMPORT_FORMATS.join(', ')}`, { file: 'FORMAT', value: format });
  if (files.length === 0) throw new InputError('name at least one result file', { file: 'FILE' });
  for (const [other, keys] of Object.entries(FORMAT_OPTIONS) as [ImportFormat, ReadonlyArray<keyof ImportOptions>][]) {
    if (other === format) continue;
    for (const key of keys) {
      if (options[key] !== undefined) throw new InputError(`applies to ${other} files only, not ${format}`, { file: FLAG_OF[key] ?? key });
    }
  }
  // One byte budget over every file, charged as bytes are read or decompressed.
  const readOptions = { ...options, budget: options.budget ?? new ImportByteBudget(options.maxTotalBytes ?? DEFAULT_IMPORT_MAX_TOTAL_BYTES) };
  let placed: PlacedRow[];
  let counts: ImportedFile[];
  let repeatsInferred = false;
  let hasOutcome = false;
  let warnings: string[] = [];
  const settings: ImportResult['settings'] = { itemKey: null, score: null, scorer: null, metric: null, filter: null, stratumKey: options.stratumKey ?? null, clusterKey: options.clusterKey ?? null, epochReducer: null };
  if (format === 'promptfoo') {
    const got = readPromptfoo(files, readOptions);
    placed = got.rows;
    counts = got.files;
    repeatsInferred = got.repeatsInferred;
    warnings = got.warnings;
    settings.itemKey = got.itemKey;
    settings.score = got.score;
    if (repeatsInferred) warnings.push('the files do not record repeat numbers: repeats of a test were numbered in file order');
  } else if (format === 'inspect') {
    const got = readInspect(files, readOptions);
    placed = got.rows;
    counts = got.files;
    hasOutcome = got.hasOutcome;
    warnings = got.warnings;
    settings.scorer = got.scorer;
    settings.epochReducer = got.epochReducer;
  } else {
    const got = readLmEval(files, readOptions);
    placed = got.rows;
    counts = got.files;
    warnings = got.warnings;
    settings.metric = got.metric;
    settings.filter = got.filter;
  }
  if (placed.length === 0) {
    const errored = sum(counts, 'errors');
    const unscored = sum(counts, 'unscored');
    const why = errored + unscored === 0 ? 'the files hold no results (an eval that ran no tests or samples)' : errored > 0 && unscored === 0 ? 'every result is an error (provider or harness failures), none a score' : `${errored} errored, ${unscored} unscored`;
    throw new InputError(`no rows to import: ${why}`, { file: files[0] });
  }
  checkRows(options.keepTask ? placed.map((r) => ({ ...r, item: `${r.task ?? ''}/${r.item}` })) : placed, DUPLICATE_HINT[format]);
  // The answers' text travels only when asked for (loadResults, for review): import writes tables without it.
  const rows: ImportedRow[] = placed.map(({ place: _place, output, ...row }) => (options.keepOutputs && output !== undefined ? { ...row, output } : row));
  if (!options.withDigest) for (const row of rows) delete row.digest;
  // The same checks loadScores makes, so the written table is known to load back.
  if (!options.keepTask) scoresFromRows(rows as ScoreRow[], `${format} import`);
  const models: string[] = [];
  const items = new Set<string>();
  for (const row of rows) {
    if (!models.includes(row.model)) models.push(row.model);
    items.add(row.item);
  }
  return {
    format,
    settings,
    files: counts,
    rows,
    models,
    itemCount: items.size,
    rowCount: rows.length,
    errors: sum(counts, 'errors'),
    unscored: sum(counts, 'unscored'),
    hasOutcome,
    repeatsInferred,
    warnings,
  };
}

function sum(counts: readonly ImportedFile[], key: 'errors' | 'unscored'): number {
  return counts.reduce((total, c) => total + c[key], 0);
}
