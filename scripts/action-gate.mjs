#!/usr/bin/env node
// The logic of the GitHub Action in action.yml: runs `benchplan gate` on a baseline and a
// candidate results file, appends the Markdown verdict to $GITHUB_STEP_SUMMARY, writes the
// outputs `verdict` (pass, fail, inconclusive, or error), `passed` and `summary` to
// $GITHUB_OUTPUT, and exits as the gate does: 0 pass, 1 regression shown, 3 inconclusive (or as
// `--inconclusive pass|fail` in args maps it), 2 bad input (70 a bug in benchplan).
//
// Inputs come from the environment, as action.yml passes them:
//   INPUT_BASELINE         results file of the baseline (required)
//   INPUT_CANDIDATE        results file of the candidate (empty: the baseline file holds both models)
//   INPUT_MARGIN           largest acceptable drop, in score units (required)
//   INPUT_BASELINE_MODEL   the baseline's model name (needed when its file holds several)
//   INPUT_CANDIDATE_MODEL  the candidate's model name (likewise)
//   INPUT_ARGS             more `benchplan gate` flags, e.g. "--per-stratum --cluster"
//
// Run it locally (no GitHub needed):
//   GITHUB_STEP_SUMMARY=out/summary.md GITHUB_OUTPUT=out/output.txt INPUT_BASELINE=examples/scores.csv \
//   INPUT_BASELINE_MODEL=beta INPUT_CANDIDATE_MODEL=alpha INPUT_MARGIN=0.02 node scripts/action-gate.mjs
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'benchplan.js');

/** Bad input to the action: exit 2, as benchplan itself does. */
class ActionInputError extends Error {}

const input = (name) => (process.env[`INPUT_${name}`] ?? '').trim();

/** Splits INPUT_ARGS into words: plain words and single- or double-quoted strings. */
export function splitArgs(text) {
  const words = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

/**
 * A `name<<DELIMITER` block for $GITHUB_OUTPUT: the delimiter is derived from the value (so the
 * same value gives the same bytes) and is never a line of it.
 */
export function outputBlock(name, value) {
  let delimiter = `benchplan_${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
  while (value.split('\n').includes(delimiter)) delimiter += '_';
  return `${name}<<${delimiter}\n${value.replace(/\n$/, '')}\n${delimiter}\n`;
}

/** The only model of a table, or the named one; an error listing the models otherwise. */
function pick(table, file, wanted, input) {
  if (wanted !== '') {
    if (!table.models.includes(wanted)) throw new ActionInputError(`${file}: has no model "${wanted}" (${input}); it has ${table.models.join(', ')}`);
    return wanted;
  }
  if (table.models.length !== 1) throw new ActionInputError(`${file}: holds ${table.models.length} models (${table.models.join(', ')}); name the one to gate with ${input}`);
  return table.models[0];
}

/** One model's rows of a loaded scores table, renamed, as scores-table rows. */
function rowsOf(table, model, name, OUTCOME_KINDS) {
  const m = table.models.indexOf(model);
  const rows = [];
  for (let r = 0; r < table.rowCount; r++) {
    if (table.model[r] !== m) continue;
    const i = table.item[r];
    const row = { item: table.items[i], model: name, score: table.score[r] };
    if (table.hasOutcome && table.outcome[r] >= 0) row.outcome = OUTCOME_KINDS[table.outcome[r]];
    if (table.hasStratum) row.stratum = table.strata[table.itemStratum[i]];
    if (table.hasCluster) row.cluster = table.clusters[table.itemCluster[i]];
    if (table.hasRepeat) row.repeat = table.repeat[r];
    rows.push(row);
  }
  return rows;
}

/**
 * The `benchplan gate` arguments for the inputs. One file: it holds both models. Two benchplan
 * scores tables: their models are written into one table (renamed `NAME (baseline)` and
 * `NAME (candidate)` when the two runs carry the same name). Two files of another kind (promptfoo,
 * Inspect, lm-eval results): passed to `benchplan gate` as they are, for a benchplan that reads
 * them directly.
 */
async function gateArguments(baseline, candidate, baselineModel, candidateModel, work) {
  if (candidate === '' || candidate === baseline) {
    if (baselineModel === '' || candidateModel === '') throw new ActionInputError('with one results file, name both models: baseline-model and candidate-model');
    return [baseline, '--baseline', baselineModel, '--candidate', candidateModel];
  }
  for (const file of [baseline, candidate]) if (!existsSync(file)) throw new ActionInputError(`${file}: no such file`);
  const library = await import('../dist/index.js');
  let tables;
  try {
    tables = [library.loadScores(baseline), library.loadScores(candidate)];
  } catch (error) {
    if (!(error instanceof library.InputError)) throw error;
    // Not both benchplan tables: let benchplan gate read the tools' files itself.
    const names = [];
    if (baselineModel !== '') names.push('--baseline', baselineModel);
    if (candidateModel !== '') names.push('--candidate', candidateModel);
    return [baseline, candidate, ...names];
  }
  const chosen = [pick(tables[0], baseline, baselineModel, 'baseline-model'), pick(tables[1], candidate, candidateModel, 'candidate-model')];
  const names = chosen[0] === chosen[1] ? [`${chosen[0]} (baseline)`, `${chosen[1]} (candidate)`] : chosen;
  const merged = join(work, 'baseline+candidate.csv');
  library.writeImportedScores(merged, [...rowsOf(tables[0], chosen[0], names[0], library.OUTCOME_KINDS), ...rowsOf(tables[1], chosen[1], names[1], library.OUTCOME_KINDS)]);
  return [merged, '--baseline', names[0], '--candidate', names[1]];
}

/** Appends to a file GitHub names in the environment, when it does. */
function appendTo(variable, text) {
  const path = process.env[variable];
  if (path !== undefined && path !== '') appendFileSync(path, text);
}

/**
 * The gate's verdict from its Markdown summary's first line (✅ **PASS**, ❌ **FAIL**, ⚠️ **INCONCLUSIVE**),
 * so an exit status that --inconclusive mapped to 0 or 1 still reports `inconclusive`; `error` otherwise.
 * @example verdictOf('⚠️ **INCONCLUSIVE**: no regression shown, …') // => 'inconclusive'
 */
export function verdictOf(markdown) {
  const head = /^\S+ \*\*(PASS|FAIL|INCONCLUSIVE)\*\*/.exec(markdown.split('\n')[0] ?? '');
  return head === null ? 'error' : head[1].toLowerCase();
}

function finish(verdict, summary, status) {
  appendTo('GITHUB_STEP_SUMMARY', summary.endsWith('\n') ? summary : `${summary}\n`);
  appendTo('GITHUB_OUTPUT', `verdict=${verdict}\npassed=${verdict === 'pass'}\n${outputBlock('summary', summary)}`);
  process.exitCode = status;
}

async function main() {
  const work = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'benchplan-gate-'));
  try {
    const baseline = input('BASELINE');
    const margin = input('MARGIN');
    if (baseline === '') throw new ActionInputError('the input baseline is required: the results file of the baseline');
    if (margin === '') throw new ActionInputError('the input margin is required: the largest acceptable drop, in score units (0.02 = 2 points on 0/1 scores)');
    const files = await gateArguments(baseline, input('CANDIDATE'), input('BASELINE_MODEL'), input('CANDIDATE_MODEL'), work);
    const args = ['gate', ...files, '--margin', margin, ...splitArgs(input('ARGS')), '--format', 'markdown'];
    const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.error) throw run.error;
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    if (run.status === 0 || run.status === 1 || run.status === 3) finish(verdictOf(run.stdout), run.stdout, run.status);
    else {
      const message = run.stderr.trim().split('\n')[0] || `benchplan gate exited with status ${run.status}`;
      finish('error', `❌ **benchplan gate could not run**: ${message.replace(/^error: /, '')}\n`, run.status === 2 ? 2 : (run.status ?? 1));
    }
  } catch (error) {
    if (!(error instanceof ActionInputError) && !(error?.name === 'InputError')) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    finish('error', `❌ **benchplan gate could not run**: ${error.message}\n`, 2);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
