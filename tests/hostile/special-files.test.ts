import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/files.js';

// Every kind of input file, given a special file in its place: a FIFO with no writer, a
// symbolic link to /dev/zero (endless bytes), a directory and a Unix socket. Each must be
// refused at once with exit 2 and `FILE: not a regular file (got KIND)`, never block, never read
// forever, never write an output. The cases run in one child process (the built CLI, in-process
// there), so a case that blocks is killed by the time limit and named, instead of hanging the
// test run.

const root = resolve(import.meta.dirname, '..', '..');
const runner = join(import.meta.dirname, 'run-cases.mjs');
const ex = (name: string) => join(root, 'examples', name);

/** Per case and in all: far above the milliseconds a refusal takes, far below "forever". */
const CASE_LIMIT_MS = 5_000;
const TOTAL_LIMIT_MS = 60_000;

type Kind = 'fifo' | 'dev-zero link' | 'directory' | 'socket';
const KINDS: Kind[] = ['fifo', 'dev-zero link', 'directory', 'socket'];
const GOT: Record<Kind, string> = { fifo: 'fifo', 'dev-zero link': 'character device', directory: 'directory', socket: 'socket' };

/** An input kind: the file name it needs, and the command line that reads it (OUT: an output that must not appear). */
interface InputKind {
  name: string;
  file: string;
  args: (file: string, out: string) => string[];
  /** The input is a file a manifest names: the message is the manifest's. */
  viaManifest?: boolean;
  /** The input may be a directory of result files (Inspect logs, lm-eval samples). */
  directoryOfResults?: boolean;
}

const INPUTS: InputKind[] = [
  { name: 'scores (compare)', file: 'scores.csv', args: (f) => ['compare', f], directoryOfResults: true },
  { name: 'scores .jsonl (validate)', file: 'scores.jsonl', args: (f) => ['validate', f] },
  { name: 'scores (gate)', file: 'scores.csv', args: (f) => ['gate', f, '--baseline', 'a', '--candidate', 'b', '--margin', '0'], directoryOfResults: true },
  { name: 'pilot (size)', file: 'pilot.csv', args: (f) => ['size', f, '--a', 'a', '--b', 'b', '--mde', '1'], directoryOfResults: true },
  { name: 'strata (allocate)', file: 'strata.yaml', args: (f) => ['allocate', '--strata', f, '--budget', '10'] },
  { name: 'strata (headline)', file: 'strata.yaml', args: (f) => ['headline', ex('scores.csv'), '--strata', f] },
  { name: 'policy (sweep)', file: 'policy.yaml', args: (f) => ['sweep', ex('scores.csv'), '--policy', f] },
  { name: 'alternative scores (sweep)', file: 'alt.csv', args: (f) => ['sweep', ex('scores.csv'), '--policy', ex('policy.yaml'), '--alternative-scores', f], directoryOfResults: true },
  { name: 'annotations (agree)', file: 'annotations.csv', args: (f, out) => ['agree', f, '--adjudicate', out] },
  { name: 'manifest (freeze)', file: 'manifest.yaml', args: (f, out) => ['freeze', f, '--archive', out, '--version', 'v1'] },
  { name: 'manifest .jsonl (validate)', file: 'manifest.jsonl', args: (f) => ['validate', f, '--kind', 'manifest'] },
  { name: 'incidents (validate)', file: 'incidents.jsonl', args: (f) => ['validate', f, '--kind', 'incidents'] },
  { name: 'scores (monitor)', file: 'monitor.csv', args: (f) => ['monitor', f, '--a', 'a', '--b', 'b'] },
  { name: 'drift --before', file: 'before.csv', args: (f) => ['drift', '--before', f, '--rerun', ex('rotation/drift-rerun.csv'), '--after', ex('rotation/drift-after.csv')] },
  { name: 'import promptfoo .json', file: 'results.json', args: (f, out) => ['import', 'promptfoo', f, '-o', `${out}.csv`], directoryOfResults: true },
  { name: 'import promptfoo .jsonl', file: 'results.jsonl', args: (f, out) => ['import', 'promptfoo', f, '-o', `${out}.csv`], directoryOfResults: true },
  { name: 'import inspect .eval', file: 'log.eval', args: (f, out) => ['import', 'inspect', f, '-o', `${out}.csv`], directoryOfResults: true },
  { name: 'import inspect .json', file: 'log.json', args: (f, out) => ['import', 'inspect', f, '-o', `${out}.csv`], directoryOfResults: true },
  { name: 'import lm-eval samples', file: 'samples_task_2024-01-01T00-00-00.jsonl', args: (f, out) => ['import', 'lm-eval', f, '--model', 'm', '-o', `${out}.csv`], directoryOfResults: true },
  { name: 'report --scores', file: 'scores.csv', args: (f, out) => ['report', '--scores', f, '-o', `${out}.html`], directoryOfResults: true },
  { name: 'report --strata', file: 'strata.yaml', args: (f, out) => ['report', '--scores', ex('scores.csv'), '--strata', f, '-o', `${out}.html`] },
  { name: 'validate .yaml', file: 'any.yaml', args: (f) => ['validate', f] },
  { name: 'manifest item file (freeze)', file: 'item.txt', args: (f, out) => ['freeze', f, '--archive', out, '--version', 'v1'], viaManifest: true },
];

const work = tempDir('benchplan-special-');
const servers: Server[] = [];
interface Case {
  name: string;
  args: string[];
  cwd: string;
  kind: Kind;
  input: InputKind;
  out: string;
}
const cases: Case[] = [];
let results = new Map<string, { code: number; stderr: string; ms: number }>();
let inFlight: string | undefined;
let totalMs = 0;

async function makeSpecial(kind: Kind, path: string): Promise<void> {
  if (kind === 'fifo') {
    const made = spawnSync('mkfifo', [path]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  } else if (kind === 'dev-zero link') symlinkSync('/dev/zero', path);
  else if (kind === 'directory') mkdirSync(path);
  else {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((done) => server.listen(path, done));
  }
}

beforeAll(async () => {
  let k = 0;
  for (const kind of KINDS) {
    for (const input of INPUTS) {
      k += 1;
      const dir = join(work, `case-${k}`);
      mkdirSync(dir);
      const special = join(dir, input.file);
      await makeSpecial(kind, special);
      let target = special;
      if (input.viaManifest) {
        target = join(dir, 'manifest.yaml');
        writeFileSync(target, `- { item: a, stratum: s, split: eval, path: ${input.file} }\n`);
      }
      const out = join(dir, 'out');
      cases.push({ name: `${kind} as ${input.name}`, args: input.args(target, out), cwd: dir, kind, input, out });
    }
  }
  const casesFile = join(work, 'cases.json');
  writeFileSync(casesFile, JSON.stringify(cases.map(({ name, args, cwd }) => ({ name, args, cwd }))));
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [runner, casesFile], { encoding: 'utf8', timeout: TOTAL_LIMIT_MS, killSignal: 'SIGKILL' });
  totalMs = performance.now() - t0;
  results = new Map();
  for (const line of child.stdout.split('\n').filter(Boolean)) {
    const event = JSON.parse(line) as { start?: string; end?: string; code: number; stderr: string; ms: number };
    if (event.start !== undefined) inFlight = event.start;
    else if (event.end !== undefined) {
      results.set(event.end, event);
      inFlight = undefined;
    }
  }
  if (child.error) inFlight ??= '(before the first case)';
}, TOTAL_LIMIT_MS + 10_000);

afterAll(() => {
  for (const server of servers) server.close();
});

describe(`special files in place of every input (${KINDS.length} kinds × ${INPUTS.length} inputs)`, () => {
  it('the built CLI is there (npm test builds first)', () => {
    expect(existsSync(join(root, 'dist', 'cli', 'program.js'))).toBe(true);
  });

  it('no case blocked or read forever: all finished within the limit', () => {
    expect(inFlight, `still running when killed after ${TOTAL_LIMIT_MS} ms`).toBeUndefined();
    expect(results.size).toBe(KINDS.length * INPUTS.length);
    expect(totalMs).toBeLessThan(TOTAL_LIMIT_MS);
  });

  for (const kind of KINDS) {
    for (const input of INPUTS) {
      const name = `${kind} as ${input.name}`;
      it(name, () => {
        const result = results.get(name);
        expect(result, 'the case did not finish').toBeDefined();
        const { code, stderr, ms } = result!;
        expect(code, stderr).toBe(2);
        expect(ms).toBeLessThan(CASE_LIMIT_MS);
        // Result inputs (compare, gate, size, sweep --alternative-scores, import, report --scores)
        // take a directory of result files: an empty one is its own clear error.
        if (kind === 'directory' && input.directoryOfResults) expect(stderr).toContain(`${input.file}: is a directory with no result files in it`);
        else if (!input.viaManifest) expect(stderr).toContain(`${input.file}: not a regular file (got ${GOT[kind]})`);
        else if (kind === 'dev-zero link') expect(stderr).toContain("path must be a file inside the manifest's folder");
        else expect(stderr).toContain(`manifest.yaml:1: path must name a regular file ("${input.file}" is a ${GOT[kind]})`);
        expect(stderr).not.toMatch(/internal error/);
        const c = cases.find((x) => x.name === name)!;
        expect(existsSync(c.out), 'an output was written').toBe(false);
        for (const ext of ['.html', '.csv']) expect(existsSync(`${c.out}${ext}`), 'an output was written').toBe(false);
      });
    }
  }
});
