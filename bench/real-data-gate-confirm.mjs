#!/usr/bin/env node
// Confirmation of bench/real-data-gate.mjs's 64 cells (registered in bench/real-data-gate.txt before it ran):
// the 0/1 populations exactly (the gate's verdict on 0/1 scores depends only on b = items only the candidate
// gets right, c = items only the baseline gets right, and n), the continuous ones at 20,000 fresh samples.
// Usage: npm run build && nice -n 19 node bench/real-data-gate-confirm.mjs [--reps 20000] [--json FILE]
import { existsSync, writeFileSync } from 'node:fs';
import { nonInferiorityFromScores } from '../dist/gate/gate.js';
import { loadRealPopulations } from './real-populations.mjs';
import { drawPaired, generator, hash } from './simulate.mjs';
import { enumerateTables, logFactorialTable, TAIL } from './trinomial.mjs';

const LOGS = process.env.REAL_LOGS ?? '/work/shared/real-logs';
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const REPS = Number(flag('--reps', 20000));
const JSON_OUT = flag('--json', null);
const NS = [10, 20, 40, 80, 160];
const BAR = 0.055;

if (!existsSync(LOGS)) {
  console.log(`skipped: ${LOGS} is absent (the shared corpus of real tool files)`);
  process.exit(0);
}

/** A 0/1 table of n items as score arrays: b only-candidate, c only-baseline, `both` both right, the rest both wrong. */
function table(n, b, c, both) {
  const cand = new Float64Array(n);
  const base = new Float64Array(n);
  for (let i = 0; i < b; i++) cand[i] = 1;
  for (let i = b; i < b + c; i++) base[i] = 1;
  for (let i = b + c; i < b + c + both; i++) {
    cand[i] = 1;
    base[i] = 1;
  }
  return { cand, base };
}
const memo = new Map();
/** Whether the gate passes the table (b, c, n) at this margin; checked once per key against a second concordant split. */
function passes(n, b, c, margin) {
  const key = `${n}|${b}|${c}|${margin}`;
  let v = memo.get(key);
  if (v !== undefined) return v;
  const rest = n - b - c;
  const one = table(n, b, c, rest);
  v = nonInferiorityFromScores({ candidate: one.cand, baseline: one.base }, { margin }).verdict === 'pass';
  const other = table(n, b, c, Math.floor(rest / 3));
  const w = nonInferiorityFromScores({ candidate: other.cand, baseline: other.base }, { margin }).verdict === 'pass';
  if (v !== w) throw new Error(`the gate's verdict depends on the concordant split at n = ${n}, b = ${b}, c = ${c}: the exact method does not apply`);
  memo.set(key, v);
  return v;
}

/** Σ P(b, c) [gate passes] without replacement: (b, c, rest) multivariate hypergeometric from the population's counts. */
function exactWithout(n, B, C, N, margin) {
  const lf = logFactorialTable(N + 1);
  const logChoose = (m, k) => lf[m] - lf[k] - lf[m - k];
  const total = logChoose(N, n);
  const R = N - B - C;
  let mass = 0;
  let rate = 0;
  for (let b = Math.max(0, n - C - R); b <= Math.min(n, B); b++) {
    for (let c = Math.max(0, n - b - R); c <= Math.min(n - b, C); c++) {
      const p = Math.exp(logChoose(B, b) + logChoose(C, c) + logChoose(R, n - b - c) - total);
      if (p < TAIL * 1e-3) continue;
      mass += p;
      if (passes(n, b, c, margin)) rate += p;
    }
  }
  return { rate, mass };
}

const started = Date.now();
const cpu0 = process.cpuUsage();
const out = { settings: { reps: REPS, ns: NS, bar: BAR, date: new Date().toISOString() }, cells: [] };
const failures = [];
const above = [];
for (const pop of loadRealPopulations(LOGS)) {
  if (pop.oneSidedOnly) continue;
  let mean = 0;
  for (let i = 0; i < pop.a.length; i++) mean += (pop.a[i] - pop.b[i]) / pop.a.length;
  const swap = mean > 0;
  const candidate = swap ? pop.b : pop.a;
  const baseline = swap ? pop.a : pop.b;
  const margin = Math.max(0, swap ? mean : -mean);
  const N = candidate.length;
  const name = swap ? `${pop.name} (swapped: candidate = the second)` : pop.name;
  let B = 0;
  let C = 0;
  if (pop.kind === '0/1') for (let i = 0; i < N; i++) (candidate[i] > baseline[i] ? B++ : candidate[i] < baseline[i] ? C++ : 0);
  console.log(`\n${name}: N = ${N}, margin ${margin.toFixed(4)}${pop.kind === '0/1' ? `, only candidate ${B}, only baseline ${C} (exact)` : ` (${REPS} samples per cell)`}`);
  for (const replace of [true, false]) {
    for (const n of NS) {
      if (!replace && n > N / 2) continue;
      let rate;
      let se = 0;
      let mass = 1;
      if (pop.kind === '0/1') {
        if (replace) {
          rate = 0;
          mass = enumerateTables(n, B / N, C / N, (b, c, p) => {
            if (passes(n, b, c, margin)) rate += p;
          });
        } else ({ rate, mass } = exactWithout(n, B, C, N, margin));
      } else {
        let count = 0;
        for (let r = 0; r < REPS; r++) {
          const g = generator(hash(`real-gate-confirm|${pop.name}|${replace ? 'with' : 'without'}|${n}|${r}`));
          const { a, b } = drawPaired({ a: candidate, b: baseline }, n, replace, g);
          if (nonInferiorityFromScores({ candidate: a, baseline: b }, { margin, seed: r }).verdict === 'pass') count += 1;
        }
        rate = count / REPS;
        se = Math.sqrt(Math.max(rate, 0.05) * (1 - Math.max(rate, 0.05)) / REPS);
      }
      const fails = pop.kind === '0/1' ? rate > BAR : rate - 1.96 * se > BAR;
      if (fails) failures.push(`${name} n = ${n} ${replace ? 'with' : 'without'}`);
      if (rate > BAR) above.push(`${name} n = ${n} ${replace ? 'with' : 'without'}: ${rate.toFixed(4)}`);
      console.log(`  n = ${String(n).padStart(3)} ${replace ? 'with   ' : 'without'}  false pass ${rate.toFixed(4)}${se ? ` ± ${se.toFixed(4)}` : ' (exact'}${se ? '' : `, mass kept ${mass.toFixed(12)})`}${fails ? '  FAILS' : rate > BAR ? '  above 0.055, not significantly' : ''}`);
      out.cells.push({ population: name, kind: pop.kind, N, margin, n, replace, falsePass: rate, mcSe: se, exact: pop.kind === '0/1', massKept: mass, fails });
    }
  }
}
const cpu = process.cpuUsage(cpu0);
out.settings.seconds = (Date.now() - started) / 1000;
out.settings.cpuSeconds = (cpu.user + cpu.system) / 1e6;
out.failures = failures;
out.above = above;
console.log(`\n${out.cells.length} cells; failing by the registered rule: ${failures.length ? failures.join('; ') : 'none'}; point estimates above ${BAR}: ${above.length ? above.join('; ') : 'none'}; ${out.settings.seconds.toFixed(0)} s wall, ${out.settings.cpuSeconds.toFixed(0)} s CPU`);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(out, null, 1)}\n`);
