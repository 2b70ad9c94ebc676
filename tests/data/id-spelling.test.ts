import { describe, expect, it } from 'vitest';
import { IdSpellings } from '../../src/data/id-spelling.js';

describe('ids trimmed, but one spelling per file', () => {
  it('trims surrounding white space', () => {
    const ids = new IdSpellings('s.csv', 'item');
    expect(ids.trimmed(' a ', 2)).toBe('a');
    expect(ids.trimmed(' a ', 3)).toBe('a');
    expect(ids.trimmed('b', 4)).toBe('b');
  });

  it('refuses a bare id after a padded one, and the other way round', () => {
    const one = new IdSpellings('s.csv', 'item');
    one.trimmed('a', 2);
    expect(() => one.trimmed('a ', 5)).toThrow('s.csv:5: item "a " differs from "a" (an earlier line) only by surrounding white space');
    const two = new IdSpellings('s.csv', 'model');
    two.trimmed('m\t', 2);
    expect(() => two.trimmed('m', 3)).toThrow('s.csv:3: model "m" differs from "m\\t" (line 2) only by surrounding white space');
    const three = new IdSpellings('s.csv', 'item');
    three.trimmed(' a', 2);
    expect(() => three.trimmed('a ', 3)).toThrow(/differs from " a" \(line 2\)/);
  });
});
