#!/usr/bin/env node
// Whole-process bench of issue 33 item 3 / issue 32 item 6: `benchplan verify` on an archive of
// 10^5 items against `sha256sum` over the same objects, both as whole processes (wall seconds and
// user + system CPU seconds, the median of --runs runs). Two archives are built in a temporary
// folder with the CLI's own freeze: one from inline item texts, one whose manifest names a file per
// item (`path:`, "with item files"). Prints the ratio verify / sha256sum for each; the bar is
// a ratio of at most 2. Needs `npm run build` first. Writes nothing in the repository.
//
// --keep DIR builds the archives in DIR (DIR/texts/archive, DIR/files/archive) and leaves them there;
// a later run with the same --keep DIR and --items reuses them (a freeze of 10^5 items takes 17-23
// minutes on this machine under load, almost all of it waiting for fsync), so only verify and
// sha256sum are timed again. Also printed: the commit measured, node's bare start-up (`node -e 0`)
// and benchplan's (`--version`), as anchors for the fixed cost in verify's time.
//
// Also, in-process (a fresh process per run, paired): verifyArchive with threads 1 and 2, wall and
// the whole process's CPU, to show what the worker thread (src/rotation/object-hashing.ts) buys in
// time and costs in CPU.
//
// Usage: node bench/verify-scale.mjs [--items 100000] [--runs 3] [--keep DIR]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'benchplan.js');
const args = process.argv.slice(2);
if (args[0] === '--child') {
  // One in-process run: node bench/verify-scale.mjs --child ARCHIVE THREADS; prints {"wall","cpu"} in seconds.
  const { verifyArchive } = await import(join(root, 'dist', 'rotation', 'verify.js'));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = verifyArchive(args[1], { threads: Number(args[2]) });
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  if (!result.ok) throw new Error(`verify found problems in ${args[1]}`);
  process.stdout.write(JSON.stringify({ wall, cpu: (c.user + c.system) / 1e6 }));
  process.exit(0);
}
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? Number(args[k + 1]) : fallback;
};
const n = flag('--items', 100_000);
const runs = flag('--runs', 3);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? resolve(args[keepAt + 1]) : null;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'benchplan-verify-scale-'));
const say = (t) => process.stdout.write(`${t}\n`);

/** Runs a command under /usr/bin/time -f; returns wall, user+sys seconds. */
function timed(command, argv, options = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', command, ...argv], { encoding: 'utf8', maxBuffer: 1 << 30, ...options });
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [wall, user, sys] = last.split(' ').map(Number);
  if (r.status !== 0 && !options.allowFail) throw new Error(`${command} ${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return { wall, cpu: user + sys, status: r.status };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function build(kind) {
  const base = join(dir, kind);
  if (keep && existsSync(join(base, 'archive', 'head.json')) && readdirSync(join(base, 'archive', 'objects')).length === n) {
    say(`reused ${kind}: ${n} items frozen earlier in ${join(base, 'archive')}`);
    return join(base, 'archive');
  }
  mkdirSync(join(base, 'items'), { recursive: true });
  const strata = ['routine', 'rare_clause', 'past_failure'];
  const lines = [];
  for (let k = 0; k < n; k++) {
    const text = `Item ${k} (${kind}): payment is due within ${(k % 90) + 3} days of the invoice; clause ${k * 7919 % 100_003}.`;
    const row = { item: `i${k}`, stratum: strata[k % 3], split: k % 5 === 4 ? 'dev' : 'eval' };
    if (kind === 'files') {
      writeFileSync(join(base, 'items', `i${k}.txt`), text);
      row.path = `items/i${k}.txt`;
    } else row.text = text;
    lines.push(JSON.stringify(row));
  }
  writeFileSync(join(base, 'manifest.jsonl'), `${lines.join('\n')}\n`);
  const archive = join(base, 'archive');
  const t = timed(process.execPath, [bin, 'freeze', join(base, 'manifest.jsonl'), '--archive', archive, '--version', 'v1', '--date', '2026-07-01'], { cwd: base });
  say(`built ${kind}: ${n} items frozen in ${t.wall.toFixed(1)} s`);
  return archive;
}

const git = (argv) => spawnSync('git', argv, { cwd: root, encoding: 'utf8' }).stdout.trim();
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
say(`verify-scale: ${n} items, ${runs} runs each, ${cpus().length} cores, node ${process.version}, load ${load()}`);
say(`commit ${git(['rev-parse', 'HEAD'])}${git(['status', '--porcelain', '--untracked-files=no', 'src']) ? ' (src/ has uncommitted changes)' : ''}`);
try {
  const rows = [];
  const starts = [];
  for (let r = 0; r < 5; r++) starts.push({ bare: timed(process.execPath, ['-e', '0']), version: timed(process.execPath, [bin, '--version']) });
  const bare = median(starts.map((x) => x.bare.cpu));
  const version = median(starts.map((x) => x.version.cpu));
  for (const kind of ['texts', 'files']) {
    const archive = build(kind);
    const objects = readdirSync(join(archive, 'objects')).length;
    // xargs gives sha256sum the same objects as verify reads, in as few processes as the argument limit allows.
    const sums = [];
    const verifies = [];
    for (let r = 0; r < runs; r++) {
      verifies.push(timed(process.execPath, [bin, 'verify', '--archive', archive]));
      sums.push(timed('/bin/sh', ['-c', `cd '${archive}/objects' && ls -f | grep -v '^\\.' | xargs sha256sum > /dev/null`]));
    }
    const v = { wall: median(verifies.map((x) => x.wall)), cpu: median(verifies.map((x) => x.cpu)) };
    const s = { wall: median(sums.map((x) => x.wall)), cpu: median(sums.map((x) => x.cpu)) };
    const inProcess = { 1: [], 2: [] };
    for (let r = 0; r < runs; r++) {
      for (const threads of [1, 2]) {
        const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', archive, String(threads)], { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(`in-process run failed: ${out.stderr.slice(0, 500)}`);
        inProcess[threads].push(JSON.parse(out.stdout));
      }
    }
    const pick = (xs) => ({ wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) });
    rows.push({ kind, objects, v, s, one: pick(inProcess[1]), two: pick(inProcess[2]) });
  }
  say(`load at the end ${load()}`);
  say('');
  say(`start-up anchors (CPU s, median of 5): node -e 0 ${bare.toFixed(2)}, benchplan --version ${version.toFixed(2)}`);
  say('');
  say('| archive | objects | verify wall s | sha256sum wall s | ratio (wall) | verify CPU s | sha256sum CPU s | ratio (CPU) |');
  say('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { kind, objects, v, s } of rows) {
    say(`| ${kind === 'files' ? 'item files (path:)' : 'inline texts'} | ${objects} | ${v.wall.toFixed(2)} | ${s.wall.toFixed(2)} | ${(v.wall / s.wall).toFixed(2)} | ${v.cpu.toFixed(2)} | ${s.cpu.toFixed(2)} | ${(v.cpu / s.cpu).toFixed(2)} |`);
  }
  say('');
  say('In-process verifyArchive (no start-up), median of the runs, threads 1 and 2 paired:');
  say('');
  say('| archive | threads 1 wall s | threads 2 wall s | wall 2/1 | threads 1 CPU s | threads 2 CPU s | CPU 2/1 |');
  say('|---|---:|---:|---:|---:|---:|---:|');
  for (const { kind, one, two } of rows) {
    say(`| ${kind === 'files' ? 'item files (path:)' : 'inline texts'} | ${one.wall.toFixed(2)} | ${two.wall.toFixed(2)} | ${(two.wall / one.wall).toFixed(2)} | ${one.cpu.toFixed(2)} | ${two.cpu.toFixed(2)} | ${(two.cpu / one.cpu).toFixed(2)} |`);
  }
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
