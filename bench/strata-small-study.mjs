// The registered study of bench/strata-small-study.txt (read it first: designs, methods, decision
// rules). Run after `npm run build`: node bench/strata-small-study.mjs [replicates=4000] [cells=all]
// e.g. node bench/strata-small-study.mjs 4000 A1,A2 ; prints one line per cell and method.
import seedrandom from 'seedrandom';
import { studentTQuantile, normalQuantile } from '../dist/distributions/index.js';
import { smallStrataInterval } from '../dist/strata/small-strata-interval.js';
import { reweightedHeadline } from '../dist/strata/headline.js';
import { stratifiedPpiMean } from '../dist/judge/stratified-ppi.js';
import { ppiMean } from '../dist/judge/ppi-mean.js';
import { cr2Interval } from '../dist/paired/cr2.js';

const R = Number(process.argv[2] ?? 4000);
const only = process.argv[3] ? new Set(process.argv[3].split(',')) : null;
const LEVEL = 0.95;
const rngOf = (cell, r) => seedrandom.alea(`strata-small:${cell}:${r}`);
const pick = (rng, probs) => {
  let u = rng();
  for (let k = 0; k < probs.length; k++) if ((u -= probs[k]) < 0) return k;
  return probs.length - 1;
};
const normal = (rng) => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());

class Tally {
  constructor() { this.covered = 0; this.with = 0; this.none = 0; this.width = 0; this.n = 0; }
  add(interval, truth) {
    this.n += 1;
    if (interval === null || !Number.isFinite(interval[0]) || !Number.isFinite(interval[1])) { this.none += 1; return; }
    this.with += 1;
    this.width += interval[1] - interval[0];
    if (interval[0] <= truth && truth <= interval[1]) this.covered += 1;
  }
  line() {
    const c = this.covered / this.with;
    return `coverage ${c.toFixed(3)} ± ${Math.sqrt((c * (1 - c)) / this.with).toFixed(3)} (${this.with} intervals), mean width ${(this.width / this.with).toFixed(3)}, no interval / refused ${(this.none / this.n * 100).toFixed(1)}%`;
  }
}
const report = (cell, what, tallies) => { for (const [name, t] of Object.entries(tallies)) console.log(`${cell} ${what} | ${name}: ${t.line()}`); };

// ---- A: headline differences -------------------------------------------------------------
// cells per stratum: [both right, only A, only B, both wrong]
function oldT(d, strata, weights) {
  const H = weights.length;
  const n = new Array(H).fill(0), s = new Array(H).fill(0), q = new Array(H).fill(0);
  d.forEach((x, i) => { n[strata[i]]++; s[strata[i]] += x; });
  const m = s.map((v, h) => v / n[h]);
  d.forEach((x, i) => { q[strata[i]] += (x - m[strata[i]]) ** 2; });
  let est = 0, v = 0;
  for (let h = 0; h < H; h++) { est += weights[h] * m[h]; v += weights[h] ** 2 * (q[h] / (n[h] - 1)) / n[h]; }
  const half = studentTQuantile(1 - (1 - LEVEL) / 2, d.length - H) * Math.sqrt(v);
  return [est - half, est + half];
}
function cellA(name, sizes, weights, cells) {
  if (only && !only.has(name)) return;
  const truth = weights.reduce((a, w, h) => a + w * (cells[h][1] - cells[h][2]), 0);
  const t = { old: new Tally(), new: new Tally() };
  for (let r = 0; r < R; r++) {
    const rng = rngOf(name, r);
    const d = [], strata = [];
    sizes.forEach((m, h) => { for (let i = 0; i < m; i++) { const k = pick(rng, cells[h]); d.push(k === 1 ? 1 : k === 2 ? -1 : 0); strata.push(h); } });
    t.old.add(oldT(d, strata, weights), truth);
    t.new.add(smallStrataInterval(d, Int32Array.from(strata), weights, { confidenceLevel: LEVEL }).confidenceInterval, truth);
  }
  report(name, `headline difference, ${sizes.join('/')} items, traffic ${weights.map((w) => w * 100).join('/')}%, truth ${truth.toFixed(3)}`, t);
}
const disc = (a, b) => [0.6, a, b, 1 - 0.6 - a - b];
cellA('A1', [60, 30, 5], [0.6, 0.1, 0.3], [disc(0.06, 0.04), disc(0.06, 0.04), disc(0.06, 0.04)]);
cellA('A2', [40, 15, 4], [0.5, 0.2, 0.3], [disc(0.06, 0.04), disc(0.06, 0.04), disc(0.06, 0.04)]);
cellA('A3', [60, 30, 5], [0.6, 0.1, 0.3], [disc(0.03, 0.02), disc(0.03, 0.02), [0.4, 0.3, 0.1, 0.2]]);
cellA('A4', [60, 30, 5], [0.4, 0.1, 0.5], [disc(0.06, 0.04), disc(0.06, 0.04), disc(0.12, 0.08)]);
cellA('A5', [120, 60, 8], [0.7, 0.1, 0.2], [disc(0.06, 0.04), disc(0.06, 0.04), disc(0.06, 0.04)]);

// ---- B: beta-smoothed headline ----------------------------------------------------------------
function cellB(name, sizes, weights, acc) {
  if (only && !only.has(name)) return;
  const truth = weights.reduce((a, w, h) => a + w * acc[h], 0);
  const t = { 'beta-smoothed': new Tally() };
  for (let r = 0; r < R; r++) {
    const rng = rngOf(name, r);
    const rows = sizes.map((m, h) => {
      const y = Array.from({ length: m }, () => (rng() < acc[h] ? 1 : 0));
      const mean = y.reduce((a, b) => a + b, 0) / m;
      const sd = Math.sqrt(y.reduce((a, b) => a + (b - mean) ** 2, 0) / (m - 1));
      return { stratum: `s${h}`, n: m, mean, sd, binary: true, withinUnit: true };
    });
    const hl = reweightedHeadline(rows, weights.map((w, h) => ({ stratum: `s${h}`, weight: w })), { confidenceLevel: LEVEL, intervalMethod: 'beta-smoothed' });
    t['beta-smoothed'].add(hl.interval, truth);
  }
  report(name, `beta-smoothed headline, ${sizes.join('/')} items, traffic ${weights.map((w) => w * 100).join('/')}%, accuracy ${acc.join('/')}`, t);
}
cellB('B1', [60, 30, 4], [0.6, 0.1, 0.3], [0.9, 0.7, 0.8]);
cellB('B2', [60, 30, 4], [0.6, 0.1, 0.3], [0.98, 0.9, 0.95]);
cellB('B3', [40, 15, 4], [0.5, 0.2, 0.3], [0.8, 0.6, 0.5]);

// ---- C: stratified PPI++ ------------------------------------------------------------------------
function oldPpi(strata, weights) {
  // Before this change: ppiMean per stratum (population variances), normal combination; refuses < 2 labels.
  const total = weights.reduce((a, b) => a + b, 0);
  let est = 0, v = 0;
  for (let h = 0; h < strata.length; h++) {
    if (strata[h].labels.length < 2 || strata[h].unlabelledPredictions.length < 1) return null;
    const r = ppiMean(strata[h].labels, strata[h].predictions, strata[h].unlabelledPredictions, { confidenceLevel: LEVEL });
    est += (weights[h] / total) * r.estimate;
    v += (weights[h] / total) ** 2 * r.standardError ** 2;
  }
  const half = normalQuantile(1 - (1 - LEVEL) / 2) * Math.sqrt(v);
  return v > 0 ? [est - half, est + half] : null;
}
function cellC(name, labels, traffic, judgeAccuracy) {
  if (only && !only.has(name)) return;
  const sizes = [420, 150, 30];
  const yProbs = [[0.15, 0.7, 0.15 + 0.05], [0.1, 0.7, 0.2], [0.3, 0.5, 0.2]].map((p) => { const s = p[0] + p[1] + p[2]; return p.map((x) => x / s); }); // P(Y = −1, 0, 1)
  const t = { old: new Tally(), new: new Tally() };
  for (let r = 0; r < R; r++) {
    const rng = rngOf(name, r);
    const items = [];
    sizes.forEach((m, h) => { for (let i = 0; i < m; i++) { const y = pick(rng, yProbs[h]) - 1; const f = rng() < judgeAccuracy[h] ? y : Math.floor(rng() * 3) - 1; items.push({ h, y, f }); } });
    // labels: a uniformly random subset of `labels` items (partial Fisher–Yates)
    const idx = items.map((_, i) => i);
    for (let i = 0; i < labels; i++) { const j = i + Math.floor(rng() * (idx.length - i)); [idx[i], idx[j]] = [idx[j], idx[i]]; }
    const labelled = new Set(idx.slice(0, labels));
    const weights = traffic ?? sizes;
    let truth = 0;
    const wsum = weights.reduce((a, b) => a + b, 0);
    const strata = sizes.map((_, h) => ({ stratum: `s${h}`, weight: weights[h], labels: [], predictions: [], unlabelledPredictions: [] }));
    const ysum = sizes.map(() => 0);
    items.forEach((it, i) => {
      ysum[it.h] += it.y;
      if (labelled.has(i)) { strata[it.h].labels.push(it.y); strata[it.h].predictions.push(it.f); } else strata[it.h].unlabelledPredictions.push(it.f);
    });
    for (let h = 0; h < sizes.length; h++) truth += (weights[h] / wsum) * (ysum[h] / sizes[h]);
    t.old.add(oldPpi(strata, weights), truth);
    t.new.add(stratifiedPpiMean(strata, { confidenceLevel: LEVEL }).confidenceInterval, truth);
  }
  report(name, `stratified PPI++, 420/150/30 items, ${labels} random labels, weights ${traffic ? traffic.map((w) => w * 100).join('/') + '% traffic' : 'item shares'}`, t);
}
cellC('C1', 30, null, [0.7, 0.7, 0.7]);
cellC('C2', 60, null, [0.7, 0.7, 0.7]);
cellC('C3', 30, [0.5, 0.2, 0.3], [0.7, 0.7, 0.4]);

// ---- D: cancelling clusters (CR2) ---------------------------------------------------------------
function cellD(name, G, m) {
  if (only && !only.has(name)) return;
  const shift = 0.05;
  const clip = (p) => Math.min(0.45, Math.max(0, p));
  // The truth: E[pa − pb] over the document effect u ~ N(0, 0.15²), by quadrature (clipping moves it off 0.05).
  let truth = 0;
  let mass = 0;
  for (let k = -4000; k <= 4000; k++) {
    const u = (k / 1000) * 0.15;
    const w = Math.exp(-((k / 1000) ** 2) / 2);
    truth += w * (clip(0.15 + shift / 2 + u / 2) - clip(0.15 - shift / 2 - u / 2));
    mass += w;
  }
  truth /= mass;
  const t = { old: new Tally(), new: new Tally() };
  let cancelled = 0;
  for (let r = 0; r < R; r++) {
    const rng = rngOf(name, r);
    const d = [], cl = [];
    for (let g = 0; g < G; g++) {
      const u = 0.15 * normal(rng);
      const pa = clip(0.15 + shift / 2 + u / 2);
      const pb = clip(0.15 - shift / 2 - u / 2);
      for (let i = 0; i < m; i++) { const k = pick(rng, [pa, pb, 1 - pa - pb]); d.push(k === 0 ? 1 : k === 1 ? -1 : 0); cl.push(`g${g}`); }
    }
    const res = cr2Interval(d, cl, { confidenceLevel: LEVEL });
    if (res.noInterval !== null) cancelled += 1;
    t.new.add(res.confidenceInterval, truth);
    // before: the point [estimate, estimate] when V = 0
    t.old.add(res.noInterval !== null ? [res.estimate, res.estimate] : res.confidenceInterval, truth);
  }
  report(name, `CR2, ${G} documents of ${m} items, true difference ${truth.toFixed(4)} (document effects; the truth is the expected mean), totals cancel in ${(cancelled / R * 100).toFixed(1)}%`, t);
}
cellD('D1', 4, 3);
cellD('D2', 4, 6);
cellD('D3', 6, 4);
cellD('D4', 8, 3);
