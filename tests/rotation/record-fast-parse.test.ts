import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonSha256 } from '../../src/data/canonical-json.js';
import { parseWith } from '../../src/data/validate.js';
import { freezeVersion, parseVersionRecord, plainVersionItems, VersionRecordSchema } from '../../src/rotation/archive.js';
import { versionRecordDigest } from '../../src/rotation/record-digest.js';
import { smallBenchmark, tempDir } from './helpers.js';

// issue 33 item 3: verify reads a record's items without the schema's per-item work
// (plainVersionItems) and digests its canonical JSON as it is written (canonicalJsonSha256).
// Both must give exactly what the slow path gives: the same record (values and key order), the
// same error, the same digest.

/** A record as freeze writes it, as parsed JSON. */
function frozenRecord(): Record<string, unknown> {
  const dir = tempDir();
  freezeVersion(dir, smallBenchmark(), { version: 'v1', date: '2026-07-01', guideline: 'g1' });
  return JSON.parse(readFileSync(join(dir, 'versions', 'v1.json'), 'utf8')) as Record<string, unknown>;
}

/** parseVersionRecord (fast path when it applies) against the schema alone: same record or same error. */
function sameAsSchema(record: unknown): 'parsed' | 'refused' {
  const text = JSON.stringify(record, null, 2);
  const slow = (): unknown => parseWith(VersionRecordSchema, JSON.parse(text), { file: 'versions/v1.json' });
  let expected: unknown;
  try {
    expected = slow();
  } catch (error) {
    expect(() => parseVersionRecord(text, 'versions/v1.json', 'v1')).toThrow((error as Error).message);
    return 'refused';
  }
  // JSON.stringify compares key order too, which toEqual does not.
  expect(JSON.stringify(parseVersionRecord(text, 'versions/v1.json', 'v1'))).toBe(JSON.stringify(expected));
  return 'parsed';
}

describe('a record read without the schema per item', () => {
  const base = frozenRecord();
  const items = base.items as Array<Record<string, unknown>>;
  const sha = items[0]?.sha256 as string;

  it('gives the record the schema gives, key order included, and takes the fast path for it', () => {
    expect(plainVersionItems(items)).toBeDefined();
    expect(sameAsSchema(base)).toBe('parsed');
    // Items whose keys come in another order than the schema's come out in the schema's.
    const shuffled = { ...base, items: items.map((x) => Object.fromEntries(Object.entries(x).reverse())) };
    expect(plainVersionItems(shuffled.items)).toBeDefined();
    expect(sameAsSchema(shuffled)).toBe('parsed');
  });

  // Each variant changes the first item; every one the schema refuses must be refused with its message,
  // every one it accepts must read the same.
  const variants: Array<[string, Record<string, unknown>, 'parsed' | 'refused']> = [
    ['every optional field', { label: 'present', added: '2026Q1', source: 'incident 7' }, 'parsed'],
    ['a number label', { label: 0.5 }, 'parsed'],
    ['a boolean label', { label: false }, 'parsed'],
    ['an empty source', { source: '' }, 'parsed'],
    ['zero bytes', { bytes: 0 }, 'parsed'],
    ['a null label', { label: null }, 'refused'],
    ['an object label', { label: { a: 1 } }, 'refused'],
    ['an empty id', { item: '' }, 'refused'],
    ['an empty stratum', { stratum: '' }, 'refused'],
    ['another split', { split: 'test' }, 'refused'],
    ['an unknown key', { note: 'x' }, 'refused'],
    ['negative bytes', { bytes: -1 }, 'refused'],
    ['fractional bytes', { bytes: 1.5 }, 'refused'],
    ['bytes as text', { bytes: '12' }, 'refused'],
    ['an upper-case hash', { sha256: sha.toUpperCase() }, 'refused'],
    ['a short hash', { sha256: sha.slice(1) }, 'refused'],
    ['a number id', { item: 7 }, 'refused'],
  ];
  for (const [name, change, outcome] of variants) {
    it(`${name}: ${outcome} as the schema does`, () => {
      const record = { ...base, items: [{ ...items[0], ...change }, ...items.slice(1)] };
      expect(sameAsSchema(record)).toBe(outcome);
    });
  }

  it('an item missing its hash, an item that is not an object, and a __proto__ key: refused as the schema refuses them', () => {
    const { sha256: _dropped, ...noHash } = items[0] as Record<string, unknown>;
    expect(sameAsSchema({ ...base, items: [noHash, ...items.slice(1)] })).toBe('refused');
    expect(sameAsSchema({ ...base, items: [null, ...items.slice(1)] })).toBe('refused');
    expect(sameAsSchema({ ...base, items: [[1], ...items.slice(1)] })).toBe('refused');
    const proto = `${JSON.stringify({ ...base, items: [] }).slice(0, -3)}[${JSON.stringify(items[0]).slice(0, -1)},"__proto__":{"x":1}}]}`;
    expect(plainVersionItems((JSON.parse(proto) as { items: unknown }).items)).toBeUndefined();
    expect(() => parseVersionRecord(proto, 'v', 'v1')).toThrow();
  });

  it('a record whose other fields are wrong gives the schema error, items fine or not', () => {
    expect(sameAsSchema({ ...base, date: '2026-13-01' })).toBe('refused');
    expect(sameAsSchema({ ...base, sequence: undefined })).toBe('refused');
    expect(sameAsSchema({ ...base, extra: 1 })).toBe('refused');
    expect(sameAsSchema({ ...base, items: 'none' })).toBe('refused');
  });
});

describe('canonicalJsonSha256 (the record digest, hashed as it is written)', () => {
  const reference = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'reference', 'canonical-json', 'reference.json'), 'utf8')) as Record<string, { value?: unknown; sha256: string }>;
  const hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

  /** tests/reference/canonical-json/reference.py's record(n, text), rebuilt. */
  function record(n: number, text: string): unknown {
    const items = [];
    for (let k = 0; k < n; k++) {
      const x: Record<string, unknown> = { item: `i${String(k).padStart(6, '0')}`, stratum: ['routine', 'rare_clause', 'past_failure'][k % 3], split: k % 5 === 4 ? 'dev' : 'eval', sha256: hex(`${text}${k}`), bytes: 40 + (k % 17) };
      if (k % 7 === 0) x.label = ['present', 1, true, 'é'][k % 4];
      if (k % 11 === 0) x.added = '2026-07-01';
      if (k % 13 === 0) x.source = `incident ${k} — ${text}`;
      items.push(x);
    }
    return { format: 'benchplan-version/3', version: 'v1', date: '2026-07-01', guideline: null, fingerprint: '0'.repeat(64), sequence: 1, previous: null, parent: { version: 'v0', fingerprint: '1'.repeat(64), recordDigest: '2'.repeat(64) }, counts: { items: n, eval: 0, dev: 0 }, strata: [{ stratum: 'routine', eval: 1, dev: 2 }], items };
  }
  const built: Record<string, unknown> = {
    'astral-values': { text: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 '.repeat(20000), after: '日本語' },
    'record-3000': record(3000, 'Payment is due — 日本 𝔘'),
    'record-1': record(1, 'x'),
  };

  for (const [name, { value, sha256 }] of Object.entries(reference)) {
    it(`${name}: Python's sha256 of json.dumps(sort_keys=True, compact), and sha256 of canonicalJson`, () => {
      const v = value ?? built[name];
      expect(v).toBeDefined();
      expect(canonicalJsonSha256(v)).toBe(sha256);
      expect(hex(canonicalJson(v))).toBe(sha256);
    });
  }

  it('the record digest of a frozen record is the one freeze wrote', () => {
    const r = frozenRecord();
    expect(versionRecordDigest(r)).toBe(r.recordDigest);
  });
});
