import { F64, get, I32, I64, i32, kernels, memory, OP, set, SIMD, simd, uleb, V128, VOID, whileLoop, type WasmFunction } from './wasm-encoder.js';

/*
 * The large-group stream's one-group mean paths (resample.ts: largeTallyMeans, largeGatherMeans) as
 * WebAssembly kernels: the same xoshiro128** steps, the same Lemire draw and rejection rule and the
 * same floating-point sums in the same order, so every resample mean is bit-identical to the
 * JavaScript loops (tests/bootstrap/tally-kernel.test.ts compares them). Why: at 10^6 items the
 * JavaScript tally costs about 1.9× the bare index-drawing loop (bench/floor.mjs), because V8 checks
 * bounds and converts types around every byte increment; here the increment is one load and one
 * store, and the count × value pass runs in the same module (measured 1.05× the floor per resample).
 *
 * Memory layout (bytes): [0, 16) the generator state s0 … s3 (int32); [16, 20) the tally's total
 * draw count (int32); [24, 32) the resample sum (float64); [32, 32 + m) the tally, one byte per
 * item; from V = 32 + m rounded up to 8, the m values (float64).
 */

const STATE = 0;
const DRAWN = 16;
const SUM = 24;
/** Byte offset of the tally in kernel memory. */
export const TALLY = 32;

/** Byte offset of the values for m items. */
export function valuesOffset(m: number): number {
  return (TALLY + m + 7) & ~7;
}

/*
 * One xoshiro128** step with its output in local x, as in resample.ts:
 *   y = s1·5; x = rotl(y, 7)·9; t = s1 << 9; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)
 * followed by p = x·m in 64 bits; the draw is rejected when p mod 2^32 < threshold and is index ⌊p / 2^32⌋ otherwise.
 */
interface StepLocals {
  m: number;
  s0: number;
  s1: number;
  s2: number;
  s3: number;
  x: number;
  t: number;
  p: number;
}

function step(l: StepLocals): number[] {
  return [
    ...get(l.s1), ...i32(5), OP.i32Mul, ...i32(7), OP.i32Rotl, ...i32(9), OP.i32Mul, ...set(l.x),
    ...get(l.s1), ...i32(9), OP.i32Shl, ...set(l.t),
    ...get(l.s2), ...get(l.s0), OP.i32Xor, ...set(l.s2),
    ...get(l.s3), ...get(l.s1), OP.i32Xor, ...set(l.s3),
    ...get(l.s1), ...get(l.s2), OP.i32Xor, ...set(l.s1),
    ...get(l.s0), ...get(l.s3), OP.i32Xor, ...set(l.s0),
    ...get(l.s2), ...get(l.t), OP.i32Xor, ...set(l.s2),
    ...get(l.s3), ...i32(11), OP.i32Rotl, ...set(l.s3),
    ...get(l.x), OP.i64ExtendI32U, ...get(l.m), OP.i64ExtendI32U, OP.i64Mul, ...set(l.p),
  ];
}

/** Pushes "the draw is accepted": p mod 2^32 ≥ threshold. */
function accepted(l: StepLocals, threshold: number): number[] {
  return [...get(l.p), OP.i32WrapI64, ...get(threshold), OP.i32LtU, OP.i32Eqz];
}

/** Pushes the accepted draw's index ⌊p / 2^32⌋. */
function index(l: StepLocals): number[] {
  return [...get(l.p), OP.i64Const, 32, OP.i64ShrU, OP.i32WrapI64];
}

function loadState(l: StepLocals): number[] {
  return [...i32(0), ...memory(OP.i32Load, STATE, 2), ...set(l.s0), ...i32(0), ...memory(OP.i32Load, STATE + 4, 2), ...set(l.s1), ...i32(0), ...memory(OP.i32Load, STATE + 8, 2), ...set(l.s2), ...i32(0), ...memory(OP.i32Load, STATE + 12, 2), ...set(l.s3)];
}

function storeState(l: StepLocals): number[] {
  return [...i32(0), ...get(l.s0), ...memory(OP.i32Store, STATE, 2), ...i32(0), ...get(l.s1), ...memory(OP.i32Store, STATE + 4, 2), ...i32(0), ...get(l.s2), ...memory(OP.i32Store, STATE + 8, 2), ...i32(0), ...get(l.s3), ...memory(OP.i32Store, STATE + 12, 2)];
}

/**
 * The draw loop every kernel shares: the state loaded from STATE, m accepted draws (`accepted` runs
 * for each, with the draw in p), the state stored back. The loop counter is local j.
 */
function drawLoop(l: StepLocals & { j: number; threshold: number }, onAccepted: number[]): number[] {
  return [
    ...loadState(l),
    ...i32(0), ...set(l.j),
    ...whileLoop([...get(l.j), ...get(l.m), OP.i32LtU], [
      ...step(l),
      ...accepted(l, l.threshold), OP.if, VOID,
      ...onAccepted,
      ...get(l.j), ...i32(1), OP.i32Add, ...set(l.j),
      OP.end,
    ]),
    ...storeState(l),
  ];
}

/** draw(m, threshold): m accepted draws, each adding 1 to its item's tally byte (wrapping at 256). */
function drawFunction(): WasmFunction {
  const l = { m: 0, threshold: 1, s0: 2, s1: 3, s2: 4, s3: 5, x: 6, t: 7, j: 8, p: 9 };
  const k = l.x; // x is dead once p is formed
  const body = drawLoop(l, [
    ...index(l), ...set(k),
    ...get(k), ...get(k), ...memory(OP.i32Load8u, TALLY, 0), ...i32(1), OP.i32Add, ...memory(OP.i32Store8, TALLY, 0),
  ]);
  return { name: 'draw', params: 2, locals: [[7, I32], [1, I64]], body };
}

/**
 * sum(m, V): Σ_i tally[i] · values[i] in four interleaved partial sums (items i ≡ 0, 1, 2, 3 mod 4,
 * the last m mod 4 items into the first) added as (p0 + p1) + (p2 + p3), into SUM; the total count
 * Σ tally[i] into DRAWN; the tally zeroed for the next resample. The partial sums run two to a
 * 128-bit register (p0, p1 and p2, p3): each lane multiplies and adds in the same order as the scalar
 * loop (WebAssembly has no fused multiply-add), so the sums are the same bits. (Two resamples' 4-bit
 * counts summed in one pass over the values were measured too: no faster once this pass is SIMD.)
 */
function sumFunction(): WasmFunction {
  const m = 0;
  const V = 1;
  const i = 2;
  const m4 = 3;
  const c = 4;
  const drawn = 5;
  // v128 locals
  const bytes = 6;
  const v01 = 7;
  const v23 = 8;
  const w = 9;
  const cnt = 10;
  const a01 = 11;
  const a23 = 12;
  // f64 locals
  const p = [13, 14, 15, 16];
  const highHalf = [...simd(SIMD.i8x16Shuffle), 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
  const valueAt = (offset: number): number[] => [...get(i), ...i32(3), OP.i32Shl, ...get(V), OP.i32Add, ...simd(SIMD.v128Load), 3, offset];
  const body = [
    ...i32(0), ...set(i),
    ...get(m), ...i32(-4), OP.i32And, ...set(m4),
    ...whileLoop([...get(i), ...get(m4), OP.i32LtU], [
      // items i … i + 3: their 4 count bytes widened to i32x4 (w), their values as two f64x2
      ...get(i), ...simd(SIMD.v128Load32Zero), 2, ...uleb(TALLY), ...simd(SIMD.i16x8ExtendLowI8x16U), ...simd(SIMD.i32x4ExtendLowI16x8U), ...set(w),
      ...valueAt(0), ...set(v01),
      ...valueAt(16), ...set(v23),
      ...get(cnt), ...get(w), ...simd(SIMD.i32x4Add), ...set(cnt),
      ...get(a01), ...get(w), ...simd(SIMD.f64x2ConvertLowI32x4U), ...get(v01), ...simd(SIMD.f64x2Mul), ...simd(SIMD.f64x2Add), ...set(a01),
      ...get(a23), ...get(w), ...get(w), ...highHalf, ...simd(SIMD.f64x2ConvertLowI32x4U), ...get(v23), ...simd(SIMD.f64x2Mul), ...simd(SIMD.f64x2Add), ...set(a23),
      ...get(i), ...i32(0), ...memory(OP.i32Store, TALLY, 0),
      ...get(i), ...i32(4), OP.i32Add, ...set(i),
    ]),
    ...get(a01), ...simd(SIMD.f64x2ExtractLane), 0, ...set(p[0]),
    ...get(a01), ...simd(SIMD.f64x2ExtractLane), 1, ...set(p[1]),
    ...get(a23), ...simd(SIMD.f64x2ExtractLane), 0, ...set(p[2]),
    ...get(a23), ...simd(SIMD.f64x2ExtractLane), 1, ...set(p[3]),
    ...[0, 1, 2, 3].flatMap((lane) => [...get(drawn), ...get(cnt), ...simd(SIMD.i32x4ExtractLane), lane, OP.i32Add, ...set(drawn)]),
    // the last m mod 4 items, scalar, into p0
    ...whileLoop([...get(i), ...get(m), OP.i32LtU], [
      ...get(i), ...memory(OP.i32Load8u, TALLY, 0), ...set(c),
      ...get(drawn), ...get(c), OP.i32Add, ...set(drawn),
      ...get(p[0]), ...get(c), OP.f64ConvertI32U, ...get(i), ...i32(3), OP.i32Shl, ...get(V), OP.i32Add, ...memory(OP.f64Load, 0, 3), OP.f64Mul, OP.f64Add, ...set(p[0]),
      ...get(i), ...i32(0), ...memory(OP.i32Store8, TALLY, 0),
      ...get(i), ...i32(1), OP.i32Add, ...set(i),
    ]),
    ...i32(0), ...get(drawn), ...memory(OP.i32Store, DRAWN, 2),
    ...i32(0), ...get(p[0]), ...get(p[1]), OP.f64Add, ...get(p[2]), ...get(p[3]), OP.f64Add, OP.f64Add, ...memory(OP.f64Store, SUM, 3),
  ];
  return { name: 'sum', params: 2, locals: [[4, I32], [7, V128], [4, F64]], body };
}

/**
 * gather(m, threshold, V): m accepted draws, their values added in draw order into SUM.
 * With `indicesOnly`, indexSum(m, threshold): the indices themselves summed, no value read (the
 * bench's index-drawing floor for these kernels, bench/floor.mjs --wasm).
 */
function gatherFunction(indicesOnly = false): WasmFunction {
  const l = { m: 0, threshold: 1, s0: 3, s1: 4, s2: 5, s3: 6, x: 7, t: 8, j: 9, p: 11 };
  const V = 2;
  const total = 10;
  const drawn = indicesOnly ? [...index(l), OP.f64ConvertI32U] : [...index(l), ...i32(3), OP.i32Shl, ...get(V), OP.i32Add, ...memory(OP.f64Load, 0, 3)];
  const body = [...drawLoop(l, [...get(total), ...drawn, OP.f64Add, ...set(total)]), ...i32(0), ...get(total), ...memory(OP.f64Store, SUM, 3)];
  return indicesOnly ? { name: 'indexSum', params: 2, locals: [[8, I32], [1, F64], [1, I64]], body } : { name: 'gather', params: 3, locals: [[7, I32], [1, F64], [1, I64]], body };
}

const tallyKernels = kernels(() => [drawFunction(), sumFunction(), gatherFunction(), gatherFunction(true)]);

/** One instance of the kernels over its own memory, sized for m items, with typed views. */
export interface TallyKernel {
  /** m accepted draws into the tally (state in `state`). */
  draw(m: number, threshold: number): void;
  /** The tally's count × value sum into `total[0]`, its total count into `state[4]`; the tally is zeroed. */
  sum(m: number, valuesAt: number): void;
  /** m accepted draws, their values added in draw order into `total[0]`. */
  gather(m: number, threshold: number, valuesAt: number): void;
  /** INTERNAL (bench/floor.mjs): m accepted draws, their indices summed into `total[0]`. */
  indexSum(m: number, threshold: number): void;
  /** state[0 … 3]: the generator state; state[4]: the last tally's total count. */
  state: Int32Array;
  /** total[0]: the last sum or gather. */
  total: Float64Array;
  /** The m values, to be filled by the caller. */
  values: Float64Array;
  valuesAt: number;
}

/**
 * A kernel instance for m items, or null where WebAssembly is unavailable. Memory: about 40 + 9m bytes,
 * freed with the instance.
 * @example tallyKernel(1 << 19)?.values.length // => 524288
 */
export function tallyKernel(m: number): TallyKernel | null {
  const valuesAt = valuesOffset(m);
  const instance = tallyKernels.instantiate(valuesAt + 8 * m);
  if (instance === null) return null;
  const { exports, buffer } = instance;
  return {
    draw: exports.draw,
    sum: exports.sum,
    gather: exports.gather,
    indexSum: exports.indexSum,
    state: new Int32Array(buffer, STATE, 5),
    total: new Float64Array(buffer, SUM, 1),
    values: new Float64Array(buffer, valuesAt, m),
    valuesAt,
  };
}
