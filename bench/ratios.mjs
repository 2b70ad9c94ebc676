#!/usr/bin/env node
// Every figure of the bench as a ratio to its anchor (issue 33 item 5): what benchplan costs divided
// by what the anchor costs on the same machine in the same run, so a number means the same thing on
// a fast or a slow (or a shared) machine. Anchors: the index-drawing floor (drawing the resample
// indices alone, bench/floor.mjs), scipy.stats.bootstrap (BCa, vectorized), `node -e 0` (start-up),
// one thread (threads), and the peers where `npm run peers` ran (bench/peers/run.mjs).
// Reads what the bench runs wrote (each optional): out/bench/results.json (bench/run.mjs),
// out/bench/scale.json (bench/scale.mjs), out/bench/threads-crossover.json (bench/threads-crossover.mjs),
// bench/peers/out/**/peers.json (the newest, or --peers FILE). Prints the Markdown tables;
// with --write-docs also writes docs/performance.md from them (never otherwise a tracked file); with
// --write-threads replaces only the page's threads section (its heading, table and "Measured crossover"
// paragraph; the prose after it stays) from --crossover FILE (default out/bench/threads-crossover.json;
// the docs' run is committed as bench/threads-crossover.json).
// `npm run bench` runs it last. Usage: node bench/ratios.mjs [--peers FILE] [--crossover FILE] [--write-docs | --write-threads]
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

function newestPeers() {
  const base = join(here, 'peers', 'out');
  if (!existsSync(base)) return null;
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'peers.json') found.push([statSync(p).mtimeMs, p]);
    }
  };
  walk(base);
  return found.sort((x, y) => y[0] - x[0])[0]?.[1] ?? null;
}

const results = read(join(root, 'out', 'bench', 'results.json'));
const scale = read(join(root, 'out', 'bench', 'scale.json'));
const crossover = read(resolve(flag('--crossover', join(root, 'out', 'bench', 'threads-crossover.json'))));
const peersFile = flag('--peers', newestPeers());
const peers = peersFile ? read(resolve(peersFile)) : null;

const f = (x, d = 2) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x >= 100 ? x.toFixed(0) : x > 0 && x < 0.01 ? x.toExponential(1) : x.toFixed(d));
const out = [];
const say = (t = '') => out.push(t);
const row = (cells) => say(`| ${cells.join(' | ')} |`);
const head = (cells) => {
  row(cells);
  row(cells.map(() => '---'));
};

say('All ratios are benchplan ÷ anchor on the same machine in the same run: below 1, benchplan is cheaper.');
say();
if (results) {
  const m = results.machine;
  say(`### Paired BCa bootstrap, 9,999 resamples (bench/run.mjs, ${results.date.slice(0, 10)}; ${m.cpus} CPUs, load ${m.loadAverageBefore.map((x) => x.toFixed(1)).join(' ')})`);
  say();
  head(['data', 'n', 'path', 'library CPU ms', '÷ scipy BCa CPU', 'index path ÷ drawing floor', 'memory ÷ scipy', 'threads 2 ÷ 1 (wall)', 'command wall s']);
  for (const r of results.rows) {
    row([
      r.data,
      String(r.n),
      r.path,
      f(r.library.cpuMs, 1),
      r.scipy ? f(r.library.cpuMs / r.scipy.cpuMs, 3) : 'scipy not run',
      f(r.indexPathOverIndices),
      r.scipy ? f(r.library.maxRssMb / r.scipy.maxRssMb) : '–',
      r.libraryThreads ? (r.libraryThreads.pairedOverOne ? `${f(r.libraryThreads.pairedOverOne.median)} (${f(r.libraryThreads.pairedOverOne.low)}–${f(r.libraryThreads.pairedOverOne.high)})` : f(r.libraryThreads.ms / r.library.ms)) : '–',
      f(r.command.wallMs / 1000, 2),
    ]);
  }
  say();
  say('threads 2 ÷ 1: the median (and range) of 5 pairs timed in one process, each threaded call next to a one-thread call. Below the crossover (the counts path, small n) both columns run the same single-threaded code (threadsThatPay picks one thread), so there the ratio is the timing noise of the run; CPU-time ratios are steadier than wall.');
  say();
} else say('(out/bench/results.json absent: run `npm run bench`.)\n');

if (scale) {
  say(`### Whole processes (bench/scale.mjs, ${scale.date.slice(0, 10)}; load ${scale.machine.loadAverageBefore.map((x) => x.toFixed(1)).join(' ')})`);
  say();
  head(['figure', 'benchplan', 'anchor', 'anchor value', 'ratio']);
  if (scale.startup) {
    for (const k of ['version', 'help', 'compareHelp', 'compareExamples']) {
      const s = scale.startup[k];
      if (s) row([`start-up: ${k}`, `${f(s.cpu, 3)} s CPU`, 'node -e 0', `${f(scale.startup.node.cpu, 3)} s CPU`, f(s.cpuOverNode)]);
    }
  }
  for (const l of scale.large ?? []) {
    row([`compare, ${l.n.toLocaleString('en-US')} continuous items`, `${f(l.one.cpu)} s CPU`, 'index-drawing floor (JS)', `${f(l.floor.cpu)} s CPU`, f(l.overFloorCpu)]);
    row([`compare, ${l.n.toLocaleString('en-US')} continuous items`, `${f(l.one.cpu)} s CPU`, 'index-drawing floor (WebAssembly)', `${f(l.floorWasm.cpu)} s CPU`, f(l.overWasmFloorCpu)]);
    row([`compare --threads 2, ${l.n.toLocaleString('en-US')} items`, `${f(l.two.wall)} s wall`, '--threads 1', `${f(l.one.wall)} s wall`, f(1 / l.wallSpeedUp)]);
  }
  for (const t of scale.threads ?? []) row([`--threads 2: ${t.case}`, `${f(t.two.wall)} s wall`, '--threads 1', `${f(t.one.wall)} s wall`, f(1 / t.wallSpeedUp)]);
  for (const [command, s] of Object.entries(scale.scaling ?? {})) {
    const last = s.points[s.points.length - 1];
    const first = s.points[0];
    row([`${command}: growth exponent ${first.n.toLocaleString('en-US')} → ${last.n.toLocaleString('en-US')} ${s.unit}`, s.points.slice(1).map((p) => f(p.exponent)).join(', '), 'linear growth', '1', s.points.slice(1).map((p) => f(p.exponent)).join(', ')]);
  }
  say();
} else say('(out/bench/scale.json absent: `npm run bench` without --no-scale writes it.)\n');

/** The threads section: heading, table and the "Measured crossover" paragraph (a run without the paired intervals prints the range over runs instead). */
function threadsSection(c) {
  const lines = [];
  const median = (xs) => {
    const v = [...xs].sort((x, y) => x - y);
    const h = v.length >> 1;
    return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
  };
  const ci = (s) => `${f(s.median)} (${s.confidenceInterval ? s.confidenceInterval.map((x) => f(x)).join('–') : '–'})`;
  const loads = c.loadSamples?.length ? `; 1-minute load over the rounds ${f(median(c.loadSamples), 1)} (${f(Math.min(...c.loadSamples), 1)}–${f(Math.max(...c.loadSamples), 1)})` : '';
  lines.push(`### Threads: when workers pay (bench/threads-crossover.mjs, ${c.date.slice(0, 10)}; ${c.cores} cores; load ${c.loadAverageBefore.map((x) => x.toFixed(1)).join(' ')}${loads})`);
  lines.push('');
  const paired = c.rows.every((r) => r.paired);
  const cells = paired
    ? ['models × items', 'work (index draws)', 'rule: threads', '2 forced ÷ 1 (wall; 95% CI)', '2 by the rule ÷ 1 (wall; 95% CI)', '2 by the rule ÷ 1 (CPU; 95% CI)', 'rounds rule > 1 (wall)']
    : ['models × items', 'work (index draws)', 'rule: threads', '2 forced ÷ 1 (wall)', '2 by the rule ÷ 1 (wall; range over runs)', '2 by the rule ÷ 1 (CPU)'];
  lines.push(`| ${cells.join(' | ')} |`, `| ${cells.map(() => '---').join(' | ')} |`);
  for (const r of c.rows) {
    const name = `${r.models} × ${r.items}${r.kind === 'binary' ? ' 0/1, auto' : ''}`;
    const rule = r.ruleThreadedRounds !== undefined ? `2 in ${r.ruleThreadedRounds} of ${c.runs} rounds` : String(r.ruleThreads);
    if (paired) lines.push(`| ${[name, r.work.toExponential(2), rule, ci(r.paired.forcedWall), ci(r.paired.ruleWall), ci(r.paired.ruleCpu), `${r.paired.ruleWall.above1} of ${c.runs}`].join(' | ')} |`);
    else {
      const range = r.ruleOverOneRange ? ` (${r.ruleOverOneRange.map((x) => f(x)).join('–')})` : '';
      lines.push(`| ${[name, r.work.toExponential(2), String(r.ruleThreads), f(r.forcedOverOne), `${f(r.ruleOverOne)}${range}`, f(r.ruleOverOneCpu)].join(' | ')} |`);
    }
  }
  lines.push('');
  const how = paired
    ? `Ratios are medians of each round's pair (the 2-thread run over the 1-thread run of the same round, ${c.runs} rounds, the order turning), with the median's 95% distribution-free interval (the sign test's order statistics).`
    : `Ratios are medians of each run's pair (2 threads over the 1-thread run next to it, ${c.runs} runs, the order turning).`;
  lines.push(`Measured crossover: ${c.crossover === null ? 'none in this run' : `${c.crossover.toExponential(2)} draws`}. ${how} Where the rule picks one thread both sides run the same code: their spread is the run's timing noise.${c.command ? ` Run: \`${c.command}\`.` : ''}`);
  return lines;
}

if (crossover) {
  for (const line of threadsSection(crossover)) say(line);
  say();
}

if (peers) {
  say(`### In-process time per call against the peers (\`${peers.command}\`, ${peers.date.slice(0, 10)}; load ${peers.machine.loadAverage.map((x) => x.toFixed(1)).join(' ')})`);
  say();
  head(['design', 'n', 'benchplan ms', 'fastest peer', 'its ms', 'benchplan ÷ it']);
  for (const c of peers.summary) {
    if (!c.tools || !c.tools.benchplan || c.kind === 'monitor') continue;
    const others = Object.entries(c.tools).filter(([k, s]) => k !== 'benchplan' && Number.isFinite(s.msPerCall));
    if (!others.length) continue;
    const [name, s] = others.reduce((m, e) => (e[1].msPerCall < m[1].msPerCall ? e : m));
    row([c.design, String(c.size), f(c.tools.benchplan.msPerCall, 2), name, f(s.msPerCall, 2), f(c.tools.benchplan.msPerCall / s.msPerCall)]);
  }
  say();
  say('Per command (a fresh process, one call on the same 200 paired 0/1 items, best of 2):');
  say();
  head(['tool', 'wall s', 'benchplan ÷ it']);
  const base = peers.commands.benchplan?.seconds;
  for (const [tool, c] of Object.entries(peers.commands)) if (c.seconds) row([tool, f(c.seconds), f(base / c.seconds)]);
  say();
} else say('(no bench/peers/out/**/peers.json: run `npm run peers` for the peer anchors.)\n');

const text = `${out.join('\n')}\n`;
process.stdout.write(text);
if (args.includes('--write-docs')) {
  const page = `# Performance

What benchplan costs, always as a ratio to an anchor measured in the same run on the same machine
(the index-drawing floor, scipy's BCa bootstrap, \`node -e 0\`, one thread, the peers). The tables
below are generated by \`node bench/ratios.mjs --write-docs\` from the last run of:

\`\`\`text
npm run bench                              # bench/run.mjs, then bench/scale.mjs, then bench/ratios.mjs
node bench/threads-crossover.mjs --runs 30 --cases 2x200,2x2000,10x1000b,2x5000,10x200,10x1000 --out bench/threads-crossover.json
node bench/ratios.mjs --crossover bench/threads-crossover.json --write-threads   # the threads table alone
npm run peers                              # the peers (docs/peers.md)
node bench/ratios.mjs --write-docs         # this page
\`\`\`

Timings on a shared machine move with its load (printed with every table): read ratios, not
milliseconds, and distrust a ratio measured under a load above the core count. Speed is never
asserted by a test; these benches only print what they measure.

${text}`;
  writeFileSync(join(root, 'docs', 'performance.md'), page);
  process.stderr.write(`ratios: wrote ${join(root, 'docs', 'performance.md')}\n`);
}
if (args.includes('--write-threads')) {
  if (!crossover) throw new Error('--write-threads: no threads-crossover JSON (run bench/threads-crossover.mjs, or pass --crossover FILE)');
  const file = join(root, 'docs', 'performance.md');
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('### Threads: when workers pay'));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('Measured crossover:'));
  if (start < 0 || end < 0) throw new Error(`--write-threads: ${file} has no "### Threads: when workers pay" section ending in a "Measured crossover:" line`);
  lines.splice(start, end - start + 1, ...threadsSection(crossover));
  writeFileSync(file, lines.join('\n'));
  process.stderr.write(`ratios: wrote the threads section of ${file}\n`);
}
