import { binomialFromState } from '../random/binomial.js';
import { seedState } from '../random/seed.js';
import { buildDesign, COUNTS_PATH_RULE } from './design.js';
import { flipKernel } from './flip-kernel.js';
import { checkAlternative, finiteValues, seedText } from './settings.js';
import type { SignFlipOptions, SignFlipResult } from './types.js';

/**
 * The paired sign-flip permutation test: under H0 that A and B are exchangeable on every item
 * (each difference d_i = a_i − b_i is as likely to be −d_i), flipping the sign of each unit's
 * difference gives an equally likely data set. The p-value is the share of sign vectors whose
 * statistic is at least as extreme as the observed one.
 *
 * Statistic: T = Σ_i c_i d_i with c_i = 1/n (the mean difference) or, with strata and
 * stratumWeights, c_i = w_h / n_h (the weighted mean). With `cluster`, whole clusters flip
 * together (u_g = Σ_{i∈g} c_i d_i; T* = Σ_g ±u_g), since clusters are the independent units.
 * Exact when there are at most `exactMaxUnits` units (all 2^m sign vectors, p = count / 2^m),
 * else `nPermutations` random sign vectors from the stream `${seed}:sign-flip`, with
 * p = (count + 1) / (B + 1) (the observed vector counted once; Phipson & Smyth 2010), never 0.
 * Random sign vectors are drawn one of two ways, with the same distribution of T*: when the nonzero
 * |u_g| take few distinct values v_k (K ≤ 64 values and m ≥ 32 (K − 1) units, as the bootstrap's
 * COUNTS_PATH_RULE; e.g. 0/1 outcomes, whose differences have |d| ∈ {0, 1}), by the counts path
 * T* = Σ_k v_k (2 X_k − c_k) with X_k ~ Binomial(c_k, ½) the number of the c_k units of value v_k
 * that keep their sign (a unit ±v flips to a value of the same law as +v, so only how many of each
 * |value| stay positive matters); else by one random bit per unit.
 * Two-sided counts |T*| ≥ |T|; greater T* ≥ T; less T* ≤ T; ties within 1e-12 · Σ|u_g| count as equal.
 * Reference: scipy `permutation_test((d,), statistic, permutation_type='samples')` (exact when
 * n_resamples ≥ 2^n); Good (2005), Permutation, Parametric and Bootstrap Tests, §3.
 * @param differences per-item d_i, finite.
 * @returns statistic (T), pValue, exact, nPermutations, units, seed, alternative, warnings.
 * @throws {RangeError} for non-finite differences, bad labels or settings.
 * @example signFlipTest([1, 2, 3]).pValue // => 0.25 (exact: 2 of the 8 sign vectors have |T*| ≥ 2)
 * O(m · 2^m) exact, O(n + m · B) randomized (O(n + K · B) on the counts path); memory O(n).
 */
export function signFlipTest(differences: ArrayLike<number>, options: SignFlipOptions = {}): SignFlipResult {
  const d = finiteValues('differences', differences);
  const n = d.length;
  if (n < 1) throw new RangeError('the sign-flip test needs at least one difference (got 0)');
  const alternative = checkAlternative(options.alternative);
  const seed = seedText(options.seed);
  const nPermutations = options.nPermutations ?? 9999;
  if (!Number.isInteger(nPermutations) || nPermutations < 1) throw new RangeError(`nPermutations must be a whole number ≥ 1 (got ${String(options.nPermutations)})`);
  const exactMaxUnits = options.exactMaxUnits ?? 16;
  if (!Number.isInteger(exactMaxUnits) || exactMaxUnits < 0 || exactMaxUnits > 30) throw new RangeError(`exactMaxUnits must be a whole number in [0, 30] (got ${String(options.exactMaxUnits)})`);
  const flipPath = options.flipPath ?? 'auto';
  if (flipPath !== 'auto' && flipPath !== 'signs' && flipPath !== 'counts') throw new RangeError(`flipPath must be auto, signs or counts (got ${String(options.flipPath)})`);
  const design = buildDesign(n, { cluster: options.cluster, strata: options.strata, stratumWeights: options.stratumWeights, strataNames: options.strataNames, clusterNames: options.clusterNames, resamplePath: 'indices' }, d);
  // Per unit: its contribution u_g to T.
  const m = design.nUnits;
  const contribution = new Float64Array(m);
  const { groupStart, groupUnits, unitStart, unitItems, groupWeight } = design;
  for (let g = 0; g + 1 < groupStart.length; g++) {
    let itemsInGroup = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) itemsInGroup += design.unitCount[groupUnits[k]];
    const coefficient = groupWeight !== null ? groupWeight[g] / itemsInGroup : 1 / n;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      const u = groupUnits[k];
      let s = 0;
      for (let j = unitStart[u]; j < unitStart[u + 1]; j++) s += d[unitItems[j]];
      contribution[u] = coefficient * s;
    }
  }
  let observed = 0;
  let scale = 0;
  for (let u = 0; u < m; u++) {
    observed += contribution[u];
    scale += Math.abs(contribution[u]);
  }
  const eps = 1e-12 * scale;
  const extreme =
    alternative === 'two-sided'
      ? (t: number) => Math.abs(t) >= Math.abs(observed) - eps
      : alternative === 'greater'
        ? (t: number) => t >= observed - eps
        : (t: number) => t <= observed + eps;
  const warnings: string[] = [];
  if (scale === 0) warnings.push('every difference is zero: A and B cannot be told apart (p = 1)');
  let count = 0;
  let pValue: number;
  let exact: boolean;
  let evaluated: number;
  if (m <= exactMaxUnits) {
    exact = true;
    evaluated = 2 ** m;
    for (let mask = 0; mask < evaluated; mask++) {
      let t = 0;
      for (let u = 0; u < m; u++) t += (mask >>> u) & 1 ? -contribution[u] : contribution[u];
      if (extreme(t)) count += 1;
    }
    pValue = count / evaluated;
  } else {
    exact = false;
    evaluated = nPermutations;
    randomSignFlips(contribution, nPermutations, seed, flipPath, (t) => {
      if (extreme(t)) count += 1;
    });
    pValue = (count + 1) / (nPermutations + 1);
  }
  return { statistic: observed, pValue, exact, nPermutations: evaluated, units: m, seed, alternative, warnings };
}

/**
 * INTERNAL (signFlipTest, tests): draws `nPermutations` random sign vectors for the unit
 * contributions u_g from the stream `${seed}:sign-flip` and hands each T* = Σ_g ±u_g to `visit`, in
 * draw order. The counts path (see signFlipTest) when `path` is 'counts', or 'auto' and the nonzero
 * |u_g| take few distinct values; else one random bit per unit, 32 units per 32-bit draw, added
 * four units at a time from a table of subset sums.
 */
export function randomSignFlips(contribution: Float64Array, nPermutations: number, seed: string, path: 'auto' | 'signs' | 'counts', visit: (t: number) => void): void {
  const m = contribution.length;
  const classes = flipClasses(contribution, path);
  if (classes !== null) {
    // T* = Σ_k v_k (2 X_k − c_k), X_k ~ Binomial(c_k, ½).
    const st = new Int32Array(seedState(seed, 'sign-flip').buffer);
    const { values, sizes } = classes;
    for (let r = 0; r < nPermutations; r++) {
      let t = 0;
      for (let k = 0; k < values.length; k++) t += values[k] * (2 * binomialFromState(st, sizes[k], 0.5) - sizes[k]);
      visit(t);
    }
    return;
  }
  // Bit-sliced: T* = S − 2 Σ_{bit set} u_g, and the flipped part of four units at a time is one
  // lookup in a 16-entry table of their subset sums, so a 32-bit word costs 8 lookups, not 32
  // multiply-adds. Same draws, same bit-to-unit order as one bit per unit; T* may differ from the
  // unit-by-unit sum in the last bits, which the 1e-12 tie tolerance absorbs. The table (16 doubles
  // per 4 units) outgrows the cache past ~10⁵ units, so resamples go in batches of FLIP_BATCH: the
  // batch's words are drawn in stream order, then the table is walked once per batch, a cache-sized
  // slice at a time, for every resample of the batch. Memory O(m), never resamples × units.
  const blocks = Math.ceil(m / 4);
  const words = Math.ceil(m / 32);
  // Padded to whole words (8 blocks each): the padding's entries are 0, as are the entries that bits
  // past unit m − 1 of the last word select, so every word takes the same 8 lookups.
  const batch = Math.min(FLIP_BATCH, nPermutations);
  // The table walk runs as a WebAssembly kernel where there is one (flip-kernel.ts: the same sums).
  const kernel = flipKernel(words, batch);
  const table = kernel?.table ?? new Float64Array(words * 128);
  let total = 0;
  for (let u = 0; u < m; u++) total += contribution[u];
  for (let b = 0; b < blocks; b++) {
    for (let mask = 1; mask < 16; mask++) {
      let flipped = 0;
      for (let j = 0; j < 4; j++) if ((mask >>> j) & 1 && 4 * b + j < m) flipped += contribution[4 * b + j];
      table[b * 16 + mask] = -2 * flipped;
    }
  }
  const st = new Int32Array(seedState(seed, 'sign-flip').buffer);
  const bits = kernel?.bits ?? new Int32Array(batch * words);
  const sums = kernel?.sums ?? new Float64Array(batch);
  for (let first = 0; first < nPermutations; first += batch) {
    const size = Math.min(batch, nPermutations - first);
    fillWords(st, bits, size * words);
    sums.fill(total);
    if (kernel !== null) kernel.walk(words, size, FLIP_SLICE_WORDS);
    else walkTable(table, bits, sums, words, size);
    for (let r = 0; r < size; r++) visit(sums[r]);
  }
}

/** INTERNAL (randomSignFlips where WebAssembly is unavailable, tests): the table walk in JavaScript. */
export function walkTable(table: Float64Array, bits: Int32Array, sums: Float64Array, words: number, size: number): void {
  for (let w0 = 0; w0 < words; w0 += FLIP_SLICE_WORDS) {
    const w1 = Math.min(words, w0 + FLIP_SLICE_WORDS);
    for (let r = 0; r < size; r++) {
      let t = sums[r];
      const row = r * words;
      for (let w = w0; w < w1; w++) {
        const word = bits[row + w];
        const o = w * 128;
        // A word's 8 lookups are added as a tree and then to t, so the loop is not one long chain
        // of dependent additions (T* may differ in the last bits; the tie tolerance absorbs that).
        t +=
          table[o + (word & 15)] +
          table[o + 16 + ((word >>> 4) & 15)] +
          (table[o + 32 + ((word >>> 8) & 15)] + table[o + 48 + ((word >>> 12) & 15)]) +
          (table[o + 64 + ((word >>> 16) & 15)] +
            table[o + 80 + ((word >>> 20) & 15)] +
            (table[o + 96 + ((word >>> 24) & 15)] + table[o + 112 + (word >>> 28)]));
      }
      sums[r] = t;
    }
  }
}

/** The next `count` 32-bit outputs of the xoshiro128** state st (advanced), as int32, into out[0 … count): the same stream as Xoshiro128.nextUint32, state in locals. */
function fillWords(st: Int32Array, out: Int32Array, count: number): void {
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  for (let k = 0; k < count; k++) {
    const y = Math.imul(s1, 5);
    out[k] = Math.imul((y << 7) | (y >>> 25), 9);
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
  }
  st[0] = s0;
  st[1] = s1;
  st[2] = s2;
  st[3] = s3;
}

/** Resamples per batch of the bit-sliced sign flips: the batch's words take 4 · batch · m / 32 bytes. */
const FLIP_BATCH = 64;
/** 32-bit words per table slice: 512 words are 16,384 units, a 128 KiB slice of the table. */
const FLIP_SLICE_WORDS = 512;

/**
 * The distinct nonzero |u_g| (ascending) and how many units have each, when the counts path applies
 * (`'counts'`, or `'auto'` and COUNTS_PATH_RULE holds over the m units); null otherwise. Zero
 * contributions never change T* and are left out.
 */
function flipClasses(contribution: Float64Array, path: 'auto' | 'signs' | 'counts'): { values: Float64Array; sizes: Float64Array } | null {
  if (path === 'signs') return null;
  const m = contribution.length;
  const limit = path === 'counts' ? Infinity : Math.min(COUNTS_PATH_RULE.maxClasses, 1 + Math.floor(m / COUNTS_PATH_RULE.unitsPerBinomial));
  const sizes = new Map<number, number>();
  for (let u = 0; u < m; u++) {
    const v = Math.abs(contribution[u]);
    if (v === 0) continue;
    sizes.set(v, (sizes.get(v) ?? 0) + 1);
    if (sizes.size > limit) return null;
  }
  const values = Float64Array.from(sizes.keys()).sort();
  return { values, sizes: Float64Array.from(values, (v) => sizes.get(v) as number) };
}
