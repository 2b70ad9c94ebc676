#!/usr/bin/env node
// Coverage of the paired-proportion score intervals (Tango 1998, Newcombe 1998 method 10), exact:
// no Monte Carlo. For n paired 0/1 items with P(only A right) = p12, P(only B right) = p21 and the
// rest concordant, every table (b, c, n − b − c) is enumerated with its trinomial probability and the
// interval checked against the true difference p12 − p21. Coverage therefore has no MC error.
// Grid: n ∈ {10, 30, 100, 400} (--quick: without 400); discordance p12 + p21 ∈ {2%, 5%, 10%} (high
// agreement: concordant items all both right) and 30% (low agreement: concordant split evenly); true
// difference 0 (p12 = p21, where b = c = 0 is the most likely table at high agreement) and half the
// discordance (p12 = 3 p21).
// Two-sided 95% coverage and the one-sided 95% lower bound's coverage (what the gate uses), with mean
// width (two-sided). Run: npm run build && node bench/paired-proportion-coverage.mjs
import { pairedProportionInterval } from '../dist/paired/index.js';

function logFactorials(n) {
  const out = new Float64Array(n + 1);
  for (let i = 1; i <= n; i++) out[i] = out[i - 1] + Math.log(i);
  return out;
}

function coverage(n, p12, p21, method, bothShare) {
  const lf = logFactorials(n);
  const truth = p12 - p21;
  const pc = 1 - p12 - p21;
  let two = 0;
  let lower = 0;
  let width = 0;
  let total = 0;
  for (let b = 0; b <= n; b++) {
    for (let c = 0; b + c <= n; c++) {
      const rest = n - b - c;
      let logp = lf[n] - lf[b] - lf[c] - lf[rest];
      logp += b > 0 ? b * Math.log(p12) : 0;
      logp += c > 0 ? c * Math.log(p21) : 0;
      logp += rest > 0 ? rest * Math.log(pc) : 0;
      const p = Math.exp(logp);
      if (p < 1e-15) continue;
      // Tango's interval depends on the discordant counts only; Newcombe's also on how the concordant
      // items split into both right / both wrong (φ and the margins). The split is taken as its
      // expectation, rounded (bothShare of them both right): exact for bothShare 1.
      const both = Math.round(rest * bothShare);
      const counts = { both, onlyA: b, onlyB: c, neither: rest - both };
      const ci = pairedProportionInterval(counts, { method }).confidenceInterval;
      const lb = pairedProportionInterval(counts, { method, alternative: 'greater' }).confidenceInterval[0];
      total += p;
      if (ci[0] <= truth && truth <= ci[1]) two += p;
      if (lb <= truth) lower += p;
      width += p * (ci[1] - ci[0]);
    }
  }
  return { two: two / total, lower: lower / total, width: width / total };
}

const rows = [];
const sizes = process.argv.includes('--quick') ? [10, 30, 100] : [10, 30, 100, 400];
for (const n of sizes) {
  for (const discordance of [0.02, 0.05, 0.1, 0.3]) {
    for (const [label, share] of [['Δ = 0', 0.5], ['Δ = d/2', 0.75]]) {
      const p12 = discordance * share;
      const p21 = discordance - p12;
      const row = { n, discordance, truth: label };
      for (const method of ['tango', 'newcombe']) {
        const r = coverage(n, p12, p21, method, discordance >= 0.3 ? 0.5 : 1);
        row[method] = r;
      }
      rows.push(row);
    }
  }
}
const f = (x) => x.toFixed(3);
console.log('n    disc  truth    | tango 2-sided  1-sided lower  width | newcombe 2-sided  1-sided lower  width');
for (const r of rows) {
  console.log(`${String(r.n).padEnd(4)} ${r.discordance.toFixed(2)}  ${r.truth.padEnd(8)} | ${f(r.tango.two)}          ${f(r.tango.lower)}          ${f(r.tango.width)} | ${f(r.newcombe.two)}             ${f(r.newcombe.lower)}          ${f(r.newcombe.width)}`);
}
for (const m of ['tango', 'newcombe']) {
  const two = rows.map((r) => r[m].two);
  const lower = rows.map((r) => r[m].lower);
  const mean = (x) => x.reduce((s, v) => s + v, 0) / x.length;
  console.log(`${m}: two-sided min ${f(Math.min(...two))} mean ${f(mean(two))}; one-sided lower min ${f(Math.min(...lower))} mean ${f(mean(lower))}`);
}

// The gate's false-pass rate (exact): the candidate is worse by exactly the margin
// (P(only B right) − P(only A right) = margin, other discordance `extra` split evenly), and the
// gate passes when the one-sided 95% Newcombe lower bound is above −margin. Nominal: 0.05.
console.log('');
console.log('gate false-pass rate at a true drop equal to the margin (newcombe, one-sided 95%)');
console.log('n    margin  extra discordance  P(pass)');
let worst = 0;
for (const n of sizes) {
  for (const margin of [0.02, 0.05]) {
    for (const extra of [0.02, 0.1, 0.3]) {
      const lf = logFactorials(n);
      const p12 = extra / 2;
      const p21 = extra / 2 + margin;
      const pc = 1 - p12 - p21;
      let pass = 0;
      for (let b = 0; b <= n; b++) {
        for (let c = 0; b + c <= n; c++) {
          const rest = n - b - c;
          const p = Math.exp(lf[n] - lf[b] - lf[c] - lf[rest] + (b ? b * Math.log(p12) : 0) + (c ? c * Math.log(p21) : 0) + (rest ? rest * Math.log(pc) : 0));
          if (p < 1e-15) continue;
          const lb = pairedProportionInterval({ both: rest, onlyA: b, onlyB: c, neither: 0 }, { alternative: 'greater' }).confidenceInterval[0];
          if (lb > -margin) pass += p;
        }
      }
      worst = Math.max(worst, pass);
      console.log(`${String(n).padEnd(4)} ${margin.toFixed(2)}    ${extra.toFixed(2)}               ${pass.toFixed(4)}`);
    }
  }
}
console.log(`largest false-pass rate: ${worst.toFixed(4)}`);
