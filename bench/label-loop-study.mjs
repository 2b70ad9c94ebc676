// The registered labelling-loop study (bench/label-loop-study.txt): false decisions per cell and labels
// used against select / compare --judge / monitor at equal error. Needs `npm run build` first.
// Usage: node bench/label-loop-study.mjs [--reps 200] [--only 01|graded|nopremise|real]
// Writes bench/label-loop-study.results.txt and .json.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
// STUDY_FROM_SRC=1 (run with `npx tsx`) reads src/ instead of the built dist/.
const base = process.env.STUDY_FROM_SRC ? '../src' : '../dist';
const { runLabelLoop } = await import(`${base}/label/loop.js`);
const { createRng } = await import(`${base}/random/xoshiro.js`);
const { stratifiedDifferenceEstimate } = await import(`${base}/selection/stratified-estimate.js`);
const { ppiMean } = await import(`${base}/judge/ppi-mean.js`);
const { AgrapaBettingSequence } = await import(`${base}/sequential/agrapa.js`);
const { importResults } = await import(`${base}/import/index.js`);

const args = process.argv.slice(2);
const REPS = args.includes('--reps') ? Number(args[args.indexOf('--reps') + 1]) : 60;
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : 'all';
const LOGS = process.env.REAL_LOGS ?? '/work/shared/real-logs';
// --cells k1,k2: run only these cell keys (e.g. the supplementary cells a run stopped before); --tag T: write
// results.T.*; --rep-offset K: replicate r uses seed index r + K (fresh replicates for a cell already run).
const CELLS = args.includes('--cells') ? new Set(args[args.indexOf('--cells') + 1].split(',')) : null;
const TAG = args.includes('--tag') ? args[args.indexOf('--tag') + 1] : null;
const REP_OFFSET = args.includes('--rep-offset') ? Number(args[args.indexOf('--rep-offset') + 1]) : 0;
// --loop-opts JSON: extra runLabelLoop options (an amendment's variant); --no-compare: the loop only.
const LOOP_OPTS = args.includes('--loop-opts') ? JSON.parse(args[args.indexOf('--loop-opts') + 1]) : {};
const NO_COMPARE = args.includes('--no-compare');
const SUPP = ONLY === 'supp' || ONLY === 'suppcal';
// The supplementary block (AMENDMENT 3): a larger pool and margin, where no design needs every disagreement.
const M = SUPP ? 0.05 : 0.02;
const N = SUPP ? 2000 : 500;
const ALPHA = 0.05;
const Z90 = 1.6448536269514722; // one-sided 95% = two-sided 90%

// ---------- populations ----------
function shuffleInPlace(a, rng) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
function clip(x, lo, hi) {
  return x < lo ? lo : x > hi ? hi : x;
}
/** A pool: y per item, same flags, judge per item (or null), and the true θ. */
function syntheticPool(cell, rep) {
  const rng = createRng(`${cell.key}`, 'pool', rep);
  const nD = Math.round(N * (1 - cell.agree));
  const y = new Float64Array(N);
  const same = new Array(N).fill(false);
  const muD = (cell.theta * N) / nD;
  if (cell.scores === '01') {
    // counts: kPlus − kMinus = θN, kPlus + kMinus = round(0.9 nD) (adjusted to the parity of θN)
    const diff = Math.round(cell.theta * N);
    let nonzero = Math.round(0.9 * nD);
    if ((nonzero - diff) % 2 !== 0) nonzero -= 1;
    if (nonzero < Math.abs(diff)) nonzero = Math.abs(diff);
    const kPlus = (nonzero + diff) / 2;
    const kMinus = (nonzero - diff) / 2;
    const d = [];
    for (let i = 0; i < nD; i++) d.push(i < kPlus ? 1 : i < kPlus + kMinus ? -1 : 0);
    shuffleInPlace(d, rng);
    for (let i = 0; i < nD; i++) y[i] = d[i];
  } else {
    const e = [];
    for (let i = 0; i < nD; i++) e.push(clip(0.25 * rng.nextNormal(), -0.6, 0.6));
    const me = e.reduce((a, b) => a + b, 0) / nD;
    for (let i = 0; i < nD; i++) y[i] = clip(muD + e[i] - me, -1, 1);
  }
  for (let i = nD; i < N; i++) same[i] = true;
  const theta = y.reduce((a, b) => a + b, 0) / N;
  const judge = makeJudge(y, same, cell, rng);
  return { y, same, judge, theta, scores: cell.scores };
}
function makeJudge(y, same, cell, rng) {
  if (cell.judge === 'none') return null;
  const rho = cell.judge === 'biased' ? 0.5 : cell.judge;
  const shift = cell.judge === 'biased' ? 0.5 : 0;
  const dIdx = [];
  for (let i = 0; i < y.length; i++) if (!same[i]) dIdx.push(i);
  const g = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    if (same[i]) continue;
    let v;
    if (cell.scores === '01') v = rng.nextFloat() < rho ? y[i] : y[dIdx[rng.nextInt(dIdx.length)]];
    else v = rho * y[i] + Math.sqrt(1 - rho * rho) * 0.25 * rng.nextNormal();
    g[i] = clip(v + shift, -1, 1);
  }
  return g;
}

// ---------- methods ----------
function loopRun(pop, rep, assume) {
  const pool = [];
  for (let i = 0; i < pop.y.length; i++) {
    const item = { id: `i${i}`, same: pop.same[i] };
    if (pop.judge) item.judge = pop.judge[i];
    pool.push(item);
  }
  const oracle = (id) => {
    const d = pop.y[Number(id.slice(1))];
    return { id, baseline: 0.5 - d / 2, candidate: 0.5 + d / 2 };
  };
  const { status } = runLabelLoop(pool, oracle, { margin: M, budget: pop.y.length, seed: rep, batchSize: 20, gridSize: 40, assumeSameScore: assume, calibrateJudge: ONLY === 'suppcal', ...LOOP_OPTS });
  return { verdict: status.verdict, labels: status.labelsUsed };
}
function sampleIdx(list, k, rng) {
  const a = list.slice();
  for (let i = 0; i < k; i++) {
    const j = i + rng.nextInt(a.length - i);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, k);
}
function gate(lower, upper) {
  return lower > -M ? 'pass' : upper < -M ? 'fail' : 'inconclusive';
}
function selectVerdict(pop, n, rng) {
  const D = [];
  const A = [];
  pop.same.forEach((s, i) => (s ? A : D).push(i));
  let nA = A.length ? Math.max(Math.min(2, A.length), Math.round(0.1 * n)) : 0;
  nA = Math.min(nA, A.length);
  let nD = Math.min(D.length, n - nA);
  if (nD < Math.min(2, D.length)) nD = Math.min(2, D.length);
  const cells = [];
  if (D.length) cells.push({ cell: 'disagree', size: D.length, differences: sampleIdx(D, nD, rng).map((i) => pop.y[i]) });
  if (A.length) cells.push({ cell: 'agree', size: A.length, differences: sampleIdx(A, nA, rng).map((i) => pop.y[i]) });
  const r = stratifiedDifferenceEstimate(cells, 0.9, 'pool');
  return gate(r.confidenceInterval[0], r.confidenceInterval[1]);
}
function ppiVerdict(pop, n, rng) {
  const all = [...pop.y.keys()];
  const lab = new Set(sampleIdx(all, n, rng));
  const Y = [];
  const F = [];
  const U = [];
  for (let i = 0; i < pop.y.length; i++) {
    const g = pop.judge ? pop.judge[i] : 0;
    if (lab.has(i)) {
      Y.push(pop.y[i]);
      F.push(g);
    } else U.push(g);
  }
  if (n >= pop.y.length) {
    const t = Y.reduce((a, b) => a + b, 0) / n;
    return gate(t, t);
  }
  const r = ppiMean(Y, F, U, pop.judge ? { confidenceLevel: 0.9 } : { confidenceLevel: 0.9, lambda: 0 });
  // finite pool: PPI's interval is for the superpopulation, conservative for the pool.
  return gate(r.confidenceInterval[0], r.confidenceInterval[1]);
}
function monitorRun(pop, rng) {
  const order = shuffleInPlace([...pop.y.keys()], rng);
  const lo = new AgrapaBettingSequence({ range: [-1, 1], bound: 'lower', confidenceLevel: 0.95, gridSize: 200 });
  const hi = new AgrapaBettingSequence({ range: [-1, 1], bound: 'upper', confidenceLevel: 0.95, gridSize: 200 });
  for (let k = 0; k < order.length; k++) {
    lo.push(pop.y[order[k]]);
    hi.push(pop.y[order[k]]);
    const v = gate(lo.lower, hi.upper);
    if (v !== 'inconclusive') return { verdict: v, labels: k + 1 };
  }
  return { verdict: gate(pop.theta - 1e-15, pop.theta + 1e-15) === 'inconclusive' ? 'inconclusive' : pop.theta > -M ? 'pass' : 'fail', labels: order.length };
}
function correctVerdict(theta) {
  return theta > -M + 1e-12 ? 'pass' : theta < -M - 1e-12 ? 'fail' : null;
}
function isFalse(theta, verdict) {
  return (theta <= -M + 1e-12 && verdict === 'pass') || (theta > -M + 1e-12 && verdict === 'fail');
}
/** Smallest n in [2, N] whose power (chance of the correct verdict) ≥ target, by bisection (power taken as monotone in n). */
function nForPower(pops, method, target, key) {
  const Np = pops[0].y.length;
  const power = (n) => {
    let ok = 0;
    pops.forEach((pop, r) => {
      const rng = createRng(key, method.name, n, r);
      if (method(pop, n, rng) === correctVerdict(pop.theta)) ok++;
    });
    return ok / pops.length;
  };
  let lo = 2;
  let hi = Np;
  if (power(hi) < target) return { n: Infinity, power: power(hi) };
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (power(mid) >= target) hi = mid;
    else lo = mid + 1;
  }
  return { n: lo, power: power(lo) };
}

// ---------- cells ----------
function runCell(cell, makePops) {
  if (CELLS && !CELLS.has(cell.key)) return null;
  const t0 = Date.now();
  const pops = [];
  for (let r = 0; r < REPS; r++) pops.push(makePops(r + REP_OFFSET));
  const theta = pops[0].theta;
  let falseCount = 0;
  let correct = 0;
  let labels = 0;
  let labels2 = 0;
  const verdicts = { pass: 0, fail: 0, inconclusive: 0, continue: 0 };
  pops.forEach((pop, r) => {
    const res = loopRun(pop, r + REP_OFFSET, cell.assume);
    verdicts[res.verdict]++;
    if (isFalse(pop.theta, res.verdict)) falseCount++;
    if (res.verdict === correctVerdict(pop.theta)) correct++;
    labels += res.labels;
    labels2 += res.labels * res.labels;
  });
  const p = falseCount / REPS;
  const meanLabels = labels / REPS;
  const out = {
    key: cell.key,
    ...cell.describe,
    theta: round(theta, 4),
    falseRate: p,
    falseSe: round(Math.sqrt(Math.max(p * (1 - p), 0.05 * 0.95) / REPS), 4),
    verdicts,
    power: correct / REPS,
    loopLabels: round(meanLabels, 1),
    loopLabelsSe: round(Math.sqrt((labels2 / REPS - meanLabels * meanLabels) / REPS), 2),
  };
  if (correctVerdict(theta) !== null && cell.compare && !NO_COMPARE) {
    const target = Math.min(out.power, 0.9);
    const sel = nForPower(pops, selectVerdict, target, `${cell.key}:select`);
    const ppi = nForPower(pops, ppiVerdict, target, `${cell.key}:ppi`);
    let monLabels = 0;
    let monCorrect = 0;
    pops.forEach((pop, r) => {
      const m = monitorRun(pop, createRng(`${cell.key}:monitor`, r));
      monLabels += m.labels;
      if (m.verdict === correctVerdict(pop.theta)) monCorrect++;
    });
    out.targetPower = target;
    out.select = sel.n;
    out.selectPower = sel.power;
    out.ppi = ppi.n;
    out.ppiPower = ppi.power;
    out.monitor = round(monLabels / REPS, 1);
    out.monitorPower = monCorrect / REPS;
    const best = Math.min(sel.n, ppi.n, out.monitor);
    out.best = best === sel.n ? 'select' : best === ppi.n ? 'compare --judge' : 'monitor';
    out.ratio = round(meanLabels / best, 3);
  }
  out.seconds = round((Date.now() - t0) / 1000, 1);
  return out;
}
function round(x, d) {
  return Number.isFinite(x) ? Number(x.toFixed(d)) : x;
}

const rows = [];
function log(row) {
  if (row === null) return;
  rows.push(row);
  console.log(JSON.stringify(row));
  writeSummary(false);
}
if (ONLY === 'all' || ONLY === '01') {
  const grid01 = [];
  for (const agree of [0.5, 0.8, 0.95]) for (const judge of ['none', 0.9, 'biased']) for (const theta of [0, -M, -2 * M]) grid01.push([agree, judge, theta]);
  for (const theta of [0, -M, -2 * M]) grid01.push([0.8, 0.5, theta]);
  grid01.push([0.8, 0.9, M]);
  for (const [agree, judge, theta] of grid01) {
    const cell = { key: `01:${agree}:${judge}:${theta}`, agree, judge, theta, scores: '01', assume: true, compare: true, describe: { block: '0/1', agree, judge: String(judge), gap: theta / M } };
    log(runCell(cell, (r) => syntheticPool(cell, r)));
  }
}
if (ONLY === 'supp' || ONLY === 'suppcal') {
  // Ordered so that a run cut short by the clock has the most telling cells first (each cell's seeds
  // depend only on its key, so the order changes no number).
  for (const agree of [0.8, 0.5])
    for (const theta of [0, -2 * M, -M])
      for (const judge of [0.9, 'none', 'biased', 0.5]) {
        if (ONLY === 'suppcal' && (agree !== 0.8 || judge === 'none')) continue;
        const cell = { key: `supp:${agree}:${judge}:${theta}`, agree, judge, theta, scores: '01', assume: true, compare: true, describe: { block: TAG ?? ONLY, agree, judge: String(judge), gap: theta / M } };
        log(runCell(cell, (r) => syntheticPool(cell, r)));
      }
}
if (ONLY === 'all' || ONLY === 'graded') {
  for (const judge of [0.9])
    for (const theta of [0, -M, -2 * M]) {
      const cell = { key: `graded:0.8:${judge}:${theta}`, agree: 0.8, judge, theta, scores: 'graded', assume: true, compare: true, describe: { block: 'graded', agree: 0.8, judge: String(judge), gap: theta / M } };
      log(runCell(cell, (r) => syntheticPool(cell, r)));
    }
}
if (ONLY === 'all' || ONLY === 'nopremise') {
  for (const theta of [0, -M, -2 * M]) {
    const cell = { key: `nopremise:0.8:0.5:${theta}`, agree: 0.8, judge: 0.5, theta, scores: '01', assume: false, compare: true, describe: { block: 'no premise', agree: 0.8, judge: '0.5', gap: theta / M } };
    log(runCell(cell, (r) => syntheticPool(cell, r)));
  }
}
if (ONLY === 'all' || ONLY === 'real') {
  if (!existsSync(LOGS)) console.log(`real data: ${LOGS} is absent, skipping the real-data block`);
  else {
    for (const pop of realPopulations())
      for (const judge of ['none']) {
        const cell = { key: `real:${pop.name}:${judge}`, judge, scores: pop.scores, assume: true, compare: true, describe: { block: 'real', name: pop.name, judge: String(judge), gap: round(pop.theta / M, 2) } };
        log(runCell(cell, (r) => ({ ...pop, judge: makeJudge(pop.y, pop.same, { ...cell, scores: pop.scores }, createRng(cell.key, 'judge', r)) })));
      }
  }
}

function realPopulations() {
  const one = (format, file, options = {}) => importResults(format, [file], options).rows;
  const pair = (ra, rb, key = (r) => r.item) => {
    const mb = new Map(rb.map((r) => [key(r), r.score]));
    const y = [];
    for (const r of ra) if (mb.has(key(r))) y.push(r.score - mb.get(key(r)));
    return y;
  };
  const out = [];
  for (const [dir, task] of [
    ['lm_eval_tasks_bias_classification_results_meta-llama__Meta-Llama-3-8B', 'bias_classification'],
    ['lm_eval_tasks_stereotype_classification_results_meta-llama__Meta-Llama-3-8B', 'stereotype_classification'],
  ]) {
    const files = readdirSync(`${LOGS}/lm-eval/${dir}`).filter((f) => f.startsWith('samples')).sort();
    const y = pair(one('lm-eval', `${LOGS}/lm-eval/${dir}/${files[1]}`, { metric: 'acc' }), one('lm-eval', `${LOGS}/lm-eval/${dir}/${files[0]}`, { metric: 'acc' }));
    out.push(realPop(`lm-eval ${task} prompt 2 − prompt 1`, y, '01'));
  }
  const cal = `${LOGS}/lm-eval/tests_calamita_meta-llama__Meta-Llama-3-8B-Instruct`;
  const doc = (r) => r.item.split('/').pop();
  const y = pair(
    one('lm-eval', `${cal}/samples_MT_CALAMITA_en_it_public_2024-11-13T02-20-05.221387.jsonl`, { metric: 'comet_score' }),
    one('lm-eval', `${cal}/samples_MT_CALAMITA_it_en_public_2024-11-13T03-09-01.700058.jsonl`, { metric: 'comet_score' }),
    doc,
  );
  out.push(realPop('CALAMITA COMET en→it − it→en', y, 'graded'));
  return out;
}
function realPop(name, ys, scores) {
  const y = Float64Array.from(ys);
  const theta = y.reduce((a, b) => a + b, 0) / y.length;
  return { name, y, same: new Array(y.length).fill(false), theta, scores };
}

// ---------- summary (rewritten after every cell, so a run cut short keeps what it did) ----------
function writeSummary(final) {
  const lines = [];
  lines.push(`label-loop study (bench/label-loop-study.txt): m = ${M}, N = ${N} (real: their size), α = ${ALPHA} per side, ${REPS} replicates per cell${REP_OFFSET ? ` (seed indices ${REP_OFFSET}..${REP_OFFSET + REPS - 1})` : ''}`);
  lines.push('false = false-decision rate (± MC SE); power = correct verdict rate; labels = loop mean labels (± SE);');
  lines.push('select / ppi = fixed n* for power ≥ target; monitor = mean labels to stopping; ratio = loop labels / best.');
  if (Object.keys(LOOP_OPTS).length) lines.push(`loop options: ${JSON.stringify(LOOP_OPTS)}`);
  lines.push('');
  lines.push('block       agree judge  gap    θ        false        verdicts p/f/i     power  labels        target select ppi   monitor best             ratio');
  for (const r of rows) {
    const v = r.verdicts;
    lines.push(
      [
        String(r.block).padEnd(11),
        String(r.agree ?? r.name ?? '').slice(0, 28).padEnd(5),
        String(r.judge).padEnd(6),
        String(r.gap).padEnd(6),
        String(r.theta).padEnd(8),
        `${r.falseRate.toFixed(3)}±${r.falseSe.toFixed(3)}`.padEnd(12),
        `${v.pass}/${v.fail}/${v.inconclusive}`.padEnd(18),
        r.power.toFixed(3).padEnd(6),
        `${r.loopLabels}±${r.loopLabelsSe}`.padEnd(13),
        r.targetPower === undefined ? '' : [String(r.targetPower).padEnd(6), String(r.select).padEnd(6), String(r.ppi).padEnd(5), String(r.monitor).padEnd(7), r.best.padEnd(16), String(r.ratio)].join(' '),
      ].join(' '),
    );
  }
  const h1Fail = rows.filter((r) => r.falseRate > 0.05);
  const h1Clear = rows.filter((r) => r.falseRate > 0.05 + 2 * r.falseSe);
  const h2Rows = rows.filter((r) => r.ratio !== undefined);
  const h2Fail = h2Rows.filter((r) => r.ratio > 0.5);
  lines.push('');
  lines.push(`H1 (false decisions ≤ 5%): ${rows.length - h1Fail.length}/${rows.length} cells hold; above 5%: ${h1Fail.map((r) => `${r.block}/${r.agree ?? r.name}/${r.judge}/gap ${r.gap}: ${r.falseRate}`).join('; ') || 'none'}; clear violations (> 5% + 2 SE): ${h1Clear.length}`);
  lines.push(`H2 (ratio ≤ 0.5): ${h2Rows.length - h2Fail.length}/${h2Rows.length} decisive cells hold; worst ratio ${Math.max(...h2Rows.map((r) => r.ratio))}; median ratio ${median(h2Rows.map((r) => r.ratio))}`);
  function median(a) {
    const s = [...a].sort((x, y) => x - y);
    return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
  }
  const suffix = TAG ? `.${TAG}` : ONLY === 'all' ? '' : `.${ONLY}`;
  writeFileSync(new URL(`./label-loop-study.results${suffix}.txt`, import.meta.url), lines.join('\n') + '\n');
  writeFileSync(new URL(`./label-loop-study.results${suffix}.json`, import.meta.url), JSON.stringify({ margin: M, poolSize: N, reps: REPS, repOffset: REP_OFFSET, rows }, null, 1) + '\n');
  if (final) console.log(lines.join('\n'));
}
writeSummary(true);
