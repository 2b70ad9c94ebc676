#!/usr/bin/env node
// The 0/1 gate's exact test only where Tango's bound alone can be liberal (issues 29, 33). Rule, grid
// and decision: bench/binary-gate-shortcut.txt, committed before this script first ran. Exact
// enumeration over the trinomial (b, c, rest), no Monte Carlo; binomial tails below 1e-12 skipped
// (the least kept mass is printed). Adapted from bench/binary-exact-study.mjs.
// Run: npm run build && node bench/binary-gate-shortcut.mjs   (writes bench/binary-gate-shortcut.json)
import { writeFileSync } from 'node:fs';
import { pairedProportionBounds, tangoStatistic } from '../dist/paired/index.js';
import { normalQuantile } from '../dist/index.js';
import { binomialRange, logFactorialTable, enumerateTables as enumerate } from './trinomial.mjs';

const LF = logFactorialTable(20001);

const TAIL = 1e-12;
const KS = [10, 15, 20, 25, 30, 40, 50, 75, 100];

/** Per (n, m, α): Tango clears (T) and exact rejects (E), as flat arrays over b·(n + 1) + c. */
const regionMemo = new Map();
function regions(n, m, alpha) {
  const key = `${n}:${m}:${alpha}`;
  if (regionMemo.has(key)) return regionMemo.get(key);
  const z = normalQuantile(1 - alpha);
  const T = new Uint8Array((n + 1) * (n + 1));
  for (let b = 0; b <= n; b++) {
    for (let c = 0; b + c <= n; c++) {
      // Tango's lower bound only matters where the estimate clears −m.
      if ((b - c) / n <= -m) continue;
      const lo = pairedProportionBounds({ both: n - b - c, onlyA: b, onlyB: c, neither: 0 }, 'tango', z)[0];
      if (lo > -m) T[b * (n + 1) + c] = 1;
    }
  }
  const pairs = [];
  for (let b = 0; b <= n; b++) for (let c = 0; b + c <= n; c++) pairs.push({ b, c, z: tangoStatistic(b, c, n, -m) });
  pairs.sort((x, y) => y.z - x.z);
  const N = pairs.length;
  const sup = new Float64Array(N);
  const G = 400;
  for (let i = 0; i <= G; i++) {
    const p01 = m + ((1 + m) / 2 - m) * (i / G);
    const p10 = p01 - m;
    const pc = 1 - p10 - p01;
    const l10 = p10 > 0 ? Math.log(p10) : -Infinity;
    const l01 = Math.log(p01);
    const lc = pc > 0 ? Math.log(pc) : -Infinity;
    let cum = 0;
    for (let k = 0; k < N; k++) {
      const { b, c } = pairs[k];
      const rest = n - b - c;
      cum += Math.exp(LF[n] - LF[b] - LF[c] - LF[rest] + (b > 0 ? b * l10 : 0) + (c > 0 ? c * l01 : 0) + (rest > 0 ? rest * lc : 0));
      if (cum > sup[k]) sup[k] = cum;
      if (cum > 0.5) break; // past any α: the remaining sups are not needed
    }
  }
  let cut = -1;
  for (let k = 0; k < N; k++) {
    if (sup[k] > alpha) break;
    if (k === N - 1 || pairs[k + 1].z < pairs[k].z) cut = k;
  }
  const E = new Uint8Array((n + 1) * (n + 1));
  for (let k = 0; k <= cut; k++) E[pairs[k].b * (n + 1) + pairs[k].c] = 1;
  const out = { T, E };
  regionMemo.set(key, out);
  return out;
}

let leastMass = 1;
/** P(pass) per K (and K = ∞, K = 0), plus P(pass by the shortcut without E). */
function passRates(n, m, alpha, p10, p01) {
  const { T, E } = regions(n, m, alpha);
  const byK = KS.map(() => 0);
  let tango = 0;
  let today = 0;
  const mass = enumerate(n, p10, p01, (b, c, p) => {
    const i = b * (n + 1) + c;
    if (!T[i]) return;
    tango += p;
    if (E[i]) today += p;
    const d = b + c;
    for (let k = 0; k < KS.length; k++) if (E[i] || d >= KS[k]) byK[k] += p;
  });
  leastMass = Math.min(leastMass, mass);
  return { tango: tango / mass, today: today / mass, byK: byK.map((x) => x / mass) };
}

function n0(m, alpha) {
  const z = normalQuantile(1 - alpha);
  for (let n = 2; n <= 20000; n++) if (pairedProportionBounds({ both: n, onlyA: 0, onlyB: 0, neither: 0 }, 'tango', z)[0] > -m) return n;
  return null;
}

const cells = [];
function run(grid, alpha, m, ns, rs) {
  const k0 = n0(m, alpha);
  const all = [...new Set([...ns, k0, k0 + 1])].filter((n) => n <= 2000).sort((a, b) => a - b);
  for (const n of all) {
    const t0 = Date.now();
    for (const r of rs) {
      if (r < m || r > 1) continue;
      const fp = passRates(n, m, alpha, (r - m) / 2, (r + m) / 2);
      const pw = passRates(n, m, alpha, r / 2, r / 2);
      cells.push({ grid, alpha, m, n, r, kind: 'grid', falsePass: fp, power: pw });
    }
    // C: worst nuisance, 64-point even grid of r over [m, 1].
    let worst = null;
    for (let i = 0; i < 64; i++) {
      const r = m + ((1 - m) * i) / 63;
      const fp = passRates(n, m, alpha, (r - m) / 2, (r + m) / 2);
      if (worst === null) worst = { r, fp: { ...fp, byK: [...fp.byK] }, rAt: fp.byK.map(() => r) };
      for (let k = 0; k < KS.length; k++) if (fp.byK[k] > worst.fp.byK[k]) { worst.fp.byK[k] = fp.byK[k]; worst.rAt[k] = r; }
      worst.fp.tango = Math.max(worst.fp.tango, fp.tango);
      worst.fp.today = Math.max(worst.fp.today, fp.today);
    }
    cells.push({ grid: `${grid}-sup`, alpha, m, n, r: null, kind: 'sup', falsePass: worst.fp, rAt: worst.rAt });
    process.stderr.write(`${grid} α=${alpha} m=${m} n=${n} ${Date.now() - t0} ms\n`);
    regionMemo.clear();
  }
}

const started = Date.now();
for (const m of [0.005, 0.01, 0.02, 0.05, 0.1]) run('A', 0.05, m, [10, 20, 30, 39, 50, 100, 200, 500, 1000], [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5]);
for (const alpha of [0.025, 0.05, 0.1]) for (const m of [0.03, 0.07, 0.15]) run('B', alpha, m, [15, 25, 75, 150, 300, 700], [m, 1.5 * m, 2 * m, 4 * m, 0.25, 0.5, 0.8]);

const fmt = (x, d = 4) => x.toFixed(d);
console.log(`# node bench/binary-gate-shortcut.mjs   (${Math.round((Date.now() - started) / 1000)} s; least probability mass kept: ${leastMass.toFixed(12)}; ${cells.length} cells)`);
console.log('rule          | max false pass (cell)                      | cells > 0.05 | cells > 0.055 | mean power (grid cells)');
const gridCells = cells.filter((x) => x.kind === 'grid');
const line = (name, get, getPw) => {
  let worst = cells[0];
  for (const x of cells) if (get(x.falsePass) > get(worst.falsePass)) worst = x;
  const above = (t) => cells.filter((x) => get(x.falsePass) > t).length;
  const pw = getPw === null ? '—' : fmt(gridCells.reduce((t, x) => t + getPw(x.power), 0) / gridCells.length);
  const where = `${worst.grid} α=${worst.alpha} m=${worst.m} n=${worst.n} r=${worst.r === null ? 'sup' : fmt(worst.r, 3)}`;
  console.log(`${name.padEnd(13)} | ${fmt(get(worst.falsePass))} (${where})`.padEnd(60) + ` | ${String(above(0.05)).padStart(12)} | ${String(above(0.055)).padStart(13)} | ${pw}`);
  return { maxFalsePass: get(worst.falsePass), above005: above(0.05), above0055: above(0.055) };
};
const summary = {};
summary.tango = line('tango alone', (f) => f.tango, (p) => p.tango);
summary.today = line('today (K=∞)', (f) => f.today, (p) => p.today);
KS.forEach((K, k) => (summary[`K=${K}`] = line(`K = ${K}`, (f) => f.byK[k], (p) => p.byK[k])));
const qualifying = KS.filter((K) => summary[`K=${K}`].above0055 === 0);
const strict = KS.filter((K) => summary[`K=${K}`].above005 === 0);
const adopted = strict.length > 0 ? strict[0] : qualifying.length > 0 ? qualifying[0] : null;
console.log(`qualifying K (≤ 0.055 everywhere): ${qualifying.join(', ') || 'none'}; ≤ 0.05 everywhere: ${strict.join(', ') || 'none'}; adopted: ${adopted ?? 'none'}`);
if (adopted !== null) {
  const k = KS.indexOf(adopted);
  const over = cells.filter((x) => x.falsePass.byK[k] > 0.05);
  for (const x of over) console.log(`  K=${adopted} above 0.05: ${x.grid} α=${x.alpha} m=${x.m} n=${x.n} r=${x.r === null ? `sup (at ${fmt(x.rAt[k], 3)})` : x.r}: ${fmt(x.falsePass.byK[k])}`);
  const worstPerGrid = ['A', 'B'].map((g) => Math.max(...cells.filter((x) => x.grid.startsWith(g)).map((x) => x.falsePass.byK[k])));
  console.log(`  K=${adopted}: max false pass on grid A(+sup) ${fmt(worstPerGrid[0])}, held-out grid B(+sup) ${fmt(worstPerGrid[1])}`);
}
const round = (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(6)) : v);
writeFileSync(new URL('./binary-gate-shortcut.json', import.meta.url), `${JSON.stringify({ ks: KS, summary, adopted, leastMass, cells }, round)}\n`);
