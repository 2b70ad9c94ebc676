import seedrandom from 'seedrandom';

/** A seed as given on the command line or in a config file. */
export type Seed = string | number;

/**
 * The name of an independent sub-stream: `${seed}:${name}:…`.
 * Deriving streams by name (a stratum, a worker chunk) means adding a stratum or a worker
 * does not shift the draws any other stream sees.
 * @example streamName(0, 'chunk', 3) // => "0:chunk:3"
 */
export function streamName(seed: Seed, ...names: Array<string | number>): string {
  return [String(seed), ...names.map(String)].join(':');
}

/**
 * Turns a seed (and optional sub-stream names) into 128 bits of generator state.
 * seedrandom's Alea hashes the seed string, so nearby seeds (0, 1) give unrelated states.
 * @param seed any string or finite number; numbers are used through their decimal string.
 * @returns four 32-bit words, never all zero (xoshiro's one forbidden state).
 * @throws {TypeError} when the seed is neither a string nor a finite number.
 */
export function seedState(seed: Seed, ...names: Array<string | number>): Uint32Array {
  if (typeof seed === 'number' ? !Number.isFinite(seed) : typeof seed !== 'string') {
    throw new TypeError(`seed must be a string or a finite number (got ${String(seed)})`);
  }
  const alea = seedrandom.alea(streamName(seed, ...names));
  const state = new Uint32Array(4);
  for (let i = 0; i < 4; i++) state[i] = alea.int32() >>> 0;
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 0x9e3779b9;
  return state;
}
