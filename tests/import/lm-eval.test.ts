import { describe, expect, it } from 'vitest';
import { importResults } from '../../src/import/import-results.js';
import { lmEvalModelName, lmEvalSamplesName } from '../../src/import/lm-eval.js';

const L = 'tests/fixtures/import/lm-eval';
const A = `${L}/pythia-160m/samples_gsm8k_2024-05-05T10-11-12.345678.jsonl`;
const B = `${L}/pythia-410m/samples_gsm8k_2024-05-05T11-00-01.000001.jsonl`;

describe('lm-evaluation-harness samples', () => {
  it('parses task and timestamp from the file name', () => {
    expect(lmEvalSamplesName(A)).toEqual({ task: 'gsm8k', timestamp: '2024-05-05T10-11-12.345678' });
    expect(lmEvalSamplesName('x/samples_mmlu_abstract_algebra_2024-01-02T03-04-05.000006.jsonl')).toEqual({ task: 'mmlu_abstract_algebra', timestamp: '2024-01-02T03-04-05.000006' });
  });

  it('names the model from model_name, else model_args pretrained=, else config.model', () => {
    expect(lmEvalModelName({ model_name: 'org/m' }, 'r.json')).toBe('org/m');
    expect(lmEvalModelName({ config: { model: 'hf', model_args: 'dtype=float16,pretrained=org/m2' } }, 'r.json')).toBe('org/m2');
    expect(lmEvalModelName({ config: { model: 'vllm', model_args: { pretrained: 'org/m3' } } }, 'r.json')).toBe('org/m3');
    expect(lmEvalModelName({ config: { model: 'openai-chat-completions', model_args: 'base_url=http://x' } }, 'r.json')).toBe('openai-chat-completions');
    expect(() => lmEvalModelName({}, 'r.json')).toThrow(/r\.json: model_name: is missing, and config\.model_args names no pretrained model: pass --model NAME/);
  });

  it('maps doc_id → item, the metric → score, doc.K → stratum, and keeps doc_hash', () => {
    const result = importResults('lm-eval', [A, B], { filter: 'strict-match', stratumKey: 'level' });
    expect(result.models).toEqual(['EleutherAI/pythia-160m', 'EleutherAI/pythia-410m']);
    // Hand-read from make-fixtures.ts: strict-match exact_match 160m 1 1 0 0 1 0; 410m 1 1 1 0 1 1.
    expect(result.rows.map((r) => r.score)).toEqual([1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1]);
    expect(result.rows[2]).toMatchObject({ item: '2', stratum: 'hard' });
    expect(result.rows[0].docHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.rows[0].docHash).toBe(result.rows[6].docHash);
    expect(result.settings).toMatchObject({ metric: 'exact_match', filter: 'strict-match' });
    // The 160m results file records n-samples gsm8k { original: 1319, effective: 6 } (a --limit
    // run); the 410m one records neither n-samples nor config.limit.
    expect(result.warnings).toEqual([expect.stringMatching(/pythia-160m\/results_.*\.json: task "gsm8k" was run with --limit 6: 6 of its 1319 documents/)]);
  });

  it('keeps one filter: flexible-extract gives the other scores', () => {
    const result = importResults('lm-eval', [A], { filter: 'flexible-extract' });
    expect(result.rows.map((r) => r.score)).toEqual([1, 1, 1, 0, 1, 0]);
  });

  it('asks which filter when the samples hold several', () => {
    expect(() => importResults('lm-eval', [A])).toThrow(/several filters \(strict-match, flexible-extract\): choose one with --filter NAME/);
  });

  it('asks which metric, and prefixes items with the task when files hold several tasks', () => {
    const easy = `${L}/pythia-160m/samples_arc_easy_2024-05-05T10-11-12.345678.jsonl`;
    const challenge = `${L}/pythia-160m/samples_arc_challenge_2024-05-05T10-11-12.345678.jsonl`;
    expect(() => importResults('lm-eval', [easy])).toThrow(/several metrics \(acc, acc_norm\): choose one with --metric NAME/);
    const result = importResults('lm-eval', [easy, challenge], { metric: 'acc_norm' });
    expect(result.rows.map((r) => [r.item, r.score])).toEqual([
      ['arc_easy/0', 1],
      ['arc_easy/1', 0],
      ['arc_easy/2', 0],
      ['arc_challenge/0', 1],
      ['arc_challenge/1', 1],
    ]);
  });

  it('needs --model when no results file names the model', () => {
    const orphan = `${L}/orphan/samples_gsm8k_2024-05-05T12-00-00.000000.jsonl`;
    expect(() => importResults('lm-eval', [orphan], { filter: 'strict-match' })).toThrow(/orphan\/samples_gsm8k_.*\.jsonl: has no results_\*\.json beside it to name the model: pass the model name with --model/);
    expect(importResults('lm-eval', [orphan], { filter: 'strict-match', model: ['mine'] }).models).toEqual(['mine']);
  });

  it('warns when the same doc_id is a different document in another run', () => {
    const orphan = `${L}/orphan/samples_gsm8k_2024-05-05T12-00-00.000000.jsonl`;
    // Same docs: no warning. The hash comparison is what doc_hash is kept for.
    // (The fixture's run used --limit 6, which is warned about on its own.)
    expect(importResults('lm-eval', [A, orphan], { filter: 'strict-match', model: ['a', 'b'] }).warnings.filter((w) => !w.includes('--limit'))).toEqual([]);
    const shuffled = `${L}/shuffled/samples_gsm8k_2024-05-05T12-00-00.000000.jsonl`;
    expect(importResults('lm-eval', [A, shuffled], { filter: 'strict-match', model: ['a', 'b'] }).warnings.filter((w) => !w.includes('--limit'))).toEqual([
      '6 items have a different doc_hash in different files (0, 1, 2, 3, 4, …): the runs did not see the same documents under those doc_ids',
    ]);
  });

  it('refuses a corpus-level metric that is not a number per sample', () => {
    expect(() => importResults('lm-eval', [`${L}/corpus-metric/samples_squad_2024-05-05T12-00-00.000000.jsonl`])).toThrow(
      /samples_squad_.*\.jsonl:1: f1: must be a number per sample \(corpus-level metrics .*\) \(got \["a","a"\]\)/,
    );
  });
});
