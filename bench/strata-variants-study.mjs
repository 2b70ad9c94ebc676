#!/usr/bin/env node
// The pre-registered study in bench/strata-variants-study.txt (its header, committed before this ran,
// fixes the variants, the designs, the replicates and the adoption rule): current `auto` against
// V1 (rescaled) and V2 (wild, Mammen) studentized bootstraps on the collapsed strata.
// Run: npm run build && nice -n 10 node bench/strata-variants-study.mjs >> bench/strata-variants-study.txt
// The grid designs are generated exactly as bench/coverage.mjs does (same generator, same data seeds
// hash(`strata|paired mean, 4 strata 70/20/7/3%|n|r`)), so the `auto` column reproduces its numbers.
import { autoPairedInterval } from '../dist/paired/index.js';
import { collapseSmallStrata } from '../dist/paired/collapse-strata.js';
import { generator, hash, stratifiedDesign } from './simulate.mjs'; // bench/coverage.mjs's, so the grid's data

const B = 1999;
const LEVEL = 0.95;

// --- designs: the grid's strataDesign generalised (shares, stratum means / sds of the difference, shape) ---
const lnSd = (s) => Math.sqrt((Math.exp(s * s) - 1) * Math.exp(s * s));
const shaped = (shares, means, sds, shape) => stratifiedDesign(shares, means, (h, z) => sds[h] * shape(z));
const GRID = 'paired mean, 4 strata 70/20/7/3%';
const designs = [
  // the grid cell: (exp(z) − exp(0.5)) / 2.16, exactly as bench/coverage.mjs
  { name: GRID, family: 'strata', sizes: [[30, 4000], [100, 2000], [400, 2000]], make: shaped([0.7, 0.2, 0.07, 0.03], [0.02, 0.1, 0.3, -0.2], [0.3, 0.6, 1, 1.5], (z) => (Math.exp(z) - Math.exp(0.5)) / 2.16) },
  { name: 'H1 60/25/10/5%, right-skewed lognormal(0, 0.8)', family: 'heldout', sizes: [[40, 4000]], make: shaped([0.6, 0.25, 0.1, 0.05], [0.05, -0.1, 0.2, 0.4], [0.4, 0.8, 1.2, 1.0], (z) => (Math.exp(0.8 * z) - Math.exp(0.32)) / lnSd(0.8)) },
  { name: 'H2 75/15/6/4%, left-skewed −lognormal(0, 0.7)', family: 'heldout', sizes: [[50, 4000]], make: shaped([0.75, 0.15, 0.06, 0.04], [0, 0.1, -0.3, 0.5], [0.5, 0.7, 1.3, 1.0], (z) => -(Math.exp(0.7 * z) - Math.exp(0.245)) / lnSd(0.7)) },
];

// --- the variants: a studentized bootstrap within the collapsed strata, built two ways ---
const MAMMEN_LOW = -(Math.sqrt(5) - 1) / 2;
const MAMMEN_HIGH = (Math.sqrt(5) + 1) / 2;
const MAMMEN_P_LOW = (Math.sqrt(5) + 1) / (2 * Math.sqrt(5));
// numpy's linear quantile; ±∞ stood in for by ±1e300 as src/bootstrap/studentized.ts does
function linearQuantile(sorted, p) {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  const q = sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  return q >= 1e250 ? Infinity : q <= -1e250 ? -Infinity : q;
}
function variantInterval(d, kind, g) {
  const collapsed = collapseSmallStrata(d.strata);
  const n = d.a.length;
  const groups = collapsed.groups.map(() => []);
  for (let i = 0; i < n; i++) groups[collapsed.strata[i]].push(d.a[i] - d.b[i]);
  const W = groups.map((y) => y.length / n);
  const means = groups.map((y) => y.reduce((s, v) => s + v, 0) / y.length);
  const s2 = groups.map((y, c) => (y.length > 1 ? y.reduce((s, v) => s + (v - means[c]) ** 2, 0) / (y.length - 1) : 0));
  const estimate = groups.reduce((s, y, c) => s + W[c] * means[c], 0);
  const se = Math.sqrt(groups.reduce((s, y, c) => s + (W[c] * W[c] * s2[c]) / y.length, 0));
  // residuals scaled by √(m/(m − 1)) in both variants
  const scaled = groups.map((y, c) => y.map((v) => (y.length > 1 ? (v - means[c]) * Math.sqrt(y.length / (y.length - 1)) : 0)));
  const t = new Float64Array(B);
  for (let k = 0; k < B; k++) {
    let est = 0;
    let variance = 0;
    for (let c = 0; c < groups.length; c++) {
      const m = groups[c].length;
      const e = scaled[c];
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < m; i++) {
        const v = kind === 'plain' ? groups[c][Math.floor(g.uniform() * m)] - means[c] : kind === 'rescaled' ? e[Math.floor(g.uniform() * m)] : e[i] * (g.uniform() < MAMMEN_P_LOW ? MAMMEN_LOW : MAMMEN_HIGH);
        sum += v;
        squares += v * v;
      }
      const mean = sum / m;
      est += W[c] * (means[c] + mean);
      if (m > 1) variance += (W[c] * W[c] * Math.max(0, (squares - m * mean * mean) / (m - 1))) / m;
    }
    const seStar = Math.sqrt(variance);
    const diff = est - estimate;
    t[k] = seStar > 0 ? diff / seStar : diff > 0 ? 1e300 : diff < 0 ? -1e300 : 0;
  }
  t.sort();
  const alpha = (1 - LEVEL) / 2;
  const qLow = linearQuantile(t, alpha);
  const qHigh = linearQuantile(t, 1 - alpha);
  return [estimate - se * qHigh, estimate - se * qLow];
}

const methods = {
  auto: (d, r) => autoPairedInterval(d.a, d.b, { nResamples: B, seed: `${r}`, confidenceLevel: LEVEL, strata: d.strata }).confidenceInterval,
  // a control, not a variant: this script's own bootstrap without rescaling, to show it matches the library's
  'control (plain, this script)': (d, r, name) => variantInterval(d, 'plain', generator(hash(`variant|plain|${name}|${d.a.length}|${r}`))),
  'V1 rescaled': (d, r, name) => variantInterval(d, 'rescaled', generator(hash(`variant|rescaled|${name}|${d.a.length}|${r}`))),
  'V2 wild': (d, r, name) => variantInterval(d, 'wild', generator(hash(`variant|wild|${name}|${d.a.length}|${r}`))),
};

const OFFSET = 1000;
const started = Date.now();
console.log(`\n## Results (node bench/strata-variants-study.mjs; ${B} resamples; replicates r = ${OFFSET} … ${OFFSET} + R − 1; ± one MC SE; width mean; paired: variant − auto, ± SE of the paired difference)`);
for (const design of designs) {
  for (const [size, R] of design.sizes) {
    const stats = Object.fromEntries(Object.keys(methods).map((m) => [m, { covered: new Uint8Array(R), width: 0 }]));
    let sizes = null;
    for (let j = 0; j < R; j++) {
      const r = OFFSET + j;
      const d = design.make(size, generator(hash(`${design.family}|${design.name}|${size}|${r}`)));
      sizes = d.sizes;
      for (const [m, f] of Object.entries(methods)) {
        const [lo, hi] = f(d, r, design.name);
        if (lo <= d.truth && d.truth <= hi) stats[m].covered[j] = 1;
        stats[m].width += hi - lo;
      }
    }
    const cov = (m) => stats.auto.covered.reduce((s, v, j) => s + stats[m].covered[j], 0) / R;
    const parts = Object.keys(methods).map((m) => {
      const c = cov(m);
      let text = `${m} ${c.toFixed(4)} ± ${Math.sqrt((c * (1 - c)) / R).toFixed(4)} (width ${(stats[m].width / R).toFixed(3)})`;
      if (m !== 'auto') {
        const delta = Array.from(stats[m].covered, (v, j) => v - stats.auto.covered[j]);
        const mean = delta.reduce((s, v) => s + v, 0) / R;
        const sd = Math.sqrt(delta.reduce((s, v) => s + (v - mean) ** 2, 0) / (R - 1));
        text += ` [${mean >= 0 ? '+' : ''}${mean.toFixed(4)} ± ${(sd / Math.sqrt(R)).toFixed(4)}]`;
      }
      return text;
    });
    console.log(`${design.name}, n = ${size} (${sizes.join('/')} items), ${R} replicates: ${parts.join('; ')}`);
  }
}
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
