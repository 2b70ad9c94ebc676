import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every one-line `@example EXPRESSION // => VALUE` in src/ runs here, in the scope of its own module's
// exports and its folder's index, and must give VALUE: a number to the digits the example shows, a
// string, boolean, null or array/object of those. Words after the value (a reference, a formula in
// parentheses) are a comment. An example whose value is prose ("// => a table …") is not checked.
const src = resolve(import.meta.dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

interface Example {
  file: string;
  line: number;
  expression: string;
  value: string;
}

export function examplesOf(file: string): Example[] {
  const out: Example[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, k) => {
      const m = /^\s*\*\s*@example\s+(.+?)\s*\/\/\s*=>\s*(.+)$/.exec(text);
      if (m) out.push({ file, line: k + 1, expression: m[1], value: m[2] });
    });
  return out;
}

/** The literal at the start of `text` (JSON-like, numbers as written), or undefined when it is prose. */
export function leadingLiteral(text: string): string | undefined {
  const literal = literalAtStart(text.trim());
  if (literal === undefined || literal.includes('…')) return undefined;
  // A literal that continues as a formula or prose (`"v:" + 12 hex digits`) is prose.
  if (/^\s*[+*−-]/.test(text.trim().slice(literal.length))) return undefined;
  try {
    new Function(`return (${literal});`);
  } catch {
    return undefined;
  }
  return literal;
}

function literalAtStart(t: string): string | undefined {
  const open = t[0];
  if (open === '[' || open === '{') {
    let depth = 0;
    let quote = '';
    for (let i = 0; i < t.length; i++) {
      const c = t[i];
      if (quote) {
        if (c === quote && t[i - 1] !== '\\') quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') if (--depth === 0) return t.slice(0, i + 1);
    }
    return undefined;
  }
  // A number, or a ratio of two as a formula shows it (`14 / 3`).
  const m = /^(-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?(?:\s*\/\s*\d+(?:\.\d+)?)?|NaN|-?Infinity|true|false|null|undefined|'[^']*'|"[^"]*")(?=$|[\s,;(])/.exec(t);
  return m?.[1];
}

/** Compares a computed value with the literal text of an example: numbers to the digits shown. */
export function matches(actual: unknown, literal: string): boolean {
  let expected: unknown;
  try {
    expected = new Function(`return (${literal});`)();
  } catch {
    return false;
  }
  return same(actual, expected, literal);
}

function decimalsShown(literal: string, value: number): number {
  const m = new RegExp(`${String(value).replace(/[.+]/g, '\\$&')}`).exec(literal);
  const text = m ? m[0] : String(value);
  const dot = /\.(\d+)/.exec(text.split('e')[0]);
  return dot ? dot[1].length : 0;
}

function same(actual: unknown, expected: unknown, literal: string): boolean {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return false;
    if (Number.isNaN(expected)) return Number.isNaN(actual);
    if (!Number.isFinite(expected)) return actual === expected;
    // A value shown with d decimals matches when the computed one rounds to it (half an ulp of the last digit).
    const shown = /e/i.test(String(expected)) ? 15 : Math.min(15, decimalsShownIn(literal, expected));
    return Math.abs(actual - expected) <= 0.5 * 10 ** -shown * (1 + 1e-9) + 1e-15 * Math.abs(expected);
  }
  if (Array.isArray(expected)) {
    const a = ArrayBuffer.isView(actual) ? Array.from(actual as unknown as ArrayLike<number>) : actual;
    return Array.isArray(a) && a.length === expected.length && expected.every((e, i) => same(a[i], e, literal));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    return Object.entries(expected).every(([k, e]) => same((actual as Record<string, unknown>)[k], e, literal));
  }
  return Object.is(actual, expected);
}

/** Decimals of the first occurrence of the number in the literal (numbers are compared to what is written). */
function decimalsShownIn(literal: string, value: number): number {
  for (const m of literal.matchAll(/-?\d+\.?\d*(?:e[+-]?\d+)?/gi)) if (Math.abs(Number(m[0]) - value) <= Math.abs(value) * 1e-12 + 1e-300 || Number(m[0]) === value) return (/\.(\d+)/.exec(m[0])?.[1].length ?? 0);
  return decimalsShown(literal, value);
}

const examples = sourceFiles(src).flatMap(examplesOf);
/** Examples that need their prose's context to run (counted in the last test). */
const contextual: string[] = [];

describe('JSDoc @example lines', () => {
  it('there are examples to check', () => expect(examples.length).toBeGreaterThan(150));
  const checked = examples.filter((e) => leadingLiteral(e.value) !== undefined);
  it('most examples have a checkable value', () => expect(checked.length).toBeGreaterThan(examples.length * 0.6));
  for (const example of checked) {
    const where = `${relative(src, example.file)}:${example.line}`;
    it(`${where}: ${example.expression.slice(0, 80)}`, async () => {
      // Examples on an archive at out/… describe a state on disk their prose sets up.
      if (/'out\//.test(example.expression)) {
        contextual.push(where);
        return;
      }
      const own = await import(example.file);
      const folder = await import(join(example.file, '..', 'index.ts')).catch(() => ({}));
      const api = await import(join(src, 'index.ts'));
      const scope = { ...api, ...folder, ...own } as Record<string, unknown>;
      const names = Object.keys(scope).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
      let actual: unknown;
      try {
        actual = await new Function(...names, `return (${example.expression});`)(...names.map((n) => scope[n]));
      } catch (error) {
        // An example written in the context of its function's prose (a `table` loaded above it, an
        // archive on disk) cannot run alone; it is counted, not checked.
        if (error instanceof ReferenceError || error instanceof SyntaxError || (error as { code?: string }).code === 'ENOENT' || /no archive here/.test(String(error))) {
          contextual.push(where);
          return;
        }
        throw error;
      }
      const literal = leadingLiteral(example.value)!;
      if (typeof actual === 'number' && /^-?\d+(\.\d+)?\s*\/\s*\d+/.test(literal)) {
        // A ratio is exact: compared to the last bit it can be.
        expect(actual, `${where}: docs say ${example.value}`).toBeCloseTo(new Function(`return (${literal});`)() as number, 12);
        return;
      }
      expect(matches(actual, literal), `${where}: ${example.expression}\n  gave ${JSON.stringify(actual, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : typeof v === 'bigint' ? `${v}n` : v))}\n  docs say ${example.value}`).toBe(true);
    });
  }
  it('at most a quarter of the checkable examples need their context', () => expect(contextual.length).toBeLessThanOrEqual(checked.length / 4));
});
