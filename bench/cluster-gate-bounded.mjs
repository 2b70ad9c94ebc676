// The clustered gate on bounded scores when a few whole documents break (issue 25). Registered
// rule: bench/cluster-gate-bounded.txt, committed before this ran.
//
//   npm run build && nice -n 19 node bench/cluster-gate-bounded.mjs
//   CGB_QUICK=1 (start check, 3 replicates)   CGB_JSON=out.json (also write the numbers)
import { writeFileSync } from 'node:fs';
import { nonInferiorityFromScores } from '../dist/gate/index.js';
import { bettingInterval } from '../dist/paired/betting-interval.js';
import { generator, hash } from './simulate.mjs';

const MARGIN = 0.05;
const CLUSTERS = [5, 8, 12, 30, 100];
const R = process.env.CGB_QUICK === '1' ? 3 : 4000;
const PART = process.env.CGB_PART ?? 'C'; // C: the clustered designs; D: addendum D (independent items); E: betting on every sample of D's designs

function clusterSizes(G, g) {
  return Array.from({ length: G }, () => 1 + Math.floor(Math.exp(1 + 0.9 * g.normal())));
}
/** Documents broken with probability p: every item of a broken document scores 0 for the candidate. */
function design(kind, p, iid = false) {
  return (G, g) => {
    const sizes = iid ? new Array(G).fill(1) : clusterSizes(G, g);
    const a = [];
    const b = [];
    const cluster = [];
    sizes.forEach((m, j) => {
      const broken = g.uniform() < p;
      for (let i = 0; i < m; i++) {
        let x;
        let y;
        if (kind === 'partial') {
          y = 0.1 + 0.8 * g.uniform();
          x = broken ? 0 : y + 0.2 * (g.uniform() - 0.5);
        } else {
          y = g.uniform() < 0.6 ? 1 : 0;
          const u = g.uniform();
          x = broken ? 0 : y === 0 ? (u < 0.1 ? 1 : 0) : u < 1 / 15 ? 0 : 1;
        }
        a.push(x);
        b.push(y);
        cluster.push(j);
      }
    });
    return { a: Float64Array.from(a), b: Float64Array.from(b), cluster: Int32Array.from(cluster) };
  };
}
const DESIGNS = [
  ['[0, 1] partial credit, 10% of documents broken (truth −0.05)', design('partial', 0.1), 'falsePass'],
  ['0/1, 1/12 of documents broken (truth −0.05)', design('binary', 1 / 12), 'falsePass'],
  ['[0, 1] partial credit, no document broken (truth 0)', design('partial', 0), 'passAtZero'],
  ['0/1, no document broken (truth 0)', design('binary', 0), 'passAtZero'],
];
const gate = (d, r, clustered) => nonInferiorityFromScores({ candidate: d.a, baseline: d.b, cluster: clustered ? d.cluster : null }, { margin: MARGIN, method: 'auto', nResamples: 999, seed: `${r}` });
const mcse = (p) => Math.sqrt((Math.max(p, 0.05) * (1 - Math.max(p, 0.05))) / R);
const f3 = (x) => x.toFixed(3);
const rows = [];
const started = Date.now();
if (PART.includes('C')) for (const [name, make, what] of DESIGNS) {
  console.log(`\n${name}: ${what === 'falsePass' ? 'false pass at a true drop equal to the margin' : 'pass rate at a true difference of 0'}, ${R} replicates`);
  for (const G of CLUSTERS) {
    let withC = 0;
    let without = 0;
    const used = {};
    for (let r = 0; r < R; r++) {
      const d = make(G, generator(hash(`cgb|${name}|${G}|${r}`)));
      const c = gate(d, r, true);
      used[c.overall?.methodUsed ?? c.methodUsed] = (used[c.overall?.methodUsed ?? c.methodUsed] ?? 0) + 1;
      if (c.passed) withC++;
      if (gate(d, r, false).passed) without++;
    }
    const row = { design: name, measure: what, G, reps: R, clustered: withC / R, clusteredMcse: mcse(withC / R), unclustered: without / R, methodUsed: used };
    row.fails = what === 'falsePass' && row.clustered - 1.96 * row.clusteredMcse > 0.05;
    rows.push(row);
    console.log(`  G = ${String(G).padStart(3)}: clustered gate ${f3(row.clustered)} ± ${f3(row.clusteredMcse)}   (without --cluster ${f3(row.unclustered)})   methods ${Object.entries(used).map(([k, v]) => `${k} ${v}`).join(', ')}${what === 'falsePass' ? (row.fails ? '   FAILS' : '   holds') : ''}`);
  }
}
// Addendum D: independent items (every item its own document), the item-level gate as shipped.
const IID = [
  ['[0, 1] partial credit, 10% of items broken (truth −0.05)', design('partial', 0.1, true), 'falsePass'],
  ['0/1, 1/12 of items broken (truth −0.05)', design('binary', 1 / 12, true), 'falsePass'],
  ['[0, 1] partial credit, no item broken (truth 0)', design('partial', 0, true), 'passAtZero'],
  ['0/1, no item broken (truth 0)', design('binary', 0, true), 'passAtZero'],
];
if (PART.includes('D')) for (const [name, make, what] of IID) {
  console.log(`\nD, independent items: ${name}: ${what === 'falsePass' ? 'false pass at a true drop equal to the margin' : 'pass rate at a true difference of 0'}, ${R} replicates`);
  for (const n of [10, 30, 100, 400]) {
    let passes = 0;
    const used = {};
    for (let r = 0; r < R; r++) {
      const d = make(n, generator(hash(`cgb-iid|${name}|${n}|${r}`)));
      const c = gate(d, r, false);
      const m = c.overall?.methodUsed ?? 'none';
      used[m] = (used[m] ?? 0) + 1;
      if (c.passed) passes++;
    }
    const row = { part: 'D', design: name, measure: what, n, reps: R, rate: passes / R, mcse: mcse(passes / R), methodUsed: used };
    row.fails = what === 'falsePass' && row.rate - 1.96 * row.mcse > 0.05;
    rows.push(row);
    console.log(`  n = ${String(n).padStart(3)}: gate ${f3(row.rate)} ± ${f3(row.mcse)}   methods ${Object.entries(used).map(([k, v]) => `${k} ${v}`).join(', ')}${what === 'falsePass' ? (row.fails ? '   FAILS' : '   holds') : ''}`);
  }
}
// Part E: the betting bound on every sample of D's designs (the same samples).
if (PART.includes('E')) for (const [name, make, what] of IID) {
  console.log(`\nE, independent items, betting bound on every sample: ${name}: ${what === 'falsePass' ? 'false pass at a true drop equal to the margin' : 'pass rate at a true difference of 0'}, ${R} replicates`);
  for (const n of [10, 30, 100, 400]) {
    let passes = 0;
    for (let r = 0; r < R; r++) {
      const d = make(n, generator(hash(`cgb-iid|${name}|${n}|${r}`)));
      const diff = Float64Array.from(d.a, (x, i) => x - d.b[i]);
      const bound = bettingInterval(diff, { range: [-1, 1], seed: r, confidenceLevel: 0.95, alternative: 'greater' }).confidenceInterval[0];
      if (bound > -MARGIN) passes++;
    }
    const row = { part: 'E', design: name, measure: what, n, reps: R, rate: passes / R, mcse: mcse(passes / R) };
    row.fails = what === 'falsePass' && row.rate - 1.96 * row.mcse > 0.05;
    rows.push(row);
    console.log(`  n = ${String(n).padStart(3)}: betting ${f3(row.rate)} ± ${f3(row.mcse)}${what === 'falsePass' ? (row.fails ? '   FAILS' : '   holds') : ''}`);
  }
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
if (process.env.CGB_JSON) writeFileSync(process.env.CGB_JSON, JSON.stringify(rows, null, 1));
