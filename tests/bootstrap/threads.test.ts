import { describe, expect, it } from 'vitest';
import {
  bootstrapMeanDifference,
  bootstrapMeanDifferenceParallel,
  bootstrapMean,
  bootstrapMeanParallel,
  compareModels,
  compareModelsParallel,
} from '../../src/bootstrap/index.js';
import { buildDesign } from '../../src/bootstrap/design.js';
import { workerScript } from '../../src/bootstrap/parallel.js';
import { toJsonText } from '../../src/cli/io.js';
import { alignModels, loadScores } from '../../src/data/index.js';
import { createRng } from '../../src/random/index.js';

// Worker threads run dist/bootstrap/worker.js: `npm test` builds it first (npm run build).

const rng = createRng('threads');
const n = 700;
const a = Array.from({ length: n }, () => (rng.nextFloat() < 0.8 ? 1 : 0));
const b = Array.from({ length: n }, () => (rng.nextFloat() < 0.7 ? 1 : 0));
const cluster = Int32Array.from({ length: n }, (_, i) => Math.floor(i / 5));
const strata = Int32Array.from({ length: n }, (_, i) => Math.floor(i / 5) % 3);

describe('byte-identical results for any number of threads', () => {
  it('the worker script is built (the bundled one when npm run build made it)', () => {
    expect(workerScript()).toMatch(/dist[\\/](cli[\\/]bundle|bootstrap)[\\/]worker\.js$/);
  });

  // A stratum of 12 items beside two large ones: it draws indices while they draw class counts.
  const mixed = Int32Array.from({ length: n }, (_, i) => (i < 12 ? 0 : i % 2 === 0 ? 1 : 2));
  for (const [name, extra, path] of [
    ['items (0/1 differences: the counts path)', {}, 'counts'],
    ['items, index path forced', { resamplePath: 'indices' }, 'indices'],
    ['clusters', { cluster }, 'indices'],
    ['clusters, counts path forced', { cluster, resamplePath: 'counts' }, 'counts'],
    ['clusters within weighted strata', { cluster, strata, stratumWeights: [0.5, 0.3, 0.2] }, 'indices'],
    ['weighted strata of items (counts per stratum)', { strata, stratumWeights: [0.5, 0.3, 0.2] }, 'counts'],
    ['a small stratum on indices beside two on counts', { strata: mixed }, 'both'],
  ] as const) {
    it(`${name}: 1, 2, 3 and 5 threads give the sync result's bytes`, async () => {
      const design = buildDesign(n, extra, Float64Array.from(a, (v, i) => v - b[i]));
      const counts = Array.from(design.groupCounts);
      expect(path === 'both' ? new Set(counts).size : counts.every((flag) => flag === (path === 'counts' ? 1 : 0))).toBe(path === 'both' ? 2 : true);
      // 2,500 resamples = 10 chunks of 256 (the last partial), so every split puts chunk edges in different workers.
      const options = { nResamples: 2500, seed: 'det', ...extra };
      const sync = toJsonText(bootstrapMeanDifference(a, b, options));
      for (const threads of [1, 2, 3, 5]) {
        expect(toJsonText(await bootstrapMeanDifferenceParallel(a, b, { ...options, threads, minParallelWork: 0 }))).toBe(sync);
      }
    });
  }

  it('more threads than chunks, and progress reaching 1', async () => {
    const x = a.slice(0, 50);
    const seen: number[] = [];
    const parallel = await bootstrapMeanParallel(x, { nResamples: 300, threads: 4, minParallelWork: 0, onProgress: (f) => seen.push(f) });
    expect(toJsonText(parallel)).toBe(toJsonText(bootstrapMean(x, { nResamples: 300 })));
    expect(Math.max(...seen)).toBe(1);
  });

  it('compareModelsParallel equals compareModels', async () => {
    const table = loadScores('examples/scores.csv');
    const aligned = alignModels(table, ['alpha', 'beta', 'gamma']);
    const options = { nResamples: 999, cluster: aligned.cluster };
    expect(toJsonText(await compareModelsParallel(aligned, { ...options, threads: 2, minParallelWork: 0 }))).toBe(toJsonText(compareModels(aligned, options)));
  });

  it('a bad thread count is a RangeError', async () => {
    await expect(bootstrapMeanParallel([1, 2, 3], { threads: 0 })).rejects.toThrow(/threads must be a whole number ≥ 1 \(got 0\)/);
  });
});
