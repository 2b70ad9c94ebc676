import { describe, expect, it } from 'vitest';
import { bootstrapMean, bootstrapMeanDifference } from '../../src/bootstrap/index.js';
import { tInterval } from '../../src/paired/index.js';
import { normalQuantile, studentTCdf } from '../../src/distributions/index.js';
import { createRng } from '../../src/random/index.js';

// Coverage on simulated normal data (n = 40, true mean 0.3, sd 1), each replication its own seed.
//
// Monte Carlo tolerance: with R replications the observed coverage of an interval whose true
// coverage is c has SD √(c (1 − c) / R): at c ≈ 0.95 and R = 4000 that is 0.0034, at R = 1500 0.0056.
// We allow 4 SD (a false alarm about 1 run in 16,000).
//
// The t interval's coverage is exactly 0.95 for normal data. The percentile and BCa intervals of a
// mean are to first order the z interval with the ddof-0 SD, whose coverage is
// c_boot = 2 · T_{n−1}(z_{0.975} · √((n − 1)/n)) − 1 (≈ 0.940 at n = 40); the O(1/n) terms this
// ignores and the noise of B = 999 resample quantiles move it by well under 0.01, which is added
// to the tolerance for the bootstrap methods.
const n = 40;
const mu = 0.3;

function sample(replication: number): number[] {
  const rng = createRng('coverage', replication);
  return Array.from({ length: n }, () => mu + rng.nextNormal());
}

function coverage(replications: number, interval: (x: number[], r: number) => [number, number]): number {
  let hits = 0;
  for (let r = 0; r < replications; r++) {
    const [low, high] = interval(sample(r), r);
    if (low <= mu && mu <= high) hits += 1;
  }
  return hits / replications;
}

const sd = (c: number, replications: number) => Math.sqrt((c * (1 - c)) / replications);

describe('coverage of 95% intervals on normal data, within Monte Carlo error', () => {
  it('t interval: 0.95 ± 4 SD (4000 replications)', () => {
    const replications = 4000;
    const observed = coverage(replications, (x) => tInterval(x).confidenceInterval);
    expect(Math.abs(observed - 0.95)).toBeLessThan(4 * sd(0.95, replications));
  });

  const expectedBoot = 2 * studentTCdf(normalQuantile(0.975) * Math.sqrt((n - 1) / n), n - 1) - 1;
  for (const method of ['percentile', 'bca'] as const) {
    it(`${method}: ${expectedBoot.toFixed(4)} ± (4 SD + 0.01) (1500 replications, 999 resamples each)`, () => {
      const replications = 1500;
      const observed = coverage(replications, (x, r) => bootstrapMean(x, { method, nResamples: 999, seed: r }).confidenceInterval);
      expect(Math.abs(observed - expectedBoot)).toBeLessThan(4 * sd(expectedBoot, replications) + 0.01);
    });
  }

  it('one-sided t interval (greater) at 90%: 0.90 ± 4 SD', () => {
    const replications = 4000;
    const observed = coverage(replications, (x) => tInterval(x, { alternative: 'greater', confidenceLevel: 0.9 }).confidenceInterval);
    expect(Math.abs(observed - 0.9)).toBeLessThan(4 * sd(0.9, replications));
  });
});

// Coverage on simulated paired 0/1 data, where bootstrapMeanDifference takes the counts path:
// n = 200 items, d = A − B ∈ {−1, 0, 1} with probabilities (0.1, 0.7, 0.2) (A right on 0.8 of the
// items, B on 0.7; true mean difference 0.1). The same replications also run on the index path.
//
// Monte Carlo tolerance, absolute: R = 1500 replications of an interval with coverage c ≈ 0.95 give
// SD √(c (1 − c) / R) = 0.0056; allowed 4 SD plus 0.01 for what the normal-theory value 0.95 leaves
// out (the O(1/n) terms of the percentile / BCa intervals at n = 200, the lattice of 1/200 the
// means live on, B = 999 resample quantiles), as in the normal-data tests above.
// Paired, between paths: per replication both intervals come from the same data, so only the
// resampling noise separates them; the number of replications where exactly one path covers
// (b + c) decides the SD of their difference b − c: √(b + c) under equal coverage (McNemar's
// normal approximation); allowed 4 SD (+ 1 for tiny counts).
describe('coverage of 95% intervals on paired 0/1 data (the counts path), within Monte Carlo error', () => {
  const nItems = 200;
  const trueDifference = 0.1;
  const replications = 1500;
  function pairedSample(replication: number): { a: number[]; b: number[] } {
    const rng = createRng('coverage-01', replication);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < nItems; i++) {
      const u = rng.nextFloat();
      // (A, B) = (1, 0) w.p. 0.2, (0, 1) w.p. 0.1, (1, 1) w.p. 0.6, (0, 0) w.p. 0.1
      const [x, y] = u < 0.2 ? [1, 0] : u < 0.3 ? [0, 1] : u < 0.9 ? [1, 1] : [0, 0];
      a.push(x);
      b.push(y);
    }
    return { a, b };
  }
  for (const method of ['percentile', 'bca'] as const) {
    it(`${method}: 0.95 ± (4 SD + 0.01), and the index path's coverage on the same data within 4 √(b + c)`, () => {
      let countsHits = 0;
      let indexHits = 0;
      let onlyCounts = 0;
      let onlyIndex = 0;
      for (let r = 0; r < replications; r++) {
        const { a, b } = pairedSample(r);
        const covers = (resamplePath: 'counts' | 'indices') => {
          const [low, high] = bootstrapMeanDifference(a, b, { method, nResamples: 999, seed: r, resamplePath }).confidenceInterval;
          return low <= trueDifference && trueDifference <= high;
        };
        const c = covers('counts');
        const i = covers('indices');
        countsHits += c ? 1 : 0;
        indexHits += i ? 1 : 0;
        if (c && !i) onlyCounts += 1;
        if (i && !c) onlyIndex += 1;
      }
      expect(Math.abs(countsHits / replications - 0.95)).toBeLessThan(4 * sd(0.95, replications) + 0.01);
      expect(Math.abs(onlyCounts - onlyIndex)).toBeLessThanOrEqual(4 * Math.sqrt(onlyCounts + onlyIndex) + 1);
      expect(Math.abs(indexHits / replications - 0.95)).toBeLessThan(4 * sd(0.95, replications) + 0.01);
    });
  }
});
