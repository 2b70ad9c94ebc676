/**
 * `benchplan label`: the session round trip from the CLI (start, record, resume in a new process,
 * stop with a verdict), replay identity, each refusal (exit 2, nothing appended), two writers at
 * once, and a record killed at every step of its commit (tests/faults/crash-at.mjs). The
 * child-process parts use the built CLI (`npm run build` first) and are skipped without it.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../src/data/csv-text.js';
import { openTable } from '../../src/data/read.js';
import { readLabelLog } from '../../src/label/session.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const POOL = 'examples/label-pool.csv';
const BIN = resolve('bin/benchplan.js');
const CRASH_AT = pathToFileURL(resolve('tests/faults/crash-at.mjs')).href;
const built = existsSync(resolve('dist/cli/main.js'));
const START = ['--baseline', 'current', '--candidate', 'candidate', '--judge', 'judge', '--margin', '0.05', '--budget', '60', '--batch', '12', '--seed', '11'];

/** The pool's judge scores, read as the annotator's labels (a deterministic stand-in for people). */
const judged = (() => {
  const m = new Map<string, number>();
  for (const { values } of openTable(POOL).records) m.set(`${values.item}\u0000${values.model}`, Number(values.judge) >= 0.5 ? 1 : 0);
  return m;
})();

/** Fills a batch file the way an annotator would, into `to`; `edit` changes rows before writing. */
function fill(batchFile: string, to: string, edit: (rows: string[][]) => string[][] = (r) => r): string {
  const table = openTable(batchFile);
  const columns = table.columns as string[];
  let rows: string[][] = [];
  for (const { values } of table.records) {
    rows.push(columns.map((c) => (c === 'baseline' ? String(judged.get(`${values.item}\u0000current`)) : c === 'candidate' ? String(judged.get(`${values.item}\u0000candidate`)) : String(values[c]))));
  }
  rows = edit(rows);
  writeFileSync(to, `${[csvLine(columns), ...rows.map((r) => csvLine(r))].join('\n')}\n`);
  return to;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function child(args: string[], env: Record<string, string> = {}, preload = false): Promise<Run> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [...(preload ? ['--import', CRASH_AT] : []), BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

async function started(dir = tempDir()): Promise<{ session: string; status: { batch: number; batchFile: string; toLabel: string[] } }> {
  const session = join(dir, 'session');
  const r = await runCli(['label', 'start', POOL, ...START, '--session', session, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return { session, status: JSON.parse(r.stdout) };
}

const logText = (session: string) => readFileSync(join(session, 'log.jsonl'), 'utf8');

describe('benchplan label', () => {
  it('round trip: start, record each batch until a verdict, exit status as gate; status and replay agree', async () => {
    const dir = tempDir();
    const { session, status } = await started(dir);
    expect(status.batch).toBe(1);
    expect(readFileSync(status.batchFile, 'utf8').split('\n')[0]).toBe('batch,item,stratum,baseline_output,candidate_output,baseline,candidate');
    let open: { verdict: string; batch: number | null; batchFile: string | null } = { verdict: 'continue', ...status };
    let last = { code: 0, stdout: '', stderr: '' };
    for (let round = 0; open.verdict === 'continue'; round++) {
      expect(round).toBeLessThan(60);
      const answers = fill(open.batchFile as string, join(dir, `answers-${open.batch}.csv`));
      last = await runCli(['label', 'record', answers, '--session', session, '--json']);
      expect([0, 1, 3], last.stderr).toContain(last.code);
      open = JSON.parse(last.stdout);
      if (open.verdict === 'continue') expect(last.code).toBe(0);
    }
    expect(last.code).toBe({ pass: 0, fail: 1, inconclusive: 3 }[open.verdict]);
    const final = JSON.parse(last.stdout);
    expect(final.labelsUsed).toBeLessThanOrEqual(60);
    expect(final.batch).toBeNull();
    expect(final.history.length).toBeGreaterThan(0);
    const status2 = await runCli(['label', 'status', '--session', session, '--json']);
    expect(status2.code).toBe(last.code);
    expect({ ...JSON.parse(status2.stdout), action: 'record' }).toEqual(final);
    const replay = await runCli(['label', 'replay', '--session', session]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/replay: all \d+ log lines check, and every proposal and status reproduces byte for byte from seed 11/);
    // Text output names the verdict and the labels used.
    const text = await runCli(['label', 'status', '--session', session]);
    expect(text.stdout).toMatch(new RegExp(`verdict: ${open.verdict}`));
  });

  it.skipIf(!built)('resumes in a new process: the status a fresh process replays equals the one the writer printed, byte for byte', async () => {
    const dir = tempDir();
    const { session, status } = await started(dir);
    const answers = fill(status.batchFile, join(dir, 'answers-1.csv'));
    const rec = await child(['label', 'record', answers, '--session', session, '--json']);
    expect(rec.code, rec.stderr).toBe(0);
    const again = await child(['label', 'status', '--session', session, '--json']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(rec.stdout.replace('"action": "record"', '"action": "status"'));
  });

  it('refuses bad and late answers with FILE:LINE: field and value, exit 2, the log untouched', async () => {
    const dir = tempDir();
    const { session, status } = await started(dir);
    const before = logText(session);
    const asked = new Set(status.toLabel);
    const other = [...judged.keys()].map((k) => k.split('\u0000')[0]).find((id) => !asked.has(id)) as string;
    const at = (rows: string[][], k: number, column: number, value: string) => rows.map((r, i) => (i === k ? r.map((c, j) => (j === column ? value : c)) : r));
    // Columns: batch, item, stratum, baseline_output, candidate_output, baseline, candidate.
    const cases: Array<[string, (rows: string[][]) => string[][], RegExp]> = [
      ['not-asked', (rows) => [...rows, ['1', other, 'routine', 'x', 'y', '1', '1']], new RegExp(`not-asked\\.csv:${rows1(status) + 2}: item "${other}" was not asked for in batch 1 \\(it asks for \\d+ items\\) \\(got "${other}"\\)`)],
      ['second', (rows) => [...rows, rows[0]], new RegExp(`second\\.csv:${rows1(status) + 2}: item "${status.toLabel[0]}" has a second answer \\(first on line 2\\)`)],
      ['outside', (rows) => at(rows, 1, 6, '2'), /outside\.csv:3: candidate must lie in the session's score range \[0, 1\] \(got "2"\)/],
      ['empty', (rows) => at(rows, 0, 5, ''), new RegExp(`empty\\.csv:2: baseline is not filled in for item "${status.toLabel[0]}" \\(got ""\\)`)],
      ['text', (rows) => at(rows, 0, 5, 'yes'), /text\.csv:2: baseline must be a number \(got "yes"\)/],
      ['missing', (rows) => rows.slice(1), new RegExp(`missing\\.csv: item: batch 1 asks for ${status.toLabel.length} items and 1 have no answer \\("${status.toLabel[0]}"\\)`)],
      ['future', (rows) => rows.map((r) => ['2', ...r.slice(1)]), /future\.csv: batch: is for batch 2, which has not been proposed; the open batch is 1 \(got 2\)/],
      ['mixed', (rows) => at(rows, 1, 0, '2'), /mixed\.csv:3: batch must be the same on every row \(1 on the first\) \(got "2"\)/],
    ];
    for (const [name, edit, message] of cases) {
      const file = fill(status.batchFile, join(dir, `${name}.csv`), edit);
      const r = await runCli(['label', 'record', file, '--session', session]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(logText(session), name).toBe(before);
    }
    const noColumn = writeInput(dir, 'nocol.csv', 'batch,item,baseline\n1,a,1\n');
    expect((await runCli(['label', 'record', noColumn, '--session', session])).stderr).toMatch(/nocol\.csv:1: missing required column "candidate"/);
    // Flags only start reads are refused elsewhere; start refuses an existing session.
    expect((await runCli(['label', 'record', noColumn, '--session', session, '--margin', '0.1'])).stderr).toMatch(/--margin: is read by label start only/);
    const twice = await runCli(['label', 'start', POOL, ...START, '--session', session]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/holds a session already/);
    // Recorded once: the same file again, and later the old batch's file, are refused.
    const good = fill(status.batchFile, join(dir, 'good.csv'));
    const ok = await runCli(['label', 'record', good, '--session', session, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    const after = logText(session);
    const again = await runCli(['label', 'record', good, '--session', session]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/good\.csv: was recorded already as the answers of batch 1/);
    const old = fill(status.batchFile, join(dir, 'old.csv'), (rows) => at(rows, 0, 5, rows[0][5] === '1' ? '0' : '1'));
    const late = await runCli(['label', 'record', old, '--session', session]);
    expect(late.code).toBe(2);
    if (JSON.parse(ok.stdout).verdict === 'continue') expect(late.stderr).toMatch(/old\.csv: batch: is for batch 1, whose answers are recorded already; the open batch is \d+ \(got 1\)/);
    expect(logText(session)).toBe(after);
  });

  it('an edited log: status and record exit 2 naming the log line; nothing appended', async () => {
    const dir = tempDir();
    const { session, status } = await started(dir);
    const path = join(session, 'log.jsonl');
    const edited = logText(session).replace(/"probability":0\.(\d)/, '"probability":0.9$1');
    chmodSync(path, 0o644);
    writeFileSync(path, edited);
    const r = await runCli(['label', 'status', '--session', session]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/log\.jsonl:2: digest does not match the line: the line was edited/);
    const rec = await runCli(['label', 'record', fill(status.batchFile, join(dir, 'a.csv')), '--session', session]);
    expect(rec.code).toBe(2);
    expect(logText(session)).toBe(edited);
  });

  it.skipIf(!built)('two records at once: one is recorded, the other refused; the answers are in the log once', async () => {
    const dir = tempDir();
    const { session, status } = await started(dir);
    const a = fill(status.batchFile, join(dir, 'a.csv'));
    const b = fill(status.batchFile, join(dir, 'b.csv'), (rows) => [...rows].reverse());
    const runs = await Promise.all([child(['label', 'record', a, '--session', session]), child(['label', 'record', b, '--session', session])]);
    const codes = runs.map((r) => r.code).sort();
    expect(codes[0]).toBe(0);
    expect(codes[1]).toBe(2);
    expect(runs.find((r) => r.code === 2)?.stderr).toMatch(/another benchplan label is writing this session|is for batch 1, whose answers are recorded already|the session has ended/);
    const log = readLabelLog(session);
    expect(log.lines.filter((l) => l.kind === 'answers' && l.batch === 1)).toHaveLength(1);
  });

  it.skipIf(!built)('a record killed at any step of its commit leaves the old log or the new one; a re-run or status finishes the job', { timeout: 600_000 }, async () => {
    const dir = tempDir();
    const { session, status } = await started(dir);
    const answers = fill(status.batchFile, join(dir, 'answers.csv'));
    // The unkilled run: its steps and the log it leaves.
    const reference = join(dir, 'reference');
    cpSync(session, reference, { recursive: true });
    const stepsLog = join(dir, 'steps.log');
    const ref = await child(['label', 'record', answers, '--session', reference, '--json'], { BENCHPLAN_TEST_CRASH_LOG: stepsLog }, true);
    expect(ref.code, ref.stderr).toBe(0);
    const steps = readFileSync(stepsLog, 'utf8').trim().split('\n');
    expect(steps.some((s) => s.includes('renameSync'))).toBe(true);
    const want = logText(reference);
    const refBatch = JSON.parse(ref.stdout).batchFile as string | null;
    for (let k = 1; k <= steps.length; k++) {
      const copy = join(dir, `crash-${k}`);
      rmSync(copy, { recursive: true, force: true });
      cpSync(session, copy, { recursive: true });
      const killed = await child(['label', 'record', answers, '--session', copy], { BENCHPLAN_TEST_CRASH_AT: String(k) }, true);
      expect(killed.signal, `step ${k}: ${steps[k - 1]}`).toBe('SIGKILL');
      const log = readLabelLog(copy); // checks: never a torn or half-written log
      expect([logText(session), want], `step ${k}`).toContain(log.text);
      const retry = await child(['label', 'record', answers, '--session', copy]);
      if (log.text === want) {
        expect(retry.code, `step ${k}`).toBe(2);
        expect(retry.stderr).toMatch(/was recorded already/);
        // The next batch's file may have been lost with the kill: status writes it again from the log.
        const st = await child(['label', 'status', '--session', copy]);
        expect(st.code, st.stderr).toBe(0);
        if (refBatch !== null) expect(existsSync(join(copy, refBatch.split('/').pop() as string))).toBe(true);
      } else {
        expect(retry.code, `step ${k}: ${retry.stderr}`).toBe(0);
      }
      expect(logText(copy), `step ${k}`).toBe(want);
      expect(readLabelLog(copy).leftovers, `step ${k}`).toEqual([]);
    }
    process.stdout.write(`label record: killed at each of ${steps.length} steps, the log always whole\n`);
  });
});

function rows1(status: { toLabel: string[] }): number {
  return status.toLabel.length;
}
