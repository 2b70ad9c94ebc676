// The clustered gate on rare documents with large losses (issue 25): part A re-runs the clustered gate
// designs of bench/coverage.mjs at the current code; part B studies the candidate "C+bt" (refusal on
// skewed cluster residual totals + a cluster bootstrap-t bound). Registered rule:
// bench/cluster-gate-skew.txt, committed before this ran.
//
//   npm run build && nice -n 19 node bench/cluster-gate-skew.mjs
//   CGS_PART=A|B   one part;  CGS_JSON=out.json   also write the numbers
import { writeFileSync } from 'node:fs';
import { nonInferiorityFromScores } from '../dist/gate/index.js';
import { sampleSkewness, cochranMinimumItems } from '../dist/paired/skewness.js';
import { generator, hash } from './simulate.mjs';

const PART = process.env.CGS_PART ?? 'AB';
const QUICK = process.env.CGS_QUICK === '1'; // start check only: 3 replicates per cell
const MARGIN = 0.05;
const CLUSTERS = [5, 8, 12, 30, 100];
const B = 999;
const LOGNORMAL_SD = Math.sqrt((Math.E - 1) * Math.E);

// --- bench/coverage.mjs's clustered gate designs, verbatim ---
function clusterSizes(G, g) {
  return Array.from({ length: G }, () => 1 + Math.floor(Math.exp(1 + 0.9 * g.normal())));
}
function clusteredGateDesign(G, g, mean, shape) {
  const sizes = clusterSizes(G, g);
  const a = [];
  const b = [];
  const cluster = [];
  sizes.forEach((m, j) => {
    const z = g.normal();
    const u = shape === 'normal' ? 0.3 * z : ((shape === 'left' ? -1 : 1) * 0.3 * (Math.exp(z) - Math.exp(0.5))) / LOGNORMAL_SD;
    for (let i = 0; i < m; i++) {
      const base = g.uniform();
      b.push(base);
      a.push(base + mean + u + 0.1 * g.normal());
      cluster.push(j);
    }
  });
  return { a: Float64Array.from(a), b: Float64Array.from(b), cluster: Int32Array.from(cluster), truth: mean };
}
const NAMES = {
  normal: 'clustered continuous (G clusters), normal cluster effects',
  left: 'clustered continuous (G clusters), left-skewed cluster effects (rare documents with large losses)',
  right: 'clustered continuous (G clusters), right-skewed cluster effects',
};

// --- candidate C+bt ---
/** Cluster totals D_j and sizes m_j. */
function totals(d, cluster, G) {
  const D = new Float64Array(G);
  const m = new Float64Array(G);
  for (let i = 0; i < d.length; i++) {
    D[cluster[i]] += d[i];
    m[cluster[i]] += 1;
  }
  return { D, m };
}
/** θ and the CR2 se of the item-weighted mean from cluster totals (indices idx into D, m). */
function thetaSe(D, m, idx) {
  let sD = 0;
  let N = 0;
  for (const j of idx) {
    sD += D[j];
    N += m[j];
  }
  const theta = sD / N;
  let v = 0;
  for (const j of idx) {
    const e = D[j] - m[j] * theta;
    const lev = 1 - m[j] / N;
    v += lev > 0 ? (e * e) / lev : 0;
  }
  return { theta, se: Math.sqrt(v) / N };
}
/** The candidate's verdict: true = pass. `shipped` is the shipped gate's result (used when G1 ≥ 0). */
function candidatePasses(d, cluster, shipped, seed) {
  const G = Math.max(...cluster) + 1;
  const { D, m } = totals(d, cluster, G);
  const all = Array.from({ length: G }, (_, j) => j);
  const { theta, se } = thetaSe(D, m, all);
  const e = Float64Array.from(all, (j) => D[j] - m[j] * theta);
  const g1 = sampleSkewness(e);
  if (!(g1 < 0)) return { passed: shipped.passed, branch: 'cr2' };
  if (G < cochranMinimumItems(g1)) return { passed: false, branch: 'refused' };
  const g = generator(seed);
  const tStar = new Float64Array(B);
  const idx = new Int32Array(G);
  for (let k = 0; k < B; k++) {
    for (let j = 0; j < G; j++) idx[j] = Math.floor(g.uniform() * G);
    const r = thetaSe(D, m, idx);
    const num = r.theta - theta;
    tStar[k] = r.se > 0 ? num / r.se : num < 0 ? -Infinity : Infinity;
  }
  tStar.sort();
  const q = tStar[Math.ceil(0.95 * (B + 1)) - 1];
  const bound = theta - q * se;
  return { passed: bound > -MARGIN, branch: 'bt' };
}

const json = { A: [], B: [] };
const rate = (k, R) => k / R;
const se = (p, R) => Math.sqrt((Math.max(p, 0.05) * (1 - Math.max(p, 0.05))) / R);
const f3 = (x) => x.toFixed(3);
const started = Date.now();

function shippedGate(d) {
  return nonInferiorityFromScores({ candidate: d.a, baseline: d.b, cluster: d.cluster }, { margin: MARGIN, method: 'auto', nResamples: 999, seed: `${d.r}` });
}

if (PART.includes('A')) {
  console.log('Part A: the clustered gate as shipped (auto = CR2 one-sided), false pass at true drop = margin, and pass rate at a true difference of 0');
  for (const [label, from, R] of [['A1 (docs table replicates r = 0 … 999)', 0, QUICK ? 3 : 1000], ['A2 (fresh r = 20,000 … 23,999)', 20000, QUICK ? 3 : 4000]]) {
    console.log(`\n${label}`);
    for (const shape of ['normal', 'left', 'right']) {
      for (const G of CLUSTERS) {
        let fp = 0;
        let pw = 0;
        for (let r = from; r < from + R; r++) {
          const d = { ...clusteredGateDesign(G, generator(hash(`gate|${NAMES[shape]}|${G}|${r}`)), -0.05, shape), r };
          if (shippedGate(d).passed) fp++;
          if (shape !== 'right') {
            const p = { ...clusteredGateDesign(G, generator(hash(`gate-power|${NAMES[shape]}|${G}|${r}`)), 0, shape), r };
            if (shippedGate(p).passed) pw++;
          }
        }
        const row = { part: label.slice(0, 2), shape, G, reps: R, falsePass: rate(fp, R), mcse: se(rate(fp, R), R), passAtZero: shape === 'right' ? null : rate(pw, R) };
        json.A.push(row);
        console.log(`  ${shape.padEnd(6)} G = ${String(G).padStart(3)}: false pass ${f3(row.falsePass)} ± ${f3(row.mcse)}${row.passAtZero === null ? '' : `   pass at 0: ${f3(row.passAtZero)}`}`);
      }
    }
  }
}

if (PART.includes('B')) {
  const R = QUICK ? 3 : 2000;
  const from = 30000;
  console.log(`\nPart B: auto as shipped vs candidate C+bt, ${R} fresh replicates (r = ${from} … ${from + R - 1})`);
  for (const shape of ['normal', 'left', 'right']) {
    for (const G of CLUSTERS) {
      const c = { fpShip: 0, fpCand: 0, pwShip: 0, pwCand: 0, branch: {}, fpBranch: {} };
      for (let r = from; r < from + R; r++) {
        const d = { ...clusteredGateDesign(G, generator(hash(`gate|${NAMES[shape]}|${G}|${r}`)), -0.05, shape), r };
        const diff = Float64Array.from(d.a, (x, i) => x - d.b[i]);
        const ship = shippedGate(d);
        const cand = candidatePasses(diff, d.cluster, ship, hash(`cbt|${NAMES[shape]}|${G}|${r}`));
        c.branch[cand.branch] = (c.branch[cand.branch] ?? 0) + 1;
        if (ship.passed) c.fpShip++;
        if (cand.passed) {
          c.fpCand++;
          c.fpBranch[cand.branch] = (c.fpBranch[cand.branch] ?? 0) + 1;
        }
        if (shape !== 'right') {
          const p = { ...clusteredGateDesign(G, generator(hash(`gate-power|${NAMES[shape]}|${G}|${r}`)), 0, shape), r };
          const pd = Float64Array.from(p.a, (x, i) => x - p.b[i]);
          const pship = shippedGate(p);
          if (pship.passed) c.pwShip++;
          if (candidatePasses(pd, p.cluster, pship, hash(`cbt-power|${NAMES[shape]}|${G}|${r}`)).passed) c.pwCand++;
        }
      }
      const row = {
        shape, G, reps: R,
        falsePassShipped: rate(c.fpShip, R), falsePassCandidate: rate(c.fpCand, R), mcse: se(rate(c.fpCand, R), R),
        passAtZeroShipped: shape === 'right' ? null : rate(c.pwShip, R), passAtZeroCandidate: shape === 'right' ? null : rate(c.pwCand, R),
        candidateBranches: c.branch,
        candidateFalsePassesByBranch: c.fpBranch,
      };
      json.B.push(row);
      console.log(`  ${shape.padEnd(6)} G = ${String(G).padStart(3)}: false pass shipped ${f3(row.falsePassShipped)}  C+bt ${f3(row.falsePassCandidate)} ± ${f3(row.mcse)}${row.passAtZeroShipped === null ? '' : `   pass at 0: shipped ${f3(row.passAtZeroShipped)}  C+bt ${f3(row.passAtZeroCandidate)}`}   branches ${Object.entries(c.branch).map(([k, v]) => `${k} ${v} (false passes ${c.fpBranch[k] ?? 0})`).join(', ')}`);
    }
  }
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
if (process.env.CGS_JSON) writeFileSync(process.env.CGS_JSON, JSON.stringify(json, null, 1));
