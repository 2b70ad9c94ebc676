#!/usr/bin/env node
// benchplan's performance bench: paired BCa bootstrap of mean(A − B), 9,999 resamples, at n = 400,
// 1,648 and 10,000 paired items; beside it the cost of drawing the random indices alone, the whole
// `benchplan compare` command, and (when /usr/bin/python3 has scipy) scipy.stats.bootstrap(paired=True,
// method='BCa', vectorized=True) on the same data. Every measurement runs in its own child process so
// its peak memory (maxRSS) is its own. Prints a table and writes bench/results.json.
//
// Usage: npm run bench [-- --sizes 400,1648,10000] [--threads 2] [--no-scipy] [--out bench/results.json]
// Timings are best-of-5 after a warm-up, the library interleaved with the index-only floor (scipy: best of 2). The machine may be shared: read the
// load average printed with the results before trusting a ratio.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchFiles } from './data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const sizes = flag('--sizes', '400,1648,10000').split(',').map(Number);
const threads = Number(flag('--threads', '2'));
const out = resolve(flag('--out', join(here, 'results.json')));
const B = 9999;
const python = '/usr/bin/python3';

function child(command, argv, label) {
  const t0 = process.hrtime.bigint();
  const result = spawnSync(command, argv, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (result.status !== 0) throw new Error(`${label} failed (${result.status}): ${result.stderr}`);
  const line = result.stdout.trim().split('\n').pop();
  return { ...JSON.parse(line), wallMs };
}
const node = (mode, n, extra = []) => child(process.execPath, [join(here, 'child.mjs'), mode, String(n), ...extra], `${mode} n=${n}`);

const hasScipy = !args.includes('--no-scipy') && spawnSync(python, ['-c', 'import scipy.stats'], { encoding: 'utf8' }).status === 0;
const { formatTable, formatNumber } = await import('../dist/report/table.js');
const dir = mkdtempSync(join(tmpdir(), 'benchplan-bench-'));
const rows = [];
const loadBefore = loadavg();
try {
  for (const n of sizes) {
    process.stderr.write(`bench: n = ${n} …\n`);
    const files = await writeBenchFiles(dir, n);
    const base = node('base', n);
    const lib = node('lib', n, ['1']);
    const libThreads = threads > 1 ? node('lib', n, [String(threads)]) : null;
    const draw = { ms: lib.drawMs, cpuMs: lib.drawCpuMs };
    const cli = node('cli', n, ['1', files.csv]);
    const scipy = hasScipy ? child(python, [join(here, 'scipy_bench.py'), files.json], `scipy n=${n}`) : null;
    const items = n * B;
    rows.push({
      n,
      resamples: B,
      library: { ms: lib.ms, cpuMs: lib.cpuMs, nsPerResampledItem: (lib.ms * 1e6) / items, cpuNsPerResampledItem: (lib.cpuMs * 1e6) / items, maxRssMb: lib.maxRssKb / 1024, interval: lib.interval, times: lib.times },
      libraryThreads: libThreads && { threads, ms: libThreads.ms, cpuMs: libThreads.cpuMs, nsPerResampledItem: (libThreads.ms * 1e6) / items, maxRssMb: libThreads.maxRssKb / 1024 },
      indicesOnly: { ms: draw.ms, cpuMs: draw.cpuMs, nsPerResampledItem: (draw.ms * 1e6) / items, cpuNsPerResampledItem: (draw.cpuMs * 1e6) / items },
      libraryOverIndices: lib.cpuMs / draw.cpuMs,
      command: { inProcessMs: cli.ms, cpuMs: cli.cpuMs, wallMs: cli.wallMs, maxRssMb: cli.maxRssKb / 1024 },
      nodeBaselineMb: base.maxRssKb / 1024,
      scipy: scipy && { ms: scipy.seconds * 1000, cpuMs: scipy.cpuSeconds * 1000, nsPerResampledItem: (scipy.seconds * 1e9) / items, maxRssMb: scipy.maxRssKb / 1024, interval: scipy.interval, version: scipy.scipy },
      speedupOverScipy: scipy ? scipy.cpuSeconds * 1000 / lib.cpuMs : null,
      speedupOverScipyWall: scipy ? (scipy.seconds * 1000) / lib.ms : null,
      memoryShareOfScipy: scipy ? lib.maxRssKb / scipy.maxRssKb : null,
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const f = (x, d = 3) => (x === null || x === undefined ? '–' : formatNumber(x, d));
const table = formatTable(
  ['n', 'lib ms', 'cpu ns/item', `${threads} thr ms`, 'draw cpu ns/item', 'lib/draw', 'lib MB', 'cmd ms (wall)', 'cmd MB', 'scipy ms', 'scipy MB', 'speed-up', 'mem share'],
  rows.map((r) => [
    String(r.n),
    f(r.library.ms, 4),
    f(r.library.cpuNsPerResampledItem),
    f(r.libraryThreads?.ms, 4),
    f(r.indicesOnly.cpuNsPerResampledItem),
    f(r.libraryOverIndices),
    f(r.library.maxRssMb, 3),
    `${f(r.command.inProcessMs, 4)} (${f(r.command.wallMs, 4)})`,
    f(r.command.maxRssMb, 3),
    f(r.scipy?.ms, 4),
    f(r.scipy?.maxRssMb, 4),
    r.speedupOverScipy === null ? '–' : `${f(r.speedupOverScipy)}×`,
    r.memoryShareOfScipy === null ? '–' : f(r.memoryShareOfScipy),
  ]),
);
const largest = rows.find((r) => r.n === 10000);
const targets = largest
  ? {
      atN: 10000,
      tenTimesFasterThanScipy: largest.speedupOverScipy === null ? null : largest.speedupOverScipy >= 10,
      underATenthOfScipyMemory: largest.memoryShareOfScipy === null ? null : largest.memoryShareOfScipy < 0.1,
      withinTwiceTheIndexCost: largest.libraryOverIndices <= 2,
    }
  : null;
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: totalmem() / 2 ** 30, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: loadavg() };
process.stdout.write(`Paired BCa bootstrap of mean(A − B), ${B} resamples (best of 5; ${machine.cpus} CPUs, load ${loadBefore.map((x) => x.toFixed(1)).join(' ')} → ${machine.loadAverageAfter.map((x) => x.toFixed(1)).join(' ')})\n`);
process.stdout.write(`${table}\n`);
process.stdout.write('ms = wall time of the best of 5; cpu ns/item = process CPU time / (n × 9999), steadier than wall time on a shared machine;\n');
process.stdout.write('draw = drawing the same indices alone; lib/draw (CPU) ≤ 2 is the target; MB = peak RSS of the process (node doing nothing ≈ ' + f(rows[0]?.nodeBaselineMb, 3) + ' MB);\n');
process.stdout.write('cmd = `benchplan compare FILE --a A --b B --json` in-process, sign-flip test and file loading included (wall: a fresh node process);\n');
process.stdout.write('speed-up = scipy CPU time / library CPU time (wall-time ratios are in results.json); mem share = library MB / scipy MB.\n');
if (!hasScipy) process.stdout.write('scipy: not measured (/usr/bin/python3 without scipy, or --no-scipy; apt-get install python3-scipy)\n');
if (targets) process.stdout.write(`targets at n = 10,000: ≥ 10× faster than scipy: ${targets.tenTimesFasterThanScipy ?? 'n/a'}; < 1/10 of its memory: ${targets.underATenthOfScipyMemory ?? 'n/a'}; within 2× of the index cost: ${targets.withinTwiceTheIndexCost}\n`);
writeFileSync(out, `${JSON.stringify({ bench: 'paired BCa bootstrap, 9999 resamples', date: new Date().toISOString(), machine, rows, targets }, null, 2)}\n`);
process.stdout.write(`wrote ${out}\n`);
