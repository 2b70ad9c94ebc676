import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvRecords, lines } from '../../src/data/read.js';

/** Feeds text to the parser in pieces of the given sizes, to exercise every chunk boundary. */
function* pieces(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

function parse(text: string, size = text.length || 1) {
  return [...csvRecords(pieces(text, size), 'test.csv')].map((r) => [r.line, ...r.fields]);
}

describe('csvRecords', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const text = 'a,b\n"x, y","he said ""hi"""\n"multi\nline",2\n';
    expect(parse(text)).toEqual([
      [1, 'a', 'b'],
      [2, 'x, y', 'he said "hi"'],
      [3, 'multi\nline', '2'],
    ]);
  });

  it('accepts CRLF line endings and skips blank lines', () => {
    expect(parse('a,b\r\n1,2\r\n\r\n3,4\r\n')).toEqual([
      [1, 'a', 'b'],
      [2, '1', '2'],
      [4, '3', '4'],
    ]);
  });

  it('gives the same records whatever the chunk size', () => {
    const text = 'item,score\r\n"a,""1""",0.5\r\n"b\r\nc",1\nd,2';
    const whole = parse(text);
    for (let size = 1; size <= text.length; size++) expect(parse(text, size)).toEqual(whole);
  });

  it('keeps a record without a trailing newline and empty fields', () => {
    expect(parse('a,b,c\n1,,3')).toEqual([
      [1, 'a', 'b', 'c'],
      [2, '1', '', '3'],
    ]);
  });

  it('rejects an unterminated quote, naming the line it started on', () => {
    expect(() => parse('a,b\n1,"never closed\n2,3\n')).toThrow(/test\.csv:2: malformed CSV: a quoted field is never closed/);
  });

  it('rejects text after a closing quote', () => {
    expect(() => parse('a,b\n"x"y,1\n')).toThrow(/test\.csv:2: malformed CSV: text after a closing quote/);
  });

  it('round-trips any table of strings written with RFC 4180 quoting (property)', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', ' ', 'é') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 9 }), (rows, size) => {
        const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
        const text = rows.map((r) => r.map(quote).join(',')).join('\n');
        const parsed = [...csvRecords(pieces(text, size), 't.csv')].map((r) => r.fields);
        expect(parsed).toEqual(rows);
      }),
    );
  });
});

describe('lines', () => {
  it('numbers lines across chunk boundaries and CRLF split between chunks', () => {
    const text = 'one\r\ntwo\nthree\r\n\r\nfive';
    for (let size = 1; size <= text.length; size++) {
      expect([...lines(pieces(text, size))]).toEqual([
        { line: 1, text: 'one' },
        { line: 2, text: 'two' },
        { line: 3, text: 'three' },
        { line: 4, text: '' },
        { line: 5, text: 'five' },
      ]);
    }
  });
});
