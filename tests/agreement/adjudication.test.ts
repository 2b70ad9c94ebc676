import { describe, expect, it } from 'vitest';
import { adjudicationCsv, adjudicationList, labelsByType } from '../../src/agreement/index.js';
import { annotationsFromRecords } from '../../src/data/annotations.js';
import { loadAnnotations } from '../../src/data/index.js';

function table(rows: Array<Record<string, unknown>>) {
  return annotationsFromRecords(
    rows.map((values, k) => ({ line: k + 2, values })),
    'test.csv',
    Object.keys(rows[0]),
  );
}

describe('labelsByType', () => {
  it('groups by type in file order, annotators sorted, missing as null', () => {
    const t = table([
      { item: 'i1', annotator: 'ben', type: 'b', label: 'x' },
      { item: 'i1', annotator: 'ana', type: 'b', label: 'y' },
      { item: 'i2', annotator: 'ana', type: 'a', label: '' },
      { item: 'i3', annotator: 'ana', type: 'b', label: 'x' },
    ]);
    const groups = labelsByType(t);
    expect(groups.map((g) => g.type)).toEqual(['b', 'a']);
    expect(groups[0]).toMatchObject({ items: ['i1', 'i3'], annotators: ['ana', 'ben'], labels: [['y', 'x'], ['x', null]], spans: null });
    expect(groups[1].labels).toEqual([[null]]);
  });

  it("uses one type 'all' without a type column, and spans as labels for span-only tables", () => {
    const t = table([
      { item: 'i1', annotator: 'ana', start: 0, end: 10 },
      { item: 'i1', annotator: 'ben', start: 0, end: 12 },
      { item: 'i2', annotator: 'ana', start: '', end: '' },
    ]);
    const [g] = labelsByType(t);
    expect(g.type).toBe('all');
    expect(g.labels).toEqual([['0-10', '0-12'], [null, null]]);
    expect(g.spans).toEqual([[{ start: 0, end: 10 }, { start: 0, end: 12 }], [null, null]]);
  });
});

describe('adjudicationList', () => {
  it('lists items with two or more different labels, not items with a missing one', () => {
    const t = table([
      { item: 'i1', annotator: 'ana', type: 't', label: 'x' },
      { item: 'i1', annotator: 'ben', type: 't', label: 'y' },
      { item: 'i2', annotator: 'ana', type: 't', label: 'x' },
      { item: 'i2', annotator: 'ben', type: 't', label: '' },
      { item: 'i3', annotator: 'ana', type: 't', label: 'x' },
      { item: 'i3', annotator: 'ben', type: 't', label: 'x' },
    ]);
    const list = adjudicationList(t);
    expect(list.items).toEqual([{ type: 't', item: 'i1', labels: ['x', 'y'], distinct: 2 }]);
    expect(adjudicationCsv(list)).toBe('type,item,ana,ben,adjudicated\nt,i1,x,y,\n');
  });

  it('repeats its JSDoc examples and quotes cells that need it', () => {
    expect(adjudicationCsv({ annotators: ['ana', 'ben'], items: [{ type: 't', item: 'a1', labels: ['x', 'y'], distinct: 2 }] })).toBe('type,item,ana,ben,adjudicated\nt,a1,x,y,\n');
    expect(adjudicationCsv({ annotators: ['ana', 'ben'], items: [{ type: 't', item: 'a,1', labels: ['say "x"', null], distinct: 2 }] })).toBe(
      'type,item,ana,ben,adjudicated\nt,"a,1","say ""x""",,\n',
    );
    expect(adjudicationList(loadAnnotations('examples/annotations.csv')).items[0].type).toBe('payment_terms');
  });

  it('refuses an annotator named like a fixed column', () => {
    expect(() => adjudicationCsv({ annotators: ['item', 'ben'], items: [] })).toThrow(/fixed column/);
  });
});
