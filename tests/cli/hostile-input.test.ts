import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScores } from '../../src/data/scores.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

// The cases of issue #14 that crashed (exit 70), were accepted, or named the wrong field: each
// now exits 2 naming the flag or the file, line and field, with the value.
const dir = tempDir('benchplan-hostile-');
const file = (name: string, text: string) => writeInput(dir, name, text);
const drift = ['--before', 'examples/rotation/drift-before.csv', '--rerun', 'examples/rotation/drift-rerun.csv', '--after', 'examples/rotation/drift-after.csv'];

describe('numbers in range: exit 2 naming the flag and value, never a RangeError', () => {
  const resamples = '--resamples: must be a whole number ≤ 10000000, the most this flag allows (got "1e12")';
  it.each([
    ['compare', ['compare', 'examples/scores.csv', '--resamples', '1e12'], resamples],
    ['compare at 2^32 − 1', ['compare', 'examples/scores.csv', '--resamples', '4294967295'], '--resamples: must be a whole number ≤ 10000000'],
    ['agree', ['agree', 'examples/annotations.csv', '--resamples', '1e12'], resamples],
    ['sweep', ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '1e12'], resamples],
    ['gate', ['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0', '--resamples', '1e12'], resamples],
    ['drift', ['drift', ...drift, '--resamples', '1e12'], resamples],
    ['report', ['report', '--scores', 'examples/scores.csv', '--resamples', '1e12', '-o', join(dir, 'r.html')], resamples],
    ['headline (not blamed on strata.yaml)', ['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--resamples', '1e12'], `error: ${resamples}`],
    ['allocate --budget 1e300', ['allocate', '--strata', 'examples/strata.yaml', '--budget', '1e300'], '--budget: must be a whole number ≤ 10000000, the most this flag allows (got "1e300")'],
    ['size --budget 1e300', ['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--budget', '1e300'], '--budget: must be a whole number ≤ 10000000'],
    ['report --budget 1e300', ['report', '--scores', 'examples/scores.csv', '--budget', '1e300', '-o', join(dir, 'r.html')], '--budget: must be a whole number ≤ 10000000'],
    ['allocate --min past the limit', ['allocate', '--strata', 'examples/strata.yaml', '--budget', '10', '--min', '1e9'], '--min: must be a whole number ≤ 10000000'],
    ['a seed longer than 256 characters', ['compare', 'examples/scores.csv', '--seed', 'x'.repeat(257)], '--seed: must be a name or number of 1 to 256 characters'],
    ['an empty seed', ['compare', 'examples/scores.csv', '--seed', ''], '--seed: must be a name or number of 1 to 256 characters (got "")'],
  ])('%s', async (_name, args, piece) => {
    const { code, stderr } = await runCli(args);
    expect(stderr).toContain(piece);
    expect(code).toBe(2);
    expect(existsSync(join(dir, 'r.html'))).toBe(false);
  });

  it('size with a gap of 1e300 answers instead of crashing in the normal CDF', async () => {
    const { code, stderr } = await runCli(['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '1e300']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('messages name the real field', () => {
  const header = 'item,model,score,outcome\n';
  it.each([
    ['NaN', 'a,m,NaN,hit\n', 'bad.csv:2: score must be a finite number (got "NaN")'],
    ['Infinity, empty outcome', 'a,m,Infinity,\n', 'bad.csv:2: score must be a finite number (got "Infinity")'],
    ['1e309', 'a,m,1e309,miss\n', 'bad.csv:2: score must be a finite number (got "1e309")'],
    ['abc', 'a,m,abc,\n', 'bad.csv:2: score must be a finite number (got "abc")'],
    ['1e308 (differences would overflow)', 'a,m,1e308,partial\n', 'bad.csv:2: score must be between -1e15 and 1e15'],
    ['an empty outcome', 'a,m,1,\n', 'bad.csv:2: outcome is empty: it must be one of hit'],
  ])('a bad score in a table with an outcome column: %s', async (_name, row, piece) => {
    const { code, stderr } = await runCli(['validate', file('bad.csv', header + row)]);
    expect(stderr).toContain(piece);
    expect(code).toBe(2);
  });

  it.each([
    ['an empty strata file', ['allocate', '--strata', 'EMPTY.yaml', '--budget', '10'], 'EMPTY.yaml: is empty: expected a `strata:` mapping'],
    ['a strata file of comments only', ['allocate', '--strata', 'COMMENTS.yaml', '--budget', '10'], 'COMMENTS.yaml: is empty: expected a `strata:` mapping'],
    ['an empty policy', ['sweep', 'examples/scores.csv', '--policy', 'EMPTY.yaml'], 'EMPTY.yaml: is empty: expected a cost policy'],
    ['an empty manifest', ['freeze', 'EMPTY.yaml', '--archive', 'ARCHIVE', '--version', 'v1'], 'EMPTY.yaml: is empty: expected a list of items'],
    ['an empty manifest (validate)', ['validate', 'EMPTY.yaml', '--kind', 'manifest'], 'EMPTY.yaml: is empty: expected a list of items'],
  ])('%s', async (_name, args, piece) => {
    const empty = file('EMPTY.yaml', '');
    const comments = file('COMMENTS.yaml', '# nothing here yet\n\n');
    const archive = join(dir, 'archive-empty');
    const resolved = args.map((a) => (a === 'EMPTY.yaml' ? empty : a === 'COMMENTS.yaml' ? comments : a === 'ARCHIVE' ? archive : a));
    const { code, stderr } = await runCli(resolved);
    expect(stderr).toContain(piece.replace('EMPTY.yaml', empty).replace('COMMENTS.yaml', comments));
    expect(code).toBe(2);
    expect(existsSync(archive)).toBe(false);
  });
});

describe('refused: contradictions, duplicate keys, ids spelled two ways, deep nesting', () => {
  it.each([
    ['outcome hit with score 0', 's.csv', 'item,model,score,outcome\na,m,0,hit\n', 's.csv:2: outcome "hit" contradicts the score: a right answer must score above 0 (got "0")'],
    ['outcome miss with score 1', 's.csv', 'item,model,score,outcome\na,m,1,miss\n', 's.csv:2: outcome "miss" contradicts the score: an error must score below 1 (got "1")'],
    ['correct_absent with score -1', 's.csv', 'item,model,score,outcome\na,m,-1,correct_absent\n', 'a right answer must score above 0'],
    ['a duplicate key in a JSONL row', 's.jsonl', '{"item":"a","model":"m","score":1}\n{"item":"b","model":"m","score":1,"score":0}\n', 's.jsonl:2: an object names the same key twice (JSON keys must be unique) (got "score")'],
    ['items differing by a trailing space', 's.csv', 'item,model,score\na,m,1\n"a ",n,0\n', 's.csv:3: item "a " differs from "a" (an earlier line) only by surrounding white space'],
    ['models differing by a leading space', 's.csv', 'item,model,score\na,m,1\nb, m,0\n', 's.csv:3: model " m" differs from "m" (an earlier line)'],
    ['annotators differing by a trailing tab', 'ann.csv', 'item,annotator,label\na,ana,x\nb,"ana\t",y\n', 'ann.csv:3: annotator "ana\\t" differs from "ana" (an earlier line)'],
    ['a manifest naming one item twice, once padded', 'm.yaml', '- { item: a, stratum: s, split: eval, text: x }\n- { item: "a ", stratum: s, split: eval, text: y }\n', 'item "a" appears twice'],
  ])('%s', async (_name, name, text, piece) => {
    const kind = name.startsWith('ann') ? 'annotations' : name.startsWith('m.') ? 'manifest' : 'scores';
    const { code, stderr } = await runCli(['validate', file(name, text), '--kind', kind]);
    expect(stderr).toContain(piece);
    expect(code).toBe(2);
  });

  it('still reads one id padded the same way on every line, trimmed', async () => {
    const path = file('pad.csv', 'item,model,score\n a ,m,1\n a ,n,0\n');
    expect(loadScores(path).items).toEqual(['a']);
  });

  it('refuses a duplicate key in a promptfoo results file', async () => {
    const text = readFileSync('examples/promptfoo/main.json', 'utf8').replace('"evalId": "SYNTHETIC-main",', '"evalId": "SYNTHETIC-main",\n "evalId": "other",');
    const out = join(dir, 'dup-out.csv');
    const { code, stderr } = await runCli(['import', 'promptfoo', file('dup.json', text), '-o', out]);
    expect(stderr).toContain('dup.json:3: an object names the same key twice (JSON keys must be unique) (got "evalId")');
    expect(code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['flow brackets', `x: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`],
    ['block sequences', `x:\n${Array.from({ length: 150 }, (_, k) => `${' '.repeat(k + 1)}-\n`).join('')}`],
    ['compact sequences on one line', `x: \n  ${'- '.repeat(150)}1\n`],
  ])('deeply nested YAML (%s): exit 2, not a stack overflow', async (_name, text) => {
    const { code, stderr } = await runCli(['allocate', '--strata', file('deep.yaml', text), '--budget', '10']);
    expect(stderr).toMatch(/deep\.yaml:\d+: is nested more than 100 levels deep: refused before parsing/);
    expect(code).toBe(2);
  });

  it('import inspect on an empty folder: exit 2 naming it, not EISDIR', async () => {
    const folder = join(dir, 'some.eval');
    mkdirSync(folder);
    const { code, stderr } = await runCli(['import', 'inspect', folder, '-o', join(dir, 'x.csv')]);
    // Directories of logs are an input to import since main's multi-source loading: an empty one is named as such.
    expect(stderr).toContain(`${folder}: is a directory`);
    expect(stderr).not.toContain('EISDIR');
    expect(code).toBe(2);
  });
});

describe('formula cells neutralised in every CSV benchplan writes', () => {
  it('agree --adjudicate: labels starting with = + - @ are written with a leading quote', async () => {
    const ann = file('formula.csv', 'item,annotator,label\na1,ana,"=cmd|\' /C calc\'!A0"\na1,ben,@SUM(A1)\na2,ana,x\na2,ben,x\na3,ana,+1+2\na3,ben,-0.5\n');
    const out = join(dir, 'adjudicate.csv');
    const { code, stderr } = await runCli(['agree', ann, '--resamples', '1', '--adjudicate', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain("'=cmd|' /C calc'!A0");
    expect(text).toContain("'@SUM(A1)");
    expect(text).toContain("'+1+2");
    // a number stays a number
    expect(text).toMatch(/,-0\.5,/);
    expect(text).not.toMatch(/(^|,)[=@+]/m);
  });

  it('import -o: an id starting with = is written neutralised and reads back as itself', async () => {
    const source = readFileSync('examples/promptfoo/main.json', 'utf8');
    const main = file('main.json', source);
    const out = join(dir, 'imported.csv');
    const { code } = await runCli(['import', 'promptfoo', main, '--model', '=HYPERLINK("x")', '-o', out]);
    expect(code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('"\'=HYPERLINK(""x"")"');
    expect(loadScores(out).models).toEqual(['=HYPERLINK("x")']);
  });
});
