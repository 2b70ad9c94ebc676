/** Growable typed-array columns: a table of a million rows costs bytes per row, not objects. */
export class IntColumn {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  /** The filled part, trimmed to length (a copy, so the spare capacity is released). */
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export class FloatColumn {
  data: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

/** Strings to dense indices in order of first appearance. */
export class Interner {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  // Long-format tables repeat the previous row's item, model and stratum most of the time; a
  // string compare is far cheaper than hashing into a map of half a million ids.
  private lastName: string | undefined;
  private lastId = -1;
  id(name: string): number {
    if (name === this.lastName) return this.lastId;
    let k = this.index.get(name);
    if (k === undefined) {
      k = this.names.length;
      this.names.push(name);
      this.index.set(name, k);
    }
    this.lastName = name;
    this.lastId = k;
    return k;
  }
  get(name: string): number | undefined {
    return this.index.get(name);
  }
}

const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * `[-]digits[.digits]` with at most 15 digits in all, read from its character codes without a
 * regular expression or a trimmed copy: the digits as an integer m < 10^15 and the fraction's length
 * k, then m / 10^k. Both are exact doubles, so the one division is correctly rounded: the same double
 * as Number(text) (Clinger's fast path). Anything else (spaces, exponents, more digits): undefined,
 * and the general path decides.
 */
function plainDecimal(text: string): number | undefined {
  const n = text.length;
  if (n === 0 || n > 17) return undefined;
  let i = 0;
  const negative = text.charCodeAt(0) === 45;
  if (negative) i = 1;
  let m = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits += 1;
      if (fraction >= 0) fraction += 1;
    } else if (c === 46 && fraction < 0) fraction = 0;
    else return undefined;
  }
  // "-", ".", "1." and ".5" go the general way (the last two are numbers there, kept exactly as before).
  if (digits === 0 || digits > 15 || fraction === 0 || (fraction > 0 && text.charCodeAt(negative ? 1 : 0) === 46)) return undefined;
  const x = fraction > 0 ? m / POWERS_OF_TEN[fraction] : m;
  return negative ? -x : x;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads a finite number from a CSV cell or a JSON value: plain decimal or exponent notation.
 * `NaN`, `Infinity`, an empty cell, `n/a` and JSON null are not numbers.
 * @returns the number, or undefined when the value is not a finite number.
 */
export function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const quick = plainDecimal(value);
  if (quick !== undefined) return quick;
  const text = value.trim();
  if (!NUMBER.test(text)) return undefined;
  const x = Number(text);
  return Number.isFinite(x) ? x : undefined;
}

/** A string cell, or a number written as one (JSONL ids are often numbers); undefined otherwise. */
export function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
