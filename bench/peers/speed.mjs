#!/usr/bin/env node
// In-process speed of benchplan's analytic paths against the fastest peer's analytic call (issue 29
// item 4), as ratios in one run on one machine: never a timed test. The same paired samples (0/1 and
// [0, 1] continuous, n = 100, 1,000, 10,000) go through benchplan's library (dist/: compareModels with
// method auto = what `compare` computes, autoPairedInterval, nonInferiorityFromScores) in this Node
// process and through evalstats' t interval and Tango interval, truescore's McNemar and scipy's
// ttest_rel in one Python process of .venv-peers/ (installed by `npm run peers`). Median ms per call.
// Writes bench/peers/out/speed.json; bench/peers/render.mjs puts its table into docs/peers.md.
// The machine is shared: benchplan and the peers are timed in alternation, --rounds R times (default 3:
// benchplan's calls, then the peers' process, then benchplan's again, …), each round's median kept, and
// the median of the rounds' medians reported, so a burst of load hits both sides alike.
// Usage: npm run build && node bench/peers/speed.mjs [--reps 200] [--rounds 3]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { autoPairedInterval } from '../../dist/paired/auto-interval.js';
import { compareModels } from '../../dist/paired/compare-models.js';
import { nonInferiorityFromScores } from '../../dist/gate/gate.js';
import { generator, hash } from '../simulate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const args = process.argv.slice(2);
const k = args.indexOf('--reps');
const reps = k >= 0 ? Number(args[k + 1]) : 200;
const kr = args.indexOf('--rounds');
const rounds = kr >= 0 ? Number(args[kr + 1]) : 3;
const middle = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const python = join(root, '.venv-peers', 'bin', 'python');

const sets = [];
for (const n of [100, 1000, 10000]) {
  for (const kind of ['binary', 'unit']) {
    const g = generator(hash(`speed|${kind}|${n}`));
    const a = [];
    const b = [];
    for (let i = 0; i < n; i++) {
      if (kind === 'binary') {
        const u = g.uniform();
        // 60% both right, 10% only A, 8% only B
        a.push(u < 0.6 || (u >= 0.6 && u < 0.7) ? 1 : 0);
        b.push(u < 0.6 || (u >= 0.7 && u < 0.78) ? 1 : 0);
      } else {
        const q = 0.3 + 0.4 * g.uniform();
        a.push(Math.min(1, Math.max(0, q + 0.02 + 0.15 * g.normal())));
        b.push(Math.min(1, Math.max(0, q + 0.15 * g.normal())));
      }
    }
    sets.push({ kind, n, a, b });
  }
}

// CPU time (user + sys) per call over the same calls, beside the wall-clock median: on a shared
// machine a call that waits for a core shows in the wall time, not in its CPU time.
let cpuOf = {};
function timed(fn, count, label) {
  for (let i = 0; i < 3; i++) fn();
  const ts = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const c = process.cpuUsage(c0);
  cpuOf[label] = (c.user + c.system) / 1000 / count;
  ts.sort((x, y) => x - y);
  return ts[ts.length >> 1];
}

// One round of benchplan's calls: { "kind|n": { call: median ms } } (each round's own medians)
function benchplanRound() {
  const out = {};
  const cpu = {};
  for (const s of sets) {
    const a = Float64Array.from(s.a);
    const b = Float64Array.from(s.b);
    const aligned = { models: ['A', 'B'], items: s.a.map((_, i) => `i${i}`), scores: [a, b], cluster: null, stratum: null, clusters: [], strata: [] };
    const count = Math.max(3, Math.round((s.n >= 10000 ? Math.max(10, reps / 10) : reps) / rounds));
    cpuOf = {};
    out[`${s.kind}|${s.n}`] = {
      'compareModels (auto)': timed(() => compareModels(aligned, { method: 'auto' }), count, 'compareModels (auto)'),
      autoPairedInterval: timed(() => autoPairedInterval(a, b), count, 'autoPairedInterval'),
      'gate (nonInferiorityFromScores, margin 0.05)': timed(() => nonInferiorityFromScores({ candidate: a, baseline: b }, { margin: 0.05 }), count, 'gate (nonInferiorityFromScores, margin 0.05)'),
    };
    cpu[`${s.kind}|${s.n}`] = cpuOf;
  }
  cpuRounds.push(cpu);
  return out;
}
const cpuRounds = [];
let peerError = existsSync(python) ? null : `${python} absent: run npm run peers first`;
const file = join(here, 'out', 'speed-sets.json');
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(file, JSON.stringify({ sets, reps: Math.max(3, Math.round(reps / rounds)) }));
const ours = [];
const theirs = [];
const peerCpuRounds = [];
for (let round = 0; round < rounds; round++) {
  ours.push(benchplanRound());
  if (peerError) continue;
  const r = spawnSync(python, [join(here, 'speed.py'), file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status === 0) {
    const parsed = JSON.parse(r.stdout);
    peerCpuRounds.push(parsed.cpu ?? {});
    delete parsed.cpu;
    theirs.push(parsed);
  }
  else peerError = r.stderr.trim().split('\n').slice(-3).join('\n');
}
/** The median over rounds of each call's round median. */
const across = (perRound, key) => {
  const calls = Object.keys(perRound[0]?.[key] ?? {});
  return Object.fromEntries(calls.map((c) => [c, middle(perRound.map((x) => x[key][c]))]));
};
const rows = sets.map((s) => ({ kind: s.kind, n: s.n, methodUsed: autoPairedInterval(Float64Array.from(s.a), Float64Array.from(s.b)).methodUsed, benchplan: across(ours, `${s.kind}|${s.n}`) }));
const peers = Object.fromEntries(sets.map((s) => [`${s.kind}|${s.n}`, theirs.length ? across(theirs, `${s.kind}|${s.n}`) : {}]));
for (const row of rows) row.peers = peers[`${row.kind}|${row.n}`] ?? {};
// CPU ms per call (user + sys), the median over rounds, beside the wall-clock medians above
for (const row of rows) {
  const key = `${row.kind}|${row.n}`;
  row.cpu = { benchplan: across(cpuRounds, key), peers: peerCpuRounds.length && peerCpuRounds[0][key] ? across(peerCpuRounds, key) : {} };
}
const result = { bench: 'analytic speed vs peers (issue 29 item 4)', date: new Date().toISOString(), reps, rounds, machine: { cpus: cpus().length, node: process.version, loadAverage: loadavg() }, peerError, rows };
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'speed.json'), `${JSON.stringify(result, null, 2)}\n`);
for (const row of rows) {
  const fastest = Math.min(...Object.values(row.peers));
  console.log(`${row.kind}\t${row.n}\t${row.methodUsed}\t${Object.entries(row.benchplan).map(([k2, v]) => `${k2} ${v.toFixed(3)} ms (${(v / fastest).toFixed(2)}×)`).join('\t')}\t${Object.entries(row.peers).map(([k2, v]) => `${k2} ${v.toFixed(3)}`).join('\t')}`);
}
if (peerError) console.error(peerError);
