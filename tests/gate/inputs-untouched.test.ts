// The gate reads a Float64Array of scores in place instead of copying it (issue 29's speed: the copies
// were a quarter of a continuous call at 10⁴ items), so nothing on any path may write to it: every
// method, with strata, per stratum, with clusters, passing, failing and undecided, 0/1 and continuous.
import { describe, expect, it } from 'vitest';
import { nonInferiorityFromScores } from '../../src/gate/gate.js';

function sample(n: number, shift: number, binary: boolean, seed: number) {
  let s = seed;
  const u = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const candidate = new Float64Array(n);
  const baseline = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const q = u();
    candidate[i] = binary ? (q < 0.6 + shift ? 1 : 0) : Math.min(1, Math.max(0, q + shift + 0.1 * (u() - 0.5)));
    baseline[i] = binary ? (u() < 0.6 ? 1 : 0) : Math.min(1, Math.max(0, q + 0.1 * (u() - 0.5)));
  }
  return { candidate, baseline };
}

describe('the gate leaves its score arrays as they were', () => {
  const stratum = Int32Array.from({ length: 120 }, (_, i) => i % 3);
  const cluster = Int32Array.from({ length: 120 }, (_, i) => Math.floor(i / 6));
  const designs = [{}, { stratum, stratified: true }, { stratum }, { cluster }];
  const settings = [{ margin: 0.05 }, { margin: 0.05, perStratum: true }, { margin: 0.05, method: 't' as const }, { margin: 0.05, method: 'bca' as const, nResamples: 199 }, { margin: 0.05, scoreRange: [0, 2] as [number, number] }];
  for (const binary of [true, false]) {
    for (const shift of [0.1, 0, -0.2]) {
      it(`${binary ? '0/1' : 'continuous'} scores, shift ${shift}`, () => {
        const { candidate, baseline } = sample(120, shift, binary, 7 + shift * 100);
        const before = [Array.from(candidate), Array.from(baseline)];
        let verdicts = 0;
        for (const design of designs) {
          for (const options of settings) {
            if ('perStratum' in options && !('stratum' in design)) continue;
            nonInferiorityFromScores({ candidate, baseline, ...design }, options);
            verdicts += 1;
          }
        }
        expect(verdicts).toBeGreaterThan(10);
        expect([Array.from(candidate), Array.from(baseline)]).toEqual(before);
      });
    }
  }
});
