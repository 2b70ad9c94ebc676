// Issue 29, the continuous gate's speed: the auto rule, the plain t interval and the gate read one
// walk's summary of the differences (src/paired/difference-summary.ts) instead of walking the items for
// each number. Each number must be the bits its reader computed on its own, on any scores: the same
// choice, the same t result, the same skewness (the corpus of speed-identical.test.ts checks whole gate
// results against the build before the change).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centralSums, summarizeDifferences } from '../../src/paired/difference-summary.js';
import { chooseIntervalMethod, inScoreRange } from '../../src/paired/choose-method.js';
import { sampleSkewness, skewnessFromSums } from '../../src/paired/skewness.js';
import { plainTResult } from '../../src/bootstrap/mean.js';
import { resolveSettings } from '../../src/bootstrap/settings.js';

// scores on [0, 1] with ties at the ends, or beyond it; lengths 0–60
const score = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, -0, 0.5), fc.double({ min: -5, max: 5, noNaN: true }));
const pairs = fc.integer({ min: 0, max: 60 }).chain((n) => fc.tuple(fc.array(score, { minLength: n, maxLength: n }), fc.array(score, { minLength: n, maxLength: n })));
const ranges = fc.constantFrom<readonly [number, number]>([0, 1], [-1, 2], [0, 0.5]);

function walked(a: number[], b: number[]) {
  const d = Float64Array.from(a, (x, i) => x - b[i]);
  let sum = 0;
  for (const x of d) sum += x;
  return { d, sum };
}

describe('the one-walk summary of paired differences', () => {
  it('holds the differences, their sum, spread and range check as the separate walks compute them', () => {
    fc.assert(
      fc.property(pairs, ranges, ([a, b], range) => {
        const out = new Float64Array(a.length);
        const s = summarizeDifferences(a, b, out, range, true);
        const { d, sum } = walked(a, b);
        expect(Array.from(out)).toEqual(Array.from(d));
        expect(Object.is(s.sum, sum)).toBe(true);
        expect(s.bounded).toBe(inScoreRange(a, range) && inScoreRange(b, range));
        if (a.length > 0) expect(s.max - s.min).toBe(Math.max(...d) - Math.min(...d));
      }),
    );
  });

  it('gives sampleSkewness bit for bit through skewnessFromSums', () => {
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const out = new Float64Array(a.length);
        const s = summarizeDifferences(a, b, out, [0, 1], true);
        const c = centralSums(s, out);
        expect(Object.is(skewnessFromSums(a.length, s.sum / a.length, c.m2, c.m3), sampleSkewness(out))).toBe(true);
      }),
    );
    // a case the test can lose: scipy skew([1, 2, 3, 10], bias=False) = 1.7636326148038886 (one ulp off here, as sampleSkewness)
    expect(skewnessFromSums(4, 4, 50, 180)).toBe(sampleSkewness([1, 2, 3, 10]));
    expect(skewnessFromSums(4, 4, 50, 180)).toBeCloseTo(1.7636326148038886, 14);
  });

  it('gives plainTResult bit for bit from its sums', () => {
    fc.assert(
      fc.property(pairs, fc.constantFrom('two-sided', 'greater', 'less' as const), ([a, b], alternative) => {
        fc.pre(a.length >= 2);
        const out = new Float64Array(a.length);
        const s = summarizeDifferences(a, b, out, [0, 1], true);
        const settings = resolveSettings({ method: 't', alternative });
        const given = plainTResult(out, settings, { sum: s.sum, residualSum: centralSums(s, out).residualSum });
        expect(JSON.stringify(given)).toBe(JSON.stringify(plainTResult(out, settings)));
      }),
    );
  });

  it('leaves the auto rule\'s choice as it is without the summary, for every side and range', () => {
    fc.assert(
      fc.property(pairs, ranges, fc.constantFrom('two-sided', 'greater', 'less' as const), fc.boolean(), ([a, b], range, alternative, declared) => {
        const out = new Float64Array(a.length);
        const summary = summarizeDifferences(a, b, out, declared ? range : [0, 1], true);
        const data = { a, b, differences: out, alternative, scoreRange: declared ? range : null };
        const options = { skewAware: true };
        expect(chooseIntervalMethod({ ...data, summary }, options)).toEqual(chooseIntervalMethod(data, options));
      }),
    );
  });

  it('is not read when it summarises another range than the rule checks (then the rule walks the items itself)', () => {
    // every score in [0, 1]: bounded by the rule's default range (a one-sided t bound at the two-sided
    // end), while a summary on [0, 0.5] says unbounded (a plain one-sided t bound, G1 = 0)
    const b = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
    const a = [0.1, 0.2, 0.3, 0.2, 0.1, 0.3, 0.2, 0.2].map((d, i) => b[i] + d);
    const out = new Float64Array(8);
    const summary = summarizeDifferences(a, b, out, [0, 0.5], true);
    expect(summary.bounded).toBe(false);
    const choice = chooseIntervalMethod({ a, b, differences: out, summary, alternative: 'greater' }, { skewAware: true });
    expect(choice).toEqual(chooseIntervalMethod({ a, b, differences: out, alternative: 'greater' }, { skewAware: true }));
    expect(choice.boundAtIntervalEnd).toBe(true);
  });
});
