import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScores } from '../../src/data/scores.js';
import { pairScores } from '../../src/data/pairing.js';
import { runCli } from '../helpers/cli.js';

const F = 'tests/fixtures/import';
const dir = mkdtempSync(join(tmpdir(), 'benchplan-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const out = (name: string) => join(dir, name);

const LM_A = `${F}/lm-eval/pythia-160m/samples_gsm8k_2024-05-05T10-11-12.345678.jsonl`;
const LM_B = `${F}/lm-eval/pythia-410m/samples_gsm8k_2024-05-05T11-00-01.000001.jsonl`;

describe('benchplan import: round trip into loadScores', () => {
  const cases: Array<[string, string[], string]> = [
    ['promptfoo', [`${F}/promptfoo/results.json`, '--stratum-key', 'stratum', '--cluster-key', 'document'], 'item,model,score,stratum,cluster,digest'],
    ['promptfoo', [`${F}/promptfoo/before.json`, `${F}/promptfoo/after.json`, '--item-key', 'vars', '--model', 'before', '--model', 'after'], 'item,model,score,repeat,digest'],
    ['inspect', [`${F}/inspect/run-a.eval`, `${F}/inspect/run-b.eval`, '--stratum-key', 'stratum'], 'item,model,score,outcome,stratum,repeat,digest'],
    ['lm-eval', [LM_A, LM_B, '--filter', 'strict-match', '--stratum-key', 'level'], 'item,model,score,stratum,doc_hash,digest'],
  ];
  for (const [format, args, header] of cases) {
    for (const ext of ['csv', 'jsonl']) {
      it(`${format} ${args.length > 3 ? args.slice(-2).join(' ') : ''} → .${ext}`, async () => {
        const path = out(`${format}-${args.length}.${ext}`);
        const run = await runCli(['import', format, ...args, '-o', path]);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const text = readFileSync(path, 'utf8');
        if (ext === 'csv') expect(text.split('\n')[0]).toBe(header);
        const table = loadScores(path);
        const summary = await runCli(['import', format, ...args, '-o', path, '--json']);
        const json = JSON.parse(summary.stdout) as { rowCount: number; models: string[]; itemCount: number };
        expect(table.rowCount).toBe(json.rowCount);
        expect(table.models).toEqual(json.models);
        expect(table.items.length).toBe(json.itemCount);
        // Same inputs → same bytes.
        expect(readFileSync(path, 'utf8')).toBe(text);
      });
    }
  }

  it('writes a table the paired analyses read: Inspect outcomes and epochs', async () => {
    const path = out('inspect-pair.csv');
    expect((await runCli(['import', 'inspect', `${F}/inspect/run-a.eval`, `${F}/inspect/run-b.eval`, '-o', path])).code).toBe(0);
    const table = loadScores(path);
    expect(table.hasOutcome && table.hasRepeat).toBe(true);
    // Item 4: run A epochs P (0.5), I (0) → mean 0.25; run B only epoch 2 (P, 0.5; epoch 1 errored).
    const paired = pairScores(table, 'openai/gpt-4o-mini', 'anthropic/claude-3-5-haiku-latest');
    const k = paired.items.indexOf('4');
    expect(paired.scoreA[k]).toBeCloseTo(0.25, 15);
    expect(paired.scoreB[k]).toBeCloseTo(0.5, 15);
  });

  it('prints a summary with the rows left out', async () => {
    const run = await runCli(['import', 'promptfoo', `${F}/promptfoo/results.json`, '-o', out('summary.csv')]);
    expect(run.stdout).toMatch(/wrote 9 rows \(5 items, 2 models\) to .*summary\.csv/);
    expect(run.stdout).toMatch(/left out: 1 errored run, 0 unscored/);
    const json = JSON.parse((await runCli(['import', 'promptfoo', `${F}/promptfoo/results.json`, '-o', out('summary.csv'), '--json'])).stdout);
    expect(json).toMatchObject({ format: 'promptfoo', rowCount: 9, errors: 1, unscored: 0, settings: { itemKey: 'testIdx', score: 'score' } });
    expect(json.rows).toBeUndefined();
  });
});

describe('benchplan import: bad input exits 2 and names the file and the path inside it', () => {
  const bad: Array<[string, string[], RegExp]> = [
    ['a score that is not a number', ['promptfoo', `${F}/bad/promptfoo-bad-score.json`], /promptfoo-bad-score\.json: results\.results\[3\]\.score: must be a number \(got "x"\)/],
    ['a truncated JSON file', ['promptfoo', `${F}/bad/truncated.json`], /truncated\.json: not valid JSON/],
    ['an unsupported results version', ['promptfoo', `${F}/bad/promptfoo-version.json`], /promptfoo-version\.json: results\.version: is not a supported promptfoo results version \(2 or 3\) \(got 7\)/],
    ['a file that is not promptfoo output', ['promptfoo', `${F}/bad/promptfoo-not-results.json`], /promptfoo-not-results\.json: is not a promptfoo results file: expected results\.results\[\]/],
    ['a JSONL line without a provider', ['promptfoo', `${F}/bad/promptfoo-no-provider.jsonl`], /promptfoo-no-provider\.jsonl:2: provider: is missing: expected an object/],
    ['a missing stratum key', ['promptfoo', `${F}/promptfoo/before.json`, '--stratum-key', 'team'], /before\.json: results\.results\[0\]\.testCase\.metadata\.team: is missing \(--stratum-key team looks in testCase\.metadata\.team, then vars\.team\)/],
    ['an unknown --score', ['promptfoo', `${F}/promptfoo/results.json`, '--score', 'latency'], /--score: must be score, success or namedScores\.NAME \(got "latency"\)/],
    ['a bad --item-key', ['promptfoo', `${F}/promptfoo/results.json`, '--item-key', 'hash'], /--item-key: must be one of testIdx, vars \(got "hash"\)/],
    ['an option of another format', ['inspect', `${F}/inspect/run-a.eval`, '--metric', 'acc'], /--metric: applies to lm-eval files only, not inspect/],
    ['a file that is not a zip', ['inspect', `${F}/bad/not-a-zip.eval`], /not-a-zip\.eval: is not a readable ZIP archive/],
    ['a zip with no header', ['inspect', `${F}/bad/no-header.eval`], /no-header\.eval: is not an Inspect \.eval log: it has no header\.json/],
    ['a corrupt entry', ['inspect', `${F}/bad/crc.eval`], /crc\.eval: summaries\.json: archive is corrupt: CRC-32 mismatch/],
    ['an entry larger than it says (zip bomb guard)', ['inspect', `${F}/bad/lying-size.eval`], /lying-size\.eval: summaries\.json: archive entry decompresses to more than its declared 100 bytes/],
    ['a zstd frame declaring a huge window', ['inspect', `${F}/bad/huge-window.eval`], /huge-window\.eval: summaries\.json: archive entry declares a zstd window of \d+ bytes, over the limit/],
    ['an unknown score letter', ['inspect', `${F}/bad/bad-letter.eval`], /bad-letter\.eval: summaries\.json\[1\]\.scores\.match\.value: must be a score: C, I, P, N, a number, true\/false or yes\/no \(got "X"\)/],
    ['an unknown scorer', ['inspect', `${F}/inspect/run-a.eval`, '--scorer', 'f1'], /--scorer: is not a scorer in the logs \(scorers: match\) \(got "f1"\)/],
    ['a non-log extension', ['inspect', `${F}/promptfoo/results.jsonl`], /results\.jsonl: is not an Inspect log: expected a \.eval or \.json file \(got "\.jsonl"\)/],
    ['an unknown filter', ['lm-eval', LM_A, '--filter', 'loose'], /--filter: is not a filter in the samples \(filters: strict-match, flexible-extract\) \(got "loose"\)/],
    ['a wrong number of --model names', ['lm-eval', LM_A, LM_B, '--filter', 'strict-match', '--model', 'a', '--model', 'b', '--model', 'c'], /--model: give one model name for all files or one per file \(2 files, 3 names\)/],
    ['an unknown format', ['helm', `${F}/promptfoo/results.json`], /FORMAT: must be one of promptfoo, inspect, lm-eval \(got "helm"\)/],
    ['a missing file', ['promptfoo', `${F}/promptfoo/nope.json`], /nope\.json: cannot read file: ENOENT/],
  ];
  for (const [what, args, message] of bad) {
    it(what, async () => {
      const path = out(`bad-${what.replace(/\W+/g, '-')}.csv`);
      const run = await runCli(['import', ...args, '-o', path]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: /);
      expect(run.stderr).toMatch(message);
      expect(existsSync(path)).toBe(false);
    });
  }

  it('refuses an output that is not .csv or .jsonl before reading anything', async () => {
    const run = await runCli(['import', 'promptfoo', `${F}/promptfoo/results.json`, '-o', out('scores.xlsx')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/scores\.xlsx: output must be a \.csv or \.jsonl file \(got "\.xlsx"\)/);
  });

  it('refuses an output path that cannot be written before reading any input', async () => {
    // The folder of the output would have to be a file; the input does not even exist, so the
    // message shows which was checked first.
    const target = `${F}/promptfoo/results.json/scores.csv`;
    const run = await runCli(['import', 'promptfoo', `${F}/promptfoo/nope.json`, '-o', target]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: -o: cannot write there: (ENOTDIR|EEXIST) \(got ".*results\.json\/scores\.csv"\)\n$/);
  });
});
