import { InputError } from '../data/errors.js';
import type { Strata } from '../data/strata-file.js';
import { StratumRangeError } from '../strata/errors.js';

/**
 * Turns a strata precondition from the library into bad input naming the strata file and the
 * stratum's line.
 */
export function strataInputError(error: unknown, strata: Strata): never {
  if (error instanceof StratumRangeError) {
    const line = strata.strata.find((s) => s.name === error.stratum)?.line;
    const where = { file: strata.source, ...(line ? { line } : {}) };
    throw new InputError(error.message.replace(/ \(got [^)]*\)$/, ''), error.hasValue ? { ...where, value: error.value } : where);
  }
  if (error instanceof RangeError) throw new InputError(error.message.replace(/ \(got ([^)]*)\)$/, ''), { file: strata.source, ...gotValue(error.message) });
  throw error;
}

function gotValue(message: string): { value?: unknown } {
  const m = / \(got ([^)]*)\)$/.exec(message);
  if (!m) return {};
  const x = Number(m[1]);
  return { value: Number.isFinite(x) && m[1].trim() !== '' ? x : m[1] };
}
