#!/usr/bin/env node
// The index-drawing floor of issue #19, as a whole process: draw the B × n bootstrap indices a
// continuous-score `benchplan compare` draws (chunk k of 256 resamples from the stream `seed:chunk:k`,
// xoshiro128** inline with its state in locals, Lemire's multiply-shift; below 2^16 items a resample
// with a draw that Lemire's rule rejects is redrawn draw by draw, from 2^16 on (the large-group stream)
// every draw is taken or rejected on its own) and sum them, nothing else: no file, no statistic, no
// test. A JavaScript `benchplan compare` of n continuous items with B resamples cannot go below this (its kernels from 2^16 items are WebAssembly: see --wasm).
// With --wasm (N ≥ 2^16), the same draws in WebAssembly: the floor of the kernels benchplan runs
// from 2^16 items (src/bootstrap/tally-kernel.ts), which draw the same indices faster than this JS loop.
// Usage (after `npm run build`): node bench/floor.mjs N [B] [SEED] [--wasm]   prints one JSON line.
import { seedState } from '../dist/random/seed.js';
import { tallyKernel } from '../dist/bootstrap/tally-kernel.js';

const wasm = process.argv.includes('--wasm');
const args = process.argv.slice(2).filter((a) => a !== '--wasm');
const n = Number(args[0] ?? 100000);
const B = Number(args[1] ?? 9999);
const seed = args[2] ?? '0';
const CHUNK = 256;
const TWO_32 = 4294967296;
if (!Number.isInteger(n) || n < 1 || n >= 2097152) throw new RangeError(`N must be a whole number in [1, 2^21) (got ${args[0]})`);

/** Draws and sums the indices of resamples [k·256, min(B, (k+1)·256)) of chunk k. */
function chunkSum(k) {
  const st = new Int32Array(seedState(seed, 'chunk', k).buffer);
  let s0 = st[0];
  let s1 = st[1];
  let s2 = st[2];
  let s3 = st[3];
  const threshold = TWO_32 % n;
  const scale = n * 2.3283064365386963e-10;
  let total = 0;
  if (n >= 65536) {
    for (let r = k * CHUNK, last = Math.min(B, r + CHUNK); r < last; r++) {
      let sum = 0;
      for (let j = 0; j < n; j++) {
        const y = Math.imul(s1, 5);
        const x = Math.imul((y << 7) | (y >>> 25), 9);
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        if (Math.imul(x, n) >>> 0 < threshold) {
          j--;
          continue;
        }
        sum += ((x >>> 0) * scale) | 0;
      }
      total += sum;
    }
    return total;
  }
  for (let r = k * CHUNK, last = Math.min(B, r + CHUNK); r < last; r++) {
    let sum = 0;
    let reject = 0;
    for (let j = 0; j < n; j++) {
      const y = Math.imul(s1, 5);
      const x = Math.imul((y << 7) | (y >>> 25), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      reject |= Math.imul(x, n) >>> 0 < threshold ? 1 : 0;
      sum += ((x >>> 0) * scale) | 0;
    }
    if (reject !== 0) {
      sum = 0;
      for (let j = 0; j < n; j++) {
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
          const p = (x >>> 0) * n;
          const index = Math.floor(p * 2.3283064365386963e-10);
          if (p - index * TWO_32 >= threshold) {
            sum += index;
            break;
          }
        }
      }
    }
    total += sum;
  }
  return total;
}

/** The same draws in the WebAssembly kernel (src/bootstrap/tally-kernel.ts, indexSum): the floor of the kernels benchplan now runs from 2^16 items. */
function chunkSumWasm(k) {
  if (n < 65536) throw new RangeError('--wasm draws the large-group stream only: N must be at least 2^16');
  const kernel = tallyKernel(n);
  if (kernel === null) throw new Error('WebAssembly is unavailable');
  kernel.state.set(new Int32Array(seedState(seed, 'chunk', k).buffer));
  let total = 0;
  for (let r = k * CHUNK, last = Math.min(B, r + CHUNK); r < last; r++) {
    kernel.indexSum(n, TWO_32 % n);
    total += kernel.total[0];
  }
  return total;
}

const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
let total = 0;
for (let k = 0; k < Math.ceil(B / CHUNK); k++) total += wasm ? chunkSumWasm(k) : chunkSum(k);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const c = process.cpuUsage(c0);
process.stdout.write(`${JSON.stringify({ floor: wasm ? 'index draws summed (WebAssembly)' : 'index draws summed', n, resamples: B, seed, ms, cpuMs: (c.user + c.system) / 1000, meanIndex: total / (n * B) })}\n`);
