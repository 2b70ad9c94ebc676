#!/usr/bin/env node
// Is there a paired 0/1 interval within 1.10× Wald at n = 200, 5% discordance that keeps issue 25's
// exact bar (min two-sided 95% coverage ≥ 0.93 and mean ≥ 0.95 over its grid)? Registered in
// bench/peers/paired-intervals-more.txt before it ran. Candidates beyond bench/peers/tango-n200.mjs's
// two families: the profile-likelihood (LR) interval, Bonett–Price's adjusted Wald, FLL's Tango
// (without n/(n − 1)), and the exact unconditional tail interval ordered by Tango's statistic, plain and
// mid-p. No Monte Carlo: every table weighted by its trinomial probability (bench/trinomial.mjs);
// binomial tails below 1e-12 skipped (the smallest kept mass is printed).
// Run: npm run build && nice -n 19 node bench/peers/paired-intervals-more.mjs
//   (writes bench/peers/runs/h33/paired-intervals-more.json); --render: the table from that JSON;
//   --write-docs: into docs/peers.md's <!-- peers:paired-intervals-more:start/end --> markers.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedProportionBounds, tangoStatistic } from '../../dist/paired/index.js';
import { writeDocs } from './docs.mjs';
import { adjustedWald, CELL, COVERS, evaluateCell, evaluateGrid, pseudoCountWald, Z2 } from './paired-intervals.mjs';
import { enumerateTables, logFactorialTable } from '../trinomial.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const MEAN_BAR = 0.95;
const WIDTH_BAR = 1.1;
const CHI2_1 = Z2 * Z2; // χ²₁ at 0.95 = 3.841459
const ALPHA_HALF = 0.025;
// exact unconditional intervals: δ on a grid of this step over [−DELTA_MAX, DELTA_MAX]; the nuisance p01 on NUISANCE + 1 points
const DELTA_STEP = 0.0005;
const DELTA_MAX = 0.25;
const NUISANCE = 100;

// ---------- the profile-likelihood interval ----------

/**
 * The restricted ML estimate of p01 under p10 − p01 = δ (multinomial, concordant cells merged): Tango's
 * q̃ = (√(W² + 8ncδ(1 − δ)) − W)/(4n), W = −b − c + (2n − b + c)δ, written without cancellation for W > 0.
 */
function restrictedP01(b, c, n, delta) {
  const w = -b - c + (2 * n - b + c) * delta;
  const root = Math.sqrt(Math.max(0, w * w + 8 * n * c * delta * (1 - delta)));
  const q = w > 0 ? (2 * c * delta * (1 - delta)) / (root + w) : (root - w) / (4 * n);
  return Math.min(Math.max(q, Math.max(0, -delta)), (1 - delta) / 2);
}

/** Trinomial log-likelihood b log p10 + c log p01 + m log p00 with 0 log 0 = 0. */
function logLikelihood(b, c, n, p10, p01) {
  const m = n - b - c;
  const p00 = 1 - p10 - p01;
  let total = 0;
  for (const [k, p] of [[b, p10], [c, p01], [m, p00]]) {
    if (k > 0) {
      if (p <= 0) return -Infinity;
      total += k * Math.log(p);
    }
  }
  return total;
}

/**
 * Profile-likelihood interval for Δ = p10 − p01: {δ : 2[ℓ(b/n, c/n) − ℓ(q̃(δ) + δ, q̃(δ))] ≤ χ²₁,0.95}.
 * The profile log-likelihood is concave in δ (a partial maximum of a concave function over a convex
 * set), so each end is found by bisection on its side of the estimate.
 */
export function lrInterval(n, b, c) {
  const top = logLikelihood(b, c, n, b / n, c / n);
  const stat = (d) => {
    const q = restrictedP01(b, c, n, d);
    return 2 * (top - logLikelihood(b, c, n, q + d, q));
  };
  const estimate = (b - c) / n;
  const end = (inside, outside) => {
    if (stat(outside) <= CHI2_1) return outside;
    let a = inside;
    let z = outside;
    for (let k = 0; k < 200; k++) {
      const mid = (a + z) / 2;
      if (mid === a || mid === z) break;
      if (stat(mid) <= CHI2_1) a = mid;
      else z = mid;
    }
    return (a + z) / 2;
  };
  return [end(estimate, -1), end(estimate, 1)];
}

// ---------- the exact unconditional tail intervals (ordered by Tango's statistic) ----------

/** Every table (b, c) with b + c ≤ n, with its log multinomial coefficient. */
function allTables(n) {
  const lf = logFactorialTable(n + 1);
  const bs = [];
  const cs = [];
  const coef = [];
  for (let b = 0; b <= n; b++) {
    for (let c = 0; b + c <= n; c++) {
      bs.push(b);
      cs.push(c);
      coef.push(lf[n] - lf[b] - lf[c] - lf[n - b - c]);
    }
  }
  return { bs: Int32Array.from(bs), cs: Int32Array.from(cs), coef: Float64Array.from(coef), size: bs.length };
}

/** The nuisance grid for p01 at a null δ: [max(0, −δ), (1 − δ)/2] on NUISANCE + 1 points, denser near small discordance. */
function nuisanceGrid(delta, points = NUISANCE) {
  const lo = Math.max(0, -delta);
  const hi = (1 - delta) / 2;
  return Array.from({ length: points + 1 }, (_, k) => lo + (hi - lo) * (k / points) ** 2);
}

/**
 * At one null δ, for each table of `observed` (indices into `tables`), the sup over the nuisance grid of
 * P(Z ≥ z_obs), P(Z ≤ z_obs) and their mid-p versions (P(Z > z) + ½P(Z = z)); Z = Tango's statistic at δ,
 * ties grouped within 1e-9. Cost O(T log T + G·T), T tables, G nuisance points.
 */
function tailSups(n, tables, observed, delta, grid) {
  const { bs, cs, coef, size } = tables;
  const z = new Float64Array(size);
  for (let t = 0; t < size; t++) z[t] = tangoStatistic(bs[t], cs[t], n, delta);
  const order = Array.from({ length: size }, (_, t) => t).sort((x, y) => z[x] - z[y] || x - y);
  const position = new Int32Array(size);
  order.forEach((t, i) => { position[t] = i; });
  // each observed table's tie group [start, end) in sorted positions
  const same = (u, v) => u === v || Math.abs(u - v) <= 1e-9 * Math.max(1, Math.abs(u));
  const groups = observed.map((t) => {
    let s = position[t];
    let e = position[t] + 1;
    while (s > 0 && same(z[order[s - 1]], z[t])) s -= 1;
    while (e < size && same(z[order[e]], z[t])) e += 1;
    return [s, e];
  });
  const sup = observed.map(() => ({ up: 0, low: 0, upMid: 0, lowMid: 0 }));
  const cum = new Float64Array(size + 1);
  const lb = new Float64Array(n + 1);
  const lc = new Float64Array(n + 1);
  const lm = new Float64Array(n + 1);
  for (const p01 of grid) {
    const p10 = p01 + delta;
    const p00 = 1 - p10 - p01;
    for (let k = 0; k <= n; k++) {
      lb[k] = k === 0 ? 0 : p10 > 0 ? k * Math.log(p10) : -Infinity;
      lc[k] = k === 0 ? 0 : p01 > 0 ? k * Math.log(p01) : -Infinity;
      lm[k] = k === 0 ? 0 : p00 > 0 ? k * Math.log(p00) : -Infinity;
    }
    for (let i = 0; i < size; i++) {
      const t = order[i];
      cum[i + 1] = cum[i] + Math.exp(coef[t] + lb[bs[t]] + lc[cs[t]] + lm[n - bs[t] - cs[t]]);
    }
    const total = cum[size];
    groups.forEach(([s, e], j) => {
      const below = cum[s];
      const tie = cum[e] - cum[s];
      const above = total - cum[e];
      const o = sup[j];
      o.up = Math.max(o.up, above + tie);
      o.low = Math.max(o.low, below + tie);
      o.upMid = Math.max(o.upMid, above + tie / 2);
      o.lowMid = Math.max(o.lowMid, below + tie / 2);
    });
  }
  return sup;
}

/**
 * Exact unconditional tail intervals (plain and mid-p) of every table in `observed` ([b, c] pairs) at n:
 * {δ on the grid : p_up(δ) > α/2 and p_low(δ) > α/2}, reported as [smallest, largest] accepted δ.
 */
function exactIntervals(n, observed) {
  const tables = allTables(n);
  const index = (b, c) => b * (n + 1) - (b * (b - 1)) / 2 + c; // position of (b, c) in allTables' order
  const obs = observed.map(([b, c]) => index(b, c));
  obs.forEach((t, j) => { if (tables.bs[t] !== observed[j][0] || tables.cs[t] !== observed[j][1]) throw new Error('table index'); });
  const steps = Math.round(DELTA_MAX / DELTA_STEP);
  const plain = observed.map(() => [Infinity, -Infinity]);
  const mid = observed.map(() => [Infinity, -Infinity]);
  for (let k = -steps; k <= steps; k++) {
    const delta = k * DELTA_STEP;
    const sup = tailSups(n, tables, obs, delta, nuisanceGrid(delta));
    sup.forEach((s, j) => {
      if (s.up > ALPHA_HALF && s.low > ALPHA_HALF) plain[j] = [Math.min(plain[j][0], delta), Math.max(plain[j][1], delta)];
      if (s.upMid > ALPHA_HALF && s.lowMid > ALPHA_HALF) mid[j] = [Math.min(mid[j][0], delta), Math.max(mid[j][1], delta)];
    });
  }
  const atEdge = [...plain, ...mid].some(([lo, hi]) => lo <= -DELTA_MAX || hi >= DELTA_MAX || lo > hi);
  return { plain, mid, atEdge };
}

/** P(X ≤ x), X ~ Binomial(N, p), by direct summation (small N only: the checks). */
function binomialCdf(x, N, p) {
  const lf = logFactorialTable(N + 1);
  let total = 0;
  for (let k = 0; k <= x; k++) total += Math.exp(lf[N] - lf[k] - lf[N - k] + (k ? k * Math.log(p) : 0) + (N - k ? (N - k) * Math.log1p(-p) : 0));
  return total;
}

/** Clopper–Pearson interval for x of N at level 1 − γ, by bisection on the binomial tails. */
function clopperPearson(x, N, gamma) {
  const solve = (f) => {
    let lo = 0;
    let hi = 1;
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (f(mid)) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  const low = x === 0 ? 0 : solve((p) => 1 - binomialCdf(x - 1, N, p) < gamma / 2); // P(X ≥ x) increases in p
  const high = x === N ? 1 : solve((p) => binomialCdf(x, N, p) > gamma / 2); // P(X ≤ x) decreases in p
  return [low, high];
}

/**
 * McNemar's exact unconditional test as contingencytables (FLL's R code) computes it: ordered by
 * T = (b − c)²/(b + c) (the square of Tango's Z at δ = 0; the table b = c = 0 has no T and is never
 * counted), the nuisance discordance on `points` equally spaced values over the Clopper–Pearson 1 − γ
 * interval of (b + c)/n (Berger & Boos), P = max + γ. The check of this script's trinomial sums at δ = 0.
 */
function mcnemarExactUnconditional(b, c, n, { points = 1000, gamma = 1e-4 } = {}) {
  const tables = allTables(n);
  const zObs = Math.abs(tangoStatistic(b, c, n, 0));
  const extreme = [];
  for (let t = 0; t < tables.size; t++) {
    const bb = tables.bs[t];
    const cc = tables.cs[t];
    if (bb + cc > 0 && Math.abs(tangoStatistic(bb, cc, n, 0)) >= zObs - 1e-9) extreme.push(t);
  }
  const [lo, hi] = gamma > 0 ? clopperPearson(b + c, n, gamma) : [0, 1];
  let best = 0;
  for (let k = 0; k < points; k++) {
    const r = lo + ((hi - lo) * k) / (points - 1);
    let tail = 0;
    for (const t of extreme) tail += Math.exp(tables.coef[t] + logLikelihood(tables.bs[t], tables.cs[t], n, r / 2, r / 2));
    best = Math.max(best, tail);
  }
  return Math.min(1, best + gamma);
}

// ---------- the candidates ----------

const tango = (biasCorrection) => (n, b, c) => pairedProportionBounds({ both: n - b - c, onlyA: b, onlyB: c, neither: 0 }, 'tango', Z2, biasCorrection);
const methods = [
  ['wald', (n, b, c) => adjustedWald(n, b, c, 0)],
  ['tango', tango(true)],
  ['lr', lrInterval],
  ['bonett-price', (n, b, c) => pseudoCountWald(n, b, c, 1, 0)],
  ['tango-plain', tango(false)],
];
const EXACT = ['exact-uncond', 'exact-uncond-midp'];

// ---------- checks against published / independent values ----------

function checks() {
  const out = [];
  const near = (label, got, want, tol) => out.push({ label, got, want, ok: got.every((g, i) => Math.abs(g - want[i]) <= tol) });
  // CCS data (Cavo et al. 2012; FLL 2014): n12 = 6, n21 = 16, N = 161 → contingencytables' tests (4 decimals)
  const ccs = [161, 6, 16];
  near('wald, CCS (contingencytables: -0.1184 to -0.0058)', adjustedWald(...ccs, 0), [-0.1184, -0.0058], 5e-5);
  near('bonett-price, CCS (contingencytables: -0.1195 to -0.0032)', pseudoCountWald(...ccs, 1, 0), [-0.1195, -0.0032], 5e-5);
  near('tango-plain, CCS (contingencytables: -0.1240 to -0.0054)', tango(false)(...ccs), [-0.1240, -0.0054], 5e-5);
  near('adjusted-wald k=0.5 = Agresti-Min, CCS (contingencytables: -0.1182 to -0.0045)', adjustedWald(...ccs, 0.5), [-0.1182, -0.0045], 5e-5);
  // LR: an independent numeric profile (scipy's bounded optimiser, bench/peers/paired-intervals-more-check.py)
  const ref = JSON.parse(readFileSync(join(here, 'paired-intervals-more-check.json'), 'utf8'));
  for (const t of ref.tables) near(`lr, ${t.label} (b ${t.b}, c ${t.c}, n ${t.n}; scipy profile)`, lrInterval(t.n, t.b, t.c), t.lr, 1e-7);
  // McNemar exact unconditional (contingencytables' defaults: Berger–Boos γ = 1e-4, 1,000 nuisance values):
  // this script's trinomial sums at δ = 0
  for (const [label, b, c, n, want] of [['CCS', 6, 16, 161, 0.034053], ['CCS / 10 floored (5 0 / 1 8)', 0, 1, 14, 0.542071]]) {
    near(`McNemar exact unconditional P, ${label} (contingencytables: ${want})`, [mcnemarExactUnconditional(b, c, n)], [want], 5e-7);
  }
  return out;
}

// ---------- run ----------

const args = process.argv.slice(2);
const file = join(here, 'runs', 'h33', 'paired-intervals-more.json');
const out = args.includes('--render') ? JSON.parse(readFileSync(file, 'utf8')) : compute();
const md = table(out);
if (args.includes('--write-docs')) process.stderr.write(`peers: wrote the table into ${writeDocs(md, 'paired-intervals-more')}\n`);
process.stdout.write(md);
if (out.checks.some((c) => !c.ok)) {
  process.stderr.write(`CHECK FAILED: ${out.checks.filter((c) => !c.ok).map((c) => c.label).join('; ')}\n`);
  process.exitCode = 1;
}

function compute() {
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const checkRows = checks();
  const atCell = evaluateCell(methods, CELL.n, CELL.p10, CELL.p01);
  const grid = evaluateGrid(methods);
  // the grid's reference rows against bench/binary-exact-study's runs (its output rounds to 4 decimals)
  const g = grid.byMethod;
  const study = (label, got, want) => checkRows.push({ label, got, want, ok: got.every((x, i) => Math.abs(x - want[i]) <= 5e-5) });
  study('tango mean coverage (binary-exact-study-bcf-output.txt: 0.9729)', [g.tango.meanCoverage], [0.9729]);
  study('bonett-price min and mean coverage (binary-exact-study.txt: 0.92823, 0.9767)', [g['bonett-price'].minCoverage, g['bonett-price'].meanCoverage], [0.92823, 0.9767]);
  study('tango-plain min and mean coverage (binary-exact-study.txt: 0.92979, 0.9714)', [g['tango-plain'].minCoverage, g['tango-plain'].meanCoverage], [0.92979, 0.9714]);
  // the exact intervals at the cell: every table the cell's enumeration keeps
  const tablesAtCell = [];
  const cellMass = enumerateTables(CELL.n, CELL.p10, CELL.p01, (b, c, p) => tablesAtCell.push([b, c, p]));
  const ex = exactIntervals(CELL.n, tablesAtCell.map(([b, c]) => [b, c]));
  const exactAtCell = Object.fromEntries(EXACT.map((name) => {
    const ends = name === 'exact-uncond' ? ex.plain : ex.mid;
    let coverage = 0;
    let width = 0;
    tablesAtCell.forEach(([, , p], j) => {
      const [lo, hi] = ends[j];
      if (lo <= 1e-12 && -1e-12 <= hi) coverage += p;
      width += p * (hi - lo);
    });
    return [name, { coverage: coverage / cellMass, width: width / cellMass, zeroWidth: 0 }];
  }));
  const waldWidth = atCell.byMethod.wald.width;
  const rows = [
    ...methods.map(([name]) => {
      const g = grid.byMethod[name];
      const keepsBar = g.minCoverage >= COVERS && g.meanCoverage >= MEAN_BAR;
      const overWald = atCell.byMethod[name].width / waldWidth;
      return { method: name, ...atCell.byMethod[name], overWald, ...g, keepsBar, meetsBoth: keepsBar && overWald <= WIDTH_BAR };
    }),
    ...EXACT.map((name) => {
      const overWald = exactAtCell[name].width / waldWidth;
      // registered shortcut: wider than 1.10× Wald at the cell fails (3) whatever its coverage; the grid is not run
      if (overWald > WIDTH_BAR) return { method: name, ...exactAtCell[name], overWald, minCoverage: null, at: null, meanCoverage: null, keepsBar: null, meetsBoth: false, gridNote: 'not run: fails (3)' };
      return { method: name, ...exactAtCell[name], overWald, minCoverage: null, at: null, meanCoverage: null, keepsBar: null, meetsBoth: null, gridNote: 'passes (3): grid still to run' };
    }),
  ];
  const cpu = process.cpuUsage(cpu0);
  const result = {
    bench: 'More paired 0/1 intervals at n = 200, 5% discordance, exact (bench/peers/paired-intervals-more.txt)',
    date: new Date().toISOString(),
    cell: { ...CELL, keptMass: atCell.mass, tables: tablesAtCell.length },
    grid: { cells: grid.cells, minKeptMass: grid.minMass },
    bars: { minCoverage: COVERS, meanCoverage: MEAN_BAR, overWald: WIDTH_BAR },
    exactSettings: { deltaStep: DELTA_STEP, deltaMax: DELTA_MAX, nuisancePoints: NUISANCE + 1, alphaPerTail: ALPHA_HALF, intervalAtGridEdge: ex.atEdge },
    checks: checkRows,
    rows,
    meetsBoth: rows.filter((r) => r.meetsBoth).map((r) => r.method),
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** The Markdown of a result (the docs' section between <!-- peers:paired-intervals-more:start/end -->). */
function table(res) {
  const f4 = (x) => (x === null ? '–' : x.toFixed(4));
  const lines = [
    `Exact (no Monte Carlo; \`nice -n 19 node bench/peers/paired-intervals-more.mjs\`, ${res.date.slice(0, 10)}; registered in bench/peers/paired-intervals-more.txt): the cell n = ${res.cell.n}, p10 = p01 = ${res.cell.p10} (truth 0), and issue 25's grid (${res.grid.cells} cells as above; smallest kept probability mass ${res.grid.minKeptMass.toFixed(12)}). Meets both = min coverage ≥ ${res.bars.minCoverage} and mean coverage ≥ ${res.bars.meanCoverage} on the grid, and width ≤ ${res.bars.overWald.toFixed(2)}× Wald at the cell. Exact unconditional intervals: δ on a grid of step ${res.exactSettings.deltaStep}, nuisance sup over ${res.exactSettings.nuisancePoints} points.`,
    '',
    '| interval | coverage at the cell | expected width | × Wald | min coverage on the grid | where (n, r, Δ/r) | cells < 0.93 | mean coverage | keeps the bar | meets both |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...res.rows.map((r) => `| ${r.method} | ${f4(r.coverage)} | ${f4(r.width)} | ${r.overWald.toFixed(3)} | ${r.gridNote ?? f4(r.minCoverage)} | ${r.at ? `${r.at.n}, ${r.at.r}, ${r.at.f}` : '–'} | ${r.cellsBelowBar ?? '–'} | ${f4(r.meanCoverage)} | ${r.keepsBar === null ? '–' : r.keepsBar ? 'yes' : 'no'} | ${r.meetsBoth === null ? '?' : r.meetsBoth ? '**yes**' : 'no'} |`),
    '',
    res.meetsBoth.length ? `Meets both: ${res.meetsBoth.join(', ')}.` : 'No candidate meets both.',
    '',
    'Checks (printed by the script): ' + res.checks.map((c) => `${c.label}: ${c.got.map((x) => x.toFixed(6)).join(c.label.includes('coverage') ? ', ' : ' to ')}${c.ok ? '' : ' FAILED'}`).join('; ') + '.',
    '',
  ];
  return lines.join('\n');
}
