#!/usr/bin/env node
// Issue 33 item 2, the one-thread path: in one process, warm, compareModels (what `compare --threads 1`
// runs) against compareModelsParallel at 2 threads on 10 models × 1,000 0/1 items under auto (Tango: no
// resampling, so threadsThatPay keeps it on one thread), paired rounds, the order alternating. Prints the
// median CPU ratio 2/1 with its 95% sign-test interval and the rounds above 1. Before the plan was shared
// the threaded entry chose every pair's interval twice: run it on a build of an older commit to compare
// (the argument is a package root holding dist/). Usage: node bench/threads-same-path.mjs [ROOT] [ROUNDS=60] [aa]

const root = process.argv[2] || new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const R = Number(process.argv[3] || 60);
const { compareModelsParallel, compareModels } = await import(`file://${root}/dist/paired/compare-models.js`);
const k = 10, n = 1000;
let s = 12345;
const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
const scores = Array.from({ length: k }, () => new Float64Array(n));
for (let i = 0; i < n; i++) { const d = rnd(); for (let m = 0; m < k; m++) scores[m][i] = rnd() < 0.3 + 0.4 * d ? 1 : 0; }
const aligned = { source: 'bench', models: scores.map((_, m) => `m${m}`), items: Array.from({ length: n }, (_, i) => `i${i}`), scores, repeats: scores.map(() => new Int32Array(n).fill(1)), repeatVariance: scores.map(() => new Float64Array(n).fill(NaN)), stratum: null, strata: [], cluster: null, clusters: [], dropped: 0, droppedItems: [] };
const cpu = async (f) => { const c0 = process.cpuUsage(); await f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
const one = () => cpu(() => compareModels(aligned, { method: 'auto' }));
// with a third argument `aa`, both sides run compareModels: the A/A ratio is the method's own noise and bias
const aa = process.argv[4] === 'aa';
const two = () => cpu(() => (aa ? compareModels(aligned, { method: 'auto' }) : compareModelsParallel(aligned, { method: 'auto', threads: 2 })));
for (let w = 0; w < 5; w++) { await one(); await two(); }
const ratios = [], ones = [];
for (let r = 0; r < R; r++) {
  let a, b;
  if (r % 2) { a = await one(); b = await two(); } else { b = await two(); a = await one(); }
  ratios.push(b / a); ones.push(a);
}
const sorted = (x) => [...x].sort((p, q) => p - q);
const med = (x) => { const v = sorted(x); const h = v.length >> 1; return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2; };
let cdf = 0, kk = 0, term = 0.5 ** R; for (let j = 0; j < R; j++) { cdf += term; if (cdf > 0.025) break; kk = j + 1; term = term * (R - j) / (j + 1); }
const v = sorted(ratios);
console.log(JSON.stringify({ root, aa, rounds: R, oneCpuMsMedian: +med(ones).toFixed(2), ratioCpuMedian: +med(ratios).toFixed(3), ci95: [+v[kk - 1].toFixed(3), +v[R - kk].toFixed(3)], above1: ratios.filter((x) => x > 1).length }));
