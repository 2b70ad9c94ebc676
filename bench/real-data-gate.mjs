#!/usr/bin/env node
// The whole gate on every real population of the real-data study, at a true drop equal to the margin
// (issue 25's "gate false pass ≤ 0.055"). Registered rule: bench/real-data-gate.txt (committed before
// this ran). nonInferiorityFromScores is called as `benchplan gate` calls it (auto, confidence 0.95,
// seed r); the populations are oriented so that the candidate is the worse side.
// Usage: npm run build && nice -n 19 node bench/real-data-gate.mjs [--reps 1000] [--json FILE]
// Skips with a printed line when the shared corpus (/work/shared/real-logs, or REAL_LOGS) is absent.
import { existsSync, writeFileSync } from 'node:fs';
import { nonInferiorityFromScores } from '../dist/gate/gate.js';
import { loadRealPopulations } from './real-populations.mjs';
import { drawPaired, generator, hash } from './simulate.mjs';

const LOGS = process.env.REAL_LOGS ?? '/work/shared/real-logs';
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const REPS = Number(flag('--reps', 1000));
const JSON_OUT = flag('--json', null);
const NS = [10, 20, 40, 80, 160];

if (!existsSync(LOGS)) {
  console.log(`skipped: ${LOGS} is absent (the shared corpus of real tool files)`);
  process.exit(0);
}
const started = Date.now();
const cpu0 = process.cpuUsage();
const out = { settings: { reps: REPS, ns: NS, confidenceLevel: 0.95, date: new Date().toISOString() }, cells: [] };
let worst = 0;
for (const pop of loadRealPopulations(LOGS)) {
  if (pop.oneSidedOnly) continue; // a mirror: oriented below, so each pair appears once
  let d = Float64Array.from(pop.a, (x, i) => x - pop.b[i]);
  let mean = d.reduce((s, x) => s + x, 0) / d.length;
  // the candidate is the worse side: a true drop equal to a margin ≥ 0 exists only that way
  const swap = mean > 0;
  const candidate = swap ? pop.b : pop.a;
  const baseline = swap ? pop.a : pop.b;
  if (swap) {
    d = d.map((x) => -x);
    mean = -mean;
  }
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length - 1));
  const margin = Math.max(0, -mean);
  const powerMargin = margin + sd / 2;
  const name = swap ? `${pop.name} (swapped: candidate = the second)` : pop.name;
  console.log(`\n${name}: N = ${d.length}, truth ${mean.toFixed(4)}, sd ${sd.toFixed(4)}, margin ${margin.toFixed(4)} (power margin ${powerMargin.toFixed(4)})`);
  const source = { a: candidate, b: baseline };
  for (const replace of [true, false]) {
    for (const n of NS) {
      if (!replace && n > d.length / 2) continue;
      const counts = { pass: 0, inconclusive: 0, fail: 0, powerPass: 0 };
      for (let r = 0; r < REPS; r++) {
        const g = generator(hash(`real-gate|${pop.name}|${replace ? 'with' : 'without'}|${n}|${r}`));
        const { a, b } = drawPaired(source, n, replace, g);
        const v = nonInferiorityFromScores({ candidate: a, baseline: b }, { margin, seed: r }).verdict;
        counts[v] += 1;
        if (nonInferiorityFromScores({ candidate: a, baseline: b }, { margin: powerMargin, seed: r }).verdict === 'pass') counts.powerPass += 1;
      }
      const falsePass = counts.pass / REPS;
      const se = Math.sqrt(Math.max(falsePass, 0.05) * (1 - Math.max(falsePass, 0.05)) / REPS);
      worst = Math.max(worst, falsePass);
      console.log(`  n = ${String(n).padStart(3)} ${replace ? 'with   ' : 'without'}  false pass ${falsePass.toFixed(3)} ± ${se.toFixed(3)}  (inconclusive ${(counts.inconclusive / REPS).toFixed(3)}, fail ${(counts.fail / REPS).toFixed(3)})  pass at σ/2 ${(counts.powerPass / REPS).toFixed(3)}${falsePass > 0.055 ? '  ABOVE 0.055' : ''}`);
      out.cells.push({ population: name, N: d.length, truth: mean, sd, margin, powerMargin, n, replace, reps: REPS, falsePass, mcSe: se, inconclusive: counts.inconclusive / REPS, fail: counts.fail / REPS, passAtHalfSd: counts.powerPass / REPS });
    }
  }
}
const cpu = process.cpuUsage(cpu0);
out.settings.seconds = (Date.now() - started) / 1000;
out.settings.cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(`\nlargest false pass over ${out.cells.length} cells: ${worst.toFixed(3)} (bar 0.055); ${out.settings.seconds.toFixed(0)} s wall, ${out.settings.cpuSeconds.toFixed(0)} s CPU`);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(out, null, 1)}\n`);
