import { createHash, type Hash } from 'node:crypto';

/**
 * Canonical JSON: no white space, object keys sorted by UTF-16 code units at every depth,
 * arrays in order, keys whose value is `undefined` left out (as JSON.stringify does). Two
 * values that JSON.parse the same give the same text, whatever their key order or indentation.
 * Cf. RFC 8785 (JCS), whose key order and number form this follows for the values a version
 * record holds (strings, integers, booleans, null), and Python's `json.dumps(v, sort_keys=True,
 * separators=(",", ":"), ensure_ascii=False)` (the same text for keys without astral characters).
 * Used for version-record digests and for promptfoo item ids.
 * @example canonicalJson({ b: 1, a: [true, null] }) // => '{"a":[true,null],"b":1}'
 * @throws {TypeError} for a value JSON cannot hold (a function, a symbol, a bigint, a non-finite number).
 */
export function canonicalJson(value: unknown): string {
  const sink = new TextSink();
  writeCanonical(value, sink, new KeyOrder());
  return sink.text;
}

/**
 * The SHA-256 (64 lowercase hex digits) of `canonicalJson(value)`'s UTF-8 bytes, computed without
 * building that text whole: it is hashed in pieces of about 64 K characters as it is written (a
 * version record of 10⁵ items is about 15 MB of canonical text, digested on every verify; issue 33).
 * Reference: FIPS 180-4 over the text `canonicalJson` returns; the same digest as Python's
 * `hashlib.sha256(json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())`
 * for the values a record holds (tests/reference/canonical-json/).
 * @example canonicalJsonSha256({ b: 1, a: [true, null] }) // => "51705a2c9eb3e7e410a58f696a770c3ac3885a0cf43eb7fc88f5e47c11d4d30d"
 * @throws {TypeError} as canonicalJson does.
 */
export function canonicalJsonSha256(value: unknown): string {
  const sink = new HashSink();
  writeCanonical(value, sink, new KeyOrder());
  return sink.digest();
}

/** Where canonical JSON is written, one whole token (a key, a string, a bracket) at a time. */
interface Sink {
  push(text: string): void;
}

class TextSink implements Sink {
  text = '';
  push(text: string): void {
    this.text += text;
  }
}

/**
 * Hashes what is pushed, in pieces of about 64 K characters. A piece always ends at a token's end,
 * and a token never ends inside a surrogate pair (JSON.stringify escapes a lone surrogate), so
 * each piece's UTF-8 bytes are exactly its share of the whole text's.
 */
class HashSink implements Sink {
  private readonly hash: Hash = createHash('sha256');
  private pending = '';
  push(text: string): void {
    this.pending += text;
    if (this.pending.length >= 1 << 16) {
      this.hash.update(this.pending, 'utf8');
      this.pending = '';
    }
  }
  digest(): string {
    this.hash.update(this.pending, 'utf8');
    this.pending = '';
    return this.hash.digest('hex');
  }
}

/**
 * An object's keys in canonical order with their quoted `"key":` forms, remembered for the last
 * key list seen: the 10⁵ items of a record share one list, so they are sorted and quoted once.
 */
class KeyOrder {
  private keys: string[] = [];
  private sorted: string[] = [];
  private quoted: string[] = [];
  private quotedAfter: string[] = [];
  /** The sorted keys, their `"key":` forms, and the same after a comma, for `keys` (Object.keys of one object). */
  of(keys: string[]): { sorted: string[]; quoted: string[]; quotedAfter: string[] } {
    const last = this.keys;
    let same = keys.length === last.length;
    for (let i = 0; same && i < keys.length; i++) same = keys[i] === last[i];
    if (!same) {
      this.keys = keys;
      // Object.keys(…).sort() orders by UTF-16 code units.
      this.sorted = [...keys].sort();
      this.quoted = this.sorted.map((key) => `${JSON.stringify(key)}:`);
      this.quotedAfter = this.quoted.map((q) => `,${q}`);
    }
    return { sorted: this.sorted, quoted: this.quoted, quotedAfter: this.quotedAfter };
  }
}

/** Writes `value`'s canonical JSON to `sink`, in one pass (no entries/filter/map arrays per object). */
function writeCanonical(value: unknown, sink: Sink, order: KeyOrder): void {
  if (value === null) {
    sink.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      sink.push(JSON.stringify(value));
      return;
    case 'boolean':
      sink.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      sink.push(JSON.stringify(value));
      return;
    case 'object': {
      if (Array.isArray(value)) {
        sink.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) sink.push(',');
          const x: unknown = value[i];
          if (x === undefined) sink.push('null');
          else writeCanonical(x, sink, order);
        }
        sink.push(']');
        return;
      }
      const object = value as Record<string, unknown>;
      const { sorted, quoted, quotedAfter } = order.of(Object.keys(object));
      sink.push('{');
      let first = true;
      for (let i = 0; i < sorted.length; i++) {
        const x = object[sorted[i] as string];
        if (x === undefined) continue;
        sink.push((first ? quoted[i] : quotedAfter[i]) as string);
        first = false;
        writeCanonical(x, sink, order);
      }
      sink.push('}');
      return;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}
