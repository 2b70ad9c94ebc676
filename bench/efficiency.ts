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
//   B3. select --sample-unit cluster: whole documents sampled (every slot of a chosen document
//      labelled), pools of 100 documents of 2–6 slots leaning alike; coverage with every document
//      that has a disagreement labelled, and with half of them sampled.
//   C. the active design (Poisson sampling, 1/π weights, judge as control variate): coverage.
//   D. headline --design: the traffic-weighted headline (traffic 0.75/0.05/0.20 on pools whose
//      strata are 60/25/15%) of A − B and of A alone, from the disagreement design.
//   E. compare --judge --strata: stratified PPI++ reweighted by traffic.
//
// Coverage is of the population mean difference (the items the pool stands for), 95% intervals.
// Monte Carlo error of a coverage c over R runs: √(c(1 − c)/R) (0.0049 at R = 2000).
//
// Usage: npx tsx bench/efficiency.ts [--reps 2000] [--out bench/efficiency.json] [--only A,B,B2,C,B3,D,E]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ppiMean, stratifiedPpiMean } from '../src/judge/index.js';
import { createRng, type Xoshiro128 } from '../src/random/index.js';
import type { DesignFile } from '../src/data/design-file.js';
import { activeDesign, clusterDisagreementDesign, designDifference, designHeadline, disagreementDesign, poissonDifferenceEstimate, stratifiedDifferenceEstimate, type PoolItem, type SelectionDesign } from '../src/selection/index.js';

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

// ---------------------------------------------------------------- B3. whole-cluster select
interface ClusterSampleCell { agreeShare: number; budget: 'all disagreeing documents' | 'half of them'; meanLabels: number; meanLabelsItemDesign: number; coverage: number; mcError: number; meanWidth: number; coverageItemDesign: number; meanWidthItemDesign: number }

function asFile(d: SelectionDesign): DesignFile {
  return { kind: 'benchplan-selection-design', version: 1, pool: 'sim', a: 'A', b: 'B', method: d.method, sampling: d.sampling, equality: 'sim', budget: d.budget, auditShare: d.auditShare, seed: d.seed, poolSize: d.poolSize, selected: d.selected, cells: d.cells, rows: d.rows };
}

/**
 * 100 documents of 2–6 slots (mean 4); a document's tilt t ~ U(−0.35, 0.35) moves its
 * disagreements (+1 with probability 0.45 + t, −1 with 0.3 − t). Truth: the population's mean
 * difference per slot, (1 − s) · 0.15. Cluster design vs the item design (B2's) on the same pool
 * and budget; both read by compare --design's estimator (designDifference).
 */
function clusterSampleCell(agreeShare: number, half: boolean): ClusterSampleCell {
  const D = 100;
  const mu = (1 - agreeShare) * 0.15;
  let cov = 0, covI = 0, width = 0, widthI = 0, labels = 0, labelsI = 0;
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'cluster-sampling', agreeShare, half ? 'half' : 'all', r);
    const items: PoolItem[] = [];
    const y = new Map<string, number>();
    let inDisagreeing = 0;
    for (let d = 0; d < D; d++) {
      const tilt = (rng.nextFloat() - 0.5) * 0.7;
      const size = 2 + rng.nextInt(5);
      let any = false;
      for (let k = 0; k < size; k++) {
        const a = rng.nextFloat() < agreeShare;
        const v = rng.nextFloat();
        const item = `d${d}s${k}`;
        y.set(item, a ? 0 : v < 0.45 + tilt ? 1 : v < 0.75 ? -1 : 0);
        items.push({ item, stratum: '', agree: a, cluster: `d${d}` });
        if (!a) any = true;
      }
      if (any) inDisagreeing += size;
    }
    const budget = Math.ceil(((half ? 0.5 : 1) * inDisagreeing) / 0.9) + (half ? 0 : 2);
    for (const cluster of [true, false]) {
      const design = cluster ? clusterDisagreementDesign(items, { budget, seed: `r${r}` }) : disagreementDesign(items, { budget, seed: `r${r}` });
      const diff = new Map<string, number>();
      for (const row of design.rows) if (row.selected) diff.set(row.item, y.get(row.item) as number);
      const est = designDifference(asFile(design), diff, 0.95);
      const [lo, hi] = est.interval;
      const hit = lo <= mu && mu <= hi ? 1 : 0;
      if (cluster) {
        cov += hit;
        width += hi - lo;
        labels += design.selected;
      } else {
        covI += hit;
        widthI += hi - lo;
        labelsI += design.selected;
      }
    }
  }
  const coverage = cov / R;
  return { agreeShare, budget: half ? 'half of them' : 'all disagreeing documents', meanLabels: labels / R, meanLabelsItemDesign: labelsI / R, coverage, mcError: mcError(coverage, R), meanWidth: width / R, coverageItemDesign: covI / R, meanWidthItemDesign: widthI / R };
}

// ---------------------------------------------------------------- D. headline --design
interface HeadlineCell { agreeShare: number; auditShare: number; meanLabels: number; coverageDifference: number; mcErrorDifference: number; meanWidthDifference: number; coverageModelA: number; mcErrorModelA: number; meanWidthModelA: number }

/**
 * 400-item pools in 3 strata (60/25/15% of the pool), traffic 75/5/20%. In stratum h, A is right
 * with probability pA_h; B copies A's output with probability s_h (same score), else is right with
 * probability pB_h. Truth: Σ T_h (1 − s_h)(pA_h − pB_h) for the difference, Σ T_h pA_h for A.
 */
function headlineCell(agreeShare: number, auditShare: number): HeadlineCell {
  const N = 400;
  const shares = [0.6, 0.25, 0.15];
  const traffic = [0.75, 0.05, 0.2];
  const pA = [0.88, 0.62, 0.85];
  const pB = [0.8, 0.5, 0.88];
  const s = [agreeShare, Math.max(0.05, agreeShare - 0.1), agreeShare];
  const truthD = traffic.reduce((acc, T, h) => acc + T * (1 - s[h]) * (pA[h] - pB[h]), 0);
  const truthA = traffic.reduce((acc, T, h) => acc + T * pA[h], 0);
  const weights = traffic.map((weight, h) => ({ stratum: String(h), weight }));
  let covD = 0, covA = 0, wD = 0, wA = 0, labels = 0;
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'headline', agreeShare, auditShare, r);
    const items: PoolItem[] = [];
    const truth = new Map<string, { a: number; b: number }>();
    let disagreeing = 0;
    for (let i = 0; i < N; i++) {
      const u = (i + 0.5) / N;
      const h = u < 0.6 ? 0 : u < 0.85 ? 1 : 2;
      const a = rng.nextFloat() < pA[h] ? 1 : 0;
      const agree = rng.nextFloat() < s[h];
      const b = agree ? a : rng.nextFloat() < pB[h] ? 1 : 0;
      items.push({ item: `i${i}`, stratum: String(h), agree });
      truth.set(`i${i}`, { a, b });
      if (!agree) disagreeing += 1;
    }
    const budget = Math.ceil((disagreeing * 1.15) / (1 - auditShare));
    const design = disagreementDesign(items, { budget, auditShare, seed: `r${r}` });
    const scores = new Map<string, { a: number; b: number }>();
    for (const row of design.rows) if (row.selected) scores.set(row.item, truth.get(row.item) as { a: number; b: number });
    const res = designHeadline(asFile(design), scores, { weights });
    labels += design.selected;
    const [dl, dh] = res.difference.interval;
    const [al, ah] = res.models[0].headline.interval;
    if (dl <= truthD && truthD <= dh) covD += 1;
    if (al <= truthA && truthA <= ah) covA += 1;
    wD += dh - dl;
    wA += ah - al;
  }
  return { agreeShare, auditShare, meanLabels: labels / R, coverageDifference: covD / R, mcErrorDifference: mcError(covD / R, R), meanWidthDifference: wD / R, coverageModelA: covA / R, mcErrorModelA: mcError(covA / R, R), meanWidthModelA: wA / R };
}

// ---------------------------------------------------------------- E. PPI++ reweighted by traffic
interface TrafficPpiCell { scores: 'binary' | 'continuous'; rho: number; coveragePpi: number; mcError: number; coverageHumans: number; meanWidthPpi: number; meanWidthHumans: number; labelsRatio: number }

/** As A's stratified cells (strata 60/25/15% of items and of labels), combined with traffic 0.75/0.05/0.20. */
function trafficPpiCell(kind: 'binary' | 'continuous', rho: number): TrafficPpiCell {
  const n = 200;
  const N = 3800;
  const strataShifts = [0, 0.04, -0.03];
  const shares = [0.6, 0.25, 0.15];
  const traffic = [0.75, 0.05, 0.2];
  const truth = strataShifts.reduce((s, sh, h) => s + traffic[h] * truthOf(kind, sh), 0);
  let covP = 0, covH = 0, wP = 0, wH = 0, v2P = 0, v2H = 0;
  for (let r = 0; r < R; r++) {
    const rng = createRng('efficiency', 'ppi-traffic', kind, rho, r);
    const strata = strataShifts.map((shift, h) => {
      const y: number[] = [];
      const f: number[] = [];
      const fu: number[] = [];
      for (let i = 0; i < Math.round(n * shares[h]); i++) {
        const [a, b] = drawItem(rng, kind, rho, shift);
        y.push(a);
        f.push(b);
      }
      for (let i = 0; i < Math.round(N * shares[h]); i++) fu.push(drawItem(rng, kind, rho, shift)[1]);
      return { stratum: String(h), weight: traffic[h], labels: y, predictions: f, unlabelledPredictions: fu };
    });
    const res = stratifiedPpiMean(strata);
    const [lo, hi] = res.confidenceInterval;
    const [clo, chi] = res.classicalInterval;
    if (lo <= truth && truth <= hi) covP += 1;
    if (clo <= truth && truth <= chi) covH += 1;
    wP += hi - lo;
    wH += chi - clo;
    v2P += res.standardError ** 2;
    v2H += res.classicalStandardError ** 2;
  }
  return { scores: kind, rho, coveragePpi: covP / R, mcError: mcError(covP / R, R), coverageHumans: covH / R, meanWidthPpi: wP / R, meanWidthHumans: wH / R, labelsRatio: v2P / v2H };
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
// --only A,B3,…: run those sections and keep the others from the JSON already at --out (so a
// new section can be measured without re-running the long ones).
const only = new Set(flag('--only', 'A,B,B2,C,B3,D,E').split(','));
const previous: Record<string, unknown> = only.size < 7 && existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'utf8')) : {};
if (only.size < 7 && previous.reps !== undefined && previous.reps !== R) throw new Error(`--only merges into ${outPath}, which has ${String(previous.reps)} runs a cell; give --reps ${String(previous.reps)}`);
const section = <T>(name: string, key: string, make: () => T[]): T[] => (only.has(name) ? make() : ((previous[key] as T[] | undefined) ?? []));
const started = Date.now();
const ppi: PpiCell[] = section('A', 'ppi', () => {
  const out: PpiCell[] = [];
  for (const kind of ['continuous', 'binary'] as const) {
    for (const rho of kind === 'continuous' ? [0.3, 0.5, 0.7, 0.9] : [0.4, 0.6, 0.8, 0.95]) out.push(ppiCell(kind, rho, false));
    out.push(ppiCell(kind, kind === 'continuous' ? 0.7 : 0.8, true));
  }
  return out;
});
const select: SelectCell[] = section('B', 'select', () => [...[0.5, 0.8, 0.9, 0.95].map((s) => selectCell(s)), selectCell(0.8, 0.05), selectCell(0.8, 0.2)]);
const clustered: ClusteredCell[] = section('B2', 'clustered', () => [0.5, 0.8].map(clusteredSelectCell));
const active: ActiveCell[] = section('C', 'active', () => [0.5, 0.8].map(activeCell));
const clusterSampling: ClusterSampleCell[] = section('B3', 'clusterSampling', () => [0.5, 0.8].flatMap((a) => [clusterSampleCell(a, false), clusterSampleCell(a, true)]));
const headline: HeadlineCell[] = section('D', 'headline', () => [headlineCell(0.8, 0.1), headlineCell(0.8, 0.3), headlineCell(0.5, 0.1), headlineCell(0.5, 0.3)]);
const trafficPpi: TrafficPpiCell[] = section('E', 'trafficPpi', () => [trafficPpiCell('continuous', 0.7), trafficPpiCell('binary', 0.8)]);

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
console.log(`\nB3. select --sample-unit cluster: 100 documents × 2–6 slots leaning alike (${R} runs a cell); the item design on the same pool and budget beside it`);
console.log('agree share  budget                     labels (cluster)  coverage cluster (±MC)  width cluster  labels (item)  coverage item  width item');
for (const c of clusterSampling) console.log(`${fmt(c.agreeShare, 2).padStart(11)}  ${c.budget.padEnd(25)}  ${fmt(c.meanLabels, 1).padStart(16)}  ${fmt(c.coverage)} ± ${fmt(c.mcError)}         ${fmt(c.meanWidth).padStart(13)}  ${fmt(c.meanLabelsItemDesign, 1).padStart(13)}  ${fmt(c.coverageItemDesign).padStart(13)}  ${fmt(c.meanWidthItemDesign).padStart(10)}`);
console.log(`\nD. headline --design (traffic 75/5/20% on pools 60/25/15%), disagreement design, 400-item pools (${R} runs a cell)`);
console.log('agree share  audit share  labels  coverage A − B (±MC)  width A − B  coverage A alone (±MC)  width A alone');
for (const c of headline) console.log(`${fmt(c.agreeShare, 2).padStart(11)}  ${fmt(c.auditShare, 2).padStart(11)}  ${fmt(c.meanLabels, 1).padStart(6)}  ${fmt(c.coverageDifference)} ± ${fmt(c.mcErrorDifference)}       ${fmt(c.meanWidthDifference).padStart(11)}  ${fmt(c.coverageModelA)} ± ${fmt(c.mcErrorModelA)}         ${fmt(c.meanWidthModelA).padStart(13)}`);
console.log(`\nE. compare --judge --strata: stratified PPI++ reweighted by traffic 75/5/20% (strata 60/25/15% of items and labels; ${R} runs a cell)`);
console.log('scores      judge ρ  coverage PPI++ (±MC)  coverage humans  width PPI++  width humans  labels ratio');
for (const c of trafficPpi) console.log(`${c.scores.padEnd(11)} ${fmt(c.rho, 2).padStart(7)}  ${fmt(c.coveragePpi)} ± ${fmt(c.mcError)}       ${fmt(c.coverageHumans).padStart(15)}  ${fmt(c.meanWidthPpi).padStart(11)}  ${fmt(c.meanWidthHumans).padStart(12)}  ${fmt(c.labelsRatio, 2).padStart(12)}`);
const elapsed = (Date.now() - started) / 1000;
console.log(`\n${elapsed.toFixed(0)} s`);
// With --only, the sections kept from the file keep their share of the time.
const seconds = only.size < 7 ? Number(previous.seconds ?? 0) + elapsed : elapsed;
writeFileSync(outPath, `${JSON.stringify({ reps: R, confidenceLevel: 0.95, ppi, select, clustered, active, clusterSampling, headline, trafficPpi, seconds }, null, 2)}\n`);
