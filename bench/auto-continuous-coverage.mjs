#!/usr/bin/env node
// Which interval `--method auto` uses for continuous paired differences at small n: coverage of the
// 95% two-sided interval and of the one-sided 95% lower bound (the gate's), BCa bootstrap vs Student
// t, over simulated paired differences with a known mean. Designs:
//   partial: A, B scores in [0, 1] (Beta(4, 1.5) and Beta(3.5, 1.5), independent: the difference is
//            bounded and skewed), true mean from the Beta means;
//   skewed:  difference = lognormal(0, 1) − e^{1/2} + 0.1 (strong right skew), true mean 0.1;
//   normal:  difference ~ N(0.05, 0.2²).
// n ∈ {10, 30, 100}; reps per cell and resamples from the flags (default 1000 reps, 999 resamples).
// Monte Carlo error of a coverage near 0.95: √(0.95·0.05/reps) = 0.0069 at 1000 reps.
// Run: npm run build && node bench/auto-continuous-coverage.mjs [--reps 1000] [--resamples 999]
import { bootstrapMean } from '../dist/bootstrap/index.js';
import { tInterval } from '../dist/paired/index.js';
import { createRng } from '../dist/random/index.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const reps = arg('--reps', 1000);
const nResamples = arg('--resamples', 999);

function gamma(rng, shape) {
  // Marsaglia–Tsang (shape ≥ 1; boost below 1).
  if (shape < 1) return gamma(rng, shape + 1) * Math.pow(rng.nextFloat(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = rng.nextNormal();
    const v = Math.pow(1 + c * x, 3);
    if (v <= 0) continue;
    const u = rng.nextFloat();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}
const beta = (rng, a, b) => {
  const x = gamma(rng, a);
  return x / (x + gamma(rng, b));
};

const designs = {
  partial: { truth: 4 / 5.5 - 3.5 / 5, draw: (rng) => beta(rng, 4, 1.5) - beta(rng, 3.5, 1.5) },
  skewed: { truth: 0.1, draw: (rng) => Math.exp(rng.nextNormal()) - Math.exp(0.5) + 0.1 },
  normal: { truth: 0.05, draw: (rng) => 0.05 + 0.2 * rng.nextNormal() },
};

console.log(`reps ${reps}, resamples ${nResamples}; MC error ≈ ${Math.sqrt((0.95 * 0.05) / reps).toFixed(4)}`);
console.log('design   n    | bca 2-sided  bca lower | t 2-sided  t lower');
for (const [name, design] of Object.entries(designs)) {
  for (const n of [10, 30, 100]) {
    const rng = createRng(`auto-continuous:${name}:${n}`);
    const hits = { bca2: 0, bcaL: 0, t2: 0, tL: 0 };
    for (let r = 0; r < reps; r++) {
      const x = Float64Array.from({ length: n }, () => design.draw(rng));
      const truth = design.truth;
      const seed = `${name}:${n}:${r}`;
      const b2 = bootstrapMean(x, { method: 'bca', nResamples, seed }).confidenceInterval;
      const bL = bootstrapMean(x, { method: 'bca', nResamples, seed, alternative: 'greater' }).confidenceInterval[0];
      const t2 = tInterval(x).confidenceInterval;
      const tL = tInterval(x, { alternative: 'greater' }).confidenceInterval[0];
      if (b2[0] <= truth && truth <= b2[1]) hits.bca2++;
      if (bL <= truth) hits.bcaL++;
      if (t2[0] <= truth && truth <= t2[1]) hits.t2++;
      if (tL <= truth) hits.tL++;
    }
    const f = (k) => (k / reps).toFixed(3);
    console.log(`${name.padEnd(8)} ${String(n).padEnd(4)} | ${f(hits.bca2)}        ${f(hits.bcaL)}     | ${f(hits.t2)}      ${f(hits.tL)}`);
  }
}
