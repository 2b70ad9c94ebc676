import type { Seed } from '../random/seed.js';
import { ALTERNATIVE_HYPOTHESES, INTERVAL_METHODS, type Alternative, type BootstrapOptions, type IntervalMethod } from './types.js';

/** BootstrapOptions with every default filled in and checked. */
export interface BootstrapSettings {
  method: IntervalMethod;
  confidenceLevel: number;
  nResamples: number;
  seed: string;
  alternative: Alternative;
}

/** The defaults: BCa, 95%, 9,999 resamples, seed 0, two-sided. */
export const BOOTSTRAP_DEFAULTS: Readonly<BootstrapSettings> = {
  method: 'bca',
  confidenceLevel: 0.95,
  nResamples: 9999,
  seed: '0',
  alternative: 'two-sided',
};

/** The seed as text: numbers through their decimal string (as streamName does). */
export function seedText(seed: Seed | undefined): string {
  if (seed === undefined) return BOOTSTRAP_DEFAULTS.seed;
  if (typeof seed === 'number' ? !Number.isFinite(seed) : typeof seed !== 'string') {
    throw new TypeError(`seed must be a string or a finite number (got ${String(seed)})`);
  }
  return String(seed);
}

/** Checks a confidence level in (0, 1). */
export function checkConfidenceLevel(level: number | undefined): number {
  const value = level ?? BOOTSTRAP_DEFAULTS.confidenceLevel;
  if (typeof value !== 'number' || !(value > 0 && value < 1)) throw new RangeError(`confidenceLevel must be a number in (0, 1) (got ${String(level)})`);
  return value;
}

/** Checks an alternative. */
export function checkAlternative(alternative: Alternative | undefined): Alternative {
  const value = alternative ?? BOOTSTRAP_DEFAULTS.alternative;
  if (!ALTERNATIVE_HYPOTHESES.includes(value)) throw new RangeError(`alternative must be one of ${ALTERNATIVE_HYPOTHESES.join(', ')} (got ${String(alternative)})`);
  return value;
}

/**
 * Fills in the defaults and checks every setting.
 * @throws {RangeError} for an unknown method or alternative, a level outside (0, 1), or a resample
 *   count that is not a whole number ≥ 1. @throws {TypeError} for a bad seed.
 */
export function resolveSettings(options: BootstrapOptions): BootstrapSettings {
  const method = options.method ?? BOOTSTRAP_DEFAULTS.method;
  if (!INTERVAL_METHODS.includes(method)) throw new RangeError(`method must be one of ${INTERVAL_METHODS.join(', ')} (got ${String(options.method)})`);
  const nResamples = options.nResamples ?? BOOTSTRAP_DEFAULTS.nResamples;
  if (!Number.isInteger(nResamples) || nResamples < 1) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${String(options.nResamples)})`);
  return {
    method,
    confidenceLevel: checkConfidenceLevel(options.confidenceLevel),
    nResamples,
    seed: seedText(options.seed),
    alternative: checkAlternative(options.alternative),
  };
}

/**
 * Copies numbers into a Float64Array, checking each is finite.
 * @throws {RangeError} naming the first non-finite entry. @throws {TypeError} when not array-like.
 */
export function finiteValues(name: string, x: ArrayLike<number>): Float64Array {
  if (x === null || typeof x !== 'object' || typeof x.length !== 'number') throw new TypeError(`${name} must be an array of numbers (got ${String(x)})`);
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`${name}[${i}] must be a finite number (got ${String(v)})`);
    out[i] = v;
  }
  return out;
}

/** a − b item by item, after checking both are finite and the same length. */
export function pairedDifferences(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const x = finiteValues('a', a);
  const y = finiteValues('b', b);
  if (x.length !== y.length) throw new RangeError(`a and b must be paired item by item: same length (got ${x.length} and ${y.length})`);
  for (let i = 0; i < x.length; i++) x[i] -= y[i];
  return x;
}
