import type { ResampleDesign } from './design.js';
import { CHUNK_RESAMPLES, chunkCount, resampleMeanChunk } from './resample.js';
import { signFlipTest } from './sign-flip.js';
import type { SignFlipOptions, SignFlipResult } from './types.js';

/** One mean bootstrap of a queue: its distribution is distributions[offset, offset + nResamples). */
export interface QueueBootstrap {
  design: ResampleDesign;
  seed: string;
  nResamples: number;
  offset: number;
}

/** One sign-flip test of a queue: signFlipTest(differences, options). */
export interface QueueFlip {
  differences: Float64Array;
  options: SignFlipOptions;
}

/**
 * The work of one threaded call, shared by the main thread and the pool's workers. Its items are
 * the sign-flip tests first (item p < flips.length is flips[p]: each is one stream, so one item, and
 * the longest ones go first), then every bootstrap's chunks (item flips.length + j is chunk
 * itemChunk[j] of boots[itemBoot[j]]). Each thread takes the next item with Atomics.add on
 * control[0] until none is left, so no thread waits for another to hand out work (the main thread
 * takes items too, and computes while the workers start); control[1] counts the items done.
 * A chunk writes its statistics straight into the shared `distributions` at its fixed place, and a
 * test's result depends only on its own stream: the result is the same bytes whichever thread takes
 * which item, and for any number of threads.
 */
export interface WorkQueue {
  boots: QueueBootstrap[];
  flips: QueueFlip[];
  itemBoot: Int32Array;
  itemChunk: Int32Array;
  /** Int32Array view: [next item, items done]. */
  control: SharedArrayBuffer;
  /** Float64Array view: every bootstrap's distribution, at its offset. */
  distributions: SharedArrayBuffer;
}

/**
 * INTERNAL (parallel.ts): builds the queue for these bootstraps and tests (chunks in bootstrap order, then chunk order).
 * @example queueItems(makeWorkQueue([{ design, seed: '0', nResamples: 9999 }], [])) // => 40 (chunks of 256)
 */
export function makeWorkQueue(boots: Array<Omit<QueueBootstrap, 'offset'>>, flips: QueueFlip[]): WorkQueue {
  let total = 0;
  let items = 0;
  const placed: QueueBootstrap[] = boots.map((b) => {
    const offset = total;
    total += b.nResamples;
    items += chunkCount(b.nResamples);
    return { ...b, offset };
  });
  const itemBoot = new Int32Array(items);
  const itemChunk = new Int32Array(items);
  let j = 0;
  placed.forEach((b, index) => {
    for (let k = 0; k < chunkCount(b.nResamples); k++, j++) {
      itemBoot[j] = index;
      itemChunk[j] = k;
    }
  });
  return {
    boots: placed,
    flips,
    itemBoot,
    itemChunk,
    control: new SharedArrayBuffer(8),
    distributions: new SharedArrayBuffer(Math.max(8, total * 8)),
  };
}

/** INTERNAL: how many items the queue holds (tests, then chunks). */
export function queueItems(queue: WorkQueue): number {
  return queue.flips.length + queue.itemBoot.length;
}

/**
 * INTERNAL (pool.ts, worker.ts): takes and runs items of the queue until none is left; calls `onItem` after each.
 * @returns the sign-flip results this thread computed, as [test index, result] pairs.
 */
export function runWorkQueue(queue: WorkQueue, onItem: (() => void) | null): Array<[number, SignFlipResult]> {
  const control = new Int32Array(queue.control);
  const distributions = new Float64Array(queue.distributions);
  const items = queueItems(queue);
  const flips = queue.flips.length;
  const results: Array<[number, SignFlipResult]> = [];
  for (;;) {
    const item = Atomics.add(control, 0, 1);
    if (item >= items) break;
    if (item < flips) {
      const flip = queue.flips[item];
      results.push([item, signFlipTest(flip.differences, flip.options)]);
    } else {
      const b = queue.boots[queue.itemBoot[item - flips]];
      const k = queue.itemChunk[item - flips];
      resampleMeanChunk(b.design, b.seed, k, b.nResamples, distributions, b.offset + k * CHUNK_RESAMPLES);
    }
    Atomics.add(control, 1, 1);
    if (onItem !== null) onItem();
  }
  return results;
}

/** INTERNAL: items of the queue done so far (by any thread). */
export function queueDone(queue: WorkQueue): number {
  return Atomics.load(new Int32Array(queue.control), 1);
}
