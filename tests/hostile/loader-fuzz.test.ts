import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadScores } from '../../src/data/scores.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { watchdog } from '../helpers/watchdog.js';

// Random bytes, and random mutations of valid files, fed to every loader through the CLI (in
// process: parse, load, report). Whatever the bytes, a run ends with exit 0 (the file happened
// to stay valid) or exit 2 with `error: …` naming the file, never an internal error (exit 70,
// a stack), never slower than the per-case limit (a blow-up), never stuck (a watchdog thread
// kills the run after HANG_MS without progress, since a blocked read would never return to a
// timer), and a command that writes a file writes all of it or nothing.

const root = resolve(import.meta.dirname, '..', '..');
const dir = tempDir('benchplan-fuzz-');
const cut = (path: string, lines: number) => Buffer.from(readFileSync(join(root, path), 'utf8').split('\n').slice(0, lines).join('\n') + '\n');
const whole = (path: string) => readFileSync(join(root, path));

/**
 * Far above the few milliseconds of work a run on these small files takes: a run past it has gone
 * astray (a blow-up). Counted in CPU time of this process, not on the clock: on a machine loaded
 * by other runs a case can wait for a core far longer than it works, and a hang (no work at all)
 * is the watchdog's to catch.
 */
const CASE_LIMIT_MS = 3_000;

/** CPU milliseconds (user + system) this process has used. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
/** A case stuck this long is a hang: the watchdog kills the test process (a timer could not fire). */
const HANG_MS = 30_000;
/** Runs per loader. 15 loaders × RUNS cases; each case is a few milliseconds. */
const RUNS = 150;

interface Loader {
  name: string;
  /** The name the mutated file is written under (the extension picks the format). */
  file: string;
  /** A valid file to mutate. */
  seed: Buffer;
  args: (file: string, out: string) => string[];
  /** The command writes `out`: it must then be complete (exit 0) or absent (exit 2). */
  writes?: 'scores' | 'text';
}

const LOADERS: Loader[] = [
  { name: 'scores .csv', file: 'scores.csv', seed: cut('examples/scores.csv', 40), args: (f) => ['validate', f, '--kind', 'scores'] },
  { name: 'scores .jsonl', file: 'scores.jsonl', seed: Buffer.from('{"item":"a","model":"m","score":1}\n{"item":"a","model":"n","score":0}\n{"item":"b","model":"m","score":0.5}\n'), args: (f) => ['validate', f, '--kind', 'scores'] },
  { name: 'pilot .csv', file: 'pilot.csv', seed: cut('examples/pilot.csv', 40), args: (f) => ['validate', f, '--kind', 'scores'] },
  { name: 'strata .yaml', file: 'strata.yaml', seed: whole('examples/strata.yaml'), args: (f) => ['validate', f, '--kind', 'strata'] },
  { name: 'policy .yaml', file: 'policy.yaml', seed: whole('examples/policy.yaml'), args: (f) => ['validate', f, '--kind', 'policy'] },
  { name: 'annotations .csv', file: 'annotations.csv', seed: cut('examples/annotations.csv', 40), args: (f, out) => ['agree', f, '--resamples', '1', '--adjudicate', out], writes: 'text' },
  { name: 'spans .csv', file: 'spans.csv', seed: cut('examples/spans.csv', 30), args: (f) => ['validate', f, '--kind', 'annotations'] },
  { name: 'manifest .yaml', file: 'manifest.yaml', seed: cut('examples/manifest.yaml', 38), args: (f) => ['validate', f, '--kind', 'manifest'] },
  { name: 'incidents .jsonl', file: 'incidents.jsonl', seed: cut('examples/incidents.jsonl', 6), args: (f) => ['validate', f, '--kind', 'incidents'] },
  { name: 'promptfoo .json', file: 'results.json', seed: whole('examples/promptfoo/main.json'), args: (f, out) => ['import', 'promptfoo', f, '-o', out], writes: 'scores' },
  { name: 'inspect .eval', file: 'log.eval', seed: whole('tests/fixtures/import/inspect/run-a.eval'), args: (f, out) => ['import', 'inspect', f, '-o', out], writes: 'scores' },
  { name: 'inspect .json', file: 'log.json', seed: whole('tests/fixtures/import/inspect/run-a.json'), args: (f, out) => ['import', 'inspect', f, '-o', out], writes: 'scores' },
  { name: 'lm-eval samples', file: 'samples_arc_easy_2024-05-05T10-11-12.345678.jsonl', seed: whole('tests/fixtures/import/lm-eval/pythia-160m/samples_arc_easy_2024-05-05T10-11-12.345678.jsonl'), args: (f, out) => ['import', 'lm-eval', f, '--model', 'm', '--metric', 'acc', '-o', out], writes: 'scores' },
  { name: 'monitor .csv', file: 'monitor.csv', seed: cut('examples/monitor.csv', 41), args: (f) => ['monitor', f, '--a', 'candidate', '--b', 'current'] },
  { name: 'strata for allocate', file: 'st.yaml', seed: whole('examples/strata.yaml'), args: (f) => ['allocate', '--strata', f, '--budget', '100'] },
];

/** Bytes that matter to some parser: separators, quotes, brackets, YAML indicators, formula starts, NUL, invalid UTF-8. */
const SPECIAL = [',', '"', "'", '\n', '\r', '\t', ' ', '{', '}', '[', ']', ':', '-', '#', '&', '*', '!', '|', '>', '=', '@', '+', '\\', '\0', 'NaN', '1e309', '1e308', '-1e308', '-0', '\u00a0', '\ufeff'].map((s) => Buffer.from(s));
SPECIAL.push(Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80]));

type Mutation = (data: Buffer) => Buffer;
/** A position in the data: a whole number taken modulo the length + 1 (uniform, not biased to the ends). */
const position = fc.nat();
const at = (data: Buffer, p: number) => p % (data.length + 1);
/** Mostly printable ASCII (which keeps the text UTF-8 and reaches the parsers), sometimes any byte. */
const byte = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 32, max: 126 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) });

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ p: position, b: byte }).map(({ p, b }) => (d: Buffer) => {
    const out = Buffer.from(d);
    if (out.length > 0) out[Math.min(out.length - 1, at(d, p))] = b;
    return out;
  }),
  fc.record({ p: position, s: fc.constantFrom(...SPECIAL) }).map(({ p, s }) => (d: Buffer) => Buffer.concat([d.subarray(0, at(d, p)), s, d.subarray(at(d, p))])),
  fc.record({ p: position, n: fc.integer({ min: 1, max: 64 }) }).map(({ p, n }) => (d: Buffer) => Buffer.concat([d.subarray(0, at(d, p)), d.subarray(at(d, p) + n)])),
  position.map((p) => (d: Buffer) => d.subarray(0, at(d, p))),
  fc.record({ p: position, q: position }).map(({ p, q }) => (d: Buffer) => {
    // copy one line over another: duplicated rows, keys and items
    const lines = d.toString('latin1').split('\n');
    lines.splice(q % lines.length, 0, lines[p % lines.length]);
    return Buffer.from(lines.join('\n'), 'latin1');
  }),
  fc.record({ p: position, bytes: fc.array(byte, { maxLength: 16 }) }).map(({ p, bytes }) => (d: Buffer) => Buffer.concat([d.subarray(0, at(d, p)), Buffer.from(bytes), d.subarray(at(d, p))])),
);

/** One case in five random bytes (often empty or tiny); four in five a valid file with 1 to 4 mutations. */
const input = (seed: Buffer): fc.Arbitrary<Buffer> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)) },
    { weight: 4, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 4 }).map((ms) => ms.reduce((d, m) => m(d), seed)) },
  );

const tally = { cases: 0, exit0: 0, exit2: 0 };

describe(`random bytes and mutated valid files, ${LOADERS.length} loaders × ${RUNS} cases`, () => {
  for (const loader of LOADERS) {
    it(`${loader.name}: exit 0 or 2, never a crash, a hang or a partial output`, async () => {
      const sub = join(dir, loader.name.replace(/\W+/g, '-'));
      mkdirSync(sub, { recursive: true });
      const file = join(sub, loader.file);
      const out = join(sub, 'out.csv');
      // The seed itself is valid: the property is not vacuous.
      writeFileSync(file, loader.seed);
      const valid = await runCli(loader.args(file, out));
      expect(valid.code, valid.stderr).toBe(0);
      const dog = watchdog(HANG_MS, `a ${loader.name} case`);
      await fc.assert(
        fc.asyncProperty(input(loader.seed), async (bytes) => {
          dog.beat();
          writeFileSync(file, bytes);
          rmSync(out, { force: true });
          const t0 = cpuMs();
          const { code, stderr } = await runCli(loader.args(file, out));
          const ms = cpuMs() - t0;
          tally.cases += 1;
          // FUZZ_LOG=1 prints every case's exit status and message, to see what the cases reach.
          if (process.env.FUZZ_LOG) console.log(loader.name, code, stderr.slice(0, 150).replace(/\/tmp\/\S+\//g, ''));
          if (code === 0) tally.exit0 += 1;
          if (code === 2) tally.exit2 += 1;
          expect([0, 2], stderr).toContain(code);
          expect(stderr).not.toMatch(/internal error/);
          if (code === 2) expect(stderr).toMatch(/^error: /);
          expect(ms).toBeLessThan(CASE_LIMIT_MS);
          if (loader.writes !== undefined) {
            if (code !== 0) expect(existsSync(out), 'a failed run left an output').toBe(false);
            else if (loader.writes === 'scores') expect(loadScores(out).rowCount).toBeGreaterThan(0);
            else expect(readFileSync(out, 'utf8').endsWith('\n')).toBe(true);
          }
        }),
        { numRuns: RUNS, seed: 14 },
      );
      dog.stop();
    });
  }

  it('counted every case', () => {
    expect(tally.cases).toBe(LOADERS.length * RUNS);
    // Report the mix in the test log: how many random inputs still loaded, how many were refused.
    console.log(`loader fuzz: ${tally.cases} cases, ${tally.exit0} exit 0, ${tally.exit2} exit 2`);
  });
});
