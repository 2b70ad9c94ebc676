import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFileFormat, detectSource } from '../../src/import/detect.js';
import { loadResults } from '../../src/import/load-results.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const F = 'tests/fixtures/import';
const E = 'examples/promptfoo';
const CORPUS = resolve(__dirname, '..', '..', '..', 'shared', 'real-logs');
const corpus = existsSync(CORPUS);
if (!corpus) console.log(`load-results: the real-corpus cases are skipped: ${CORPUS} is absent`);

describe('detectFileFormat: by content, not by name', () => {
  const cases: Array<[string, string]> = [
    [`${F}/promptfoo/results.json`, 'promptfoo'],
    [`${F}/promptfoo/results.jsonl`, 'promptfoo'],
    [`${F}/inspect/run-a.eval`, 'inspect'],
    [`${F}/inspect/run-a.json`, 'inspect'],
    [`${F}/lm-eval/pythia-160m/samples_gsm8k_2024-05-05T10-11-12.345678.jsonl`, 'lm-eval'],
    ['examples/scores.csv', 'table'],
    [`${E}/main.json`, 'promptfoo'],
  ];
  for (const [file, format] of cases) it(`${file} is ${format}`, () => expect(detectFileFormat(file)).toBe(format));

  it('a renamed file is still recognised', () => {
    const dir = tempDir();
    const copy = writeInput(dir, 'run.log', readFileSync(`${F}/inspect/run-a.eval`));
    const table = writeInput(dir, 'scores.txt', 'item,model,score\na,m,1\na,n,0\n');
    expect(detectSource(copy).format).toBe('inspect');
    expect(loadResults([copy]).table.rowCount).toBeGreaterThan(0);
    expect(loadResults([table]).table.models).toEqual(['m', 'n']);
  });
});

describe('loadResults: clear messages for the misleading cases', () => {
  it('an lm-eval results file names the samples files beside it', () => {
    expect(() => loadResults([`${F}/lm-eval/pythia-160m/results_2024-05-05T10-11-12.345678.json`])).toThrow(
      /results_2024-05-05T10-11-12\.345678\.json: is an lm-eval results file \(aggregate metrics per task\).*here, samples_arc_challenge_2024-05-05T10-11-12\.345678\.jsonl/,
    );
  });
  it('a directory is searched for logs; an empty one says what it holds', () => {
    const dir = tempDir();
    writeInput(dir, 'notes.txt', 'hello');
    expect(() => loadResults([dir])).toThrow(/is a directory with no result files in it .*it holds notes\.txt/);
    const logs = tempDir();
    writeInput(logs, 'a.eval', readFileSync(`${F}/inspect/run-a.eval`));
    writeInput(logs, 'b.eval', readFileSync(`${F}/inspect/run-b.eval`));
    writeInput(logs, 'logs.json', '{}');
    expect(loadResults([logs]).table.models).toEqual(['openai/gpt-4o-mini', 'anthropic/claude-3-5-haiku-latest']);
  });
  it('a file of no known format says what it looks like', () => {
    const dir = tempDir();
    const odd = writeInput(dir, 'results.json', '{"generatedAt": "x", "passRate": 1}');
    expect(() => loadResults([odd])).toThrow(/results\.json: is not a file benchplan reads: it is a JSON object with keys generatedAt, passRate; expected promptfoo results/);
  });
  it('an unknown namedScores.NAME lists the names the results have', () => {
    // two-prompts.json records namedScores { recall } on its results; results.json records {} on each.
    expect(() => loadResults([`${F}/promptfoo/two-prompts.json`], { score: 'namedScores.nope' })).toThrow(/--score: no result has this named score; the named scores in the files: recall \(got "namedScores\.nope"\)/);
    expect(() => loadResults([`${F}/promptfoo/results.json`], { score: 'namedScores.nope' })).toThrow(/--score: no result has this named score; no result has namedScores/);
    // Its fourth result has no recall: left out and counted, with the names listed.
    expect(loadResults([`${F}/promptfoo/two-prompts.json`], { score: 'namedScores.recall' }).warnings).toContain('1 result without namedScores.recall left out as unscored (the named scores in the files: recall)');
  });
  it('an option no input reads is an error, not a no-op', () => {
    expect(() => loadResults([`${F}/promptfoo/results.json`], { scorer: 'match' })).toThrow(/--scorer: applies to inspect files only, and no input is one/);
  });
  it('--model-name must name an input', () => {
    expect(() => loadResults([`${F}/promptfoo/results.json`], { modelNames: { 'other.json': 'x' } })).toThrow(/--model-name: names no input given/);
  });
});

describe('loadResults: models, pairing and suite binding', () => {
  it('two runs of one provider are told apart by file, and pair on the hash of each test\'s vars', () => {
    const got = loadResults([`${E}/main.json`, `${E}/pr.json`]);
    expect(got.table.models).toEqual(['openai:gpt-4o-mini (main.json)', 'openai:gpt-4o-mini (pr.json)']);
    expect(got.warnings[0]).toMatch(/several inputs name their model "openai:gpt-4o-mini"/);
    expect(got.settings.itemKey).toBe('vars');
    // examples/generate-import.ts: 150 tests in each file, 3 provider errors.
    expect(got.table.items.length).toBe(150);
    const named = loadResults([`${E}/main.json`, `${E}/pr.json`], { modelNames: { [`${E}/main.json`]: 'main', [`${E}/pr.json`]: 'pr' } });
    expect(named.table.models).toEqual(['main', 'pr']);
    expect(named.warnings).toEqual([]);
  });

  it('refuses to pair items whose content differs (lm-eval doc_hash), naming the item and both files', () => {
    const a = `${F}/lm-eval/pythia-160m/samples_gsm8k_2024-05-05T10-11-12.345678.jsonl`;
    const shuffled = `${F}/lm-eval/shuffled/samples_gsm8k_2024-05-05T12-00-00.000000.jsonl`;
    const options = { filter: 'strict-match', modelNames: { [shuffled]: 'shuffled' } };
    expect(() => loadResults([a, shuffled], options)).toThrow(/item "0" is not the same item in .*pythia-160m.* \(model "EleutherAI\/pythia-160m", digest [0-9a-f]+\) and .*shuffled.* \(model "shuffled", digest [0-9a-f]+\).*--allow-changed-items/);
    const allowed = loadResults([a, shuffled], { ...options, allowChangedItems: true });
    expect(allowed.changedItems.length).toBe(6);
    expect(allowed.warnings.join('\n')).toMatch(/6 items changed content between inputs and were paired anyway/);
  });

  it('a digest column in a table binds it too', () => {
    const dir = tempDir();
    const ok = writeInput(dir, 'ok.csv', 'item,model,score,digest\na,m,1,d1\na,n,0,d1\n');
    const bad = writeInput(dir, 'bad.csv', 'item,model,score,digest\na,m,1,d1\na,n,0,d2\n');
    expect(loadResults([ok]).digestedItems).toBe(1);
    expect(() => loadResults([bad])).toThrow(/bad\.csv:3: item "a" has digest d1 for model "m" \(line 2\) but d2 for model "n"/);
    expect(loadResults([bad], { allowChangedItems: true }).changedItems).toEqual(['a']);
  });

  it('an imported table keeps the digests, and pairs with the tool file it came from', async () => {
    const dir = tempDir();
    const out = join(dir, 'a.csv');
    const run = await runCli(['import', 'inspect', `${F}/inspect/run-a.eval`, '--model', 'from-table', '-o', out]);
    expect(run.code).toBe(0);
    const got = loadResults([out, `${F}/inspect/run-b.eval`]);
    expect(got.table.models).toEqual(['from-table', 'anthropic/claude-3-5-haiku-latest']);
    expect(got.digestedItems).toBe(got.table.items.length);
  });
});

describe.skipIf(!corpus)('loadResults on the real corpus: pairing across versions and runs', () => {
  const L = join(CORPUS, 'lm-eval');
  it('.json-era lm-eval samples of two timestamps pair on doc_id, the model from the results file of each timestamp', () => {
    const dir = join(L, 'lm_eval_tasks_bias_classification_results_meta-llama__Meta-Llama-3-8B');
    const a = join(dir, 'samples_bias_classification_2024-06-17T12-20-26.826621.json');
    const b = join(dir, 'samples_bias_classification_2024-06-17T15-44-37.867068.json');
    const got = loadResults([a, b], { metric: 'acc' });
    // Both files hold doc_ids 0..608 (read independently in real-corpus.test.ts); one model, told apart by file.
    expect(got.table.items.length).toBe(609);
    expect(got.table.models).toEqual(['meta-llama/Meta-Llama-3-8B (samples_bias_classification_2024-06-17T12-20-26.826621.json)', 'meta-llama/Meta-Llama-3-8B (samples_bias_classification_2024-06-17T15-44-37.867068.json)']);
    expect(got.digestedItems).toBe(609);
  });

  it('the v0.4.0–0.4.2 JSON-array samples pair with the same run in the current format: doc_hash recomputed from doc', () => {
    const derived = join(CORPUS, 'lm-eval-derived', 'v0.4.2-format', 'pretrained__meta-llama__Meta-Llama-3-8B-Instruct_asdiv.jsonl');
    const current = join(L, 'results_asdiv_meta-llama__Meta-Llama-3-8B-Instruct', 'samples_asdiv_2024-08-21T03-44-09.494230.jsonl');
    const got = loadResults([derived, current], { modelNames: { [derived]: 'v0.4.2', [current]: 'current' } });
    expect(got.changedItems).toEqual([]);
    expect(got.digestedItems).toBe(50);
    const t = got.table;
    // Same samples re-serialised (lm-eval-derived/README.txt): every score is equal.
    const byModel = [0, 1].map((m) => {
      const s = new Map<string, number>();
      for (let r = 0; r < t.rowCount; r++) if (t.model[r] === m) s.set(t.items[t.item[r]], t.score[r]);
      return s;
    });
    for (const [item, score] of byModel[0]) expect(byModel[1].get(item)).toBe(score);
  });

  it('--item-key testIdx over promptfoo files that ran different tests is caught', () => {
    const P = join(CORPUS, 'promptfoo');
    const a = join(P, 'Kacper-Hernacki__promptfoo_results__21e6806.json');
    const b = join(P, 'krystianbergmann__promptfoo-results__a512d08.json');
    expect(() => loadResults([a, b], { itemKey: 'testIdx' })).toThrow(/item "\d+" is not the same item in .*Kacper-Hernacki.* and .*krystianbergmann.*--item-key testIdx over files whose tests differ/);
  });

  it('a NaN / Infinity score is an unscored item, counted and warned, also with NaN in the results file', () => {
    const file = join(L, 'results_tgpred.json_gpt-4o-mini', 'samples_polymer_tg_prediction_2025-06-30T19-40-09.461247.jsonl');
    const got = loadResults([file]);
    // 24 samples, 17 of them "mae": Infinity (grep -c), the results file has "mae,none": Infinity and NaN stderr.
    expect(got.table.rowCount).toBe(7);
    expect(got.sources[0].unscored).toBe(17);
    expect(got.warnings).toContain('17 ±Infinity values of metric "mae" (samples the metric could not score): left out as unscored');
  });

  it('Inspect epochs: mean keeps them as repeats; another reducer gives one row per sample', () => {
    const log = join(CORPUS, 'inspect', 'log-sets_set2_2025-09-15T15-04-34-04-00_popularity_CuCFPdqnwXupUkxp69nJ2a__0b1f799.eval');
    const mean = loadResults([log]);
    expect(mean.table.rowCount).toBe(50); // 10 samples × 5 epochs
    expect(mean.settings.epochReducer).toBe('mean');
    const max = loadResults([log], { epochReducer: 'max' });
    expect(max.table.rowCount).toBe(10);
    expect(max.table.hasRepeat).toBe(false);
    // max over epochs ≥ the mean over epochs, item by item.
    for (let r = 0; r < max.table.rowCount; r++) {
      const item = max.table.items[max.table.item[r]];
      const epochs: number[] = [];
      for (let q = 0; q < mean.table.rowCount; q++) if (mean.table.items[mean.table.item[q]] === item) epochs.push(mean.table.score[q]);
      expect(max.table.score[r]).toBe(Math.max(...epochs));
    }
  });
});

describe('the commands read the tools\' files directly', () => {
  it('compare run-a.eval run-b.eval', async () => {
    const run = await runCli(['compare', `${F}/inspect/run-a.eval`, `${F}/inspect/run-b.eval`, '--resamples', '199', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).models.map((m: { model: string }) => m.model).sort()).toEqual(['anthropic/claude-3-5-haiku-latest', 'openai/gpt-4o-mini']);
  });

  it('gate baseline.json candidate.json --margin: the first file is the baseline', async () => {
    const run = await runCli(['gate', `${E}/main.json`, `${E}/pr.json`, '--margin', '0.05', '--drop-unpaired', '--resamples', '499', '--json']);
    expect([0, 1]).toContain(run.code);
    const result = JSON.parse(run.stdout);
    expect(result.baseline).toBe('openai:gpt-4o-mini (main.json)');
    expect(result.candidate).toBe('openai:gpt-4o-mini (pr.json)');
    expect(run.stderr).toMatch(/warning: several inputs name their model/);
  });

  it('the old form still works: one table, --baseline and --candidate', async () => {
    const run = await runCli(['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--resamples', '199', '--json']);
    expect([0, 1]).toContain(run.code);
    expect(JSON.parse(run.stdout).baseline).toBe('beta');
  });

  it('size and headline take tool files too', async () => {
    const size = await runCli(['size', `${F}/inspect/run-a.eval`, `${F}/inspect/run-b.eval`, '--mde', '0.2', '--json']);
    expect(size.stderr).toBe('');
    expect(size.code).toBe(0);
    const dir = tempDir();
    const strata = writeInput(dir, 'strata.yaml', 'strata:\n  routine: { traffic: 0.7 }\n  rare_clause: { traffic: 0.2 }\n  negative_control: { traffic: 0.1 }\n');
    const headline = await runCli(['headline', `${E}/main.json`, `${E}/pr.json`, '--strata', strata, '--stratum-key', 'stratum', '--drop-unpaired', '--resamples', '199', '--json']);
    expect(headline.code).toBe(0);
  });
});

describe('the suite digest', () => {
  it('is the same for two runs of one suite, whatever the models and scores, and absent without digests', () => {
    // run-a and run-b (make-fixtures.ts) are two models on the same five samples.
    const a = loadResults(['tests/fixtures/import/inspect/run-a.eval']).suiteDigest;
    const b = loadResults(['tests/fixtures/import/inspect/run-b.eval']).suiteDigest;
    expect(a).not.toBeNull();
    expect(a?.items).toBe(5);
    expect(b?.sha256).toBe(a?.sha256);
    expect(loadResults(['examples/scores.csv']).suiteDigest).toBeNull();
  });
});

describe('lm-eval output directories', () => {
  it('<output>/<model>/samples_* gives one model per folder; two runs of a task in one folder are refused', () => {
    const out = tempDir();
    for (const model of ['pythia-160m', 'pythia-410m']) {
      for (const name of ['results_2024-05-05T10-11-12.345678.json', 'samples_gsm8k_2024-05-05T10-11-12.345678.jsonl', 'results_2024-05-05T11-00-01.000001.json', 'samples_gsm8k_2024-05-05T11-00-01.000001.jsonl']) {
        const from = join(F, 'lm-eval', model, name);
        mkdirSync(join(out, model), { recursive: true });
        if (existsSync(from)) writeInput(join(out, model), name, readFileSync(from));
      }
    }
    const got = loadResults([out], { filter: 'strict-match' });
    expect(got.table.models).toEqual(['EleutherAI/pythia-160m', 'EleutherAI/pythia-410m']);
    writeInput(join(out, 'pythia-160m'), 'samples_gsm8k_2024-05-06T10-00-00.000000.jsonl', readFileSync(join(F, 'lm-eval', 'pythia-160m', 'samples_gsm8k_2024-05-05T10-11-12.345678.jsonl')));
    expect(() => loadResults([out], { filter: 'strict-match' })).toThrow(/holds 2 runs of task "gsm8k" \(samples_gsm8k_2024-05-05T10-11-12\.345678\.jsonl, samples_gsm8k_2024-05-06T10-00-00\.000000\.jsonl\)/);
  });
});

describe('import takes a directory and --epoch-reducer', () => {
  it('imports every log of a directory, reducing epochs as asked', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.csv');
    const run = await runCli(['import', 'inspect', 'examples/tools/inspect', '--epoch-reducer', 'max', '-o', out, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.settings.epochReducer).toBe('max');
    expect(summary.files.length).toBe(2);
    // max gives one row per sample and model: no repeat column.
    expect(readFileSync(out, 'utf8').split('\n')[0]).not.toMatch(/repeat/);
  });
});
