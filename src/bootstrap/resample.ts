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
 * each 32-bit draw x to [0, m) by Lemire's multiply-shift: with p = x·m (exact in a double while
 * m < 2^21), the index is ⌊p / 2^32⌋, and a draw whose low word p mod 2^32 falls below 2^32 mod m must
 * be rejected to leave every index exactly equally likely (Lemire 2019, "Fast random integer
 * generation in an interval"). Such draws are rare (probability (2^32 mod m) / 2^32 < m / 2^32), and a
 * branch on them inside the loop costs V8 about 3× (measured: 16 against 5 ns per draw), so the loop
 * only notes them; a resample in which any draw was to be rejected is discarded whole and redrawn,
 * from the stream where it stands, draw by draw with rejection (`careful*`). Both ways give
 * independent uniform indices: a resample is kept only when all its draws are acceptable, and
 * conditional on that each index is uniform, independently of the others. For m ≥ 2^21 (general path
 * only), x mod m with rejection above the largest multiple of m is used, draw by draw.
 */

/** Generator state shared with the careful (rare) paths: s0..s3 are copied in and out. */
type State = Int32Array;

/** One xoshiro128** step on a state array (the careful paths only): returns the 32-bit output as uint32. */
function stepState(st: State): number {
  const s1 = st[1];
  const y = Math.imul(s1, 5);
  const x = Math.imul((y << 7) | (y >>> 25), 9) >>> 0;
  const t = s1 << 9;
  st[2] ^= st[0];
  st[3] ^= s1;
  st[1] ^= st[2];
  st[0] ^= st[3];
  st[2] ^= t;
  st[3] = (st[3] << 11) | (st[3] >>> 21);
  return x;
}

/** A uniform index in [0, m), draw by draw with rejection (Lemire below 2^21, modulo above). */
function carefulIndex(st: State, m: number): number {
  if (m < LEMIRE_LIMIT) {
    const threshold = TWO_32 % m;
    for (;;) {
      const p = stepState(st) * m;
      const index = Math.floor(p * 2.3283064365386963e-10);
      if (p - index * TWO_32 >= threshold) return index;
    }
  }
  const limit = TWO_32 - (TWO_32 % m);
  for (;;) {
    const x = stepState(st);
    if (x < limit) return x % m;
  }
}

/** The statistic of one resample drawn carefully (see above): pooled S / N, or Σ w_h S_h / N_h. */
function carefulMeanResample(design: ResampleDesign, st: State): number {
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight } = design;
  let total = 0;
  let count = 0;
  let weighted = 0;
  for (let g = 0; g + 1 < groupStart.length; g++) {
    const base = groupStart[g];
    const m = groupStart[g + 1] - base;
    let s = 0;
    let c = 0;
    for (let j = 0; j < m; j++) {
      const u = groupUnits[base + carefulIndex(st, m)];
      s += unitSum[u];
      c += unitCount[u];
    }
    if (groupWeight !== null) weighted += groupWeight[g] * (s / c);
    else {
      total += s;
      count += c;
    }
  }
  return groupWeight !== null ? weighted : total / count;
}

/** The item indices of one resample drawn carefully, into buffer; returns the length. */
function carefulIndexResample(design: ResampleDesign, st: State, buffer: Int32Array): number {
  const { groupStart, groupUnits, unitStart, unitItems } = design;
  let length = 0;
  for (let g = 0; g + 1 < groupStart.length; g++) {
    const base = groupStart[g];
    const m = groupStart[g + 1] - base;
    for (let j = 0; j < m; j++) {
      const u = groupUnits[base + carefulIndex(st, m)];
      for (let k = unitStart[u]; k < unitStart[u + 1]; k++) buffer[length++] = unitItems[k];
    }
  }
  return length;
}

/** Whether every group can use the note-and-redraw Lemire loop (all group sizes below 2^21). */
function allLemire(design: ResampleDesign): boolean {
  const { groupStart } = design;
  for (let g = 0; g + 1 < groupStart.length; g++) if (groupStart[g + 1] - groupStart[g] >= LEMIRE_LIMIT) return false;
  return true;
}

/**
 * Fills out[outOffset + r − first] with the statistic of resample r for every r in chunk `chunk`
 * (the mean path: sums accumulated on the fly, no index array, O(1) extra memory).
 * @returns the number of resamples written.
 */
export function resampleMeanChunk(design: ResampleDesign, seed: string, chunk: number, nResamples: number, out: Float64Array, outOffset: number): number {
  const first = chunk * CHUNK_RESAMPLES;
  const last = Math.min(nResamples, first + CHUNK_RESAMPLES);
  const st = chunkState(seed, chunk);
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight } = design;
  const groups = groupStart.length - 1;
  if (!allLemire(design)) {
    for (let r = first; r < last; r++) out[outOffset + r - first] = carefulMeanResample(design, st);
    return last - first;
  }
  if (groups === 1 && design.singleItemUnits && groupWeight === null) {
    // The fast path: independent items, one group; groupUnits is the identity, unitSum[i] item i's value.
    const m = design.nUnits;
    const threshold = TWO_32 % m;
    const values = unitSum;
    for (let r = first; r < last; r++) {
      let sum = 0;
      let reject = 0;
      for (let j = 0; j < m; j++) {
        const y = Math.imul(s1, 5);
        const x = Math.imul((y << 7) | (y >>> 25), 9);
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        const index = ((x >>> 0) * m * 2.3283064365386963e-10) | 0;
        reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
        sum += values[index];
      }
      if (reject !== 0) {
        st[0] = s0;
        st[1] = s1;
        st[2] = s2;
        st[3] = s3;
        out[outOffset + r - first] = carefulMeanResample(design, st);
        s0 = st[0];
        s1 = st[1];
        s2 = st[2];
        s3 = st[3];
      } else out[outOffset + r - first] = sum / m;
    }
    return last - first;
  }
  // The general path: units (clusters or items) drawn within groups (strata).
  for (let r = first; r < last; r++) {
    let total = 0;
    let count = 0;
    let weighted = 0;
    let reject = 0;
    for (let g = 0; g < groups; g++) {
      const base = groupStart[g];
      const m = groupStart[g + 1] - base;
      const threshold = TWO_32 % m;
      let s = 0;
      let c = 0;
      for (let j = 0; j < m; j++) {
        const y = Math.imul(s1, 5);
        const x = Math.imul((y << 7) | (y >>> 25), 9);
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        const index = ((x >>> 0) * m * 2.3283064365386963e-10) | 0;
        reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
        const u = groupUnits[base + index];
        s += unitSum[u];
        c += unitCount[u];
      }
      if (groupWeight !== null) weighted += groupWeight[g] * (s / c);
      else {
        total += s;
        count += c;
      }
    }
    if (reject !== 0) {
      st[0] = s0;
      st[1] = s1;
      st[2] = s2;
      st[3] = s3;
      out[outOffset + r - first] = carefulMeanResample(design, st);
      s0 = st[0];
      s1 = st[1];
      s2 = st[2];
      s3 = st[3];
    } else out[outOffset + r - first] = groupWeight !== null ? weighted : total / count;
  }
  return last - first;
}

/**
 * Draws the units of every resample in chunk `chunk` (the same stream, order and redraw rule as
 * resampleMeanChunk) and hands each resample's item indices to `visit`: the generic path.
 * `visit` receives a view into a reused buffer: copy it if you keep it.
 * O(max resample length) memory.
 */
export function resampleIndexChunk(design: ResampleDesign, seed: string, chunk: number, nResamples: number, visit: (indices: Int32Array, resample: number) => void): number {
  const first = chunk * CHUNK_RESAMPLES;
  const last = Math.min(nResamples, first + CHUNK_RESAMPLES);
  const st = chunkState(seed, chunk);
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  const { groupStart, groupUnits, unitStart, unitItems } = design;
  const groups = groupStart.length - 1;
  const buffer = new Int32Array(maxResampleLength(design));
  const lemire = allLemire(design);
  for (let r = first; r < last; r++) {
    if (!lemire) {
      visit(buffer.subarray(0, carefulIndexResample(design, st, buffer)), r);
      continue;
    }
    let length = 0;
    let reject = 0;
    for (let g = 0; g < groups; g++) {
      const base = groupStart[g];
      const m = groupStart[g + 1] - base;
      const threshold = TWO_32 % m;
      for (let j = 0; j < m; j++) {
        const y = Math.imul(s1, 5);
        const x = Math.imul((y << 7) | (y >>> 25), 9);
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        const index = ((x >>> 0) * m * 2.3283064365386963e-10) | 0;
        reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
        const u = groupUnits[base + index];
        for (let k = unitStart[u]; k < unitStart[u + 1]; k++) buffer[length++] = unitItems[k];
      }
    }
    if (reject !== 0) {
      st[0] = s0;
      st[1] = s1;
      st[2] = s2;
      st[3] = s3;
      length = carefulIndexResample(design, st, buffer);
      s0 = st[0];
      s1 = st[1];
      s2 = st[2];
      s3 = st[3];
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
 * Only draws the random indices of chunk `chunk` for m independent items (the same draws and redraw
 * rule as the fast mean path, no statistic): the floor the bench compares the mean path with.
 * Returns a checksum so the work cannot be optimised away. m < 2^21.
 */
export function drawIndicesOnlyChunk(m: number, seed: string, chunk: number, nResamples: number): number {
  const first = chunk * CHUNK_RESAMPLES;
  const last = Math.min(nResamples, first + CHUNK_RESAMPLES);
  const st = chunkState(seed, chunk);
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  const threshold = TWO_32 % m;
  let check = 0;
  for (let r = first; r < last; r++) {
    let reject = 0;
    let fold = 0;
    for (let j = 0; j < m; j++) {
      const y = Math.imul(s1, 5);
      const x = Math.imul((y << 7) | (y >>> 25), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const index = ((x >>> 0) * m * 2.3283064365386963e-10) | 0;
      reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
      fold ^= index;
    }
    if (reject !== 0) {
      st[0] = s0;
      st[1] = s1;
      st[2] = s2;
      st[3] = s3;
      fold = 0;
      for (let j = 0; j < m; j++) fold ^= carefulIndex(st, m);
      s0 = st[0];
      s1 = st[1];
      s2 = st[2];
      s3 = st[3];
    }
    check ^= fold;
  }
  return check;
}
