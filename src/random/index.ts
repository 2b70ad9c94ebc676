export { type Seed, streamName, seedState } from './seed.js';
export { Xoshiro128, createRng, rotl, shuffle } from './xoshiro.js';
export { binomialVariate, binomialFromState, logFactorialOf, BINOMIAL_INVERSION_LIMIT } from './binomial.js';
