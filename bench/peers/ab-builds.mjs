#!/usr/bin/env node
// Two builds of the library in one process, timed in alternating blocks (steady state: 300 warm-up
// calls each first), so load on the shared machine hits both alike: CPU and wall ms per call of one
// 0/1 path and their ratio, new ÷ old. The sample is bench/peers/speed.mjs's 0/1 sample of size n.
// Never a timed test; a ratio measured here.
// With KIND unit the sample is speed.mjs's [0, 1] continuous one instead (exact needs 0/1).
// Usage: npm run build && node bench/peers/ab-builds.mjs OLD_DIST NEW_DIST auto|cmp|gate|exact N [BLOCKS] [binary|unit]
//   e.g. git worktree add /tmp/old 120067d && (cd /tmp/old && npm ci && npm run build)
//        nice -n 19 node bench/peers/ab-builds.mjs /tmp/old/dist dist exact 100 21
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generator, hash } from '../simulate.mjs';

const [oldDist, newDist, which, nArg, blocksArg, kindArg] = process.argv.slice(2);
const kind = kindArg ?? 'binary';
if (kind !== 'binary' && kind !== 'unit') throw new Error(`KIND must be binary or unit (got ${kind})`);
const n = Number(nArg);
const blocks = Number(blocksArg ?? 15);
const load = async (d) => {
  const at = (file) => import(pathToFileURL(resolve(d, file)).href);
  return {
    auto: (await at('paired/auto-interval.js')).autoPairedInterval,
    cmp: (await at('paired/compare-models.js')).compareModels,
    gate: (await at('gate/gate.js')).nonInferiorityFromScores,
    exact: (await at('paired/exact-score.js')).exactScoreNonInferiority,
  };
};
const libs = { old: await load(oldDist), new: await load(newDist) };
// speed.mjs's samples: 0/1 with 60% both right, 10% only A, 8% only B; or [0, 1] scores around an item level
const g = generator(hash(`speed|${kind}|${n}`));
const a = new Float64Array(n);
const b = new Float64Array(n);
for (let i = 0; i < n; i++) {
  if (kind === 'binary') {
    const u = g.uniform();
    a[i] = u < 0.7 ? 1 : 0;
    b[i] = u < 0.6 || (u >= 0.7 && u < 0.78) ? 1 : 0;
  } else {
    const q = 0.3 + 0.4 * g.uniform();
    a[i] = Math.min(1, Math.max(0, q + 0.02 + 0.15 * g.normal()));
    b[i] = Math.min(1, Math.max(0, q + 0.15 * g.normal()));
  }
}
const aligned = { models: ['A', 'B'], items: Array.from(a, (_, i) => `i${i}`), scores: [a, b], cluster: null, stratum: null, clusters: [], strata: [] };
const counts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
for (let i = 0; i < n; i++) counts[a[i] ? (b[i] ? 'both' : 'onlyA') : b[i] ? 'onlyB' : 'neither'] += 1;
const call = (lib) => {
  if (which === 'gate') return () => lib.gate({ candidate: a, baseline: b }, { margin: 0.05 });
  if (which === 'cmp') return () => lib.cmp(aligned, { method: 'auto' });
  if (which === 'exact') return () => lib.exact(counts, -0.05);
  return () => lib.auto(a, b);
};
const fns = { old: call(libs.old), new: call(libs.new) };
const per = n >= 10000 ? 30 : 200;
for (const k of ['old', 'new']) for (let i = 0; i < 300; i++) fns[k]();
const res = { old: { wall: [], cpu: [] }, new: { wall: [], cpu: [] } };
for (let r = 0; r < blocks; r++) {
  for (const k of r % 2 ? ['new', 'old'] : ['old', 'new']) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < per; i++) fns[k]();
    const c = process.cpuUsage(c0);
    res[k].wall.push(Number(process.hrtime.bigint() - t0) / 1e6 / per);
    res[k].cpu.push((c.user + c.system) / 1000 / per);
  }
}
const med = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const o = res.old;
const w = res.new;
console.log(`${which} ${kind} n=${n}: old wall ${med(o.wall).toFixed(4)} cpu ${med(o.cpu).toFixed(4)} | new wall ${med(w.wall).toFixed(4)} cpu ${med(w.cpu).toFixed(4)} | new/old wall ${(med(w.wall) / med(o.wall)).toFixed(2)} cpu ${(med(w.cpu) / med(o.cpu)).toFixed(2)} (medians of ${blocks} blocks of ${per} calls)`);
