import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCellText, csvField, csvLine, neutraliseCell } from '../../src/data/csv-text.js';
import { csvRecords } from '../../src/data/read.js';

// OWASP "CSV Injection": cells starting with = + - @ tab or CR are prefixed with '.
describe('formula cells in written CSV', () => {
  it.each([
    ['=cmd|\' /C calc\'!A0', "'=cmd|' /C calc'!A0"],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ["'=x", "''=x"],
  ])('neutralises %j', (text, expected) => {
    expect(neutraliseCell(text)).toBe(expected);
  });

  it.each(['-0.5', '+3', '-1e-3', 'plain', "'quoted", 'a=b', ''])('leaves %j as it is', (text) => {
    expect(neutraliseCell(text)).toBe(text);
  });

  it('writes numbers as numbers, whatever their sign', () => {
    expect(csvLine(['=x', -0.5, 3, undefined])).toBe("'=x,-0.5,3,");
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });

  it('reads back every text exactly (csvCellText undoes neutraliseCell)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', "'", 'a', '1', '.', ',', '"', '\n') }), (text) => {
        const written = csvField(text);
        const [record] = [...csvRecords([`${written}\n`], 't.csv')];
        const cell = record?.fields[0] ?? '';
        expect(csvCellText(cell)).toBe(text);
      }),
      { numRuns: 500, seed: 14 },
    );
  });
});
