import { InputError } from './errors.js';
import { firstDuplicateKey } from './json-text.js';
import { parseYamlText } from './yaml.js';

/** A parsed JSON document and a way to find the line a path sits on (for validation errors). */
export interface JsonDocument {
  data: unknown;
  lineOf: (path: ReadonlyArray<PropertyKey>) => number | undefined;
}

/**
 * Parses a JSON document a command reads back (a state file, a shortlist), so that every error
 * names the line: a syntax error at the line of the character JSON.parse stopped at, a repeated
 * key at its second occurrence, and (through `lineOf`, handed to parseWith) a bad field at the
 * line of its key. JSON is YAML 1.2, so the lines come from the YAML parser's node positions;
 * if that parser refuses the text (e.g. a key over its 1,024-character limit), errors simply
 * have no line.
 * @param text the file's content.
 * @param file the file name, for messages.
 * @param what what the file should be, for a syntax error (e.g. `write it with benchplan shortlist -o FILE`).
 * @returns the value and lineOf.
 * @throws {InputError} `FILE:LINE: is not valid JSON (WHAT): …` or a key named twice.
 * @example parseJsonDocument('{\n"a": 1\n}', 'x.json', 'a state file').lineOf(['a']) // => 2
 */
export function parseJsonDocument(text: string, file: string, what: string): JsonDocument {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    // Node 20 says "at position N" for some errors; the end of the input is the last line; else the first bad character's line.
    let line: number;
    if (at !== null) line = lineAt(text, Number(at[1]));
    else if (/Unexpected end of JSON input/.test(message)) line = lineAt(text, text.length);
    else line = lineAt(text, firstBadOffset(text));
    throw new InputError(`is not valid JSON (${what}): ${message}`, { file, line });
  }
  const duplicate = text.includes('{') ? firstDuplicateKey(text) : undefined;
  if (duplicate !== undefined) throw new InputError('an object names the same key twice (JSON keys must be unique)', { file, line: duplicate.line, value: duplicate.key });
  let lineOf: JsonDocument['lineOf'] = () => undefined;
  try {
    lineOf = parseYamlText(text, file).lineOf;
  } catch {
    // No lines then: the value itself is valid JSON.
  }
  return { data, lineOf };
}

/**
 * The offset of the character where text stops being the start of some JSON document: the
 * shortest prefix JSON.parse rejects for a reason other than ending early (a prefix that is bad
 * stays bad however it goes on, so the search halves). Cost: O(n log n).
 * @example firstBadOffset('{"a": ,}') // => 6
 */
function firstBadOffset(text: string): number {
  const bad = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      // Cut short, V8 says "Unexpected end" or names the position just past the prefix.
      const message = (error as Error).message;
      if (/Unexpected end of JSON input/.test(message)) return false;
      const at = /at position (\d+)/.exec(message);
      return at === null || Number(at[1]) < length;
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (bad(mid + 1)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The 1-based line of character `offset` of `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(offset, text.length); i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
