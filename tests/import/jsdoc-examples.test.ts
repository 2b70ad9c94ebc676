import { describe, expect, it } from 'vitest';
import { detectFileFormat, detectSource, sniffJsonKeys } from '../../src/import/detect.js';
import { parseEpochReducer, reduceEpochs } from '../../src/import/epoch-reducer.js';
import { itemDigest, lmEvalDocHash } from '../../src/import/item-digest.js';
import { lmEvalSampleRecords } from '../../src/import/lm-eval.js';
import { loadResults } from '../../src/import/load-results.js';
import { promptfooTestDigest } from '../../src/import/promptfoo.js';
import { parsePythonJson } from '../../src/import/python-json.js';

describe('JSDoc examples of the loader', () => {
  it('itemDigest and lmEvalDocHash (values from the Python lines in their JSDoc, run with /usr/bin/python3)', () => {
    expect(itemDigest({ input: 'What is 2+2?', target: '4' })).toBe('d9e468f6ad578aed');
    expect(lmEvalDocHash({ q: 'a' })).toBe('cf82500da083ef81a919adc6551ce1fc93a0df7de6b886e033c42ab05d05a908');
  });
  it('epoch reducers', () => {
    expect(parseEpochReducer('at_least_2')).toEqual({ kind: 'at_least', k: 2, name: 'at_least_2' });
    expect(reduceEpochs([{ score: 1, raw: 'C' }, { score: 0, raw: 'I' }, { score: 0, raw: 'I' }], parseEpochReducer('pass_at_2'))).toBeCloseTo(2 / 3, 15);
  });
  it('detection', () => {
    expect(sniffJsonKeys('{"evalId": "e", "results": {"version": 3}}').keys).toEqual(['evalId', 'results']);
    expect(detectFileFormat('examples/promptfoo/main.json')).toBe('promptfoo');
    expect(detectSource('examples/tools/inspect').files.length).toBe(2);
  });
  it('readers and the loader', () => {
    expect(parsePythonJson('{"mae": Infinity, "sd": NaN}')).toEqual({ mae: Infinity, sd: NaN });
    expect(promptfooTestDigest({ vars: { q: 'x', _conversation: [] } })).toBe(promptfooTestDigest({ testCase: { vars: { q: 'x' } } }));
    // examples/tools/README.md: 6 documents, each under two filters.
    expect(lmEvalSampleRecords('examples/tools/lm-eval/pythia-410m/samples_gsm8k_2024-05-05T11-00-01.000001.jsonl').length).toBe(12);
    expect(loadResults(['examples/promptfoo/main.json', 'examples/promptfoo/pr.json']).table.models.length).toBe(2);
  });
});

describe('examples/tools', () => {
  it('are byte copies of the import fixtures (examples/tools/README.md), so they cannot drift apart', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    for (const dir of ['inspect', 'lm-eval/pythia-160m', 'lm-eval/pythia-410m']) {
      for (const name of readdirSync(`examples/tools/${dir}`)) {
        expect(readFileSync(`examples/tools/${dir}/${name}`).equals(readFileSync(`tests/fixtures/import/${dir}/${name}`)), `${dir}/${name}`).toBe(true);
      }
    }
  });
});
