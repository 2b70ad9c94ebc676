import { describe, expect, it } from 'vitest';
import { decimalRational, divideRational, parseRational, rationalText, subtractRational } from '../../src/costs/rational.js';

describe('exact rationals of decimal inputs', () => {
  it('reads a number as the decimal it prints as (the JSDoc example and exponents)', () => {
    expect(decimalRational(2.5)).toEqual({ numerator: 5n, denominator: 2n });
    expect(decimalRational(0.1)).toEqual({ numerator: 1n, denominator: 10n });
    expect(decimalRational(-1e-7)).toEqual({ numerator: -1n, denominator: 10000000n });
    expect(decimalRational(1.5e21)).toEqual({ numerator: 1500000000000000000000n, denominator: 1n });
    expect(() => decimalRational(Number.NaN)).toThrow(/finite/);
  });
  it('83/38 by hand: (57 − 15.5) / 19', () => {
    expect(rationalText(divideRational(subtractRational(decimalRational(57), decimalRational(15.5)), decimalRational(19)))).toBe('83/38');
    expect(parseRational('83/38')).toEqual({ numerator: 83n, denominator: 38n });
    expect(parseRational('-20')).toEqual({ numerator: -20n, denominator: 1n });
  });
});
