import { describe, expect, it } from 'vitest';
import { csvRecords, lines, MAX_RECORD_CHARS } from '../../src/data/read.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

/** 1 MiB pieces of one endless line: what a file with no line breaks looks like to the readers. */
function* endless(prefix: string): Generator<string> {
  yield prefix;
  const piece = 'a'.repeat(1 << 20);
  for (let k = 0; k <= MAX_RECORD_CHARS / piece.length + 1; k++) yield piece;
}

describe('input limits: a clear error, never a crash', () => {
  it('refuses a JSONL line longer than the record limit, naming the line', () => {
    expect(() => [...lines(endless('{"item":"x"}\n'), 'long.jsonl')]).toThrow(/long\.jsonl:2: line is longer than 64 MiB/);
  });

  it('refuses a CSV record longer than the record limit, naming the line it starts on', () => {
    expect(() => [...csvRecords(endless('item,model,score\nx,"'), 'long.csv')]).toThrow(/long\.csv:2: record is longer than 64 MiB \(a quoted field never closes\?\)/);
  });

  it('reports a deeply nested JSON value without overflowing the stack', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const path = writeInput(tempDir(), 'deep.jsonl', `{"item":${deep},"model":"m","score":1}\n`);
    const { code, stderr } = await runCli(['validate', path]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: .*deep\.jsonl:1: item must be a non-empty string \(got \[a deeply nested array\]\)/);
  });
});
