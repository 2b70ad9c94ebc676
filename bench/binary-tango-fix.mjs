#!/usr/bin/env node
// A small-sample correction to Tango's paired 0/1 interval, chosen by exact enumeration (issue 25).
// The rule (candidates, study and held-out grids, decision rule) is bench/binary-tango-fix.txt,
// committed before this script first ran. No Monte Carlo: every table (b, c, rest) is weighted by its
// trinomial probability; binomial tails below 1e-12 are skipped (the least kept mass is printed).
// The candidates are coded here from Tango's statistic (self-contained, no build needed), so the
// study does not depend on which one the library adopts.
// Run: node bench/binary-tango-fix.mjs   (writes bench/binary-tango-fix.json)
import { writeFileSync } from 'node:fs';
import { binomialRange, enumerateTables as enumerate } from './trinomial.mjs';

const Z2 = 1.959963984540054;
const Z1 = 1.6448536269514722;
const TAIL = 1e-12;
const STUDY = { NS: [10, 20, 30, 39, 50, 100, 200, 500, 1000], RS: [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5], FS: [-1, -0.5, -0.2, 0, 0.2, 0.5, 1] };
const HELD = { NS: [12, 15, 25, 35, 45, 60, 75, 150, 300, 700], RS: [0.003, 0.015, 0.03, 0.07, 0.15, 0.25, 0.4, 0.7, 0.9], FS: [-1, -0.8, -0.35, -0.1, 0.1, 0.35, 0.8, 1] };

/** Tango's numerator N(δ) = b − c − nδ and null variance V(δ) = n(2q̃ + δ(1 − δ)) (Tango 1998 eq. 3). */
function tangoParts(b, c, n, d) {
  const w = -b - c + (2 * n - b + c) * d;
  const q = (Math.sqrt(Math.max(0, w * w + 8 * n * c * d * (1 - d))) - w) / (4 * n);
  return [b - c - n * d, n * (2 * q + d * (1 - d))];
}

function ratio(num, v) {
  if (v <= 0) return num === 0 ? 0 : num > 0 ? Infinity : -Infinity;
  return num / Math.sqrt(v);
}

function cc(k) {
  return (b, c, n, d) => {
    const [N, V] = tangoParts(b, c, n, d);
    return ratio(Math.sign(N) * Math.max(0, Math.abs(N) - k), V);
  };
}

const CANDIDATES = {
  tango: (b, c, n, d) => { const [N, V] = tangoParts(b, c, n, d); return ratio(N, V); },
  'tango-bcf': (b, c, n, d) => { const [N, V] = tangoParts(b, c, n, d); return ratio(N, (V * n) / (n - 1)); },
  'tango-cc-0.25': cc(0.25),
  'tango-cc-0.5': cc(0.5),
  'tango-cc-1': cc(1),
};
const NAMES = Object.keys(CANDIDATES);

/** δ in [lo, hi] where the decreasing f crosses target (bisection to the last bit). */
function solve(f, target, lo, hi) {
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function bounds(stat, b, c, n) {
  const est = (b - c) / n;
  const f = (d) => stat(b, c, n, d);
  const lo2 = est <= -1 ? -1 : solve(f, Z2, -1, est);
  const hi2 = est >= 1 ? 1 : solve(f, -Z2, est, 1);
  const lo1 = est <= -1 ? -1 : solve(f, Z1, -1, est);
  return [lo2, hi2, lo1];
}

const memo = new Map();
function boundsMemo(name, b, c, n) {
  let m = memo.get(name + ':' + n);
  if (m === undefined) memo.set(name + ':' + n, (m = new Map()));
  const key = b * (n + 1) + c;
  let v = m.get(key);
  if (v === undefined) m.set(key, (v = bounds(CANDIDATES[name], b, c, n)));
  return v;
}

let minMass = 1;
const gates = {};
function runGrid(grid, label) {
  const cells = [];
  gates[label] = [];
  const t0 = Date.now();
  for (const n of grid.NS) {
    for (const r of grid.RS) {
      for (const f of grid.FS) {
        const delta = f * r;
        const p10 = (r + delta) / 2;
        const p01 = (r - delta) / 2;
        const row = { n, r, f, delta };
        for (const name of NAMES) {
          const acc = { coverage: 0, width: 0, zeroWidth: 0 };
          const mass = enumerate(n, p10, p01, (b, c, p) => {
            const [lo2, hi2] = boundsMemo(name, b, c, n);
            if (lo2 <= delta && delta <= hi2) acc.coverage += p;
            acc.width += p * (hi2 - lo2);
            if (hi2 - lo2 <= 1e-9) acc.zeroWidth += p;
          });
          minMass = Math.min(minMass, mass);
          row[name] = { coverage: acc.coverage / mass, width: acc.width / mass, zeroWidth: acc.zeroWidth / mass };
        }
        cells.push(row);
      }
      // One-sided bound's false pass at a true drop of m = r/2 (informative; the gate adds the exact test).
      const m = r / 2;
      const gate = { n, r, m };
      for (const name of NAMES) {
        let pass = 0;
        const mass = enumerate(n, (r - m) / 2, (r + m) / 2, (b, c, p) => {
          if (boundsMemo(name, b, c, n)[2] > -m) pass += p;
        });
        gate[name] = pass / mass;
      }
      gates[label].push(gate);
    }
    memo.clear();
    process.stderr.write(`${label} n = ${n} done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  return cells;
}

function summarise(cells) {
  const out = {};
  for (const name of NAMES) {
    let min = Infinity;
    let at = null;
    let cov = 0;
    let width = 0;
    let zero = 0;
    let below = 0;
    let worstRatio = 0;
    let worstAt = null;
    for (const x of cells) {
      const v = x[name];
      if (v.coverage < min) { min = v.coverage; at = { n: x.n, r: x.r, f: x.f }; }
      if (v.coverage < 0.93) below += 1;
      cov += v.coverage;
      width += v.width;
      zero = Math.max(zero, v.zeroWidth);
      const q = v.width / x.tango.width;
      if (q > worstRatio) { worstRatio = q; worstAt = { n: x.n, r: x.r, f: x.f }; }
    }
    const meanCoverage = cov / cells.length;
    const meanWidth = width / cells.length;
    out[name] = { minCoverage: min, minAt: at, cellsBelow093: below, meanCoverage, meanWidth, maxZeroWidth: zero, worstWidthRatio: worstRatio, worstWidthAt: worstAt, qualifies: min >= 0.93 && meanCoverage >= 0.95 && zero === 0 };
  }
  for (const name of NAMES) out[name].widthRatio = out[name].meanWidth / out.tango.meanWidth;
  return out;
}

const f4 = (x) => x.toFixed(4);
const f5 = (x) => x.toFixed(5);
const result = { cells: {}, summary: {}, gates };
for (const [label, grid] of [['study', STUDY], ['heldOut', HELD]]) {
  result.cells[label] = runGrid(grid, label);
  result.summary[label] = summarise(result.cells[label]);
}

console.log(`Least probability mass kept in any cell: ${minMass.toFixed(12)}`);
for (const label of ['study', 'heldOut']) {
  console.log(`\n## ${label} grid (${result.cells[label].length} cells): two-sided 95% coverage and width`);
  console.log('candidate     | min cov. (n, r, Δ/r)      | cells < 0.93 | mean cov. | mean width | ratio to tango | worst cell ratio (n, r, Δ/r) | max zero-width | qualifies');
  for (const name of NAMES) {
    const s = result.summary[label][name];
    console.log(
      [name.padEnd(13), `${f5(s.minCoverage)} (${s.minAt.n}, ${s.minAt.r}, ${s.minAt.f})`.padEnd(25), String(s.cellsBelow093).padStart(12), f4(s.meanCoverage).padEnd(9), f4(s.meanWidth).padEnd(10), s.widthRatio.toFixed(4).padEnd(14), `${s.worstWidthRatio.toFixed(3)} (${s.worstWidthAt.n}, ${s.worstWidthAt.r}, ${s.worstWidthAt.f})`.padEnd(28), String(s.maxZeroWidth).padEnd(14), s.qualifies ? 'yes' : 'no'].join(' | '),
    );
  }
  const ns = [...new Set(result.cells[label].map((x) => x.n))];
  console.log(`\nlowest coverage by n (over r and Δ/r), ${label} grid`);
  console.log('n     | ' + NAMES.map((x) => x.padEnd(14)).join(' | '));
  for (const n of ns) {
    const rows = result.cells[label].filter((x) => x.n === n);
    console.log(`${String(n).padEnd(5)} | ` + NAMES.map((name) => f5(Math.min(...rows.map((x) => x[name].coverage))).padEnd(14)).join(' | '));
  }
  console.log(`\nmean width by n (ratio to tango), ${label} grid`);
  for (const n of ns) {
    const rows = result.cells[label].filter((x) => x.n === n);
    const w = (name) => rows.reduce((t, x) => t + x[name].width, 0) / rows.length;
    console.log(`${String(n).padEnd(5)} | ` + NAMES.map((name) => `${f4(w(name))} (${(w(name) / w('tango')).toFixed(3)})`.padEnd(14)).join(' | '));
  }
  console.log(`\none-sided 95% bound alone: max P(bound > −m) at a true drop m = r/2, over r, ${label} grid (informative)`);
  for (const n of ns) {
    const rows = gates[label].filter((x) => x.n === n);
    console.log(`${String(n).padEnd(5)} | ` + NAMES.map((name) => f4(Math.max(...rows.map((x) => x[name]))).padEnd(14)).join(' | '));
  }
}

// Decision (bench/binary-tango-fix.txt).
const S = result.summary.study;
const H = result.summary.heldOut;
const order = NAMES.filter((x) => S[x].qualifies).sort((x, y) => S[x].meanWidth - S[y].meanWidth);
console.log('\n## Decision');
console.log(`qualify on the study grid: ${order.join(', ') || 'none'} (by mean width)`);
let chosen = null;
if (order.length > 0) {
  const best = order[0];
  const ties = order.filter((x) => S[x].meanWidth <= S[best].meanWidth * 1.005);
  const first = ties.length > 1 ? ties.sort((x, y) => NAMES.indexOf(x) - NAMES.indexOf(y))[0] : best;
  console.log(`choice on the study grid: ${first}${ties.length > 1 ? ` (tie within 0.5% among ${ties.join(', ')})` : ''}`);
  if (H[first].qualifies) chosen = first;
  else {
    console.log(`${first} does NOT qualify on the held-out grid (min ${f5(H[first].minCoverage)}, mean ${f4(H[first].meanCoverage)})`);
    chosen = order.find((x) => H[x].qualifies) ?? null;
    if (chosen !== null) console.log(`next by study width that qualifies on the held-out grid: ${chosen}`);
  }
}
if (chosen === null) console.log('no candidate qualifies on both grids: tango stays the default');
else if (S[chosen].widthRatio > 1.05) console.log(`${chosen} qualifies but costs ${S[chosen].widthRatio.toFixed(3)}× tango's mean width (> 1.05): reported, tango stays`);
else console.log(`adopted: ${chosen} (held-out min ${f5(H[chosen].minCoverage)}, mean ${f4(H[chosen].meanCoverage)}; width ratio to tango ${S[chosen].widthRatio.toFixed(4)} study, ${H[chosen].widthRatio.toFixed(4)} held-out)`);
result.decision = chosen;
const round = (k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(7)) : v);
writeFileSync(new URL('./binary-tango-fix.json', import.meta.url), JSON.stringify(result, round) + '\n');
