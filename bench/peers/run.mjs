#!/usr/bin/env node
// `npm run peers` (issue 29): benchplan and its peers side by side on the same samples. The study's
// rule is registered in bench/peers.txt. Never a timed test: nothing here is asserted.
//
// 1. Installs the PINNED peers (PEERS below) from PyPI into .venv-peers/ (ignored), one `pip install`
//    each, so a peer that does not install is listed with pip's error and the rest still run.
// 2. Generates every cell's replicates once (bench/peers/designs.mjs, seeded) into cells.json.
// 3. benchplan: every replicate through its library (dist/) in this one Node process
//    (bench/peers/benchplan.mjs); each peer: one Python process (bench/peers/peer.py) over cells.json.
// 4. Per cell and method: coverage ± MC SE, mean width, zero-width rate (intervals); pass rate ± MC SE
//    (gate); coverage and width of the PPI interval (judge); items to a decision (monitor); median ms
//    per call in-process; and one command-line call per tool (wall seconds). Ratios are to benchplan.
// 5. Writes peers.json and peers.md into --out (default bench/peers/out/, ignored); with
//    --write-docs also replaces the tables between the markers of docs/peers.md.
//
// Usage: npm run peers [-- --quick] [--reps 500] [--budget 60] [--min-reps 30] [--cells clustered:10,gate-binary-zero] [--out DIR] [--peers evalci,statgate] [--no-install] [--retry-install] [--reuse] [--seed-tag TAG] [--monitor-streams 200] [--write-docs [SECTION]]
//   --cells LIST: run only the cells whose family (designs.mjs), or family:size, is listed (a re-run of
//   stale cells; the samples are seeded by the cell's label, so a cell's replicates are the same as in a
//   full run with the same --reps). --min-reps K: a peer's method takes at least K replicates of a cell
//   before its --budget can stop it (default 30). --write-docs SECTION: write the tables between the
//   markers of that section of docs/peers.md (docs.mjs) instead of the main tables.
//   --seed-tag TAG: fresh samples for a confirmation (every replicate's stream seeded by "peers|TAG|…"
//   instead of the main run's "peers|…"; bench/peers/confirm-0930.txt).
//   --reuse: read each peer's results already in --out instead of running it (the samples are seeded,
//   so the same --reps and --quick give the same cells); a peer without results there is listed as not run.
//   --budget S: a peer's method stops taking a cell's replicates after S seconds on it (≥ 30 replicates);
//   its rates are then over the replicates it ran (the tables give that count and the MC SE).
//   --monitor-streams K: streams per monitor cell (default 200; the first K of the same seeded streams).
//   --quick: 60 replicates, n = 20 and 200 only (a smoke run, ~2 min); default 500 replicates
//   (MC SE of a 0.95 coverage √(0.95·0.05/500) = 0.0097).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cells as makeCells, replicate } from './designs.mjs';
import { MARGIN, runBenchplan } from './benchplan.mjs';
import { summarise, tables } from './summary.mjs';
import { writeDocs } from './docs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const quick = args.includes('--quick');
const reps = Number(flag('--reps', quick ? '60' : '500'));
const outDir = resolve(flag('--out', join(here, 'out')));
const venv = join(root, '.venv-peers');
const python = join(venv, 'bin', 'python');
const say = (t) => process.stderr.write(`${t}\n`);

/** The peers, pinned: [PyPI name, version, import name]. */
export const PEERS = [
  ['evalstats', '0.3.3', 'evalstats'],
  ['truescore', '0.7.4', 'truescore'],
  ['statgate', '0.1.1', 'statgate'],
  ['evalsig', '0.1.2', 'evalsig'],
  ['evalci', '0.1.0', 'evalci'],
  ['ppi-python', '0.2.3', 'ppi_py'],
  ['confseq', '0.0.11', 'confseq'],
];
/**
 * A peer whose sdist does not build as published, and the build that works (pinned): confseq 0.0.11's
 * pyproject pins pybind11~=2.6.0, which fails on Python ≥ 3.11 (`invalid use of incomplete type
 * 'PyFrameObject'`); PyPI has no wheel of it for Linux. The same source builds with pybind11 3.1.0
 * (scikit-build 0.19.1, cmake 4.4.5) without build isolation. Its C++ extensions need Boost's headers,
 * which a fresh machine may not have (its CMakeLists asks find_package(Boost), not REQUIRED, and then
 * fails at "Boost_INCLUDE_DIR-NOTFOUND"): they come from PyPI's boost-headers wheel, pinned, and their
 * folder is passed to CMake (`includeFrom`: the module whose get_include() names it; `configure`: the
 * scikit-build options built from it). Tried only after the plain install fails; the table says which
 * way it was installed.
 */
const BUILD_FALLBACK = {
  confseq: {
    deps: ['setuptools', 'wheel', 'pybind11==3.1.0', 'scikit-build==0.19.1', 'cmake==4.4.5', 'numpy', 'boost-headers==1.85.0.post1'],
    includeFrom: 'boost_headers',
    configure: (include) => ({ SKBUILD_CONFIGURE_OPTIONS: `-DBoost_INCLUDE_DIR=${include}` }),
    how: "built from its sdist with pybind11 3.1.0 and boost-headers 1.85.0.post1's headers, --no-build-isolation (its pinned pybind11 2.6 fails on Python 3.11)",
  },
};
const wanted = flag('--peers', PEERS.map((p) => p[0]).join(',')).split(',');

// A peer whose pip install failed (a C++ build takes minutes) is not retried at the same version
// unless --retry-install is given; its recorded error is reported again. A peer installed by its
// BUILD_FALLBACK is recorded in the same file (installedVia), so later runs say how it was built.
const failuresFile = join(venv, 'benchplan-failed-installs.json');
let earlierFailures = {};

function install() {
  const status = {};
  if (!existsSync(python)) {
    say(`peers: creating ${venv}`);
    const made = spawnSync('python3', ['-m', 'venv', venv], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`python3 -m venv failed: ${made.stderr}`);
  }
  earlierFailures = existsSync(failuresFile) ? JSON.parse(readFileSync(failuresFile, 'utf8')) : {};
  for (const [name, version, module] of PEERS) {
    if (!wanted.includes(name)) continue;
    const has = spawnSync(python, ['-c', `import importlib.metadata as m; print(m.version(${JSON.stringify(name)}))`], { encoding: 'utf8' });
    const failed = earlierFailures[name];
    if (has.status === 0 && has.stdout.trim() === version) {
      // installed earlier, as published or by its BUILD_FALLBACK (recorded in the same file)
      status[name] = failed?.installedVia && failed.version === version ? { version, module, installed: true, installedVia: failed.installedVia, publishedError: failed.error } : { version, module, installed: true };
      continue;
    }
    // a failure is retried when the fallback recipe it was recorded with is not today's (fallbackHow)
    const fallbackSettled = !BUILD_FALLBACK[name] || failed?.fallbackHow === BUILD_FALLBACK[name].how;
    if (failed && !failed.installedVia && failed.version === version && fallbackSettled && !args.includes('--retry-install')) {
      status[name] = { version, module, installed: false, error: failed.error, cached: true };
      continue;
    }
    if (args.includes('--no-install')) {
      status[name] = { version, module, installed: false, error: 'not installed and --no-install given' };
      continue;
    }
    say(`peers: pip install ${name}==${version} …`);
    // --no-cache-dir for a peer with a build fallback: a wheel built earlier by the fallback sits in pip's
    // cache under the sdist's hash and would make the published install look as if it worked
    const noCache = BUILD_FALLBACK[name] ? ['--no-cache-dir'] : [];
    const pip = spawnSync(python, ['-m', 'pip', 'install', '--disable-pip-version-check', ...noCache, `${name}==${version}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const lines = `${pip.stdout}\n${pip.stderr}`.trim().split('\n');
    status[name] = pip.status === 0 ? { version, module, installed: true } : { version, module, installed: false, error: lines.filter((l) => /error/i.test(l)).slice(-6).join('\n') || lines.slice(-6).join('\n') };
    const fallback = BUILD_FALLBACK[name];
    if (pip.status !== 0 && fallback) {
      say(`peers: ${name} failed as published; building it with ${fallback.deps.join(', ')} (--no-build-isolation) …`);
      const deps = spawnSync(python, ['-m', 'pip', 'install', '--disable-pip-version-check', ...fallback.deps], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const include = deps.status === 0 && fallback.includeFrom ? spawnSync(python, ['-c', `import ${fallback.includeFrom}; print(${fallback.includeFrom}.get_include())`], { encoding: 'utf8' }) : null;
      const ready = include === null ? deps : include;
      const env = include !== null && include.status === 0 ? { ...process.env, ...fallback.configure(include.stdout.trim()) } : process.env;
      const built = ready.status === 0 ? spawnSync(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-cache-dir', '--no-build-isolation', `${name}==${version}`], { encoding: 'utf8', maxBuffer: 1 << 26, env }) : ready;
      if (built.status === 0) status[name] = { version, module, installed: true, installedVia: fallback.how, publishedError: status[name].error };
      else status[name].error += `\n(the fallback build failed too: ${`${built.stdout}\n${built.stderr}`.trim().split('\n').filter((l) => /error/i.test(l)).slice(-3).join(' ')})`;
    }
    if (!status[name].installed) earlierFailures[name] = { version, error: status[name].error, ...(fallback ? { fallbackHow: fallback.how } : {}), date: new Date().toISOString() };
    else if (status[name].installedVia) earlierFailures[name] = { version, error: status[name].publishedError, installedVia: status[name].installedVia, date: new Date().toISOString() };
    else delete earlierFailures[name];
  }
  writeFileSync(failuresFile, `${JSON.stringify(earlierFailures, null, 2)}\n`);
  return status;
}

const t0 = Date.now();
mkdirSync(outDir, { recursive: true });
const peers = install();
const freeze = existsSync(python) ? spawnSync(python, ['-m', 'pip', 'freeze'], { encoding: 'utf8' }).stdout.trim().split('\n') : [];
const pythonVersion = existsSync(python) ? spawnSync(python, ['--version'], { encoding: 'utf8' }).stdout.trim() : null;

const made = makeCells({ quick });
// --seed-tag TAG: fresh samples (a confirmation re-run), seeded by "peers|TAG|label|r" (designs.mjs)
const seedTag = flag('--seed-tag', null);
const populations = made.populations;
// --cells: keep the listed cells only (family, or family:size); ids stay those of the full grid
const only = flag('--cells', null)?.split(',');
made.cells.forEach((cell, k) => (cell.id = `c${k}`));
const cells = only ? made.cells.filter((c) => only.includes(c.family) || only.includes(`${c.family}:${c.size}`)) : made.cells;
if (only && cells.length === 0) throw new Error(`--cells ${only.join(',')}: no cell of bench/peers/designs.mjs matches (family or family:size)`);
// --monitor-streams K: the streams a monitor cell takes (r = 0 … K − 1, so the first 200 are the default
// run's; default 200, 40 with --quick, and never more than --reps)
const monitorStreams = Number(flag('--monitor-streams', quick ? '40' : '200'));
if (!(Number.isInteger(monitorStreams) && monitorStreams > 0)) throw new Error(`--monitor-streams must be a whole number > 0 (got ${flag('--monitor-streams', '')})`);
cells.forEach((cell) => {
  if (!cell.skipped) cell.reps = Array.from({ length: cell.kind === 'monitor' ? Math.min(reps, monitorStreams) : reps }, (_, r) => replicate(cell, r, seedTag));
});
for (const pop of populations) say(pop.skipped ? `peers: real data: ${pop.label} skipped: ${pop.skipped}` : `peers: real data: ${pop.label}: ${pop.size} paired items, truth ${pop.truth.toFixed(4)}`);
const cellsFile = join(outDir, 'cells.json');
writeFileSync(cellsFile, JSON.stringify({ margin: MARGIN, cells: cells.filter((c) => !c.skipped).map(({ make, ...c }) => c) }));

const results = {};
// The peers run side by side (one Python process each), so the study's wall time is the slowest peer's.
const budget = flag('--budget', quick ? '15' : '60');
const minReps = flag('--min-reps', '30');
const peerRuns = Promise.all(
  Object.entries(peers)
    .filter(([, info]) => info.installed)
    .filter(([name, info]) => {
      // --reuse: a peer's results already in --out (same cells: the samples are seeded) are read, not re-run
      const file = join(outDir, `${name}.json`);
      if (!args.includes('--reuse')) return true;
      if (existsSync(file)) {
        results[name] = JSON.parse(readFileSync(file, 'utf8'));
        info.reused = true;
        say(`peers: ${name}: reusing ${file}`);
      } else {
        info.runError = 'not finished when the tables were made (--reuse without its results)';
      }
      return false;
    })
    .map(
      ([name, info]) =>
        new Promise((done) => {
          say(`peers: ${name} …`);
          const t = Date.now();
          const child = spawn(python, [join(here, 'peer.py'), info.module, cellsFile, join(outDir, `${name}.json`), budget, minReps], { stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (chunk) => (stderr += chunk));
          child.on('close', (code) => {
            info.seconds = (Date.now() - t) / 1000;
            if (code !== 0) {
              info.runError = stderr.trim().split('\n').slice(-5).join('\n');
              say(`peers: ${name} failed: ${info.runError}`);
            } else {
              results[name] = JSON.parse(readFileSync(join(outDir, `${name}.json`), 'utf8'));
              say(`peers: ${name} done in ${info.seconds.toFixed(0)} s`);
            }
            done();
          });
        }),
    ),
);
// benchplan in this process meanwhile (the children run on their own; their results are read after)
say(`peers: benchplan, ${cells.length} cells × ${reps} replicates, in-process …`);
results.benchplan = runBenchplan(cells, reps);
say('peers: benchplan done');
await peerRuns;
// One command-line call per tool on the same file (n = 200, 0/1): wall seconds, a fresh process each.
const commands = commandTimes();

const summary = summarise(cells, results, peers);
const meta = {
  bench: 'peers side by side (issue 29)',
  date: new Date().toISOString(),
  command: `npm run peers${args.length ? ` -- ${args.join(' ')}` : ''}`,
  replicates: reps,
  cells: only,
  seedTag,
  minReps: Number(minReps),
  quick,
  seconds: (Date.now() - t0) / 1000,
  machine: { cpus: cpus().length, node: process.version, python: pythonVersion, loadAverage: loadavg() },
  peers,
  pipFreeze: freeze,
  populations: populations.map(({ a, b, ...p }) => p),
  commands,
};
writeFileSync(join(outDir, 'peers.json'), `${JSON.stringify({ ...meta, summary }, null, 2)}\n`);
const md = tables(meta, summary);
writeFileSync(join(outDir, 'peers.md'), md);
if (args.includes('--write-docs')) say(`peers: wrote the tables into ${writeDocs(md, docsSection())}`);
process.stdout.write(md);
say(`peers: wrote ${join(outDir, 'peers.json')} and peers.md in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

/** --write-docs SECTION: the section name after the flag, if any (not another flag). */
function docsSection() {
  const v = flag('--write-docs', null);
  return v && !v.startsWith('--') ? v : null;
}

function commandTimes() {
  const cell = cells.find((c) => c.family === 'binary-20' && c.size === 200);
  if (!cell) return {};
  const rep = cell.reps[0];
  const csv = join(outDir, 'command.csv');
  writeFileSync(csv, `item,model,score\n${rep.a.map((x, i) => `i${i},A,${x}\ni${i},B,${rep.b[i]}`).join('\n')}\n`);
  const time = (argv) => {
    const best = [];
    for (let k = 0; k < 2; k++) {
      const s = process.hrtime.bigint();
      const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', cwd: root });
      if (r.status !== 0 && r.status !== 1) return { error: (r.stderr || String(r.error)).trim().split('\n').slice(-3).join('\n') };
      best.push(Number(process.hrtime.bigint() - s) / 1e9);
    }
    return { seconds: Math.min(...best) };
  };
  const out = { benchplan: { argv: 'benchplan compare command.csv --a A --b B --json', ...time([process.execPath, join(root, 'bin', 'benchplan.js'), 'compare', csv, '--a', 'A', '--b', 'B', '--json']) } };
  for (const [name, info] of Object.entries(peers)) {
    if (!info.installed) continue;
    const r = spawnSync(python, [join(here, 'peer.py'), '--command', info.module, csv], { encoding: 'utf8' });
    if (r.status !== 0) {
      out[name] = { error: r.stderr.trim().split('\n').slice(-2).join('\n') };
      continue;
    }
    const line = r.stdout.trim();
    if (line.startsWith('none:')) {
      out[name] = { none: line.slice(5).trim() };
      continue;
    }
    out[name] = { argv: line, ...time(JSON.parse(line)) };
  }
  return out;
}
