import { InputError } from '../data/errors.js';

/** What a version id may look like: a letter or digit, then up to 63 letters, digits, `.`, `_`, `-`. */
export const VERSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Checks a version id before it becomes a file name in the archive: no `/`, `\`, `..`, leading
 * dot or dash, NUL, spaces, or names longer than 64 characters, so an id can never point
 * outside `DIR/versions/` or hide as a dot-file.
 * @param id the id as given, e.g. `2026Q3`.
 * @param flag where it came from, for the message (default `--version`).
 * @returns the id unchanged.
 * @throws {InputError} `--version: must be 1–64 letters, digits, ".", "_" or "-" … (got "../x")`.
 * @example checkVersionId('2026Q3') // => "2026Q3"
 */
export function checkVersionId(id: string, flag = '--version'): string {
  if (typeof id !== 'string' || !VERSION_ID_PATTERN.test(id) || id.includes('..')) {
    throw new InputError('must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit, without ".."', { file: flag, value: id });
  }
  return id;
}
