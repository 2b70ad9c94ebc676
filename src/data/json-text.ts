import { InputError } from './errors.js';

/**
 * Parses JSON text strictly: what `JSON.parse` accepts, minus objects that name a key twice.
 * RFC 8259 §4 leaves duplicate names undefined and `JSON.parse` silently keeps the last, so
 * `{"score": 1, "score": 0}` would be read as 0 while another tool reads 1: benchplan refuses it.
 * The duplicate check is one pass over the text with an explicit stack (no recursion), so a
 * deeply nested document cannot overflow the call stack. Cost: O(text length).
 * @param where the file (and line, for a JSONL line) that errors name. When `line` is given the
 *   text is one line and errors keep it; otherwise the line inside the text is counted.
 * @returns the parsed value.
 * @throws {InputError} `not valid JSON: …` or `an object names the key "k" twice`.
 * @example parseJsonText('{"a":1}', { file: 'x.json' }) // => { a: 1 }
 */
export function parseJsonText(text: string, where: { file: string; line?: number }): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`not valid JSON: ${(error as Error).message}`, { ...where, value: text.trim().slice(0, 60) });
  }
  // Only an object can repeat a key; skip the scan for text without one. Counting first (no
  // allocation: a version record of 10⁵ items is read on every verify) and looking for the
  // repeated key only when the text names more keys than the parsed value holds.
  if (text.includes('{') && keyTokens(text) !== keysIn(value)) {
    const duplicate = firstDuplicateKey(text);
    if (duplicate !== undefined) {
      const line = where.line ?? duplicate.line;
      throw new InputError('an object names the same key twice (JSON keys must be unique)', { file: where.file, line, value: duplicate.key });
    }
  }
  return value;
}

/**
 * The first key an object of valid JSON text repeats, and the line (1-based) of its second
 * occurrence; undefined when every object's keys are unique. Keys compare after unescaping
 * (`"a"` and `"\u0061"` are the same key).
 * @example firstDuplicateKey('{"a":1,
"a":2}') // => { key: 'a', line: 2 }
 */
export function firstDuplicateKey(text: string): { key: string; line: number } | undefined {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: Array<Set<string> | null> = [];
  let expectKey = false;
  let line = 1;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) {
          escaped = true;
          j += 2;
          continue;
        }
        if (d === 34) break;
        j++;
      }
      if (expectKey) {
        const raw = text.slice(i + 1, j);
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        const keys = stack[stack.length - 1] as Set<string>;
        if (keys.has(key)) return { key, line };
        keys.add(key);
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === 123) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 91) {
      stack.push(null);
      expectKey = false;
    } else if (c === 125 || c === 93) {
      stack.pop();
      expectKey = false;
    } else if (c === 44) {
      expectKey = stack.length > 0 && stack[stack.length - 1] !== null;
    } else if (c === 10) {
      line += 1;
    }
    i++;
  }
  return undefined;
}

/** How many object keys valid JSON text names (a string followed by `:`), without allocating. */
function keyTokens(text: string): number {
  let count = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (text.charCodeAt(i) !== 34) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d === 92) j += 2;
      else if (d === 34) break;
      else j++;
    }
    i = j + 1;
    // In valid JSON a string is a key exactly when the next non-space character is ':'.
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d !== 32 && d !== 10 && d !== 13 && d !== 9) break;
      i++;
    }
    if (i < n && text.charCodeAt(i) === 58) count++;
  }
  return count;
}

/** How many own keys the objects of a parsed JSON value hold, at every depth (an explicit stack: no recursion). */
function keysIn(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) stack.push(x[i]);
      continue;
    }
    for (const key in x) {
      if (!Object.prototype.hasOwnProperty.call(x, key)) continue;
      count++;
      stack.push((x as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/**
 * How deeply objects and arrays nest in a parsed JSON value (0 for a scalar, 1 for `{}`), counted
 * with an explicit stack (no recursion), stopping as soon as `limit` is passed: recursive code
 * (canonical JSON, JSON.stringify) overflows the call stack on a document that nests 10⁵ deep.
 * Cost: O(values up to the limit).
 * @returns the depth, or `limit + 1` when it is deeper than `limit`.
 * @example nestingDepth({ a: [1, { b: 2 }] }, 100) // => 3
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop() as [unknown, number];
    if (x === null || typeof x !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > limit) return limit + 1;
    for (const child of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) stack.push([child, here]);
  }
  return deepest;
}
