#!/usr/bin/env node
// Where worker threads start to pay for a `compare` job (issue 33 item 2), and whether the rule that
// decides (threadsThatPay in src/bootstrap/parallel.ts: one thread below PARALLEL_MIN_WORK index draws,
// never more threads than cores) keeps `--threads 2` from being slower than one thread.
// For jobs of growing work (every pair of k models × n continuous items, 9,999 resamples), each run
// in a fresh process so the pool starts cold as a `compare` process meets it, the call `compare` makes
// is timed (in the child, after loading): compareModels (what `--threads 1` runs); compareModelsParallel
// at threads 2 forced onto the pool (minParallelWork 0); compareModelsParallel at threads 2 under the
// rule. --runs rounds, the order of the three turning each round. Prints wall and CPU ms (medians), the
// paired ratios 2/1 (each round's 2-thread run over the same round's 1-thread run) with the median and
// its 95% distribution-free interval (order statistics of the sign test: the median ratio's interval
// needs no assumption on the timing noise), the job's work in index draws, the rule's choice, and the
// measured crossover: the smallest work from which the forced pool is faster in wall time at every
// larger job. Never a timed test. The machine may be shared: read the load average before trusting a
// ratio. Registered rule of the 2026-12-02 re-measure: bench/threads-crossover.txt.
// Usage (after `npm run build`): node bench/threads-crossover.mjs [--runs 3] [--quick | --cases 2x200,10x1000b,...] [--out out/bench/threads-crossover.json]
// (a case is MODELSxITEMS, continuous under bca, or with a trailing b 0/1 under auto)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};

if (args[0] === '--child') {
  const [, kText, nText, mode, kind = 'continuous'] = args;
  const k = Number(kText);
  const n = Number(nText);
  const binary = kind === 'binary';
  const { compareModels, compareModelsParallel } = await import('../dist/paired/compare-models.js');
  const { PARALLEL_MIN_WORK, threadsThatPay } = await import('../dist/bootstrap/parallel.js');
  let s = 12345;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const scores = Array.from({ length: k }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    const difficulty = rnd();
    for (let m = 0; m < k; m++) scores[m][i] = binary ? (rnd() < 0.3 + 0.4 * difficulty ? 1 : 0) : 0.5 * difficulty + 0.5 * rnd();
  }
  const aligned = { source: 'bench', models: scores.map((_, m) => `m${m}`), items: Array.from({ length: n }, (_, i) => `i${i}`), scores, repeats: scores.map(() => new Int32Array(n).fill(1)), repeatVariance: scores.map(() => new Float64Array(n).fill(Number.NaN)), stratum: null, strata: [], cluster: null, clusters: [] };
  // 0/1 scores under method auto (the CLI's default): every pair takes Tango's analytic interval, no resampling work.
  const method = binary ? { method: 'auto' } : {};
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  // `compare --threads 1` calls compareModels; `--threads 2` calls compareModelsParallel (src/cli/compare.ts)
  if (mode === 'one') compareModels(aligned, method);
  else await compareModelsParallel(aligned, mode === 'forced' ? { ...method, threads: 2, minParallelWork: 0 } : { ...method, threads: 2 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  // the job's work as the rule counts it: per pair n draws a resample (9,999) plus the sign-flip test (n / 8 a permutation)
  const work = binary ? 0 : ((k * (k - 1)) / 2) * (n * 9999 + (n / 8) * 9999);
  process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: (c.user + c.system) / 1000, work, ruleThreads: threadsThatPay(2, work), minWork: PARALLEL_MIN_WORK })}\n`);
  process.exit(0);
}

const runs = Number(flag('--runs', '3'));
const quick = args.includes('--quick');
// [models, items, kind]: continuous scores under method bca (the library's default), and 0/1 scores under auto
// (analytic: threads can only cost there).
const listed = flag('--cases', null);
const parseCase = (text) => {
  const m = /^(\d+)x(\d+)(b?)$/.exec(text);
  if (!m) throw new Error(`--cases: a case is MODELSxITEMS or MODELSxITEMSb (got ${text})`);
  return m[3] ? [Number(m[1]), Number(m[2]), 'binary'] : [Number(m[1]), Number(m[2])];
};
const cases = listed !== null ? listed.split(',').map(parseCase) : quick ? [[2, 200], [2, 2000], [10, 1000], [10, 1000, 'binary']] : [[2, 100], [2, 500], [2, 2000], [2, 5000], [10, 200], [10, 1000], [2, 50000], [10, 1000, 'binary'], [10, 5000, 'binary']];
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};
/**
 * The 95% distribution-free interval of a median from n paired ratios: [x(k), x(n+1−k)] with k the
 * largest whole number such that P(Binomial(n, ½) ≤ k − 1) ≤ 0.025 (the sign test's interval; its
 * coverage is at least 95% whatever the noise's distribution). Null below 6 runs (no such k).
 */
const medianInterval = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  let cdf = 0;
  let k = 0;
  let term = 0.5 ** n;
  for (let j = 0; j < n; j++) {
    cdf += term; // P(X ≤ j)
    if (cdf > 0.025) break;
    k = j + 1;
    term = (term * (n - j)) / (j + 1);
  }
  return k >= 1 ? [s[k - 1], s[n - k]] : null;
};
const child = (k, n, mode, kind = 'continuous') => {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(k), String(n), mode, kind], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child ${k}×${n} ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
};
const before = loadavg();
// the 1-minute load average at the start of every round of every case
const loadSamples = [];
const rows = [];
for (const [k, n, kind = 'continuous'] of cases) {
  const m = { one: [], forced: [], rule: [] };
  let info = null;
  for (let r = 0; r < runs; r++) {
    loadSamples.push(loadavg()[0]);
    // the order turns each run, so no mode always runs first (or last) in a round
    const modes = ['one', 'forced', 'rule'];
    for (let t = 0; t < r % 3; t++) modes.push(modes.shift());
    for (const mode of modes) {
      const res = child(k, n, mode, kind);
      m[mode].push(res);
      info = res;
    }
  }
  const med = (mode, key) => median(m[mode].map((x) => x[key]));
  // the ratio of each run's pair (run r's 2 threads over run r's 1 thread), so a busy moment affects both sides
  const paired = (mode, key = 'wallMs') => m[mode].map((x, r) => x[key] / m.one[r][key]).sort((x, y) => x - y);
  const summary = (mode, key) => {
    const ratios = paired(mode, key);
    return { median: median(ratios), confidenceInterval: medianInterval(ratios), above1: ratios.filter((x) => x > 1).length, ratios };
  };
  const row = {
    models: k,
    items: n,
    kind,
    work: info.work,
    ruleThreads: info.ruleThreads,
    oneThread: { wallMs: med('one', 'wallMs'), cpuMs: med('one', 'cpuMs') },
    forcedPool: { wallMs: med('forced', 'wallMs'), cpuMs: med('forced', 'cpuMs') },
    rule: { wallMs: med('rule', 'wallMs'), cpuMs: med('rule', 'cpuMs') },
  };
  // the rule decides in each process (the load counts): the rounds in which it took the pool
  row.ruleThreadedRounds = m.rule.filter((x) => x.ruleThreads > 1).length;
  row.forcedOverOne = median(paired('forced'));
  row.ruleOverOne = median(paired('rule'));
  row.ruleOverOneRange = [paired('rule')[0], paired('rule').at(-1)];
  row.ruleOverOneCpu = median(paired('rule', 'cpuMs'));
  // median of the paired ratios with its 95% sign-test interval, wall and CPU, for both 2-thread modes
  row.paired = { ruleWall: summary('rule', 'wallMs'), ruleCpu: summary('rule', 'cpuMs'), forcedWall: summary('forced', 'wallMs'), forcedCpu: summary('forced', 'cpuMs') };
  rows.push(row);
  process.stderr.write(`threads-crossover: ${k} models × ${n} ${kind} items done\n`);
}
rows.sort((x, y) => x.work - y.work || x.models * x.items - y.models * y.items);
// the crossover: the smallest work from which the forced pool beats one thread in every larger job (continuous rows)
let crossover = null;
const resampled = rows.filter((r) => r.work > 0);
for (let i = resampled.length - 1; i >= 0 && resampled[i].forcedOverOne < 1; i--) crossover = resampled[i].work;
const after = loadavg();
const say = (t) => process.stdout.write(`${t}\n`);
say(`compare's call (compareModels for 1 thread, compareModelsParallel for 2), every pair, 9,999 resamples, a cold pool in each process (${runs} rounds, the order turning; median of the paired ratios and its 95% sign-test interval; ${availableParallelism()} cores; load ${before.map((x) => x.toFixed(1)).join(' ')} → ${after.map((x) => x.toFixed(1)).join(' ')})`);
const ci = (s) => `${s.median.toFixed(2)} (${s.confidenceInterval === null ? '–' : s.confidenceInterval.map((x) => x.toFixed(2)).join('–')})`;
say('| models × items | work (draws) | rule: threads | 1 thread ms (CPU) | 2 forced ms (CPU) | forced / 1 wall (95% CI) | forced / 1 CPU | 2 by the rule ms | rule / 1 wall (95% CI) | rule / 1 CPU (95% CI) |');
say('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  say(`| ${r.models} × ${r.items}${r.kind === 'binary' ? ' 0/1, auto' : ''} | ${r.work.toExponential(2)} | ${r.ruleThreads} (2 in ${r.ruleThreadedRounds} of ${runs}) | ${r.oneThread.wallMs.toFixed(0)} (${r.oneThread.cpuMs.toFixed(0)}) | ${r.forcedPool.wallMs.toFixed(0)} (${r.forcedPool.cpuMs.toFixed(0)}) | ${ci(r.paired.forcedWall)} | ${ci(r.paired.forcedCpu)} | ${r.rule.wallMs.toFixed(0)} | ${ci(r.paired.ruleWall)} | ${ci(r.paired.ruleCpu)} |`);
}
say(`measured crossover (forced pool faster from here on): ${crossover === null ? 'none in this run (the second core never paid: a loaded machine?)' : `${crossover.toExponential(2)} draws`}; the rule's threshold PARALLEL_MIN_WORK = ${rows.length ? (await import('../dist/bootstrap/parallel.js')).PARALLEL_MIN_WORK.toExponential(2) : '?'} draws`);
say(`worst rule / 1 thread: ${Math.max(...rows.map((r) => r.ruleOverOne)).toFixed(2)} (≤ 1 up to the timing noise is the target); 1-minute load over the rounds: median ${median(loadSamples).toFixed(1)}, ${Math.min(...loadSamples).toFixed(1)}–${Math.max(...loadSamples).toFixed(1)}`);
const out = resolve(flag('--out', join(here, '..', 'out', 'bench', 'threads-crossover.json')));
mkdirSync(dirname(out), { recursive: true });
const command = `node bench/threads-crossover.mjs ${args.join(' ')}`;
writeFileSync(out, `${JSON.stringify({ bench: 'threads crossover (issue 33 item 2)', command, date: new Date().toISOString(), cores: availableParallelism(), loadAverageBefore: before, loadAverageAfter: after, loadSamples, runs, rows, crossover }, null, 2)}\n`);
say(`wrote ${out}`);
