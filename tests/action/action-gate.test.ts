import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
// @ts-expect-error: a plain .mjs script without types
import { outputBlock, splitArgs } from '../../scripts/action-gate.mjs';
import { tempDir } from '../helpers/files.js';

// The action's script as GitHub runs it: a child process, inputs in INPUT_* variables, and
// temporary files for $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT. It spawns the built bin
// (npm test builds first).
const root = resolve(import.meta.dirname, '..', '..');
const script = join(root, 'scripts', 'action-gate.mjs');
const dir = tempDir('benchplan-action-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
function action(inputs: Record<string, string>) {
  runs += 1;
  const summary = join(dir, `summary-${runs}.md`);
  const output = join(dir, `output-${runs}.txt`);
  writeFileSync(summary, '# earlier step\n');
  writeFileSync(output, '');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, RUNNER_TEMP: dir };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k}`] = v;
  const run = spawnSync(process.execPath, [script], { cwd: root, env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, summary: readFileSync(summary, 'utf8'), outputs: parseOutputs(readFileSync(output, 'utf8')) };
}

/** $GITHUB_OUTPUT as the runner reads it: `name=value` lines and `name<<DELIM … DELIM` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[k]);
    if (block) {
      const end = lines.indexOf(block[2], k + 1);
      expect(end, `unterminated ${block[1]}`).toBeGreaterThan(k);
      out[block[1]] = lines.slice(k + 1, end).join('\n');
      k = end;
    } else if (lines[k].includes('=')) {
      out[lines[k].slice(0, lines[k].indexOf('='))] = lines[k].slice(lines[k].indexOf('=') + 1);
    }
  }
  return out;
}

// --method t: exact, fast, and independent of the default interval method.
const fast = '--method t';
const oneTable = { BASELINE: 'examples/scores.csv', BASELINE_MODEL: 'beta', CANDIDATE_MODEL: 'alpha', MARGIN: '0.02' };

describe('scripts/action-gate.mjs', () => {
  it('needs the built bin', () => {
    expect(existsSync(join(root, 'dist', 'cli', 'main.js'))).toBe(true);
  });

  it('a pass: exit 0, the Markdown verdict appended to the job summary, passed=true and the same summary as an output', () => {
    const run = action({ ...oneTable, ARGS: `--cluster ${fast}` });
    expect(run.status, run.stderr).toBe(0);
    expect(run.summary.startsWith('# earlier step\n✅ **PASS**: no regression of alpha against beta: ')).toBe(true);
    expect(run.outputs.passed).toBe('true');
    expect(run.outputs.verdict).toBe('pass');
    expect(`# earlier step\n${run.outputs.summary}\n`).toBe(run.summary);
    expect(run.stdout).toBe(run.summary.slice('# earlier step\n'.length));
  });

  it('a regression shown: exit 1 fails the job, verdict=fail, passed=false', () => {
    // beta against alpha: −0.1525 on 400 items, the upper bound far below −0.05.
    const run = action({ ...oneTable, BASELINE_MODEL: 'alpha', CANDIDATE_MODEL: 'beta', MARGIN: '0.05', ARGS: fast });
    expect(run.status).toBe(1);
    expect([run.outputs.verdict, run.outputs.passed]).toEqual(['fail', 'false']);
    expect(run.outputs.summary.split('\n')[0]).toMatch(/^❌ \*\*FAIL\*\*: regression shown for beta against alpha: 95% upper bound -0\.\d+ < -0\.05 \(−margin\)/);
    expect(run.stderr).toMatch(/^gate failed: /);
  });

  it('inconclusive strata: exit 3, verdict=inconclusive, the strata named; --inconclusive fail in args makes it exit 1, still verdict=inconclusive', () => {
    const run = action({ ...oneTable, ARGS: `--cluster --per-stratum ${fast}` });
    expect(run.status).toBe(3);
    expect([run.outputs.verdict, run.outputs.passed]).toEqual(['inconclusive', 'false']);
    expect(run.outputs.summary.split('\n')[0]).toBe('⚠️ **INCONCLUSIVE**: no regression shown, and none ruled out, for alpha against beta: 2 of 4 strata inconclusive (routine, negative_control).');
    expect(run.summary).toContain('| negative_control | 100 | -0.05 |');
    expect(run.stderr).toMatch(/^gate inconclusive: /);
    const mapped = action({ ...oneTable, ARGS: `--cluster --per-stratum --inconclusive fail ${fast}` });
    expect(mapped.status).toBe(1);
    expect(mapped.outputs.verdict).toBe('inconclusive');
  });

  it('two scores tables whose runs carry the same model name: gated as NAME (baseline) and NAME (candidate), same numbers as one table', () => {
    const table = readFileSync(join(root, 'examples', 'scores.csv'), 'utf8').split('\n');
    const header = table[0];
    const keep = (model: string) => [header, ...table.slice(1).filter((line) => line.split(',')[1] === model).map((line) => line.replace(`,${model},`, ',gpt,'))].join('\n');
    const before = join(dir, 'main.csv');
    const after = join(dir, 'pr.csv');
    writeFileSync(before, `${keep('beta')}\n`);
    writeFileSync(after, `${keep('alpha')}\n`);
    const two = action({ BASELINE: before, CANDIDATE: after, MARGIN: '0.02', ARGS: `--cluster --per-stratum ${fast}` });
    const one = action({ ...oneTable, ARGS: `--cluster --per-stratum ${fast}` });
    expect(two.status).toBe(3);
    expect(two.outputs.summary.split('\n')[0]).toBe('⚠️ **INCONCLUSIVE**: no regression shown, and none ruled out, for gpt (candidate) against gpt (baseline): 2 of 4 strata inconclusive (routine, negative_control).');
    // Everything after the verdict line is the same bytes as the one-table run.
    expect(two.outputs.summary.split('\n').slice(1)).toEqual(one.outputs.summary.split('\n').slice(1));
  });

  it.each([
    [{ ...oneTable, MARGIN: '' }, 'the input margin is required'],
    [{ ...oneTable, BASELINE: '' }, 'the input baseline is required'],
    [{ ...oneTable, CANDIDATE_MODEL: '' }, 'with one results file, name both models'],
    [{ ...oneTable, MARGIN: 'two points' }, '--margin: must be a number ≥ 0 (got "two points")'],
    [{ ...oneTable, BASELINE: 'missing.csv' }, 'missing.csv'],
    [{ BASELINE: 'examples/scores.csv', CANDIDATE: 'examples/pilot.csv', MARGIN: '0.02' }, 'holds 3 models (alpha, beta, gamma); name the one to gate with baseline-model'],
  ])('bad input exits 2, says why, and still writes passed=false and the reason (%#)', (inputs, message) => {
    const run = action(inputs);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.outputs.passed).toBe('false');
    expect(run.outputs.verdict).toBe('error');
    expect(run.outputs.summary).toMatch(/^❌ \*\*benchplan gate could not run\*\*: /);
    expect(run.outputs.summary).toContain(message);
  });

  it('splits the extra flags like a shell, quotes kept together', () => {
    expect(splitArgs(`--per-stratum --seed "pr 17" --method 't'`)).toEqual(['--per-stratum', '--seed', 'pr 17', '--method', 't']);
  });

  it('writes a multi-line output under a delimiter that is no line of the value', () => {
    const block = outputBlock('summary', 'a\nb\n');
    expect(parseOutputs(block)).toEqual({ summary: 'a\nb' });
    expect(outputBlock('summary', 'a\nb\n')).toBe(block); // same value, same bytes
  });

  it('action.yml runs the script with every input, and declares the outputs verdict, passed and summary', () => {
    const spec = parseYaml(readFileSync(join(root, 'action.yml'), 'utf8'));
    expect(spec.runs.using).toBe('composite');
    expect(Object.keys(spec.inputs)).toEqual(['baseline', 'candidate', 'margin', 'baseline-model', 'candidate-model', 'args', 'node-version']);
    expect(Object.keys(spec.outputs)).toEqual(['verdict', 'passed', 'summary']);
    const gate = spec.runs.steps.find((s: { id?: string }) => s.id === 'gate');
    expect(gate.run).toContain('scripts/action-gate.mjs');
    for (const name of ['baseline', 'candidate', 'margin', 'baseline-model', 'candidate-model', 'args']) {
      expect(gate.env[`INPUT_${name.toUpperCase().replace('-', '_')}`]).toBe(`\${{ inputs.${name} }}`);
    }
  });
});
