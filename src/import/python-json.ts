/**
 * Parses JSON as Python's json module writes it: also accepts the bare tokens `NaN`, `Infinity`
 * and `-Infinity` (json.dumps writes them by default, allow_nan=True), which become the numbers
 * NaN, Infinity and -Infinity. Valid JSON takes the fast path through JSON.parse; only text that
 * fails is scanned, and a token is replaced only outside strings.
 * Reference: Python `json.dumps(float('nan'))` → `NaN`; `json.loads('NaN')` → nan.
 * Cost: O(text length); one extra pass only for text that holds such tokens.
 * @throws {SyntaxError} for text that is not JSON even with those tokens.
 * @example parsePythonJson('{"mae": Infinity, "sd": NaN}') // => { mae: Infinity, sd: NaN }
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) throw error;
    const rewritten = rewriteTokens(text);
    if (rewritten === text) throw error;
    return JSON.parse(rewritten, (_key, value: unknown) => (typeof value === 'string' && value.charCodeAt(0) === 0 ? (SENTINELS.get(value) ?? value) : value));
  }
}

const SENTINELS = new Map<string, number>([
  ['\u0000NaN', NaN],
  ['\u0000Infinity', Infinity],
  ['\u0000-Infinity', -Infinity],
]);

/** The text with NaN / Infinity / -Infinity outside strings replaced by sentinel strings. */
function rewriteTokens(text: string): string {
  const out: string[] = [];
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i) + 1;
      continue;
    }
    let token: string | undefined;
    if (c === 0x4e /* N */ && text.startsWith('NaN', i)) token = 'NaN';
    else if (c === 0x49 /* I */ && text.startsWith('Infinity', i)) token = 'Infinity';
    else if (c === 0x2d /* - */ && text.startsWith('-Infinity', i)) token = '-Infinity';
    if (token !== undefined) {
      out.push(text.slice(last, i), `"\\u0000${token}"`);
      i += token.length;
      last = i;
      continue;
    }
    i++;
  }
  if (last === 0) return text;
  out.push(text.slice(last));
  return out.join('');
}

/**
 * INTERNAL (this file, json-array.ts): the index of the quote that closes the JSON string opening
 * at `start` (text[start] is `"`), backslash escapes skipped; ≥ text.length when it never closes.
 */
export function closingQuote(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 0x5c /* \ */) i += 2;
    else if (d === 0x22 /* " */) return i;
    else i++;
  }
  return i;
}
