#!/usr/bin/env node
// R4 preview on the peers' gate cells (bench/peers/real-gate-cells.txt, addendum): what the gate would
// pass under rule R4 of bench/comet-gate-rules.txt (today's rule with t's one-sided level raised from
// 95% to 97.5%), on the same seeded replicates the peers saw. A diagnostic for the lead, not benchplan's
// row: that comes from re-running run.mjs after R4 is merged.
//
// R4 is derived from the gate's own result on each replicate, so nothing of the gate is re-implemented:
// R4's bound is below today's t bound and equal to it on the betting branch, so R4 passes iff the gate
// passes today AND (the gate used betting, or mean − t(0.975; n − 1)·s/√n > −margin). The script checks
// on every replicate where the gate used t that its bound equals mean − t(0.95; n − 1)·s/√n (to 1e-12).
//
//   npm run build && nice -n 19 node bench/peers/r4-preview.mjs [--reps 500] [--json FILE]
// Skips the real cells with a printed line when /work/shared/real-logs is absent.
import { writeFileSync } from 'node:fs';
import { nonInferiorityFromScores } from '../../dist/gate/gate.js';
import { studentTQuantile } from '../../dist/distributions/distributions.js';
import { cells as makeCells, replicate } from './designs.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const REPS = Number(flag('--reps', '500'));
const FAMILIES = ['gate-partial-drop', 'gate-partial-zero', 'gate-comet-drop', 'gate-comet-zero', 'gate-bleu-drop', 'gate-bleu-zero'];

function tBound(a, b, level) {
  const n = a.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += a[i] - b[i];
  m /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (a[i] - b[i] - m) ** 2;
  return m - studentTQuantile(level, n - 1) * Math.sqrt(ss / (n - 1) / n);
}

const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
const out = [];
for (const cell of makeCells({ quick: false }).cells) {
  if (!FAMILIES.includes(cell.family)) continue;
  if (cell.skipped) {
    console.log(`${cell.design}, n = ${cell.size}: skipped (${cell.skipped})`);
    continue;
  }
  let today = 0;
  let r4 = 0;
  const used = {};
  for (let r = 0; r < REPS; r++) {
    const rep = replicate(cell, r);
    const res = nonInferiorityFromScores({ candidate: rep.a, baseline: rep.b }, { margin: cell.margin, seed: r });
    used[res.methodUsed] = (used[res.methodUsed] ?? 0) + 1;
    if (res.methodUsed === 't') {
      const check = tBound(rep.a, rep.b, 0.95);
      // written so a missing bound (undefined → NaN) fails the check too
      if (!(Math.abs(check - res.overall.lowerBound) <= 1e-12)) throw new Error(`${cell.family}:${cell.size} r = ${r}: the gate's t bound ${res.overall.lowerBound} is not mean − t(0.95)·SE = ${check}`);
    }
    if (!res.passed) continue;
    today += 1;
    if (res.methodUsed !== 't' || tBound(rep.a, rep.b, 0.975) > -cell.margin) r4 += 1;
  }
  const se = (p) => Math.sqrt((p * (1 - p)) / REPS);
  const row = { family: cell.family, design: cell.design, n: cell.size, margin: cell.margin, role: cell.role, replicates: REPS, today: today / REPS, r4: r4 / REPS, methodUsed: used };
  out.push(row);
  console.log(`${cell.design.padEnd(96)} n = ${String(cell.size).padStart(3)}  today ${row.today.toFixed(3)} ± ${se(row.today).toFixed(3)}  R4 ${row.r4.toFixed(3)} ± ${se(row.r4).toFixed(3)}  (${Object.entries(used).map(([k, v]) => `${k} ${v}`).join(', ')})`);
}
const cpu = process.cpuUsage(c0);
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`${REPS} replicates a cell; ${wall.toFixed(0)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU`);
const json = flag('--json', null);
if (json) writeFileSync(json, `${JSON.stringify({ date: new Date().toISOString(), replicates: REPS, rows: out }, null, 2)}\n`);
