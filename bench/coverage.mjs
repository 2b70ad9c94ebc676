#!/usr/bin/env node
// benchplan's coverage study (issue 13): how often each interval method's 95% interval contains the
// true value, on a grid of designs a selection benchmark meets, with the Monte Carlo error of every
// number; and how often the non-inferiority gate passes when the true drop equals the margin.
//
// Usage: npm run coverage                      (builds, then runs this file on dist/)
//   COVERAGE_REPS=1000        replicates per cell (MC SE of a 0.95 coverage: √(0.95·0.05/R) = 0.0069 at 1000)
//   COVERAGE_RESAMPLES=1999   bootstrap resamples per interval (the CLI default is 9999; 1999 moves
//                             a 95% bootstrap end by well under its MC error and keeps the study to minutes)
//   COVERAGE_OUT=out/coverage.md   where the Markdown table goes (never a tracked file)
//   COVERAGE_ONLY=binary,cluster   run only the families whose names contain one of these words
//   COVERAGE_SEED_OFFSET=0    replicate r of a cell uses data seed hash(family|design|size|r) and
//                             resampling seed `${r}`, r = OFFSET … OFFSET + REPS − 1; the committed
//                             run used 0 (r = 0 … 999), so OFFSET=1000 gives replicates it never saw
//   COVERAGE_METHODS=auto,studentized  run only these methods (default: all)
//   COVERAGE_SIZES=30         run only these n / G (default: every size of the grid)
// Never a timed test: nothing here is asserted; it prints what it measures.
//
// Designs (true values known from the generating model):
//   paired 0/1, discordance 2% and 10% (high agreement) and ~46% (low); [0, 1] partial credit
//   (quarter points); skewed continuous differences (lognormal); skewed [0, 1] partial credit (most
//   items 0, rare large gains); all-equal (both models pass every item); each at n ∈ {3, 10, 30, 100, 400}.
//   Methods: bca, percentile, t, studentized (bootstrap-t), betting (fixed-n betting interval, only
//   where both models' scores lie in [0, 1]: n/a elsewhere) and auto.
//   clustered continuous and clustered 0/1 differences: 5, 8, 12, 30, 100 clusters of unequal size
//   (sizes 1 + ⌊lognormal⌋, mean about 5, a cluster random effect).
//   4 strata of very unequal size (70/20/7/3%): the paired mean difference with stratified resampling,
//   and the traffic-reweighted headline of one model's 0/1 scores (Wald / logit / beta).
//   gate: true candidate − baseline = −margin (0.05), 0/1 (every discordant item against the candidate,
//   and with 2% the other way), [0, 1] partial credit, continuous (normal, and unbounded skewed toward
//   the candidate's losses or its gains); the false-pass rate should be ≤ 0.05. And the gate's pass
//   rate at a true difference of 0 on the continuous designs (the price of a gate that refuses).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapMeanDifference } from '../dist/bootstrap/index.js';
import { cr2Interval } from '../dist/paired/index.js';
import { nonInferiorityFromScores } from '../dist/gate/index.js';
import * as bootstrap from '../dist/bootstrap/index.js';
import * as paired from '../dist/paired/index.js';
import { reweightedHeadline, stratumScores } from '../dist/strata/index.js';
import { bettingInterval } from '../dist/paired/betting-interval.js';
import { studentizedBootstrap } from '../dist/bootstrap/studentized.js';
import { generator, hash, skewedPartialCredit, stratifiedDesign } from './simulate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const REPS = Number(process.env.COVERAGE_REPS ?? 1000);
const B = Number(process.env.COVERAGE_RESAMPLES ?? 1999);
const OUT = resolve(root, process.env.COVERAGE_OUT ?? 'out/coverage.md');
const ONLY = (process.env.COVERAGE_ONLY ?? '').split(',').filter(Boolean);
const SEED_OFFSET = Number(process.env.COVERAGE_SEED_OFFSET ?? 0);
if (!Number.isInteger(SEED_OFFSET) || SEED_OFFSET < 0) throw new RangeError(`COVERAGE_SEED_OFFSET must be a whole number ≥ 0 (got ${process.env.COVERAGE_SEED_OFFSET})`);
const ONLY_METHODS = (process.env.COVERAGE_METHODS ?? '').split(',').filter(Boolean);
const ONLY_SIZES = (process.env.COVERAGE_SIZES ?? '').split(',').filter(Boolean).map(Number);
const LEVEL = 0.95;
const MARGIN = 0.05;
const autoPairedInterval = paired.autoPairedInterval ?? null; // from the `honest` branch; absent before it
const SIZES = [3, 10, 30, 100, 400];
const CLUSTERS = [5, 8, 12, 30, 100];

// --- designs: each returns { a, b, truth, cluster?, strata?, ... } for replicate r ---
/** Paired 0/1 with P(A right, B wrong) = p10, P(A wrong, B right) = p01, both right otherwise at rate `both`. */
function binaryPair(n, p10, p01, both, g) {
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = g.uniform();
    if (u < p10) a[i] = 1;
    else if (u < p10 + p01) b[i] = 1;
    else if (u < p10 + p01 + both) {
      a[i] = 1;
      b[i] = 1;
    }
  }
  return { a, b, truth: p10 - p01 };
}
const binomial4 = (q, g) => {
  let k = 0;
  for (let j = 0; j < 4; j++) if (g.uniform() < q) k += 1;
  return k / 4;
};
/** Beta(3, 1.5) item difficulty q by the ratio of gammas (shape 3 = sum of 3 exponentials; 1.5 via Marsaglia–Tsang would be overkill: use 1 + 0.5 as exp + squared normal / 2). */
function betaDifficulty(g) {
  const x = -Math.log(g.uniform()) - Math.log(g.uniform()) - Math.log(g.uniform());
  const z = g.normal();
  const y = -Math.log(g.uniform()) + (z * z) / 2;
  return x / (x + y);
}
const designs = {
  'binary, discordance 2%': (n, g) => binaryPair(n, 0.012, 0.008, 0.9, g),
  'binary, discordance 10%': (n, g) => binaryPair(n, 0.06, 0.04, 0.8, g),
  'binary, low agreement': (n, g) => binaryPair(n, 0.28, 0.18, 0.42, g),
  '[0,1] partial credit': (n, g) => {
    const a = new Float64Array(n);
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const q = betaDifficulty(g);
      a[i] = binomial4(q, g);
      b[i] = binomial4(0.95 * q, g);
    }
    return { a, b, truth: 0.05 * (3 / 4.5) };
  },
  'skewed continuous': (n, g) => {
    const a = new Float64Array(n);
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      b[i] = g.normal();
      a[i] = b[i] + Math.exp(g.normal()) - Math.exp(0.5) + 0.1; // lognormal(0, 1) shifted: mean 0.1
    }
    return { a, b, truth: 0.1 };
  },
  // A partial-credit metric where most items score 0 for both models and the candidate's rare gains
  // are large: differences in [−1, 1] with skewness about 4 (the bounded cousin of the lognormal cell).
  '[0,1] skewed partial credit (mostly 0, rare large gains)': skewedPartialCredit,
  'all-equal (both pass everything)': (n) => ({ a: new Float64Array(n).fill(1), b: new Float64Array(n).fill(1), truth: 0 }),
};

function clusterSizes(G, g) {
  return Array.from({ length: G }, () => 1 + Math.floor(Math.exp(1 + 0.9 * g.normal())));
}
const clusterDesigns = {
  'clustered continuous': (G, g) => {
    const sizes = clusterSizes(G, g);
    const a = [];
    const b = [];
    const cluster = [];
    sizes.forEach((m, j) => {
      const u = 0.5 * g.normal();
      for (let i = 0; i < m; i++) {
        const base = g.normal();
        b.push(base);
        a.push(base + 0.1 + u + g.normal());
        cluster.push(j);
      }
    });
    return { a: Float64Array.from(a), b: Float64Array.from(b), cluster: Int32Array.from(cluster), truth: 0.1 };
  },
  'clustered 0/1': (G, g) => {
    const sizes = clusterSizes(G, g);
    const a = [];
    const b = [];
    const cluster = [];
    sizes.forEach((m, j) => {
      // per-document discordance: a document is hard for one model (p10 or p01 raised) half the time
      const hard = g.uniform();
      const p10 = hard < 0.25 ? 0.3 : 0.04;
      const p01 = hard > 0.75 ? 0.3 : 0.04;
      for (let i = 0; i < m; i++) {
        const u = g.uniform();
        const both = g.uniform() < 0.8 ? 1 : 0; // concordant items: both right 80% of the time
        a.push(u < p10 ? 1 : u < p10 + p01 ? 0 : both);
        b.push(u < p10 ? 0 : u < p10 + p01 ? 1 : both);
        cluster.push(j);
      }
    });
    // E[p10 − p01] over documents = 0.25·0.3 + 0.75·0.04 − (0.25·0.3 + 0.75·0.04) = 0 (symmetric)
    return { a: Float64Array.from(a), b: Float64Array.from(b), cluster: Int32Array.from(cluster), truth: 0 };
  },
};

const STRATUM_SHARES = [0.7, 0.2, 0.07, 0.03];
// each stratum's differences a lognormal (skewed), scaled to the stratum's sd
const STRATUM_SDS = [0.3, 0.6, 1, 1.5];
const strataDesign = stratifiedDesign(STRATUM_SHARES, [0.02, 0.1, 0.3, -0.2], (h, z) => (STRATUM_SDS[h] * (Math.exp(z) - Math.exp(0.5))) / 2.16);
const HEADLINE_TRAFFIC = [0.72, 0.05, 0.03, 0.2];
const HEADLINE_P = [0.985, 0.7, 0.6, 0.93]; // a heavy stratum near 1: the demo's situation
const HEADLINE_P_MODERATE = [0.8, 0.6, 0.5, 0.7];
const HEADLINE_QUOTA = [0.2, 0.3, 0.25, 0.25];
const truthOf = (p) => HEADLINE_TRAFFIC.reduce((s, w, h) => s + w * p[h], 0);

// --- the methods ---
const differencesOf = (d) => Float64Array.from(d.a, (x, i) => x - d.b[i]);
const inUnit = (x) => x.every((v) => v >= 0 && v <= 1);
function bootInterval(d, method, seed, extra = {}) {
  return bootstrapMeanDifference(d.a, d.b, { method, nResamples: B, seed, confidenceLevel: LEVEL, ...extra }).confidenceInterval;
}
const pairedMethods = {
  bca: (d, seed) => bootInterval(d, 'bca', seed),
  percentile: (d, seed) => bootInterval(d, 'percentile', seed),
  t: (d, seed) => bootInterval(d, 't', seed),
  studentized: (d, seed) => studentizedBootstrap(differencesOf(d), { nResamples: B, seed, confidenceLevel: LEVEL }).confidenceInterval,
  // The betting interval needs scores in [0, 1]; on other scores it does not apply (null: the cell shows n/a).
  betting: (d, seed) => (inUnit(d.a) && inUnit(d.b) ? bettingInterval(differencesOf(d), { range: [-1, 1], seed, confidenceLevel: LEVEL }).confidenceInterval : null),
};
if (autoPairedInterval) pairedMethods.auto = (d, seed) => autoPairedInterval(d.a, d.b, { nResamples: B, seed, confidenceLevel: LEVEL }).confidenceInterval;

const clusterMethods = {
  bca: (d, seed) => bootInterval(d, 'bca', seed, { cluster: d.cluster }),
  percentile: (d, seed) => bootInterval(d, 'percentile', seed, { cluster: d.cluster }),
  't (Miller SE, G − 1 df)': (d, seed) => bootInterval(d, 't', seed, { cluster: d.cluster }),
  cr2: (d) => {
    const diff = Array.from(d.a, (x, i) => x - d.b[i]);
    return cr2Interval(diff, Array.from(d.cluster, String), { confidenceLevel: LEVEL }).confidenceInterval;
  },
};
if (autoPairedInterval) clusterMethods.auto = (d, seed) => autoPairedInterval(d.a, d.b, { nResamples: B, seed, confidenceLevel: LEVEL, cluster: d.cluster }).confidenceInterval;

const strataMethods = {
  bca: (d, seed) => bootInterval(d, 'bca', seed, { strata: d.strata }),
  percentile: (d, seed) => bootInterval(d, 'percentile', seed, { strata: d.strata }),
  t: (d, seed) => bootInterval(d, 't', seed, { strata: d.strata }),
  studentized: (d, seed) => studentizedBootstrap(differencesOf(d), { nResamples: B, seed, confidenceLevel: LEVEL, strata: d.strata }).confidenceInterval,
};
if (autoPairedInterval) strataMethods.auto = (d, seed) => autoPairedInterval(d.a, d.b, { nResamples: B, seed, confidenceLevel: LEVEL, strata: d.strata }).confidenceInterval;

// --- running a cell ---
const rows = [];
function runCell(family, design, size, generate, allMethods) {
  if (ONLY_SIZES.length > 0 && !ONLY_SIZES.includes(size)) return;
  const methods = ONLY_METHODS.length === 0 ? allMethods : Object.fromEntries(Object.entries(allMethods).filter(([m]) => ONLY_METHODS.includes(m)));
  const stats = Object.fromEntries(Object.keys(methods).map((m) => [m, { covered: 0, width: 0, finite: 0, fails: 0 }]));
  for (let r = SEED_OFFSET; r < SEED_OFFSET + REPS; r++) {
    const g = generator(hash(`${family}|${design}|${size}|${r}`));
    const d = generate(size, g);
    for (const [name, method] of Object.entries(methods)) {
      let ci;
      try {
        ci = method(d, `${r}`);
      } catch {
        stats[name].fails += 1;
        continue;
      }
      if (ci === null) {
        stats[name].notApplicable = (stats[name].notApplicable ?? 0) + 1;
        continue;
      }
      const [lo, hi] = ci;
      if (Number.isFinite(lo) && Number.isFinite(hi)) {
        stats[name].finite += 1;
        stats[name].width += hi - lo;
      }
      // a NaN interval covers nothing: an undefined interval is a failure of the method, not a pass
      if (lo <= d.truth && d.truth <= hi) stats[name].covered += 1;
    }
  }
  for (const [name, s] of Object.entries(stats)) {
    if ((s.notApplicable ?? 0) > 0) continue; // the method does not apply to this design (a table cell n/a)
    const coverage = s.covered / REPS;
    rows.push({ family, design, size, method: name, coverage, mcError: Math.sqrt((coverage * (1 - coverage)) / REPS) || Math.sqrt((0.95 * 0.05) / REPS), width: s.finite > 0 ? s.width / s.finite : NaN, undefinedShare: (REPS - s.finite) / REPS });
  }
  process.stderr.write(`  ${family} · ${design} · ${size}: ${Object.entries(stats).map(([m, s]) => `${m} ${(s.covered / REPS).toFixed(3)}`).join(', ')}\n`);
}
const wanted = (family) => ONLY.length === 0 || ONLY.some((w) => family.includes(w));

const started = Date.now();
if (wanted('paired')) for (const [design, generate] of Object.entries(designs)) for (const n of SIZES) runCell('paired', design, n, generate, pairedMethods);
if (wanted('cluster')) for (const [design, generate] of Object.entries(clusterDesigns)) for (const G of CLUSTERS) runCell('cluster', design, G, generate, clusterMethods);
if (wanted('strata')) for (const n of [30, 100, 400]) runCell('strata', 'paired mean, 4 strata 70/20/7/3%', n, strataDesign, strataMethods);
if (wanted('headline')) {
  const headlineMethods = Object.fromEntries(['wald', 'logit', 'beta', 'beta-smoothed'].map((m) => [m, (d) => reweightedHeadline(d.rows, d.weights, { confidenceLevel: LEVEL, intervalMethod: m }).interval]));
  const names = ['routine', 'rare', 'past', 'negative'];
  const weights = names.map((stratum, h) => ({ stratum, weight: HEADLINE_TRAFFIC[h] }));
  const generator = (P) => (n, g) => {
    const scores = [];
    const index = [];
    HEADLINE_QUOTA.forEach((q, h) => {
      const m = Math.max(2, Math.round(q * n));
      for (let i = 0; i < m; i++) {
        scores.push(g.uniform() < P[h] ? 1 : 0);
        index.push(h);
      }
    });
    return { rows: stratumScores(scores, index, names).strata, weights, truth: truthOf(P) };
  };
  for (const n of [30, 100, 400]) runCell('headline', '0/1 headline near 1 (strata at 0.985/0.7/0.6/0.93, traffic 72/5/3/20%, quota 20/30/25/25%)', n, generator(HEADLINE_P), headlineMethods);
  for (const n of [30, 100, 400]) runCell('headline', '0/1 headline, moderate (strata at 0.8/0.6/0.5/0.7, same traffic and quota)', n, generator(HEADLINE_P_MODERATE), headlineMethods);
}

// --- the gate's false-pass rate at true drop = margin ---
const LOGNORMAL_SD = Math.sqrt((Math.E - 1) * Math.E);
function skewedGateDesign(n, g, mean, sign) {
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    b[i] = g.uniform();
    a[i] = b[i] + mean + (sign * 0.3 * (Math.exp(g.normal()) - Math.exp(0.5))) / LOGNORMAL_SD;
  }
  return { a, b, truth: mean };
}
/** Clustered: cluster sizes as in the interval grid, a cluster effect of the given shape (sd 0.3), item noise sd 0.1. */
function clusteredGateDesign(G, g, mean, shape) {
  const sizes = clusterSizes(G, g);
  const a = [];
  const b = [];
  const cluster = [];
  sizes.forEach((m, j) => {
    const z = g.normal();
    const u = shape === 'normal' ? 0.3 * z : ((shape === 'left' ? -1 : 1) * 0.3 * (Math.exp(z) - Math.exp(0.5))) / LOGNORMAL_SD;
    for (let i = 0; i < m; i++) {
      const base = g.uniform();
      b.push(base);
      a.push(base + mean + u + 0.1 * g.normal());
      cluster.push(j);
    }
  });
  return { a: Float64Array.from(a), b: Float64Array.from(b), cluster: Int32Array.from(cluster), truth: mean };
}
const clusterGateDesigns = {
  'clustered continuous (G clusters), normal cluster effects': (G, g) => clusteredGateDesign(G, g, -0.05, 'normal'),
  'clustered continuous (G clusters), left-skewed cluster effects (rare documents with large losses)': (G, g) => clusteredGateDesign(G, g, -0.05, 'left'),
  'clustered continuous (G clusters), right-skewed cluster effects': (G, g) => clusteredGateDesign(G, g, -0.05, 'right'),
};
const gateRows = [];
const powerRows = [];
if (wanted('gate')) {
  const gateDesigns = {
    '0/1, candidate worse on 5% of items': (n, g) => binaryPair(n, 0, 0.05, 0.9, g),
    '0/1, discordance 2% / 7%': (n, g) => binaryPair(n, 0.02, 0.07, 0.85, g),
    '[0,1] partial credit, candidate loses full credit on 5%': (n, g) => {
      const a = new Float64Array(n);
      const b = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        if (g.uniform() < 0.05) {
          b[i] = 1;
          a[i] = 0;
        } else {
          b[i] = g.uniform() < 0.15 ? g.uniform() : 0;
          a[i] = b[i];
        }
      }
      return { a, b, truth: -0.05 };
    },
    'continuous, sd 0.3': (n, g) => {
      const a = new Float64Array(n);
      const b = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        b[i] = g.uniform();
        a[i] = b[i] - 0.05 + 0.3 * g.normal();
      }
      return { a, b, truth: -0.05 };
    },
    // Unbounded differences skewed toward the candidate's losses: −0.05 − 0.3 × a standardised
    // lognormal(0, 1) (skewness about −6): rare large losses, the regression a gate is for.
    'continuous, left-skewed (rare large losses), sd 0.3': (n, g) => skewedGateDesign(n, g, -0.05, -1),
    'continuous, right-skewed (rare large gains), sd 0.3': (n, g) => skewedGateDesign(n, g, -0.05, 1),
  };
  const gateMethods = ['bca', 't', ...(autoPairedInterval ? ['auto'] : [])];
  const gateGrid = [...Object.entries(gateDesigns).map(([design, generate]) => [design, generate, SIZES]), ...Object.entries(clusterGateDesigns).map(([design, generate]) => [design, generate, CLUSTERS])];
  for (const [design, generate, sizes] of gateGrid) {
    for (const n of sizes) {
      const passes = Object.fromEntries(gateMethods.map((m) => [m, 0]));
      for (let r = SEED_OFFSET; r < SEED_OFFSET + REPS; r++) {
        const g = generator(hash(`gate|${design}|${n}|${r}`));
        const d = generate(n, g);
        for (const method of gateMethods) {
          try {
            const result = nonInferiorityFromScores({ candidate: d.a, baseline: d.b, cluster: d.cluster ?? null }, { margin: MARGIN, method, nResamples: B, seed: `${r}` });
            if (result.passed) passes[method] += 1;
          } catch {
            // an input the gate refuses does not pass
          }
        }
      }
      for (const method of gateMethods) {
        const rate = passes[method] / REPS;
        gateRows.push({ design, n, method, falsePass: rate, mcError: Math.sqrt((Math.max(rate, 0.05) * (1 - Math.max(rate, 0.05))) / REPS) });
      }
      process.stderr.write(`  gate · ${design} · ${n}: ${gateMethods.map((m) => `${m} ${(passes[m] / REPS).toFixed(3)}`).join(', ')}\n`);
    }
  }
  // The price of a gate that refuses what it cannot bound: how often it passes a candidate exactly as
  // good as the baseline (true difference 0; higher is better), on the continuous designs.
  const powerDesigns = {
    'continuous, sd 0.3': (n, g) => {
      const a = new Float64Array(n);
      const b = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        b[i] = g.uniform();
        a[i] = b[i] + 0.3 * g.normal();
      }
      return { a, b, truth: 0 };
    },
    'continuous, left-skewed (rare large losses), sd 0.3': (n, g) => skewedGateDesign(n, g, 0, -1),
    'continuous, right-skewed (rare large gains), sd 0.3': (n, g) => skewedGateDesign(n, g, 0, 1),
  };
  const clusterPowerDesigns = {
    'clustered continuous (G clusters), normal cluster effects': (G, g) => clusteredGateDesign(G, g, 0, 'normal'),
    'clustered continuous (G clusters), left-skewed cluster effects (rare documents with large losses)': (G, g) => clusteredGateDesign(G, g, 0, 'left'),
  };
  const powerGrid = [...Object.entries(powerDesigns).map(([design, generate]) => [design, generate, SIZES]), ...Object.entries(clusterPowerDesigns).map(([design, generate]) => [design, generate, CLUSTERS])];
  for (const [design, generate, sizes] of powerGrid) {
    for (const n of sizes) {
      const passes = Object.fromEntries(gateMethods.map((m) => [m, 0]));
      for (let r = SEED_OFFSET; r < SEED_OFFSET + REPS; r++) {
        const d = generate(n, generator(hash(`gate-power|${design}|${n}|${r}`)));
        for (const method of gateMethods) {
          if (nonInferiorityFromScores({ candidate: d.a, baseline: d.b, cluster: d.cluster ?? null }, { margin: MARGIN, method, nResamples: B, seed: `${r}` }).passed) passes[method] += 1;
        }
      }
      for (const method of gateMethods) {
        const rate = passes[method] / REPS;
        powerRows.push({ design, n, method, falsePass: rate, mcError: Math.sqrt((rate * (1 - rate)) / REPS) || Math.sqrt((0.05 * 0.95) / REPS) });
      }
      process.stderr.write(`  gate power · ${design} · ${n}: ${gateMethods.map((m) => `${m} ${(passes[m] / REPS).toFixed(3)}`).join(', ')}\n`);
    }
  }
}
const seconds = (Date.now() - started) / 1000;

// --- the tables ---
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const methodsSeen = [...new Set(rows.map((r) => r.method))];
const out = [];
out.push(`Coverage of nominal 95% two-sided intervals: ${REPS} replicates per cell, ${B} bootstrap resamples, ${seconds.toFixed(0)} s. ± is the Monte Carlo SE √(c(1 − c)/R) (at c = 0 or 1, that of c = 0.95); width is the mean width of the finite intervals; "undefined" counts NaN intervals (BCa on a resample-constant sample), which cover nothing, and infinite ones (a studentized bootstrap whose resamples have no spread), which cover everything; n/a: the method does not apply (betting off [0, 1] scores).`);
out.push('');
const groups = [...new Set(rows.map((r) => `${r.family}|${r.design}`))];
for (const key of groups) {
  const [family, design] = key.split('|');
  const cell = rows.filter((r) => r.family === family && r.design === design);
  const methods = [...new Set(cell.map((r) => r.method))];
  const sizes = [...new Set(cell.map((r) => r.size))];
  out.push(`**${design}** (${family === 'cluster' ? 'clusters' : 'items'})`);
  out.push('');
  out.push(`| ${family === 'cluster' ? 'G' : 'n'} | ${methods.map((m) => `${m} coverage | ${m} width`).join(' | ')} |`);
  out.push(`|${' --- |'.repeat(1 + 2 * methods.length)}`);
  for (const size of sizes) {
    out.push(`| ${size} | ${methods.map((m) => {
      const r = cell.find((x) => x.method === m && x.size === size);
      if (!r) return 'n/a | n/a';
      return `${f3(r.coverage)} ± ${f3(r.mcError)}${r.undefinedShare > 0 ? ` (${Math.round(r.undefinedShare * 100)}% undefined)` : ''} | ${f3(r.width)}`;
    }).join(' | ')} |`);
  }
  out.push('');
}
// Summaries: all cells, and the cells the issue's targets count (n ≥ 10 items, or ≥ 8 clusters).
const eligible = (r) => (r.family === 'cluster' ? r.size >= 8 : r.size >= 10);
// The all-equal cell's truth is 0 and a point interval [0, 0] "covers" it: it says nothing about
// coverage (its test is the gate's false-pass rate below), so the summary leaves it out.
const summarised = (r) => !r.design.startsWith('all-equal');
out.push('**Summary per method** over the cells above except all-equal (whose truth 0 a point interval [0, 0] always "covers"; its test is the gate below)');
out.push('');
out.push('| method | cells | mean coverage | lowest coverage (cell) | mean coverage, n ≥ 10 / G ≥ 8 | lowest, n ≥ 10 / G ≥ 8 (cell) |');
out.push('| --- | --- | --- | --- | --- | --- |');
for (const m of methodsSeen) {
  const all = rows.filter((r) => r.method === m && summarised(r));
  const ok = all.filter(eligible);
  const low = (xs) => xs.reduce((best, r) => (r.coverage < best.coverage ? r : best), xs[0]);
  const mean = (xs) => xs.reduce((s, r) => s + r.coverage, 0) / xs.length;
  const name = (r) => (r ? `${f3(r.coverage)} (${r.design}, ${r.family === 'cluster' ? 'G' : 'n'} = ${r.size})` : '–');
  out.push(`| ${m} | ${all.length} | ${f3(mean(all))} | ${name(low(all))} | ${ok.length ? f3(mean(ok)) : '–'} | ${ok.length ? name(low(ok)) : '–'} |`);
}
out.push('');
if (gateRows.length > 0) {
  const gm = [...new Set(gateRows.map((r) => r.method))];
  out.push(`**Gate false-pass rate** at true drop = margin = ${MARGIN} (one-sided 95%; should be ≤ 0.05 + MC error)`);
  out.push('');
  out.push(`| design | n | ${gm.join(' | ')} |`);
  out.push(`|${' --- |'.repeat(2 + gm.length)}`);
  for (const design of [...new Set(gateRows.map((r) => r.design))]) {
    for (const n of [...new Set(gateRows.filter((r) => r.design === design).map((r) => r.n))]) {
      const cells = gm.map((m) => gateRows.find((r) => r.design === design && r.n === n && r.method === m));
      if (cells.some((c) => !c)) continue;
      out.push(`| ${design} | ${n} | ${cells.map((c) => `${f3(c.falsePass)} ± ${f3(c.mcError)}`).join(' | ')} |`);
    }
  }
  out.push('');
}
if (powerRows.length > 0) {
  const gm = [...new Set(powerRows.map((r) => r.method))];
  out.push(`**Gate pass rate** at a true difference of 0 (the candidate exactly as good; margin ${MARGIN}; higher is better: the price of refusing what the data cannot bound)`);
  out.push('');
  out.push(`| design | n | ${gm.join(' | ')} |`);
  out.push(`|${' --- |'.repeat(2 + gm.length)}`);
  for (const design of [...new Set(powerRows.map((r) => r.design))]) {
    for (const n of [...new Set(powerRows.filter((r) => r.design === design).map((r) => r.n))]) {
      const cells = gm.map((m) => powerRows.find((r) => r.design === design && r.n === n && r.method === m));
      out.push(`| ${design} | ${n} | ${cells.map((c) => `${f3(c.falsePass)} ± ${f3(c.mcError)}`).join(' | ')} |`);
    }
  }
  out.push('');
}
if (!autoPairedInterval) out.push('(`auto` is not in this build: autoPairedInterval is not exported.)');
const text = out.join('\n');
process.stdout.write(`${text}\n`);
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(`${OUT}.tmp`, `${text}\n`);
const { renameSync } = await import('node:fs');
renameSync(`${OUT}.tmp`, OUT);
process.stderr.write(`wrote ${OUT}\n`);
