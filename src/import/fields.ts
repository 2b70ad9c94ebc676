import { InputError } from '../data/errors.js';

/**
 * Where a value sits in a source file, for messages: the file (and line, for JSONL), and the
 * path inside the parsed document, e.g. `results.results[3].score`.
 */
export interface Place {
  file: string;
  line?: number;
  path: string;
}

/** The path of a child: `at(place, 'score')`, `at(place, 3)` → `…[3]`. */
export function at(place: Place, key: string | number): Place {
  const path = typeof key === 'number' ? `${place.path}[${key}]` : /^[A-Za-z_$][\w$-]*$/.test(key) ? (place.path === '' ? key : `${place.path}.${key}`) : `${place.path}[${JSON.stringify(key)}]`;
  return place.line === undefined ? { file: place.file, path } : { file: place.file, line: place.line, path };
}

/** An InputError at a place: `file[:line]: path: what (got value)`. */
export function failAt(place: Place, what: string, ...value: [] | [unknown]): InputError {
  const where: { file: string; line?: number; field?: string; value?: unknown } = { file: place.file };
  if (place.line !== undefined) where.line = place.line;
  if (place.path !== '') where.field = place.path;
  if (value.length > 0) where.value = value[0];
  return new InputError(what, where);
}

/** A place as one string, for "first seen at …" in messages. */
export function describePlace(place: Place): string {
  return `${place.file}${place.line !== undefined ? `:${place.line}` : ''}${place.path !== '' ? ` ${place.path}` : ''}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The object at a place, or an error naming the place. */
export function objectAt(value: unknown, place: Place): Record<string, unknown> {
  if (!isRecord(value)) throw failAt(place, value === undefined ? 'is missing: expected an object' : 'must be an object', ...(value === undefined ? [] : [value]));
  return value;
}

/** The array at a place, or an error naming the place. */
export function arrayAt(value: unknown, place: Place): unknown[] {
  if (!Array.isArray(value)) throw failAt(place, value === undefined ? 'is missing: expected an array' : 'must be an array', ...(value === undefined ? [] : [value]));
  return value;
}

/** A finite number at a place. */
export function numberAt(value: unknown, place: Place): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw failAt(place, value === undefined ? 'is missing: expected a number' : 'must be a number', ...(value === undefined ? [] : [value]));
  }
  return value;
}

/** A whole number ≥ 0 at a place. */
export function indexAt(value: unknown, place: Place): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw failAt(place, value === undefined ? 'is missing: expected a whole number ≥ 0' : 'must be a whole number ≥ 0', ...(value === undefined ? [] : [value]));
  }
  return value;
}

/**
 * An id at a place: a non-empty string, or a finite number written as text. Surrounding space
 * is trimmed, as loadScores does, so the written table loads back to the same ids.
 * @param spellings the import's checker: two spellings of one trimmed id of this kind (`what`)
 *   within the import are refused (`ImportIdSpellings`), as every loader refuses them in a file.
 * @example idAt(' a1 ', { file: 'log.json', path: 'samples[0].id' }) // => 'a1'
 */
export function idAt(value: unknown, place: Place, what = 'an id', spellings?: { check(what: string, raw: string, trimmed: string, place: Place): void }): string {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
  if (text === undefined || text === '') {
    throw failAt(place, value === undefined ? `is missing: expected ${what} (a string or number)` : `must be ${what}: a non-empty string or a number`, ...(value === undefined ? [] : [value]));
  }
  spellings?.check(what, typeof value === 'string' ? value : text, text, place);
  return text;
}
