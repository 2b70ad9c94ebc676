// benchplan's promptfoo extension: after `promptfoo eval` finishes, pair its results with a
// baseline results file (e.g. main's `promptfoo eval -o results.json`) test by test, and print
// the paired verdict. In promptfooconfig.yaml:
//
//   extensions:
//     - file://node_modules/benchplan/promptfoo.js:afterAll
//
// promptfoo calls a hook named after a known hook (`:afterAll`) once, as afterAll(context,
// { hookName }), with context.results (every EvaluateResult of the run), context.prompts,
// context.suite, context.evalId and context.config (promptfoo src/evaluatorHelpers.ts,
// runExtensionHook). It runs before promptfoo writes `-o` files; an exception thrown here would
// abort the eval before they are written, so this hook never throws. It fails a run the way
// promptfoo's own pass-rate threshold does: by setting process.exitCode, which promptfoo leaves
// alone unless its own threshold fails (then it sets 100, still a failure).
//
// Settings (environment variables; a promptfoo extension string carries no options):
//   BENCHPLAN_BASELINE            the baseline promptfoo results file (.json or .jsonl); unset: the hook says so and does nothing
//   BENCHPLAN_MARGIN              the largest acceptable drop of this run − baseline (e.g. 0.02); unset: a two-sided comparison only, never failing
//   BENCHPLAN_FAIL_ON_REGRESSION  1/true: exit status 1 when the gate shows a regression, 3 when it is inconclusive (2 when the hook cannot run)
//   BENCHPLAN_INCONCLUSIVE        pass or fail: read an inconclusive gate as that (exit 0 or 1) instead of 3
//   BENCHPLAN_SCORE               score (default), success (1/0) or namedScores.NAME
//   BENCHPLAN_STRATUM_KEY         testCase.metadata / vars key of each test's stratum: the gate also checks every stratum
//   BENCHPLAN_BASELINE_MODEL, BENCHPLAN_CANDIDATE_MODEL   the provider to use when a run has several
//   BENCHPLAN_MARKDOWN            a file to append the Markdown verdict to (e.g. $GITHUB_STEP_SUMMARY)
//   BENCHPLAN_SEED, BENCHPLAN_RESAMPLES                   seed (default 0) and resamples (default 9999)
//   BENCHPLAN_METHOD              interval method: bca, percentile, basic or t (default: benchplan's)
//
// Tests are paired by their vars (benchplan import's --item-key vars), so the order of the tests
// and promptfoo's --repeat do not matter; tests that errored (failureReason 2) or that one run
// lacks are left out and counted.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  alignModels,
  compareModels,
  compareMarkdown,
  formatInterval,
  formatNonInferiorityReport,
  formatNumber,
  gateMarkdown,
  INTERVAL_METHODS,
  importResults,
  InputError,
  nonInferiorityGate,
  scoresFromRows,
  verdictExitCode,
} from './dist/index.js';

const TRUE = new Set(['1', 'true', 'yes', 'on']);

/** The hook's settings from an options object, falling back to the BENCHPLAN_* variables. */
function settingsOf(options, env) {
  const get = (key, name) => (options[key] !== undefined ? String(options[key]) : (env[name] ?? '').trim());
  const number = (key, name, check, what) => {
    const text = get(key, name);
    if (text === '') return undefined;
    const x = Number(text);
    if (!check(x)) throw new InputError(`must be ${what}`, { file: name, value: text });
    return x;
  };
  return {
    baseline: get('baseline', 'BENCHPLAN_BASELINE'),
    margin: number('margin', 'BENCHPLAN_MARGIN', (x) => Number.isFinite(x) && x >= 0, 'a number ≥ 0'),
    failOnRegression: TRUE.has(get('failOnRegression', 'BENCHPLAN_FAIL_ON_REGRESSION').toLowerCase()),
    score: get('score', 'BENCHPLAN_SCORE') || undefined,
    stratumKey: get('stratumKey', 'BENCHPLAN_STRATUM_KEY') || undefined,
    baselineModel: get('baselineModel', 'BENCHPLAN_BASELINE_MODEL'),
    candidateModel: get('candidateModel', 'BENCHPLAN_CANDIDATE_MODEL'),
    markdown: get('markdown', 'BENCHPLAN_MARKDOWN'),
    seed: get('seed', 'BENCHPLAN_SEED') || '0',
    nResamples: number('nResamples', 'BENCHPLAN_RESAMPLES', (x) => Number.isInteger(x) && x >= 1, 'a whole number ≥ 1') ?? 9999,
    method: method(get('method', 'BENCHPLAN_METHOD')),
    inconclusive: inconclusiveAs(get('inconclusive', 'BENCHPLAN_INCONCLUSIVE')),
  };
}

/** 'pass' or 'fail' (how to read an inconclusive gate), or null to keep it (exit 3). */
function inconclusiveAs(text) {
  if (text === '') return null;
  if (text !== 'pass' && text !== 'fail') throw new InputError('must be pass or fail', { file: 'BENCHPLAN_INCONCLUSIVE', value: text });
  return text;
}

/** An interval method, or undefined for the library's default. */
function method(text) {
  if (text === '') return undefined;
  if (!INTERVAL_METHODS.includes(text)) throw new InputError(`must be one of ${INTERVAL_METHODS.join(', ')}`, { file: 'BENCHPLAN_METHOD', value: text });
  return text;
}

/** The rows of one model of an imported file: its only model, or the one named. */
function pick(imported, file, wanted, variable) {
  const models = imported.models;
  if (wanted !== '' && !models.includes(wanted)) throw new InputError(`has no provider "${wanted}" (${variable}); it has ${models.join(', ')}`, { file });
  if (wanted === '' && models.length !== 1) throw new InputError(`holds ${models.length} providers/prompts (${models.join(', ')}); name the one to compare with ${variable}`, { file });
  const model = wanted === '' ? models[0] : wanted;
  return { model, rows: imported.rows.filter((row) => row.model === model) };
}

/**
 * The paired comparison of a finished promptfoo eval with a baseline results file.
 * @param context what promptfoo passes to afterAll: `results` (EvaluateResult[]).
 * @param settings as settingsOf returns them.
 * @returns `{ text, markdown, passed, verdict }`: passed and verdict (pass, fail, inconclusive) are null without a margin (no gate).
 */
export function evaluateAgainstBaseline(context, settings) {
  const work = mkdtempSync(join(tmpdir(), 'benchplan-promptfoo-'));
  try {
    const current = join(work, 'this-eval.json');
    writeFileSync(current, JSON.stringify({ results: { version: 3, results: context.results, prompts: context.prompts ?? [] } }));
    const options = { itemKey: 'vars', score: settings.score, stratumKey: settings.stratumKey };
    const imported = [importResults('promptfoo', [settings.baseline], options), importResults('promptfoo', [current], options)];
    const base = pick(imported[0], settings.baseline, settings.baselineModel, 'BENCHPLAN_BASELINE_MODEL');
    const cand = pick(imported[1], 'this eval', settings.candidateModel, 'BENCHPLAN_CANDIDATE_MODEL');
    // Provider errors are not failures: they are left out (and so unpaired), and said so.
    const errored = imported.map((r, k) => (r.errors > 0 ? `${r.errors} errored result${r.errors === 1 ? '' : 's'} of ${k === 0 ? settings.baseline : 'this eval'}` : '')).filter(Boolean);
    const note = errored.length > 0 ? `\nleft out: ${errored.join(', ')} (failureReason 2: a provider error, not a wrong answer)` : '';
    const baseItems = new Set(base.rows.map((row) => row.item));
    if (!cand.rows.some((row) => baseItems.has(row.item))) {
      throw new InputError(`shares no test with ${settings.baseline}: tests are paired by their vars, and no test of this eval has the vars of a baseline test (another suite, or vars that changed?)`, { file: 'this eval' });
    }
    const same = base.model === cand.model;
    const baseline = same ? `${base.model} (baseline)` : base.model;
    const candidate = same ? `${cand.model} (this eval)` : cand.model;
    const rows = [...base.rows.map((row) => ({ ...row, model: baseline })), ...cand.rows.map((row) => ({ ...row, model: candidate }))];
    const table = scoresFromRows(rows, `${settings.baseline} + this eval`);
    if (settings.margin !== undefined) {
      const result = nonInferiorityGate(table, { baseline, candidate, margin: settings.margin, perStratum: settings.stratumKey !== undefined, dropUnpaired: true, seed: settings.seed, nResamples: settings.nResamples, method: settings.method });
      return { text: `${formatNonInferiorityReport(result)}${note}`, markdown: gateMarkdown(result), passed: result.passed, verdict: result.verdict };
    }
    const aligned = alignModels(table, [candidate, baseline], { dropUnpaired: true });
    const result = compareModels(aligned, { seed: settings.seed, nResamples: settings.nResamples, nPermutations: settings.nResamples, method: settings.method });
    const p = result.pairs[0];
    const verdict = p.excludesZero ? (p.estimate > 0 ? `${candidate} scores higher` : `${candidate} scores lower`) : 'cannot tell the two apart';
    const dropped = aligned.dropped > 0 ? ` (${aligned.dropped} unpaired left out)` : '';
    const text = `${candidate} − ${baseline} = ${formatNumber(p.estimate)} on ${p.n} paired tests${dropped}, 95% ${result.method} interval ${formatInterval(p.confidenceInterval)}: ${verdict}. Set BENCHPLAN_MARGIN to gate on it.${note}`;
    return { text, markdown: compareMarkdown(result, { source: `${settings.baseline} + this eval`, dropped: aligned.dropped }), passed: null, verdict: null };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Makes an afterAll hook with fixed settings (each falls back to its BENCHPLAN_* variable):
 * `export const afterAll = benchplanHook({ baseline: 'eval/main.json', margin: 0.02, failOnRegression: true });`
 * @param options baseline, margin, failOnRegression, score, stratumKey, baselineModel,
 *   candidateModel, markdown (a file to append the Markdown to), seed, nResamples, method.
 * @param io where to print (default: process.stdout / process.stderr) and the environment.
 */
export function benchplanHook(options = {}, io = {}) {
  const out = io.stdout ?? ((text) => process.stdout.write(text));
  const err = io.stderr ?? ((text) => process.stderr.write(text));
  const env = io.env ?? process.env;
  return async function afterAll(context) {
    let settings;
    try {
      settings = settingsOf(options, env);
      if (settings.baseline === '') {
        out('benchplan: BENCHPLAN_BASELINE is not set: no baseline to compare this eval with\n');
        return;
      }
      if (!context || !Array.isArray(context.results)) throw new InputError('promptfoo passed no results to afterAll (promptfoo 0.102 or later does); compare its -o file with benchplan gate instead', { file: 'afterAll' });
      const { text, markdown, verdict } = evaluateAgainstBaseline(context, settings);
      out(`\nbenchplan: this eval against ${settings.baseline}\n${text}\n`);
      if (settings.markdown !== '') appendFileSync(settings.markdown, markdown);
      if (verdict !== null && settings.failOnRegression && !process.exitCode) {
        const code = verdictExitCode(verdict, settings.inconclusive);
        if (code !== 0) process.exitCode = code;
      }
    } catch (error) {
      // Never rethrown: promptfoo would abort before writing its -o files.
      const known = error instanceof InputError;
      err(known ? `benchplan: error: ${error.message}\n` : `benchplan: internal error (a bug, please report it):\n${error?.stack ?? error}\n`);
      if (settings?.failOnRegression ?? TRUE.has(String(env.BENCHPLAN_FAIL_ON_REGRESSION ?? '').trim().toLowerCase())) process.exitCode = known ? 2 : 70;
    }
  };
}

/** The hook promptfoo names as `file://node_modules/benchplan/promptfoo.js:afterAll`. */
export const afterAll = benchplanHook();

// promptfoo takes the default export when there is one, then the named function from it.
export default { afterAll, benchplanHook };
