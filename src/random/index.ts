export { type Seed, streamName, seedState } from './seed.js';
export { Xoshiro128, createRng, rotl, shuffle } from './xoshiro.js';
