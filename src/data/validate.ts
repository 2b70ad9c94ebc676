import type { z } from 'zod';
import { InputError } from './errors.js';

/** A zod issue path as people read it: `strata.routine.traffic`, `band[1]`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The value at a path inside parsed data, or undefined. */
function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node: unknown = data;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/**
 * Turns the first zod issue into an InputError: `file:line: path: message (got value)`.
 * @param lineOf maps a path to the line it sits on, when the source format knows lines.
 */
export function issueToInputError(
  error: z.ZodError,
  data: unknown,
  where: ValidationSite,
): InputError {
  const issue = error.issues[0];
  let path: PropertyKey[] = [...issue.path];
  let message = issue.message;
  let value: unknown = valueAt(data, path);
  let hasValue = value !== undefined;
  let linePath = path;
  if (issue.code === 'unrecognized_keys') {
    // Reported at the parent, with the key as the value; the line is the key's own.
    const key = issue.keys[0];
    linePath = [...path, key];
    message = 'unknown key (keys are strict: check the spelling against the documented format)';
    value = key;
    hasValue = true;
  } else if (issue.code === 'invalid_type' && value === undefined) {
    message = 'is required';
  } else if (issue.code === 'invalid_key') {
    hasValue = false;
  }
  const line = where.lineOf?.(linePath) ?? where.line;
  const field = formatPath([...(where.pathPrefix ?? []), ...path]);
  const options: { file: string; line?: number; field?: string; value?: unknown } = { file: where.file };
  if (line !== undefined) options.line = line;
  if (field !== '') options.field = field;
  if (hasValue) options.value = value;
  return new InputError(message, options);
}

/** Where data being validated came from: the file, and its line or a way to find lines by path. */
export interface ValidationSite {
  file: string;
  line?: number;
  lineOf?: (path: ReadonlyArray<PropertyKey>) => number | undefined;
  /** Path of the validated value inside its file (e.g. `items[3]`), prefixed to field names. */
  pathPrefix?: ReadonlyArray<PropertyKey>;
}

/**
 * Validates data with a zod schema, throwing the first problem as an InputError.
 * @returns the parsed, typed value.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  data: unknown,
  where: ValidationSite,
): z.infer<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) throw issueToInputError(result.error, data, where);
  return result.data;
}
