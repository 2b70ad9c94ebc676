import { describe, expect, it } from 'vitest';
import { firstDuplicateKey, parseJsonText } from '../../src/data/json-text.js';

describe('parseJsonText: JSON.parse minus duplicate keys', () => {
  it('parses what JSON.parse parses', () => {
    expect(parseJsonText('{"a":1}', { file: 'x.json' })).toEqual({ a: 1 });
    expect(parseJsonText('[{"a":1},{"a":2}]', { file: 'x.json' })).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseJsonText('{"a":{"b":1},"b":{"a":1}}', { file: 'x.json' })).toEqual({ a: { b: 1 }, b: { a: 1 } });
  });

  it('refuses an object that names a key twice, at the line of the second', () => {
    expect(() => parseJsonText('{\n"score": 1,\n"score": 0}', { file: 'x.json' })).toThrow('x.json:3: an object names the same key twice (JSON keys must be unique) (got "score")');
  });

  it('keeps the line it was given for a JSONL line', () => {
    expect(() => parseJsonText('{"a":1,"a":2}', { file: 'x.jsonl', line: 7 })).toThrow(/^x\.jsonl:7: an object names the same key twice/);
  });

  it('compares keys after unescaping, and ignores braces and quotes inside strings', () => {
    expect(firstDuplicateKey('{"a":1,"\\u0061":2}')).toEqual({ key: 'a', line: 1 });
    expect(firstDuplicateKey('{"a":"{\\"a\\":1}","b":"}"}')).toBeUndefined();
    expect(firstDuplicateKey('[{"a":1},{"a":1}]')).toBeUndefined();
    expect(firstDuplicateKey('{"x":[{"a":1,"b":[1,{"c":2}],"a":3}]}')).toEqual({ key: 'a', line: 1 });
  });

  it('scans a deeply nested document without recursion', () => {
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    expect(firstDuplicateKey(deep)).toBeUndefined();
  });
});
