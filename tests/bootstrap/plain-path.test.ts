import { describe, expect, it } from 'vitest';
import { buildDesign, designEstimate, isPlainDesign } from '../../src/bootstrap/design.js';
import { meanBootstrap, designTInterval, meanResult, plainMean, plainTInterval, plainTResult } from '../../src/bootstrap/mean.js';
import { resolveSettings } from '../../src/bootstrap/settings.js';
import { createRng } from '../../src/random/index.js';
import type { Alternative } from '../../src/bootstrap/types.js';

// The plain design's analytic path (no clusters, strata or weights) skips buildDesign: plainTResult,
// plainTInterval and plainMean must give the general path's numbers bit for bit (toStrictEqual
// compares numbers with Object.is: −0, NaN and the last bit count) and the same keys in the same
// order (the JSON prints them), on samples chosen to break a shortcut: ties, constant values, n = 1
// and 2, huge and tiny magnitudes, a huge offset with tiny spread, mixed signs, 0/1 differences.

function samples(): Array<{ name: string; values: Float64Array }> {
  const rng = createRng('plain-path');
  const out: Array<{ name: string; values: Float64Array }> = [];
  const add = (name: string, xs: ArrayLike<number>) => out.push({ name, values: Float64Array.from(xs) });
  add('n = 1', [0.3]);
  add('n = 2', [0.1, 0.7]);
  add('n = 2 equal', [0.1, 0.1]);
  add('constant 0.1 − 0.2 style', Array.from({ length: 50 }, () => 0.1 - 0.3));
  add('all zero', new Float64Array(40));
  add('negative zero', [-0, -0, -0]);
  add('one nonzero', [...new Array(99).fill(0), 1]);
  add('huge', Array.from({ length: 30 }, () => 1e300 * (rng.nextFloat() - 0.5)));
  add('tiny', Array.from({ length: 30 }, () => 1e-300 * (rng.nextFloat() - 0.5)));
  add('subnormal', Array.from({ length: 10 }, (_, i) => i * 5e-324));
  add('offset 1e9, spread 1e-6', Array.from({ length: 200 }, () => 1e9 + 1e-6 * rng.nextFloat()));
  for (let k = 0; k < 60; k++) {
    const n = 2 + Math.floor(rng.nextFloat() * (k < 40 ? 60 : 3000));
    const kind = k % 4;
    const xs = Array.from({ length: n }, () => {
      const u = rng.nextFloat();
      if (kind === 0) return (u < 0.1 ? 1 : 0) - (rng.nextFloat() < 0.08 ? 1 : 0); // 0/1 differences
      if (kind === 1) return Math.round(u * 4) / 4 - Math.round(rng.nextFloat() * 4) / 4; // heavy ties
      if (kind === 2) return Math.min(1, Math.max(0, u)) - Math.min(1, Math.max(0, rng.nextFloat() * 0.9)); // [0, 1] scores
      return (u - 0.5) * 10 ** Math.floor(rng.nextFloat() * 20 - 10); // mixed magnitudes
    });
    add(`random #${k} (kind ${kind}, n = ${n})`, xs);
  }
  return out;
}

const levels: Array<[number, Alternative]> = [
  [0.95, 'two-sided'],
  [0.9, 'greater'],
  [0.99, 'less'],
];

describe('the plain analytic path gives the general path’s numbers bit for bit', () => {
  for (const { name, values } of samples()) {
    it(name, () => {
      const design = buildDesign(values.length, {}, values);
      expect(plainMean(values)).toStrictEqual(designEstimate(design));
      for (const [confidenceLevel, alternative] of levels) {
        const settings = resolveSettings({ method: 't', confidenceLevel, alternative, seed: 'x' });
        const general = meanResult(design, values, settings, null);
        const plain = plainTResult(values, settings);
        expect(plain).toStrictEqual(general);
        expect(Object.keys(plain)).toEqual(Object.keys(general));
        expect(meanBootstrap(values, { method: 't', confidenceLevel, alternative, seed: 'x' })).toStrictEqual(general);
        const t = designTInterval(design, values, settings);
        expect(plainTInterval(values, settings)).toStrictEqual(t);
      }
    });
  }
});

describe('isPlainDesign', () => {
  it('is true only without clusters, strata and weights', () => {
    expect(isPlainDesign(3, {})).toBe(true);
    expect(isPlainDesign(3, { cluster: null, strata: null, stratumWeights: null })).toBe(true);
    expect(isPlainDesign(3, { cluster: Int32Array.of(0, 0, 1) })).toBe(false);
    expect(isPlainDesign(3, { strata: Int32Array.of(0, 0, 1) })).toBe(false);
    expect(isPlainDesign(3, { stratumWeights: [1] })).toBe(false);
  });

  it('throws what buildDesign throws on plain options', () => {
    for (const [n, options] of [
      [0, {}],
      [2.5, {}],
      [3, { strataNames: 'a' as unknown as string[] }],
      [3, { clusterNames: {} as unknown as string[] }],
      [3, { resamplePath: 'fast' as unknown as 'auto' }],
    ] as const) {
      let expected = '';
      try {
        buildDesign(n, options, null);
      } catch (e) {
        expected = (e as Error).message;
      }
      expect(expected).not.toBe('');
      expect(() => isPlainDesign(n, options)).toThrow(expected);
    }
  });
});
