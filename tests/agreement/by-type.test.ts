import { describe, expect, it } from 'vitest';
import { agreementByType } from '../../src/agreement/index.js';
import { annotationsFromRecords } from '../../src/data/annotations.js';
import { loadAnnotations } from '../../src/data/index.js';

function table(csvRows: string[]) {
  const [header, ...rows] = csvRows;
  const columns = header.split(',');
  return annotationsFromRecords(
    rows.map((row, k) => ({ line: k + 2, values: Object.fromEntries(row.split(',').map((v, j) => [columns[j], v])) })),
    'test.csv',
    columns,
  );
}

describe('agreementByType', () => {
  it('repeats its JSDoc example: indemnity and change of control are below 0.667', () => {
    const r = agreementByType(loadAnnotations('examples/annotations.csv'), { nResamples: 200 });
    expect(r.types.map((t) => t.belowThreshold)).toEqual([false, true, true]);
    expect(r.flagged).toEqual(['indemnity', 'change_of_control']);
  });

  it('follows the threshold', () => {
    const r = agreementByType(loadAnnotations('examples/annotations.csv'), { nResamples: 200, threshold: 0.3 });
    expect(r.flagged).toEqual([]);
    expect(r.threshold).toBe(0.3);
  });

  it('handles missing labels: Fleiss on complete items, alpha and raw agreement on all', () => {
    const t = table(['item,annotator,label', 'i1,a,x', 'i1,b,x', 'i1,c,x', 'i2,a,y', 'i2,b,y', 'i2,c,', 'i3,a,x', 'i3,b,y', 'i3,c,y', 'i4,a,y', 'i4,b,y', 'i4,c,y']);
    const [r] = agreementByType(t, { nResamples: 200 }).types;
    expect(r.fleissItems).toBe(3);
    expect(r.warnings.join()).toMatch(/Fleiss' kappa uses the 3 items/);
    // Pairs: i1 3 agree of 3, i2 1 of 1, i3 1 of 3, i4 3 of 3 → 8 / 10.
    expect(r.rawAgreement).toBe(0.8);
    expect(r.labelNoise).toBeCloseTo(0.2, 15);
    expect(r.cohenItems).toBe(4);
  });

  it('throws on one annotator, an unknown or repeated Cohen pair, and a bad threshold', () => {
    const one = table(['item,annotator,label', 'i1,a,x', 'i2,a,y']);
    expect(() => agreementByType(one)).toThrow(/at least two annotators/);
    const examples = loadAnnotations('examples/annotations.csv');
    expect(() => agreementByType(examples, { annotators: ['ana', 'zed'] })).toThrow(/"zed" is not in the table/);
    expect(() => agreementByType(examples, { annotators: ['ana', 'ana'] })).toThrow(/two different annotators/);
    expect(() => agreementByType(examples, { threshold: 2 })).toThrow(/threshold/);
  });
});
