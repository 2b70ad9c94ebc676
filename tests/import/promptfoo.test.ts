import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importResults } from '../../src/import/import-results.js';
import { promptfooVarsItemId } from '../../src/import/vars-hash.js';

const P = 'tests/fixtures/import/promptfoo';
const GPT = 'gpt-4o-mini';
const CLAUDE = 'anthropic:messages:claude-3-5-haiku-20241022';

const strip = (rows: ReadonlyArray<object>) => rows.map((r) => ({ ...r }));

describe('promptfoo results JSON (version 3)', () => {
  it('maps testIdx → item, provider.label ?? provider.id → model, score → score', () => {
    const result = importResults('promptfoo', [`${P}/results.json`]);
    // Hand-read from results.json: gpt 1, 0.5, 0, 1, 1; claude 1, 1, 0.5, (error), 0.
    expect(strip(result.rows)).toEqual([
      { item: '0', model: GPT, score: 1 },
      { item: '1', model: GPT, score: 0.5 },
      { item: '2', model: GPT, score: 0 },
      { item: '3', model: GPT, score: 1 },
      { item: '4', model: GPT, score: 1 },
      { item: '0', model: CLAUDE, score: 1 },
      { item: '1', model: CLAUDE, score: 1 },
      { item: '2', model: CLAUDE, score: 0.5 },
      { item: '4', model: CLAUDE, score: 0 },
    ]);
    expect(result.models).toEqual([GPT, CLAUDE]);
    expect(result.settings).toMatchObject({ itemKey: 'testIdx', score: 'score' });
  });

  it('leaves out failureReason 2 (an error, not a failure) and counts it', () => {
    const result = importResults('promptfoo', [`${P}/results.json`]);
    expect(result.errors).toBe(1);
    expect(result.files[0]).toMatchObject({ rows: 9, errors: 1, unscored: 0 });
    // failureReason 1 (an assertion failed) is a real 0 and stays: claude on test 4.
    expect(result.rows.find((r) => r.item === '4' && r.model === CLAUDE)?.score).toBe(0);
  });

  it('reads success as 1/0 with --score success', () => {
    const result = importResults('promptfoo', [`${P}/results.json`], { score: 'success' });
    expect(result.rows.map((r) => r.score)).toEqual([1, 0, 0, 1, 1, 1, 1, 0, 0]);
  });

  it('takes strata and clusters from testCase.metadata', () => {
    const result = importResults('promptfoo', [`${P}/results.json`], { stratumKey: 'stratum', clusterKey: 'document' });
    expect(result.rows[2]).toMatchObject({ item: '2', stratum: 'rare_clause', cluster: 'doc-03' });
  });

  it('falls back to vars for the stratum key', () => {
    const result = importResults('promptfoo', [`${P}/results.json`], { stratumKey: 'clause' });
    expect(result.rows[0].stratum).toBe('indemnity');
  });

  it('reads the JSONL output (one EvalResult a line) to the same rows', () => {
    const json = importResults('promptfoo', [`${P}/results.json`], { stratumKey: 'stratum' });
    const jsonl = importResults('promptfoo', [`${P}/results.jsonl`], { stratumKey: 'stratum' });
    expect(strip(jsonl.rows)).toEqual(strip(json.rows));
    expect(jsonl.errors).toBe(1);
  });

  it('adds the prompt label to the model when the file holds several prompts', () => {
    const result = importResults('promptfoo', [`${P}/two-prompts.json`]);
    expect(result.models).toEqual(['openai:gpt-4o-mini [concise]', 'openai:gpt-4o-mini [verbose]']);
    expect(strip(result.rows)).toEqual([
      { item: '0', model: 'openai:gpt-4o-mini [concise]', score: 1 },
      { item: '0', model: 'openai:gpt-4o-mini [verbose]', score: 1 },
      { item: '1', model: 'openai:gpt-4o-mini [concise]', score: 0.25 },
      { item: '1', model: 'openai:gpt-4o-mini [verbose]', score: 0.75 },
    ]);
  });

  it('keeps the prompt label after a --model name', () => {
    expect(importResults('promptfoo', [`${P}/two-prompts.json`], { model: ['run-7'] }).models).toEqual(['run-7 [concise]', 'run-7 [verbose]']);
  });

  it('reads a named score and counts rows without it as unscored', () => {
    const result = importResults('promptfoo', [`${P}/two-prompts.json`], { score: 'namedScores.recall' });
    expect(result.rows.map((r) => r.score)).toEqual([1, 1, 0.5]);
    expect(result.unscored).toBe(1);
  });
});

describe('promptfoo --item-key vars', () => {
  const reference = JSON.parse(readFileSync('tests/reference/import/vars_hash.json', 'utf8')) as Array<{ vars: Record<string, unknown>; id: string }>;

  it('hashes vars like the Python reference (sorted keys, _* and sessionId left out)', () => {
    // Reference: tests/reference/import/vars_hash.py (hashlib.sha256 of json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)).
    for (const { vars, id } of reference) expect(promptfooVarsItemId(vars)).toBe(id);
  });

  it('is stable under key order and runtime vars', () => {
    const a = promptfooVarsItemId({ question: 'Q', doc: 'd' });
    expect(promptfooVarsItemId({ doc: 'd', question: 'Q' })).toBe(a);
    expect(promptfooVarsItemId({ doc: 'd', question: 'Q', _conversation: [1], __repeatIndex: 2, sessionId: 's' })).toBe(a);
    expect(promptfooVarsItemId({ doc: 'd', question: 'Q2' })).not.toBe(a);
    expect(promptfooVarsItemId({ _conversation: [] })).toBeUndefined();
  });

  it('pairs tests across files and numbers unrecorded repeats in file order', () => {
    const result = importResults('promptfoo', [`${P}/before.json`, `${P}/after.json`], { itemKey: 'vars', model: ['before', 'after'] });
    const terminate = reference[0].id; // "Who may terminate?" on msa-7
    const notice = reference[1].id; // "What is the notice period?" (after.json adds sessionId and _conversation)
    expect(result.rows.filter((r) => r.item === terminate)).toEqual([
      { item: terminate, model: 'before', score: 1, repeat: 0 },
      { item: terminate, model: 'after', score: 1, repeat: 0 },
      { item: terminate, model: 'after', score: 1, repeat: 1 },
    ]);
    expect(result.rows.filter((r) => r.item === notice).map((r) => [r.model, r.score, r.repeat])).toEqual([
      ['before', 0, 0],
      ['after', 1, 0],
      ['after', 0, 1],
    ]);
    expect(result.itemCount).toBe(4);
    expect(result.repeatsInferred).toBe(true);
    expect(result.files.map((f) => [f.rows, f.errors])).toEqual([
      [4, 0],
      [7, 1],
    ]);
  });

  it('names runs by their prompt labels when the files differ only in the prompt', () => {
    expect(importResults('promptfoo', [`${P}/before.json`, `${P}/after.json`], { itemKey: 'vars' }).models).toEqual(['openai:gpt-4o-mini [qa-v1]', 'openai:gpt-4o-mini [qa-v2]']);
  });

  it('asks how to match tests when given several files without --item-key', () => {
    expect(() => importResults('promptfoo', [`${P}/before.json`, `${P}/after.json`])).toThrow(/--item-key: several promptfoo files: say how to match tests/);
  });

  it('names the clash when two files share a provider and no --model tells them apart', () => {
    expect(() => importResults('promptfoo', [`${P}/before.json`, `${P}/before.json`], { itemKey: 'vars' })).toThrow(
      /before\.json: results\.results\[0\]: a second row for item "v:0aedd850cf6c", model "openai:gpt-4o-mini" \(the first is at .*before\.json results\.results\[0\]\); .*--model/,
    );
  });
});
