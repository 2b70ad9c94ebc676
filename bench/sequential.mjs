#!/usr/bin/env node
// Proof by simulation for `benchplan monitor` (issue 17): the anytime-valid sequence keeps the error
// rate of "a winner is declared" at ≤ 5% however often one looks, and at a true gap of 2 × mde it
// decides on fewer items than the fixed-n design `size` would ask for.
//
//   1. No true gap. Each run labels up to --horizon items; the sequence is read after every item, or after
//      every batch of 20. Error = P(any look declares A or B better). Beside it, the mistake this replaces:
//      a fixed-n 95% t-interval read at every batch of 20 ("peeking").
//   2. True gap 2 × mde. Fixed n = the paired-t power count (80% power at the mde, two-sided α = 0.05,
//      the variance of the differences at this gap: what `size` computes from a pilot); the sequence stops
//      at its first verdict (capped at 4 × that n). Mean items to a decision, its Monte Carlo error, the
//      sequence's power by the cap, and the fixed design's power at this gap.
// Three kinds of data: 0/1 outcomes (differences in {−1, 0, 1}, 30% of items discordant) and continuous
// [0, 1] scores (differences of two correlated Beta scores, sd 0.16, and a wider one, sd 0.28). All draws are seeded (xoshiro128**).
//
// Three sequences: the aGRAPA betting sequence (--sequence agrapa, what --sequence auto picks), with the most
// runs (--agrapa-runs with no gap, --agrapa-gap-runs at the gap); empirical Bernstein (--sequence eb, --runs and
// --gap-runs); and the hedged betting sequence (--sequence betting, --betting-runs).
// Usage: npm run build && node bench/sequential.mjs [--runs 10000] [--gap-runs 4000] [--betting-runs 2000] [--horizon 2000]
//        [--agrapa-runs 10000] [--agrapa-gap-runs 10000]
//        [--out out/bench/sequential-results.json] [--chart out/bench/monitor-peeking.png]
// Writes only under out/bench/ unless told otherwise: the committed copies (bench/sequential-results.json,
// docs/images/monitor-peeking.png, which the README shows) are refreshed by naming them with --out / --chart.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgrapaBettingSequence, EmpiricalBernsteinSequence, HedgedBettingSequence, createRng, itemsForPower, pairedTTestPower, studentTQuantile, writeChart } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const RUNS = Number(flag('--runs', '10000'));
const GAP_RUNS = Number(flag('--gap-runs', '4000'));
// The betting sequence costs O(grid) a value: fewer runs (its Monte Carlo error is printed).
const BET_RUNS = Number(flag('--betting-runs', '2000'));
// The aGRAPA sequence (auto's choice) is cheaper than the hedged one once its band narrows, and it is the
// one the README's claims rest on: more runs.
const AGRAPA_RUNS = Number(flag('--agrapa-runs', '10000'));
const AGRAPA_GAP_RUNS = Number(flag('--agrapa-gap-runs', '10000'));
const HORIZON = Number(flag('--horizon', '2000'));
const OUT = resolve(flag('--out', join(here, '..', 'out', 'bench', 'sequential-results.json')));
const CHART = flag('--chart', join(here, '..', 'out', 'bench', 'monitor-peeking.png'));
mkdirSync(dirname(OUT), { recursive: true });
mkdirSync(dirname(resolve(CHART)), { recursive: true });
const BATCH = 20;
const MDE = 0.05;
const ALPHA = 0.05;

// Draws one paired difference A − B with mean `gap`.
const DATA = {
  binary: {
    describe: '0/1 outcomes, 30% discordant pairs',
    draw(rng, gap) {
      const q = 0.3;
      const u = rng.nextFloat();
      return u < (q + gap) / 2 ? 1 : u < q ? -1 : 0;
    },
    variance: (gap) => 0.3 - gap * gap,
  },
  continuous: {
    describe: 'continuous [0, 1] scores, correlated',
    // A shared item difficulty s ~ U(0,1) and each model's own noise: A = clip(s + e_A + gap/2), B = clip(s + e_B − gap/2)
    // would make the mean depend on clipping; instead a mixture that keeps the mean exact:
    // d = gap + (W − W') · 0.5, W, W' ~ Beta(2, 2) independent, so d ∈ [gap − 0.5, gap + 0.5] ⊂ [−1, 1].
    draw(rng, gap) {
      return gap + 0.5 * (beta22(rng) - beta22(rng));
    },
    // Var(Beta(2,2)) = 1/20, so Var(d) = 0.25 · 2/20.
    variance: () => 0.025,
  },
  wide: {
    describe: 'continuous [0, 1] scores, twice the spread',
    // d = gap + (1 − |gap|) · (W − W'), W, W' ~ Beta(2, 2): inside [−1, 1], mean exactly gap, sd about 0.3
    // (a second spread, to check that what holds at sd 0.16 is not tuned to it).
    draw(rng, gap) {
      return gap + (1 - Math.abs(gap)) * (beta22(rng) - beta22(rng));
    },
    // Var = (1 − |gap|)² · 2/20.
    variance: (gap) => (1 - Math.abs(gap)) ** 2 * 0.1,
  },
};

// Beta(2, 2) as the median of three uniforms.
function beta22(rng) {
  const a = rng.nextFloat();
  const b = rng.nextFloat();
  const c = rng.nextFloat();
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

const se = (p, n) => Math.sqrt((p * (1 - p)) / n);
// t_{0.975, t−1} at each batch look, computed once.
const T_QUANTILE = Array.from({ length: HORIZON / BATCH }, (_, k) => studentTQuantile(1 - ALPHA / 2, (k + 1) * BATCH - 1));
const LOOK_MARKS = [1, 2, 5, 10, 20, 50, 100];

function nullRun(kind) {
  const data = DATA[kind];
  const rng = createRng('bench-sequential', kind, 'null');
  let anyEvery = 0;
  let anyBatch = 0;
  let anyPeek = 0;
  let anyFinalFixed = 0;
  const byLook = new Float64Array(HORIZON / BATCH); // P(declared by batch look L), sequence
  const peekByLook = new Float64Array(HORIZON / BATCH);
  for (let r = 0; r < RUNS; r++) {
    const seq = new EmpiricalBernsteinSequence({ range: [-1, 1], confidenceLevel: 1 - ALPHA });
    let every = false;
    let batch = false;
    let peek = false;
    let sum = 0;
    let sumSq = 0;
    for (let t = 1; t <= HORIZON; t++) {
      const d = data.draw(rng, 0);
      seq.push(d);
      sum += d;
      sumSq += d * d;
      if (!every && (seq.lower > 0 || seq.upper < 0)) every = true;
      if (t % BATCH === 0) {
        const look = t / BATCH - 1;
        if (!batch && (seq.lower > 0 || seq.upper < 0)) batch = true;
        const mean = sum / t;
        const sd = Math.sqrt(Math.max(0, (sumSq - t * mean * mean) / (t - 1)));
        const half = T_QUANTILE[look] * (sd / Math.sqrt(t));
        const rejects = Math.abs(mean) > half;
        if (!peek && rejects) peek = true;
        if (t === HORIZON && rejects) anyFinalFixed += 1;
        if (batch) byLook[look] += 1;
        if (peek) peekByLook[look] += 1;
      }
    }
    anyEvery += every;
    anyBatch += batch;
    anyPeek += peek;
  }
  const p = (x) => x / RUNS;
  return {
    kind,
    data: data.describe,
    runs: RUNS,
    horizon: HORIZON,
    sequenceEveryItem: { error: p(anyEvery), monteCarloSe: se(p(anyEvery), RUNS), looks: HORIZON },
    sequenceEveryBatch: { error: p(anyBatch), monteCarloSe: se(p(anyBatch), RUNS), looks: HORIZON / BATCH },
    fixedIntervalPeekedEveryBatch: { error: p(anyPeek), monteCarloSe: se(p(anyPeek), RUNS), looks: HORIZON / BATCH },
    fixedIntervalOnceAtHorizon: { error: p(anyFinalFixed), monteCarloSe: se(p(anyFinalFixed), RUNS), looks: 1 },
    byNumberOfLooks: LOOK_MARKS.filter((l) => l <= HORIZON / BATCH).map((l) => ({
      looks: l,
      items: l * BATCH,
      sequence: p(byLook[l - 1]),
      peekedFixedInterval: p(peekByLook[l - 1]),
    })),
    curve: Array.from(byLook, (x, k) => ({ items: (k + 1) * BATCH, sequence: p(x), peeked: p(peekByLook[k]) })),
  };
}

function nullBettingRun(kind) {
  const data = DATA[kind];
  const rng = createRng('bench-sequential', kind, 'null-betting');
  // Looks after every item only: the running intersection means a band that excludes 0 keeps
  // excluding it, so looks every 20 items (HORIZON a multiple of 20) find exactly the same runs.
  let every = 0;
  for (let r = 0; r < BET_RUNS; r++) {
    const seq = new HedgedBettingSequence({ range: [-1, 1], confidenceLevel: 1 - ALPHA });
    let e = false;
    for (let t = 1; t <= HORIZON && !e; t++) {
      seq.push(data.draw(rng, 0));
      e = seq.lower > 0 || seq.upper < 0;
    }
    every += e;
  }
  return { kind, runs: BET_RUNS, everyItem: { error: every / BET_RUNS, monteCarloSe: se(every / BET_RUNS, BET_RUNS) } };
}

function nullAgrapaRun(kind) {
  const data = DATA[kind];
  const rng = createRng('bench-sequential', kind, 'null-agrapa');
  let every = 0;
  let batch = 0;
  const byLook = new Float64Array(HORIZON / BATCH);
  for (let r = 0; r < AGRAPA_RUNS; r++) {
    const seq = new AgrapaBettingSequence({ range: [-1, 1], confidenceLevel: 1 - ALPHA });
    let e = false;
    let b = false;
    for (let t = 1; t <= HORIZON; t++) {
      seq.push(data.draw(rng, 0));
      const declared = seq.lower > 0 || seq.upper < 0;
      if (declared) e = true;
      if (t % BATCH === 0) {
        if (declared) b = true;
        if (b) byLook[t / BATCH - 1] += 1;
        // Once a look every 20 has declared, nothing more can change for this run.
        if (b) {
          for (let k = t / BATCH; k < HORIZON / BATCH; k++) byLook[k] += 1;
          break;
        }
      }
    }
    every += e;
    batch += b;
  }
  const p = (x) => x / AGRAPA_RUNS;
  return {
    kind,
    runs: AGRAPA_RUNS,
    everyItem: { error: p(every), monteCarloSe: se(p(every), AGRAPA_RUNS), looks: HORIZON },
    everyBatch: { error: p(batch), monteCarloSe: se(p(batch), AGRAPA_RUNS), looks: HORIZON / BATCH },
    byNumberOfLooks: LOOK_MARKS.filter((l) => l <= HORIZON / BATCH).map((l) => ({ looks: l, items: l * BATCH, error: p(byLook[l - 1]) })),
    curve: Array.from(byLook, (x, k) => ({ items: (k + 1) * BATCH, sequence: p(x) })),
  };
}

function gapRun(kind) {
  const data = DATA[kind];
  const gap = 2 * MDE;
  const variance = data.variance(gap);
  const fixed = itemsForPower({ varianceOfDifference: variance, mde: MDE, confidenceLevel: 1 - ALPHA, power: 0.8 }).n;
  const fixedAtTrueGap = itemsForPower({ varianceOfDifference: variance, mde: gap, confidenceLevel: 1 - ALPHA, power: 0.8 }).n;
  const cap = 4 * fixed;
  const rng = createRng('bench-sequential', kind, 'gap');
  const result = {};
  for (const [name, every, Sequence, runs] of [
    ['everyItem', 1, EmpiricalBernsteinSequence, GAP_RUNS],
    ['everyBatch', BATCH, EmpiricalBernsteinSequence, GAP_RUNS],
    ['bettingEveryItem', 1, HedgedBettingSequence, BET_RUNS],
    ['bettingEveryBatch', BATCH, HedgedBettingSequence, BET_RUNS],
    ['agrapaEveryItem', 1, AgrapaBettingSequence, AGRAPA_GAP_RUNS],
    ['agrapaEveryBatch', BATCH, AgrapaBettingSequence, AGRAPA_GAP_RUNS],
  ]) {
    const GAP_RUNS = runs;
    let sum = 0;
    let sumSq = 0;
    let correct = 0;
    let wrong = 0;
    for (let r = 0; r < GAP_RUNS; r++) {
      const seq = new Sequence({ range: [-1, 1], confidenceLevel: 1 - ALPHA });
      let stop = cap;
      for (let t = 1; t <= cap; t++) {
        seq.push(data.draw(rng, gap));
        if (t % every !== 0) continue;
        if (seq.lower > 0) {
          correct += 1;
          stop = t;
          break;
        }
        if (seq.upper < 0) {
          wrong += 1;
          stop = t;
          break;
        }
      }
      sum += stop;
      sumSq += stop * stop;
    }
    const mean = sum / GAP_RUNS;
    const sd = Math.sqrt((sumSq - GAP_RUNS * mean * mean) / (GAP_RUNS - 1));
    result[name] = {
      runs: GAP_RUNS,
      meanItems: mean,
      monteCarloSe: sd / Math.sqrt(GAP_RUNS),
      power: correct / GAP_RUNS,
      wrongWinner: wrong / GAP_RUNS,
      savingVsFixed: 1 - mean / fixed,
      savingSe: sd / Math.sqrt(GAP_RUNS) / fixed,
    };
  }
  return {
    kind,
    data: data.describe,
    runs: GAP_RUNS,
    mde: MDE,
    trueGap: gap,
    varianceOfDifference: variance,
    fixedItems: fixed,
    fixedPowerAtTrueGap: pairedTTestPower(fixed, gap / Math.sqrt(variance), ALPHA),
    fixedItemsSizedForTrueGap: fixedAtTrueGap,
    cap,
    ...result,
  };
}

const t0 = Date.now();
const nulls = Object.keys(DATA).map(nullRun);
const bettingNulls = Object.keys(DATA).map(nullBettingRun);
const agrapaNulls = Object.keys(DATA).map(nullAgrapaRun);
const gaps = Object.keys(DATA).map(gapRun);
const seconds = (Date.now() - t0) / 1000;

const pct = (x, d = 2) => `${(100 * x).toFixed(d)}%`;
console.log(`No true gap: P(any look declares a winner), ${RUNS} runs of ${HORIZON} items (± = 1.96 Monte Carlo SE)`);
for (const n of nulls) {
  console.log(`  ${n.data}`);
  console.log(`    sequence, a look after every item (${n.sequenceEveryItem.looks} looks):  ${pct(n.sequenceEveryItem.error)} ± ${pct(1.96 * n.sequenceEveryItem.monteCarloSe)}`);
  console.log(`    sequence, a look every ${BATCH} items (${n.sequenceEveryBatch.looks} looks):  ${pct(n.sequenceEveryBatch.error)} ± ${pct(1.96 * n.sequenceEveryBatch.monteCarloSe)}`);
  console.log(`    fixed-n t interval, peeked every ${BATCH}:     ${pct(n.fixedIntervalPeekedEveryBatch.error)} ± ${pct(1.96 * n.fixedIntervalPeekedEveryBatch.monteCarloSe)}`);
  console.log(`    fixed-n t interval, read once at ${HORIZON}:  ${pct(n.fixedIntervalOnceAtHorizon.error)} ± ${pct(1.96 * n.fixedIntervalOnceAtHorizon.monteCarloSe)}`);
  const bet = bettingNulls.find((b) => b.kind === n.kind);
  console.log(`    betting sequence, every item (${bet.runs} runs):    ${pct(bet.everyItem.error)} ± ${pct(1.96 * bet.everyItem.monteCarloSe)}`);
  const ag = agrapaNulls.find((b) => b.kind === n.kind);
  console.log(`    aGRAPA sequence, every item (${ag.runs} runs):   ${pct(ag.everyItem.error)} ± ${pct(1.96 * ag.everyItem.monteCarloSe)}`);
  console.log(`    aGRAPA sequence, every ${BATCH} items:          ${pct(ag.everyBatch.error)} ± ${pct(1.96 * ag.everyBatch.monteCarloSe)}`);
  console.log(`    aGRAPA by number of looks (every ${BATCH}): ${ag.byNumberOfLooks.map((l) => `${l.looks}: ${pct(l.error)}`).join(', ')}`);
  console.log(`    by number of looks (every ${BATCH}): ${n.byNumberOfLooks.map((l) => `${l.looks}: ${pct(l.sequence)} vs ${pct(l.peekedFixedInterval)}`).join(', ')}`);
}
console.log(`\nTrue gap 2 × mde = ${2 * MDE} (mde ${MDE}): items to a decision, ${GAP_RUNS} runs`);
for (const g of gaps) {
  console.log(`  ${g.data}: fixed n = ${g.fixedItems} (80% power at the mde; power ${pct(g.fixedPowerAtTrueGap, 1)} at the true gap); sized for the true gap itself: ${g.fixedItemsSizedForTrueGap}`);
  for (const name of ['everyItem', 'everyBatch', 'bettingEveryItem', 'bettingEveryBatch', 'agrapaEveryItem', 'agrapaEveryBatch']) {
    const s = g[name];
    console.log(`    ${name.padEnd(18)}: mean ${s.meanItems.toFixed(1)} ± ${(1.96 * s.monteCarloSe).toFixed(1)} items, ${pct(s.savingVsFixed, 1)} ± ${pct(1.96 * s.savingSe, 1)} fewer than fixed n (${s.runs} runs), power ${pct(s.power, 1)} by ${g.cap} items, wrong winner ${pct(s.wrongWinner)}`);
  }
}
console.log(`\n(${seconds.toFixed(1)} s)`);

writeFileSync(OUT, `${JSON.stringify({ runs: RUNS, gapRuns: GAP_RUNS, bettingRuns: BET_RUNS, agrapaRuns: AGRAPA_RUNS, agrapaGapRuns: AGRAPA_GAP_RUNS, horizon: HORIZON, batch: BATCH, mde: MDE, alpha: ALPHA, seconds, nulls, bettingNulls, agrapaNulls, gaps }, null, 1)}\n`);

if (CHART !== 'none') {
  const rows = [];
  const binary = nulls[0];
  const agrapa = agrapaNulls[0];
  for (const [k, c] of binary.curve.entries()) {
    rows.push({ items: c.items, rate: agrapa.curve[k].sequence, what: 'aGRAPA confidence sequence (monitor)' });
    rows.push({ items: c.items, rate: c.peeked, what: 'fixed-n 95% interval, peeked' });
  }
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 520,
    height: 260,
    title: { text: `Chance a winner is declared when there is none (0/1 items; ${binary.runs} runs, a look every ${BATCH} items)`, fontSize: 13 },
    layer: [
      { data: { values: rows }, mark: { type: 'line', strokeWidth: 2 }, encoding: { x: { field: 'items', type: 'quantitative', title: 'items labelled' }, y: { field: 'rate', type: 'quantitative', title: 'P(some look so far declared a winner)', axis: { format: '%' } }, color: { field: 'what', type: 'nominal', title: null, legend: { orient: 'top-left', labelLimit: 400 } } } },
      { data: { values: [{ y: ALPHA }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#666' }, encoding: { y: { field: 'y', type: 'quantitative' } } },
    ],
    config: { font: 'DejaVu Sans', background: 'white' },
  };
  await writeChart(spec, resolve(CHART));
  console.log(`chart: ${CHART}`);
}
