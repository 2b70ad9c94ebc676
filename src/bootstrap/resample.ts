import { seedState } from '../random/seed.js';
import type { ResampleDesign } from './design.js';

/**
 * Resamples per chunk. Fixed, whatever the number of threads: chunk k always holds resamples
 * [k·CHUNK, (k + 1)·CHUNK) and draws from its own stream `${seed}:chunk:${k}`, so the bootstrap
 * distribution is the same array for 1 thread or 16.
 */
export const CHUNK_RESAMPLES = 256;

/** Chunks needed for B resamples. */
export function chunkCount(nResamples: number): number {
  return Math.ceil(nResamples / CHUNK_RESAMPLES);
}

const TWO_32 = 4294967296;
/** Below this bound Lemire's multiply-shift is exact in doubles (x · m < 2^53). */
export const LEMIRE_LIMIT = 2097152; // 2^21

/**
 * The generator state of chunk k, as four int32 words for the inlined xoshiro128**.
 */
function chunkState(seed: string, chunk: number): Int32Array {
  return new Int32Array(seedState(seed, 'chunk', chunk).buffer);
}

/*
 * The hot loops below step xoshiro128** inline (the same sequence as Xoshiro128.nextUint32) and map
 * each 32-bit draw x to [0, m) by Lemire's multiply-shift with rejection: with p = x·m (exact in a
 * double while m < 2^21), the index is ⌊p / 2^32⌋, and draws whose low word p mod 2^32 falls below
 * 2^32 mod m are redrawn, which leaves every index exactly equally likely (Lemire 2019, "Fast random
 * integer generation in an interval"). For m ≥ 2^21, the slower x mod m with rejection above the
 * largest multiple of m is used instead. Both are unbiased; which one runs depends only on m.
 */

/**
 * Fills out[r − first] with the statistic of resample r for every r in chunk `chunk` (the mean path:
 * sums accumulated on the fly, no index array, O(1) extra memory).
 * @param out receives CHUNK_RESAMPLES values (fewer in the last chunk), starting at outOffset.
 * @returns the number of resamples written.
 */
export function resampleMeanChunk(design: ResampleDesign, seed: string, chunk: number, nResamples: number, out: Float64Array, outOffset: number): number {
  const first = chunk * CHUNK_RESAMPLES;
  const last = Math.min(nResamples, first + CHUNK_RESAMPLES);
  const state = chunkState(seed, chunk);
  let s0 = state[0] | 0;
  let s1 = state[1] | 0;
  let s2 = state[2] | 0;
  let s3 = state[3] | 0;
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight } = design;
  const groups = groupStart.length - 1;
  if (groups === 1 && design.singleItemUnits && groupWeight === null && design.nUnits < LEMIRE_LIMIT) {
    // The fast path: independent items, one stratum. unitSum[u] is item u's value.
    const m = design.nUnits;
    const threshold = TWO_32 % m;
    const values = unitSum;
    const order = groupUnits;
    const identity = isIdentity(order);
    for (let r = first; r < last; r++) {
      let sum = 0;
      for (let j = 0; j < m; j++) {
        let index: number;
        for (;;) {
          const y = Math.imul(s1, 5);
          const x = Math.imul((y << 7) | (y >>> 25), 9) >>> 0;
          const t = s1 << 9;
          s2 ^= s0;
          s3 ^= s1;
          s1 ^= s2;
          s0 ^= s3;
          s2 ^= t;
          s3 = (s3 << 11) | (s3 >>> 21);
          const p = x * m;
          index = Math.floor(p * 2.3283064365386963e-10);
          if (p - index * TWO_32 >= threshold) break;
        }
        sum += values[identity ? index : order[index]];
      }
      out[outOffset + r - first] = sum / m;
    }
    return last - first;
  }
  // The general path: units (clusters or items) drawn within groups (strata).
  for (let r = first; r < last; r++) {
    let total = 0;
    let count = 0;
    let weighted = 0;
    for (let g = 0; g < groups; g++) {
      const base = groupStart[g];
      const m = groupStart[g + 1] - base;
      const lemire = m < LEMIRE_LIMIT;
      const threshold = TWO_32 % m;
      const limit = TWO_32 - threshold;
      let s = 0;
      let c = 0;
      for (let j = 0; j < m; j++) {
        let index: number;
        for (;;) {
          const y = Math.imul(s1, 5);
          const x = Math.imul((y << 7) | (y >>> 25), 9) >>> 0;
          const t = s1 << 9;
          s2 ^= s0;
          s3 ^= s1;
          s1 ^= s2;
          s0 ^= s3;
          s2 ^= t;
          s3 = (s3 << 11) | (s3 >>> 21);
          if (lemire) {
            const p = x * m;
            index = Math.floor(p * 2.3283064365386963e-10);
            if (p - index * TWO_32 >= threshold) break;
          } else if (x < limit) {
            index = x % m;
            break;
          }
        }
        const u = groupUnits[base + index!];
        s += unitSum[u];
        c += unitCount[u];
      }
      if (groupWeight !== null) weighted += groupWeight[g] * (s / c);
      else {
        total += s;
        count += c;
      }
    }
    out[outOffset + r - first] = groupWeight !== null ? weighted : total / count;
  }
  return last - first;
}

function isIdentity(order: Int32Array): boolean {
  for (let k = 0; k < order.length; k++) if (order[k] !== k) return false;
  return true;
}

/**
 * Draws the units of every resample in chunk `chunk` (the same stream and order as
 * resampleMeanChunk) and hands each resample's item indices to `visit`: the generic path.
 * `visit` receives a view into a reused buffer: copy it if you keep it.
 * O(max resample length) memory.
 */
export function resampleIndexChunk(design: ResampleDesign, seed: string, chunk: number, nResamples: number, visit: (indices: Int32Array, resample: number) => void): number {
  const first = chunk * CHUNK_RESAMPLES;
  const last = Math.min(nResamples, first + CHUNK_RESAMPLES);
  const state = chunkState(seed, chunk);
  let s0 = state[0] | 0;
  let s1 = state[1] | 0;
  let s2 = state[2] | 0;
  let s3 = state[3] | 0;
  const { groupStart, groupUnits, unitStart, unitItems } = design;
  const groups = groupStart.length - 1;
  const buffer = new Int32Array(maxResampleLength(design));
  for (let r = first; r < last; r++) {
    let length = 0;
    for (let g = 0; g < groups; g++) {
      const base = groupStart[g];
      const m = groupStart[g + 1] - base;
      const lemire = m < LEMIRE_LIMIT;
      const threshold = TWO_32 % m;
      const limit = TWO_32 - threshold;
      for (let j = 0; j < m; j++) {
        let index: number;
        for (;;) {
          const y = Math.imul(s1, 5);
          const x = Math.imul((y << 7) | (y >>> 25), 9) >>> 0;
          const t = s1 << 9;
          s2 ^= s0;
          s3 ^= s1;
          s1 ^= s2;
          s0 ^= s3;
          s2 ^= t;
          s3 = (s3 << 11) | (s3 >>> 21);
          if (lemire) {
            const p = x * m;
            index = Math.floor(p * 2.3283064365386963e-10);
            if (p - index * TWO_32 >= threshold) break;
          } else if (x < limit) {
            index = x % m;
            break;
          }
        }
        const u = groupUnits[base + index!];
        for (let k = unitStart[u]; k < unitStart[u + 1]; k++) buffer[length++] = unitItems[k];
      }
    }
    visit(buffer.subarray(0, length), r);
  }
  return last - first;
}

/** The longest a resample's index list can be: each group's draw count times its largest unit. */
export function maxResampleLength(design: ResampleDesign): number {
  const { groupStart, groupUnits, unitCount } = design;
  let total = 0;
  for (let g = 0; g + 1 < groupStart.length; g++) {
    let largest = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) largest = Math.max(largest, unitCount[groupUnits[k]]);
    total += largest * (groupStart[g + 1] - groupStart[g]);
  }
  return total;
}

/**
 * Only draws the random indices of chunk `chunk` for m independent items (no statistic): the floor
 * the bench compares the mean path with. Returns a checksum so the work cannot be optimised away.
 */
export function drawIndicesOnlyChunk(m: number, seed: string, chunk: number, nResamples: number): number {
  const first = chunk * CHUNK_RESAMPLES;
  const last = Math.min(nResamples, first + CHUNK_RESAMPLES);
  const state = chunkState(seed, chunk);
  let s0 = state[0] | 0;
  let s1 = state[1] | 0;
  let s2 = state[2] | 0;
  let s3 = state[3] | 0;
  const threshold = TWO_32 % m;
  let check = 0;
  for (let r = first; r < last; r++) {
    for (let j = 0; j < m; j++) {
      let index: number;
      for (;;) {
        const y = Math.imul(s1, 5);
        const x = Math.imul((y << 7) | (y >>> 25), 9) >>> 0;
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        const p = x * m;
        index = Math.floor(p * 2.3283064365386963e-10);
        if (p - index * TWO_32 >= threshold) break;
      }
      check ^= index;
    }
  }
  return check;
}
