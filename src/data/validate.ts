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
  where: { file: string; line?: number; lineOf?: (path: ReadonlyArray<PropertyKey>) => number | undefined },
): InputError {
  const issue = error.issues[0];
  let path: PropertyKey[] = [...issue.path];
  let message = issue.message;
  let value: unknown = valueAt(data, path);
  let hasValue = value !== undefined;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    path = [...path, key];
    const allowed = describeAllowedKeys(error, issue);
    message = `unknown key "${key}"${allowed}`;
    hasValue = false;
  } else if (issue.code === 'invalid_type' && value === undefined) {
    message = 'is required';
  } else if (issue.code === 'invalid_key') {
    hasValue = false;
  }
  const line = where.lineOf?.(path) ?? where.line;
  const field = formatPath(path);
  const options: { file: string; line?: number; field?: string; value?: unknown } = { file: where.file };
  if (line !== undefined) options.line = line;
  if (field !== '') options.field = field;
  if (hasValue) options.value = value;
  return new InputError(message, options);
}

function describeAllowedKeys(_error: z.ZodError, _issue: z.core.$ZodIssue): string {
  return ' (keys are strict: check the spelling against the documented format)';
}

/**
 * Validates data with a zod schema, throwing the first problem as an InputError.
 * @returns the parsed, typed value.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  data: unknown,
  where: { file: string; line?: number; lineOf?: (path: ReadonlyArray<PropertyKey>) => number | undefined },
): z.infer<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) throw issueToInputError(result.error, data, where);
  return result.data;
}
