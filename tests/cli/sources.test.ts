import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loaderSettingsOf } from '../../src/cli/sources.js';
import { runCli } from '../helpers/cli.js';

const M = 'examples/promptfoo/main.json';
const P = 'examples/promptfoo/pr.json';
const NAMES = ['--model-name', `${M}=main`, '--model-name', `${P}=pr`];
const root = mkdtempSync(join(tmpdir(), 'benchplan-sources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The JSON of a run that must succeed (or, for a gate, may exit 1). */
async function json(args: string[]): Promise<{ text: string; doc: Record<string, unknown> }> {
  const run = await runCli([...args, '--json']);
  expect([0, 1, 3], run.stderr).toContain(run.code);
  return { text: run.stdout, doc: JSON.parse(run.stdout) };
}

/** The document without the two loader keys, as text. */
function without(doc: Record<string, unknown>): string {
  const { inputFormat: _f, modelNames: _m, ...rest } = doc;
  return `${JSON.stringify(rest, null, 2)}\n`;
}

describe('JSON output echoes the loader settings (--input-format, --model-name) when they are given', () => {
  it('loaderSettingsOf: only the flags given, parsed as the loader reads them', () => {
    expect(loaderSettingsOf({})).toEqual({});
    expect(loaderSettingsOf({ modelName: [] })).toEqual({});
    expect(loaderSettingsOf({ inputFormat: 'promptfoo', modelName: [`${M}= main `, `${P}=pr`] })).toEqual({ inputFormat: 'promptfoo', modelNames: { [M]: 'main', [P]: 'pr' } });
    expect(() => loaderSettingsOf({ inputFormat: 'csv' })).toThrow(/--input-format/);
  });

  it.each([
    ['compare (one pair)', ['compare', M, P, '--a', 'main', '--b', 'pr', '--drop-unpaired', '--resamples', '199']],
    ['compare (every pair)', ['compare', M, P, '--drop-unpaired', '--resamples', '199']],
    ['gate', ['gate', M, P, '--margin', '0.05', '--drop-unpaired', '--resamples', '199']],
  ])('%s: both echoed right after the inputs; without --input-format the bytes are those of a run without it', async (_what, args) => {
    const given = await json([...args, ...NAMES, '--input-format', 'promptfoo']);
    const named = await json([...args, ...NAMES]);
    expect(given.doc.inputFormat).toBe('promptfoo');
    expect(given.doc.modelNames).toEqual({ [M]: 'main', [P]: 'pr' });
    expect(named.doc.inputFormat).toBeUndefined();
    expect(named.doc.modelNames).toEqual({ [M]: 'main', [P]: 'pr' });
    // Same numbers; only the echo differs. The echo sits after `scores` where the report has one.
    expect(without(given.doc)).toBe(without(named.doc));
    const keys = Object.keys(given.doc);
    if (keys[0] === 'scores') expect(keys.slice(0, 3)).toEqual(['scores', 'inputFormat', 'modelNames']);
  });

  it('without either flag no key is added: the output is the library report as before', async () => {
    const plain = await json(['compare', M, P, '--drop-unpaired', '--resamples', '199']);
    expect(Object.keys(plain.doc)).not.toContain('inputFormat');
    expect(Object.keys(plain.doc)).not.toContain('modelNames');
    const gate = await json(['gate', 'examples/scores.csv', '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.05', '--resamples', '199']);
    expect(Object.keys(gate.doc).filter((k) => k === 'inputFormat' || k === 'modelNames')).toEqual([]);
  });

  it('gate --sequential echoes them too', async () => {
    const state = join(root, 'state.json');
    const look = await json(['gate', M, P, ...NAMES, '--input-format', 'promptfoo', '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--drop-unpaired', '--sequential', '--state', state, '--score-range', '0,1']);
    expect(look.doc).toMatchObject({ inputFormat: 'promptfoo', modelNames: { [M]: 'main', [P]: 'pr' } });
  });
});
