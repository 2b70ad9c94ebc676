import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benchmarkFingerprint, fingerprintText } from '../../src/rotation/fingerprint.js';
import { HASH_CHUNK_BYTES, sha256File, sha256Hex } from '../../src/rotation/hash.js';

// Reference: tests/reference/rotation/reference.py, an independent Python implementation of the
// documented canonical text (hashlib.sha256, json.dumps(..., separators=(",", ":"))).
const reference = JSON.parse(readFileSync(new URL('../reference/rotation/reference.json', import.meta.url), 'utf8')) as {
  fingerprint: { items: Array<{ item: string; stratum: string; split: 'dev' | 'eval'; label?: string | number | boolean; text: string }>; guideline: string; fingerprint: string; fingerprintWithoutGuideline: string };
};
const items = reference.fingerprint.items.map(({ text, ...rest }) => ({ ...rest, sha256: sha256Hex(text) }));

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 test vector for "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('benchmarkFingerprint', () => {
  it('equals the Python reference (hashlib over the canonical text)', () => {
    expect(benchmarkFingerprint(items, reference.fingerprint.guideline)).toBe(reference.fingerprint.fingerprint);
    expect(benchmarkFingerprint(items, null)).toBe(reference.fingerprint.fingerprintWithoutGuideline);
    expect(benchmarkFingerprint(items, undefined)).toBe(reference.fingerprint.fingerprintWithoutGuideline);
  });

  it('writes the canonical text sorted by id, one JSON array a line', () => {
    const text = fingerprintText(items, '2026.2').split('\n');
    expect(text[0]).toBe('benchplan-fingerprint/1');
    expect(text[1]).toBe('guideline "2026.2"');
    expect(text.slice(2).map((line) => JSON.parse(line)[0])).toEqual(['B0', 'a1', 'b2', 'c3']);
    expect(JSON.parse(text[5])).toEqual(['c3', 'negative_control', 'eval', null, sha256Hex('Governed by the laws of England and Wales.')]);
  });

  it('does not change when only the order of the items changes', () => {
    const expected = reference.fingerprint.fingerprint;
    fc.assert(
      fc.property(fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length }), (order) => {
        expect(benchmarkFingerprint(order, '2026.2')).toBe(expected);
      }),
    );
  });

  it('changes when any content, label, stratum, split, id or the guideline changes', () => {
    const base = benchmarkFingerprint(items, '2026.2');
    const edits: Array<[string, typeof items, string]> = [
      ['content', items.map((x, k) => (k === 0 ? { ...x, sha256: sha256Hex('Payment is due within 31 days.') } : x)), '2026.2'],
      ['label', items.map((x, k) => (k === 0 ? { ...x, label: 'absent' } : x)), '2026.2'],
      ['label type 1 → "1"', items.map((x, k) => (k === 1 ? { ...x, label: '1' } : x)), '2026.2'],
      ['label added', items.map((x, k) => (k === 2 ? { ...x, label: 'absent' } : x)), '2026.2'],
      ['stratum', items.map((x, k) => (k === 0 ? { ...x, stratum: 'rare_clause' } : x)), '2026.2'],
      ['split', items.map((x, k) => (k === 0 ? { ...x, split: 'dev' as const } : x)), '2026.2'],
      ['id', items.map((x, k) => (k === 0 ? { ...x, item: 'b3' } : x)), '2026.2'],
      ['item removed', items.slice(1), '2026.2'],
      ['guideline', items, '2026.3'],
    ];
    const seen = new Set([base]);
    for (const [what, edited, guideline] of edits) {
      const fp = benchmarkFingerprint(edited, guideline);
      expect(fp, what).not.toBe(base);
      seen.add(fp);
    }
    expect(seen.size).toBe(edits.length + 1);
  });

  it('changes under any single-byte edit of any item (property)', () => {
    const texts = reference.fingerprint.items.map((x) => x.text);
    const base = benchmarkFingerprint(items, '2026.2');
    fc.assert(
      fc.property(fc.nat(items.length - 1), fc.nat(200), fc.integer({ min: 1, max: 255 }), (k, at, delta) => {
        const bytes = Buffer.from(texts[k], 'utf8');
        const pos = at % bytes.length;
        bytes[pos] = (bytes[pos] + delta) % 256;
        const edited = items.map((x, j) => (j === k ? { ...x, sha256: sha256Hex(bytes) } : x));
        expect(benchmarkFingerprint(edited, '2026.2')).not.toBe(base);
      }),
    );
  });

  it('repeats its JSDoc example', () => {
    expect(benchmarkFingerprint([{ item: 'a', stratum: 's', split: 'eval', sha256: sha256Hex('x') }], '1')).toBe('865a036880d74f57302ad4e161b0e213673c4d524d60102a4ebefdefb8805f09');
  });

  it('refuses a duplicate id', () => {
    expect(() => benchmarkFingerprint([items[0], items[0]], null)).toThrow(/appears twice.*"b2"/);
  });
});

describe('sha256File', () => {
  it('hashes in chunks the same as hashing the whole file; refuses more than maxBytes; can refuse links', () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchplan-hash-'));
    try {
      const bytes = Buffer.alloc(2 * HASH_CHUNK_BYTES + 3, 'ab');
      const path = join(dir, 'f');
      writeFileSync(path, bytes);
      expect(sha256File(path)).toEqual({ sha256: sha256Hex(bytes), bytes: bytes.length });
      writeFileSync(join(dir, 'abc'), 'abc');
      expect(sha256File(join(dir, 'abc')).sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'); // FIPS 180-4 "abc"
      expect(() => sha256File(path, { maxBytes: bytes.length - 1 })).toThrow(expect.objectContaining({ code: 'ETOOBIG' }));
      expect(sha256File(path, { maxBytes: bytes.length }).bytes).toBe(bytes.length);
      symlinkSync(path, join(dir, 'link'));
      expect(sha256File(join(dir, 'link')).sha256).toBe(sha256Hex(bytes));
      expect(() => sha256File(join(dir, 'link'), { followLinks: false })).toThrow(expect.objectContaining({ code: 'ELOOP' }));
      expect(() => sha256File(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
      expect(() => sha256File(join(dir, 'nope'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
