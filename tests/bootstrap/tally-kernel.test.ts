import { describe, expect, it } from 'vitest';
import { buildDesign } from '../../src/bootstrap/design.js';
import { CHUNK_RESAMPLES, jsGatherMeans, jsTallyMeans, resampleMeanChunk } from '../../src/bootstrap/resample.js';
import { tallyKernel, TALLY, valuesOffset } from '../../src/bootstrap/tally-kernel.js';
import { encodeModule, sleb, uleb } from '../../src/bootstrap/wasm-encoder.js';
import { seedState } from '../../src/random/seed.js';

describe('the WebAssembly encoder', () => {
  it('writes LEB128 as the specification does', () => {
    // The examples of the DWARF 4 standard, §7.6 (figures 22 and 23), and 624485 / −123456 of its LEB128 appendix.
    expect(uleb(2)).toEqual([2]);
    expect(uleb(127)).toEqual([127]);
    expect(uleb(128)).toEqual([0x80, 1]);
    expect(uleb(129)).toEqual([0x81, 1]);
    expect(uleb(12857)).toEqual([0xb9, 0x64]);
    expect(uleb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(sleb(2)).toEqual([2]);
    expect(sleb(-2)).toEqual([0x7e]);
    expect(sleb(127)).toEqual([0xff, 0]);
    expect(sleb(-127)).toEqual([0x81, 0x7f]);
    expect(sleb(128)).toEqual([0x80, 1]);
    expect(sleb(-128)).toEqual([0x80, 0x7f]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
  });

  it('encodes modules the engine validates', () => {
    const api = (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } }).WebAssembly;
    expect(api.validate(encodeModule([{ name: 'f', params: 2, locals: [], body: [] }]))).toBe(true);
    expect(api.validate(Uint8Array.of(0, 0x61, 0x73, 0x6d, 2, 0, 0, 0))).toBe(false);
    expect(tallyKernel(1)).not.toBeNull();
  });
});

describe('the large-group kernels', () => {
  const chunkState = (seed: string, chunk: number): Int32Array => new Int32Array(seedState(seed, 'chunk', chunk).buffer);

  function compare(m: number, seed: string, chunk: number, resamples: number, js: typeof jsTallyMeans): void {
    const values = Float64Array.from({ length: m }, (_, i) => Math.sin(i * 0.37) * 3 + (i % 7) / 3);
    const design = buildDesign(m, {}, values);
    const kernel = new Float64Array(resamples);
    resampleMeanChunk(design, seed, chunk, chunk * CHUNK_RESAMPLES + resamples, kernel, 0);
    const reference = new Float64Array(resamples);
    js(values, m, chunkState(seed, chunk), resamples, reference, 0);
    for (let r = 0; r < resamples; r++) expect(Object.is(kernel[r], reference[r]), `m = ${m}, resample ${r}`).toBe(true);
  }

  it('tally: the same resample means, bit for bit, as the JavaScript loop (every m mod 4)', () => {
    for (const [m, seed, chunk] of [[2 ** 19, 'a', 0], [2 ** 19 + 1, 'b', 3], [2 ** 19 + 2, 'c', 1], [2 ** 19 + 3, '7', 2]] as const) compare(m, seed, chunk, 3, jsTallyMeans);
  });

  it('gather: the same resample means, bit for bit, as the JavaScript loop', () => {
    for (const [m, seed, chunk] of [[2 ** 16, 'a', 0], [98_304, 'b', 2], [2 ** 19 - 1, 'c', 1]] as const) compare(m, seed, chunk, 4, jsGatherMeans);
  });

  it('leaves the generator where the JavaScript loop does, and zeroes its tally after each sum', () => {
    const m = 2 ** 19 + 1;
    const values = new Float64Array(m).fill(1);
    const a = chunkState('s', 0);
    const b = chunkState('s', 0);
    const out = new Float64Array(2);
    jsTallyMeans(values, m, a, 2, out, 0);
    expect(Array.from(out)).toEqual([1, 1]);
    const kernel = tallyKernel(m);
    expect(kernel).not.toBeNull();
    if (kernel === null) return;
    kernel.values.set(values);
    kernel.state.set(b);
    for (let r = 0; r < 2; r++) {
      kernel.draw(m, 2 ** 32 % m);
      kernel.sum(m, kernel.valuesAt);
      expect(kernel.state[4]).toBe(m);
      expect(kernel.total[0]).toBe(m);
    }
    expect(Array.from(kernel.state.subarray(0, 4))).toEqual(Array.from(a));
    expect(valuesOffset(m) % 8).toBe(0);
    expect(valuesOffset(m)).toBeGreaterThanOrEqual(TALLY + m);
  });
});
