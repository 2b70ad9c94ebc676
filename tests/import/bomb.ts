// Builds zip bombs at run time, small in memory and on disk, for the importer's limit tests.
import { crc32 } from 'node:zlib';
import { deflateSync } from 'fflate';
import { zip } from '../helpers/zip-writer.js';

/** LSB-first bit writer for a raw deflate stream (RFC 1951 §3.1.1). */
class BitWriter {
  private bytes: Uint8Array;
  private length = 0;
  private bit = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }
  /** Writes `count` bits of `value`, least significant first. */
  bits(value: number, count: number): void {
    for (let k = 0; k < count; k++) {
      if (this.length >= this.bytes.length) {
        const grown = new Uint8Array(this.bytes.length * 2);
        grown.set(this.bytes);
        this.bytes = grown;
      }
      if ((value >> k) & 1) this.bytes[this.length] |= 1 << this.bit;
      if (++this.bit === 8) {
        this.bit = 0;
        this.length++;
      }
    }
  }
  /** Writes a Huffman code, most significant bit first (RFC 1951 §3.1.1). */
  code(value: number, count: number): void {
    for (let k = count - 1; k >= 0; k--) this.bits((value >> k) & 1, 1);
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.length + (this.bit > 0 ? 1 : 0));
  }
}

/** A literal/length symbol in the fixed Huffman code (RFC 1951 §3.2.6). */
function fixedSymbol(w: BitWriter, symbol: number): void {
  if (symbol <= 143) w.code(0x30 + symbol, 8);
  else if (symbol <= 255) w.code(0x190 + symbol - 144, 9);
  else if (symbol <= 279) w.code(symbol - 256, 7);
  else w.code(0xc0 + symbol - 280, 8);
}

/**
 * A raw deflate stream (one fixed-Huffman block) of `prefix`, then `matches` copies of 258 bytes
 * at distance `period` (1–4), then `suffix`: 13 bits per 258 output bytes, so 250 MiB of a
 * repeating pattern takes 1.6 MB and a millisecond to make, where compressing it would take seconds.
 */
export function deflateRepeating(prefix: Uint8Array, period: number, matches: number, suffix: Uint8Array): Uint8Array {
  if (!(period >= 1 && period <= 4 && prefix.length >= period)) throw new RangeError('period must be 1–4 and the prefix at least that long');
  const w = new BitWriter(Math.ceil((matches * 13 + (prefix.length + suffix.length) * 9 + 20) / 8));
  w.bits(1, 1); // BFINAL
  w.bits(1, 2); // BTYPE 01: fixed Huffman codes
  for (const byte of prefix) fixedSymbol(w, byte);
  for (let k = 0; k < matches; k++) {
    fixedSymbol(w, 285); // length 258, no extra bits
    w.code(period - 1, 5); // distance codes 0–3 are distances 1–4, no extra bits
  }
  for (const byte of suffix) fixedSymbol(w, byte);
  fixedSymbol(w, 256); // end of block
  return w.done();
}

/** One entry of a hand-made archive: compressed bytes with the sizes and CRC to declare. */
export interface BombEntry {
  name: string;
  /** 8 deflate (the only method these tests write). */
  compressed: Uint8Array;
  size: number;
  crc: number;
}

/** A deflate entry of small text, compressed for real. */
export function textEntry(name: string, text: string): BombEntry {
  const data = new TextEncoder().encode(text);
  return { name, compressed: deflateSync(data), size: data.length, crc: crc32(data) };
}

/** A ZIP archive of these entries, deflated (their compressed bytes, CRC and size given as they are). */
export function zipArchive(entries: readonly BombEntry[]): Uint8Array {
  return zip(entries.map((e) => ({ name: e.name, data: new Uint8Array(0), method: 8 as const, rawCompressed: e.compressed, crc: e.crc, declaredSize: e.size })));
}

/**
 * The finding's bomb: a summaries.json of `[{},{},…,{}]`, 2 + 3 · (86 · matches + 1) bytes
 * (matches = 1 016 063 gives 250 MiB), as a deflate entry with its true size and CRC-32.
 */
export function emptyObjectsEntry(matches: number): BombEntry & { objects: number } {
  const enc = new TextEncoder();
  const prefix = enc.encode('[{},');
  const suffix = enc.encode('{}]');
  const repeated = 258 * matches; // a multiple of 3: whole "{}," units
  // CRC-32 over the text, fed in pieces so the 250 MiB is never held.
  let crc = crc32(prefix);
  const unit = enc.encode('{},'.repeat(86 * 4096)); // 258 · 4096 bytes
  let left = repeated;
  while (left > 0) {
    const take = Math.min(left, unit.length);
    crc = crc32(unit.subarray(0, take), crc);
    left -= take;
  }
  crc = crc32(suffix, crc);
  return {
    name: 'summaries.json',
    compressed: deflateRepeating(prefix, 3, matches, suffix),
    size: prefix.length + repeated + suffix.length,
    crc,
    objects: 2 + repeated / 3,
  };
}

/** An Inspect header.json naming a model and a task. */
export function inspectHeaderEntry(): BombEntry {
  return textEntry('header.json', JSON.stringify({ version: 2, status: 'success', eval: { task: 'bomb', model: 'openai/gpt-4o-mini' } }));
}
