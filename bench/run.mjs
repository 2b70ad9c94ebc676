#!/usr/bin/env node
// benchplan's performance bench: paired BCa bootstrap of mean(A − B), 9,999 resamples, at n = 400,
// 1,648 and 10,000 paired items, on two kinds of data (bench/data.mjs): 0/1 outcomes, whose three
// distinct differences send the bootstrap down its counts path, and continuous scores (every difference
// distinct), which take the index path. Beside each: the cost of drawing the random indices alone (the
// index path's floor), the index path forced on the 0/1 data, the whole `benchplan compare` command, and
// (when /usr/bin/python3 has scipy) scipy.stats.bootstrap(paired=True, method='BCa', vectorized=True) on
// the same data. Every measurement runs in its own child process so its peak memory (maxRSS) is its own.
// Prints a table and writes out/bench/results.json (never the tracked bench/results.json, the
// record of the run the README quotes: copy a new run there by hand, with the README numbers).
//
// Usage: npm run bench [-- --sizes 400,1648,10000] [--data binary,normal] [--threads 2] [--no-scipy] [--out out/bench/results.json] [--no-scale] [--quick] [--write-docs]
// Last, bench/ratios.mjs prints every figure as a ratio to its anchor (with --write-docs it also writes
// docs/performance.md from the run).
// Then runs bench/scale.mjs (whole-process start-up, the loader, large n against the index-drawing floor
// (bench/floor.mjs), threads 2 against 1, and scaling; --quick: smaller sizes; --no-scale: skip it;
// --baseline DIR: every whole-process case also on another built checkout, in turn, with the CPU ratio).
// Timings are best-of-5 after a warm-up, the library interleaved with the index-only floor (scipy: best
// of 2). The machine may be shared: read the load average printed with the results before trusting a ratio.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_KINDS, writeBenchFiles } from './data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const sizes = flag('--sizes', '400,1648,10000').split(',').map(Number);
const kinds = flag('--data', DATA_KINDS.join(',')).split(',');
const threads = Number(flag('--threads', '2'));
const out = resolve(flag('--out', join(root, 'out', 'bench', 'results.json')));
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
const node = (mode, kind, n, extra = []) => child(process.execPath, [join(here, 'child.mjs'), mode, kind, String(n), ...extra], `${mode} ${kind} n=${n}`);

const hasScipy = !args.includes('--no-scipy') && spawnSync(python, ['-c', 'import scipy.stats'], { encoding: 'utf8' }).status === 0;
const { formatTable, formatNumber } = await import('../dist/report/table.js');
const dir = mkdtempSync(join(tmpdir(), 'benchplan-bench-'));
const rows = [];
const loadBefore = loadavg();
try {
  for (const kind of kinds) {
    for (const n of sizes) {
      process.stderr.write(`bench: ${kind} n = ${n} …\n`);
      const files = await writeBenchFiles(dir, n, kind);
      const base = node('base', kind, n);
      const lib = node('lib', kind, n, ['1']);
      const libThreads = threads > 1 ? node('lib', kind, n, [String(threads)]) : null;
      const cli = node('cli', kind, n, ['1', files.csv]);
      const scipy = hasScipy ? child(python, [join(here, 'scipy_bench.py'), files.json], `scipy ${kind} n=${n}`) : null;
      const items = n * B;
      const perItem = (msValue) => (msValue * 1e6) / items;
      // the index path's cost: the library itself on data that takes it, else the forced run
      const indexPath = lib.path === 'indices' ? { ms: lib.ms, cpuMs: lib.cpuMs } : lib.indexPath;
      rows.push({
        data: kind,
        n,
        resamples: B,
        path: lib.path,
        library: { ms: lib.ms, cpuMs: lib.cpuMs, nsPerResampledItem: perItem(lib.ms), cpuNsPerResampledItem: perItem(lib.cpuMs), maxRssMb: lib.maxRssKb / 1024, interval: lib.interval, times: lib.times },
        libraryThreads: libThreads && { threads, ms: libThreads.ms, cpuMs: libThreads.cpuMs, pairedOverOne: libThreads.pairedOverOne, nsPerResampledItem: perItem(libThreads.ms), maxRssMb: libThreads.maxRssKb / 1024 },
        indexPath: indexPath && { forced: lib.path !== 'indices', ms: indexPath.ms, cpuMs: indexPath.cpuMs, cpuNsPerResampledItem: perItem(indexPath.cpuMs), interval: indexPath.interval ?? lib.interval },
        indicesOnly: { ms: lib.drawMs, cpuMs: lib.drawCpuMs, nsPerResampledItem: perItem(lib.drawMs), cpuNsPerResampledItem: perItem(lib.drawCpuMs) },
        indexPathOverIndices: indexPath ? indexPath.cpuMs / lib.drawCpuMs : null,
        command: { inProcessMs: cli.ms, cpuMs: cli.cpuMs, wallMs: cli.wallMs, maxRssMb: cli.maxRssKb / 1024 },
        nodeBaselineMb: base.maxRssKb / 1024,
        scipy: scipy && { ms: scipy.seconds * 1000, cpuMs: scipy.cpuSeconds * 1000, nsPerResampledItem: (scipy.seconds * 1e9) / items, cpuNsPerResampledItem: (scipy.cpuSeconds * 1e9) / items, maxRssMb: scipy.maxRssKb / 1024, interval: scipy.interval, version: scipy.scipy },
        speedupOverScipy: scipy ? (scipy.cpuSeconds * 1000) / lib.cpuMs : null,
        speedupOverScipyWall: scipy ? (scipy.seconds * 1000) / lib.ms : null,
        memoryShareOfScipy: scipy ? lib.maxRssKb / scipy.maxRssKb : null,
      });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const f = (x, d = 3) => (x === null || x === undefined ? '–' : formatNumber(x, d));
const table = formatTable(
  ['data', 'n', 'path', 'lib ms', 'cpu ns/item', `${threads} thr ms`, `${threads} thr speed-up`, 'index path ns/item', 'draw ns/item', 'index/draw', 'lib MB', 'cmd ms (wall)', 'cmd MB', 'scipy ms', 'scipy ns/item', 'scipy MB', 'speed-up', 'mem share'],
  rows.map((r) => [
    r.data,
    String(r.n),
    r.path,
    f(r.library.ms, 4),
    f(r.library.cpuNsPerResampledItem),
    f(r.libraryThreads?.ms, 4),
    r.libraryThreads ? `${f(r.library.ms / r.libraryThreads.ms)}×` : '–',
    r.indexPath ? `${f(r.indexPath.cpuNsPerResampledItem)}${r.indexPath.forced ? ' (forced)' : ''}` : '–',
    f(r.indicesOnly.cpuNsPerResampledItem),
    f(r.indexPathOverIndices),
    f(r.library.maxRssMb, 3),
    `${f(r.command.inProcessMs, 4)} (${f(r.command.wallMs, 4)})`,
    f(r.command.maxRssMb, 3),
    f(r.scipy?.ms, 4),
    f(r.scipy?.cpuNsPerResampledItem),
    f(r.scipy?.maxRssMb, 4),
    r.speedupOverScipy === null ? '–' : `${f(r.speedupOverScipy)}×`,
    r.memoryShareOfScipy === null ? '–' : f(r.memoryShareOfScipy),
  ]),
);
const targets = {};
for (const kind of kinds) {
  const r = rows.find((row) => row.data === kind && row.n === 10000);
  if (!r) continue;
  targets[kind] = {
    atN: 10000,
    path: r.path,
    speedupOverScipy: r.speedupOverScipy,
    tenTimesFasterThanScipy: r.speedupOverScipy === null ? null : r.speedupOverScipy >= 10,
    memoryShareOfScipy: r.memoryShareOfScipy,
    underATenthOfScipyMemory: r.memoryShareOfScipy === null ? null : r.memoryShareOfScipy < 0.1,
    // the index path's target; on the counts path no index is drawn, so it does not apply
    indexPathOverIndices: r.indexPathOverIndices,
    withinTwiceTheIndexCost: r.path === 'indices' ? r.indexPathOverIndices <= 2 : null,
  };
}
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: totalmem() / 2 ** 30, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: loadavg() };
const say = (t) => process.stdout.write(`${t}\n`);
say(`Paired BCa bootstrap of mean(A − B), ${B} resamples (best of 5; ${machine.cpus} CPUs, load ${loadBefore.map((x) => x.toFixed(1)).join(' ')} → ${machine.loadAverageAfter.map((x) => x.toFixed(1)).join(' ')})`);
say(table);
say('data: binary = 0/1 outcomes (differences −1, 0, 1: the counts path), normal = continuous scores (every difference distinct: the index path);');
say('ms = wall time of the best of 5; cpu ns/item = process CPU time / (n × 9999), steadier than wall time on a shared machine;');
say(`${threads} thr = bootstrapMeanDifferenceParallel with ${threads} threads (this one and ${threads - 1} worker${threads > 2 ? 's' : ''}), wall ms of the best of 5; speed-up = lib ms / that (wall: on a shared machine the second core may be busy);`);
say('index path = the index path\'s CPU ns/item (forced on the 0/1 data); draw = drawing the same n × 9999 indices alone; index/draw ≤ 2 is the index path\'s target;');
say(`MB = peak RSS of the process (node doing nothing ≈ ${f(rows[0]?.nodeBaselineMb, 3)} MB); cmd = \`benchplan compare FILE --a A --b B --json\` in-process, sign-flip test and file loading included (wall: a fresh node process);`);
say('speed-up = scipy CPU time / library CPU time (wall-time ratios are in results.json); mem share = library MB / scipy MB.');
if (!hasScipy) say('scipy: not measured (/usr/bin/python3 without scipy, or --no-scipy; apt-get install python3-scipy)');
for (const [kind, t] of Object.entries(targets)) {
  const yes = (v, detail) => (v === null ? 'n/a' : `${v}${detail ? ` (${detail})` : ''}`);
  say(
    `targets at n = 10,000, ${kind} data (${t.path} path): ≥ 10× faster than scipy: ${yes(t.tenTimesFasterThanScipy, t.speedupOverScipy && `${f(t.speedupOverScipy)}×`)}; ` +
      `< 1/10 of its memory: ${yes(t.underATenthOfScipyMemory, t.memoryShareOfScipy && f(t.memoryShareOfScipy))}; ` +
      `within 2× of the index cost: ${t.path === 'indices' ? yes(t.withinTwiceTheIndexCost, f(t.indexPathOverIndices)) : `n/a (no index is drawn; the index path forced: ${f(t.indexPathOverIndices)})`}`,
  );
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ bench: 'paired BCa bootstrap, 9999 resamples', date: new Date().toISOString(), machine, rows, targets }, null, 2)}\n`);
say(`wrote ${out}`);

// Whole-process scaling, start-up and threads (issue #19): bench/scale.mjs, into out/bench/scale.json.
if (!args.includes('--no-scale')) {
  const forward = [...(args.includes('--quick') ? ['--quick'] : []), ...(args.includes('--baseline') ? ['--baseline', flag('--baseline')] : [])];
  const scale = spawnSync(process.execPath, [join(here, 'scale.mjs'), ...forward], { cwd: root, stdio: 'inherit' });
  if (scale.status !== 0) process.exitCode = 1;
}

// Every figure as a ratio to its anchor (floor, scipy, node -e 0, one thread, the peers where
// `npm run peers` ran): bench/ratios.mjs; --write-docs regenerates docs/performance.md from this run.
{
  const ratios = spawnSync(process.execPath, [join(here, 'ratios.mjs'), ...(args.includes('--write-docs') ? ['--write-docs'] : [])], { cwd: root, stdio: 'inherit' });
  if (ratios.status !== 0) process.exitCode = 1;
}
