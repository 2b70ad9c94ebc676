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
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((x) => (x === undefined ? 'null' : canonicalJson(x))).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}
