import { describe, expect, it } from 'vitest';
import { bootstrapMean, bootstrapMeanDifference, signFlipTest, type BootstrapOptions } from '../../src/bootstrap/index.js';
import { buildDesign, COUNTS_PATH_RULE, type ResampleDesign } from '../../src/bootstrap/design.js';
import { CHUNK_RESAMPLES, chunkCount, resampleMeanChunk, usesCounts } from '../../src/bootstrap/resample.js';
import { randomSignFlips } from '../../src/bootstrap/sign-flip.js';
import { chiSquareQuantile, normalPdf, normalQuantile } from '../../src/distributions/index.js';
import { binomialVariate, createRng } from '../../src/random/index.js';

// The counts path (src/bootstrap/resample.ts): a resample draws how many units of each distinct
// (sum, count) class it takes, as K − 1 conditional binomials, instead of m unit indices. It is
// exact, so it must give the same bootstrap distribution as the index path. Checked three ways:
// against the exact distribution of the resampled statistic (enumerated), against the index path
// on larger data (moments, quantiles, Kolmogorov–Smirnov), and by coverage on simulated 0/1 data.

/** The bootstrap distribution of a design, B resamples, chunk by chunk as the library draws them. */
function distributionOf(design: ResampleDesign, seed: string, B: number): Float64Array {
  const out = new Float64Array(B);
  for (let k = 0; k < chunkCount(B); k++) resampleMeanChunk(design, seed, k, B, out, k * CHUNK_RESAMPLES);
  return out;
}

/** 0/1 scores of two models on n items, A right with probability pa, B with pb, correlated. */
function pairedOutcomes(n: number, seed: string, pa = 0.8, pb = 0.72): { a: Float64Array; b: Float64Array; d: Float64Array } {
  const rng = createRng(seed, 'outcomes');
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const shared = rng.nextFloat();
    a[i] = shared < pa ? 1 : 0;
    b[i] = rng.nextFloat() < 0.7 ? (shared < pb ? 1 : 0) : rng.nextFloat() < pb ? 1 : 0;
  }
  return { a, b, d: Float64Array.from(a, (x, i) => x - b[i]) };
}

describe('which path a design takes', () => {
  it('0/1 paired differences: three classes −1, 0, 1 with their counts and sequential probabilities', () => {
    const d = Float64Array.of(1, 0, 0, -1, 1, 0, 1, 0, 0, 0);
    const design = buildDesign(10, { resamplePath: 'counts' }, d);
    expect(Array.from(design.classSum)).toEqual([-1, 0, 1]);
    expect(Array.from(design.classUnits)).toEqual([1, 6, 3]);
    // X_(−1) ~ Bin(10, 1/10); X_0 ~ Bin(rest, 6/9); X_1 = what is left.
    expect(Array.from(design.classProbability)).toEqual([1 / 10, 6 / 9, 1]);
  });

  it(`'auto' draws counts when K ≤ ${COUNTS_PATH_RULE.maxClasses} and m ≥ ${COUNTS_PATH_RULE.unitsPerBinomial} (K − 1), indices otherwise`, () => {
    const threeValued = (m: number) => Float64Array.from({ length: m }, (_, i) => (i % 3) - 1);
    const limit = 2 * COUNTS_PATH_RULE.unitsPerBinomial; // K = 3
    expect(usesCounts(buildDesign(limit, {}, threeValued(limit)))).toBe(true);
    expect(usesCounts(buildDesign(limit - 1, {}, threeValued(limit - 1)))).toBe(false);
    const normal = createRng('normal');
    const continuous = Float64Array.from({ length: 5000 }, () => normal.nextNormal());
    expect(usesCounts(buildDesign(5000, {}, continuous))).toBe(false);
    // 65 distinct values in 10,000 items: past the class cap.
    expect(usesCounts(buildDesign(10_000, {}, Float64Array.from({ length: 10_000 }, (_, i) => i % 65)))).toBe(false);
    expect(usesCounts(buildDesign(10_000, {}, Float64Array.from({ length: 10_000 }, (_, i) => i % 64)))).toBe(true);
    // forced either way; and the generic path (no values) never draws counts
    expect(usesCounts(buildDesign(5000, { resamplePath: 'counts' }, continuous))).toBe(true);
    expect(usesCounts(buildDesign(limit, { resamplePath: 'indices' }, threeValued(limit)))).toBe(false);
    expect(usesCounts(buildDesign(limit, {}, null))).toBe(false);
  });

  it('per stratum: a small stratum keeps drawing indices beside large ones drawing counts', () => {
    const { d } = pairedOutcomes(300, 'strata');
    const strata = Int32Array.from({ length: 300 }, (_, i) => (i < 20 ? 0 : i < 160 ? 1 : 2));
    const design = buildDesign(300, { strata }, d);
    expect(Array.from(design.groupCounts)).toEqual([0, 1, 1]);
  });

  it('clusters: units with the same (sum, count) pair form one class', () => {
    const x = Float64Array.of(1, 0, 1, 1, 0, 0, 1, 1);
    const cluster = Int32Array.of(0, 0, 1, 1, 2, 3, 3, 4);
    // units: {1, 0} → (1, 2); {1, 1} → (2, 2); {0} → (0, 1); {0, 1} → (1, 2); {1} → (1, 1)
    const design = buildDesign(8, { cluster, resamplePath: 'counts' }, x);
    const classes = Array.from(design.classSum, (s, k) => [s, design.classItems[k], design.classUnits[k]]);
    expect(classes).toEqual([[0, 1, 1], [1, 1, 1], [1, 2, 2], [2, 2, 1]]);
  });

  it('the class order is sorted, so shuffling the items does not change a counts-path result', () => {
    const { a, b } = pairedOutcomes(500, 'order');
    const order = Array.from({ length: 500 }, (_, i) => (i * 7919) % 500);
    const shuffledA = order.map((i) => a[i]);
    const shuffledB = order.map((i) => b[i]);
    // percentile: the BCa acceleration sums jackknife values in item order, which may round differently
    const options = { method: 'percentile' as const, nResamples: 999, seed: 'order' };
    expect(usesCounts(buildDesign(500, {}, Float64Array.from(a, (v, i) => v - b[i])))).toBe(true);
    const shuffled = bootstrapMeanDifference(shuffledA, shuffledB, options);
    const plain = bootstrapMeanDifference(a, b, options);
    // the resampled part; the analytic SE sums squares in item order and may differ in the last bit
    for (const key of ['estimate', 'confidenceInterval', 'standardError', 'bias'] as const) expect(shuffled[key]).toEqual(plain[key]);
  });
});

describe('the counts path draws from the chunk streams', () => {
  it('resample r of chunk k: K − 1 binomials from `${seed}:chunk:${k}`, class by class in sorted order', () => {
    // The draw rule written the slow way with binomialVariate on a Xoshiro128 of the chunk's stream.
    const { d } = pairedOutcomes(300, 'rule');
    const design = buildDesign(300, {}, d);
    expect(usesCounts(design)).toBe(true);
    const values = [-1, 0, 1];
    const sizes = values.map((v) => d.filter((x) => x === v).length);
    const out = new Float64Array(CHUNK_RESAMPLES + 40);
    resampleMeanChunk(design, 'rule', 1, CHUNK_RESAMPLES + 40, out, 0);
    const rng = createRng('rule', 'chunk', 1);
    for (let r = 0; r < 40; r++) {
      let left = 300;
      let rest = 300;
      let sum = 0;
      for (let k = 0; k < 3; k++) {
        const x = k === 2 ? left : binomialVariate(rng, left, sizes[k] / rest);
        sum += x * values[k];
        left -= x;
        rest -= sizes[k];
      }
      expect(out[r]).toBe(sum / 300);
    }
  });
});

/**
 * The exact bootstrap distribution of the design's statistic, by enumerating every vector of class
 * counts in every group: group g's counts (X_1 … X_K) are Multinomial(m_g; c_1/m_g, …, c_K/m_g).
 * Returns value → probability, values keyed to 12 significant digits.
 */
function exactDistribution(design: ResampleDesign): Map<string, { value: number; probability: number }> {
  const groups = design.groupStart.length - 1;
  // per group: list of (sum, count, probability)
  const perGroup: Array<Array<{ s: number; c: number; p: number }>> = [];
  for (let g = 0; g < groups; g++) {
    const m = design.groupStart[g + 1] - design.groupStart[g];
    const classes: Array<{ sum: number; items: number; p: number }> = [];
    for (let k = design.classStart[g]; k < design.classStart[g + 1]; k++) classes.push({ sum: design.classSum[k], items: design.classItems[k], p: design.classUnits[k] / m });
    const outcomes: Array<{ s: number; c: number; p: number }> = [];
    const logFactorial = (k: number) => {
      let s = 0;
      for (let i = 2; i <= k; i++) s += Math.log(i);
      return s;
    };
    const visit = (k: number, left: number, s: number, c: number, logP: number) => {
      if (k === classes.length - 1) {
        const x = left;
        outcomes.push({ s: s + x * classes[k].sum, c: c + x * classes[k].items, p: Math.exp(logP - logFactorial(x) + x * Math.log(classes[k].p) + logFactorial(m)) });
        return;
      }
      for (let x = 0; x <= left; x++) visit(k + 1, left - x, s + x * classes[k].sum, c + x * classes[k].items, logP - logFactorial(x) + x * Math.log(classes[k].p));
    };
    visit(0, m, 0, 0, 0);
    perGroup.push(outcomes);
  }
  const result = new Map<string, { value: number; probability: number }>();
  const combine = (g: number, total: number, count: number, weighted: number, p: number) => {
    if (g === groups) {
      const value = design.groupWeight !== null ? weighted : total / count;
      const key = value.toPrecision(12);
      const entry = result.get(key) ?? { value, probability: 0 };
      entry.probability += p;
      result.set(key, entry);
      return;
    }
    for (const o of perGroup[g]) {
      if (o.p === 0) continue;
      combine(g + 1, total + o.s, count + o.c, weighted + (design.groupWeight !== null ? design.groupWeight[g] * (o.s / o.c) : 0), p * o.p);
    }
  };
  combine(0, 0, 0, 0, 1);
  return result;
}

describe('both paths against the exact bootstrap distribution (χ² goodness of fit)', () => {
  const x = Float64Array.of(0, 0, 0, 0, 1, 1, 1, 2, 2, 5);
  const cases: Array<[string, number, Float64Array, BootstrapOptions]> = [
    ['items, four values', 10, x, {}],
    ['clusters of one to three items', 10, x, { cluster: Int32Array.of(0, 0, 1, 2, 2, 2, 3, 4, 4, 5) }],
    ['two weighted strata', 12, Float64Array.of(0, 1, 1, 0, 1, 0, 2, 0, 1, 2, 2, 1), { strata: Int32Array.of(0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1), stratumWeights: [0.3, 0.7] }],
  ];
  const B = 60_000;
  for (const [name, n, values, options] of cases) {
    for (const path of ['counts', 'indices'] as const) {
      it(`${name}: the ${path} path`, () => {
        const design = buildDesign(n, { ...options, resamplePath: path }, values);
        const exact = exactDistribution(buildDesign(n, { ...options, resamplePath: 'counts' }, values));
        let total = 0;
        for (const { probability } of exact.values()) total += probability;
        expect(Math.abs(total - 1)).toBeLessThan(1e-9);
        const observed = new Map<string, number>();
        const impossible: number[] = [];
        for (const v of distributionOf(design, `exact-${path}`, B)) {
          const key = v.toPrecision(12);
          if (!exact.has(key)) impossible.push(v);
          observed.set(key, (observed.get(key) ?? 0) + 1);
        }
        expect(impossible, 'resampled values the exact distribution does not have').toEqual([]);
        // Cells in value order, pooled until each expects ≥ 5; P(χ²_df > critical) = 0.001.
        const sorted = [...exact.entries()].sort((p, q) => p[1].value - q[1].value);
        const cells: Array<[number, number]> = [];
        let o = 0;
        let e = 0;
        for (const [key, { probability }] of sorted) {
          o += observed.get(key) ?? 0;
          e += B * probability;
          if (e >= 5) {
            cells.push([o, e]);
            o = 0;
            e = 0;
          }
        }
        cells[cells.length - 1][0] += o;
        cells[cells.length - 1][1] += e;
        const chi2 = cells.reduce((s, [oc, ec]) => s + (oc - ec) ** 2 / ec, 0);
        expect(cells.length).toBeGreaterThan(5);
        expect(chi2, `χ² ${chi2.toFixed(1)} on ${cells.length - 1} df`).toBeLessThan(chiSquareQuantile(0.999, cells.length - 1));
      });
    }
  }
});

/** Sorted copy. */
const sortedOf = (v: Float64Array) => Float64Array.from(v).sort();
/** Type-7 quantile of a sorted array. */
function quantile(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]);
}
/** Two-sample Kolmogorov–Smirnov statistic sup |F1 − F2|, ties handled (evaluated after each distinct value). */
function ksStatistic(x: Float64Array, y: Float64Array): number {
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i], y[j]);
    while (i < x.length && x[i] === v) i++;
    while (j < y.length && y[j] === v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  return d;
}

/**
 * Asserts that two independent samples of B draws (from the two paths, different seeds) come from
 * one distribution, with tolerances from the Monte Carlo error of each compared quantity:
 * - means: SD of the difference σ √(2/B) (σ the SD of the distribution); allowed 5 SDs.
 * - SDs: the sample SD has SE ≈ σ √((κ − 1) / (4B)) (κ the kurtosis, estimated from the pooled
 *   draws), so the difference has SD σ √((κ − 1) / (2B)); allowed 5 SDs.
 * - quantiles q = 2.5%, 10%, 50%, 90%, 97.5%: a sample quantile has SE ≈ √(q (1 − q) / B) / f(ξ_q),
 *   with the density at the quantile taken from the normal approximation, f ≈ φ(z_q) / σ (the
 *   bootstrap distribution of a mean over hundreds of units is close to normal); the difference
 *   has √2 times that; allowed 5 SDs plus one lattice step δ (the statistic lives on a lattice of
 *   spacing δ, e.g. 1/n for 0/1 differences, and a quantile of lattice values moves in steps of δ).
 * - Kolmogorov–Smirnov: D = sup |F1 − F2| below its 0.001 critical value
 *   c(0.001) √(2/B), c(α) = √(−ln(α/2) / 2) = 1.9495 (conservative for discrete data, where ties
 *   can only lower D's null distribution).
 * 5 SDs make a false alarm about 1 in 10^6 per comparison (normal tails); there are 8 per case.
 */
function expectSameDistribution(x: Float64Array, y: Float64Array, lattice: number): void {
  const B = x.length;
  expect(y.length).toBe(B);
  const mean = (v: Float64Array) => v.reduce((s, t) => s + t, 0) / v.length;
  const sd = (v: Float64Array, m: number) => Math.sqrt(v.reduce((s, t) => s + (t - m) ** 2, 0) / (v.length - 1));
  const mx = mean(x);
  const my = mean(y);
  const sx = sd(x, mx);
  const sy = sd(y, my);
  const sigma = (sx + sy) / 2;
  const pooledMean = (mx + my) / 2;
  let m4 = 0;
  for (const v of [...x, ...y]) m4 += (v - pooledMean) ** 4;
  const kurtosis = m4 / (2 * B) / sigma ** 4;
  expect(Math.abs(mx - my), 'means').toBeLessThan(5 * sigma * Math.sqrt(2 / B));
  expect(Math.abs(sx - sy), 'SDs').toBeLessThan(5 * sigma * Math.sqrt((kurtosis - 1) / (2 * B)));
  const xs = sortedOf(x);
  const ys = sortedOf(y);
  for (const q of [0.025, 0.1, 0.5, 0.9, 0.975]) {
    const se = Math.sqrt((q * (1 - q)) / B) / (normalPdf(normalQuantile(q)) / sigma);
    expect(Math.abs(quantile(xs, q) - quantile(ys, q)), `quantile ${q}`).toBeLessThan(5 * Math.SQRT2 * se + lattice);
  }
  const critical = Math.sqrt(-Math.log(0.001 / 2) / 2) * Math.sqrt(2 / B);
  expect(ksStatistic(xs, ys), 'Kolmogorov–Smirnov D').toBeLessThan(critical);
}

describe('the counts path and the index path give the same bootstrap distribution', () => {
  const B = 20_000;
  it('0/1 paired differences, 2,000 items (three classes)', () => {
    const { d } = pairedOutcomes(2000, 'agree-items');
    const counts = distributionOf(buildDesign(2000, { resamplePath: 'counts' }, d), 'c', B);
    const indices = distributionOf(buildDesign(2000, { resamplePath: 'indices' }, d), 'i', B);
    expectSameDistribution(counts, indices, 1 / 2000);
  });

  it('0/1 outcomes in 600 clusters of 1–4 slots (classes by (sum, count))', () => {
    const rng = createRng('agree-clusters');
    const cluster: number[] = [];
    for (let c = 0; c < 600; c++) for (let k = 0, size = 1 + rng.nextInt(4); k < size; k++) cluster.push(c);
    const n = cluster.length;
    const { d } = pairedOutcomes(n, 'agree-clusters');
    const options = { cluster: Int32Array.from(cluster) };
    const design = buildDesign(n, { ...options, resamplePath: 'counts' }, d);
    expect(design.classSum.length).toBeGreaterThan(10);
    const counts = distributionOf(design, 'c', B);
    const indices = distributionOf(buildDesign(n, { ...options, resamplePath: 'indices' }, d), 'i', B);
    // a ratio of sums: no single lattice; the step of the pooled mean near n items is about 1/n
    expectSameDistribution(counts, indices, 1 / n);
  });

  it('clusters within three weighted strata (Σ w_h mean_h)', () => {
    const n = 2400;
    const cluster = Int32Array.from({ length: n }, (_, i) => Math.floor(i / 3));
    const strata = Int32Array.from({ length: n }, (_, i) => (i < 600 ? 0 : i < 1500 ? 1 : 2));
    const { d } = pairedOutcomes(n, 'agree-strata');
    const options = { cluster, strata, stratumWeights: [0.5, 0.3, 0.2] };
    const counts = distributionOf(buildDesign(n, { ...options, resamplePath: 'counts' }, d), 'c', B);
    const indices = distributionOf(buildDesign(n, { ...options, resamplePath: 'indices' }, d), 'i', B);
    // lattice: the finest stratum step, w_h / n_h, is 0.2 / 900
    expectSameDistribution(counts, indices, 0.5 / 600);
  });

  it('the two paths give percentile intervals that agree within their Monte Carlo error (bootstrapMeanDifference)', () => {
    const n = 1000;
    const B = 9999;
    const { a, b } = pairedOutcomes(n, 'agree-interval');
    const counts = bootstrapMeanDifference(a, b, { method: 'percentile', nResamples: B, resamplePath: 'counts' });
    const indices = bootstrapMeanDifference(a, b, { method: 'percentile', nResamples: B, resamplePath: 'indices' });
    expect(counts.estimate).toBe(indices.estimate);
    // Each end is a 2.5% / 97.5% quantile of B draws: SE ≈ √(q (1 − q) / B) / (φ(z_q) / σ*) (see
    // expectSameDistribution), the difference √2 times that; allowed 5 SDs plus the lattice step 1/n.
    const se = Math.sqrt((0.025 * 0.975) / B) / (normalPdf(normalQuantile(0.025)) / counts.standardError);
    for (const k of [0, 1]) expect(Math.abs(counts.confidenceInterval[k] - indices.confidenceInterval[k])).toBeLessThan(5 * Math.SQRT2 * se + 1 / n);
    expect(Math.abs(counts.standardError - indices.standardError)).toBeLessThan(5 * counts.standardError * Math.sqrt(2 / (2 * B)));
  });

  it('a constant group resamples to the estimate exactly (no draws), as the index path does', () => {
    const a = new Array(100).fill(0.7);
    const b = new Array(100).fill(0.5);
    for (const resamplePath of ['counts', 'indices'] as const) {
      const r = bootstrapMeanDifference(a, b, { method: 'percentile', resamplePath });
      expect(r.confidenceInterval).toEqual([r.estimate, r.estimate]);
      expect(r.standardError).toBe(0);
    }
    expect(usesCounts(buildDesign(100, {}, Float64Array.from(a, (v, i) => v - b[i])))).toBe(true);
  });

  it('a bad resamplePath is a RangeError', () => {
    expect(() => bootstrapMean([1, 2], { resamplePath: 'fast' as never })).toThrow(/resamplePath must be auto, indices or counts \(got fast\)/);
  });
});

describe('the sign-flip test: the counts path gives the same permutation distribution', () => {
  it('0/1 paired differences: T* from both paths agree (moments, quantiles, KS)', () => {
    const n = 1500;
    const { d } = pairedOutcomes(n, 'flip');
    const contribution = Float64Array.from(d, (v) => v / n);
    const B = 20_000;
    const counts = new Float64Array(B);
    const signs = new Float64Array(B);
    // T* lies on the lattice (2j − c)/n; the sign path adds ±1/n one unit at a time and so lands
    // within rounding of the lattice points, the counts path computes (1/n)(2X − c) in one step:
    // both are put back on the lattice (T* · n rounded) so that ties are ties for KS.
    let r = 0;
    randomSignFlips(contribution, B, 'c', 'counts', (t) => (counts[r++] = Math.round(t * n)));
    r = 0;
    randomSignFlips(contribution, B, 's', 'signs', (t) => (signs[r++] = Math.round(t * n)));
    expectSameDistribution(counts, signs, 2);
  });

  it('p-values of both paths match the exact enumeration within Monte Carlo error', () => {
    // 16 units: exact by enumeration of all 2^16 sign vectors; then randomized with both paths.
    // A randomized p from B vectors has SD √(p (1 − p) / B); allowed 5 SDs (+ 1/(B + 1) for the +1).
    const d = [1, 1, 1, 1, 1, 1, 1, 0, 0, -1, 1, 1, -1, 0, 1, 1];
    const exact = signFlipTest(d);
    expect(exact.exact).toBe(true);
    const B = 40_000;
    for (const flipPath of ['counts', 'signs'] as const) {
      const randomized = signFlipTest(d, { exactMaxUnits: 0, nPermutations: B, flipPath, seed: flipPath });
      expect(randomized.exact).toBe(false);
      expect(Math.abs(randomized.pValue - exact.pValue)).toBeLessThan(5 * Math.sqrt((exact.pValue * (1 - exact.pValue)) / B) + 1 / (B + 1));
    }
    // and with three distinct |d| values, clusters and weighted strata
    const x = [2, 1, 1, 0.5, 2, -1, 1, 0.5, -0.5, 1, 2, 1, 1, 0.5, -2, 1];
    const options = { strata: Int32Array.from({ length: 16 }, (_, i) => i % 2), stratumWeights: [0.5, 0.5] };
    const exact2 = signFlipTest(x, options);
    for (const flipPath of ['counts', 'signs'] as const) {
      const randomized = signFlipTest(x, { ...options, exactMaxUnits: 0, nPermutations: B, flipPath, seed: flipPath });
      expect(Math.abs(randomized.pValue - exact2.pValue)).toBeLessThan(5 * Math.sqrt((exact2.pValue * (1 - exact2.pValue)) / B) + 1 / (B + 1));
    }
  });

  it('a bad flipPath is a RangeError', () => {
    expect(() => signFlipTest([1, 2], { flipPath: 'fast' as never })).toThrow(/flipPath must be auto, signs or counts \(got fast\)/);
  });
});
