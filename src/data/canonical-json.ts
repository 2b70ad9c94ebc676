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
  // One pass appending to a string (no entries/filter/map arrays per object): a version record of
  // 10⁵ items is hashed on every verify. Object.keys(…).sort() orders by UTF-16 code units.
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const x: unknown = value[i];
          out += x === undefined ? 'null' : canonicalJson(x);
        }
        return `${out}]`;
      }
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        const x = object[key];
        if (x === undefined) continue;
        if (!first) out += ',';
        first = false;
        out += `${JSON.stringify(key)}:${canonicalJson(x)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}
