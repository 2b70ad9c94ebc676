import { describe, expect, it } from 'vitest';
import { parsePythonJson } from '../../src/import/python-json.js';

describe('parsePythonJson', () => {
  it('reads the NaN and Infinity tokens Python writes (json.dumps(float("nan")) → NaN)', () => {
    expect(parsePythonJson('{"mae": Infinity, "sd": NaN, "lo": -Infinity}')).toEqual({ mae: Infinity, sd: NaN, lo: -Infinity });
    expect(parsePythonJson('[1, NaN]')).toEqual([1, NaN]);
  });
  it('leaves the words inside strings alone', () => {
    expect(parsePythonJson('{"text": "NaN and Infinity", "x": NaN}')).toEqual({ text: 'NaN and Infinity', x: NaN });
    expect(parsePythonJson('{"t": "say \\"NaN\\"", "x": 1}')).toEqual({ t: 'say "NaN"', x: 1 });
  });
  it('still refuses text that is not JSON', () => {
    expect(() => parsePythonJson('{"x": nan}')).toThrow(SyntaxError);
    expect(() => parsePythonJson('{"x": NaN')).toThrow(SyntaxError);
  });
});
