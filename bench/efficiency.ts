#!/usr/bin/env -S npx tsx
// Proof by simulation for issue #16 (fewer human labels). Not a timed test: it measures coverage
// and interval width on simulated pools whose truth is known, with Monte Carlo errors.
//
//   A. PPI++ (compare --judge) vs humans only: a judge on every item, humans on a random n; 0/1
//      and continuous scores; judge–human correlation 0.3–0.9; unstratified and stratified.
//      "labels ratio" = mean SE²(PPI++) / mean SE²(humans only): the share of human labels PPI++
//      needs for the humans-only interval's width (variance ∝ 1/n).
//   B. select (disagreement design) vs plain random labelling, on 400-item pools with 50–95% of
//      items agreeing, 0/1 scores, with strata: select labels every disagreement plus its 10% audit;
//      the plain design would need n_plain = σ² / mean SE²(select) random labels for that width.
//      Two more rows break "same output ⇒ same score" for 5% and 20% of agreeing items.
//   B2. select on pools of documents whose slots lean alike: the interval with the pool-level
//      variance by document, and as if slots were independent.
//   C. the active design (Poisson sampling, 1/π weights, judge as control variate): coverage.
//
// Coverage is of the population mean difference (the items the pool stands for), 95% intervals.
// Monte Carlo error of a coverage c over R runs: √(c(1 − c)/R) (0.0049 at R = 2000).
//
// Usage: npx tsx bench/efficiency.ts [--reps 2000] [--out bench/efficiency.json]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ppiMean, stratifiedPpiMean } from '../src/judge/index.js';
import { createRng, type Xoshiro128 } from '../src/random/index.js';
import { activeDesign, disagreementDesign, poissonDifferenceEstimate, stratifiedDifferenceEstimate, type PoolItem } from '../src/selection/index.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const R = Number(flag('--reps', '2000'));
// Writes under out/bench/ unless told otherwise; the committed bench/efficiency.json came from --out bench/efficiency.json.
const outPath = flag('--out', 'out/bench/efficiency.json');
mkdirSync(dirname(outPath), { recursive: true });
const Z = 1.959963984540054;

function mcError(c: number, reps: number): number {
  return Math.sqrt((c * (1 - c)) / reps);
}
const fmt = (x: number, d = 3) => x.toFixed(d);

// ---------------------------------------------------------------- A. PPI++
interface PpiCell { scores: 'binary' | 'continuous'; strata: boolean; rho: number; measuredRho: number; n: number; N: number; coveragePpi: number; coverageHumans: number; mcError: number; meanWidthPpi: number; meanWidthHumans: number; labelsRatio: number; meanLambda: number }

/**
 * One item: human paired difference y and judge difference f.
 * continuous: y = μ_h + z, f = 0.3 + ρ z + √(1 − ρ²) e (judge biased by 0.3; corr(y, f) = ρ).
 * binary: human scores hA ~ Bern(0.72), hB ~ Bern(0.65) (correlated through a shared difficulty);
 *   the judge's verdict on each output is the human one with probability q, else a coin flip
 *   biased towards "correct" (0.7); q is set per cell and the realised corr(y, f) reported.
 */
function drawItem(rng: Xoshiro128, kind: 'binary' | 'continuous', rho: number, shift: number): [number, number] {
  if (kind === 'continuous') {
    const z = rng.nextNormal();
    const e = rng.nextNormal();
    return [shift + z, 0.3 + rho * z + Math.sqrt(1 - rho * rho) * e];
  }
  const easy = rng.nextFloat() < 0.5;
  const hA = rng.nextFloat() < (easy ? 0.9 : 0.54) + shift ? 1 : 0;
  const hB = rng.nextFloat() < (easy ? 0.85 : 0.45) ? 1 : 0;
  const judge = (h: number) => (rng.nextFloat() < rho ? h : rng.nextFloat() < 0.7 ? 1 : 0);
  return [hA - hB, judge(hA) - judge(hB)];
}

function truthOf(kind: 'binary' | 'continuous', shift: number): number {
  return kind === 'continuous' ? shift : 0.5 * (0.9 + shift - 0.85) + 0.5 * (0.54 + shift - 0.45);
}

function ppiCell(kind: 'binary' | 'continuous', rho: number, stratified: boolean): PpiCell {
  const n = 200;
  const N = 3800;
  const strataShifts = stratified ? [0, 0.04, -0.03] : [0];
  const shares = stratified ? [0.6, 0.25, 0.15] : [1];
  const truth = strataShifts.reduce((s, sh, h) => s + shares[h] * truthOf(kind, sh), 0);
  let covP = 0;
  let covH = 0;
  let wP = 0;
  let wH = 0;
  let v2P = 0;
  let v2H = 0;
  let lam = 0;
  let sy = 0, sf = 0, syy = 0, sff = 0, syf = 0, cnt = 0;
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'ppi', kind, rho, stratified ? 's' : 'u', r);
    const strata = strataShifts.map((shift, h) => {
      const nh = Math.round(n * shares[h]);
      const Nh = Math.round(N * shares[h]);
      const y: number[] = [];
      const f: number[] = [];
      const fu: number[] = [];
      for (let i = 0; i < nh; i++) {
        const [a, b] = drawItem(rng, kind, rho, shift);
        y.push(a);
        f.push(b);
        sy += a; sf += b; syy += a * a; sff += b * b; syf += a * b; cnt += 1;
      }
      for (let i = 0; i < Nh; i++) fu.push(drawItem(rng, kind, rho, shift)[1]);
      return { stratum: String(h), weight: shares[h], labels: y, predictions: f, unlabelledPredictions: fu };
    });
    const res = stratified ? stratifiedPpiMean(strata) : ppiMean(strata[0].labels, strata[0].predictions, strata[0].unlabelledPredictions);
    const [lo, hi] = res.confidenceInterval;
    const [clo, chi] = res.classicalInterval;
    if (lo <= truth && truth <= hi) covP += 1;
    if (clo <= truth && truth <= chi) covH += 1;
    wP += hi - lo;
    wH += chi - clo;
    v2P += res.standardError ** 2;
    v2H += res.classicalStandardError ** 2;
    lam += 'lambda' in res ? res.lambda : res.strata.reduce((s, x) => s + x.weight * x.lambda, 0);
  }
  const measuredRho = (syf / cnt - (sy / cnt) * (sf / cnt)) / Math.sqrt((syy / cnt - (sy / cnt) ** 2) * (sff / cnt - (sf / cnt) ** 2));
  const coveragePpi = covP / R;
  return { scores: kind, strata: stratified, rho, measuredRho, n, N: n + N, coveragePpi, coverageHumans: covH / R, mcError: mcError(coveragePpi, R), meanWidthPpi: wP / R, meanWidthHumans: wH / R, labelsRatio: v2P / v2H, meanLambda: lam / R };
}

// ---------------------------------------------------------------- B. select
interface SelectCell { agreeShare: number; violation: number; poolSize: number; meanLabels: number; coverageSelect: number; mcError: number; meanWidthSelect: number; plainLabelsForSameWidth: number; coveragePlain: number; labelsRatio: number; auditShare: number }

/**
 * A pool of 400 items in 3 strata (60/25/15%); in stratum h the candidates' outputs agree with
 * probability s_h (mean s); where they agree the paired 0/1 difference is 0, where they differ it
 * is +1, −1 or 0 (both wrong) with probabilities (0.45, 0.3, 0.25) + a stratum shift.
 * `violation`: the share of agreeing items whose scores still differ (+1 or −1 with probability
 * 0.6 / 0.4): "same output ⇒ same score" fails, and only the audit can see it.
 */
function selectCell(agreeShare: number, violation = 0): SelectCell {
  const N = 400;
  const shares = [0.6, 0.25, 0.15];
  const agreeBy = [Math.min(0.99, agreeShare + 0.03), Math.max(0.01, agreeShare - 0.08), agreeShare + 0.0];
  const sA = shares.reduce((s, w, h) => s + w * agreeBy[h], 0);
  // normalise so the mean agreement is agreeShare
  const adj = agreeShare - sA;
  const agree = agreeBy.map((a) => Math.min(0.995, Math.max(0.005, a + adj)));
  const pPlus = [0.45, 0.5, 0.35];
  const pMinus = [0.3, 0.25, 0.4];
  // population mean and variance of the difference
  let mu = 0;
  let m2 = 0;
  shares.forEach((w, h) => {
    const dis = 1 - agree[h];
    mu += w * dis * (pPlus[h] - pMinus[h]) + w * agree[h] * violation * 0.2;
    m2 += w * dis * (pPlus[h] + pMinus[h]) + w * agree[h] * violation;
  });
  const sigma2 = m2 - mu * mu;
  const budget = Math.ceil(((1 - agreeShare) * N * 1.15) / 0.9); // room for every disagreement (+15% slack) after a 10% audit
  let cov = 0;
  let width = 0;
  let v2 = 0;
  let labels = 0;
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'select', agreeShare, violation, r);
    const items: PoolItem[] = [];
    const y: number[] = [];
    for (let i = 0; i < N; i++) {
      const u = rng.nextFloat();
      const h = u < 0.6 ? 0 : u < 0.85 ? 1 : 2;
      const a = rng.nextFloat() < agree[h];
      const v = rng.nextFloat();
      y.push(a ? (violation > 0 && v < violation ? (rng.nextFloat() < 0.6 ? 1 : -1) : 0) : v < pPlus[h] ? 1 : v < pPlus[h] + pMinus[h] ? -1 : 0);
      items.push({ item: `i${i}`, stratum: String(h), agree: a });
    }
    const design = disagreementDesign(items, { budget, seed: `r${r}` });
    const cells = design.cells.map((c) => ({ cell: c.cell, size: c.size, differences: [] as number[] }));
    const byCell = new Map(cells.map((c) => [c.cell, c]));
    design.rows.forEach((row, i) => {
      if (row.selected) (byCell.get(row.cell) as { differences: number[] }).differences.push(y[i]);
    });
    const est = stratifiedDifferenceEstimate(cells);
    labels += design.selected;
    const [lo, hi] = est.confidenceInterval;
    if (lo <= mu && mu <= hi) cov += 1;
    width += hi - lo;
    v2 += est.standardError ** 2;
  }
  const meanV = v2 / R;
  const nPlain = Math.ceil(sigma2 / meanV);
  // the plain design at that n: coverage of its normal interval (sd with divisor n − 1)
  let covPlain = 0;
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'plain', agreeShare, violation, r);
    let s = 0;
    let ss = 0;
    for (let i = 0; i < nPlain; i++) {
      const u = rng.nextFloat();
      const h = u < 0.6 ? 0 : u < 0.85 ? 1 : 2;
      const v = rng.nextFloat();
      const d = rng.nextFloat() < agree[h] ? (violation > 0 && v < violation ? (rng.nextFloat() < 0.6 ? 1 : -1) : 0) : v < pPlus[h] ? 1 : v < pPlus[h] + pMinus[h] ? -1 : 0;
      s += d;
      ss += d * d;
    }
    const m = s / nPlain;
    const se = Math.sqrt((ss - nPlain * m * m) / (nPlain - 1) / nPlain);
    if (m - Z * se <= mu && mu <= m + Z * se) covPlain += 1;
  }
  const coverageSelect = cov / R;
  return { agreeShare, violation, poolSize: N, meanLabels: labels / R, coverageSelect, mcError: mcError(coverageSelect, R), meanWidthSelect: width / R, plainLabelsForSameWidth: nPlain, coveragePlain: covPlain / R, labelsRatio: labels / R / nPlain, auditShare: 0.1 };
}

// ---------------------------------------------------------------- B2. select with clusters
interface ClusteredCell { documents: number; itemsPerDocument: number; agreeShare: number; coverageClustered: number; coverageIgnoringClusters: number; mcError: number; meanWidthClustered: number; meanWidthIgnoring: number }

/**
 * Populations of documents: a pool is 40 documents of 10 slots each (400 items). Each document
 * has its own tilt t ~ U(−0.35, 0.35): where the candidates disagree, +1 has probability
 * 0.45 + t and −1 0.3 − t, so slots of one document lean the same way. select labels every
 * disagreement plus the audit; coverage of the population mean with the pool-level variance by
 * document (compare --design with a cluster column) and as if slots were independent.
 */
function clusteredSelectCell(agreeShare: number): ClusteredCell {
  const D = 40;
  const per = 10;
  const N = D * per;
  const mu = (1 - agreeShare) * (0.45 - 0.3);
  const budget = Math.ceil(((1 - agreeShare) * N * 1.15) / 0.9);
  let covC = 0;
  let covI = 0;
  let wC = 0;
  let wI = 0;
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'clustered', agreeShare, r);
    const items: PoolItem[] = [];
    const y: number[] = [];
    for (let d = 0; d < D; d++) {
      const tilt = (rng.nextFloat() - 0.5) * 0.7;
      for (let k = 0; k < per; k++) {
        const a = rng.nextFloat() < agreeShare;
        const v = rng.nextFloat();
        y.push(a ? 0 : v < 0.45 + tilt ? 1 : v < 0.75 ? -1 : 0);
        items.push({ item: `d${d}s${k}`, stratum: '', agree: a, cluster: `d${d}` });
      }
    }
    const design = disagreementDesign(items, { budget, seed: `r${r}` });
    const build = (withClusters: boolean) =>
      design.cells.map((c) => {
        const rows = design.rows.map((row, i) => ({ row, i })).filter(({ row }) => row.cell === c.cell && row.selected);
        return { cell: c.cell, size: c.size, differences: rows.map(({ i }) => y[i]), ...(withClusters ? { clusters: rows.map(({ row }) => row.cluster as string) } : {}) };
      });
    const ec = stratifiedDifferenceEstimate(build(true));
    const ei = stratifiedDifferenceEstimate(build(false));
    if (ec.confidenceInterval[0] <= mu && mu <= ec.confidenceInterval[1]) covC += 1;
    if (ei.confidenceInterval[0] <= mu && mu <= ei.confidenceInterval[1]) covI += 1;
    wC += ec.confidenceInterval[1] - ec.confidenceInterval[0];
    wI += ei.confidenceInterval[1] - ei.confidenceInterval[0];
  }
  const coverageClustered = covC / R;
  return { documents: D, itemsPerDocument: per, agreeShare, coverageClustered, coverageIgnoringClusters: covI / R, mcError: mcError(coverageClustered, R), meanWidthClustered: wC / R, meanWidthIgnoring: wI / R };
}

// ---------------------------------------------------------------- C. active
interface ActiveCell { agreeShare: number; budget: number; coverage: number; mcError: number; meanWidth: number; meanLambda: number }

function activeCell(agreeShare: number): ActiveCell {
  const N = 400;
  const budget = 80;
  let cov = 0;
  let width = 0;
  let lam = 0;
  const mu = (1 - agreeShare) * (0.45 - 0.3);
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'active', agreeShare, r);
    const items: PoolItem[] = [];
    const y: number[] = [];
    for (let i = 0; i < N; i++) {
      const a = rng.nextFloat() < agreeShare;
      const v = rng.nextFloat();
      const d = a ? 0 : v < 0.45 ? 1 : v < 0.75 ? -1 : 0;
      // the judge sees the difference through noise: its predicted difference and uncertainty
      const pred = a ? 0 : rng.nextFloat() < 0.7 ? d : [1, -1, 0][rng.nextInt(3)];
      y.push(d);
      items.push({ item: `i${i}`, stratum: '', agree: a, uncertainty: a ? 0 : pred === 0 ? 1 : 0.6, prediction: pred });
    }
    const design = activeDesign(items, { budget, seed: `r${r}` });
    const est = poissonDifferenceEstimate(design.rows.map((row, i) => ({ inclusionProbability: row.inclusionProbability, difference: row.selected ? y[i] : undefined, prediction: row.prediction })));
    const [lo, hi] = est.confidenceInterval;
    if (lo <= mu && mu <= hi) cov += 1;
    width += hi - lo;
    lam += est.lambda;
  }
  const coverage = cov / R;
  return { agreeShare, budget, coverage, mcError: mcError(coverage, R), meanWidth: width / R, meanLambda: lam / R };
}

// ---------------------------------------------------------------- run
const started = Date.now();
const ppi: PpiCell[] = [];
for (const kind of ['continuous', 'binary'] as const) {
  for (const rho of kind === 'continuous' ? [0.3, 0.5, 0.7, 0.9] : [0.4, 0.6, 0.8, 0.95]) ppi.push(ppiCell(kind, rho, false));
  ppi.push(ppiCell(kind, kind === 'continuous' ? 0.7 : 0.8, true));
}
const select: SelectCell[] = [...[0.5, 0.8, 0.9, 0.95].map((s) => selectCell(s)), selectCell(0.8, 0.05), selectCell(0.8, 0.2)];
const clustered: ClusteredCell[] = [0.5, 0.8].map(clusteredSelectCell);
const active: ActiveCell[] = [0.5, 0.8].map(activeCell);

console.log(`A. PPI++ vs humans only (${R} runs a cell; n = 200 human labels, 4000 judged items; 95% intervals)`);
console.log('scores      strata  judge corr  coverage PPI++ (±MC)  coverage humans  width PPI++  width humans  labels ratio  mean λ');
for (const c of ppi) console.log(`${c.scores.padEnd(11)} ${(c.strata ? 'yes' : 'no').padEnd(7)} ${fmt(c.measuredRho, 2).padStart(10)}  ${fmt(c.coveragePpi)} ± ${fmt(c.mcError)}       ${fmt(c.coverageHumans).padStart(15)}  ${fmt(c.meanWidthPpi).padStart(11)}  ${fmt(c.meanWidthHumans).padStart(12)}  ${fmt(c.labelsRatio, 2).padStart(12)}  ${fmt(c.meanLambda, 2).padStart(6)}`);
console.log(`\nB. select (every disagreement + 10% audit) vs plain random labels, 400-item pools, 3 strata (${R} runs a cell)`);
console.log('agree share  violated  labels (select)  coverage select (±MC)  width select  plain labels for same width  coverage plain  labels ratio');
for (const c of select) console.log(`${fmt(c.agreeShare, 2).padStart(11)}  ${fmt(c.violation, 2).padStart(8)}  ${fmt(c.meanLabels, 1).padStart(15)}  ${fmt(c.coverageSelect)} ± ${fmt(c.mcError)}        ${fmt(c.meanWidthSelect).padStart(12)}  ${String(c.plainLabelsForSameWidth).padStart(27)}  ${fmt(c.coveragePlain).padStart(14)}  ${fmt(c.labelsRatio, 2).padStart(12)}`);
console.log(`\nB2. select on pools of 40 documents × 10 slots, slots of a document leaning alike (${R} runs a cell)`);
console.log('agree share  coverage by document (±MC)  coverage as if independent  width by document  width as if independent');
for (const c of clustered) console.log(`${fmt(c.agreeShare, 2).padStart(11)}  ${fmt(c.coverageClustered)} ± ${fmt(c.mcError)}             ${fmt(c.coverageIgnoringClusters).padStart(26)}  ${fmt(c.meanWidthClustered).padStart(16)}  ${fmt(c.meanWidthIgnoring).padStart(23)}`);
console.log(`\nC. active design (Poisson, 1/π, judge control variate), 400-item pools, expected 80 labels (${R} runs a cell)`);
console.log('agree share  coverage (±MC)     mean width  mean λ');
for (const c of active) console.log(`${fmt(c.agreeShare, 2).padStart(11)}  ${fmt(c.coverage)} ± ${fmt(c.mcError)}  ${fmt(c.meanWidth).padStart(10)}  ${fmt(c.meanLambda, 2).padStart(6)}`);
const seconds = (Date.now() - started) / 1000;
console.log(`\n${seconds.toFixed(0)} s`);
writeFileSync(outPath, `${JSON.stringify({ reps: R, confidenceLevel: 0.95, ppi, select, clustered, active, seconds }, null, 2)}\n`);
