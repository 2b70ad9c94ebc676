import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScores } from '../../src/data/scores.js';
import { itemMeans } from '../../src/data/pairing.js';
import { importResults } from '../../src/import/import-results.js';
import type { ImportedRow } from '../../src/import/types.js';
import { canonicalJson } from '../../src/data/canonical-json.js';
import { formatImportedScores, writeImportedScores } from '../../src/import/write.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-import-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JSDoc examples', () => {
  it('formatImportedScores', () => {
    expect(formatImportedScores([{ item: 'a', model: 'm', score: 1 }], 'csv')).toBe('item,model,score\na,m,1\n');
  });
  it('canonicalJson', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 'x', c: null }] })).toBe('{"a":[2,{"c":null,"d":"x"}],"b":1}');
  });
  it('importResults', () => {
    expect(importResults('promptfoo', ['tests/fixtures/import/promptfoo/results.json']).rows[0]).toEqual({ item: '0', model: 'gpt-4o-mini', score: 1 });
  });
});

describe('writeImportedScores', () => {
  // Ids as loadScores reads them: non-empty after trimming, no surrounding space.
  const id = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }).map((s) => s.trim()).filter((s) => s !== '');
  const rows = fc
    .uniqueArray(fc.record({ item: id, model: fc.constantFrom('m1', 'm,2', 'm "3"'), score: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }) }), {
      minLength: 1,
      maxLength: 20,
      selector: (r) => `${r.item}\u0000${r.model}`,
    })
    .map((list) => list.map((r) => ({ ...r, score: Object.is(r.score, -0) ? 0 : r.score })));

  for (const ext of ['csv', 'jsonl'] as const) {
    it(`round-trips any ids (commas, quotes, line breaks, unicode) and scores through .${ext}`, () => {
      fc.assert(
        fc.property(rows, (list: ImportedRow[]) => {
          const path = join(dir, `rows.${ext}`);
          writeImportedScores(path, list);
          const table = loadScores(path);
          const means = itemMeans(table);
          expect(table.rowCount).toBe(list.length);
          for (const row of list) {
            const cell = table.models.indexOf(row.model) * table.items.length + table.items.indexOf(row.item);
            expect(means.mean[cell]).toBe(row.score);
          }
        }),
        { numRuns: 60, seed: 10 },
      );
    });
  }
});
