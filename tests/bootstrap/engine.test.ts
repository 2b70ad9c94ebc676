import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMean, bootstrapMeanDifference, bootstrapStatistic, signFlipTest, type BootstrapOptions } from '../../src/bootstrap/index.js';
import { holmAdjust, mcnemarFromCounts, mcnemarTest, tInterval } from '../../src/paired/index.js';
import { buildDesign, designJackknife } from '../../src/bootstrap/design.js';
import { jackknifeAcceleration } from '../../src/bootstrap/intervals.js';
import { sortedQuantile } from '../../src/bootstrap/quantile.js';
import { CHUNK_RESAMPLES, resampleIndexChunk, resampleMeanChunk } from '../../src/bootstrap/resample.js';
import { statisticJackknife } from '../../src/bootstrap/statistic.js';
import { createRng } from '../../src/random/index.js';

const meanOf = (x: ArrayLike<number>) => (indices: Int32Array) => {
  let s = 0;
  for (const i of indices) s += x[i];
  return s / indices.length;
};

function normalSample(n: number, seed: string, shift = 0): number[] {
  const rng = createRng(seed, 'sample');
  return Array.from({ length: n }, () => shift + rng.nextNormal());
}

describe('index draws', () => {
  /**
   * The draw rule, written the slow way with Xoshiro128.nextUint32: each resample takes m draws
   * x → ⌊x·m / 2^32⌋; if any draw's low word x·m mod 2^32 is below 2^32 mod m (Lemire's rejection
   * zone), the whole resample is redrawn from the stream where it stands, draw by draw, skipping
   * draws in the zone. From LARGE_GROUP_UNITS = 2^16 units on (the large-group stream, a new stream
   * since issue #19), every resample is drawn that second way only: draw by draw, skipping draws in
   * the zone, never redrawn.
   */
  let redraws = 0;
  function referenceRows(seed: string, chunk: number, m: number, resamples: number): number[][] {
    const rng = createRng(seed, 'chunk', chunk);
    const threshold = 2 ** 32 % m;
    const rows: number[][] = [];
    for (let r = 0; r < resamples; r++) {
      const row: number[] = [];
      if (m >= 2 ** 16) {
        while (row.length < m) {
          const p = rng.nextUint32() * m;
          if (p % 2 ** 32 >= threshold) row.push(Math.floor(p / 2 ** 32));
        }
        rows.push(row);
        continue;
      }
      let reject = false;
      for (let j = 0; j < m; j++) {
        const p = rng.nextUint32() * m; // exact: < 2^53
        row.push(Math.floor(p / 2 ** 32));
        if (p % 2 ** 32 < threshold) reject = true;
      }
      if (reject) {
        redraws += 1;
        row.length = 0;
        while (row.length < m) {
          const p = rng.nextUint32() * m;
          if (p % 2 ** 32 >= threshold) row.push(Math.floor(p / 2 ** 32));
        }
      }
      rows.push(row);
    }
    return rows;
  }

  it('are the xoshiro128** stream of `${seed}:chunk:${k}` mapped by Lemire multiply-shift', () => {
    // m = 49,152 = 3 · 2^14 has 2^32 mod m = 16,384, so a resample meets the rejection zone with
    // probability 1 − (1 − 16384 / 2^32)^49152 ≈ 0.17: both ways of drawing are exercised in 20.
    // m = 98,304 = 3 · 2^15 (2^32 mod m = 65,536) is past 2^16: the large-group stream.
    for (const [m, resamples] of [[1, 3], [3, 3], [10, 3], [1000, 3], [49_152, 20], [98_304, 6]]) {
      const design = buildDesign(m, {}, null);
      const rows: number[][] = [];
      resampleIndexChunk(design, 'draws', 1, CHUNK_RESAMPLES + resamples, (indices) => rows.push(Array.from(indices)));
      expect(rows).toEqual(referenceRows('draws', 1, m, resamples));
    }
    expect(redraws).toBeGreaterThan(0);
  });

  it('the mean path draws the same resamples, redraws included', () => {
    for (const [m, resamples] of [[49_152, 20], [98_304, 6]]) {
      const values = Float64Array.from({ length: m }, (_, i) => Math.sin(i));
      const design = buildDesign(m, {}, values);
      const means = new Float64Array(resamples);
      resampleMeanChunk(design, 'draws', 0, resamples, means, 0);
      referenceRows('draws', 0, m, resamples).forEach((row, r) => {
        let s = 0;
        for (const i of row) s += values[i];
        expect(means[r]).toBe(s / m);
      });
    }
  });

  it('from 2^19 items the mean path tallies the same draws and sums count × value in item order, four lanes', () => {
    // TALLY_GROUP_UNITS: Σ_i c_i v_i with partial sums over i ≡ 0, 1, 2, 3 (mod 4), added as (p0 + p1) + (p2 + p3).
    const m = 2 ** 19 + 3;
    const values = Float64Array.from({ length: m }, (_, i) => Math.sin(i));
    const design = buildDesign(m, {}, values);
    const means = new Float64Array(2);
    resampleMeanChunk(design, 'tally', 0, 2, means, 0);
    referenceRows('tally', 0, m, 2).forEach((row, r) => {
      const counts = new Int32Array(m);
      for (const i of row) counts[i]++;
      const lanes = [0, 0, 0, 0];
      const whole = m - (m % 4);
      for (let i = 0; i < whole; i++) lanes[i % 4] += counts[i] * values[i];
      for (let i = whole; i < m; i++) lanes[0] += counts[i] * values[i];
      expect(means[r]).toBe((lanes[0] + lanes[1] + (lanes[2] + lanes[3])) / m);
    });
  });

  it('from 2^21 units on, x mod m with rejection above the largest multiple of m', () => {
    const m = 2 ** 21 + 5;
    const design = buildDesign(m, {}, null);
    let first: number[] = [];
    resampleIndexChunk(design, 'big', 0, 1, (indices) => (first = Array.from(indices.subarray(0, 3000))));
    const rng = createRng('big', 'chunk', 0);
    const limit = 2 ** 32 - (2 ** 32 % m);
    for (const index of first) {
      let x = rng.nextUint32();
      while (x >= limit) x = rng.nextUint32();
      expect(index).toBe(x % m);
    }
  });

  it('are uniform: chi-square of 200,000 draws over 10 items is within its 99.9% range', () => {
    // 10 cells, 9 degrees of freedom: P(χ²₉ > 27.88) = 0.001.
    const counts = new Array<number>(10).fill(0);
    const design = buildDesign(10, {}, null);
    for (let k = 0; k < Math.ceil(20_000 / CHUNK_RESAMPLES); k++) resampleIndexChunk(design, 'uniform', k, 20_000, (ix) => ix.forEach((i) => counts[i]++));
    const expected = 20_000;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(27.88);
  });

  it('stratified resamples keep every stratum count; cluster resamples take whole clusters', () => {
    const strata = Int32Array.from([0, 0, 0, 1, 1, 2, 2, 2, 2, 1]);
    const cluster = Int32Array.from([0, 0, 1, 2, 2, 3, 3, 4, 5, 6]);
    const stratified = buildDesign(10, { strata }, null);
    resampleIndexChunk(stratified, 's', 0, 50, (ix) => {
      const perStratum = [0, 0, 0];
      for (const i of ix) perStratum[strata[i]]++;
      expect(perStratum).toEqual([3, 3, 4]);
    });
    const clustered = buildDesign(10, { cluster, strata }, null);
    resampleIndexChunk(clustered, 'c', 0, 50, (ix) => {
      const perCluster = new Map<number, number>();
      for (const i of ix) perCluster.set(cluster[i], (perCluster.get(cluster[i]) ?? 0) + 1);
      const size = [2, 1, 2, 2, 1, 1, 1];
      for (const [c, count] of perCluster) expect(count % size[c]).toBe(0);
      // clusters within strata: stratum 0 has clusters {0, 1} (2 draws), stratum 1 {2, 6}, stratum 2 {3, 4, 5}
      const clusterDraws = [0, 0, 0];
      for (const [c, count] of perCluster) clusterDraws[strata[cluster.indexOf(c)]] += count / size[c];
      expect(clusterDraws).toEqual([2, 2, 3]);
    });
  });
});

describe('the fast mean path and the generic path draw the same resamples', () => {
  const x = normalSample(60, 'x');
  const cluster = Int32Array.from({ length: 60 }, (_, i) => Math.floor(i / 4));
  const strata = Int32Array.from({ length: 60 }, (_, i) => (i < 20 ? 0 : i < 44 ? 1 : 2));
  const cases: Array<[string, BootstrapOptions]> = [
    ['items', {}],
    ['clusters', { cluster }],
    ['strata', { strata }],
    ['clusters within strata', { cluster, strata }],
  ];
  /**
   * The pooled mean as a function of the stratum distributions with the stratum sizes held fixed
   * (the statistic stratified resampling bootstraps): Σ_h m_h S'_h / m'_h over Σ_h m_h N'_h / m'_h,
   * m'_h the units (cluster draws: Σ 1/size over the stratum's items) in the index set, m_h in the data.
   * On a resample m'_h = m_h and it is the pooled mean; on a jackknife set (one unit short) it is
   * what designJackknife computes, so the generic path's BCa must match the fast path's.
   */
  const fixedCountMean = (options: BootstrapOptions) => {
    const st = options.strata ?? new Int32Array(60);
    const cl = options.cluster ?? Int32Array.from({ length: 60 }, (_, i) => i);
    const size = new Map<number, number>();
    for (const c of cl) size.set(c, (size.get(c) ?? 0) + 1);
    const units = [0, 0, 0];
    for (let i = 0; i < 60; i++) units[st[i]] += 1 / size.get(cl[i])!;
    return (ix: Int32Array) => {
      const sum = [0, 0, 0];
      const count = [0, 0, 0];
      const drawn = [0, 0, 0];
      for (const i of ix) {
        sum[st[i]] += x[i];
        count[st[i]] += 1;
        drawn[st[i]] += 1 / size.get(cl[i])!;
      }
      let top = 0;
      let bottom = 0;
      for (let h = 0; h < 3; h++) {
        if (drawn[h] === 0) continue;
        top += (units[h] * sum[h]) / drawn[h];
        bottom += (units[h] * count[h]) / drawn[h];
      }
      return top / bottom;
    };
  };
  for (const [name, design] of cases) {
    it(`${name}: every method to 1e-12`, () => {
      // Unstratified, the plain mean of the indices; stratified, the same statistic with stratum sizes held fixed.
      const statistic = design.strata ? fixedCountMean(design) : meanOf(x);
      for (const method of ['percentile', 'basic', 'bca'] as const) {
        const fast = bootstrapMean(x, { ...design, method, nResamples: 999, seed: 3 });
        const generic = bootstrapStatistic(60, statistic, { ...design, method, nResamples: 999, seed: 3 });
        expect(Math.abs(fast.estimate - generic.estimate)).toBeLessThan(1e-12);
        for (const k of [0, 1]) expect(Math.abs(fast.confidenceInterval[k] - generic.confidenceInterval[k])).toBeLessThan(1e-12);
        expect(Math.abs(fast.standardError - generic.standardError)).toBeLessThan(1e-12);
        if (method === 'bca') expect(Math.abs(fast.acceleration - generic.acceleration)).toBeLessThan(1e-12);
      }
    });
  }

  it('the O(units) jackknife equals leaving each unit out and recomputing, weighted strata included', () => {
    const weights = [0.5, 0.2, 0.3];
    const d = buildDesign(60, { cluster, strata, stratumWeights: weights }, Float64Array.from(x));
    const weightedMean = (ix: Int32Array) => {
      const sum = [0, 0, 0];
      const count = [0, 0, 0];
      for (const i of ix) {
        sum[strata[i]] += x[i];
        count[strata[i]] += 1;
      }
      return weights.reduce((s, w, h) => s + (w * sum[h]) / count[h], 0);
    };
    const fast = designJackknife(d);
    const slow = statisticJackknife(d, weightedMean);
    fast.forEach((v, u) => expect(Math.abs(v - slow[u])).toBeLessThan(1e-13));
    expect(Math.abs(jackknifeAcceleration(fast) - jackknifeAcceleration(slow))).toBeLessThan(1e-12);
  });
});

describe('stratum weights', () => {
  const x = normalSample(40, 'w', 1);
  const strata = Int32Array.from({ length: 40 }, (_, i) => i % 4);
  it('Σ w_h mean_h by hand', () => {
    const w = [0.1, 0.2, 0.3, 0.4];
    const mean = (h: number) => x.filter((_, i) => i % 4 === h).reduce((s, v) => s + v, 0) / 10;
    const hand = w.reduce((s, wh, h) => s + wh * mean(h), 0);
    expect(Math.abs(bootstrapMean(x, { strata, stratumWeights: w, nResamples: 99 }).estimate - hand)).toBeLessThan(1e-14);
  });

  it('weights proportional to the stratum sizes give the pooled mean and the same resamples', () => {
    const plain = bootstrapMean(x, { strata, nResamples: 999, method: 'percentile' });
    const weighted = bootstrapMean(x, { strata, stratumWeights: [0.25, 0.25, 0.25, 0.25], nResamples: 999, method: 'percentile' });
    expect(Math.abs(plain.estimate - weighted.estimate)).toBeLessThan(1e-14);
    for (const k of [0, 1]) expect(Math.abs(plain.confidenceInterval[k] - weighted.confidenceInterval[k])).toBeLessThan(1e-12);
  });
});

describe('degenerate data', () => {
  it('every difference equal: BCa bounds NaN with a warning; percentile and basic are the constant', () => {
    const a = [0.7, 0.7, 0.7, 0.7, 0.7];
    const b = [0.5, 0.5, 0.5, 0.5, 0.5];
    const bca = bootstrapMeanDifference(a, b);
    expect(bca.confidenceInterval[0]).toBeNaN();
    expect(bca.confidenceInterval[1]).toBeNaN();
    expect(bca.warnings.join(' ')).toMatch(/BCa interval is undefined/);
    const constant = bca.estimate;
    for (const method of ['percentile', 'basic'] as const) {
      const r = bootstrapMeanDifference(a, b, { method });
      expect(r.confidenceInterval).toEqual([constant, constant]);
      expect(r.standardError).toBe(0);
    }
    const t = bootstrapMeanDifference(a, b, { method: 't' });
    expect(t.confidenceInterval).toEqual([constant, constant]);
    expect(t.warnings.join(' ')).toMatch(/standard error is 0/);
  });

  it('a single item and a single cluster do not crash', () => {
    expect(bootstrapMean([3], { method: 'percentile' }).confidenceInterval).toEqual([3, 3]);
    const one = bootstrapMean([1, 2, 3], { cluster: Int32Array.of(0, 0, 0) });
    expect(one.nClusters).toBe(1);
    expect(one.confidenceInterval[0]).toBeNaN();
    expect(one.warnings.join(' ')).toMatch(/only 1 clusters/);
  });

  it('McNemar with b + c = 0 and the sign-flip test of all-zero differences give p = 1 with a warning', () => {
    const m = mcnemarTest([1, 0, 1], [1, 0, 1]);
    expect(m.exactPValue).toBe(1);
    expect(m.chiSquare).toBeNaN();
    expect(m.warnings[0]).toMatch(/no discordant items/);
    const s = signFlipTest([0, 0, 0, 0]);
    expect(s.pValue).toBe(1);
    expect(s.warnings[0]).toMatch(/every difference is zero/);
  });
});

describe('one-sided intervals (scipy convention: alpha = 1 − level on one side)', () => {
  const d = normalSample(30, 'one', 0.3);
  for (const method of ['percentile', 'basic', 'bca', 't'] as const) {
    it(`${method}: less keeps the upper end of the two-sided interval at level 2L − 1`, () => {
      const less = bootstrapMean(d, { method, alternative: 'less', confidenceLevel: 0.95, nResamples: 999 });
      const greater = bootstrapMean(d, { method, alternative: 'greater', confidenceLevel: 0.95, nResamples: 999 });
      const two = bootstrapMean(d, { method, confidenceLevel: 0.9, nResamples: 999 });
      expect(less.confidenceInterval[0]).toBe(-Infinity);
      expect(greater.confidenceInterval[1]).toBe(Infinity);
      // 1 − 0.95 and (1 − 0.9) / 2 differ in the last bit, so the ends agree to rounding only.
      expect(Math.abs(less.confidenceInterval[1] - two.confidenceInterval[1])).toBeLessThan(1e-12);
      expect(Math.abs(greater.confidenceInterval[0] - two.confidenceInterval[0])).toBeLessThan(1e-12);
    });
  }
});

describe('properties', () => {
  const data = fc.array(fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }), { minLength: 2, maxLength: 30 });
  it('basic is the percentile interval reflected about the estimate; percentile low ≤ high', () => {
    fc.assert(
      fc.property(data, (x) => {
        const p = bootstrapMean(x, { method: 'percentile', nResamples: 199 });
        const b = bootstrapMean(x, { method: 'basic', nResamples: 199 });
        const scale = 1e-12 * (1 + Math.max(...x.map(Math.abs)));
        expect(p.confidenceInterval[0]).toBeLessThanOrEqual(p.confidenceInterval[1]);
        expect(Math.abs(b.confidenceInterval[0] - (2 * p.estimate - p.confidenceInterval[1]))).toBeLessThanOrEqual(scale);
        expect(Math.abs(b.confidenceInterval[1] - (2 * p.estimate - p.confidenceInterval[0]))).toBeLessThanOrEqual(scale);
      }),
      { numRuns: 60 },
    );
  });

  it('the t interval always contains the estimate; the bootstrap lies within [min, max] of the data', () => {
    fc.assert(
      fc.property(data, (x) => {
        const t = tInterval(x);
        expect(t.confidenceInterval[0]).toBeLessThanOrEqual(t.estimate);
        expect(t.confidenceInterval[1]).toBeGreaterThanOrEqual(t.estimate);
        const p = bootstrapMean(x, { method: 'percentile', nResamples: 99 });
        expect(p.confidenceInterval[0]).toBeGreaterThanOrEqual(Math.min(...x) - 1e-9);
        expect(p.confidenceInterval[1]).toBeLessThanOrEqual(Math.max(...x) + 1e-9);
      }),
      { numRuns: 60 },
    );
  });

  it('Holm: adjusted ≥ raw, ≤ 1, and in the same order as the raw p-values', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }), (p) => {
        const adj = holmAdjust(p);
        adj.forEach((v, i) => {
          expect(v).toBeGreaterThanOrEqual(p[i]);
          expect(v).toBeLessThanOrEqual(1);
          for (let j = 0; j < p.length; j++) if (p[j] <= p[i]) expect(adj[j]).toBeLessThanOrEqual(v);
        });
      }),
    );
  });
});

describe('small worked examples (the JSDoc @example values)', () => {
  it('quantile type 7, Holm, sign flip, t interval, mean difference', () => {
    expect(sortedQuantile(Float64Array.of(1, 2, 3, 4), 0.5)).toBe(2.5);
    expect(holmAdjust([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    // d = 1, 2, 3: of the 8 sign vectors, (+,+,+) and (−,−,−) have |mean| ≥ 2.
    expect(signFlipTest([1, 2, 3]).pValue).toBe(0.25);
    // mean 2.5, sd √(5/3), SE = sd/2, t(3, 0.975) = 3.18244630528370959 (mpmath, 30 digits; scipy's
    // t.ppf gives 3.182446305284263, 2e-13 off)
    const t = tInterval([1, 2, 3, 4]);
    const half = 3.18244630528370959 * (Math.sqrt(5 / 3) / 2);
    expect(Math.abs(t.confidenceInterval[0] - (2.5 - half))).toBeLessThan(1e-14);
    expect(bootstrapMeanDifference([0.9, 0.8, 0.7], [0.5, 0.6, 0.7], { method: 'percentile' }).estimate).toBeCloseTo(0.2, 15);
    expect(mcnemarFromCounts(3, 0).exactPValue).toBe(0.25);
  });

  it('the randomized sign-flip p-value is (count + 1) / (B + 1), never 0', () => {
    const d = normalSample(40, 'shifted', 3);
    const r = signFlipTest(d, { nPermutations: 999 });
    expect(r.exact).toBe(false);
    expect(r.pValue).toBe(1 / 1000);
  });
});

describe('bad input to the library', () => {
  const table: Array<[string, () => unknown, RegExp]> = [
    ['non-finite value', () => bootstrapMean([1, NaN]), /x\[1\] must be a finite number \(got NaN\)/],
    ['length mismatch', () => bootstrapMeanDifference([1, 2], [1]), /same length \(got 2 and 1\)/],
    ['level', () => bootstrapMean([1, 2], { confidenceLevel: 95 }), /confidenceLevel must be a number in \(0, 1\) \(got 95\)/],
    ['resamples', () => bootstrapMean([1, 2], { nResamples: 0 }), /nResamples must be a whole number ≥ 1 \(got 0\)/],
    ['method', () => bootstrapMean([1, 2], { method: 'student' as never }), /method must be one of .* \(got student\)/],
    ['alternative', () => bootstrapMean([1, 2], { alternative: 'up' as never }), /alternative must be one of .* \(got up\)/],
    ['cluster length', () => bootstrapMean([1, 2], { cluster: Int32Array.of(0) }), /cluster must have one entry per item: 2 \(got 1\)/],
    ['cluster across strata', () => bootstrapMean([1, 2], { cluster: Int32Array.of(0, 0), strata: Int32Array.of(0, 1) }), /spans two strata/],
    ['weights without strata', () => bootstrapMean([1, 2], { stratumWeights: [1] }), /stratumWeights needs strata/],
    ['negative weight', () => bootstrapMean([1, 2], { strata: Int32Array.of(0, 1), stratumWeights: [1, -1] }), /stratumWeights\[1\] must be a finite number ≥ 0 \(got -1\)/],
    ['seed', () => bootstrapMean([1, 2], { seed: NaN }), /seed must be a string or a finite number \(got NaN\)/],
    ['t on a statistic', () => bootstrapStatistic(2, () => 0, { method: 't' }), /no 't' method/],
    ['McNemar outcome', () => mcnemarTest([1, 2], [0, 1]), /a\[1\] must be 0 or 1 for McNemar's test \(got 2\)/],
    ['Holm p', () => holmAdjust([0.5, 1.5]), /pValues\[1\] must be a probability in \[0, 1\] \(got 1.5\)/],
    ['t interval of one value', () => tInterval([1]), /at least two values \(got 1\)/],
  ];
  for (const [name, run, message] of table) it(name, () => expect(run).toThrow(message));
});
