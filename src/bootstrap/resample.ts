import { binomialFromState } from '../random/binomial.js';
import { seedState } from '../random/seed.js';
import type { ResampleDesign } from './design.js';
import { tallyKernel } from './tally-kernel.js';

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
 * From this many units on, a group draws its indices one by one with rejection (the `careful`
 * rule) in every pass, and never sends its resample to a redraw: the large-group stream (issue
 * #19). Below it the note-and-redraw rule stands, unchanged, so every resample of a smaller group is
 * the same as before. Why: a resample of m units meets Lemire's rejection zone with probability
 * 1 − (1 − (2^32 mod m) / 2^32)^m, 0.79 at m = 10^5 and 1 − 10^-98 at 10^6, so for large groups the
 * note-and-redraw rule drew nearly every resample twice; a branch per draw that is almost never taken
 * costs less than that. 2^16 is above every bundled example and every test data set but the stream tests.
 */
export const LARGE_GROUP_UNITS = 65536; // 2^16

/**
 * From this many units on, the one-group mean path tallies each resample (how often each unit is
 * drawn, in a byte per unit) and sums count × value in unit order, instead of adding the drawn values
 * in draw order: 8 bytes per unit of values stop fitting in the cache from about here, and a random
 * gather from them costs more than the tally plus one sequential pass (measured 9.7 against
 * 3.9 ns per draw at 10^6, equal at 4 · 10^5, in JavaScript). The same draws; the sum is rounded in
 * another order, so this path is part of the large-group stream's definition. Both large-group mean
 * paths run as WebAssembly kernels (tally-kernel.ts), bit-identical to the JavaScript loops below,
 * which remain the fallback where WebAssembly is unavailable.
 */
export const TALLY_GROUP_UNITS = 524288; // 2^19

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
 * only), x mod m with rejection above the largest multiple of m is used, draw by draw. In a resample
 * that mixes index groups with counts groups (below), a redraw redraws the counts groups too, from the
 * stream where it stands: the kept draws are still fresh and independent of the rejected ones.
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

/*
 * The counts path (groups with design.groupCounts[g] = 1). The mean of a resample depends on the
 * drawn units only through how many units of each class it holds (a class: the units sharing one
 * (sum, count) pair; e.g. 0/1 paired differences have three classes, −1, 0 and 1). Drawing m units
 * uniformly with replacement from a group whose K classes hold c_1 … c_K units makes the class
 * counts (X_1 … X_K) Multinomial(m; c_1/m, …, c_K/m), and a multinomial is drawn exactly as K − 1
 * conditional binomials:
 *   X_k ~ Binomial(m − Σ_{j<k} X_j, c_k / Σ_{j≥k} c_j),   X_K = what is left.
 * The group's resampled sum and item count are then S = Σ X_k · sum_k and N = Σ X_k · count_k: the
 * same distribution as m index draws, at O(K) cost instead of O(m). The binomials step the chunk's
 * own stream (binomialFromState), so the path is as deterministic as the index path, chunk by chunk.
 * A one-class group never varies: every resample is its full sum and count (groupSum, groupCount,
 * added up as designEstimate does, so a constant group resamples to the estimate exactly).
 */

/** Draws group g's class counts from st; writes the group's resampled value sum to acc[0] and item count to acc[1]. */
function countsGroup(design: ResampleDesign, g: number, st: State, acc: Float64Array): void {
  const { classStart, classSum, classItems, classProbability } = design;
  const first = classStart[g];
  const last = classStart[g + 1];
  if (last - first === 1) {
    acc[0] = design.groupSum[g];
    acc[1] = design.groupCount[g];
    return;
  }
  let remaining = design.groupStart[g + 1] - design.groupStart[g];
  let s = 0;
  let c = 0;
  for (let k = first; k < last && remaining > 0; k++) {
    const x = k === last - 1 ? remaining : binomialFromState(st, remaining, classProbability[k]);
    s += x * classSum[k];
    c += x * classItems[k];
    remaining -= x;
  }
  acc[0] = s;
  acc[1] = c;
}

/** The statistic of one resample drawn carefully (see above): pooled S / N, or Σ w_h S_h / N_h. */
function carefulMeanResample(design: ResampleDesign, st: State, acc: Float64Array): number {
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight, groupCounts } = design;
  let total = 0;
  let count = 0;
  let weighted = 0;
  for (let g = 0; g + 1 < groupStart.length; g++) {
    const base = groupStart[g];
    const m = groupStart[g + 1] - base;
    let s = 0;
    let c = 0;
    if (groupCounts[g] !== 0) {
      countsGroup(design, g, st, acc);
      s = acc[0];
      c = acc[1];
    } else {
      for (let j = 0; j < m; j++) {
        const u = groupUnits[base + carefulIndex(st, m)];
        s += unitSum[u];
        c += unitCount[u];
      }
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

/*
 * The large-group stream (LARGE_GROUP_UNITS): a group of m ≥ 2^16 units draws each index by Lemire
 * with rejection, draw by draw, in the fast pass as in the careful one, so it never notes a rejection
 * and its resamples are never redrawn on its account. The helpers below step the state in locals and
 * read and write it through `st` once per group.
 */

/** Group (base, m)'s units drawn the large-group way: their value sum into acc[0], item count into acc[1]. */
function largeGroupSums(design: ResampleDesign, base: number, m: number, st: State, acc: Float64Array): void {
  const { groupUnits, unitSum, unitCount } = design;
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  const threshold = TWO_32 % m;
  const scale = m * 2.3283064365386963e-10;
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
    if (Math.imul(x, m) >>> 0 < threshold) {
      j--;
      continue;
    }
    const u = groupUnits[base + (((x >>> 0) * scale) | 0)];
    s += unitSum[u];
    c += unitCount[u];
  }
  st[0] = s0;
  st[1] = s1;
  st[2] = s2;
  st[3] = s3;
  acc[0] = s;
  acc[1] = c;
}

/** Group (base, m)'s units drawn the large-group way, their items appended to buffer from `length`; returns the new length. */
function largeGroupItems(design: ResampleDesign, base: number, m: number, st: State, buffer: Int32Array, length: number): number {
  const { groupUnits, unitStart, unitItems } = design;
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  const threshold = TWO_32 % m;
  const scale = m * 2.3283064365386963e-10;
  let next = length;
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
    if (Math.imul(x, m) >>> 0 < threshold) {
      j--;
      continue;
    }
    const u = groupUnits[base + (((x >>> 0) * scale) | 0)];
    for (let k = unitStart[u]; k < unitStart[u + 1]; k++) buffer[next++] = unitItems[k];
  }
  st[0] = s0;
  st[1] = s1;
  st[2] = s2;
  st[3] = s3;
  return next;
}

/**
 * largeGroupItems for one group of single-item units in item order (the drawn unit is the item): the
 * same draws and rejections, the index written straight into buffer[0 … m − 1] without the three
 * lookups of the unit tables (at m = 10⁵ those lookups cost several times the draw; sweep's index path).
 */
function largeIdentityIndices(m: number, st: State, buffer: Int32Array): void {
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  const threshold = TWO_32 % m;
  const scale = m * 2.3283064365386963e-10;
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
    if (Math.imul(x, m) >>> 0 < threshold) {
      j--;
      continue;
    }
    buffer[j] = ((x >>> 0) * scale) | 0;
  }
  st[0] = s0;
  st[1] = s1;
  st[2] = s2;
  st[3] = s3;
}

/**
 * `count` resample means of one group of m independent items (values[i] item i's value), the large-group
 * way, the drawn values added in draw order; state in and out through st.
 */
function largeGatherMeans(values: Float64Array, m: number, st: State, count: number, out: Float64Array, outOffset: number): void {
  const kernel = tallyKernel(m);
  if (kernel === null) {
    jsGatherMeans(values, m, st, count, out, outOffset);
    return;
  }
  kernel.values.set(values.subarray(0, m));
  const { state, total } = kernel;
  state.set(st.subarray(0, 4));
  const threshold = TWO_32 % m;
  for (let r = 0; r < count; r++) {
    kernel.gather(m, threshold, kernel.valuesAt);
    out[outOffset + r] = total[0] / m;
  }
  st.set(state.subarray(0, 4));
}

/**
 * INTERNAL (largeGatherMeans where WebAssembly is unavailable, tests): the same means in JavaScript,
 * a draw at a time (carefulIndex is the large-group stream's rule below 2^21).
 */
export function jsGatherMeans(values: Float64Array, m: number, st: State, count: number, out: Float64Array, outOffset: number): void {
  for (let r = 0; r < count; r++) {
    let sum = 0;
    for (let j = 0; j < m; j++) sum += values[carefulIndex(st, m)];
    out[outOffset + r] = sum / m;
  }
}

/**
 * largeGatherMeans for m ≥ TALLY_GROUP_UNITS: the same draws, tallied in a byte per item; the sum is
 * Σ_i count_i · values[i] over items in order, in four interleaved partial sums (items i ≡ 0, 1, 2, 3
 * mod 4) added as (p0 + p1) + (p2 + p3). A byte wraps past 255 draws of one item (probability about
 * m / 256! per resample, i.e. never in practice); the counts then sum to less than m, and that
 * resample is tallied again from its saved state in 32-bit counts, so the result is exact either way.
 */
function largeTallyMeans(values: Float64Array, m: number, st: State, count: number, out: Float64Array, outOffset: number): void {
  const kernel = tallyKernel(m);
  if (kernel === null) {
    jsTallyMeans(values, m, st, count, out, outOffset);
    return;
  }
  kernel.values.set(values.subarray(0, m));
  const { state, total } = kernel;
  state.set(st.subarray(0, 4));
  const threshold = TWO_32 % m;
  let wide: Int32Array | null = null;
  for (let r = 0; r < count; r++) {
    const saved = state.slice(0, 4);
    kernel.draw(m, threshold);
    kernel.sum(m, kernel.valuesAt);
    if (state[4] === m) out[outOffset + r] = total[0] / m;
    else {
      // A byte wrapped: the same draws again, from the saved state, in 32-bit counts.
      wide ??= new Int32Array(m);
      tallyWide(saved, m, wide);
      out[outOffset + r] = countsSum(values, wide, m) / m;
    }
  }
  st.set(state.subarray(0, 4));
}

/** Σ_i counts[i] · values[i] over i < m in four interleaved partial sums, added as (p0 + p1) + (p2 + p3) (the tally's order). */
function countsSum(values: Float64Array, counts: Int32Array, m: number): number {
  let p0 = 0;
  let p1 = 0;
  let p2 = 0;
  let p3 = 0;
  let i = 0;
  for (; i + 3 < m; i += 4) {
    p0 += counts[i] * values[i];
    p1 += counts[i + 1] * values[i + 1];
    p2 += counts[i + 2] * values[i + 2];
    p3 += counts[i + 3] * values[i + 3];
  }
  for (; i < m; i++) p0 += counts[i] * values[i];
  return p0 + p1 + (p2 + p3);
}

/**
 * INTERNAL (largeTallyMeans where WebAssembly is unavailable, tests): the same means in JavaScript,
 * the same draws tallied in 32-bit counts (no count can wrap) and summed in the tally's order.
 */
export function jsTallyMeans(values: Float64Array, m: number, st: State, count: number, out: Float64Array, outOffset: number): void {
  const counts = new Int32Array(m);
  for (let r = 0; r < count; r++) {
    tallyWide(st, m, counts);
    out[outOffset + r] = countsSum(values, counts, m) / m;
  }
}

/** INTERNAL (largeTallyMeans, tests): one resample's large-group draws of m items from state st (advanced), tallied into counts (overwritten). */
export function tallyWide(st: State, m: number, counts: Int32Array): void {
  counts.fill(0);
  for (let j = 0; j < m; j++) counts[carefulIndex(st, m)]++;
}

/** Whether every group can use the note-and-redraw Lemire loop (all group sizes below 2^21), counts groups aside when `counts`. */
function allLemire(design: ResampleDesign, counts: boolean): boolean {
  const { groupStart, groupCounts } = design;
  for (let g = 0; g + 1 < groupStart.length; g++) if (groupStart[g + 1] - groupStart[g] >= LEMIRE_LIMIT && !(counts && groupCounts[g] !== 0)) return false;
  return true;
}

/** Whether any group of the design is drawn by class counts. */
export function usesCounts(design: ResampleDesign): boolean {
  return design.groupCounts.some((flag) => flag !== 0);
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
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight, groupCounts } = design;
  const groups = groupStart.length - 1;
  const acc = new Float64Array(2);
  if (!allLemire(design, true)) {
    for (let r = first; r < last; r++) out[outOffset + r - first] = carefulMeanResample(design, st, acc);
    return last - first;
  }
  if (groups === 1 && design.singleItemUnits && groupWeight === null && groupCounts[0] === 0) {
    // The fast path: independent items, one group; groupUnits is the identity, unitSum[i] item i's value.
    const m = design.nUnits;
    if (m >= LARGE_GROUP_UNITS) {
      st[0] = s0;
      st[1] = s1;
      st[2] = s2;
      st[3] = s3;
      if (m >= TALLY_GROUP_UNITS) largeTallyMeans(unitSum, m, st, last - first, out, outOffset);
      else largeGatherMeans(unitSum, m, st, last - first, out, outOffset);
      return last - first;
    }
    const threshold = TWO_32 % m;
    // ⌊x · m / 2^32⌋ as x · (m · 2^-32): m · 2^-32 is exact (a power-of-two scaling) and so is its
    // product with x (x · m < 2^53), so the index is bit-identical to ⌊(x · m) · 2^-32⌋, one multiply fewer.
    const scale = m * 2.3283064365386963e-10;
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
        reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
        sum += values[((x >>> 0) * scale) | 0];
      }
      if (reject !== 0) {
        // carefulMeanResample for this case, inlined (state in locals): Lemire with rejection, draw
        // by draw, summed in draw order; the count is m (one item per unit), as there.
        sum = 0;
        for (let j = 0; j < m; j++) {
          for (;;) {
            const y = Math.imul(s1, 5);
            const x = Math.imul((y << 7) | (y >>> 25), 9);
            const t = s1 << 9;
            s2 ^= s0;
            s3 ^= s1;
            s1 ^= s2;
            s0 ^= s3;
            s2 ^= t;
            s3 = (s3 << 11) | (s3 >>> 21);
            const p = (x >>> 0) * m;
            const index = Math.floor(p * 2.3283064365386963e-10);
            if (p - index * TWO_32 >= threshold) {
              sum += values[index];
              break;
            }
          }
        }
      }
      out[outOffset + r - first] = sum / m;
    }
    return last - first;
  }
  // The general path: units (clusters or items) drawn within groups (strata), by index or by class counts.
  for (let r = first; r < last; r++) {
    let total = 0;
    let count = 0;
    let weighted = 0;
    let reject = 0;
    for (let g = 0; g < groups; g++) {
      const base = groupStart[g];
      const m = groupStart[g + 1] - base;
      let s = 0;
      let c = 0;
      if (groupCounts[g] !== 0) {
        st[0] = s0;
        st[1] = s1;
        st[2] = s2;
        st[3] = s3;
        countsGroup(design, g, st, acc);
        s0 = st[0];
        s1 = st[1];
        s2 = st[2];
        s3 = st[3];
        s = acc[0];
        c = acc[1];
      } else if (m >= LARGE_GROUP_UNITS) {
        st[0] = s0;
        st[1] = s1;
        st[2] = s2;
        st[3] = s3;
        largeGroupSums(design, base, m, st, acc);
        s0 = st[0];
        s1 = st[1];
        s2 = st[2];
        s3 = st[3];
        s = acc[0];
        c = acc[1];
      } else {
        const threshold = TWO_32 % m;
        const scale = m * 2.3283064365386963e-10;
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
          reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
          const u = groupUnits[base + (((x >>> 0) * scale) | 0)];
          s += unitSum[u];
          c += unitCount[u];
        }
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
      out[outOffset + r - first] = carefulMeanResample(design, st, acc);
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
  const lemire = allLemire(design, false);
  const single = design.singleItemUnits;
  if (lemire && groups === 1 && identityUnits(design)) {
    // One group of single-item units in item order: the drawn index is the item. The same draws,
    // redraw rule and careful redraw as below, with the state kept in locals throughout.
    const m = design.nUnits;
    if (m >= LARGE_GROUP_UNITS) {
      st[0] = s0;
      st[1] = s1;
      st[2] = s2;
      st[3] = s3;
      for (let r = first; r < last; r++) {
        largeIdentityIndices(m, st, buffer);
        visit(buffer.subarray(0, m), r);
      }
      return last - first;
    }
    const threshold = TWO_32 % m;
    const scale = m * 2.3283064365386963e-10;
    for (let r = first; r < last; r++) {
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
        reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
        buffer[j] = ((x >>> 0) * scale) | 0;
      }
      if (reject !== 0) {
        // carefulIndex, inlined: Lemire with rejection, draw by draw.
        for (let j = 0; j < m; j++) {
          for (;;) {
            const y = Math.imul(s1, 5);
            const x = Math.imul((y << 7) | (y >>> 25), 9);
            const t = s1 << 9;
            s2 ^= s0;
            s3 ^= s1;
            s1 ^= s2;
            s0 ^= s3;
            s2 ^= t;
            s3 = (s3 << 11) | (s3 >>> 21);
            const p = (x >>> 0) * m;
            const index = Math.floor(p * 2.3283064365386963e-10);
            if (p - index * TWO_32 >= threshold) {
              buffer[j] = index;
              break;
            }
          }
        }
      }
      visit(buffer.subarray(0, m), r);
    }
    return last - first;
  }
  if (lemire && single) {
    // Single-item units within groups (strata): the unit's item, no run to copy; the same draws. Each
    // group position's item is looked up once a chunk (O(n), against 256 n draws), so a draw reads one
    // array at random instead of two in a row: at 10^5 items the two no longer fit the cache together.
    const positionItems = new Int32Array(groupUnits.length);
    for (let k = 0; k < groupUnits.length; k++) positionItems[k] = unitItems[groupUnits[k]];
    for (let r = first; r < last; r++) {
      let length = 0;
      let reject = 0;
      for (let g = 0; g < groups; g++) {
        const base = groupStart[g];
        const m = groupStart[g + 1] - base;
        if (m >= LARGE_GROUP_UNITS) {
          st[0] = s0;
          st[1] = s1;
          st[2] = s2;
          st[3] = s3;
          length = largeGroupItems(design, base, m, st, buffer, length);
          s0 = st[0];
          s1 = st[1];
          s2 = st[2];
          s3 = st[3];
          continue;
        }
        const threshold = TWO_32 % m;
        const scale = m * 2.3283064365386963e-10;
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
          reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
          buffer[length + j] = positionItems[base + (((x >>> 0) * scale) | 0)];
        }
        length += m;
      }
      if (reject !== 0) {
        // carefulIndexResample for single-item units, inlined (state in locals): group by group,
        // Lemire with rejection, draw by draw.
        length = 0;
        for (let g = 0; g < groups; g++) {
          const base = groupStart[g];
          const m = groupStart[g + 1] - base;
          const threshold = TWO_32 % m;
          for (let j = 0; j < m; j++) {
            for (;;) {
              const y = Math.imul(s1, 5);
              const x = Math.imul((y << 7) | (y >>> 25), 9);
              const t = s1 << 9;
              s2 ^= s0;
              s3 ^= s1;
              s1 ^= s2;
              s0 ^= s3;
              s2 ^= t;
              s3 = (s3 << 11) | (s3 >>> 21);
              const p = (x >>> 0) * m;
              const index = Math.floor(p * 2.3283064365386963e-10);
              if (p - index * TWO_32 >= threshold) {
                buffer[length++] = positionItems[base + index];
                break;
              }
            }
          }
        }
      }
      visit(buffer.subarray(0, length), r);
    }
    return last - first;
  }
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
      if (m >= LARGE_GROUP_UNITS) {
        st[0] = s0;
        st[1] = s1;
        st[2] = s2;
        st[3] = s3;
        length = largeGroupItems(design, base, m, st, buffer, length);
        s0 = st[0];
        s1 = st[1];
        s2 = st[2];
        s3 = st[3];
        continue;
      }
      const threshold = TWO_32 % m;
      const scale = m * 2.3283064365386963e-10;
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
        reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
        const u = groupUnits[base + (((x >>> 0) * scale) | 0)];
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

/** Whether every unit is one item and units and items are both in item order (group 0 = every unit). */
function identityUnits(design: ResampleDesign): boolean {
  const { n, nUnits, groupUnits, unitItems, singleItemUnits } = design;
  if (!singleItemUnits || nUnits !== n || groupUnits.length !== n) return false;
  for (let i = 0; i < n; i++) if (groupUnits[i] !== i || unitItems[i] !== i) return false;
  return true;
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
 * rule as the fast mean path, the large-group stream from LARGE_GROUP_UNITS on, no statistic): the floor the bench compares the mean path with.
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
  const scale = m * 2.3283064365386963e-10;
  let check = 0;
  if (m >= LARGE_GROUP_UNITS) {
    // The large-group stream: rejection draw by draw, never a redraw.
    for (let r = first; r < last; r++) {
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
        if (Math.imul(x, m) >>> 0 < threshold) {
          j--;
          continue;
        }
        check ^= ((x >>> 0) * scale) | 0;
      }
    }
    return check;
  }
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
      reject |= Math.imul(x, m) >>> 0 < threshold ? 1 : 0;
      fold ^= ((x >>> 0) * scale) | 0;
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
