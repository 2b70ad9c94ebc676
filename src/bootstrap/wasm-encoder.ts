/*
 * A minimal WebAssembly binary encoder: just what the resampling kernels (tally-kernel.ts) need, so
 * their bytecode lives in readable TypeScript and no toolchain or binary file is part of the build.
 * The format: WebAssembly Core Specification 1.0 (W3C, 2019), §5 "Binary Format"; the opcodes are
 * those of its §5.4 instruction table. A function body is a flat list of bytes built from the helpers.
 */

/** Value types (§5.3.1). */
export const I32 = 0x7f;
export const I64 = 0x7e;
export const F64 = 0x7c;
export const V128 = 0x7b;

/** Opcodes used by the kernels (§5.4). */
export const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  i32Load: 0x28,
  f64Load: 0x2b,
  i32Load8u: 0x2d,
  i32Store: 0x36,
  f64Store: 0x39,
  i32Store8: 0x3a,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Xor: 0x73,
  i32Shl: 0x74,
  i32ShrU: 0x76,
  i32Rotl: 0x77,
  i64Mul: 0x7e,
  i64ShrU: 0x88,
  f64Add: 0xa0,
  f64Mul: 0xa2,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
  f64ConvertI32U: 0xb8,
} as const;

/**
 * Fixed-width SIMD opcodes (WebAssembly Core Specification 2.0, §5.4.8: prefix 0xfd, then the
 * opcode as unsigned LEB128); see `simd`.
 */
export const SIMD = {
  v128Load: 0x00,
  v128Const: 0x0c,
  i8x16Shuffle: 0x0d,
  i32x4ExtractLane: 0x1b,
  f64x2ExtractLane: 0x21,
  v128And: 0x4e,
  v128Load32Zero: 0x5c,
  i8x16ShrU: 0x6d,
  i16x8ExtendLowI8x16U: 0x89,
  i32x4ExtendLowI16x8U: 0xa9,
  i32x4Add: 0xae,
  f64x2Add: 0xf0,
  f64x2Mul: 0xf2,
  f64x2ConvertLowI32x4U: 0xff,
} as const;

/** A SIMD instruction's opcode bytes (immediates, if any, follow). */
export const simd = (op: number): number[] => [0xfd, ...uleb(op)];

/** The empty block type (a block or loop that leaves nothing on the stack). */
export const VOID = 0x40;

/** Unsigned LEB128 of a whole number in [0, 2^32). */
export function uleb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(n: number): number[] {
  const out: number[] = [];
  let v = n | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** `local.get l`. */
export const get = (l: number): number[] => [OP.localGet, ...uleb(l)];
/** `local.set l`. */
export const set = (l: number): number[] => [OP.localSet, ...uleb(l)];
/** `i32.const v`. */
export const i32 = (v: number): number[] => [OP.i32Const, ...sleb(v)];
/** A memory instruction with its alignment (log2 bytes) and constant offset. */
export const memory = (op: number, offset: number, align: number): number[] => [op, align, ...uleb(offset)];

/**
 * `while (test) { body }`: block, loop, exit when test is 0, body, branch back.
 * @param test bytes leaving an i32 on the stack.
 */
export function whileLoop(test: number[], body: number[]): number[] {
  return [OP.block, VOID, OP.loop, VOID, ...test, OP.i32Eqz, OP.brIf, 1, ...body, OP.br, 0, OP.end, OP.end];
}

/** One function: its i32 parameters, its locals as [count, type] runs, and its body (without the final `end`). */
export interface WasmFunction {
  name: string;
  params: number;
  locals: Array<[number, number]>;
  body: number[];
}

function section(id: number, bytes: number[]): number[] {
  return [id, ...uleb(bytes.length), ...bytes];
}

function vector(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
}

/**
 * A module of functions that take i32 parameters and return nothing, importing one memory
 * `env.memory` (at least one page) and exporting each function by its name.
 * @example new WebAssembly.Module(encodeModule([{ name: 'f', params: 0, locals: [], body: [] }])) // a module exporting f()
 */
export function encodeModule(functions: readonly WasmFunction[]): Uint8Array {
  const types = functions.map((f) => [0x60, ...vector(Array.from({ length: f.params }, () => [I32])), 0]);
  const imports = [[...name('env'), ...name('memory'), 0x02, 0x00, 1]];
  const exports = functions.map((f, k) => [...name(f.name), 0x00, ...uleb(k)]);
  const codes = functions.map((f) => {
    const code = [...vector(f.locals.map(([count, type]) => [...uleb(count), type])), ...f.body, OP.end];
    return [...uleb(code.length), ...code];
  });
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector(types)),
    ...section(2, vector(imports)),
    ...section(3, vector(functions.map((_, k) => uleb(k)))),
    ...section(7, vector(exports)),
    ...section(10, vector(codes)),
  ]);
}

/** The part of the WebAssembly JavaScript API the kernels use (Node's typings declare no value for it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}

const wasm: WasmApi | null = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly ?? null;

/** A lazily compiled module of kernels: instantiate(bytes) gives its exports over a fresh zeroed memory. */
export interface Kernels {
  /** The exports and the memory's buffer, or null where WebAssembly is unavailable (e.g. node --jitless) or `bytes` is past 2 GiB. */
  instantiate(bytes: number): { exports: Record<string, (...args: number[]) => void>; buffer: ArrayBuffer } | null;
}

/**
 * Kernels from functions built on first use; a module that fails to compile (no WebAssembly, or no
 * SIMD on this processor) gives null, and the caller runs its JavaScript loops instead.
 * @example kernels(() => [{ name: 'f', params: 0, locals: [], body: [] }]).instantiate(1)?.exports.f() // => undefined
 */
export function kernels(functions: () => WasmFunction[]): Kernels {
  let compiled: object | null | undefined;
  return {
    instantiate(bytes) {
      if (compiled === undefined) {
        try {
          compiled = wasm === null ? null : new wasm.Module(encodeModule(functions()));
        } catch {
          compiled = null;
        }
      }
      // Addresses are 32-bit: past 2 GiB (or when the engine will not give that much memory) the
      // caller's JavaScript loops run instead.
      const pages = Math.max(1, Math.ceil(bytes / 65536));
      if (compiled === null || wasm === null || pages > 32768) return null;
      let mem: { buffer: ArrayBuffer };
      try {
        mem = new wasm.Memory({ initial: pages });
      } catch {
        return null;
      }
      const exports = new wasm.Instance(compiled, { env: { memory: mem } }).exports as Record<string, (...args: number[]) => void>;
      return { exports, buffer: mem.buffer };
    },
  };
}
