import { describe, expect, it } from 'vitest';
import { flipKernel } from '../../src/bootstrap/flip-kernel.js';
import { walkTable } from '../../src/bootstrap/sign-flip.js';
import { createRng } from '../../src/random/index.js';

describe('the sign-flip table walk kernel', () => {
  it('adds the same T*, bit for bit, as the JavaScript walk (several slices, a short last batch)', () => {
    const rng = createRng('flip-kernel');
    for (const [words, size] of [[1, 1], [3, 5], [1100, 7], [1537, 64]] as const) {
      const kernel = flipKernel(words, 64);
      if (kernel === null) throw new Error('WebAssembly is unavailable');
      for (let e = 0; e < kernel.table.length; e++) kernel.table[e] = e % 16 === 0 ? 0 : -2 * (rng.nextUint32() / 2 ** 32) * Math.exp(10 * (rng.nextUint32() / 2 ** 32 - 0.5));
      for (let k = 0; k < size * words; k++) kernel.bits[k] = rng.nextUint32() | 0;
      const start = Float64Array.from({ length: 64 }, (_, r) => 1.5 + r / 3);
      kernel.sums.set(start);
      const reference = Float64Array.from(start);
      walkTable(Float64Array.from(kernel.table), Int32Array.from(kernel.bits), reference, words, size);
      kernel.walk(words, size, 512);
      for (let r = 0; r < 64; r++) expect(Object.is(kernel.sums[r], reference[r]), `words ${words}, resample ${r}`).toBe(true);
    }
  });

  it('reads the entry each nibble selects: a word of 0x76543210 takes entry k of block k', () => {
    const kernel = flipKernel(1, 1);
    if (kernel === null) throw new Error('WebAssembly is unavailable');
    for (let k = 0; k < 8; k++) kernel.table[16 * k + k] = 2 ** k; // block k, mask k
    kernel.bits[0] = 0x76543210;
    kernel.sums[0] = 0;
    kernel.walk(1, 1, 512);
    expect(kernel.sums[0]).toBe(255);
  });
});

describe('kernel memory', () => {
  it('declines (null, so the JavaScript loops run) past 2 GiB instead of throwing', () => {
    expect(flipKernel(2_200_000, 64)).toBeNull();
  });
});
