import { InputError } from '../data/errors.js';
import type { ScoresTable } from '../data/scores.js';
import { RESULT_FORMATS, type ResultFormat } from '../import/detect.js';
import { loadResults, type LoadResultsOptions, type LoadResultsResult, type LoaderSettingsEcho } from '../import/load-results.js';
import { choiceFlag, type Io } from './io.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The flags of every command that reads scores: which format, model names, and each tool's import options. */
export const SOURCE_OPTIONS: ReadonlyArray<readonly [string, string, ((v: string, p: string[]) => string[])?]> = [
  ['--input-format <format>', `read every input as ${RESULT_FORMATS.join(', ')} (default: detected from each file's content)`],
  ['--model-name <file=name>', 'the model name of an input (repeatable): FILE=NAME overrides what the file says', collect],
  ['--allow-changed-items', 'pair items whose content digest differs between inputs (default: refuse, exit 2)'],
  ['--item-key <key>', 'promptfoo: vars (default with several files: a hash of each test\'s vars) or testIdx'],
  ['--score <field>', 'promptfoo: score (default), success (1/0) or namedScores.NAME'],
  ['--scorer <name>', 'Inspect: the scorer to read (default: the only one); NAME.KEY for a dict value'],
  ['--epoch-reducer <name>', 'Inspect: mean, median, mode, max, at_least_K, pass_at_K or pass_k_K (default: the log\'s own)'],
  ['--metric <name>', 'lm-eval: the per-sample metric (default: the only one)'],
  ['--filter <name>', 'lm-eval: the filter whose rows to keep (default: the only one)'],
  ['--stratum-key <key>', 'tool files: stratum from promptfoo testCase.metadata/vars, Inspect metadata, lm-eval doc'],
  ['--cluster-key <key>', 'tool files: cluster, from the same places as --stratum-key'],
];

/** Adds SOURCE_OPTIONS to a command (commander), skipping any it already has. */
export function withSourceOptions<T extends { option: (...args: never[]) => T; options: readonly { long?: string }[] }>(command: T): T {
  const has = new Set(command.options.map((o) => o.long));
  for (const [flags, description, parse] of SOURCE_OPTIONS) {
    const long = flags.split(' ')[0];
    if (has.has(long)) continue;
    const add = command.option as unknown as (f: string, d: string, p?: unknown) => T;
    if (parse) add.call(command, flags, description, parse);
    else add.call(command, flags, description);
  }
  return command;
}

/** The loader options from a command's parsed flags. */
export function sourceOptionsOf(flags: Record<string, unknown>): LoadResultsOptions {
  const options: LoadResultsOptions = {};
  if (flags.inputFormat !== undefined) options.format = choiceFlag('--input-format', flags.inputFormat as string, RESULT_FORMATS) as ResultFormat;
  const names = flags.modelName as string[] | undefined;
  if (names !== undefined && names.length > 0) {
    const map: Record<string, string> = {};
    for (const spec of names) {
      const eq = spec.lastIndexOf('=');
      if (eq <= 0 || spec.slice(eq + 1).trim() === '') throw new InputError('must be FILE=NAME', { file: '--model-name', value: spec });
      map[spec.slice(0, eq)] = spec.slice(eq + 1).trim();
    }
    options.modelNames = map;
  }
  if (flags.allowChangedItems) options.allowChangedItems = true;
  if (flags.itemKey !== undefined) options.itemKey = choiceFlag('--item-key', flags.itemKey as string, ['testIdx', 'vars'] as const);
  for (const key of ['score', 'scorer', 'epochReducer', 'metric', 'filter', 'stratumKey', 'clusterKey'] as const) {
    if (flags[key] !== undefined) (options as Record<string, unknown>)[key] = flags[key];
  }
  return options;
}

/** The loader's settings as a command's JSON echoes them (defined beside loadResults, for the reports). */
export type { LoaderSettingsEcho } from '../import/load-results.js';

/**
 * The loader settings a command's JSON echoes, each only when its flag was given (`inputFormat`
 * for --input-format, `modelNames` for --model-name), so the output of a run without them is
 * byte for byte what it was; spread after the command's input path (`scores`).
 * @example loaderSettingsOf({ inputFormat: 'promptfoo', modelName: ['a.json=main'] }) // => { inputFormat: 'promptfoo', modelNames: { 'a.json': 'main' } }
 */
export function loaderSettingsOf(flags: Record<string, unknown>): LoaderSettingsEcho {
  const options = sourceOptionsOf(flags);
  return {
    ...(options.format !== undefined ? { inputFormat: options.format } : {}),
    ...(options.modelNames !== undefined ? { modelNames: { ...options.modelNames } } : {}),
  };
}

/**
 * Loads the scores a command reads from its input paths (loadResults) and prints the loader's
 * warnings on stderr, so --json output on stdout stays one document.
 */
export function loadInputs(paths: readonly string[], flags: Record<string, unknown>, io: Io, extra: { keepOutputs?: boolean } = {}): LoadResultsResult & { table: ScoresTable } {
  const loaded = loadResults(paths, { ...sourceOptionsOf(flags), ...extra });
  for (const warning of loaded.warnings) io.stderr(`warning: ${warning}\n`);
  return loaded;
}

/**
 * The two models of a command that compares a pair (gate, size) when the flags name none: with
 * two inputs of one model each, the first input's model and the second's.
 * @throws {InputError} when they cannot be told: the flag to give is named.
 */
export function pairFromInputs(loaded: LoadResultsResult, first: string | undefined, second: string | undefined, flags: [string, string]): [string, string] {
  if (first !== undefined && second !== undefined) return [first, second];
  if (first !== undefined || second !== undefined) throw new InputError(`give both ${flags[0]} and ${flags[1]}, or neither (with two inputs of one model each)`, { file: first === undefined ? flags[0] : flags[1] });
  const [a, b] = loaded.sources;
  if (loaded.sources.length === 2 && a.models.length === 1 && b.models.length === 1 && a.models[0] !== b.models[0]) return [a.models[0], b.models[0]];
  throw new InputError(`name the two models with ${flags[0]} and ${flags[1]} (models: ${loaded.table.models.join(', ')})`, { file: flags[0] });
}
