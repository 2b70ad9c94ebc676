import { InputError } from './errors.js';
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

/**
 * Strings to dense indices in order of first appearance.
 * An open-addressing table of indices (linear probing, at most half full) keyed by a 32-bit FNV-1a
 * hash of the string's UTF-16 code units, kept beside each name so growing never re-hashes a
 * string. A table of a million rows meets each item id as a fresh string, whose V8 hash is not yet
 * computed: here a new id costs one pass over its characters and one probe, about a third of a Map
 * insert at 5 · 10⁵ ids (issue #19).
 */
export class Interner {
  readonly names: string[] = [];
  private hashes = new Int32Array(64);
  private slots = new Int32Array(128).fill(-1);
  private mask = 127;
  // Long-format tables repeat the previous row's item, model and stratum most of the time; a
  // string compare is cheaper still.
  private lastName: string | undefined;
  private lastId = -1;
  // Set once probes run long (ids chosen to collide under the fixed hash): a Map from then on, so
  // hostile ids cost what they cost before, never a quadratic probe.
  private map: Map<string, number> | null = null;
  id(name: string): number {
    if (name === this.lastName) return this.lastId;
    if (this.map !== null) return this.mapId(name);
    const h = hashOf(name);
    let slot = h & this.mask;
    let k: number;
    for (let probes = 0; ; probes++) {
      k = this.slots[slot];
      if (k < 0 || (this.hashes[k] === h && this.names[k] === name)) break;
      if (probes === MAX_PROBES) {
        this.map = new Map(this.names.map((n, j) => [n, j]));
        return this.mapId(name);
      }
      slot = (slot + 1) & this.mask;
    }
    if (k < 0) {
      k = this.names.length;
      this.names.push(name);
      if (k === this.hashes.length) {
        const grown = new Int32Array(k * 2);
        grown.set(this.hashes);
        this.hashes = grown;
      }
      this.hashes[k] = h;
      this.slots[slot] = k;
      if (2 * this.names.length > this.slots.length) this.grow();
    }
    this.lastName = name;
    this.lastId = k;
    return k;
  }
  private mapId(name: string): number {
    const map = this.map as Map<string, number>;
    let k = map.get(name);
    if (k === undefined) {
      k = this.names.length;
      this.names.push(name);
      map.set(name, k);
    }
    this.lastName = name;
    this.lastId = k;
    return k;
  }
  get(name: string): number | undefined {
    if (this.map !== null) return this.map.get(name);
    const h = hashOf(name);
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const k = this.slots[slot];
      if (k < 0) return undefined;
      if (this.hashes[k] === h && this.names[k] === name) return k;
    }
  }
  private grow(): void {
    const size = this.slots.length * 2;
    const slots = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (let k = 0; k < this.names.length; k++) {
      let slot = this.hashes[k] & mask;
      while (slots[slot] >= 0) slot = (slot + 1) & mask;
      slots[slot] = k;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Probes past which an Interner gives up its table for a Map (a half-full table averages under 3). */
const MAX_PROBES = 64;

/** FNV-1a over the UTF-16 code units, as a signed 32-bit integer. */
function hashOf(text: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h;
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
  return plainDecimalAt(text, 0, text.length);
}

/**
 * plainDecimal of the characters text[start, end), read in place: a table's loader parses a score
 * cell from the text it read without cutting the cell out as a string first.
 * @returns the same double as Number(text.slice(start, end)), or undefined (the general path decides).
 * @example plainDecimalAt('a,0.25,b', 2, 6) // => 0.25
 */
export function plainDecimalAt(text: string, start: number, end: number): number | undefined {
  const n = end - start;
  if (n <= 0 || n > 17) return undefined;
  let i = start;
  const negative = text.charCodeAt(start) === 45;
  if (negative) i += 1;
  let m = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits += 1;
      if (fraction >= 0) fraction += 1;
    } else if (c === 46 && fraction < 0) fraction = 0;
    else return undefined;
  }
  // "-", ".", "1." and ".5" go the general way (the last two are numbers there, kept exactly as before).
  if (digits === 0 || digits > 15 || fraction === 0 || (fraction > 0 && text.charCodeAt(negative ? start + 1 : start) === 46)) return undefined;
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

/**
 * A required id cell (item, model, …) of a record: its text, or an InputError naming the file, line,
 * field and value when it is missing or blank.
 * @example requiredText({ item: 7 }, 'item', 'pool.csv', 2) // => '7'
 * @throws {InputError} when the cell is missing, blank or not text.
 */
export function requiredText(values: Readonly<Record<string, unknown>>, field: string, file: string, line: number): string {
  const v = toText(values[field]);
  if (v === undefined || v.trim() === '') throw new InputError(`${field} must be a non-empty string`, { file, line, field, value: values[field] ?? null });
  return v;
}
