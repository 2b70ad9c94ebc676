// Confirmation of the continuous two-sided default on the real COMET and BLEU cells of
// bench/real-data-study.mjs, at 20,000 fresh samples per cell (issue 25; helper h29).
// Registered rule (hypothesis, grid, decision): bench/real-data-confirm.txt, committed before this ran.
//
//   npm run build && nice -n 19 node bench/real-data-confirm.mjs
//   CONFIRM_REPS=500 node bench/real-data-confirm.mjs          # quick look (MC SE about 0.011)
//   CONFIRM_JSON=out.json node bench/real-data-confirm.mjs     # also write the numbers as JSON
//
// Skips with a printed line when /work/shared/real-logs is absent.
import { existsSync, writeFileSync } from 'node:fs';
import { calamitaPair } from './real-populations.mjs';
import { autoPairedInterval } from '../dist/paired/auto-interval.js';
import { studentTQuantile } from '../dist/distributions/distributions.js';
import { generator, hash, drawPaired } from './simulate.mjs';

const LOGS = process.env.REAL_LOGS ?? '/work/shared/real-logs';
const REPS = Number(process.env.CONFIRM_REPS ?? 20000);
const NS = [10, 20, 40, 80, 160];
const LEVEL = 0.95;
const TAG = 'confirm-h29';

function moments(d) {
  const n = d.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += d[i];
  m /= n;
  let m2 = 0;
  for (let i = 0; i < n; i++) m2 += (d[i] - m) ** 2;
  return { n, m, s: Math.sqrt(m2 / (n - 1)) };
}
/** The study's t: two-sided [lo, hi], or the one-sided 95% lower bound. */
function tInterval(d, side) {
  const { n, m, s } = moments(d);
  const q = studentTQuantile(side === 'lower' ? LEVEL : 1 - (1 - LEVEL) / 2, n - 1);
  const se = s / Math.sqrt(n);
  return side === 'lower' ? [m - q * se, Infinity] : [m - q * se, m + q * se];
}
function loadPopulations() {
  return ['comet_score', 'bleu_score'].map((metric) => ({ name: `CALAMITA ${metric.replace('_score', '').toUpperCase()}, en→it − it→en`, ...calamitaPair(LOGS, metric) }));
}
const mcse = (p, R) => Math.sqrt((p * (1 - p)) / R);
const f4 = (x) => x.toFixed(4);

if (!existsSync(LOGS)) {
  console.log(`skipped: ${LOGS} is absent (the shared corpus of real tool files)`);
  process.exit(0);
}
const json = { settings: { reps: REPS, confidenceLevel: LEVEL, ns: NS, seedTag: TAG }, cells: [] };
const started = Date.now();
let failures = 0;
for (const pop of loadPopulations()) {
  const d0 = Float64Array.from(pop.a, (x, i) => x - pop.b[i]);
  const { m: truth, s: sd } = moments(d0);
  console.log(`\n${pop.name}: N = ${d0.length}, truth ${truth.toFixed(5)}, sd ${sd.toFixed(4)}`);
  for (const replace of [true, false]) {
    for (const n of NS) {
      const st = { cover: 0, width: 0, zero: 0, tCover: 0, tWidth: 0, disagree: 0, tLowerFail: 0, used: {} };
      for (let r = 0; r < REPS; r++) {
        const seed = hash(`${TAG}|${pop.name}|${replace ? 'w' : 'wo'}|${n}|${r}`);
        const { a, b } = drawPaired(pop, n, replace, generator(seed));
        const d = Float64Array.from(a, (x, i) => x - b[i]);
        const res = autoPairedInterval(a, b, { seed, confidenceLevel: LEVEL, alternative: 'two-sided' });
        st.used[res.methodUsed] = (st.used[res.methodUsed] ?? 0) + 1;
        const [lo, hi] = res.confidenceInterval;
        if (lo <= truth && truth <= hi) st.cover++;
        st.width += hi - lo;
        if (hi - lo === 0) st.zero++;
        const [tl, th] = tInterval(d, 'two');
        if (tl <= truth && truth <= th) st.tCover++;
        st.tWidth += th - tl;
        if (res.methodUsed === 't' && (Math.abs(tl - lo) > 1e-12 || Math.abs(th - hi) > 1e-12)) st.disagree++;
        if (tInterval(d, 'lower')[0] > truth) st.tLowerFail++;
      }
      const cov = st.cover / REPS;
      const se = mcse(cov, REPS);
      const fails = cov + 1.96 * se < 0.93;
      if (fails) failures++;
      const cell = {
        population: pop.name, n, replace, reps: REPS, truth,
        coverage: cov, mcse: se, meanWidth: st.width / REPS, zeroWidthRate: st.zero / REPS,
        tCoverage: st.tCover / REPS, tMeanWidth: st.tWidth / REPS, tAutoDisagree: st.disagree,
        tOneSidedFalsePass: st.tLowerFail / REPS, methodUsed: st.used, fails,
      };
      json.cells.push(cell);
      console.log(`  n = ${String(n).padStart(3)} ${replace ? 'w ' : 'wo'}  auto cover ${f4(cov)} ± ${f4(se)}  width ${f4(cell.meanWidth)}  zero ${cell.zeroWidthRate}  | t cover ${f4(cell.tCoverage)} (t≠auto on t path: ${st.disagree})  t one-sided false pass ${f4(cell.tOneSidedFalsePass)}  | used ${Object.entries(st.used).map(([k, v]) => `${k} ${v}`).join(', ')}  ${fails ? 'FAILS' : 'holds'}`);
    }
  }
}
console.log(`\ncells failing (coverage + 1.96·MCSE < 0.93): ${failures} of ${json.cells.length}`);
console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
if (process.env.CONFIRM_JSON) writeFileSync(process.env.CONFIRM_JSON, JSON.stringify(json, null, 1));
