// Issue 29: the 0/1 paths made faster (one pass counting the paired table instead of ~9 walks over the
// items; McNemar's exact tail; the exact score test) must give what the code gave before. The reference
// outputs were written by tests/reference/speed-corpus/make.mjs from the build of commit e12c588, before
// the change, on the corpus of corpus.mjs (random 0/1 and continuous samples, every option that reaches
// the changed branches, bad input): every output must be the same JSON text, byte for byte, except the
// gate's exact score test p-value, which may move in its last bits (within 1e-12, as
// tests/gate/exact-speed.test.ts allows against the slow form) while every verdict and reason stays the same.
// The continuous gate's cases (gate-210 on) hold the second speed-up (one walk's summary of the
// differences, the scores read in place) to the build of 6e69123, before it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { autoPairedInterval } from '../../src/paired/auto-interval.js';
import { compareModels } from '../../src/paired/compare-models.js';
import { nonInferiorityFromScores } from '../../src/gate/gate.js';
import { corpus, runCase, type CorpusCase } from '../reference/speed-corpus/corpus.mjs';

const outputs: Record<string, string> = JSON.parse(readFileSync(new URL('../reference/speed-corpus/outputs.json', import.meta.url), 'utf8'));
const lib = { autoPairedInterval, compareModels, nonInferiorityFromScores } as unknown as Record<string, (...args: never[]) => unknown>;
const cases: CorpusCase[] = corpus();

/**
 * A gate result's exact-test p-values (by check) and its JSON with them blanked. Each check's
 * boundAtIntervalEnd (added to the gate's output after these references were made, commit fc05dce) is
 * taken out of a fresh result too, after checking it marks exactly the checks whose method reason is R4's.
 */
function splitExact(text: string, fresh: boolean): { rest: string; pValues: number[] } {
  const value = JSON.parse(text);
  const pValues: number[] = [];
  for (const check of [value.overall, ...(value.strata ?? [])]) {
    if (check?.pValueTest === 'exact-score') {
      pValues.push(check.pValue);
      check.pValue = 'exact';
    }
    if (fresh && check != null && typeof check === 'object') {
      expect(check.boundAtIntervalEnd).toBe(String(check.methodReason).includes('at the end of the two-sided interval') ? true : undefined);
      delete check.boundAtIntervalEnd;
    }
  }
  return { rest: JSON.stringify(value), pValues };
}

describe('the 0/1 speed-up changes no output (reference: the build before it)', () => {
  it('the corpus has every case the reference has, and reaches the branches', () => {
    expect(cases.map((c) => c.id).sort()).toEqual(Object.keys(outputs).sort());
    const text = Object.values(outputs).join('\n');
    // tango with exact McNemar values, without them (NaN → null), mid-p, the gate's exact test, errors
    for (const piece of ['"pValueTest":"tango-score"', '"exactPValue":null', '"pValueTest":"mcnemar-mid-p"', '"pValueTest":"exact-score"', '"methodUsed":"cr2"', '"methodUsed":"t"', '"error":"RangeError"', '"error":"TypeError"']) {
      expect(text).toContain(piece);
    }
  });

  it.each(cases.filter((c) => c.kind !== 'gate').map((c) => [c.id, c] as const))('%s: the same JSON', (_, c) => {
    expect(runCase(c, lib)).toBe(outputs[c.id]);
  });

  it.each(cases.filter((c) => c.kind === 'gate').map((c) => [c.id, c] as const))('%s: the same JSON, the exact test’s p within 1e-12', (_, c) => {
    const now = splitExact(runCase(c, lib), true);
    const before = splitExact(outputs[c.id], false);
    expect(now.rest).toBe(before.rest);
    expect(now.pValues.length).toBe(before.pValues.length);
    now.pValues.forEach((p, k) => expect(Math.abs(p - before.pValues[k])).toBeLessThanOrEqual(1e-12));
  });
});
