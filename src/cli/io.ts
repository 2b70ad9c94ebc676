import { CheckFailed, InputError } from '../data/errors.js';
import { outputFormatOf } from './output-format.js';

/** Where a command writes: injectable so tests run the CLI in-process. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stderr is a terminal: show progress bars. */
  stderrIsTTY: boolean;
}

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: Boolean(process.stderr.isTTY),
};

/** A command's context: its output streams and the global flags. */
export interface Context {
  io: Io;
  json: boolean;
  /** `--format markdown` (on the commands that offer it). */
  markdown: boolean;
}

/** The context of a running command: `--json` may be given before or after the command name; `--format` after it. */
export function contextOf(command: { optsWithGlobals: () => Record<string, unknown> }, io: Io): Context {
  const format = outputFormatOf(command.optsWithGlobals());
  return { io, json: format === 'json', markdown: format === 'markdown' };
}

/**
 * Serialises a result for `--json`: NaN and ±Infinity become null (JSON has no such numbers),
 * typed arrays become arrays; key order is the objects' own, so output is byte-stable.
 */
export function toJsonText(value: unknown): string {
  return `${JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) return null;
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return inVocabulary(v as Record<string, unknown>);
      return v;
    },
    2,
  )}\n`;
}

/**
 * The JSON edge speaks one vocabulary, scipy's names in camelCase (docs/library.md "JSON output"):
 * a library result that still calls an idea by its older name is printed under the one name
 * (`interval` → `confidenceInterval`, `resamples` → `nResamples`), in the same place among its keys.
 * Where an object already carries the one name, the older key is dropped only when it holds the same
 * value; a different value under both names is a bug and keeps both, so the schema test finds it.
 */
export const JSON_VOCABULARY: Readonly<Record<string, { name: string; is: (value: unknown) => boolean }>> = {
  // Only a [low, high] pair: Krippendorff's `interval` level of measurement is another idea.
  interval: { name: 'confidenceInterval', is: Array.isArray },
  resamples: { name: 'nResamples', is: (value) => typeof value === 'number' },
};

function inVocabulary(v: Record<string, unknown>): Record<string, unknown> {
  if (!Object.keys(JSON_VOCABULARY).some((old) => Object.hasOwn(v, old) && JSON_VOCABULARY[old].is(v[old]))) return v;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(v)) {
    const name = Object.hasOwn(JSON_VOCABULARY, key) && JSON_VOCABULARY[key].is(value) ? JSON_VOCABULARY[key].name : undefined;
    if (name === undefined) out[key] = value;
    else if (!Object.hasOwn(v, name)) out[name] = value;
    else if (JSON.stringify(v[name]) !== JSON.stringify(value)) out[key] = value;
  }
  return out;
}

/** The warnings block that ends a readable report (a blank line, then `warning: …` lines); it lives with the report's text helpers. */
export { warningLines } from '../report/table.js';

/** Prints the JSON document with --json, the Markdown with --format markdown, else the readable text. */
export function emit(ctx: Context, json: unknown, text: () => string, markdown?: () => string): void {
  if (ctx.json) ctx.io.stdout(toJsonText(json));
  else {
    if (ctx.markdown && markdown === undefined) throw new InputError('this command has no Markdown output', { file: '--format', value: 'markdown' });
    const body = ctx.markdown && markdown !== undefined ? markdown() : text();
    ctx.io.stdout(body.endsWith('\n') ? body : `${body}\n`);
  }
}

/**
 * The largest number of bootstrap resamples (or permutations) a flag may ask for: 10⁷. Far past
 * what an interval's Monte Carlo error needs (9,999 gives percentile ends to ±0.2 percentile
 * points), and still seconds to minutes of work and ~80 MB of draws, not hours or a crash.
 */
export const MAX_RESAMPLES = 10_000_000;
/** The largest annotation budget (items) a flag may name: 10⁷, a thousand times any real benchmark. */
export const MAX_BUDGET = 10_000_000;
/** The longest seed, in characters. Seeds are names (`2026Q3`, `nightly-42`), not data. */
export const MAX_SEED_LENGTH = 256;

/** The `--resamples` flag: a whole number from `min` (default 1) to MAX_RESAMPLES. */
export function resamplesFlag(raw: string | number | undefined, min = 1, flag = '--resamples'): number | undefined {
  return numberFlag(flag, raw, { integer: true, min, limit: MAX_RESAMPLES });
}

/** A `--budget`-like flag (items): a whole number from `min` to MAX_BUDGET. */
export function budgetFlag(flag: string, raw: string | number | undefined, min: number): number | undefined {
  return numberFlag(flag, raw, { integer: true, min, limit: MAX_BUDGET });
}

/**
 * Parses a number flag, throwing `--flag: must be … (got "value")` on anything else.
 * @param options.integer whole numbers only; min / max inclusive bounds; above: exclusive lower bound;
 *   limit: the documented maximum, named in the message only for a value past it (an integer
 *   flag without max or limit is limited to 2^53 − 1, the largest exact whole number).
 */
export function numberFlag(
  flag: string,
  raw: string | number | undefined,
  options: { integer?: boolean; min?: number; max?: number; above?: number; below?: number; limit?: number } = {},
): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const x = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
  const kind = options.integer ? 'a whole number' : 'a number';
  // A whole number past 2^53 is not exact in a double: never a valid count.
  const limit = options.limit ?? (options.integer && options.max === undefined ? Number.MAX_SAFE_INTEGER : undefined);
  if (limit !== undefined && Number.isFinite(x) && x > limit) {
    throw new InputError(`must be ${kind} ≤ ${limit}, the most this flag allows`, { file: flag, value: text });
  }
  const bounds: string[] = [];
  if (options.min !== undefined) bounds.push(`≥ ${options.min}`);
  if (options.above !== undefined) bounds.push(`> ${options.above}`);
  if (options.max !== undefined) bounds.push(`≤ ${options.max}`);
  if (options.below !== undefined) bounds.push(`< ${options.below}`);
  const what = `must be ${kind}${bounds.length ? ` ${bounds.join(' and ')}` : ''}`;
  const bad =
    !Number.isFinite(x) ||
    (options.integer && !Number.isInteger(x)) ||
    (options.min !== undefined && x < options.min) ||
    (options.max !== undefined && x > options.max) ||
    (options.above !== undefined && x <= options.above) ||
    (options.below !== undefined && x >= options.below);
  if (bad) throw new InputError(what, { file: flag, value: text });
  return x;
}

/** Parses a choice flag against its allowed values. */
export function choiceFlag<T extends string>(flag: string, raw: string | undefined, choices: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw)) throw new InputError(`must be one of ${choices.join(', ')}`, { file: flag, value: raw });
  return raw as T;
}

/**
 * The seed flag: any non-empty string of at most MAX_SEED_LENGTH characters; a number is used
 * through its decimal text.
 * @throws {InputError} `--seed: …` for an empty or longer seed.
 */
export function seedFlag(raw: string | undefined): string {
  if (raw === undefined) return '0';
  if (raw.length === 0 || raw.length > MAX_SEED_LENGTH) {
    throw new InputError(`must be a name or number of 1 to ${MAX_SEED_LENGTH} characters`, { file: '--seed', value: raw });
  }
  return raw;
}

/**
 * A progress bar on stderr, drawn only when stderr is a terminal (never in CI logs or pipes).
 */
export function progress(io: Io, label: string): { update: (fraction: number) => void; done: () => void } {
  if (!io.stderrIsTTY) return { update: () => {}, done: () => {} };
  let last = -1;
  return {
    update(fraction) {
      const pct = Math.floor(Math.max(0, Math.min(1, fraction)) * 100);
      if (pct === last) return;
      last = pct;
      const width = 30;
      const filled = Math.round((pct / 100) * width);
      io.stderr(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}%`);
    },
    done() {
      if (last >= 0) io.stderr('\r\x1b[K');
    },
  };
}

/** Exit status for a bug in benchplan (BSD sysexits' EX_SOFTWARE): never confused with 1, a failed check. */
export const EXIT_INTERNAL_ERROR = 70;

/**
 * Maps an error to the CLI's exit status and message: 2 for bad input, 1 for a failed check, and
 * 70 for anything else, which is a bug: its stack is printed, so it can be reported and fixed, and
 * a CI job never reads it as a gate that failed.
 */
export function reportError(error: unknown, io: Io): number {
  if (error instanceof InputError) {
    io.stderr(`error: ${error.message}\n`);
    return 2;
  }
  if (error instanceof CheckFailed) {
    io.stderr(`${error.message}\n`);
    return error.exitCode;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(`benchplan: internal error (a bug, please report it with the command that caused it):\n${detail}\n`);
  return EXIT_INTERNAL_ERROR;
}
