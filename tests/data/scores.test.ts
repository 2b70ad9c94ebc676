import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemMeans, loadScores, pairScores, scoresFromRows, alignModels } from '../../src/data/index.js';
import { tempDir, writeInput } from '../helpers/files.js';

const dir = tempDir();

describe('loadScores', () => {
  it('loads CSV and JSONL to the same table', () => {
    const csv = writeInput(dir, 's.csv', 'item,model,score,stratum\nx,a,1,r\nx,b,0,r\ny,a,0.5,s\ny,b,0.25,s\n');
    const jsonl = writeInput(
      dir,
      's.jsonl',
      ['{"item":"x","model":"a","score":1,"stratum":"r"}', '{"item":"x","model":"b","score":0,"stratum":"r"}', '', '{"item":"y","model":"a","score":0.5,"stratum":"s"}', '{"item":"y","model":"b","score":0.25,"stratum":"s"}'].join('\n'),
    );
    const a = loadScores(csv);
    const b = loadScores(jsonl);
    for (const table of [a, b]) {
      expect(table.rowCount).toBe(4);
      expect(table.items).toEqual(['x', 'y']);
      expect(table.models).toEqual(['a', 'b']);
      expect(table.strata).toEqual(['r', 's']);
      expect(Array.from(table.score)).toEqual([1, 0, 0.5, 0.25]);
    }
    expect(Array.from(b.line)).toEqual([1, 2, 4, 5]);
  });

  it('derives the score from the outcome when the score is absent, and accepts aliases', () => {
    const path = writeInput(dir, 'o.csv', 'item,model,outcome\nx,a,hit\nx,b,Hallucinated\ny,a,correct_absent\ny,b,wrong\n');
    const table = loadScores(path);
    expect(Array.from(table.score)).toEqual([1, 0, 1, 0]);
    expect(Array.from(table.outcome)).toEqual([0, 2, 4, 3]); // hit, fabrication, correct_absent, wrong_span
  });

  // Duplicates are reported as a sort of every row by (item, model, repeat, row) meets them: the
  // item first seen earliest, then the lowest model and repeat, the first two rows of that key.
  it('names the first duplicate (item, model, repeat) in item order, on its second row', () => {
    // b is item 0 (first seen), a item 1: b's duplicate (line 6) is named, though a's (line 5) comes first in the file
    const path = writeInput(dir, 'dup.csv', 'item,model,score\nb,m1,1\na,m2,0\na,m1,1\na,m1,0\nb,m1,0\nb,m1,1\n');
    expect(() => loadScores(path)).toThrow(`${path}:6: duplicate row for item "b" and model "m1" (first on line 2); add a repeat column if these are repeats (got "b,m1")`);
    // within an item the lowest model first: m0 (model 0, duplicated on line 5) before m1 (line 4)
    const models = writeInput(dir, 'dup-models.csv', 'item,model,score\nx,m0,1\nx,m1,1\nx,m1,0\nx,m0,0\n');
    expect(() => loadScores(models)).toThrow(`${models}:5: duplicate row for item "x" and model "m0" (first on line 2)`);
    const repeats = writeInput(dir, 'dup-repeat.csv', 'item,model,repeat,score\nx,m0,2,1\nx,m0,1,1\nx,m0,2,0\nx,m0,1,0\n');
    expect(() => loadScores(repeats)).toThrow(`${repeats}:5: duplicate row for item "x", model "m0", repeat 1 (first on line 3)`);
  });

  it('finds a duplicate among many repeats of one item (more than 32 rows of it)', () => {
    const rows = Array.from({ length: 40 }, (_, k) => `x,m${k % 2},${39 - k},1`);
    rows.push('x,m1,6,0'); // m1 has repeats 38, 36, …, 0: 6 is on line 2 + 33
    const path = writeInput(dir, 'dup-many.csv', `item,model,repeat,score\n${rows.join('\n')}\n`);
    expect(() => loadScores(path)).toThrow(`${path}:42: duplicate row for item "x", model "m1", repeat 6 (first on line 35)`);
    const fine = writeInput(dir, 'many.csv', `item,model,repeat,score\n${rows.slice(0, 40).join('\n')}\n`);
    expect(loadScores(fine).rowCount).toBe(40);
  });

  // loadScores reads plain CSV by a fast path and falls back to the general reader at the first
  // line that needs it (a quote, a lone \r, a `'=` cell, a wrong field count). A header whose first
  // name is quoted sends the whole file the general way: both must give the same table, or the same error.
  it('reads plain CSV the same by its fast path as by the general reader, tables and errors alike (property)', () => {
    const cell = fc.constantFrom('x', 'y', 'z1', ' x', 'y ', 'a b', '', "'=1", 'q"q', '"x"', '"a,b"');
    const score = fc.constantFrom('1', '0', '0.5', '-2.25', '1e3', '.5', '1.', ' 3', 'n/a', '', 'NaN', '0007.50', '2e16');
    const row = fc.tuple(cell, fc.constantFrom('a', 'b', 'b ', 'c'), score, fc.constantFrom('s1', 's2', ''), fc.constantFrom(0, 0, 0, 0, 1, 2, 3));
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.array(row, { minLength: 0, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (stratum, trailing, rows, eol) => {
        const header = stratum ? 'item,model,score,stratum' : 'item,model,score';
        const lines = rows.map(([item, model, sc, st, odd]) => {
          const cells = stratum ? [item, model, sc, st] : [item, model, sc];
          if (odd === 1) return ''; // a blank line
          if (odd === 2) return `${cells.join(',')},extra`; // a field too many
          if (odd === 3) return `${cells.join(',')}\r${cells.join(',')}`; // a lone carriage return
          return cells.join(',');
        });
        const body = `${lines.join(eol)}${trailing ? eol : ''}`;
        const outcome = (text: string) => {
          const path = writeInput(dir, 'same.csv', text);
          try {
            const t = loadScores(path);
            return { ...t, source: '' };
          } catch (error) {
            return (error as Error).message.replace(path, 'FILE');
          }
        };
        const fast = outcome(`${header}${eol}${body}`);
        const general = outcome(`"item"${header.slice(4)}${eol}${body}`);
        expect(fast).toEqual(general);
      }),
      { seed: 19, numRuns: 400 },
    );
  });

  it('accepts a UTF-8 BOM and CRLF line endings', () => {
    const path = writeInput(dir, 'bom.csv', '\uFEFFitem,model,score\r\nx,a,1\r\nx,b,0\r\n');
    const table = loadScores(path);
    expect(table.rowCount).toBe(2);
    expect(table.items).toEqual(['x']);
  });

  it('accepts quoted ids with commas and line breaks', () => {
    const path = writeInput(dir, 'q.csv', 'item,model,score\n"doc 1, clause ""A""",a,1\n"doc 1, clause ""A""",b,0\n"two\nlines",a,1\n"two\nlines",b,1\n');
    const table = loadScores(path);
    expect(table.items).toEqual(['doc 1, clause "A"', 'two\nlines']);
    expect(Array.from(table.line)).toEqual([2, 3, 4, 6]);
  });

  it('reads a file larger than one read chunk (1 MiB) without losing rows at the boundaries', () => {
    const rows = ['item,model,score'];
    for (let i = 0; i < 60_000; i++) rows.push(`item-${i},model-a,${(i % 7) / 7}`, `item-${i},model-b,${(i % 3) / 3}`);
    const path = writeInput(dir, 'big.csv', `${rows.join('\n')}\n`);
    const table = loadScores(path);
    expect(table.rowCount).toBe(120_000);
    expect(table.items.length).toBe(60_000);
    expect(table.score[119_999]).toBeCloseTo((59_999 % 3) / 3, 15);
    expect(table.line[119_999]).toBe(120_001);
  });
});

describe('itemMeans and pairing', () => {
  const table = scoresFromRows([
    { item: 'x', model: 'a', score: 1, repeat: 0, cluster: 'd1' },
    { item: 'x', model: 'a', score: 0, repeat: 1, cluster: 'd1' },
    { item: 'x', model: 'b', score: 0.5, repeat: 0, cluster: 'd1' },
    { item: 'y', model: 'a', score: 1, repeat: 0, cluster: 'd2' },
    { item: 'y', model: 'b', score: 0, repeat: 0, cluster: 'd2' },
    { item: 'z', model: 'a', score: 1, repeat: 0, cluster: 'd2' },
  ]);

  it('averages repeats and reports their sample variance', () => {
    const means = itemMeans(table);
    // model a, item x: repeats 1 and 0 → mean 0.5, var((1, 0)) = 0.5 (R: var(c(1, 0)) → 0.5)
    expect(means.mean[0]).toBe(0.5);
    expect(means.count[0]).toBe(2);
    expect(means.variance[0]).toBe(0.5);
    expect(Number.isNaN(means.variance[1])).toBe(true);
  });

  it('refuses unpaired items, naming the count and the first ids', () => {
    expect(() => pairScores(table, 'a', 'b')).toThrow(/1 item is not scored by both "a" and "b": "z"; pass --drop-unpaired/);
  });

  it('drops unpaired items when asked and says how many', () => {
    const paired = pairScores(table, 'a', 'b', { dropUnpaired: true });
    expect(paired.items).toEqual(['x', 'y']);
    expect(Array.from(paired.differences)).toEqual([0, 1]);
    expect(paired.dropped).toBe(1);
    expect(paired.clusters).toEqual(['d1', 'd2']);
    expect(Array.from(paired.cluster!)).toEqual([0, 1]);
    expect(Array.from(paired.repeats[0])).toEqual([2, 1]);
  });

  it('names a missing model and refuses a model paired with itself', () => {
    expect(() => alignModels(table, ['a', 'q'])).toThrow(/model "q" is not in the scores \(models: a, b\)/);
    expect(() => pairScores(table, 'a', 'a')).toThrow(/two different models/);
  });
});
