import { describe, expect, it } from 'vitest';
import { loadAnnotationOrder } from '../../src/data/annotation-order.js';
import { tempDir, writeInput } from '../helpers/files.js';

const dir = tempDir();

describe('loadAnnotationOrder', () => {
  it('reads order and batch per item (CSV and JSONL); without them, the first line of each item', () => {
    const csv = writeInput(dir, 'o.csv', 'item,model,score,order,batch\na,m,1,2,1\na,n,0,2,1\nb,m,1,1.5,0\nb,n,1,1.5,0\n');
    const r = loadAnnotationOrder(csv);
    expect(r.hasOrder && r.hasBatch).toBe(true);
    expect([...r.order]).toEqual([['a', 2], ['b', 1.5]]);
    expect([...r.batch]).toEqual([['a', 1], ['b', 0]]);
    const jsonl = writeInput(dir, 'o.jsonl', '{"item":"a","model":"m","score":1,"order":3}\n{"item":"b","model":"m","score":1,"order":1}\n');
    expect([...loadAnnotationOrder(jsonl).order]).toEqual([['a', 3], ['b', 1]]);
    const plain = writeInput(dir, 'p.csv', 'item,model,score\na,m,1\nb,m,1\na,n,0\n');
    const p = loadAnnotationOrder(plain);
    expect(p.hasOrder || p.hasBatch).toBe(false);
    expect([...p.order]).toEqual([['a', 2], ['b', 3]]);
  });
  const bad: Array<[string, string, RegExp]> = [
    ['order not a number', 'item,model,score,order\na,m,1,soon\n', /bad1\.csv:2: order must be a finite number \(got "soon"\)/],
    ['batch not whole', 'item,model,score,batch\na,m,1,1.5\n', /bad2\.csv:2: batch must be a whole number ≥ 0 \(got "1.5"\)/],
    ['batch negative', 'item,model,score,batch\na,m,1,-1\n', /batch must be a whole number ≥ 0/],
    ['rows of an item disagree on order', 'item,model,score,order\na,m,1,1\na,n,1,2\n', /bad4\.csv:3: item "a" has order 1 on line 2 but a different order here \(got "2"\)/],
    ['rows of an item disagree on batch', 'item,model,score,batch\na,m,1,1\na,n,1,2\n', /item "a" has batch 1 on line 2 but a different batch here/],
  ];
  bad.forEach(([what, text, message], k) => {
    it(`refuses: ${what}`, () => {
      expect(() => loadAnnotationOrder(writeInput(dir, `bad${k + 1}.csv`, text))).toThrow(message);
    });
  });
  it('refuses a JSONL column present on some rows only', () => {
    const path = writeInput(dir, 'mixed.jsonl', '{"item":"a","model":"m","score":1,"order":1}\n{"item":"b","model":"m","score":1}\n');
    expect(() => loadAnnotationOrder(path)).toThrow(/mixed\.jsonl:2: column "order" is missing here but present on earlier rows/);
  });
});
