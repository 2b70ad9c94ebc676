import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/data/errors.js';
import { ImportIdSpellings } from '../../src/import/id-spellings.js';
import { importResults } from '../../src/import/import-results.js';

const root = mkdtempSync(join(tmpdir(), 'benchplan-id-spellings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The Inspect .json fixture with each sample edited. */
function inspectLog(name: string, edit: (sample: Record<string, any>, k: number) => void): string {
  const log = JSON.parse(readFileSync('tests/fixtures/import/inspect/run-a.json', 'utf8'));
  log.samples.forEach(edit);
  const path = join(root, name);
  writeFileSync(path, JSON.stringify(log));
  return path;
}

/** The error importResults throws, or a failure when it does not throw. */
function refusal(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('import: one spelling per id (as every loader: ids are trimmed, two spellings of one are refused)', () => {
  it('ImportIdSpellings: the same spelling again is fine; another spelling of the same kind is refused naming both places', () => {
    const ids = new ImportIdSpellings();
    ids.check('a sample id', 'a1', 'a1', { file: 'x.json', path: 'samples[0].id' });
    ids.check('a sample id', 'a1', 'a1', { file: 'x.json', path: 'samples[1].id' });
    ids.check('a stratum name', ' a1', 'a1', { file: 'x.json', path: 'samples[1].metadata.stratum' }); // another kind
    expect(() => ids.check('a sample id', ' a1', 'a1', { file: 'y.jsonl', line: 4, path: 'id' })).toThrow('y.jsonl:4: id: a sample id " a1" differs from "a1" (at x.json samples[0].id) only by surrounding white space: ids are trimmed, so spell one id one way (got " a1")');
  });

  it('Inspect: "a1" and "a1 " in one log are refused (file, field, value); a padded id spelled one way is trimmed as before', () => {
    const mixed = inspectLog('mixed.json', (s) => {
      s.id = s.epoch === 1 ? `x${s.id}` : `x${s.id} `;
    });
    const error = refusal(() => importResults('inspect', [mixed]));
    // samples[0] is id 1 epoch 1, samples[1] id 1 epoch 2 (run-a.json).
    expect(error.message).toBe(`${mixed}: samples[1].id: a sample id "x1 " differs from "x1" (at ${mixed} samples[0].id) only by surrounding white space: ids are trimmed, so spell one id one way (got "x1 ")`);
    const padded = inspectLog('padded.json', (s) => {
      s.id = ` x${s.id}`;
    });
    expect(importResults('inspect', [padded]).rows.map((r) => r.item).slice(0, 3)).toEqual(['x1', 'x1', 'x2']);
  });

  it('Inspect: across the files of one import, and for strata too', () => {
    const a = inspectLog('a.json', (s) => {
      s.id = `x${s.id}`;
    });
    const b = inspectLog('b.json', (s) => {
      s.id = `x${s.id}`;
      if (s.id === 'x3') s.id = ' x3';
    });
    const error = refusal(() => importResults('inspect', [a, b], { model: ['m1', 'm2'] }));
    expect(error.message).toMatch(new RegExp(`^${b}: samples\\[\\d+\\]\\.id: a sample id " x3" differs from "x3" \\(at ${a} samples\\[\\d+\\]\\.id\\)`));
    const strata = inspectLog('strata.json', (s, k) => {
      if (k === 1) s.metadata.stratum = `${s.metadata.stratum}\t`;
    });
    expect(refusal(() => importResults('inspect', [strata], { stratumKey: 'stratum' })).message).toBe(
      `${strata}: samples[1].metadata.stratum: a stratum name "routine\\t" differs from "routine" (at ${strata} samples[0].metadata.stratum) only by surrounding white space: ids are trimmed, so spell one id one way (got "routine\\t")`,
    );
  });

  it('lm-eval: a stratum (doc.K) spelled two ways is refused with the file and line', () => {
    const dir = join(root, 'lm');
    cpSync('tests/fixtures/import/lm-eval/pythia-160m', dir, { recursive: true });
    const name = readdirSync(dir).find((f) => f.startsWith('samples_arc_easy'))!;
    const path = join(dir, name);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    lines.forEach((l, k) => (l.doc.kind = k === 2 ? ' science' : 'science'));
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(refusal(() => importResults('lm-eval', [path], { stratumKey: 'kind', metric: 'acc' })).message).toBe(
      `${path}:3: doc.kind: a stratum name " science" differs from "science" (at ${path}:1 doc.kind) only by surrounding white space: ids are trimmed, so spell one id one way (got " science")`,
    );
  });

  it('promptfoo: a provider label spelled two ways in one file is refused', () => {
    const doc = JSON.parse(readFileSync('tests/fixtures/import/promptfoo/results.json', 'utf8'));
    const results = doc.results.results as Array<Record<string, any>>;
    const first = results.findIndex((r) => r.provider.label === results[0].provider.label && r !== results[0]);
    results[first].provider.label = `${results[0].provider.label} `;
    const path = join(root, 'promptfoo.json');
    writeFileSync(path, JSON.stringify(doc));
    expect(refusal(() => importResults('promptfoo', [path])).message).toBe(
      `${path}: results.results[${first}].provider.label: a provider id "${results[0].provider.label} " differs from "${results[0].provider.label}" (at ${path} results.results[0].provider.label) only by surrounding white space: ids are trimmed, so spell one id one way (got "${results[0].provider.label} ")`,
    );
  });
});
