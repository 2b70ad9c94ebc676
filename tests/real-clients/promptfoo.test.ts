import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

// The real promptfoo (its current version, which needs Node >= 22.22) run on Node 22 from the npm
// registry's `node` package, both installed into .tools/ by scripts/setup-real-clients.sh. Two
// runs of one config with local file:// providers (no network): a baseline, then a candidate whose
// extension hook is benchplan's promptfoo.js; benchplan then reads both results files. What each
// provider answers is fixed here, so the expected scores come from this file, not from benchplan.
const root = resolve(import.meta.dirname, '..', '..');
const node22 = join(root, '.tools', 'node22', 'node_modules', '.bin', 'node');
const promptfooPackage = join(root, '.tools', 'promptfoo', 'node_modules', 'promptfoo');
// Opt-in (BENCHPLAN_REAL_CLIENTS=1, set by scripts/ci-extra.sh): a minute of promptfoo is not for every `npm test`.
const missing = [node22, promptfooPackage].filter((p) => !existsSync(p));
const skipReason =
  process.env.BENCHPLAN_REAL_CLIENTS !== '1'
    ? 'BENCHPLAN_REAL_CLIENTS is not 1 (scripts/ci-extra.sh runs them after scripts/setup-real-clients.sh)'
    : missing.length > 0
      ? `${missing.map((p) => p.slice(root.length + 1)).join(', ')} not installed (run scripts/setup-real-clients.sh)`
      : '';
if (skipReason !== '') console.log(`real clients: promptfoo test skipped: ${skipReason}`);

const N = 40;
/** Item i (1..N): the baseline answers wrongly when i % 5 === 0, the candidate when i % 8 === 0 (from the provider code below). */
const baselineRight = (i: number) => i % 5 !== 0;
const candidateRight = (i: number) => i % 8 !== 0;

describe.skipIf(skipReason !== '')('promptfoo (current version, on Node 22) with benchplan', () => {
  const dir = tempDir('benchplan-promptfoo-real-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const version = existsSync(promptfooPackage) ? (JSON.parse(readFileSync(join(promptfooPackage, 'package.json'), 'utf8')) as { version: string }).version : '';
  const nodeVersion = existsSync(node22) ? execFileSync(node22, ['--version'], { encoding: 'utf8' }).trim() : '';
  const cli = join(promptfooPackage, 'dist', 'src', 'main.js');

  function config(provider: string, extension: boolean): string {
    const tests = Array.from({ length: N }, (_, k) => `  - vars: { question: "q${k + 1}", answer: "a${k + 1}" }\n    assert:\n      - type: equals\n        value: "{{answer}}"`).join('\n');
    return [
      'description: benchplan real-client test',
      'prompts:',
      '  - "Answer {{question}}"',
      'providers:',
      `  - id: file://${join(dir, `${provider}.mjs`)}`,
      `    label: ${provider}`,
      ...(extension ? ['extensions:', `  - file://${join(root, 'promptfoo.js')}:afterAll`] : []),
      'tests:',
      tests,
      '',
    ].join('\n');
  }

  function provider(name: string, wrongEvery: number): string {
    return [
      'export default class Provider {',
      `  id() { return '${name}'; }`,
      '  async callApi(prompt, context) {',
      '    const i = Number(String(context.vars.question).slice(1));',
      `    return { output: i % ${wrongEvery} === 0 ? 'wrong' : context.vars.answer };`,
      '  }',
      '}',
      '',
    ].join('\n');
  }

  function promptfoo(configFile: string, output: string, env: Record<string, string>) {
    const home = join(dir, 'home');
    mkdirSync(home, { recursive: true });
    return spawnSync(node22, [cli, 'eval', '-c', configFile, '-o', output, '--no-cache', '--no-table', '--no-progress-bar', '--max-concurrency', '1'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 240_000,
      env: {
        PATH: `${join(root, '.tools', 'node22', 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
        HOME: home,
        PROMPTFOO_CONFIG_DIR: join(home, '.promptfoo'),
        PROMPTFOO_DISABLE_TELEMETRY: '1',
        PROMPTFOO_DISABLE_UPDATE: '1',
        PROMPTFOO_DISABLE_SHARING: '1',
        NO_COLOR: '1',
        ...env,
      },
    });
  }

  it(`runs promptfoo ${version || '(not installed)'} on ${nodeVersion || 'Node 22'}; benchplan reads its results and its hook gives the verdict`, async () => {
    console.log(`real clients: promptfoo ${version} on node ${nodeVersion}`);
    writeFileSync(join(dir, 'baseline.mjs'), provider('baseline', 5));
    writeFileSync(join(dir, 'candidate.mjs'), provider('candidate', 8));
    writeFileSync(join(dir, 'baseline.yaml'), config('baseline', false));
    writeFileSync(join(dir, 'candidate.yaml'), config('candidate', true));

    const base = promptfoo(join(dir, 'baseline.yaml'), join(dir, 'baseline.json'), {});
    // promptfoo exits 100 when an assertion failed (the baseline's wrong answers do).
    expect([0, 100], base.stderr + base.stdout).toContain(base.status);
    const markdown = join(dir, 'summary.md');
    const cand = promptfoo(join(dir, 'candidate.yaml'), join(dir, 'candidate.json'), {
      BENCHPLAN_BASELINE: join(dir, 'baseline.json'),
      BENCHPLAN_MARKDOWN: markdown,
      BENCHPLAN_RESAMPLES: '999',
    });
    expect([0, 100], cand.stderr + cand.stdout).toContain(cand.status);

    // The hook ran inside promptfoo and compared this eval with the baseline.
    expect(cand.stdout).toContain(`benchplan: this eval against ${join(dir, 'baseline.json')}`);
    expect(cand.stderr).not.toContain('benchplan: error');
    expect(cand.stderr).not.toContain('internal error');
    expect(readFileSync(markdown, 'utf8').length).toBeGreaterThan(0);

    // benchplan reads both results files: the estimate is the difference the providers were built to give.
    const expected = Array.from({ length: N }, (_, k) => Number(candidateRight(k + 1)) - Number(baselineRight(k + 1))).reduce((a, b) => a + b, 0) / N;
    const run = await runCli(['compare', join(dir, 'baseline.json'), join(dir, 'candidate.json'), '--a', 'candidate', '--b', 'baseline', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { n: number; estimate: number; meanA: number; meanB: number };
    expect(result.n).toBe(N);
    expect(result.meanB).toBe(Array.from({ length: N }, (_, k) => Number(baselineRight(k + 1))).reduce((a, b) => a + b, 0) / N);
    expect(result.meanA).toBe(Array.from({ length: N }, (_, k) => Number(candidateRight(k + 1))).reduce((a, b) => a + b, 0) / N);
    expect(result.estimate).toBeCloseTo(expected, 12);
    // The results file is the format benchplan's importer was written for.
    expect((JSON.parse(readFileSync(join(dir, 'candidate.json'), 'utf8')) as { results: { version: number } }).results.version).toBe(3);
  }, 300_000);
});
