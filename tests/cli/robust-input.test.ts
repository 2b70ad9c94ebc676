/**
 * The bad-input table of issue 32: each case is refused with exit 2 and a message naming the file,
 * line or field and the value (never exit 70), and nothing is written or overwritten.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { ZipArchive } from '../../src/import/zip.js';
import { zip } from '../helpers/zip-writer.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signoff } from '../../src/decision/signoff.js';
import { freezeVersion } from '../../src/rotation/archive.js';
import { verifyArchive } from '../../src/rotation/verify.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { smallBenchmark } from '../rotation/helpers.js';

const dir = tempDir();

/** A promptfoo file whose one test's vars nest `depth` objects deep. */
function deepPromptfoo(depth: number): string {
  const path = join(dir, 'deep.json');
  const doc = JSON.stringify({ results: { results: [{ testIdx: 0, vars: { x: 1 }, prompt: { label: 'p' }, provider: { id: 'm' }, success: true, score: 1 }] } });
  writeFileSync(path, doc.replace('{"x":1}', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
  return path;
}

interface Case {
  name: string;
  args: () => string[];
  message: string | RegExp;
}

/** An Inspect log with a second summaries.json appended (other scores): which one a reader takes is ambiguous. */
function twoSummaries(): string {
  const archive = ZipArchive.open('tests/fixtures/import/inspect/run-b.eval');
  const entries = archive.entries.map((e) => ({ name: e.name, data: archive.read(e), method: 8 as const }));
  const summaries = entries.find((e) => e.name === 'summaries.json');
  if (summaries === undefined) throw new Error('fixture without summaries.json');
  const forged = Buffer.from(Buffer.from(summaries.data).toString('utf8').replace(/"value":\s*"C"/g, '"value": "I"'));
  const path = join(dir, 'two-summaries.eval');
  writeFileSync(path, zip([...entries, { name: 'summaries.json', data: forged, method: 8 }]));
  return path;
}

/** A copy of a CSV example with one row's model spelled with a zero-width space after it. */
function zeroWidthModel(example: string, model: string): string {
  const lines = readFileSync(example, 'utf8').split('\n');
  const k = lines.findIndex((l, i) => i > 0 && l.split(',')[1] === model);
  const cells = (lines[k] as string).split(',');
  cells[1] = `${model}\u200b`;
  lines[k] = cells.join(',');
  const path = join(dir, `zw-${example.replace(/\W/g, '-')}.csv`);
  writeFileSync(path, lines.join('\n'));
  return path;
}

/** Only regular files are read back to check they are unchanged (reading a FIFO would wait for a writer). */
function isRegular(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const cases: Case[] = [
  {
    name: 'an Inspect .eval with two summaries.json entries',
    args: () => ['import', 'inspect', twoSummaries(), '-o', join(dir, 'two.csv')],
    message: /^error: .*two-summaries\.eval: summaries\.json: has 2 entries named summaries\.json: a log written once has one; which to read is ambiguous .* \(got "summaries\.json"\)$/,
  },
  {
    name: 'model names that differ by a zero-width space (scores)',
    args: () => ['compare', zeroWidthModel('examples/scores.csv', 'beta')],
    message: /^error: .*zw-examples-scores-csv\.csv:\d+: model: "beta\\u200b" and "beta" differ only by an invisible character \(U\+200B\).*\(got "beta\\u200b"\)$/,
  },
  {
    name: 'model names that differ by a zero-width space (pool)',
    args: () => ['select', zeroWidthModel('examples/pool.csv', 'beta'), '--budget', '10', '-o', join(dir, 'zw-list.csv')],
    message: /^error: .*zw-examples-pool-csv\.csv:\d+: model: "beta\\u200b" and "beta" differ only by an invisible character \(U\+200B\)/,
  },
  {
    name: 'model names that differ by a zero-width space (judge labels)',
    args: () => ['judge', zeroWidthModel('examples/judge-labels.csv', 'beta')],
    message: /^error: .*zw-examples-judge-labels-csv\.csv:\d+: model: "beta\\u200b" and "beta" differ only by an invisible character \(U\+200B\)/,
  },
  {
    name: 'a folder given as signoff --review',
    args: () => {
      const archive = join(tempDir(), 'archive');
      freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
      const list = join(dir, 'list-r.json');
      writeFileSync(list, JSON.stringify({ best: 'alpha', finalists: ['alpha'] }));
      mkdirSync(join(dir, 'folder.csv'), { recursive: true });
      return ['signoff', '--archive', archive, '--id', 'x', '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', list, '--review', join(dir, 'folder.csv')];
    },
    message: /^error: .*folder\.csv: not a regular file \(got directory\)$/,
  },
  {
    name: 'a FIFO given as signoff --review (refused, not waited on)',
    args: () => {
      const archive = join(tempDir(), 'archive');
      freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
      const list = join(dir, 'list-f.json');
      writeFileSync(list, JSON.stringify({ best: 'alpha', finalists: ['alpha'] }));
      try {
        execFileSync('mkfifo', [join(dir, 'pipe.html')]);
      } catch {
        // made by an earlier run of this case
      }
      return ['signoff', '--archive', archive, '--id', 'x', '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', list, '--review', join(dir, 'pipe.html')];
    },
    message: /^error: .*pipe\.html: not a regular file \(got fifo\)$/,
  },
  {
    name: 'a stratum named __proto__ (a mapping would drop it)',
    args: () => {
      writeFileSync(join(dir, 'proto.yaml'), 'strata:\n  __proto__: { traffic: 0.5, quota: 0.5 }\n  routine: { traffic: 0.5, quota: 0.5 }\n');
      return ['validate', join(dir, 'proto.yaml')];
    },
    message: /^error: .*proto\.yaml:2: a key may not be named __proto__ \(it cannot be read as data\) \(got "__proto__"\)$/,
  },
  {
    name: 'a custom YAML tag',
    args: () => {
      writeFileSync(join(dir, 'tag.yaml'), 'strata:\n  routine: !include other.yaml\n');
      return ['validate', join(dir, 'tag.yaml')];
    },
    message: /^error: .*tag\.yaml:2: invalid YAML: Unresolved tag: !include$/,
  },
  {
    name: 'an empty scores file',
    args: () => {
      writeFileSync(join(dir, 'empty.csv'), '');
      return ['compare', join(dir, 'empty.csv')];
    },
    message: /^error: .*empty\.csv: is not a file benchplan reads: it is empty \(0 bytes\);/,
  },
  {
    name: 'a scores file with NUL bytes',
    args: () => {
      writeFileSync(join(dir, 'nul.csv'), 'item,model,score\n\u0000\n');
      return ['compare', join(dir, 'nul.csv')];
    },
    message: /^error: .*nul\.csv:2: expected 3 fields as in the header, found 1 \(got "\\u0000"\)$/,
  },
  {
    name: 'a binary file as scores',
    args: () => {
      writeFileSync(join(dir, 'binary.csv'), Buffer.from([0x00, 0x01, 0x02, 0x00]));
      return ['compare', join(dir, 'binary.csv')];
    },
    message: /^error: .*binary\.csv: is not a file benchplan reads: it is binary \(it holds NUL bytes\), not text;/,
  },
  {
    name: 'a scores file that is not UTF-8',
    args: () => {
      writeFileSync(join(dir, 'latin.csv'), Buffer.from([0xff, 0xfe, 0x61, 0x62]));
      return ['compare', join(dir, 'latin.csv')];
    },
    message: /^error: .*latin\.csv: is not a file benchplan reads: it is not valid UTF-8 text;/,
  },
  {
    // The bundled Inspect logs have 2 epochs a sample: at_least_3 would score every sample 0, pass_at_3 leave all unscored.
    name: '--epoch-reducer asking for more epochs than the logs have',
    args: () => ['compare', 'examples/tools/inspect/run-a.eval', 'examples/tools/inspect/run-b.eval', '--epoch-reducer', 'at_least_3'],
    message: 'error: --epoch-reducer: needs at least 3 epochs of a sample, but these logs have at most 2: every sample would score 0 (got "at_least_3")',
  },
  {
    name: 'select -o naming the pool',
    args: () => {
      const pool = join(dir, 'pool.csv');
      copyFileSync('examples/pool.csv', pool);
      return ['select', pool, '--budget', '20', '-o', pool];
    },
    message: /^error: --output: would overwrite its own input POOL \(.*pool\.csv\); write the output elsewhere \(got ".*pool\.csv"\)$/,
  },
  {
    name: 'select --design naming the pool',
    args: () => {
      const pool = join(dir, 'pool2.csv');
      copyFileSync('examples/pool.csv', pool);
      return ['select', pool, '--budget', '20', '-o', join(dir, 'list.csv'), '--design', pool];
    },
    message: /^error: --design: would overwrite its own input POOL/,
  },
  {
    name: 'import -o naming its input',
    args: () => {
      // promptfoo writes JSONL results too; -o takes .csv or .jsonl, so this is the overwrite a user can type.
      const input = join(dir, 'main.jsonl');
      copyFileSync('examples/promptfoo/main.json', input);
      return ['import', 'promptfoo', input, '-o', input];
    },
    message: /^error: --output: would overwrite its own input FILES \(.*main\.jsonl\)/,
  },
  {
    name: 'review -o X --csv X',
    args: () => ['review', 'examples/rotation/scores-2026Q3.csv', '--model', 'alpha', '--model', 'beta', '--strata', 'examples/strata.yaml', '-o', join(dir, 'same.out'), '--csv', join(dir, 'same.out')],
    message: /^error: --csv: is the same file as --output \(.*same\.out\): one output would replace the other; give two different files/,
  },
  {
    name: 'review -o naming the strata file',
    args: () => {
      const strata = join(dir, 'strata.yaml');
      copyFileSync('examples/strata.yaml', strata);
      return ['review', 'examples/rotation/scores-2026Q3.csv', '--model', 'alpha', '--model', 'beta', '--strata', strata, '-o', strata];
    },
    message: /^error: --output: would overwrite its own input --strata/,
  },
  {
    name: '--score-range -1e308,1e308 (monitor)',
    args: () => ['monitor', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--score-range=-1e308,1e308'],
    message: 'error: --score-range: is too wide: differences of paired scores span HIGH − LOW = Infinity',
  },
  {
    name: '--score-range -1e308,1e308 (gate --sequential)',
    args: () => ['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.01', '--sequential', '--state', join(dir, 'state.json'), '--score-range=-1e308,1e308'],
    message: 'error: --score-range: is too wide',
  },
  {
    name: '--score-range -1e308,1e308 (compare)',
    args: () => ['compare', 'examples/scores.csv', '--score-range=-1e308,1e308'],
    message: 'error: --score-range: is too wide',
  },
  {
    name: 'history --strata lacking a stratum of the run',
    args: () => {
      const strata = join(dir, 'two-strata.yaml');
      writeFileSync(strata, 'strata:\n  routine: { traffic: 0.8 }\n  rare_clause: { traffic: 0.2 }\n');
      return ['history', '--run', '2026-11-02=examples/scores.csv', '--run', '2026-11-09=examples/scores.csv', '--strata', strata];
    },
    message: /^error: examples\/scores\.csv:\d+: stratum "past_failure" has no traffic share in the strata file \(routine, rare_clause\): add it there, or drop its rows \(got "past_failure"\)$/,
  },
  {
    name: 'a promptfoo file whose vars nest 200,000 deep',
    args: () => ['import', 'promptfoo', deepPromptfoo(200_000), '--item-key', 'vars', '-o', join(dir, 'deep.csv')],
    message: /^error: .*deep\.json: results\.results\[0\]\.vars: nests deeper than 1000 levels/,
  },
  {
    name: 'a reviewer name with a newline (review)',
    args: () => ['review', 'examples/rotation/scores-2026Q3.csv', '--model', 'alpha', '--model', 'beta', '--strata', 'examples/strata.yaml', '--reviewer', 'R. Ahmed\nsigned: CEO', '-o', join(dir, 'r.html')],
    message: 'error: --reviewer: must be a plain name on one line: no newline, control character (ANSI escape), zero-width or direction character (got "R. Ahmed\\nsigned: CEO")',
  },
  {
    name: 'a reviewer name with an ANSI escape (signoff)',
    args: () => {
      const archive = join(tempDir(), 'archive');
      freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
      const list = join(dir, 'list.json');
      writeFileSync(list, JSON.stringify({ best: 'alpha', finalists: ['alpha'] }));
      return ['signoff', '--archive', archive, '--id', 'x', '--reviewer', 'R. \u001b[2JAhmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', list];
    },
    message: /^error: --reviewer: must be a plain name on one line/,
  },
  {
    name: 'an lm-eval JSONL file over the size cap: no advice to use JSONL',
    args: () => {
      // A sparse file: its size is refused from fstat, before a byte is read (no disk used).
      const path = join(dir, 'samples_t_2026-01-01T00-00-00.jsonl');
      writeFileSync(path, '');
      truncateSync(path, 600 * 1024 * 1024);
      return ['import', 'lm-eval', path, '--model', 'm', '-o', join(dir, 'big.csv')];
    },
    message: /^error: .*samples_t_2026-01-01T00-00-00\.jsonl: is 629145600 bytes, over the 536870912-byte limit for one imported file; split it into several files/,
  },
];

describe('issue 32 bad inputs: exit 2, a message naming the file or flag and the value, nothing overwritten', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const args = c.args();
      const inputs = args.filter((a) => a.startsWith(dir) && !/samples_t_/.test(a) && isRegular(a)).map((a) => [a, (() => { try { return readFileSync(a, 'utf8'); } catch { return null; } })()] as const);
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      const message = r.stderr.trim().split('\n')[0] as string;
      if (typeof c.message === 'string') expect(message).toContain(c.message);
      else expect(message).toMatch(c.message);
      // Every file the command was given is as it was.
      for (const [path, before] of inputs) {
        let now: string | null = null;
        try {
          now = readFileSync(path, 'utf8');
        } catch {
          now = null;
        }
        expect(now, path).toBe(before);
      }
    });
  }
});

describe('duplicate JSON keys in the archive: a forged first value does not pass verify', () => {
  it('a version record with a key named twice is a problem naming the key', () => {
    const archive = join(tempDir(), 'archive');
    freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
    const path = join(archive, 'versions', 'v1.json');
    const text = readFileSync(path, 'utf8');
    chmodSync(path, 0o644);
    // JSON.parse keeps the last value: the forged first one would be invisible to a digest check.
    writeFileSync(path, text.replace('"date": "2026-07-01"', '"date": "2020-01-01", "date": "2026-07-01"'));
    const v = verifyArchive(archive);
    expect(v.ok).toBe(false);
    expect(v.problems).toContainEqual(expect.objectContaining({ path: 'versions/v1.json', detail: expect.stringContaining('an object names the same key twice (JSON keys must be unique) (got "date")') }));
  });

  it('a sign-off with a key named twice is a problem naming the key', () => {
    const archive = join(tempDir(), 'archive');
    freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
    signoff(archive, { id: 'pick', reviewer: 'R. Ahmed', date: '2026-11-30', chosen: 'alpha', finalists: ['alpha', 'beta'], evidence: [] });
    const path = join(archive, 'signoffs', 'pick.json');
    const text = readFileSync(path, 'utf8');
    chmodSync(path, 0o644);
    writeFileSync(path, text.replace('"chosen": "alpha"', '"chosen": "beta", "chosen": "alpha"'));
    const v = verifyArchive(archive);
    expect(v.ok).toBe(false);
    expect(v.problems).toContainEqual(expect.objectContaining({ path: 'signoffs/pick.json', detail: expect.stringContaining('names the same key twice') }));
  });
});
