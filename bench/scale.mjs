#!/usr/bin/env node
// Whole-process bench of issue #19: start-up against `node -e 0`, --threads 2 against 1, and how
// agree, drift, sweep, freeze and report grow with their input (the exponent of CPU time in size,
// log(t2 / t1) / log(n2 / n1), between successive sizes). Every run is a fresh `node bin/benchplan.js`
// under /usr/bin/time; times are user + system CPU seconds (steady on a shared machine) and wall
// seconds, the median of --runs runs (default 2). Inputs are generated (SYNTHETIC, seeded) into a
// temporary folder. Writes out/bench/scale.json (never a tracked file).
//
// Also the large-n case: `compare` of n = 10^5 and 10^6 continuous paired scores (bench/data.mjs, 9,999
// resamples and sign flips) against the index-drawing floor (bench/floor.mjs: the same B × n indices,
// the same generator, summed), with --threads 1 and 2.
//
// Usage: node bench/scale.mjs [--runs 2] [--startup-runs 9] [--quick] [--only startup,load,large,threads,agree,drift,sweep,freeze,report] [--baseline DIR]
//   --baseline DIR: a built checkout to compare with (e.g. a clone of main after npm run build), run in turn on every case.
//   --quick: the two smaller sizes of every scaling case (skips 10^6 annotations, 10^5 documents/items,
//   and n = 10^6 of the large-n case).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const runs = Number(flag('--runs', '2'));
const quick = args.includes('--quick');
const only = new Set(flag('--only', 'startup,load,large,threads,agree,drift,sweep,freeze,report').split(','));
const bin = join(root, 'bin', 'benchplan.js');
// --baseline DIR: another built checkout of benchplan (the main branch, say), run in turn with this
// one on every case, so each line says how this build compares with it on the same inputs, pair by pair.
const baselineRoot = flag('--baseline', null) === null ? null : resolve(flag('--baseline', null));
const baseBin = baselineRoot === null ? null : join(baselineRoot, 'bin', 'benchplan.js');
const onBaseline = (argv) => argv.map((a) => (a === bin ? baseBin : a));
const dir = mkdtempSync(join(tmpdir(), 'benchplan-scale-'));
const say = (t) => process.stdout.write(`${t}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs argv (or argv() afresh each run) under /usr/bin/time `runs` times: median CPU (user + sys) and wall seconds, peak MB. */
function measure(argvOrMake, label) {
  const cpu = [];
  const wall = [];
  const mb = [];
  const base = { cpu: [], wall: [], mb: [] };
  const timed = (argv, into) => {
    const res = spawnSync('/usr/bin/time', ['-f', 'BENCHTIME %e %U %S %M', ...argv], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    const line = res.stderr.trim().split('\n').pop() ?? '';
    if (res.status !== 0 || !line.startsWith('BENCHTIME')) throw new Error(`${label} failed (${res.status}): ${res.stderr.slice(-2000)}`);
    const [, e, u, s, m] = line.split(' ').map(Number);
    into.wall.push(e);
    into.cpu.push(u + s);
    into.mb.push(m / 1024);
  };
  for (let r = 0; r < runs; r++) {
    const argv = typeof argvOrMake === 'function' ? argvOrMake() : argvOrMake;
    timed(argv, { cpu, wall, mb });
    if (baseBin !== null) timed(onBaseline(typeof argvOrMake === 'function' ? argvOrMake() : argvOrMake), base);
  }
  process.stderr.write(`scale: ${label}: cpu ${cpu.join(' / ')} s, wall ${wall.join(' / ')} s${baseBin === null ? '' : `; baseline cpu ${base.cpu.join(' / ')} s`}\n`);
  const out = { cpu: median(cpu), wall: median(wall), maxMb: Math.max(...mb), cpuRuns: cpu, wallRuns: wall };
  if (baseBin !== null) Object.assign(out, { baseline: { cpu: median(base.cpu), wall: median(base.wall), cpuRuns: base.cpu }, cpuOverBaseline: median(cpu.map((c, r) => c / base.cpu[r])) });
  return out;
}
const versusBaseline = (m) => (m.cpuOverBaseline === undefined ? '' : ` [baseline ${m.baseline.cpu.toFixed(2)} s; ${m.cpuOverBaseline.toFixed(2)}× its CPU]`);
const cli = (...a) => [process.execPath, bin, ...a];
// /usr/bin/time counts CPU in hundredths of a second, too coarse for a 0.06 s start-up: short runs
// report their own process.cpuUsage() (microseconds) at exit, on file descriptor 3, through a
// preloaded script (loaded by `node -e 0` as well, so the ratios pair like with like).
const cpuReport = join(dir, 'cpu-report.cjs');
writeFileSync(cpuReport, "process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeSync(3, JSON.stringify({ cpu: (u.user + u.system) / 1e6, mb: process.resourceUsage().maxRSS / 1024 })); });\n");
/** One run of a node argv: its CPU (user + sys, from inside the process) and wall seconds, peak MB. */
function measureOnce(argv, label) {
  const t0 = process.hrtime.bigint();
  const res = spawnSync(argv[0], ['--require', cpuReport, ...argv.slice(1)], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (res.status !== 0) throw new Error(`${label} failed (${res.status}): ${res.stderr.slice(-2000)}`);
  const { cpu, mb } = JSON.parse(res.output[3]);
  return { cpu, wall, mb };
}

// ---- generators (SYNTHETIC, seeded LCGs: fast, and the same files every run)
const lcg = (seed) => {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
};
function annotations(rows) {
  const rnd = lcg(7);
  const out = ['item,annotator,type,label'];
  for (let i = 0; i < rows / 2; i++) for (const a of ['ana', 'ben']) out.push(`a${i},${a},t${i % 7},${rnd() < 0.8 ? 'x' : 'y' + Math.floor(rnd() * 3)}`);
  const file = join(dir, `ann${rows}.csv`);
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}
function outcomes(docs) {
  const rnd = lcg(7);
  const kinds = ['hit', 'miss', 'fabrication', 'wrong_span', 'correct_absent'];
  const out = ['item,model,stratum,cluster,outcome,score'];
  for (let d = 0; d < docs; d++) {
    for (let k = 0; k < 2; k++) {
      const st = ['routine', 'rare_clause', 'past_failure', 'negative_control'][d % 4];
      for (const m of ['steady', 'eager', 'cautious']) {
        const o = kinds[Math.floor(rnd() * 5)];
        out.push(`d${d}-s${k},${m},${st},d${d},${o},${o === 'hit' || o === 'correct_absent' ? 1 : 0}`);
      }
    }
  }
  const file = join(dir, `o${docs}.csv`);
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}
function drift(n) {
  const rnd = lcg(5);
  const write = (name, model, ids, p) => {
    const file = join(dir, `d${n}-${name}.csv`);
    writeFileSync(file, ['item,model,stratum,score', ...ids.map((i) => `e${i},${model},s${i % 4},${rnd() < p ? 1 : 0}`)].join('\n') + '\n');
    return file;
  };
  const prev = Array.from({ length: n }, (_, i) => i);
  const cur = [...prev.slice(n / 10), ...Array.from({ length: n / 10 }, (_, i) => n + i)];
  return { before: write('before', 'old', prev, 0.7), rerun: write('rerun', 'new', prev, 0.68), after: write('after', 'new', cur, 0.66) };
}
function manifest(n) {
  const rnd = lcg(1);
  const words = Array.from({ length: 2000 }, (_, i) => 'w' + i.toString(36));
  const lines = ['items:'];
  for (let i = 0; i < n; i++) {
    const k = 12 + Math.floor(rnd() * 20);
    const body = Array.from({ length: k }, () => words[Math.floor(rnd() * words.length)]).join(' ');
    lines.push(`  - { item: i${i}, stratum: s${i % 4}, split: ${i % 5 === 0 ? 'dev' : 'eval'}, text: "The Client shall pay each invoice ${body}" }`);
  }
  const file = join(dir, `m${n}.yaml`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
/** Continuous scores of `models` models on n items (a shared difficulty plus noise), optionally stratified. */
function scores(n, models, strata = 0) {
  const rnd = lcg(3);
  const out = [strata ? 'item,model,stratum,score' : 'item,model,score'];
  for (let i = 0; i < n; i++) {
    const difficulty = rnd();
    for (let m = 0; m < models; m++) out.push(`i${i},m${m},${strata ? `s${i % strata},` : ''}${(0.5 * difficulty + 0.5 * rnd()).toFixed(4)}`);
  }
  const file = join(dir, `s${n}x${models}${strata ? 's' : ''}.csv`);
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}

const result = { bench: 'whole-process scaling, start-up and threads (issue #19)', date: new Date().toISOString(), runs, machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageBefore: loadavg() } };
const lines = [];
try {
  if (only.has('startup')) {
    // Interleaved (node, --version, --help, compare --help, compare, node, …) so every ratio pairs
    // runs made moments apart: on a shared machine the ratios hold where absolute times drift.
    // `compare --help` loads and registers exactly compare's code and does no work: compare's start-up.
    const startupRuns = Math.max(runs, Number(flag('--startup-runs', '9')));
    const examples = join(root, 'examples', 'scores.csv');
    const cases = {
      node: [process.execPath, '-e', '0'],
      version: cli('--version'),
      help: cli('--help'),
      compareHelp: cli('compare', '--help'),
      compareExamples: cli('compare', examples, '--a', 'alpha', '--b', 'beta', '--json'),
    };
    if (baseBin !== null) for (const k of ['version', 'help', 'compareHelp', 'compareExamples']) cases[`baseline ${k}`] = onBaseline(cases[k]);
    const once = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    for (let r = 0; r < startupRuns + 1; r++) {
      for (const [k, argv] of Object.entries(cases)) {
        const m = measureOnce(argv, k);
        if (r > 0) once[k].push(m); // the first round warms the file cache
      }
    }
    const summary = (k) => ({ cpu: median(once[k].map((m) => m.cpu)), wall: median(once[k].map((m) => m.wall)), maxMb: Math.max(...once[k].map((m) => m.mb)), cpuRuns: once[k].map((m) => m.cpu) });
    const ratio = (k) => median(once[k].map((m, r) => m.cpu / once.node[r].cpu));
    result.startup = { runs: startupRuns };
    for (const k of Object.keys(cases)) result.startup[k] = { ...summary(k), cpuOverNode: ratio(k) };
    result.startup.compareWorkSeconds = median(once.compareExamples.map((m, r) => m.cpu - once.compareHelp[r].cpu));
    const st = result.startup;
    const overBase = (k) => median(once[k].map((m, r) => m.cpu / once[`baseline ${k}`][r].cpu));
    const show = (k) => `${st[k].cpu.toFixed(3)} s (${st[k].cpuOverNode.toFixed(2)}× node${baseBin === null ? '' : `; baseline ${st[`baseline ${k}`].cpu.toFixed(3)} s, ${(st[k].cpuOverBaseline = overBase(k)).toFixed(2)}× its CPU`})`;
    lines.push(`start-up, CPU, median of ${startupRuns} interleaved runs: node -e 0 ${st.node.cpu.toFixed(3)} s; --version ${show('version')}; --help ${show('help')}; compare --help ${show('compareHelp')} (compare's start-up: its code loaded, no work); compare on the bundled 400 items ${show('compareExamples')}, of which the work ${st.compareWorkSeconds.toFixed(3)} s; target ≤ 0.15 s: ${['version', 'help', 'compareHelp'].map((k) => `${k} ${st[k].cpu <= 0.15 ? 'met' : 'not met'}`).join(', ')}`);
  }
  if (only.has('load')) {
    // bench/load.mjs: 10^6 rows, time (median of --runs) and bytes a row, and a run under a heap cap of 100 bytes a row.
    const res = spawnSync(process.execPath, [join(here, 'load.mjs'), '1000000', '--runs', String(Math.max(runs, 3)), '--json'], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (res.status !== 0) throw new Error(`load bench failed: ${res.stderr.slice(-2000)}`);
    const load = JSON.parse(res.stdout.trim().split('\n').pop());
    result.load = load;
    let versus = '';
    if (baselineRoot !== null) {
      const base = spawnSync(process.execPath, [join(here, 'load.mjs'), '1000000', '--runs', String(Math.max(runs, 3)), '--json', '--root', baselineRoot], { encoding: 'utf8', maxBuffer: 1 << 24 });
      if (base.status !== 0) throw new Error(`baseline load bench failed: ${base.stderr.slice(-2000)}`);
      load.baseline = JSON.parse(base.stdout.trim().split('\n').pop());
      versus = ` [baseline ${load.baseline.cpuSeconds.toFixed(2)} s CPU, ${load.baseline.retainedBytesPerRow.toFixed(0)} bytes a row; ${(load.cpuSeconds / load.baseline.cpuSeconds).toFixed(2)}× its CPU]`;
    }
    lines.push(`loader: 10^6 rows in ${load.seconds.toFixed(2)} s wall, ${load.cpuSeconds.toFixed(2)} s CPU (target ≤ 1.5 s: ${load.cpuSeconds <= 1.5 ? 'met' : 'not met'} in CPU, ${load.seconds <= 1.5 ? 'met' : 'not met'} in wall); retained ${load.retainedBytesPerRow.toFixed(0)} bytes a row (target ≤ 100: ${load.retainedBytesPerRow <= 100 ? 'met' : 'not met'}); peak RSS ${load.peakRssMB.toFixed(0)} MB; heap capped at ${load.heapCapMB} MB: ${load.completesUnderCap ? 'completes' : 'out of memory'}${versus}`);
  }
  if (only.has('large')) {
    const { writeBenchFiles } = await import('./data.mjs');
    result.large = [];
    for (const n of quick ? [1e5] : [1e5, 1e6]) {
      const { csv } = await writeBenchFiles(dir, n, 'normal');
      const floor = measure([process.execPath, join(here, 'floor.mjs'), String(n)], `floor n = ${n}`);
      // The same draws in the WebAssembly kernel benchplan runs from 2^16 items: faster than the JS floor.
      const floorWasm = measure([process.execPath, join(here, 'floor.mjs'), String(n), '--wasm'], `WebAssembly floor n = ${n}`);
      const argv = cli('compare', csv, '--a', 'A', '--b', 'B', '--json');
      const one = measure([...argv, '--threads', '1'], `compare n = ${n}, --threads 1`);
      const two = measure([...argv, '--threads', '2'], `compare n = ${n}, --threads 2`);
      // What does not split: the same command with 99 resamples (start-up, loading, pairing, the design,
      // the jackknife). Amdahl's bound for 2 threads is (S + P) / (S + P / 2), P the wall time the rest takes.
      const serial = measure([...argv, '--threads', '1', '--resamples', '99'], `compare n = ${n}, 99 resamples`);
      const amdahl = one.wall / (serial.wall + (one.wall - serial.wall) / 2);
      result.large.push({ n, floor, floorWasm, one, two, serial, amdahlBound: amdahl, overFloorCpu: one.cpu / floor.cpu, overFloorWall: one.wall / floor.wall, overWasmFloorCpu: one.cpu / floorWasm.cpu, wallSpeedUp: one.wall / two.wall, cpuRatio: two.cpu / one.cpu });
      lines.push(
        `large n: compare of ${n.toLocaleString('en-US')} continuous items: floor ${floor.cpu.toFixed(2)} s CPU (${floor.wall.toFixed(2)} s wall), WebAssembly floor ${floorWasm.cpu.toFixed(2)} s CPU; ` +
          `--threads 1 ${one.cpu.toFixed(2)} s CPU (${one.wall.toFixed(2)} s wall) = ${(one.cpu / floor.cpu).toFixed(2)}× the floor (CPU), ${(one.wall / floor.wall).toFixed(2)}× (wall), ${(one.cpu / floorWasm.cpu).toFixed(2)}× the WebAssembly floor (CPU); ` +
          `--threads 2 ${two.wall.toFixed(2)} s wall (${two.cpu.toFixed(2)} s CPU): ${(one.wall / two.wall).toFixed(2)}× faster (Amdahl's bound ${amdahl.toFixed(2)}×: ${serial.wall.toFixed(2)} s wall does not split)`,
      );
    }
  }
  if (only.has('threads')) {
    result.threads = [];
    const cases = [
      ['every pair of 10 models, 1,000 continuous items', cli('compare', scores(1000, 10), '--json')],
      ['every pair of 10 models, 10,000 continuous items', cli('compare', scores(10000, 10), '--json')],
      ['two models, 50,000 continuous items', cli('compare', scores(50000, 2), '--json')],
    ];
    for (const [label, argv] of cases) {
      const one = measure([...argv, '--threads', '1'], `${label}, --threads 1`);
      const two = measure([...argv, '--threads', '2'], `${label}, --threads 2`);
      result.threads.push({ case: label, one, two, wallSpeedUp: one.wall / two.wall, cpuRatio: two.cpu / one.cpu });
      lines.push(`threads: ${label}: --threads 1 ${one.wall.toFixed(2)} s wall (${one.cpu.toFixed(2)} s CPU), 2: ${two.wall.toFixed(2)} s wall (${two.cpu.toFixed(2)} s CPU): ${(one.wall / two.wall).toFixed(2)}× faster, CPU ×${(two.cpu / one.cpu).toFixed(2)}`);
    }
  }
  const scaling = [
    ['agree', 'annotations', quick ? [1e4, 1e5] : [1e4, 1e5, 1e6], (n) => cli('agree', annotations(n), '--json')],
    ['drift', 'items', quick ? [1e3, 1e4] : [1e3, 1e4, 1e5], (n) => {
      const f = drift(n);
      return cli('drift', '--before', f.before, '--rerun', f.rerun, '--after', f.after, '--json');
    }],
    ['sweep', 'documents', quick ? [1e3, 1e4] : [1e3, 1e4, 1e5], (n) => cli('sweep', outcomes(n), '--policy', join(root, 'examples', 'policy.yaml'), '--json')],
    ['freeze', 'items', quick ? [2e3, 2e4] : [2e3, 2e4, 1e5], (n) => {
      const file = manifest(n);
      let run = 0;
      // A fresh archive each run: a frozen version is never overwritten.
      return () => cli('freeze', file, '--archive', join(dir, `archive${n}-${run++}`), '--version', 'v1', '--date', '2026-07-01', '--json');
    }],
    ['report', 'scores', quick ? [1e4, 4e4] : [1e4, 4e4], (n) => cli('report', '--scores', scores(n / 4, 4, 4), '-o', join(dir, `report${n}.html`))],
  ];
  result.scaling = {};
  for (const [command, unit, sizes, argvOf] of scaling) {
    if (!only.has(command)) continue;
    const points = [];
    for (const n of sizes) {
      const argv = argvOf(n);
      points.push({ n, ...measure(argv, `${command} ${n} ${unit}`) });
    }
    for (let k = 1; k < points.length; k++) points[k].exponent = Math.log(points[k].cpu / points[k - 1].cpu) / Math.log(points[k].n / points[k - 1].n);
    result.scaling[command] = { unit, points };
    lines.push(`${command}: ${points.map((p) => `${p.n.toLocaleString('en-US')} ${unit} ${p.cpu.toFixed(2)} s CPU (${p.wall.toFixed(2)} s wall)${p.exponent === undefined ? '' : `, exponent ${p.exponent.toFixed(2)}`}${versusBaseline(p)}`).join('; ')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
result.machine.loadAverageAfter = loadavg();
say(`Whole-process bench (median of ${runs} runs; ${result.machine.cpus} CPUs, load ${result.machine.loadAverageBefore.map((x) => x.toFixed(1)).join(' ')} → ${result.machine.loadAverageAfter.map((x) => x.toFixed(1)).join(' ')}); CPU = user + system seconds:`);
for (const line of lines) say(`  ${line}`);
say('  exponent = log(CPU₂ / CPU₁) / log(n₂ / n₁) between successive sizes (fixed start-up costs pull it below 1 at small sizes)');
const outDir = join(root, 'out', 'bench');
mkdirSync(outDir, { recursive: true });
const file = join(outDir, 'scale.json');
// With --only, keep what an earlier run measured of the other cases.
if (args.includes('--only') && existsSync(file)) {
  const earlier = JSON.parse(readFileSync(file, 'utf8'));
  for (const key of ['startup', 'load', 'large', 'threads']) if (result[key] === undefined && earlier[key] !== undefined) result[key] = earlier[key];
  result.scaling = { ...(earlier.scaling ?? {}), ...result.scaling };
}
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
say(`wrote ${file}`);
