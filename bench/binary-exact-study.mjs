#!/usr/bin/env node
// The paired 0/1 default chosen by exact enumeration over the whole four-cell outcome space
// (issue 25). The rule (grid, candidates, why each cell, decision rule) is bench/binary-exact-study.txt,
// committed before this script first ran. No Monte Carlo: every table is weighted by its multinomial
// probability; the only reduction is skipping binomial tails below 1e-12 (the kept mass is printed).
// Run: npm run build && node bench/binary-exact-study.mjs [--quick]   (writes bench/binary-exact-study.json)
import { writeFileSync } from 'node:fs';
import { exactScoreNonInferiority, pairedProportionBounds, tangoStatistic } from '../dist/paired/index.js';
import { binomialRange, logFactorialTable } from './trinomial.mjs';

const LF = logFactorialTable(5001);

const QUICK = process.argv.includes('--quick');
// --out FILE (relative to bench/): where the per-cell JSON goes; default binary-exact-study.json.
// The re-run with the n/(n − 1)-corrected Tango default (bench/binary-tango-fix.txt) writes
// binary-exact-study-bcf.json so the registered run's numbers stay beside their text.
const OUT = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : 'binary-exact-study.json';
const Z2 = 1.959963984540054; // two-sided 95%
const Z1 = 1.6448536269514722; // one-sided 95% (the gate's bound)
const ALPHA = 0.05;
const TAIL = 1e-12;
const NS = QUICK ? [10, 20, 30, 39, 50, 100, 200] : [10, 20, 30, 39, 50, 100, 200, 500, 1000];
const RS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5];
const FS = [-1, -0.5, -0.2, 0, 0.2, 0.5, 1];
const SS = [0, 0.1, 0.5, 0.9, 1];
const MS = [0.005, 0.01, 0.02, 0.05, 0.1];
const EXACT_MAX_N = 200;
// Reduction, stated in the results: Newcombe's a-loop (mixed concordant split 0 < s < 1) is
// enumerated for n ≤ this only; at n = 500 and 1,000 Newcombe is enumerated exactly at s = 0 and 1
// (no a-loop) and its mixed-split cells are left out (cost: ~n^2.5 per cell on a shared machine; its
// failure is already shown at n ≤ 200). Tango and Bonett–Price do not depend on the split.
const NEWCOMBE_SPLIT_MAX_N = 200;
const METHODS = ['tango', 'newcombe', 'bonett-price'];

/** Visit every table (a, b, c, d) with probability; a-loop only when wanted and 0 < s < 1. */
function enumerate(n, p10, p01, s, withSplit, visit) {
  let mass = 0;
  const B = binomialRange(n, p10);
  for (let i = 0; i < B.pmf.length; i++) {
    const b = B.lo + i;
    const pb = B.pmf[i];
    const C = binomialRange(n - b, p10 < 1 ? p01 / (1 - p10) : 0);
    for (let j = 0; j < C.pmf.length; j++) {
      const c = C.lo + j;
      const pbc = pb * C.pmf[j];
      const rest = n - b - c;
      if (!withSplit || s === 0 || s === 1 || rest === 0) {
        const a = s === 1 ? rest : s === 0 ? 0 : Math.round(rest * s);
        visit(a, b, c, rest - a, pbc, !withSplit);
        mass += pbc;
        continue;
      }
      const A = binomialRange(rest, s);
      for (let k = 0; k < A.pmf.length; k++) {
        const a = A.lo + k;
        const p = pbc * A.pmf[k];
        visit(a, b, c, rest - a, p, false);
        mass += p;
      }
    }
  }
  return mass;
}

// Tango's bounds depend on (b, c, n) only: memoised per n.
const tangoMemo = new Map();
function tango(n, b, c) {
  let memo = tangoMemo.get(n);
  if (memo === undefined) tangoMemo.set(n, (memo = new Map()));
  const key = b * (n + 1) + c;
  let v = memo.get(key);
  if (v === undefined) {
    const counts = { both: n - b - c, onlyA: b, onlyB: c, neither: 0 };
    const [lo2, hi2] = pairedProportionBounds(counts, 'tango', Z2);
    const lo1 = pairedProportionBounds(counts, 'tango', Z1)[0];
    v = [lo2, hi2, lo1];
    memo.set(key, v);
  }
  return v;
}

function newcombe(a, b, c, d) {
  const counts = { both: a, onlyA: b, onlyB: c, neither: d };
  const [lo2, hi2] = pairedProportionBounds(counts, 'newcombe', Z2);
  const lo1 = pairedProportionBounds(counts, 'newcombe', Z1)[0];
  return [lo2, hi2, lo1];
}

/** Bonett & Price (2012) adjusted Wald: p̃ = (b + 1)/(n + 2), (c + 1)/(n + 2); SE² = (p̃12 + p̃21 − Δ̃²)/(n + 2). */
function bonettPrice(n, b, c) {
  const p12 = (b + 1) / (n + 2);
  const p21 = (c + 1) / (n + 2);
  const d = p12 - p21;
  const se = Math.sqrt((p12 + p21 - d * d) / (n + 2));
  return [Math.max(-1, d - Z2 * se), Math.min(1, d + Z2 * se), Math.max(-1, d - Z1 * se)];
}

function boundsOf(method, n, a, b, c, d) {
  if (method === 'tango') return tango(n, b, c);
  if (method === 'newcombe') return newcombe(a, b, c, d);
  return bonettPrice(n, b, c);
}

/**
 * One parameter cell, every method: coverage of `truth`, mean width, zero-width rate, and
 * P(one-sided bound > threshold) for each threshold given.
 */
function cell(n, p10, p01, s, thresholds) {
  const out = {};
  let minMass = 1;
  for (const method of METHODS) {
    if (method === 'newcombe' && n > NEWCOMBE_SPLIT_MAX_N && s > 0 && s < 1) {
      out[method] = null;
      continue;
    }
    const acc = { coverage: 0, width: 0, zeroWidth: 0, pass: thresholds.map(() => 0) };
    const truth = p10 - p01;
    const mass = enumerate(n, p10, p01, s, method === 'newcombe', (a, b, c, d, p) => {
      const [lo2, hi2, lo1] = boundsOf(method, n, a, b, c, d);
      if (lo2 <= truth && truth <= hi2) acc.coverage += p;
      acc.width += p * (hi2 - lo2);
      if (hi2 - lo2 <= 1e-9) acc.zeroWidth += p;
      for (let t = 0; t < thresholds.length; t++) if (lo1 > thresholds[t]) acc.pass[t] += p;
    });
    minMass = Math.min(minMass, mass);
    out[method] = { coverage: acc.coverage / mass, width: acc.width / mass, zeroWidth: acc.zeroWidth / mass, pass: acc.pass.map((x) => x / mass) };
  }
  return { out, mass: minMass };
}

// ---- exact unconditional score test (Hsueh, Liu & Chen 2001), gate only, n ≤ EXACT_MAX_N ----
const exactMemo = new Map();
function exactRegion(n, m, extraP01) {
  const key = `${n}:${m}`;
  if (exactMemo.has(key)) return exactMemo.get(key);
  const pairs = [];
  for (let b = 0; b <= n; b++) for (let c = 0; b + c <= n; c++) pairs.push({ b, c, z: tangoStatistic(b, c, n, -m) });
  pairs.sort((x, y) => y.z - x.z);
  const N = pairs.length;
  const sup = new Float64Array(N);
  const thetas = [];
  for (let i = 0; i <= 400; i++) thetas.push(m + ((1 + m) / 2 - m) * (i / 400));
  for (const t of extraP01) if (t >= m && t <= (1 + m) / 2) thetas.push(t);
  for (const p01 of thetas) {
    const p10 = p01 - m;
    const pc = 1 - p10 - p01;
    const l10 = p10 > 0 ? Math.log(p10) : -Infinity;
    const l01 = Math.log(p01);
    const lc = pc > 0 ? Math.log(pc) : -Infinity;
    let cum = 0;
    for (let k = 0; k < N; k++) {
      const { b, c } = pairs[k];
      const rest = n - b - c;
      const lp = LF[n] - LF[b] - LF[c] - LF[rest] + (b > 0 ? b * l10 : 0) + (c > 0 ? c * l01 : 0) + (rest > 0 ? rest * lc : 0);
      cum += Math.exp(lp);
      if (cum > sup[k]) sup[k] = cum;
    }
  }
  // Largest prefix, ending at the end of a tie group, whose worst-case size is ≤ α.
  let cut = -1;
  for (let k = 0; k < N; k++) {
    if (sup[k] > ALPHA) break;
    if (k === N - 1 || pairs[k + 1].z < pairs[k].z) cut = k;
  }
  const reject = new Uint8Array((n + 1) * (n + 1));
  for (let k = 0; k <= cut; k++) reject[pairs[k].b * (n + 1) + pairs[k].c] = 1;
  const region = { reject, size: cut >= 0 ? sup[cut] : 0 };
  exactMemo.set(key, region);
  return region;
}

function exactPass(n, m, p10, p01, extraP01) {
  const { reject } = exactRegion(n, m, extraP01);
  let pass = 0;
  const mass = enumerate(n, p10, p01, 0, false, (a, b, c, d, p) => {
    if (reject[b * (n + 1) + c]) pass += p;
  });
  return pass / mass;
}

// ---- the gate's rule as implemented (added after registration, reported apart from the decision):
// pass iff Tango's one-sided bound clears −m AND the library's exactScoreNonInferiority gives p ≤ α.
// Its p grows as Z(b, c; −m) falls, so the library's rejection set is a prefix of the tables sorted
// by Z: found by bisection with the library function itself.
const gateMemo = new Map();
function gateRuleRegion(n, m) {
  const key = `${n}:${m}`;
  if (gateMemo.has(key)) return gateMemo.get(key);
  const pairs = [];
  for (let b = 0; b <= n; b++) for (let c = 0; b + c <= n; c++) pairs.push({ b, c, z: tangoStatistic(b, c, n, -m) });
  pairs.sort((x, y) => y.z - x.z);
  const p = (k) => exactScoreNonInferiority({ both: n - pairs[k].b - pairs[k].c, onlyA: pairs[k].b, onlyB: pairs[k].c, neither: 0 }, -m).pValue;
  let lo = -1;
  let hi = pairs.length - 1;
  if (p(hi) <= ALPHA) lo = hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (p(mid) <= ALPHA) lo = mid;
    else hi = mid;
  }
  const pass = new Uint8Array((n + 1) * (n + 1));
  for (let k = 0; k <= lo; k++) if (tango(n, pairs[k].b, pairs[k].c)[2] > -m) pass[pairs[k].b * (n + 1) + pairs[k].c] = 1;
  gateMemo.set(key, pass);
  return pass;
}

function gateRulePass(n, m, p10, p01) {
  const pass = gateRuleRegion(n, m);
  let total = 0;
  const mass = enumerate(n, p10, p01, 0, false, (a, b, c, d, p) => {
    if (pass[b * (n + 1) + c]) total += p;
  });
  return total / mass;
}

/** Smallest n at which a table with no discordant item (half both right) passes margin m. */
function zeroCountThreshold(method, m) {
  for (let n = 2; n <= 20000; n++) {
    const a = Math.ceil(n / 2);
    const lo1 = boundsOf(method, n, a, 0, 0, n - a)[2];
    if (lo1 > -m) return n;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
const started = Date.now();
const result = { settings: { quick: QUICK, ns: NS, discordance: RS, differenceShare: FS, bothRightShare: SS, margins: MS, tail: TAIL, exactMaxN: EXACT_MAX_N }, coverage: [], gate: [], checks: {} };
let worstMass = 1;

// Coverage cells.
for (const n of NS) {
  for (const r of RS) {
    for (const f of FS) {
      for (const s of SS) {
        const p10 = (r * (1 + f)) / 2;
        const p01 = (r * (1 - f)) / 2;
        const { out, mass } = cell(n, p10, p01, s, []);
        worstMass = Math.min(worstMass, mass);
        result.coverage.push({ n, discordance: r, difference: p10 - p01, bothRightShare: s, ...Object.fromEntries(METHODS.filter((k) => out[k] !== null).map((k) => [k, { coverage: out[k].coverage, width: out[k].width, zeroWidth: out[k].zeroWidth }])) });
      }
    }
  }
  process.stderr.write(`coverage n = ${n} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
}

// Gate cells: per margin, the base n grid plus each method's zero-count threshold n₀ and n₀ + 1.
const thresholds = {};
for (const m of MS) thresholds[m] = Object.fromEntries(METHODS.map((k) => [k, zeroCountThreshold(k, m)]));
result.checks.zeroCountThresholds = thresholds;
for (const m of MS) {
  const extraN = new Set();
  for (const k of METHODS) if (thresholds[m][k] !== null && thresholds[m][k] <= (QUICK ? 200 : 1000)) [thresholds[m][k], thresholds[m][k] + 1].forEach((x) => extraN.add(x));
  const ns = [...new Set([...NS, ...extraN])].sort((x, y) => x - y);
  const rs = RS.filter((r) => r >= m - 1e-12);
  const extraP01 = rs.map((r) => (r + m) / 2);
  for (const n of ns) {
    for (const r of rs) {
      for (const s of SS) {
        const drop = cell(n, (r - m) / 2, (r + m) / 2, s, [-m]);
        const same = cell(n, r / 2, r / 2, s, [-m]);
        worstMass = Math.min(worstMass, drop.mass, same.mass);
        const row = { n, margin: m, discordance: r, bothRightShare: s };
        for (const k of METHODS) if (drop.out[k] !== null) row[k] = { falsePass: drop.out[k].pass[0], power: same.out[k].pass[0] };
        if (n <= EXACT_MAX_N && s === SS[0]) {
          // exact-score and the gate's rule depend on (b, c, n) only: computed once per (n, m, r).
          row['exact-score'] = { falsePass: exactPass(n, m, (r - m) / 2, (r + m) / 2, extraP01), power: exactPass(n, m, r / 2, r / 2, extraP01) };
          row['gate-rule'] = { falsePass: gateRulePass(n, m, (r - m) / 2, (r + m) / 2), power: gateRulePass(n, m, r / 2, r / 2) };
        }
        result.gate.push(row);
      }
    }
  }
  process.stderr.write(`gate margin ${m} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
}
for (const row of result.gate) {
  if (row['exact-score'] === undefined && row.n <= EXACT_MAX_N) {
    const first = result.gate.find((x) => x.n === row.n && x.margin === row.margin && x.discordance === row.discordance && x['exact-score'] !== undefined);
    row['exact-score'] = first['exact-score'];
    row['gate-rule'] = first['gate-rule'];
  }
}

// The issue's case: 39 agreeing items, 20 both right and 19 both wrong, margin 0.05.
result.checks.agree39 = Object.fromEntries(METHODS.map((k) => {
  const lo1 = boundsOf(k, 39, 20, 0, 0, 19)[2];
  return [k, { lowerBound: lo1, passesMargin005: lo1 > -0.05 }];
}));
result.checks.worstKeptMass = worstMass;
result.seconds = Math.round((Date.now() - started) / 1000);

// Every probability rounded to 6 decimals, one line: the per-cell file stays near 1 MB.
function compactJson(value) {
  return JSON.stringify(value, (_key, x) => (typeof x === 'number' && !Number.isInteger(x) ? Math.round(x * 1e6) / 1e6 : x)) + '\n';
}

// ---- summaries ----
const fmt = (x, d = 3) => (x === undefined || x === null ? '—' : x.toFixed(d));
const summary = {};
const GATE_ONLY = ['exact-score', 'gate-rule'];
for (const k of [...METHODS, ...GATE_ONLY]) {
  const covRows = GATE_ONLY.includes(k) ? [] : result.coverage.filter((row) => row[k] !== undefined);
  const cov = covRows.map((row) => ({ row, v: row[k].coverage }));
  const gate = result.gate.filter((row) => row[k] !== undefined);
  const fp = gate.map((row) => ({ row, v: row[k].falsePass }));
  const covBad = cov.filter((x) => x.v < 0.93);
  const fpBad = fp.filter((x) => x.v > 0.055);
  summary[k] = {
    coverageCells: cov.length,
    minCoverage: cov.length ? Math.min(...cov.map((x) => x.v)) : null,
    meanCoverage: cov.length ? cov.reduce((t, x) => t + x.v, 0) / cov.length : null,
    coverageBelow093: covBad.length,
    meanWidth: cov.length ? covRows.reduce((t, row) => t + row[k].width, 0) / cov.length : null,
    maxZeroWidth: cov.length ? Math.max(...covRows.map((row) => row[k].zeroWidth)) : null,
    gateCells: fp.length,
    maxFalsePass: Math.max(...fp.map((x) => x.v)),
    falsePassAbove0055: fpBad.length,
    meanPower: gate.reduce((t, row) => t + row[k].power, 0) / gate.length,
    worstCoverage: covBad.sort((x, y) => x.v - y.v).slice(0, 8).map((x) => ({ n: x.row.n, discordance: x.row.discordance, difference: x.row.difference, bothRightShare: x.row.bothRightShare, coverage: x.v })),
    worstFalsePass: fpBad.sort((x, y) => y.v - x.v).slice(0, 8).map((x) => ({ n: x.row.n, margin: x.row.margin, discordance: x.row.discordance, bothRightShare: x.row.bothRightShare, falsePass: x.v })),
  };
}
result.summary = summary;
writeFileSync(new URL('./' + OUT, import.meta.url), compactJson(result));

console.log(`# node bench/binary-exact-study.mjs${QUICK ? ' --quick' : ''}   (${result.seconds} s; least probability mass kept in a cell: ${worstMass.toFixed(12)})`);
console.log('\n## Summary per method (coverage cells: two-sided 95%; gate cells: one-sided 95% bound, margin m)');
console.log('method        cov.cells  min cov  mean cov  cells<0.93  mean width  max zero-width | gate cells  max false pass  cells>0.055  mean power');
for (const k of [...METHODS, ...GATE_ONLY]) {
  const s = summary[k];
  console.log(`${k.padEnd(13)} ${String(s.coverageCells).padStart(9)}  ${fmt(s.minCoverage).padStart(7)}  ${fmt(s.meanCoverage, 4).padStart(8)}  ${String(GATE_ONLY.includes(k) ? '—' : s.coverageBelow093).padStart(10)}  ${fmt(s.meanWidth, 4).padStart(10)}  ${fmt(s.maxZeroWidth).padStart(14)} | ${String(s.gateCells).padStart(10)}  ${fmt(s.maxFalsePass, 4).padStart(14)}  ${String(s.falsePassAbove0055).padStart(11)}  ${fmt(s.meanPower).padStart(10)}`);
}
for (const k of [...METHODS, ...GATE_ONLY]) {
  const s = summary[k];
  if (s.worstCoverage.length) console.log(`\n${k}: lowest coverage cells: ${s.worstCoverage.map((x) => `n=${x.n} r=${x.discordance} Δ=${fmt(x.difference, 4)} s=${x.bothRightShare}: ${fmt(x.coverage)}`).join('; ')}`);
  if (s.worstFalsePass.length) console.log(`${k}: highest false-pass cells: ${s.worstFalsePass.map((x) => `n=${x.n} m=${x.margin} r=${x.discordance} s=${x.bothRightShare}: ${fmt(x.falsePass, 4)}`).join('; ')}`);
}

console.log('\n## Two-sided coverage, min over Δ and the concordant split s (and mean width at Δ = 0, s = 0.5), by n and discordance r');
console.log(`n     r      | ${METHODS.map((k) => `${k} min cov  width`).join(' | ')}`);
for (const n of NS) {
  for (const r of RS) {
    const rows = result.coverage.filter((x) => x.n === n && x.discordance === r);
    const mid = rows.find((x) => x.difference === 0 && x.bothRightShare === 0.5);
    const minCov = (k) => {
      const have = rows.filter((x) => x[k] !== undefined);
      return Math.min(...have.map((x) => x[k].coverage));
    };
    console.log(`${String(n).padEnd(5)} ${String(r).padEnd(6)} | ${METHODS.map((k) => `${fmt(minCov(k)).padStart(k.length + 8)}  ${fmt(mid[k]?.width)}`).join(' | ')}`);
  }
}

console.log('\n## Gate: false pass at a true drop equal to the margin (max over discordance r ≥ m and split s) and power at no change (r = 2m or the nearest, s = 0.5), by n and margin');
console.log(`n     m      | ${[...METHODS, ...GATE_ONLY].map((k) => `${k} max FP  power`).join(' | ')}`);
for (const m of MS) {
  const ns = [...new Set(result.gate.filter((x) => x.margin === m).map((x) => x.n))].sort((x, y) => x - y);
  for (const n of ns) {
    const rows = result.gate.filter((x) => x.margin === m && x.n === n);
    const rPow = RS.find((r) => r >= 2 * m - 1e-12);
    const powRow = rows.find((x) => x.discordance === rPow && x.bothRightShare === 0.5) ?? rows[0];
    const cellText = (k) => {
      const have = rows.filter((x) => x[k] !== undefined);
      if (!have.length) return `${'—'.padStart(k.length + 7)}  ${'—'.padStart(5)}`;
      return `${fmt(Math.max(...have.map((x) => x[k].falsePass)), 4).padStart(k.length + 7)}  ${fmt(powRow[k]?.power).padStart(5)}`;
    };
    console.log(`${String(n).padEnd(5)} ${String(m).padEnd(6)} | ${[...METHODS, ...GATE_ONLY].map(cellText).join(' | ')}`);
  }
}

console.log('\n## Zero-count thresholds n₀(m): smallest n at which a table with no discordant item passes margin m');
for (const m of MS) console.log(`m = ${m}: ${METHODS.map((k) => `${k} ${thresholds[m][k]}`).join(', ')}`);
console.log('\n## 39 agreeing items (20 both right, 19 both wrong), margin 0.05');
for (const k of METHODS) console.log(`${k}: one-sided 95% bound ${fmt(result.checks.agree39[k].lowerBound, 4)} → ${result.checks.agree39[k].passesMargin005 ? 'PASSES' : 'does not pass'}`);

// ---- the registered decision rule ----
console.log('\n## Decision (rule in bench/binary-exact-study.txt)');
const verdicts = METHODS.map((k) => {
  const s = summary[k];
  const qualifies = s.coverageBelow093 === 0 && s.meanCoverage >= 0.95 && s.falsePassAbove0055 === 0 && s.maxZeroWidth === 0 && !result.checks.agree39[k].passesMargin005;
  return { k, qualifies, violations: s.coverageBelow093 + s.falsePassAbove0055, s };
});
for (const v of verdicts) console.log(`${v.k}: ${v.qualifies ? 'QUALIFIES' : 'does not qualify'} (coverage cells < 0.93: ${v.s.coverageBelow093}, mean coverage ${fmt(v.s.meanCoverage, 4)}, false-pass cells > 0.055: ${v.s.falsePassAbove0055}, max zero-width ${fmt(v.s.maxZeroWidth)}, 39-agree passes: ${result.checks.agree39[v.k].passesMargin005})`);
const qualified = verdicts.filter((v) => v.qualifies);
let chosen;
if (qualified.length) {
  qualified.sort((x, y) => x.s.meanWidth - y.s.meanWidth);
  chosen = qualified[0];
  const tie = qualified.filter((v) => v.s.meanWidth <= chosen.s.meanWidth * 1.02).sort((x, y) => y.s.meanPower - x.s.meanPower);
  chosen = tie[0];
  console.log(`default: ${chosen.k} (qualifies; smallest mean width within 2%, then highest mean power)`);
} else {
  verdicts.sort((x, y) => x.violations - y.violations || x.s.maxFalsePass - y.s.maxFalsePass);
  chosen = verdicts[0];
  console.log(`no interval method qualifies: default ${chosen.k} (fewest violating cells: ${chosen.violations}; worst false pass ${fmt(chosen.s.maxFalsePass, 4)}); issue 25's 0/1 "Done when" is NOT met`);
  const e = summary['exact-score'];
  console.log(`exact-score (gate only, n ≤ ${EXACT_MAX_N}; the study's own implementation): max false pass ${fmt(e.maxFalsePass, 4)} on ${e.gateCells} cells (${e.falsePassAbove0055} above 0.055), mean power ${fmt(e.meanPower)}`);
}
const g = summary['gate-rule'];
console.log(`gate-rule (added after registration: Tango's bound AND the library's exact test, n ≤ ${EXACT_MAX_N}): max false pass ${fmt(g.maxFalsePass, 4)} on ${g.gateCells} cells (${g.falsePassAbove0055} above 0.055), mean power ${fmt(g.meanPower)} (tango alone on the same cells: ${fmt(result.gate.filter((x) => x['gate-rule'] !== undefined).reduce((t, x) => t + x.tango.power, 0) / g.gateCells)})`);
result.decision = { chosen: chosen.k, qualified: qualified.map((v) => v.k) };
writeFileSync(new URL('./' + OUT, import.meta.url), compactJson(result));
