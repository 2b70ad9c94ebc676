#!/usr/bin/env node
// Diagnostics of the judge-assisted confirmation (bench/peers/confirm-0930.txt, registered before it
// ran): on the SAME fresh samples as `run.mjs --cells judge-0.5,judge-0.8,judge-biased --seed-tag
// confirm-0930 --reps 2000`, the coverage and mean width of benchplan's ppiMean and three variants
// that isolate where a small-sample miss could come from:
//   (a) default: ppiMean (λ tuned on the same labels, z quantile, variances divided by the count);
//   (b) n − 1: the same λ and estimate, variances divided by n − 1 and N − 1, t(n − 1) quantile;
//   (c) λ = 1: plain PPI (no tuning on the labels);
//   (d) λ*: the population-optimal λ = Cov(Y, f) / ((1 + n/N) Var f) from the design (no estimation).
// Reported whatever the outcome. MC SE of a coverage ĉ: √(ĉ(1 − ĉ)/R).
// Run: npm run build && node bench/peers/judge-diagnose.mjs [--reps 2000] [--seed-tag confirm-0930]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cells as makeCells, replicate } from './designs.mjs';
import { ppiMean } from '../../dist/judge/ppi-mean.js';
import { studentTQuantile } from '../../dist/distributions/distributions.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const reps = Number(flag('--reps', '2000'));
const seedTag = flag('--seed-tag', 'confirm-0930');
const Z = 1.959963984540054;

const mean = (x) => x.reduce((s, v) => s + v, 0) / x.length;
const variance = (x, ddof) => {
  const m = mean(x);
  return x.reduce((s, v) => s + (v - m) ** 2, 0) / (x.length - ddof);
};

/** The population-optimal λ of the design (designs.mjs `judged`): Y ~ Bern(0.6), f = Y + σε (+ 0.2 on half the items). */
function optimalLambda(design, n, N) {
  const rho = design.includes('0.5') ? 0.5 : 0.8;
  const sigma2 = 0.24 * (1 / (rho * rho) - 1);
  const varF = 0.24 + sigma2 + (design.includes('stratum') ? 0.04 * 0.25 : 0);
  return Math.min(1, 0.24 / ((1 + n / N) * varF));
}

/** The PPI interval for a given λ: estimate λ·mean(f̃) + mean(Y − λ f), SE from the two means' variances. */
function ppiWith(rep, lambda, ddof, q) {
  const rect = rep.labels.map((y, i) => y - lambda * rep.predictions[i]);
  const est = lambda * mean(rep.unlabelled) + mean(rect);
  const se = Math.sqrt((lambda * lambda * variance(rep.unlabelled, ddof)) / rep.unlabelled.length + variance(rect, ddof) / rect.length);
  return [est - q * se, est + q * se];
}

const { cells } = makeCells({ quick: false });
const judgeCells = cells.filter((c) => c.kind === 'judge');
const out = [];
for (const cell of judgeCells) {
  const tq = studentTQuantile(0.975, cell.size - 1);
  const acc = { default: [0, 0], 'n − 1 and t(n − 1)': [0, 0], 'λ = 1': [0, 0], 'λ* (population)': [0, 0] };
  let lambdaSum = 0;
  let truth = null;
  for (let r = 0; r < reps; r++) {
    const rep = replicate(cell, r, seedTag);
    truth = rep.truth;
    const res = ppiMean(rep.labels, rep.predictions, rep.unlabelled);
    lambdaSum += res.lambda;
    const intervals = {
      default: res.confidenceInterval,
      'n − 1 and t(n − 1)': ppiWith(rep, res.lambda, 1, tq),
      'λ = 1': ppiWith(rep, 1, 0, Z),
      'λ* (population)': ppiWith(rep, optimalLambda(cell.design, cell.size, rep.unlabelled.length), 0, Z),
    };
    for (const [k, [lo, hi]] of Object.entries(intervals)) {
      if (lo <= truth && truth <= hi) acc[k][0] += 1;
      acc[k][1] += hi - lo;
    }
  }
  const row = { family: cell.family, design: cell.design, n: cell.size, truth, meanLambda: lambdaSum / reps, optimalLambda: optimalLambda(cell.design, cell.size, 10 * cell.size), variants: {} };
  for (const [k, [hits, width]] of Object.entries(acc)) {
    const c = hits / reps;
    row.variants[k] = { coverage: c, se: Math.sqrt((c * (1 - c)) / reps), meanWidth: width / reps };
  }
  out.push(row);
}
const file = join(here, 'runs', 'h30', `judge-diagnose-${seedTag}.json`);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify({ bench: 'judge confirmation diagnostics (bench/peers/confirm-0930.txt)', date: new Date().toISOString(), replicates: reps, seedTag, cells: out }, null, 2)}\n`);
const names = Object.keys(out[0].variants);
console.log(`| design | n | mean λ (λ*) | ${names.join(' | ')} |`);
console.log(`|---|---|---|${names.map(() => '---').join('|')}|`);
for (const row of out) console.log(`| ${row.design} | ${row.n} | ${row.meanLambda.toFixed(3)} (${row.optimalLambda.toFixed(3)}) | ${names.map((k) => `${row.variants[k].coverage.toFixed(3)} ± ${row.variants[k].se.toFixed(3)} (${row.variants[k].meanWidth.toFixed(3)})`).join(' | ')} |`);
console.log(`${reps} replicates a cell, seed tag ${seedTag}; coverage ± MC SE (mean width)`);
