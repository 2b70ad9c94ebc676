import { describe, expect, it } from 'vitest';
import { importResults } from '../../src/import/import-results.js';

const I = 'tests/fixtures/import/inspect';
const A = 'openai/gpt-4o-mini';
const B = 'anthropic/claude-3-5-haiku-latest';

describe('Inspect .eval logs', () => {
  it('reads header.json eval.model and summaries.json: id → item, epoch → repeat, letters → outcomes', () => {
    const result = importResults('inspect', [`${I}/run-a.eval`]);
    // Hand-read from make-fixtures.ts run A: 1 C C, 2 I C, 3 N N, 4 P I, 5 C (epoch 2 unscored).
    expect(result.rows.map((r) => [r.item, r.repeat, r.outcome, r.score])).toEqual([
      ['1', 1, 'hit', 1],
      ['1', 2, 'hit', 1],
      ['2', 1, 'wrong_span', 0],
      ['2', 2, 'hit', 1],
      ['3', 1, 'miss', 0],
      ['3', 2, 'miss', 0],
      ['4', 1, 'partial', 0.5],
      ['4', 2, 'wrong_span', 0],
      ['5', 1, 'hit', 1],
    ]);
    expect(result.models).toEqual([A]);
    expect(result.hasOutcome).toBe(true);
    expect(result.unscored).toBe(1);
    expect(result.settings.scorer).toBe('match');
  });

  it('keeps N (no answer) apart from I (wrong answer), both scoring 0', () => {
    const result = importResults('inspect', [`${I}/run-a.eval`]);
    const n = result.rows.find((r) => r.item === '3')!;
    const i = result.rows.find((r) => r.item === '2' && r.repeat === 1)!;
    expect([n.outcome, n.score]).toEqual(['miss', 0]);
    expect([i.outcome, i.score]).toEqual(['wrong_span', 0]);
  });

  it('reads zstd-compressed entries and leaves out errored samples, counting them', () => {
    const result = importResults('inspect', [`${I}/run-a.eval`, `${I}/run-b.eval`], { stratumKey: 'stratum' });
    expect(result.models).toEqual([A, B]);
    expect(result.files.map((f) => [f.rows, f.errors, f.unscored])).toEqual([
      [9, 0, 1],
      [9, 1, 0],
    ]);
    expect(result.rows.filter((r) => r.model === B && r.item === '4')).toEqual([{ item: '4', model: B, score: 0.5, repeat: 2, outcome: 'partial', stratum: 'rare_clause' }]);
  });

  it('reads the journal when the log is unfinished (no header.json, no summaries.json)', () => {
    const journal = importResults('inspect', [`${I}/run-a-journal.eval`]);
    const full = importResults('inspect', [`${I}/run-a.eval`]);
    expect(journal.rows).toEqual(full.rows);
  });
});

describe('Inspect .json logs', () => {
  it('reads samples[] to the same rows as the .eval log', () => {
    const json = importResults('inspect', [`${I}/run-a.json`], { stratumKey: 'stratum', clusterKey: 'document' });
    const zip = importResults('inspect', [`${I}/run-a.eval`], { stratumKey: 'stratum', clusterKey: 'document' });
    expect(json.rows).toEqual(zip.rows);
    expect(json.rows[0]).toMatchObject({ stratum: 'routine', cluster: 'doc-01' });
  });

  it('asks which scorer when there are several', () => {
    expect(() => importResults('inspect', [`${I}/multi-scorer.json`])).toThrow(/several scorers \(match, f1, rubric\): choose one with --scorer NAME/);
  });

  it('reads numbers, numeric strings and a dict value with --scorer NAME.KEY', () => {
    expect(importResults('inspect', [`${I}/multi-scorer.json`], { scorer: 'f1' }).rows.map((r) => r.score)).toEqual([0.8, 0.25, 0.5]);
    const rubric = importResults('inspect', [`${I}/multi-scorer.json`], { scorer: 'rubric.brevity' });
    expect(rubric.rows.map((r) => r.score)).toEqual([0.5, 1, 1]);
    expect(rubric.settings.scorer).toBe('rubric.brevity');
    expect(() => importResults('inspect', [`${I}/multi-scorer.json`], { scorer: 'rubric' })).toThrow(
      /multi-scorer\.json: samples\[0\]\.scores\.rubric\.value: holds several values \(accuracy, brevity\): choose one with --scorer rubric\.KEY/,
    );
  });

  it('writes numbers (and warns) when letters mix with other values', () => {
    // match: C, I and "yes" (value_to_float: yes → 1).
    const result = importResults('inspect', [`${I}/multi-scorer.json`], { scorer: 'match' });
    expect(result.rows.map((r) => [r.score, r.outcome])).toEqual([
      [1, undefined],
      [0, undefined],
      [1, undefined],
    ]);
    expect(result.hasOutcome).toBe(false);
    expect(result.warnings.join('\n')).toMatch(/2 of 3 values were C\/I\/P\/N letters/);
  });
});
