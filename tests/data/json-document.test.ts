import { describe, expect, it } from 'vitest';
import { parseJsonDocument } from '../../src/data/json-document.js';

describe('parseJsonDocument', () => {
  const text = '{\n  "a": 1,\n  "list": [\n    {"b": 2}\n  ]\n}\n';
  it('returns the value and the line of each key (counted by hand in the text above)', () => {
    const doc = parseJsonDocument(text, 'x.json', 'a test file');
    expect(doc.data).toEqual({ a: 1, list: [{ b: 2 }] });
    expect(doc.lineOf(['a'])).toBe(2);
    expect(doc.lineOf(['list', 0, 'b'])).toBe(4);
  });
  it('a syntax error names the line JSON.parse stopped at; the end of the input its last line; one line is line 1', () => {
    expect(() => parseJsonDocument('{\n  "a": 1,\n  "b": ,\n}', 'x.json', 'a test file')).toThrow(/^x\.json:3: is not valid JSON \(a test file\): /);
    expect(() => parseJsonDocument('{\n  "a": [1,\n', 'x.json', 'a test file')).toThrow(/^x\.json:3: is not valid JSON \(a test file\): Unexpected end of JSON input/);
    expect(() => parseJsonDocument('nope', 'x.json', 'a test file')).toThrow(/^x\.json:1: is not valid JSON/);
  });
  it('refuses a key named twice at its second line', () => {
    expect(() => parseJsonDocument('{\n  "a": 1,\n  "a": 2\n}', 'x.json', 'a test file')).toThrow('x.json:3: an object names the same key twice (JSON keys must be unique) (got "a")');
  });
});
