/** What forEachJsonArrayElement found: an array (its elements went to `visit`), or another value. */
export type JsonArrayRead = { isArray: true; length: number } | { isArray: false; value: unknown };

import { firstDuplicateKey } from '../data/json-text.js';
import { closingQuote } from './python-json.js';

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Parses a JSON array one element at a time: the text is scanned for the top-level commas, and
 * each element's slice goes through JSON.parse and then to `visit` before the next is parsed.
 * A check in `visit` that throws stops the parse at the first bad element, and elements need not
 * all be held at once: a 64 MiB `[{},{},…]` (22 million objects, a minute and gigabytes for one
 * JSON.parse) fails at its first element in microseconds.
 * Gives the same values as JSON.parse(text) for valid JSON (each slice is parsed by JSON.parse,
 * and the scan checks the brackets and commas between them); text that is not an array is
 * parsed whole and returned, for the caller to report its shape.
 * Cost: O(text length), one pass; memory: one element at a time.
 * @throws {SyntaxError} for text that is not valid JSON or has an object that names a key twice; whatever `visit` throws.
 * @example forEachJsonArrayElement('[1, {"a": [2, "]"]}]', () => {}) // => { isArray: true, length: 2 }
 */
export function forEachJsonArrayElement(text: string, visit: (value: unknown, index: number) => void): JsonArrayRead {
  const n = text.length;
  let i = 0;
  const skipSpace = () => {
    while (i < n && WHITESPACE.has(text.charCodeAt(i))) i++;
  };
  skipSpace();
  if (text.charCodeAt(i) !== 0x5b /* [ */) {
    const value: unknown = JSON.parse(text);
    refuseDuplicateKeys(text, '');
    return { isArray: false, value };
  }
  i++;
  skipSpace();
  let count = 0;
  if (text.charCodeAt(i) === 0x5d /* ] */) {
    i++;
  } else {
    for (;;) {
      const start = i;
      let depth = 0;
      let closed = false;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === 0x22 /* " */) {
          i = closingQuote(text, i);
          if (i >= n) throw new SyntaxError('Unterminated string in JSON');
        } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
          depth++;
        } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
          if (depth === 0) {
            if (c !== 0x5d) throw new SyntaxError(`Unexpected token '}' in JSON at position ${i}`);
            closed = true;
            break;
          }
          depth--;
        } else if (c === 0x2c /* , */ && depth === 0) {
          break;
        }
        i++;
      }
      if (i >= n) throw new SyntaxError('Unexpected end of JSON input');
      const slice = text.slice(start, i);
      if (slice.trim() === '') throw new SyntaxError(`Unexpected token '${text[i]}' in JSON at position ${i}`);
      let value: unknown;
      try {
        value = JSON.parse(slice);
      } catch (error) {
        throw new SyntaxError(`${(error as Error).message} (in the array's element ${count}, at character ${start})`);
      }
      refuseDuplicateKeys(slice, ` (in the array's element ${count})`);
      visit(value, count);
      count++;
      i++; // past the comma or the closing bracket
      if (closed) break;
    }
  }
  skipSpace();
  if (i < n) throw new SyntaxError(`Unexpected non-whitespace character after JSON at position ${i}`);
  return { isArray: true, length: count };
}

// JSON.parse keeps the last of two equal keys; benchplan refuses the text instead (see parseJsonText).
function refuseDuplicateKeys(text: string, where: string): void {
  if (!text.includes('{')) return;
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) throw new SyntaxError(`an object names the key ${JSON.stringify(duplicate.key)} twice (JSON keys must be unique)${where}`);
}
