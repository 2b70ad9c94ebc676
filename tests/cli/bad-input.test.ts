import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const dir = tempDir();

/** A bad input: the file to write, extra flags, and a piece of the message it must produce. */
interface BadInput {
  name: string;
  file: string;
  content: string | (() => string);
  args?: string[];
  message: string | RegExp;
}

const header = 'item,model,score\n';

const cases: BadInput[] = [
  { name: 'missing required column', file: 'nocol.csv', content: 'item,model\nx,a\n', message: /nocol\.csv:1: missing required column "score".*\(got "item,model"\)/ },
  { name: 'score "n/a"', file: 'na.csv', content: `${header}x,a,1\nx,b,n/a\n`, message: 'na.csv:3: score must be a finite number (got "n/a")' },
  { name: 'score NaN', file: 'nan.csv', content: `${header}x,a,NaN\n`, message: 'nan.csv:2: score must be a finite number (got "NaN")' },
  { name: 'score Infinity', file: 'inf.csv', content: `${header}x,a,Infinity\n`, message: 'inf.csv:2: score must be a finite number (got "Infinity")' },
  { name: 'score empty', file: 'empty.csv', content: `${header}x,a,\n`, message: 'empty.csv:2: score must be a finite number (got "")' },
  { name: 'JSONL score null', file: 'null.jsonl', content: '{"item":"x","model":"a","score":1}\n{"item":"x","model":"b","score":null}\n', message: 'null.jsonl:2: score must be a finite number (got null)' },
  { name: 'duplicate (item, model)', file: 'dup.csv', content: `${header}x,a,1\nx,b,0\nx,a,0\n`, message: /dup\.csv:4: duplicate row for item "x" and model "a" \(first on line 2\)/ },
  { name: 'duplicate (item, model, repeat)', file: 'duprep.csv', content: 'item,model,score,repeat\nx,a,1,0\nx,a,0,1\nx,a,1,1\n', message: /duprep\.csv:4: duplicate row for item "x", model "a", repeat 1 \(first on line 3\)/ },
  { name: 'unknown outcome kind', file: 'outcome.csv', content: 'item,model,outcome\nx,a,hit\nx,b,maybe\n', message: /outcome\.csv:3: outcome must be one of hit, miss, .* \(got "maybe"\)/ },
  { name: 'stratum differs between models', file: 'stratum.csv', content: 'item,model,score,stratum\nx,a,1,routine\nx,b,0,rare\n', message: /stratum\.csv:3: item "x" has stratum "routine" on line 2 but a different stratum here \(got "rare"\)/ },
  { name: 'bad repeat', file: 'rep.csv', content: 'item,model,score,repeat\nx,a,1,first\n', message: 'rep.csv:2: repeat must be a whole number ≥ 0 (got "first")' },
  { name: 'empty item id', file: 'id.csv', content: `${header},a,1\n`, message: 'id.csv:2: item must be a non-empty string (got "")' },
  { name: 'row with too many fields', file: 'fields.csv', content: `${header}x,a,1,extra\n`, message: 'fields.csv:2: expected 3 fields as in the header, found 4 (got "x,a,1,extra")' },
  { name: 'malformed JSONL line', file: 'bad.jsonl', content: '{"item":"x","model":"a","score":1}\n{"item":"x",\n', message: /bad\.jsonl:2: not valid JSON/ },
  { name: 'unknown table extension', file: 'scores.txt', content: 'x', args: ['--kind', 'scores'], message: 'scores.txt: unknown table format: use a .csv or .jsonl file (got ".txt")' },
  {
    name: 'unpaired items (count and first ids)',
    file: 'unpaired.csv',
    content: `${header}x,a,1\nx,b,0\ny,a,1\nz,a,0\n`,
    args: ['--a', 'a', '--b', 'b'],
    message: 'unpaired.csv: 2 items are not scored by both "a" and "b": "y", "z"; pass --drop-unpaired to leave them out',
  },
  {
    name: 'a large file with one malformed line at its end',
    file: 'large.csv',
    content: () => {
      const rows = [header.trimEnd()];
      for (let i = 0; i < 100_000; i++) rows.push(`i${i},a,${i % 2}`);
      rows.push('i-last,a,oops');
      return `${rows.join('\n')}\n`;
    },
    message: 'large.csv:100002: score must be a finite number (got "oops")',
  },
  { name: 'traffic shares not summing to 1', file: 'traffic.yaml', content: 'strata:\n  a: { traffic: 0.5 }\n  b: { traffic: 0.47 }\n', message: 'traffic.yaml:1: strata: traffic shares must sum to 1 (got 0.97)' },
  { name: 'unknown key in the strata file (strict)', file: 'typo.yaml', content: 'strata:\n  a: { traffic: 1 }\n  b:\n    trafic: 0\n', message: /typo\.yaml:4: strata\.b: unknown key .*\(got "trafic"\)/ },
  { name: 'traffic out of range', file: 'range.yaml', content: 'strata:\n  a:\n    traffic: 1.5\n', message: /range\.yaml:3: strata\.a\.traffic: .*(got 1\.5)/ },
  { name: 'unknown key in the policy (strict)', file: 'policy.yaml', content: 'owner: Risk\ndecided: 2026-10-01\ncosts: { hit: 0, miss: 1 }\nsweeep: {}\n', message: /policy\.yaml:4: unknown key .*\(got "sweeep"\)/ },
  { name: 'unknown outcome kind in policy costs', file: 'pcost.yaml', content: 'owner: Risk\ndecided: 2026-10-01\ncosts: { hit: 0, blunder: 3 }\n', message: /pcost\.yaml:3: costs/ },
  { name: 'policy decided on a day that does not exist', file: 'feb30.yaml', content: 'owner: Risk\ndecided: 2026-02-30\ncosts: { miss: 1 }\n', message: 'feb30.yaml:2: decided: must be a real calendar date (got "2026-02-30")' },
  { name: 'policy band upside down', file: 'band.yaml', content: 'owner: Risk\ndecided: 2026-10-01\ncosts: { miss: 1, fabrication: 8 }\nsweep: { vary: fabrication, band: [20, 4] }\n', message: /band\.yaml:4: sweep\.band: band must be \[low, high\] with low < high/ },
  {
    name: 'a YAML alias bomb (refused, not expanded)',
    file: 'bomb.yaml',
    content: ['a: &a ["x","x","x","x","x","x","x","x","x"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]', 'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]', 'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]', 'strata: [*g,*g,*g,*g,*g,*g,*g,*g,*g]'].join('\n'),
    args: ['--kind', 'strata'],
    message: /bomb\.yaml: refused: .*aliases/,
  },
  { name: 'a YAML key given twice', file: 'dupkey.yaml', content: 'strata:\n  a: { traffic: 0.5 }\n  a: { traffic: 0.5 }\n', message: 'dupkey.yaml:3: invalid YAML: a mapping names the same key twice (got "a")' },
  {
    name: 'a strata file over 1 MiB (refused before parsing)',
    file: 'huge.yaml',
    content: () => `strata:\n${Array.from({ length: 40_000 }, (_, k) => `  stratum_${k}: { traffic: 0.000025 }`).join('\n')}\n`,
    args: ['--kind', 'strata'],
    message: /huge\.yaml: is too large for this kind of file \(\d+ bytes; limit 1048576\)/,
  },
  { name: 'invalid YAML', file: 'syntax.yaml', content: 'strata:\n  a: { traffic: 1\n', args: ['--kind', 'strata'], message: /syntax\.yaml:\d+: invalid YAML/ },
  {
    name: 'JSONL annotations whose columns change between rows',
    file: 'ann-cols.jsonl',
    content: '{"item":"x","annotator":"ana","label":"yes"}\n{"item":"x","annotator":"ben","label":"no","type":"indemnity"}\n',
    args: ['--kind', 'annotations'],
    message: 'ann-cols.jsonl:2: "type" appears here but not on line 1',
  },
  {
    name: 'JSONL annotations without labels',
    file: 'ann-nolabel.jsonl',
    content: '{"item":"x","annotator":"ana"}\n',
    args: ['--kind', 'annotations'],
    message: 'ann-nolabel.jsonl:1: each row needs a "label" (or "start" and "end" for spans) (got "item,annotator")',
  },
  { name: 'duplicate annotation', file: 'ann.csv', content: 'item,annotator,label\nx,ana,yes\nx,ana,no\n', message: 'ann.csv:3: annotator "ana" labels item "x" twice (first on line 2) (got "x")' },
  { name: 'manifest path escaping its folder', file: 'manifest.yaml', content: 'items:\n  - { item: a, stratum: s, split: eval, path: ../../etc/passwd }\n', message: /manifest\.yaml:2: path must be a file inside the manifest's folder \(got "\.\.\/\.\.\/etc\/passwd"\)/ },
  { name: 'manifest split unknown', file: 'split.yaml', content: 'items:\n  - { item: a, stratum: s, split: test, text: hi }\n', message: /split\.yaml:2: items\[0\]\.split: .*\(got "test"\)/ },
];

describe('bad input: a clear error naming file, line and value, exit 2, nothing on stdout', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const path = writeInput(dir, c.file, typeof c.content === 'function' ? c.content() : c.content);
      const { code, stdout, stderr } = await runCli(['validate', path, ...(c.args ?? [])]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.startsWith('error: ')).toBe(true);
      const message = stderr.replaceAll(`${dir}/`, '');
      if (typeof c.message === 'string') expect(message).toContain(c.message);
      else expect(message).toMatch(c.message);
    });
  }
});

describe('accepted inputs', () => {
  it('a UTF-8 BOM, CRLF and quoted fields with commas and newlines', async () => {
    const path = writeInput(dir, 'ok.csv', '\uFEFFitem,model,score\r\n"a, ""b""\r\nc",m1,1\r\n"a, ""b""\r\nc",m2,0\r\n');
    const { code, stdout } = await runCli(['validate', path, '--a', 'm1', '--b', 'm2', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.rows).toBe(2);
    expect(result.paired).toEqual({ a: 'm1', b: 'm2', items: 1, dropped: 0 });
  });

  it('--drop-unpaired drops the unpaired items and says how many', async () => {
    const path = writeInput(dir, 'drop.csv', `${header}x,a,1\nx,b,0\ny,a,1\nz,a,0\n`);
    const { code, stdout } = await runCli(['validate', path, '--a', 'a', '--b', 'b', '--drop-unpaired']);
    expect(code).toBe(0);
    expect(stdout).toContain('dropped 2 unpaired items (--drop-unpaired)');
  });

  it('every bundled example validates', async () => {
    for (const [file, kind] of [
      ['examples/pilot.csv', 'scores'],
      ['examples/scores.csv', 'scores'],
      ['examples/strata.yaml', 'strata'],
      ['examples/policy.yaml', 'policy'],
      ['examples/annotations.csv', 'annotations'],
      ['examples/manifest.yaml', 'manifest'],
      ['examples/incidents.jsonl', 'incidents'],
    ]) {
      const { code, stdout, stderr } = await runCli(['validate', file, '--kind', kind, '--json']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(stdout).kind).toBe(kind);
    }
  });
});
