import { F64, get, I32, i32, kernels, memory, OP, set, whileLoop, type WasmFunction } from './wasm-encoder.js';

/*
 * The bit-sliced sign flips' table walk (sign-flip.ts, randomSignFlips) as a WebAssembly kernel:
 * for each resample of a batch, T* += one table entry per 4 units, a 32-bit word's 8 lookups added
 * as the same tree, ((e0 + e1) + (e2 + e3)) + ((e4 + e5) + (e6 + e7)), then to T*, in the same slice
 * and word order as the JavaScript loop, so every T* is the same bits
 * (tests/bootstrap/flip-kernel.test.ts compares them). Why: V8 checks the bounds of each of the 8
 * loads; the kernel does not need to (measured in bench/: the walk is most of the sign-flip test at
 * 10^6 items).
 *
 * Memory layout (bytes): the table from 0 (128 float64 per word: 8 blocks × 16 subset sums), then
 * the batch's words (int32, resample-major), then the batch's sums (float64).
 */

/**
 * walk(words, size, slice, bitsAt, sumsAt): for w0 = 0, slice, 2·slice, …: for each resample r < size,
 * sums[r] += the entries its words w0 … min(words, w0 + slice) − 1 select.
 */
function walkFunction(): WasmFunction {
  const [words, size, slice, bitsAt, sumsAt] = [0, 1, 2, 3, 4];
  const [w0, w1, r, w, word, o, row] = [5, 6, 7, 8, 9, 10, 11];
  const t = 12;
  // Entry k of word `word` in its 128-entry table at o: table[o + 16k + ((word >>> 4k) & 15)].
  const entry = (k: number): number[] => [...get(word), ...i32(4 * k), OP.i32ShrU, ...i32(15), OP.i32And, ...i32(3), OP.i32Shl, ...get(o), OP.i32Add, ...memory(OP.f64Load, 128 * k, 3)];
  const pair = (k: number): number[] => [...entry(k), ...entry(k + 1), OP.f64Add];
  const body = [
    ...i32(0), ...set(w0),
    ...whileLoop([...get(w0), ...get(words), OP.i32LtU], [
      ...get(w0), ...get(slice), OP.i32Add, ...set(w1),
      ...get(w1), ...get(words), OP.i32LtU, OP.i32Eqz, OP.if, 0x40, ...get(words), ...set(w1), OP.end,
      ...i32(0), ...set(r),
      ...whileLoop([...get(r), ...get(size), OP.i32LtU], [
        ...get(r), ...i32(3), OP.i32Shl, ...get(sumsAt), OP.i32Add, ...memory(OP.f64Load, 0, 3), ...set(t),
        ...get(r), ...get(words), OP.i32Mul, ...i32(2), OP.i32Shl, ...get(bitsAt), OP.i32Add, ...set(row),
        ...get(w0), ...set(w),
        ...whileLoop([...get(w), ...get(w1), OP.i32LtU], [
          ...get(w), ...i32(2), OP.i32Shl, ...get(row), OP.i32Add, ...memory(OP.i32Load, 0, 2), ...set(word),
          ...get(w), ...i32(10), OP.i32Shl, ...set(o),
          ...get(t), ...pair(0), ...pair(2), OP.f64Add, ...pair(4), ...pair(6), OP.f64Add, OP.f64Add, OP.f64Add, ...set(t),
          ...get(w), ...i32(1), OP.i32Add, ...set(w),
        ]),
        ...get(r), ...i32(3), OP.i32Shl, ...get(sumsAt), OP.i32Add, ...get(t), ...memory(OP.f64Store, 0, 3),
        ...get(r), ...i32(1), OP.i32Add, ...set(r),
      ]),
      ...get(w0), ...get(slice), OP.i32Add, ...set(w0),
    ]),
  ];
  return { name: 'walk', params: 5, locals: [[7, I32], [1, F64]], body };
}

const flipKernels = kernels(() => [walkFunction()]);

/** A walk kernel over its own memory: the table, the batch's words and sums as views to fill. */
export interface FlipKernel {
  /** 128 entries per word, zeroed; the caller writes entries 1 … 15 of each block. */
  table: Float64Array;
  /** size · words words of a batch, resample-major. */
  bits: Int32Array;
  /** One running T* per resample of a batch. */
  sums: Float64Array;
  /** Adds to sums[0 … size) the entries the batch's words select, slice by slice. */
  walk(words: number, size: number, slice: number): void;
}

/**
 * A walk kernel for `words` 32-bit words a resample and batches of up to `batch` resamples, or null
 * where WebAssembly is unavailable. Memory 1024 · words + 4 · batch · words + 8 · batch bytes.
 * @example flipKernel(2, 4)?.table.length // => 256
 */
export function flipKernel(words: number, batch: number): FlipKernel | null {
  const bitsAt = 1024 * words;
  const sumsAt = bitsAt + 4 * batch * words + ((4 * batch * words) % 8);
  const instance = flipKernels.instantiate(sumsAt + 8 * batch);
  if (instance === null) return null;
  const { exports, buffer } = instance;
  return {
    table: new Float64Array(buffer, 0, 128 * words),
    bits: new Int32Array(buffer, bitsAt, batch * words),
    sums: new Float64Array(buffer, sumsAt, batch),
    walk: (w, size, slice) => exports.walk(w, size, slice, bitsAt, sumsAt),
  };
}
