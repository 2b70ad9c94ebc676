import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toFiniteNumber } from '../../src/data/columns.js';

// The loader reads plain decimals from character codes (Clinger's fast path: an exact integer
// divided by an exact power of ten is correctly rounded); it must give Number(text)'s double exactly.
describe('toFiniteNumber on plain decimals', () => {
  it('equals Number(text) bit for bit on decimals of up to 17 characters (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.stringMatching(/^[0-9]{1,9}$/), fc.stringMatching(/^[0-9]{0,8}$/), (negative, whole, frac) => {
        const text = `${negative ? '-' : ''}${whole}${frac === '' ? '' : `.${frac}`}`;
        return Object.is(toFiniteNumber(text), Number(text));
      }),
      { seed: 19, numRuns: 3000 },
    );
  });

  it('keeps the general rules for everything else', () => {
    for (const text of ['-0', '0.1', '0.30000', '123456789012345', '1234567890123456', '1.', '.5', ' 2.5 ', '1e3', '+1'])
      expect(Object.is(toFiniteNumber(text), Number(text.trim()))).toBe(true);
    for (const text of ['', '-', '.', '1.2.3', '0x10', 'Infinity', '1,5', '--1']) expect(toFiniteNumber(text)).toBeUndefined();
  });
});
