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
      return v;
    },
    2,
  )}\n`;
}

/** The warnings block that ends a readable report: a blank line, then `warning: …` lines; none when there are none. */
export function warningLines(warnings: readonly string[]): string[] {
  return warnings.length === 0 ? [] : ['', ...warnings.map((w) => `warning: ${w}`)];
}

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
 * Parses a number flag, throwing `--flag: must be … (got "value")` on anything else.
 * @param options.integer whole numbers only; min / max inclusive bounds; above: exclusive lower bound.
 */
export function numberFlag(
  flag: string,
  raw: string | number | undefined,
  options: { integer?: boolean; min?: number; max?: number; above?: number; below?: number } = {},
): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const x = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
  const kind = options.integer ? 'a whole number' : 'a number';
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

/** The seed flag: any string; a number is used through its decimal text. */
export function seedFlag(raw: string | undefined): string {
  return raw === undefined ? '0' : raw;
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
    return 1;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(`benchplan: internal error (a bug, please report it with the command that caused it):\n${detail}\n`);
  return EXIT_INTERNAL_ERROR;
}
