/**
 * Fault injection for the single-file outputs of `report` and `import` (issue 32, "no leftovers
 * after the next run"), with real processes of the built CLI (`npm run build` first): a second run
 * over the output of a first one is killed (SIGKILL, tests/faults/crash-at.mjs) before each link,
 * rename, unlink and fsync it makes. After each kill the output is byte for byte one of the two
 * runs' outputs, never a half-written file; the dead writer's hidden `.NAME.PID.K.tmp` file may
 * stay, and the next plain run (once the leftover is a minute old, as the shared cleanup requires)
 * writes its own output and leaves no temporary file in the folder. Prints how many kills left one.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { built, cli } from './crash-cli.js';

const root = mkdtempSync(join(tmpdir(), 'benchplan-leftover-faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const TIMEOUT_MS = 600_000;

/** The next run removes a dead writer's temporary file only once it is a minute old: stand for that minute passing. */
function ageLeftovers(dir: string): void {
  const past = new Date(Date.now() - 10 * 60_000);
  for (const n of readdirSync(dir)) if (n.endsWith('.tmp')) utimesSync(join(dir, n), past, past);
}

const temporaries = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

/**
 * Kills `args(dir, 'second')` before each of its steps over the output of `args(dir, 'first')`,
 * and checks the output and the leftovers as the header says. `output` is the file in `dir`.
 */
async function killEachStep(name: string, args: (dir: string, run: 'first' | 'second') => string[], output: string): Promise<void> {
  // The two runs' outputs, and the steps of the second, from runs nobody kills.
  const probe = join(root, `${name}-probe`);
  mkdirSync(probe);
  expect((await cli(args(probe, 'first'))).code).toBe(0);
  const first = readFileSync(join(probe, output));
  const log = join(root, `${name}-steps.log`);
  const probed = await cli(args(probe, 'second'), { BENCHPLAN_TEST_CRASH_LOG: log }, true);
  expect(probed.code, probed.stderr).toBe(0);
  const second = readFileSync(join(probe, output));
  expect(second.equals(first), 'the two runs must write different bytes').toBe(false);
  const steps = readFileSync(log, 'utf8').trim().split('\n');
  // Its output is renamed into place from a hidden temporary file beside it (`.NAME.PID.K.tmp`).
  expect(steps.some((s) => s.includes(' renameSync ') && s.includes(`/.${output}.`) && s.endsWith('.tmp')), steps.join('\n')).toBe(true);

  let left = 0;
  for (let at = 1; at <= steps.length; at++) {
    const dir = join(root, `${name}-${at}`);
    mkdirSync(dir);
    expect((await cli(args(dir, 'first'))).code).toBe(0);
    const killed = await cli(args(dir, 'second'), { BENCHPLAN_TEST_CRASH_AT: String(at) }, true);
    const context = `${name} killed before step ${at} (${steps[at - 1]})`;
    expect(killed.signal, context).toBe('SIGKILL');
    const now = readFileSync(join(dir, output));
    expect(now.equals(first) || now.equals(second), `${context}: the output is neither run's whole file`).toBe(true);
    if (temporaries(dir).length > 0) left += 1;
    ageLeftovers(dir);
    const again = await cli(args(dir, 'second'));
    expect(again.code, `${context}, re-run: ${again.stderr}`).toBe(0);
    expect(readFileSync(join(dir, output)).equals(second), `${context}, after a re-run`).toBe(true);
    expect(temporaries(dir), `${context}, after a re-run`).toEqual([]);
  }
  // Otherwise the cleanup was never exercised and the test would prove nothing about it.
  expect(left, 'no kill left a temporary file').toBeGreaterThan(0);
  console.log(`${name} killed before each of its ${steps.length} steps: ${left} kills left a temporary file, every one removed by the next run; the output was always one run's whole file`);
}

describe.skipIf(!built)('report and import killed mid-write leave a whole output, and nothing after the next run', () => {
  it('report -o: the first or the second whole page, never a half; the next run removes the leftover', async () => {
    const scores = resolve('examples/scores.csv');
    await killEachStep('report', (dir, run) => ['report', '--scores', scores, '--resamples', run === 'first' ? '199' : '299', '-o', join(dir, 'report.html')], 'report.html');
  }, TIMEOUT_MS);

  it('import -o: the first or the second whole table, never a half; the next run removes the leftover', async () => {
    const files = [resolve('examples/promptfoo/main.json'), resolve('examples/promptfoo/pr.json')];
    await killEachStep('import', (dir, run) => ['import', 'promptfoo', ...files, '--item-key', 'vars', '--model', 'main', '--model', 'pr', ...(run === 'second' ? ['--stratum-key', 'stratum'] : []), '-o', join(dir, 'scores.csv')], 'scores.csv');
  }, TIMEOUT_MS);
});
