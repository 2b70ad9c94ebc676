import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ALL = [
  '--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline',
  '--strata', 'examples/strata.yaml', '--policy', 'examples/policy.yaml', '--annotations', 'examples/annotations.csv',
  '--resamples', '299',
];
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('benchplan report', () => {
  it('writes one HTML file with a section for each input, the fingerprints, settings and version', async () => {
    const out = join(dir, 'all', 'report.html');
    const run = await runCli(['--json', 'report', ...ALL, '-o', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.sections.map((s: { id: string }) => s.id)).toEqual(['compare', 'strata', 'sweep', 'allocation', 'agreement']);
    expect(json.inputs.map((i: { role: string }) => i.role)).toEqual(['scores', 'pilot', 'strata', 'policy', 'annotations']);
    for (const input of json.inputs) expect(input.sha256).toBe(sha256(input.path));
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    expect(json.version).toBe(version);
    expect(json).toMatchObject({ seed: '0', confidenceLevel: 0.95, resamples: 299, output: out });
    const html = readFileSync(out, 'utf8');
    expect(json.bytes).toBe(Buffer.byteLength(html));
    expect(html).toContain(`benchplan ${version}`);
    for (const input of json.inputs) expect(html).toContain(input.sha256);
    expect(html.match(/<figure class="chart"><svg/g)?.length).toBe(5);
    expect(html).not.toMatch(/<script\b/i);
    // Written atomically: nothing but the report in its folder.
    expect(readdirSync(join(dir, 'all'))).toEqual(['report.html']);
  });

  it('same inputs and seed give the same bytes', async () => {
    const a = join(dir, 'a.html');
    const b = join(dir, 'b.html');
    expect((await runCli(['report', ...ALL, '-o', a])).code).toBe(0);
    expect((await runCli(['report', ...ALL, '-o', b])).code).toBe(0);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    const c = join(dir, 'c.html');
    expect((await runCli(['report', ...ALL, '--seed', '7', '-o', c])).code).toBe(0);
    expect(readFileSync(c).equals(readFileSync(a))).toBe(false);
  });

  it('with only scores: the comparison, and a summary line', async () => {
    const out = join(dir, 'scores-only.html');
    const run = await runCli(['report', '--scores', 'examples/scores.csv', '--resamples', '199', '-o', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*scores-only\.html \(\d+ bytes\): 1 section\n {2}Which models differ\n$/);
  });

  it('escapes names and ids from input files: a model called <script> is text, never markup', async () => {
    const evil = '<script>alert(1)</script>';
    // Item ids that are markup, and two models: one called <script>…, one with a quote and an ampersand.
    const rows = ['item,model,score'];
    for (let i = 0; i < 30; i++) {
      rows.push(`"<img src=x onerror=alert(${i})>",${evil},${i % 3 === 0 ? 1 : 0}`);
      rows.push(`"<img src=x onerror=alert(${i})>","b&""q",${i % 2}`);
    }
    const scores = join(dir, 'evil.csv');
    writeFileSync(scores, `${rows.join('\n')}\n`);
    const out = join(dir, 'evil.html');
    const run = await runCli(['report', '--scores', scores, '--resamples', '99', '-o', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/<script\b/i);
    expect(html).not.toMatch(/<img\b/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  const bad: Array<[string, string[], string]> = [
    ['no --scores', ['-o', 'x.html'], "required option '--scores <file>' not specified"],
    ['no --output', ['--scores', 'examples/scores.csv'], "required option '-o, --output <file>' not specified"],
    ['output not HTML', ['--scores', 'examples/scores.csv', '-o', 'report.pdf'], 'error: --output: must end in .html (got "'],
    ['--a without --pilot', ['--scores', 'examples/scores.csv', '--a', 'x', '-o', 'r.html'], "error: --a: --a and --b name the pilot's models: give --pilot FILE too"],
    ['--pilot without models', ['--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '-o', 'r.html'], 'error: --pilot: --pilot needs --a MODEL and --b MODEL (got "examples/pilot.csv")'],
    ['resamples 0', ['--scores', 'examples/scores.csv', '--resamples', '0', '-o', 'r.html'], 'error: --resamples: must be a whole number ≥ 1 (got "0")'],
    ['confidence 1.5', ['--scores', 'examples/scores.csv', '--confidence', '1.5', '-o', 'r.html'], 'error: --confidence: must be a number > 0 and < 1 (got "1.5")'],
    ['budget 2.5', ['--scores', 'examples/scores.csv', '--budget', '2.5', '-o', 'r.html'], 'error: --budget: must be a whole number ≥ 1 (got "2.5")'],
    ['missing scores file', ['--scores', 'examples/nope.csv', '-o', 'r.html'], 'examples/nope.csv'],
    ['policy without outcomes', ['--scores', 'examples/pilot.csv', '--policy', 'examples/policy.yaml', '-o', 'r.html'], 'error: examples/pilot.csv: the cost sweep (--policy) needs an outcome column in the scores'],
    ['pilot model missing', ['--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'nobody', '--b', 'baseline', '--strata', 'examples/strata.yaml', '-o', 'r.html'], 'nobody'],
    ['strata file missing', ['--scores', 'examples/scores.csv', '--strata', 'examples/none.yaml', '-o', 'r.html'], 'examples/none.yaml'],
  ];
  for (const [name, args, message] of bad) {
    it(`bad input: ${name} → exit 2 naming it`, async () => {
      const run = await runCli(['report', ...args.map((a) => (a.endsWith('.html') || a.endsWith('.pdf') ? join(dir, 'bad', a) : a))]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe('');
    });
  }
});
