// The real-data resampling study of issue 25 (items 2 and 7(b)): the continuous interval rule on
// populations built from real tool files, resampled at small n, beside the synthetic designs.
// Registered rule (hypothesis, grid, decision): bench/real-data-study.txt, committed before this ran.
//
//   npm run build && node bench/real-data-study.mjs            # every table (a few minutes)
//   REAL_REPS=200 node bench/real-data-study.mjs               # quick look (larger MC error)
//   REAL_ONLY=real|synthetic node bench/real-data-study.mjs    # one part
//   REAL_JSON=out.json node bench/real-data-study.mjs          # also write the numbers as JSON
//
// Populations (the truth is the population's mean difference): see POPULATIONS below, each with why
// an adversary would pick it. Skips with a printed line when /work/shared/real-logs is absent.
// Every interval is 95%; one-sided bounds (the gate's) are 95% lower bounds.
import { existsSync, writeFileSync } from 'node:fs';
import { loadRealPopulations } from './real-populations.mjs';
import { autoPairedInterval } from '../dist/paired/auto-interval.js';
import { studentizedBootstrap } from '../dist/bootstrap/studentized.js';
import { meanBootstrap } from '../dist/bootstrap/mean.js';
import { bettingInterval } from '../dist/paired/betting-interval.js';
import { studentTQuantile } from '../dist/distributions/distributions.js';
import { generator, hash, skewedPartialCredit, drawPaired } from './simulate.mjs';

const LOGS = process.env.REAL_LOGS ?? '/work/shared/real-logs';
const REPS = Number(process.env.REAL_REPS ?? 1000);
const SYN_REPS = Number(process.env.REAL_SYN_REPS ?? 1000);
const B = Number(process.env.REAL_B ?? 999);
const ONLY = process.env.REAL_ONLY ?? 'all';
const NS = [10, 20, 40, 80, 160];
const LEVEL = 0.95;

// --- the candidate rules, on paired differences d (and a, b for auto) ---
function mean(d) {
  let s = 0;
  for (let i = 0; i < d.length; i++) s += d[i];
  return s / d.length;
}
function moments(d) {
  const n = d.length;
  const m = mean(d);
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < n; i++) {
    const e = d[i] - m;
    m2 += e * e;
    m3 += e * e * e;
  }
  return { n, m, s: Math.sqrt(m2 / (n - 1)), gamma: m2 > 0 ? m3 / n / (m2 / n) ** 1.5 : 0 };
}
/** Student t: [lower, upper] at two-sided level, or the one-sided lower bound (side 'lower'). */
function tInterval(d, side) {
  const { n, m, s } = moments(d);
  const q = studentTQuantile(side === 'lower' ? LEVEL : 1 - (1 - LEVEL) / 2, n - 1);
  const se = s / Math.sqrt(n);
  return side === 'lower' ? [m - q * se, Infinity] : [m - q * se, m + q * se];
}
/**
 * Hall's (1992) skewness-removing transformation of the studentized mean (as used by Zhou & Dinh 2005):
 * W = (x̄ − μ)/s, g(W) = W + γ̂W²/3 + γ̂²W³/27 + γ̂/(6n), √n·g(W) ≈ t(n − 1); g is monotone with
 * g⁻¹(y) = (3/γ̂)[(1 + γ̂(y − γ̂/(6n)))^(1/3) − 1], so μ ∈ [x̄ − s·g⁻¹(q/√n), x̄ − s·g⁻¹(−q/√n)].
 * γ̂ = m₃/m₂^(3/2) (moment estimates).
 */
function hallInterval(d, side) {
  const { n, m, s, gamma } = moments(d);
  const q = studentTQuantile(side === 'lower' ? LEVEL : 1 - (1 - LEVEL) / 2, n - 1);
  const ginv = (y) => (Math.abs(gamma) < 1e-12 ? y : (3 / gamma) * (Math.cbrt(1 + gamma * (y - gamma / (6 * n))) - 1));
  if (!(s > 0)) return side === 'lower' ? [m, Infinity] : [m, m];
  const lo = m - s * ginv(q / Math.sqrt(n));
  const hi = m - s * ginv(-q / Math.sqrt(n));
  return side === 'lower' ? [lo, Infinity] : [lo, hi];
}
function studentized(d, side, seed) {
  return studentizedBootstrap(d, { nResamples: B, seed, confidenceLevel: LEVEL, alternative: side === 'lower' ? 'greater' : 'two-sided' }).confidenceInterval;
}
function tThenBca(d, side, seed) {
  if (d.length < 100) return tInterval(d, side);
  return meanBootstrap(d, { method: 'bca', nResamples: B, seed, confidenceLevel: LEVEL, alternative: side === 'lower' ? 'greater' : 'two-sided' }).confidenceInterval;
}
function betting(d, side, seed) {
  return bettingInterval(d, { range: [-1, 1], seed, confidenceLevel: LEVEL, alternative: side === 'lower' ? 'greater' : 'two-sided' }).confidenceInterval;
}
const METHODS = {
  t: (s) => tInterval(s.d, s.side),
  hall: (s) => hallInterval(s.d, s.side),
  studentized: (s) => studentized(s.d, s.side, s.seed),
  't<100,bca': (s) => tThenBca(s.d, s.side, s.seed),
  'betting[0,1]': (s) => (s.unit ? betting(s.d, s.side, s.seed) : null),
  auto: (s) => {
    const r = autoPairedInterval(s.a, s.b, { seed: s.seed, nResamples: B, confidenceLevel: LEVEL, alternative: s.side === 'lower' ? 'greater' : 'two-sided' });
    s.used[r.methodUsed] = (s.used[r.methodUsed] ?? 0) + 1;
    return r.confidenceInterval;
  },
};

// --- populations from the real files: bench/real-populations.mjs ---
const loadPopulations = () => loadRealPopulations(LOGS);

// --- resampling ---
function inUnit(x) {
  for (let i = 0; i < x.length; i++) if (!(x[i] >= 0 && x[i] <= 1)) return false;
  return true;
}
function sdOf(d) {
  return moments(d).s;
}
function newStats() {
  return { cover: 0, finite: 0, width: 0, zero: 0, lowerFail: 0, pass: 0, count: 0, oneCount: 0 };
}

/**
 * One cell: R samples of n (with or without replacement); per method two-sided coverage, mean width,
 * zero-width rate; one-sided lower bound above the truth (= the gate's false pass at a true drop equal
 * to the margin: pass iff bound > −margin = truth) and the pass rate at a true difference of 0 with
 * margin m (bound > truth − m), both from the same one-sided bound.
 */
function runCell(label, sample, truth, n, reps, methods, margin, oneSidedOnly = false) {
  const out = {};
  const used = { two: {}, one: {} };
  for (const m of methods) out[m] = { two: newStats(), one: newStats() };
  for (let r = 0; r < reps; r++) {
    const seed = hash(`${label}|${n}|${r}`);
    const g = generator(seed);
    const { a, b } = sample(n, g);
    const d = Float64Array.from(a, (x, i) => x - b[i]);
    const unit = inUnit(a) && inUnit(b);
    for (const m of methods) {
      const two = oneSidedOnly ? null : METHODS[m]({ a, b, d, side: 'two', seed, unit, used: used.two });
      if (two !== null) {
        const st = out[m].two;
        st.count++;
        const [lo, hi] = two;
        if (Number.isFinite(lo) && Number.isFinite(hi)) {
          st.finite++;
          st.width += hi - lo;
          if (hi - lo === 0) st.zero++;
        }
        if (lo <= truth && truth <= hi) st.cover++;
      }
      const one = METHODS[m]({ a, b, d, side: 'lower', seed, unit, used: used.one });
      if (one !== null) {
        const st = out[m].one;
        st.oneCount++;
        if (one[0] > truth) st.lowerFail++;
        if (one[0] > truth - margin) st.pass++;
      }
    }
  }
  const rows = {};
  for (const m of methods) {
    const { two, one } = out[m];
    if (one.oneCount === 0) continue;
    rows[m] = {
      coverage: two.count > 0 ? two.cover / two.count : NaN,
      meanWidth: two.finite > 0 ? two.width / two.finite : NaN,
      zeroWidthRate: two.count > 0 ? two.zero / two.count : NaN,
      falsePass: one.lowerFail / one.oneCount,
      passAtZero: one.pass / one.oneCount,
    };
  }
  return { rows, used };
}

function mcse(p, R) {
  const q = p === 0 || p === 1 ? 0.95 : p;
  return Math.sqrt((q * (1 - q)) / R);
}
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : String(x));

function printCell(title, res, R, widthAnchor = 't') {
  const tw = res.rows[widthAnchor]?.meanWidth;
  console.log(`  ${title}`);
  for (const [m, r] of Object.entries(res.rows)) {
    console.log(`    ${m.padEnd(13)} cover ${f3(r.coverage)} ± ${f3(mcse(r.coverage, R))}  width ${f3(r.meanWidth)} (${(r.meanWidth / tw).toFixed(2)}× t)  zero ${f3(r.zeroWidthRate)}  falsePass ${f3(r.falsePass)} ± ${f3(mcse(r.falsePass, R))}  passAt0 ${f3(r.passAtZero)}`);
  }
  const fmt = (u) => Object.entries(u).map(([k, v]) => `${k} ${v}`).join(', ');
  if (Object.keys(res.used.two).length > 0) console.log(`    auto used (two-sided): ${fmt(res.used.two)}; (one-sided): ${fmt(res.used.one)}`);
}

const json = { settings: { reps: REPS, synReps: SYN_REPS, nResamples: B, confidenceLevel: LEVEL, ns: NS }, real: [], synthetic: [] };
const started = Date.now();

if (ONLY !== 'synthetic') {
  if (!existsSync(LOGS)) {
    console.log(`skipped the real-data part: ${LOGS} is absent (the shared corpus of real tool files)`);
  } else {
    const pops = loadPopulations();
    for (const pop of pops) {
      const d = Float64Array.from(pop.a, (x, i) => x - pop.b[i]);
      const { m: truth, s: sd, gamma } = moments(d);
      // Gate margin for the pass rate at a true difference of 0: half the population's sd of d.
      const margin = 0.5 * sd;
      // 0/1 populations: auto takes the 0/1 branch (issue 25 item 1, another helper's); t and hall are shown beside it.
      const methods = pop.kind === 'continuous' ? ['t', 'hall', 'studentized', 't<100,bca', 'betting[0,1]', 'auto'] : ['t', 'hall', 'auto'];
      console.log(`\n${pop.name}: N = ${d.length}, truth (mean difference) ${truth.toFixed(4)}, sd ${sd.toFixed(4)}, G1 ${gamma.toFixed(2)}, margin for pass-at-0 ${margin.toFixed(4)}\n  why: ${pop.why}`);
      for (const replace of [true, false]) {
        for (const n of NS) {
          if (!replace && n > d.length / 2) continue;
          const label = `real|${pop.name}|${replace ? 'with' : 'without'}`;
          const res = runCell(label, (k, g) => drawPaired(pop, k, replace, g), truth, n, REPS, methods, margin, pop.oneSidedOnly === true);
          printCell(`n = ${n}, ${replace ? 'with' : 'without'} replacement (${REPS} samples)`, res, REPS);
          json.real.push({ population: pop.name, kind: pop.kind, N: d.length, truth, sd, skewness: gamma, n, replace, reps: REPS, margin, methods: res.rows, autoUsed: res.used });
        }
      }
    }
  }
}

// --- synthetic designs (bench/coverage.mjs's continuous ones, and its gate's rare-large-loss design) ---
const LOGNORMAL_SD = Math.sqrt((Math.E - 1) * Math.E);
const SYNTHETIC = {
  'normal, sd 0.3': (n, g) => {
    const a = new Float64Array(n);
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      b[i] = g.uniform();
      a[i] = b[i] - 0.05 + 0.3 * g.normal();
    }
    return { a, b, truth: -0.05 };
  },
  'skewed continuous (lognormal, rare large gains)': (n, g) => {
    const a = new Float64Array(n);
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      b[i] = g.normal();
      a[i] = b[i] + Math.exp(g.normal()) - Math.exp(0.5) + 0.1;
    }
    return { a, b, truth: 0.1 };
  },
  'left-skewed (rare large losses), sd 0.3': (n, g) => {
    const a = new Float64Array(n);
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      b[i] = g.uniform();
      a[i] = b[i] - 0.05 - (0.3 * (Math.exp(g.normal()) - Math.exp(0.5))) / LOGNORMAL_SD;
    }
    return { a, b, truth: -0.05 };
  },
  '[0,1] skewed partial credit (mostly 0, rare large gains)': skewedPartialCredit,
};
if (ONLY !== 'real') {
  console.log(`\nSynthetic designs (${SYN_REPS} samples per cell)`);
  for (const [name, make] of Object.entries(SYNTHETIC)) {
    const truth = make(1, generator(1)).truth;
    const pilot = make(20000, generator(hash(`pilot|${name}`)));
    const margin = 0.5 * sdOf(Float64Array.from(pilot.a, (x, i) => x - pilot.b[i]));
    console.log(`\n${name}: truth ${truth}, margin for pass-at-0 ${margin.toFixed(4)}`);
    const ns = name.startsWith('left-skewed') ? [10, 40, 160, 400] : [10, 40, 160];
    for (const n of ns) {
      const methods = ['t', 'hall', 'studentized', 't<100,bca', 'auto'];
      const res = runCell(`syn|${name}`, (k, g) => make(k, g), truth, n, SYN_REPS, methods, margin);
      printCell(`n = ${n}`, res, SYN_REPS);
      json.synthetic.push({ design: name, truth, n, reps: SYN_REPS, margin, methods: res.rows, autoUsed: res.used });
    }
  }
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
if (process.env.REAL_JSON) writeFileSync(process.env.REAL_JSON, JSON.stringify(json, null, 1));
