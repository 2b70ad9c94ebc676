import { seedState, type Seed } from './seed.js';

const TWO_32 = 4294967296;

/**
 * xoshiro128** (Blackman & Vigna 2018), a small fast generator with 2^128 − 1 period.
 * The state is four public 32-bit words so a hot loop can copy them into locals, step
 * the generator inline, and write them back (see `bootstrap` for the pattern); the methods
 * here are for everything that is not a hot loop.
 * Reference: https://prng.di.unimi.it/xoshiro128starstar.c
 * @example new Xoshiro128(new Uint32Array([1, 2, 3, 4])).nextUint32() // => 11520
 */
export class Xoshiro128 {
  s0: number;
  s1: number;
  s2: number;
  s3: number;

  /** @param state four 32-bit words, not all zero. @throws {RangeError} on an all-zero or short state. */
  constructor(state: ArrayLike<number>) {
    if (state.length !== 4) throw new RangeError(`xoshiro128 state must have 4 words (got ${state.length})`);
    this.s0 = state[0] >>> 0;
    this.s1 = state[1] >>> 0;
    this.s2 = state[2] >>> 0;
    this.s3 = state[3] >>> 0;
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) throw new RangeError('xoshiro128 state must not be all zero');
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform double in [0, 1) with 53 random bits. */
  nextFloat(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /**
   * A uniform integer in [0, n) without modulo bias: draws below the largest multiple of n
   * under 2^32 are kept, the rest redrawn (at most half of all draws, for n just over 2^31).
   * @param n an integer in [1, 2^32].
   * @throws {RangeError} when n is not an integer in that range.
   */
  nextInt(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_32) {
      throw new RangeError(`nextInt needs an integer n in [1, 2^32] (got ${n})`);
    }
    const limit = TWO_32 - (TWO_32 % n);
    for (;;) {
      const x = this.nextUint32();
      if (x < limit) return x % n;
    }
  }

  /** A standard normal deviate (Box–Muller; one of the pair is discarded for simplicity). */
  nextNormal(): number {
    let u = 0;
    while (u === 0) u = this.nextFloat();
    const v = this.nextFloat();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** The four state words, e.g. to hand to a hot loop or a worker. */
  state(): Uint32Array {
    return Uint32Array.of(this.s0, this.s1, this.s2, this.s3);
  }
}

/** Rotate a 32-bit word left by k bits. */
export function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * A generator for one named stream of a seed: `createRng(seed, 'stratum', 'rare')` and
 * `createRng(seed, 'stratum', 'routine')` are independent, and each is the same on every run.
 * @example createRng(0).nextInt(6) // => a die roll, the same one every time
 */
export function createRng(seed: Seed, ...names: Array<string | number>): Xoshiro128 {
  return new Xoshiro128(seedState(seed, ...names));
}

/**
 * Fisher–Yates shuffle in place, with the randomness injected (d3-array's `shuffler`).
 * @returns the same array, shuffled.
 */
export function shuffle<T>(values: T[], rng: Xoshiro128): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const tmp = values[i];
    values[i] = values[j];
    values[j] = tmp;
  }
  return values;
}
