import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const archive = join(dir, 'archive');
beforeAll(async () => {
  // Two frozen versions, as the demo makes them (dates given, so the archive is the same every run).
  expect((await runCli(['freeze', 'examples/manifest.yaml', '--archive', archive, '--version', '2026Q3', '--date', '2026-10-01'])).code).toBe(0);
  const rotate = await runCli(['rotate', '--archive', archive, '--from', '2026Q3', '--incidents', 'examples/incidents.jsonl', '--apply', '--version', '2026Q4', '--date', '2027-01-01']);
  expect(rotate.code).toBe(0);
});

const ALL = [
  '--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline',
  '--strata', 'examples/strata.yaml', '--policy', 'examples/policy.yaml', '--annotations', 'examples/annotations.csv',
  '--archive', archive, '--resamples', '299',
];
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('benchplan report', () => {
  it('writes one HTML file with a section for each input, the fingerprints, settings and version', async () => {
    const out = join(dir, 'all', 'report.html');
    const run = await runCli(['--json', 'report', ...ALL, '-o', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.sections.map((s: { id: string }) => s.id)).toEqual(['compare', 'ranking', 'strata', 'sweep', 'sizing', 'allocation', 'agreement', 'archive']);
    expect(json.inputs.map((i: { role: string }) => i.role)).toEqual(['scores', 'pilot', 'strata', 'policy', 'annotations', 'archive']);
    for (const input of json.inputs.filter((i: { role: string }) => i.role !== 'archive')) expect(input.sha256).toBe(sha256(input.path));
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    expect(json.version).toBe(version);
    expect(json).toMatchObject({ seed: '0', confidenceLevel: 0.95, nResamples: 299, output: out });
    const html = readFileSync(out, 'utf8');
    expect(json.bytes).toBe(Buffer.byteLength(html));
    expect(html).toContain(`benchplan ${version}`);
    for (const input of json.inputs) expect(html).toContain(input.sha256);
    expect(html.match(/<figure class="chart"><svg/g)?.length).toBe(7);
    expect(html).toContain('The archive is intact: 2 versions');
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

  it('sizes for the gap given with --mde; without it, for the gap the budget resolves', async () => {
    const run = async (extra: string[]) => {
      const out = join(dir, `sizing${extra.length}.html`);
      const result = await runCli(['report', '--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--resamples', '99', ...extra, '-o', out]);
      expect(result.code).toBe(0);
      return /<section id="sizing">[\s\S]*?<\/section>/.exec(readFileSync(out, 'utf8'))?.[0] ?? '';
    };
    // examples/pilot.csv: variance of candidate − baseline 244.1, so n = ceil(244.1 · (2 · 1.96 / 5)²) = 151 (sizeFromPilot's example).
    expect(await run(['--mde', '5'])).toContain('a gap of 5 needs 151 items');
    // 400 items resolve 2 · 1.96 · √(244.1 / 400) = 3.06, rounded to 3.1 for the target.
    const section = await run([]);
    expect(section).toContain('400 items resolve a gap of 3.06');
    expect(section).toContain('3.10 (the gap 400 items resolve, rounded (give --mde to choose it))');
  });

  it('an archive that was tampered with: its fingerprint changes and the report says so', async () => {
    const copy = join(dir, 'tampered');
    cpSync(archive, copy, { recursive: true });
    const object = readdirSync(join(copy, 'objects'))[0];
    const path = join(copy, 'objects', object);
    chmodSync(path, 0o644);
    writeFileSync(path, 'edited');
    const out = join(dir, 'tampered.html');
    const run = await runCli(['--json', 'report', '--scores', 'examples/scores.csv', '--archive', copy, '--resamples', '99', '-o', out]);
    expect(run.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('The archive is NOT intact: 1 problem');
    expect(html).toContain(`changed: objects/${object}`);
    const fingerprints = (await runCli(['--json', 'report', '--scores', 'examples/scores.csv', '--archive', archive, '--resamples', '99', '-o', join(dir, 'intact.html')])).stdout;
    expect(JSON.parse(fingerprints).inputs[1].sha256).not.toBe(JSON.parse(run.stdout).inputs[1].sha256);
  });

  it('with only scores (three models): the comparison, the ranking, and a summary line', async () => {
    const out = join(dir, 'scores-only.html');
    const run = await runCli(['report', '--scores', 'examples/scores.csv', '--resamples', '199', '-o', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*scores-only\.html \(\d+ bytes\): 2 sections\n {2}Which models differ\n {2}How sure is the choice of the best\n$/);
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
    ['no --scores', ['-o', 'x.html'], "required option '--scores <files...>' not specified"],
    ['no --output', ['--scores', 'examples/scores.csv'], "required option '-o, --output <file>' not specified"],
    ['output not HTML', ['--scores', 'examples/scores.csv', '-o', 'report.pdf'], 'error: --output: must end in .html (got "'],
    ['--a without --pilot', ['--scores', 'examples/scores.csv', '--a', 'x', '-o', 'r.html'], "error: --a: --a and --b name the pilot's models: give --pilot FILE too"],
    ['--pilot without models', ['--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '-o', 'r.html'], 'error: --pilot: --pilot needs --a MODEL and --b MODEL (got "examples/pilot.csv")'],
    ['resamples 0', ['--scores', 'examples/scores.csv', '--resamples', '0', '-o', 'r.html'], 'error: --resamples: must be a whole number ≥ 1 (got "0")'],
    ['confidence 1.5', ['--scores', 'examples/scores.csv', '--confidence', '1.5', '-o', 'r.html'], 'error: --confidence: must be a number > 0 and < 1 (got "1.5")'],
    ['budget 2.5', ['--scores', 'examples/scores.csv', '--budget', '2.5', '-o', 'r.html'], 'error: --budget: must be a whole number ≥ 1 (got "2.5")'],
    ['budget 1 with a pilot (sizing needs two items)', ['--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--budget', '1', '-o', 'r.html'], 'error: --budget: must be a whole number ≥ 2 (got "1")'],
    ['missing scores file', ['--scores', 'examples/nope.csv', '-o', 'r.html'], 'examples/nope.csv'],
    ['policy without outcomes', ['--scores', 'examples/pilot.csv', '--policy', 'examples/policy.yaml', '-o', 'r.html'], 'error: examples/pilot.csv: the cost sweep (--policy) needs an outcome column in the scores'],
    ['pilot model missing', ['--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'nobody', '--b', 'baseline', '--strata', 'examples/strata.yaml', '-o', 'r.html'], 'nobody'],
    ['strata file missing', ['--scores', 'examples/scores.csv', '--strata', 'examples/none.yaml', '-o', 'r.html'], 'examples/none.yaml'],
    ['--mde without a pilot', ['--scores', 'examples/scores.csv', '--mde', '5', '-o', 'r.html'], 'error: --mde: sizes from a pilot: give --pilot FILE --a MODEL --b MODEL too (got "5")'],
    ['--mde 0', ['--scores', 'examples/scores.csv', '--mde', '0', '-o', 'r.html'], 'error: --mde: must be a number > 0 (got "0")'],
    ['archive that is not a folder', ['--scores', 'examples/scores.csv', '--archive', 'examples/scores.csv', '-o', 'r.html'], 'error: examples/scores.csv: must be a folder'],
    ['archive with no version', ['--scores', 'examples/scores.csv', '--archive', 'examples', '-o', 'r.html'], 'error: examples: the archive holds no frozen version'],
  ];
  describe('a library precondition the data fails names the input file (exit 2, not a file-less message or a crash)', () => {
    // One annotator (ana renamed x, the others dropped) from examples/annotations.csv.
    const oneAnnotator = join(dir, 'one-annotator.csv');
    const onePair = join(dir, 'one-pair.csv');
    const minimums = join(dir, 'minimums.yaml');
    beforeAll(() => {
      const lines = readFileSync('examples/annotations.csv', 'utf8').trim().split('\n');
      writeFileSync(oneAnnotator, `${[lines[0], ...lines.filter((l) => l.includes(',ana,')).map((l) => l.replace(',ana,', ',x,'))].join('\n')}\n`);
      writeFileSync(onePair, 'item,model,score\na,m1,1\na,m2,0\n');
      // examples/strata.yaml with minimums of 50 + 50 items, over a budget of 60.
      writeFileSync(minimums, 'strata:\n  routine: { traffic: 0.72, quota: 0.20, min: 50 }\n  rare_clause: { traffic: 0.05, quota: 0.30, min: 50 }\n  past_failure: { traffic: 0.03, quota: 0.25 }\n  negative_control: { traffic: 0.20, quota: 0.25 }\n');
    });
    const cases: Array<[string, () => string[], () => string]> = [
      ['agreement with one annotator', () => ['--annotations', oneAnnotator], () => `error: ${oneAnnotator}: agreement needs at least two annotators (got 1: x)\n`],
      // Was exit 70 ("internal error"), a RangeError without "(got".
      ['sizing from a pilot of one item', () => ['--pilot', onePair, '--a', 'm1', '--b', 'm2'], () => `error: ${onePair}: the pilot has 1 paired item; a variance needs at least 2\n`],
      [
        'allocation whose minimums pass the budget',
        () => ['--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--strata', minimums, '--budget', '60'],
        () => `error: examples/pilot.csv (with ${minimums}): the strata's minimums add up to 100, more than the budget (got 60)\n`,
      ],
    ];
    for (const [name, args, message] of cases) {
      it(name, async () => {
        const run = await runCli(['report', '--scores', 'examples/scores.csv', '--resamples', '99', ...args(), '-o', join(dir, 'bad', 'r.html')]);
        expect(run.stderr).toBe(message());
        expect(run.code).toBe(2);
      });
    }

    it('the library: buildReport throws an InputError naming the file', async () => {
      const { buildReport } = await import('../../src/report/build.js');
      const { loadAnnotations } = await import('../../src/data/annotations.js');
      const { loadScores } = await import('../../src/data/scores.js');
      const { InputError } = await import('../../src/data/errors.js');
      const call = () => buildReport({ scores: loadScores('examples/scores.csv'), annotations: loadAnnotations(oneAnnotator) }, { version: '0', inputs: [], nResamples: 9 });
      expect(call).toThrow(InputError);
      expect(call).toThrow(`${oneAnnotator}: agreement needs at least two annotators (got 1: x)`);
    });
  });

  it('checks the output path before loading any input or running a bootstrap', async () => {
    // The output's folder would have to be a file, and the scores file does not exist: the
    // message shows which was checked first.
    const target = join('examples', 'scores.csv', 'report.html');
    const run = await runCli(['report', '--scores', 'examples/nope.csv', '-o', target]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: -o: cannot write there: (ENOTDIR|EEXIST) \(got "examples\/scores\.csv\/report\.html"\)\n$/);
  });

  for (const [name, args, message] of bad) {
    it(`bad input: ${name} → exit 2 naming it`, async () => {
      const run = await runCli(['report', ...args.map((a) => (a.endsWith('.html') || a.endsWith('.pdf') ? join(dir, 'bad', a) : a))]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe('');
    });
  }
});
