/**
 * Bad input: a file, flag or value the user can fix. The CLI prints it as
 * `error: FILE:LINE: what is wrong (got VALUE)` and exits 2; anything that is not an
 * InputError is a bug and keeps its stack.
 */
export class InputError extends Error {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;
  readonly value: unknown;
  readonly hasValue: boolean;

  /**
   * @param what what is wrong, e.g. `score must be a finite number`.
   * @param where the file (or flag) and line it was found at; the field path if known.
   * @param value the offending value, quoted in the message when given.
   */
  constructor(what: string, where: { file?: string; line?: number; field?: string; value?: unknown } = {}) {
    super(formatInputError(what, where));
    this.name = 'InputError';
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
    this.value = where.value;
    this.hasValue = 'value' in where;
  }
}

/**
 * A check that ran and did not pass (a gate regressed, an archive was tampered with): exit 1, or
 * the status given (3 for a gate that cannot decide: inconclusive).
 */
export class CheckFailed extends Error {
  readonly report: unknown;
  readonly exitCode: number;
  constructor(message: string, report?: unknown, exitCode = 1) {
    super(message);
    this.name = 'CheckFailed';
    this.report = report;
    this.exitCode = exitCode;
  }
}

function formatInputError(what: string, where: { file?: string; line?: number; field?: string; value?: unknown }): string {
  let location = '';
  if (where.file !== undefined) location = where.line !== undefined ? `${where.file}:${where.line}: ` : `${where.file}: `;
  const field = where.field !== undefined && !what.startsWith(where.field) ? `${where.field}: ` : '';
  const got = 'value' in where ? ` (got ${showValue(where.value)})` : '';
  return `${location}${field}${what}${got}`;
}

/** Characters that print as nothing (format characters, fillers): a message writes them as \uXXXX. */
const INVISIBLE_IN_VALUE = /[\p{Cf}\u034f\u115f\u1160\u180e\u3164\uffa0]/gu;

/** Shows a value the way an error message quotes it: strings in quotes (invisible characters written as \uXXXX), long ones cut. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') {
    const cut = value.length > 80 ? `${value.slice(0, 77)}...` : value;
    return JSON.stringify(cut).replace(INVISIBLE_IN_VALUE, (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    // Too deep (or cyclic) to serialise: String() would recurse just as deep, so name the shape.
    return Array.isArray(value) ? '[a deeply nested array]' : '[a deeply nested object]';
  }
}
