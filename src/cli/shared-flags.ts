// The flags many commands share, each defined once: its name and value placeholder, its default,
// and the parser that checks it (the parsers live beside the other flag parsers in io.ts and
// sequential-flags.ts and are re-exported here). A command registers one with
// `.option(...seedOption('what the seed drives here'))`: the description says what the flag does
// in that command (the seed of the permutations, of the draw, of the bootstrap), the rest is
// shared, so `--seed` cannot take another default or another check in one command.
import { Option } from '@commander-js/extra-typings';
import { InputError } from '../data/errors.js';
import { isIsoDate } from '../data/dates.js';
import { numberFlag, type Io } from './io.js';

export { seedFlag, resamplesFlag } from './io.js';
export { SCORE_RANGE_OPTION, scoreRangeFlag } from './sequential-flags.js';

/** `--seed <seed>`, default `0`: a name or number of 1 to 256 characters (seedFlag). */
export const seedOption = (description: string) => ['--seed <seed>', description, '0'] as const;

/** `--confidence <level>`, default `0.95`: a level in (0, 1) (confidenceFlag). */
export const confidenceOption = (description: string) => ['--confidence <level>', description, '0.95'] as const;

/** `--resamples <n>`, default `9999` unless the command's cost asks for fewer: a whole number, at most 10,000,000 (resamplesFlag). */
export const resamplesOption = <const D extends string = '9999'>(description: string, defaultValue: D = '9999' as D) => ['--resamples <n>', description, defaultValue] as const;

/**
 * A shared flag without its default, for `plan`: a plan fixes a setting only when the flag is
 * given, and leaves it free otherwise (so it must not take the analysis commands' default).
 */
export const withoutDefault = <F extends string, D extends string>(option: readonly [F, D, ...unknown[]]): readonly [F, D] => [option[0], option[1]] as const;

/** `--drop-unpaired`, a switch: leave out items not every compared model scored; without it they are refused, naming them. */
export const dropUnpairedOption = (description = 'leave out items one model did not score') => ['--drop-unpaired', description] as const;

/** `--threads <k>`, default `1`: worker threads, a whole number from 1 to 256 (threadsFlag); the bytes do not depend on it. */
export const threadsOption = (description = 'worker threads for the resampling (same result for any number)') => ['--threads <k>', description, '1'] as const;

/** Parses `--confidence`: a number strictly between 0 and 1 (`above` narrows it, e.g. 0.5 for a one-sided bound). */
export function confidenceFlag(raw: string | undefined, above = 0): number {
  return numberFlag('--confidence', raw ?? '0.95', { above, below: 1 }) as number;
}

/** Parses `--threads`: a whole number from 1 to 256. */
export function threadsFlag(raw: string | undefined): number {
  return numberFlag('--threads', raw ?? '1', { integer: true, min: 1, max: 256 }) as number;
}

/**
 * An old name of a flag that keeps working: hidden from `--help` and the docs' flag tables (the
 * docs name only the new one; docs/select.md lists the alias), it prints one deprecation line on
 * stderr when used. Register it with `.addOption(deprecatedAlias('--out <file>'))`.
 */
export function deprecatedAlias(flags: string): Option {
  return new Option(flags).hideHelp();
}

/**
 * The value of a flag given under its new name or its deprecated alias (both: refused), with
 * `warning: OLD is deprecated; use NEW` on stderr when the alias was used.
 * @throws {InputError} when both names are given.
 */
export function takeAlias(io: Io, value: string | undefined, aliasValue: string | undefined, names: { old: string; current: string }): string | undefined {
  if (aliasValue === undefined) return value;
  if (value !== undefined) throw new InputError(`is the deprecated name of ${names.current}: give one of them`, { file: names.old, value: aliasValue });
  io.stderr(`warning: ${names.old} is deprecated; use ${names.current}\n`);
  return aliasValue;
}

/** `--date`: a calendar day `YYYY-MM-DD`, default today. */
export function dateFlag(raw: string | undefined): string {
  if (raw === undefined) return todayIsoDate();
  if (!isIsoDate(raw)) throw new InputError('must be a date YYYY-MM-DD', { file: '--date', value: raw });
  return raw;
}

/**
 * Today's date as `YYYY-MM-DD` in local time: the CLI reads the clock so the library never does.
 * Used by --date (freeze, rotate, plan).
 */
export function todayIsoDate(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}
