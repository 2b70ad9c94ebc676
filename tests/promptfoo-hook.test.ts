import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll as cleanUp, afterEach, describe, expect, it } from 'vitest';
import { importResults } from '../src/import/import-results.js';
import { writeImportedScores } from '../src/import/write.js';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';

// The promptfoo extension at the package root, called as promptfoo calls a `file://…:afterAll`
// extension: afterAll(context, { hookName }), with context.results the run's EvaluateResult
// objects (the same objects `promptfoo eval -o results.json` writes under results.results).
// It imports the built library (npm test builds first); no network, no promptfoo needed.
const root = resolve(import.meta.dirname, '..');
const hookModule = join(root, 'promptfoo.js');
const dir = tempDir('benchplan-hook-');
cleanUp(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = 0;
});

interface Hook {
  afterAll: (context: unknown, meta?: unknown) => Promise<void>;
  benchplanHook: (options?: Record<string, unknown>, io?: Record<string, unknown>) => (context: unknown) => Promise<void>;
}

/** What promptfoo's importModule does with `file://path:afterAll` (src/esm.ts): default export first, then the named function. */
async function loadAsPromptfoo(functionName: string): Promise<unknown> {
  const imported = await import(hookModule);
  const mod = imported?.default?.default || imported?.default || imported;
  return mod[functionName];
}

const hook = async (): Promise<Hook> => (await import(hookModule)) as Hook;
const resultsOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')).results.results as unknown[];

async function runHook(env: Record<string, string>, results: unknown[] | undefined) {
  let stdout = '';
  let stderr = '';
  const { benchplanHook } = await hook();
  const afterAll = benchplanHook({}, { env, stdout: (t: string) => (stdout += t), stderr: (t: string) => (stderr += t) });
  await afterAll(results === undefined ? {} : { results, prompts: [], suite: {}, evalId: 'eval-test', config: {} });
  return { stdout, stderr, exitCode: process.exitCode ?? 0 };
}

const MAIN = join(root, 'examples', 'promptfoo', 'main.json');
const PR = join(root, 'examples', 'promptfoo', 'pr.json');

describe('promptfoo.js afterAll hook', () => {
  it('is what promptfoo finds for file://node_modules/benchplan/promptfoo.js:afterAll', async () => {
    expect(existsSync(join(root, 'dist', 'index.js'))).toBe(true);
    expect(typeof (await loadAsPromptfoo('afterAll'))).toBe('function');
  });

  it('gates this eval against the baseline: the same report as benchplan gate on the imported pair, and exit 3 on a stratum it cannot vouch for', async () => {
    // The method is named on both sides, so the two agree whatever benchplan's default.
    const run = await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_MARGIN: '0.05', BENCHPLAN_STRATUM_KEY: 'stratum', BENCHPLAN_FAIL_ON_REGRESSION: '1', BENCHPLAN_RESAMPLES: '999', BENCHPLAN_METHOD: 'percentile' }, resultsOf(PR));
    // negative_control: −4/30 on 30 tests, below −margin but not shown to be below it: inconclusive.
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('INCONCLUSIVE  neither a regression nor its absence is shown');
    // BENCHPLAN_INCONCLUSIVE maps it for a CI that wants two outcomes (the hook leaves an exit status already set alone, so reset it).
    process.exitCode = 0;
    const strict = await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_MARGIN: '0.05', BENCHPLAN_STRATUM_KEY: 'stratum', BENCHPLAN_FAIL_ON_REGRESSION: '1', BENCHPLAN_RESAMPLES: '999', BENCHPLAN_METHOD: 'percentile', BENCHPLAN_INCONCLUSIVE: 'fail' }, resultsOf(PR));
    expect(strict.exitCode).toBe(1);
    process.exitCode = 0;
    const bad = await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_MARGIN: '0.05', BENCHPLAN_FAIL_ON_REGRESSION: '1', BENCHPLAN_INCONCLUSIVE: 'maybe' }, resultsOf(PR));
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('BENCHPLAN_INCONCLUSIVE: must be pass or fail (got "maybe")');
    // The same pair through benchplan import + gate, names aside.
    const scores = join(dir, 'pair.csv');
    writeImportedScores(scores, importResults('promptfoo', [MAIN, PR], { itemKey: 'vars', model: ['B', 'C'], stratumKey: 'stratum' }).rows);
    const cli = await runCli(['gate', scores, '--baseline', 'B', '--candidate', 'C', '--margin', '0.05', '--drop-unpaired', '--per-stratum', '--resamples', '999', '--method', 'percentile']);
    const names = (text: string) => text.replaceAll('openai:gpt-4o-mini (this eval)', 'C').replaceAll('openai:gpt-4o-mini (baseline)', 'B');
    expect(names(run.stdout)).toBe(`\nbenchplan: this eval against ${MAIN}\n${cli.stdout.trimEnd()}\nleft out: 3 errored results of this eval (failureReason 2: a provider error, not a wrong answer)\n`);
    // The estimate is the mean of pr − main over tests paired by vars, errors left out (scipy reference).
    const reference = JSON.parse(readFileSync(join(root, 'tests', 'reference', 'markdown', 'markdown_reference.json'), 'utf8'));
    expect(run.stdout).toContain(`overall           147    ${reference.gate.checks[0].estimate.toFixed(4)}`);
  });

  it('without BENCHPLAN_FAIL_ON_REGRESSION it only reports; a pass never sets the exit status', async () => {
    const report = await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_MARGIN: '0.05', BENCHPLAN_STRATUM_KEY: 'stratum', BENCHPLAN_RESAMPLES: '499' }, resultsOf(PR));
    expect(report.exitCode).toBe(0);
    expect(report.stdout).toContain('INCONCLUSIVE  neither a regression nor its absence is shown');
    const pass = await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_MARGIN: '0.05', BENCHPLAN_FAIL_ON_REGRESSION: 'true', BENCHPLAN_RESAMPLES: '499' }, resultsOf(PR));
    expect(pass.exitCode).toBe(0);
    expect(pass.stdout).toContain('PASS  no regression: openai:gpt-4o-mini (this eval) − openai:gpt-4o-mini (baseline) ≥ ');
  });

  it('without a margin: the two-sided paired comparison, never failing', async () => {
    const run = await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_FAIL_ON_REGRESSION: '1', BENCHPLAN_RESAMPLES: '499' }, resultsOf(PR));
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^\nbenchplan: this eval against .*main\.json\nopenai:gpt-4o-mini \(this eval\) − openai:gpt-4o-mini \(baseline\) = 0\.0136 on 147 paired tests \(3 unpaired left out\), 95% \w+ interval \[-?0\.\d+, 0\.\d+\]: cannot tell the two apart\. Set BENCHPLAN_MARGIN to gate on it\./);
  });

  it('appends the Markdown verdict to BENCHPLAN_MARKDOWN (e.g. $GITHUB_STEP_SUMMARY)', async () => {
    const summary = join(dir, 'summary.md');
    await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_MARGIN: '0.05', BENCHPLAN_MARKDOWN: summary, BENCHPLAN_RESAMPLES: '499' }, resultsOf(PR));
    expect(readFileSync(summary, 'utf8')).toMatch(/^✅ \*\*PASS\*\*: no regression of openai:gpt-4o-mini \(this eval\) against openai:gpt-4o-mini \(baseline\): /);
  });

  it('says so and does nothing without BENCHPLAN_BASELINE', async () => {
    const run = await runHook({ BENCHPLAN_FAIL_ON_REGRESSION: '1' }, resultsOf(PR));
    expect(run).toEqual({ stdout: 'benchplan: BENCHPLAN_BASELINE is not set: no baseline to compare this eval with\n', stderr: '', exitCode: 0 });
  });

  it.each([
    [{ BENCHPLAN_BASELINE: join(root, 'tests', 'fixtures', 'import', 'bad', 'promptfoo-not-results.json') }, 'is not a promptfoo results file'],
    [{ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_MARGIN: '-1' }, 'BENCHPLAN_MARGIN: must be a number ≥ 0 (got "-1")'],
    [{ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_METHOD: 'wald' }, 'BENCHPLAN_METHOD: must be one of '],
    [{ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_CANDIDATE_MODEL: 'gpt-5' }, 'this eval: has no provider "gpt-5" (BENCHPLAN_CANDIDATE_MODEL); it has openai:gpt-4o-mini'],
    [{ BENCHPLAN_BASELINE: join(root, 'tests', 'fixtures', 'import', 'promptfoo', 'two-prompts.json') }, 'name the one to compare with BENCHPLAN_BASELINE_MODEL'],
  ])('bad settings or files: an error line, never an exception (promptfoo would lose its -o files); exit 2 only when failing is on (%#)', async (env, message) => {
    const quiet = await runHook(env, resultsOf(PR));
    expect(quiet.stderr).toContain(message);
    expect(quiet.stderr).toMatch(/^benchplan: error: /);
    expect(quiet.exitCode).toBe(0);
    const strict = await runHook({ ...env, BENCHPLAN_FAIL_ON_REGRESSION: '1' }, resultsOf(PR));
    expect(strict.exitCode).toBe(2);
  });

  it('refuses a promptfoo that passes no results', async () => {
    const run = await runHook({ BENCHPLAN_BASELINE: MAIN, BENCHPLAN_FAIL_ON_REGRESSION: '1' }, undefined);
    expect(run.stderr).toContain('promptfoo passed no results to afterAll');
    expect(run.exitCode).toBe(2);
  });
});

// Real promptfoo results files (../shared/real-logs, outside the repository): two commits of the
// same project's results, the later one as "this eval". Expected values come from reading the
// JSON here, pairing tests by their vars, not from benchplan.
const realLogs = resolve(root, '..', 'shared', 'real-logs', 'promptfoo');
const real = existsSync(realLogs) ? readdirSync(realLogs) : [];
if (real.length === 0) console.log(`promptfoo-hook.test.ts: ${realLogs} is absent: the real promptfoo results are skipped`);

describe.skipIf(real.length === 0)('promptfoo.js on real promptfoo results (../shared/real-logs)', () => {
  const vars = (r: { testCase: { vars: Record<string, unknown> } }) => JSON.stringify(Object.fromEntries(Object.entries(r.testCase.vars).sort(([a], [b]) => (a < b ? -1 : 1))));

  it('krystianbergmann/prompt-eval-workbench, 2026-04-20 against 2026-04-23: three tests, paired by vars', async () => {
    const baseline = join(realLogs, 'krystianbergmann__promptfoo-results__f82958e.json');
    const current = resultsOf(join(realLogs, 'krystianbergmann__promptfoo-results__a512d08.json')) as Array<{ score: number; testCase: { vars: Record<string, unknown> } }>;
    const before = new Map((resultsOf(baseline) as typeof current).map((r) => [vars(r), r.score]));
    const differences = current.filter((r) => before.has(vars(r))).map((r) => r.score - (before.get(vars(r)) as number));
    expect(differences).toHaveLength(3);
    const mean = differences.reduce((a, b) => a + b, 0) / differences.length;
    const run = await runHook({ BENCHPLAN_BASELINE: baseline, BENCHPLAN_MARGIN: '0.1', BENCHPLAN_FAIL_ON_REGRESSION: '1' }, current);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(new RegExp(`on ${differences.length} paired items`));
    expect(run.stdout).toMatch(new RegExp(`overall +${differences.length} +${mean}\\b`));
    // Every test scored the same in both runs. Three agreeing items cannot rule out a drop of 0.1
    // (issue 13): the default interval (Tango's with the n/(n − 1) correction, 0/1 scores) gives a
    // lower bound −z²/(2 + z²) = −0.575 (uncorrected −z²/(3 + z²) = −0.47), so
    // the gate is inconclusive (exit 3) and says how many agreeing items would let it pass.
    expect(new Set(differences)).toEqual(new Set([0]));
    expect(run.stdout).toMatch(/neither a regression nor its absence is shown: .*95% bounds \[-0\.5\d+, 0\.5\d+\] contain -0\.1/);
    expect(run.stdout).toMatch(/\d+ items would let it pass/);
    expect(run.exitCode).toBe(3);
  });

  it('Kacper-Hernacki/aiDevs3, two commits whose tests have different vars: refused, not silently paired', async () => {
    const baseline = join(realLogs, 'Kacper-Hernacki__promptfoo_results__f728dc3.json');
    const current = resultsOf(join(realLogs, 'Kacper-Hernacki__promptfoo_results__21e6806.json')) as Array<{ testCase: { vars: Record<string, unknown> } }>;
    const before = new Set((resultsOf(baseline) as typeof current).map(vars));
    expect(current.filter((r) => before.has(vars(r)))).toHaveLength(0);
    const run = await runHook({ BENCHPLAN_BASELINE: baseline, BENCHPLAN_MARGIN: '0.1', BENCHPLAN_FAIL_ON_REGRESSION: '1' }, current);
    expect(run.stderr).toBe(`benchplan: error: this eval: shares no test with ${baseline}: tests are paired by their vars, and no test of this eval has the vars of a baseline test (another suite, or vars that changed?)\n`);
    expect(run.exitCode).toBe(2);
  });
});
