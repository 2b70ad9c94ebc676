import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adjudicationCsv, adjudicationList } from '../../src/agreement/index.js';
import { loadAnnotations } from '../../src/data/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';
import { psych, statsmodels } from './reference.js';

const dir = tempDir('benchplan-agree-');
const FAST = ['--resamples', '999'];

describe('benchplan agree', () => {
  it('prints the fields of the issue per type, checked against the references', async () => {
    const { code, stdout, stderr } = await runCli(['agree', 'examples/annotations.csv', '--json', ...FAST]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ source: 'examples/annotations.csv', annotators: ['ana', 'ben', 'chloe'], cohenPair: ['ana', 'ben'], threshold: 0.667, confidenceLevel: 0.95, nResamples: 999, seed: '0', adjudication: null });
    expect(report.types.map((t: { type: string }) => t.type)).toEqual(['payment_terms', 'indemnity', 'change_of_control']);
    for (const t of report.types) {
      for (const key of ['type', 'items', 'annotators', 'rawAgreement', 'cohenKappa', 'cohenKappaStandardError', 'fleissKappa', 'krippendorffAlpha', 'alphaInterval', 'belowThreshold', 'statement']) expect(t).toHaveProperty(key);
      expect(typeof t.krippendorffAlpha).toBe('number');
      expect(t.items).toBe(20);
      expect(t.annotators).toBe(3);
      expect(Math.abs(t.cohenKappa - statsmodels.cohen.examples[t.type].kappa)).toBeLessThan(1e-12);
      expect(Math.abs(t.cohenKappaStandardError - psych.examples[t.type].standardError)).toBeLessThan(1e-12);
      expect(Math.abs(t.fleissKappa - statsmodels.fleiss.examples[t.type].kappa)).toBeLessThan(1e-12);
      expect(Math.abs(t.krippendorffAlpha - statsmodels.krippendorff.examples[t.type].alpha)).toBeLessThan(1e-12);
      expect(Math.abs(t.rawAgreement - statsmodels.rawAgreement[t.type])).toBeLessThan(1e-12);
      expect(t.belowThreshold).toBe(t.krippendorffAlpha < 0.667);
      expect(t.alphaInterval).toHaveLength(2);
      expect(t.krippendorffAlphaLevels).toBeNull();
      expect(t.spans).toBeNull();
    }
    // Reference alphas 0.879, 0.597, 0.335: the last two are flagged.
    expect(report.flagged).toEqual(['indemnity', 'change_of_control']);
    expect(report.types[2].statement).toMatch(/^labels agree about 3 times in 5 \(58%\): a model difference of up to 42 points/);
  });

  it('is deterministic: the same inputs and seed give the same bytes; another seed moves only the interval', async () => {
    const a = await runCli(['agree', 'examples/annotations.csv', '--json', ...FAST, '--seed', '5']);
    const b = await runCli(['agree', 'examples/annotations.csv', '--json', ...FAST, '--seed', '5']);
    const c = await runCli(['agree', 'examples/annotations.csv', '--json', ...FAST, '--seed', '6']);
    expect(b.stdout).toBe(a.stdout);
    const [ra, rc] = [JSON.parse(a.stdout), JSON.parse(c.stdout)];
    expect(rc.types[1].alphaInterval).not.toEqual(ra.types[1].alphaInterval);
    expect(rc.types[1].krippendorffAlpha).toBe(ra.types[1].krippendorffAlpha);
  });

  it('--annotators picks the Cohen pair', async () => {
    const { stdout } = await runCli(['agree', 'examples/annotations.csv', '--json', ...FAST, '--annotators', 'chloe,ana']);
    const report = JSON.parse(stdout);
    expect(report.cohenPair).toEqual(['chloe', 'ana']);
    expect(report.types[0].cohenPair).toEqual(['chloe', 'ana']);
  });

  it('--adjudicate writes the disagreements as CSV for a third reader', async () => {
    const file = join(dir, 'out', 'adjudicate.csv');
    const { code, stdout } = await runCli(['agree', 'examples/annotations.csv', '--adjudicate', file, ...FAST]);
    expect(code).toBe(0);
    const written = readFileSync(file, 'utf8');
    expect(written).toBe(adjudicationCsv(adjudicationList(loadAnnotations('examples/annotations.csv'))));
    const lines = written.trim().split('\n');
    expect(lines[0]).toBe('type,item,ana,ben,chloe,adjudicated');
    expect(stdout).toContain(`Adjudication list: ${lines.length - 1} items with disagreeing labels written to ${file}`);
  });

  it('reads span tables: exact and overlap agreement per type', async () => {
    const { code, stdout } = await runCli(['agree', 'examples/spans.csv', '--json', ...FAST, '--span-overlap', '0.8']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.labelsFromSpans).toBe(true);
    expect(report.spanOverlapThreshold).toBe(0.8);
    for (const t of report.types) {
      expect(t.spans.overlapThreshold).toBe(0.8);
      // Exact match is the nominal label agreement of a span-only table.
      expect(t.spans.exactAgreement).toBeCloseTo(t.rawAgreement, 12);
      expect(t.spans.overlapAgreement).toBeGreaterThanOrEqual(t.spans.exactAgreement);
      expect(t.fleissKappa).toBeNull();
    }
    const text = await runCli(['agree', 'examples/spans.csv', ...FAST]);
    expect(text.stdout).toContain('Span agreement');
  });

  it('reports ordinal and interval alpha when labels are numbers', async () => {
    const rows = ['item,annotator,label', ...['1,1,1', '2,2,3', '3,3,3', '4,4,4', '5,4,5'].flatMap((v, i) => v.split(',').map((label, k) => `i${i},r${k},${label}`))];
    const file = writeInput(dir, 'numeric.csv', `${rows.join('\n')}\n`);
    const { code, stdout } = await runCli(['agree', file, '--json', ...FAST]);
    expect(code).toBe(0);
    const [t] = JSON.parse(stdout).types;
    expect(t.type).toBe('all');
    expect(t.krippendorffAlphaLevels.interval).toBeGreaterThan(t.krippendorffAlpha);
  });

  it('warns about a type with one item, and a type one annotator labelled', async () => {
    const file = writeInput(dir, 'small.csv', 'item,annotator,type,label\ni1,ana,a,x\ni1,ben,a,y\ni2,ana,b,x\ni2,ben,b,x\ni3,ana,b,y\ni3,ben,b,y\ni4,ana,c,x\ni5,ana,c,y\n');
    const { code, stdout } = await runCli(['agree', file, ...FAST]);
    expect(code).toBe(0);
    expect(stdout).toContain('warning: a: type "a" has only 1 item: too few to measure agreement');
    expect(stdout).toContain('warning: c: type "c" is labelled by one annotator only (ana): agreement cannot be measured');
    const json = JSON.parse((await runCli(['agree', file, '--json', ...FAST])).stdout);
    expect(json.types[2].krippendorffAlpha).toBeNull();
    expect(json.types[2].belowThreshold).toBe(true);
  });

  describe('bad input exits 2 with the file, field and value', () => {
    const single = writeInput(dir, 'single.csv', 'item,annotator,label\ni1,ana,x\ni2,ana,y\n');
    const nolabel = writeInput(dir, 'nolabel.csv', 'item,annotator\ni1,ana\n');
    const twice = writeInput(dir, 'twice.csv', 'item,annotator,label\ni1,ana,x\ni1,ana,y\n');
    const typeClash = writeInput(dir, 'types.csv', 'item,annotator,type,label\ni1,ana,a,x\ni1,ben,b,x\n');
    const badSpan = writeInput(dir, 'span.csv', 'item,annotator,start,end\ni1,ana,10,5\n');
    const named = writeInput(dir, 'named.csv', 'item,annotator,label\ni1,item,x\ni1,ben,y\n');
    const cases: Array<[string, string[], string]> = [
      ['one annotator', [single], `${single}: annotator: agreement needs labels from at least two annotators; this table has one (got "ana")`],
      ['no label column', [nolabel], `${nolabel}:1: missing required column "label"`],
      ['an item labelled twice', [twice], `${twice}:3: annotator "ana" labels item "i1" twice (first on line 2)`],
      ['an item with two types', [typeClash], `${typeClash}:3: item "i1" has type "a" on line 2 but a different type here (got "b")`],
      ['a span ending before it starts', [badSpan], `${badSpan}:2: end must be a whole number ≥ start (got "5")`],
      ['a missing file', [join(dir, 'nope.csv')], 'nope.csv'],
      ['--annotators with one name', ['examples/annotations.csv', '--annotators', 'ana'], '--annotators: must be two annotator names separated by a comma, e.g. ana,ben (got "ana")'],
      ['--annotators twice the same', ['examples/annotations.csv', '--annotators', 'ana,ana'], '--annotators: must name two different annotators (got "ana,ana")'],
      ['--annotators unknown', ['examples/annotations.csv', '--annotators', 'ana,zed'], '--annotators: annotator "zed" is not in examples/annotations.csv (annotators: ana, ben, chloe) (got "ana,zed")'],
      ['--threshold out of range', ['examples/annotations.csv', '--threshold', '2'], '--threshold: must be a number ≥ -1 and ≤ 1 (got "2")'],
      ['--threshold not a number', ['examples/annotations.csv', '--threshold', 'high'], '--threshold: must be a number'],
      ['--resamples zero', ['examples/annotations.csv', '--resamples', '0'], '--resamples: must be a whole number ≥ 1 (got "0")'],
      ['--confidence 1', ['examples/annotations.csv', '--confidence', '1'], '--confidence: must be a number > 0 and < 1 (got "1")'],
      ['--span-overlap 0', ['examples/annotations.csv', '--span-overlap', '0'], '--span-overlap: must be a number > 0 and ≤ 1 (got "0")'],
      ['an annotator named like a CSV column', [named, '--adjudicate', join(dir, 'adj.csv')], `${named}: annotator: an annotator named "item" would clash with a column of the adjudication CSV`],
    ];
    for (const [name, args, message] of cases) {
      it(name, async () => {
        const { code, stderr, stdout } = await runCli(['agree', ...args]);
        expect(stdout).toBe('');
        expect(code).toBe(2);
        expect(stderr).toContain('error: ');
        expect(stderr).toContain(message);
      });
    }
  });
});
