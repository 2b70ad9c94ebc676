/** An exact fraction numerator / denominator of BigInts, denominator > 0, reduced. */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(numerator: bigint, denominator: bigint): Rational {
  if (denominator === 0n) throw new RangeError('a rational needs a non-zero denominator');
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const g = gcd(numerator, denominator) || 1n;
  return { numerator: numerator / g, denominator: denominator / g };
}

/**
 * The exact rational a number was written as: its shortest round-trip decimal (JavaScript's
 * String(x): 2.5 → "2.5" → 5/2, 0.1 → 1/10, 1e-7 → 1/10000000), so costs typed as decimals in a
 * policy file are read as the decimals they are and not as their nearest binary doubles
 * (0.1 is 3602879701896397/36028797018963968 in binary).
 * @param x a finite number.
 * @returns numerator / denominator, reduced.
 * @throws {RangeError} for a non-finite x.
 * @example decimalRational(2.5) // => { numerator: 5n, denominator: 2n }
 */
export function decimalRational(x: number): Rational {
  if (!Number.isFinite(x)) throw new RangeError(`decimalRational: x must be finite (got ${x})`);
  const text = String(x);
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (!match) throw new RangeError(`decimalRational: cannot read ${text}`);
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  let numerator = BigInt(whole + fraction);
  const exponent = Number(exponentText) - fraction.length;
  if (sign === '-') numerator = -numerator;
  let denominator = 1n;
  if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
  else denominator = 10n ** BigInt(-exponent);
  return reduce(numerator, denominator);
}

/** a + b. */
export function addRational(a: Rational, b: Rational): Rational {
  return reduce(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);
}

/** a − b. */
export function subtractRational(a: Rational, b: Rational): Rational {
  return reduce(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator);
}

/** a · b. */
export function multiplyRational(a: Rational, b: Rational): Rational {
  return reduce(a.numerator * b.numerator, a.denominator * b.denominator);
}

/** a / b. @throws {RangeError} when b is 0. */
export function divideRational(a: Rational, b: Rational): Rational {
  return reduce(a.numerator * b.denominator, a.denominator * b.numerator);
}

/** "n" or "n/d" (sign on the numerator): 83/38 → "83/38", −20/1 → "-20". */
export function rationalText(r: Rational): string {
  return r.denominator === 1n ? String(r.numerator) : `${r.numerator}/${r.denominator}`;
}

/** "n" or "n/d" parsed back (the inverse of rationalText), or a decimal number's text. */
export function parseRational(text: string): Rational {
  const match = /^(-?\d+)\/(\d+)$/.exec(text);
  if (match) return reduce(BigInt(match[1]), BigInt(match[2]));
  return decimalRational(Number(text));
}
