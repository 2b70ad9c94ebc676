import { describe, expect, it } from 'vitest';
import {
  bootstrapMeanDifference,
  bootstrapMeanDifferenceParallel,
  bootstrapMean,
  bootstrapMeanParallel,
} from '../../src/bootstrap/index.js';
import {
  compareModels,
  compareModelsParallel,
} from '../../src/paired/index.js';
import { buildDesign } from '../../src/bootstrap/design.js';
import { PARALLEL_MIN_WORK, threadsThatPay, workerScript } from '../../src/bootstrap/parallel.js';
import { toJsonText } from '../../src/cli/io.js';
import { alignModels, loadScores } from '../../src/data/index.js';
import type { AlignedScores } from '../../src/data/pairing.js';
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

  it('every pair of 4 models on continuous scores (chunks and sign-flip tests in one queue): 1, 2 and 3 threads give compareModels\' bytes', async () => {
    const g = createRng('threads-continuous');
    const items = 300;
    const scores = Array.from({ length: 4 }, (_, m) => Float64Array.from({ length: items }, () => 0.5 + 0.01 * m + 0.2 * g.nextNormal()));
    const aligned: AlignedScores = {
      source: 'generated',
      models: ['m0', 'm1', 'm2', 'm3'],
      items: Array.from({ length: items }, (_, i) => `i${i}`),
      scores,
      repeats: scores.map(() => new Int32Array(items).fill(1)),
      repeatVariance: scores.map(() => new Float64Array(items)),
      cluster: null,
      clusters: [],
      stratum: null,
      strata: [],
      dropped: 0,
      droppedItems: [],
    };
    for (const method of ['bca', 'auto', 'percentile'] as const) {
      const options = { method, nResamples: 700, nPermutations: 700, seed: 'q' };
      const sync = toJsonText(compareModels(aligned, options));
      for (const threads of [1, 2, 3]) expect(toJsonText(await compareModelsParallel(aligned, { ...options, threads, minParallelWork: 0 }))).toBe(sync);
    }
  });

  it('threads that do not pay run this thread\'s code on the work already done: the same bytes on both one-thread paths', async () => {
    const table = loadScores('examples/scores.csv');
    const aligned = alignModels(table, ['alpha', 'beta', 'gamma']);
    for (const method of ['auto', 'bca', 't'] as const) {
      const options = { method, nResamples: 999, seed: 'few' };
      const sync = toJsonText(compareModels(aligned, options));
      // below the crossover (the rule keeps it on this thread: tests/bootstrap/threads-path.test.ts checks the calls)
      expect(toJsonText(await compareModelsParallel(aligned, { ...options, threads: 2 }))).toBe(sync);
      // the most it could cost (400 items × 999 a pair and the flips) pays, the work it has does not: auto's 0/1
      // pairs take Tango's analytic interval (no work), bca's draw 0/1 differences on the counts path (≈ 3.3e5 in all)
      expect(toJsonText(await compareModelsParallel(aligned, { ...options, threads: 2, minParallelWork: method === 'bca' ? 1e6 : 1 }))).toBe(sync);
    }
  });

  it('a group past 2^16 items (the large-group stream): 2 threads give the sync bytes', async () => {
    const g = createRng('threads-large');
    const x = Float64Array.from({ length: 70_000 }, () => g.nextNormal());
    const options = { nResamples: 600, seed: 'large' };
    expect(toJsonText(await bootstrapMeanParallel(x, { ...options, threads: 2, minParallelWork: 0 }))).toBe(toJsonText(bootstrapMean(x, options)));
  });

  it('a bad thread count is a RangeError', async () => {
    await expect(bootstrapMeanParallel([1, 2, 3], { threads: 0 })).rejects.toThrow(/threads must be a whole number ≥ 1 \(got 0\)/);
  });
});

describe('threadsThatPay: how many threads a job is given', () => {
  it('one thread below the crossover, whatever was asked for', () => {
    expect(threadsThatPay(2, PARALLEL_MIN_WORK - 1, undefined, 8, 0)).toBe(1);
    expect(threadsThatPay(16, 0, undefined, 8, 0)).toBe(1);
  });
  it('from the crossover on: the threads asked for, but never more than the cores', () => {
    expect(threadsThatPay(2, PARALLEL_MIN_WORK, undefined, 8, 0)).toBe(2);
    expect(threadsThatPay(8, 1e12, undefined, 2, 0)).toBe(2);
    expect(threadsThatPay(3, 1e12, undefined, 1, 0)).toBe(1);
  });
  it('never more threads than idle cores plus this one: max(1, floor(cores + 1 − load))', () => {
    // 2 cores: a load up to 1 leaves a core idle for the worker; from a load of 2 on, one thread
    expect(threadsThatPay(2, 1e12, undefined, 2, 0.99)).toBe(2);
    expect(threadsThatPay(2, 1e12, undefined, 2, 1)).toBe(2);
    expect(threadsThatPay(2, 1e12, undefined, 2, 1.01)).toBe(1);
    expect(threadsThatPay(2, 1e12, undefined, 2, 13)).toBe(1);
    // 8 cores at a load of 5.5: 2.5 idle, so 2 workers beside this thread
    expect(threadsThatPay(16, 1e12, undefined, 8, 5.5)).toBe(3);
  });
  it('one thread asked for is one thread; a caller-given crossover replaces the default and the load check', () => {
    expect(threadsThatPay(1, 1e12, undefined, 8, 0)).toBe(1);
    expect(threadsThatPay(2, 10, 0, 8)).toBe(2);
    expect(threadsThatPay(2, 10, 0, 2, 50)).toBe(2);
    expect(threadsThatPay(2, 10, 100, 2, 0)).toBe(1);
  });
});
