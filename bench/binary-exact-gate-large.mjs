#!/usr/bin/env node
// The 0/1 gate rule above 200 items, exactly (rule: bench/binary-exact-gate-large.txt, committed
// before the first run). Run: npm run build && node bench/binary-exact-gate-large.mjs
import { exactScoreNonInferiority, pairedProportionBounds, tangoStatistic } from '../dist/paired/index.js';
import { binomialRange } from './trinomial.mjs';

const Z1 = 1.6448536269514722;
const ALPHA = 0.05;
const TAIL = 1e-12;
const CELLS = [[268, 0.01], [269, 0.01], [500, 0.01], [539, 0.005], [540, 0.005], [500, 0.02], [1000, 0.02], [500, 0.05], [1000, 0.05]];

/** P(pass) under (p10, p01), for pass(b, c). */
function probability(n, p10, p01, pass) {
  let total = 0;
  let mass = 0;
  const B = binomialRange(n, p10);
  B.pmf.forEach((pb, i) => {
    const b = B.lo + i;
    const C = binomialRange(n - b, p01 / (1 - p10));
    C.pmf.forEach((pc, j) => {
      const c = C.lo + j;
      mass += pb * pc;
      if (pass(b, c)) total += pb * pc;
    });
  });
  return total / mass;
}

const started = Date.now();
let worst = 0;
console.log('# node bench/binary-exact-gate-large.mjs');
console.log('n     m      r      | tango alone: false pass  power | gate rule: false pass  power');
for (const [n, m] of CELLS) {
  const pairs = [];
  for (let b = 0; b <= n; b++) for (let c = 0; b + c <= n; c++) pairs.push({ b, c, z: tangoStatistic(b, c, n, -m) });
  pairs.sort((x, y) => y.z - x.z);
  const p = (k) => exactScoreNonInferiority({ both: n - pairs[k].b - pairs[k].c, onlyA: pairs[k].b, onlyB: pairs[k].c, neither: 0 }, -m).pValue;
  // Only tables Tango passes can pass the rule: bisection within that prefix.
  let top = pairs.findIndex((x) => !(x.z > Z1)) - 1;
  if (top < -1) top = pairs.length - 1;
  let lo = -1;
  let hi = top + 1;
  if (top >= 0 && p(top) <= ALPHA) lo = top;
  else {
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (p(mid) <= ALPHA) lo = mid;
      else hi = mid;
    }
  }
  const exactPass = new Set();
  for (let k = 0; k <= lo; k++) exactPass.add(pairs[k].b * (n + 1) + pairs[k].c);
  const tangoMemo = new Map();
  const tangoPass = (b, c) => {
    const key = b * (n + 1) + c;
    if (!tangoMemo.has(key)) tangoMemo.set(key, pairedProportionBounds({ both: n - b - c, onlyA: b, onlyB: c, neither: 0 }, 'tango', Z1)[0] > -m);
    return tangoMemo.get(key);
  };
  const rulePass = (b, c) => tangoPass(b, c) && exactPass.has(b * (n + 1) + c);
  for (const r of [...new Set([m, 2 * m, 5 * m, 0.1, 0.3, 0.5])].filter((x) => x >= m - 1e-12).sort((x, y) => x - y)) {
    const fpT = probability(n, (r - m) / 2, (r + m) / 2, tangoPass);
    const fpR = probability(n, (r - m) / 2, (r + m) / 2, rulePass);
    const powT = probability(n, r / 2, r / 2, tangoPass);
    const powR = probability(n, r / 2, r / 2, rulePass);
    worst = Math.max(worst, fpR);
    console.log(`${String(n).padEnd(5)} ${String(m).padEnd(6)} ${String(r).padEnd(6)} | ${fpT.toFixed(4).padStart(23)}  ${powT.toFixed(3)} | ${fpR.toFixed(4).padStart(21)}  ${powR.toFixed(3)}`);
  }
}
console.log(`\nlargest gate-rule false pass: ${worst.toFixed(4)} → ${worst <= 0.055 ? 'HOLDS' : 'does NOT hold'} (rule: ≤ 0.055 in every cell); ${Math.round((Date.now() - started) / 1000)} s`);
