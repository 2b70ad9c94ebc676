import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../notebooks/05-fewer-labels.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-nb5-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let page = '';
let html = '';
beforeAll(async () => {
  html = readFileSync(await run(dir), 'utf8');
  page = html
    .replace(/<svg[\s\S]*?<\/svg>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}, 120_000);

/** CSV rows of a bundled file, header dropped. */
const rows = (path: string) => readFileSync(path, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
/** select's default equality: case and white space ignored. */
const normalise = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

describe('notebook 5: fewer labels', () => {
  it('labels every disagreement plus a 10% audit, and knows the pool mean exactly', () => {
    // the pool's counts: 23 + 24 + 6 = 53 disagreements; audit round(0.1 · 120) = 12
    expect(page).toMatch(/53 disagreements with certainty/);
    expect(page).toMatch(/65 items to label; 55 of the budget not needed/);
    expect(page).toMatch(/SE of the pool's own mean from subsampling: 0; audited agreeing items that scored differently: 0/);
    expect(page).toMatch(/PPI\+\+ \(judge \+ 100 humans\)/);
  });

  it('whole documents: the label cost against item sampling on the same 150-slot budget', () => {
    // Counted from the bundled files, not from the library: slots whose two outputs differ after
    // normalising, the documents they sit in, and the committed whole-document list.
    const pool = rows('examples/pool-docs.csv'); // item, model, stratum, cluster, output
    const byItem = new Map<string, { doc: string; out: string[] }>();
    for (const r of pool) {
      const e = byItem.get(r[0]) ?? { doc: r[3], out: [] };
      e.out.push(normalise(r.slice(4).join(',')));
      byItem.set(r[0], e);
    }
    const disagreeing = [...byItem.values()].filter((e) => e.out[0] !== e.out[1]);
    const docs = new Set([...byItem.values()].map((e) => e.doc)).size;
    const disagreeingDocs = new Set(disagreeing.map((e) => e.doc)).size;
    expect(page).toContain(`${byItem.size} slots in ${docs} documents; ${disagreeing.length} slots disagree, spread over ${disagreeingDocs} documents`);
    // item design: every disagreement (79 < the 135 left after the audit) plus round(0.1 · 150) = 15 audited
    expect(disagreeing.length).toBe(79);
    expect(page).toMatch(/^items one by one \(--sample-unit item\)\s+94\s+\d+\s+79\s+15$/m);
    // whole documents: the committed list examples/pool-docs-labelled.csv is that design's output
    const list = rows('examples/pool-docs-labelled.csv'); // item, model, output, score, stratum, cluster, …
    const slots = list.length / 2;
    const opened = new Set(list.map((r) => r[5])).size;
    const m = /^whole documents \(--sample-unit cluster\)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(page);
    expect(m?.slice(1, 3).map(Number)).toEqual([slots, opened]);
    expect(Number(m![3]) + Number(m![4])).toBe(slots);
    expect(html.match(/<figure class="chart"><svg/g)?.length).toBe(2);
  });

  it('the whole-document estimate is the one compare --design prints for the committed list', async () => {
    const sel = await runCli(['select', 'examples/pool-docs.csv', '--sample-unit', 'cluster', '--budget', '150', '-o', join(dir, 'docs.csv')]);
    expect(sel.code).toBe(0);
    const cli = JSON.parse((await runCli(['compare', 'examples/pool-docs-labelled.csv', '--design', join(dir, 'docs.design.json'), '--json'])).stdout);
    const m = /alpha − beta = (\S+), 95% interval \[(\S+), (\S+)\] \(t, (\d+) df\), SE (\S+)\n(\d+) documents labelled/.exec(page);
    expect(m).not.toBeNull();
    // printed to 3 significant digits
    expect(Number(m![1])).toBeCloseTo(cli.estimate, 3);
    expect(Number(m![2])).toBeCloseTo(cli.confidenceInterval[0], 3);
    expect(Number(m![3])).toBeCloseTo(cli.confidenceInterval[1], 3);
    expect(Number(m![4])).toBe(cli.degreesOfFreedom);
    expect(Number(m![6])).toBe(cli.nClusters);
  });

  it('the traffic-weighted headline: Σ traffic × stratum difference, and the one headline --design prints', async () => {
    const get = (name: string) => {
      const m = new RegExp(`^${name}\\s+(\\d+)%\\s+(\\d+)\\s+(\\d+)\\s+.*\\s(-?[\\d.]+) \\[(-?[\\d.]+), (-?[\\d.]+)\\]$`, 'm').exec(page);
      expect(m, name).not.toBeNull();
      return { traffic: Number(m![1]) / 100, pool: Number(m![2]), labelled: Number(m![3]), diff: Number(m![4]), low: Number(m![5]), high: Number(m![6]) };
    };
    const strata = ['routine', 'rare_clause', 'negative_control'].map(get);
    const head = get('headline');
    // examples/pool-strata.yaml: 75 / 5 / 20
    expect(strata.map((s) => s.traffic)).toEqual([0.75, 0.05, 0.2]);
    expect(strata.map((s) => s.pool)).toEqual([240, 100, 60]);
    expect(head.labelled).toBe(65);
    // 0.75 · 0.0375 + 0.05 · 0.03 + 0.2 · (−0.0667) = 0.01629; each printed to 3 digits, so within 5e-4
    expect(Math.abs(strata.reduce((s, x) => s + x.traffic * x.diff, 0) - head.diff)).toBeLessThan(5e-4);
    await runCli(['select', 'examples/pool.csv', '--budget', '120', '-o', join(dir, 'l.csv')]);
    const cli = JSON.parse((await runCli(['headline', 'examples/pool-labelled.csv', '--design', join(dir, 'l.design.json'), '--strata', 'examples/pool-strata.yaml', '--json'])).stdout);
    expect(head.diff).toBeCloseTo(cli.difference.estimate, 3);
    expect(head.low).toBeCloseTo(cli.difference.confidenceInterval[0], 3);
    expect(head.high).toBeCloseTo(cli.difference.confidenceInterval[1], 3);
    // the audited agreeing items each candidate's own headline rests on: round(0.1 · 120) = 12 = 6 + 3 + 3
    expect(page).toContain('6 of 217 in routine, 3 of 76 in rare_clause, 3 of 54 in negative_control');
  });

  it('is deterministic: a second run writes the same page', async () => {
    const again = mkdtempSync(join(tmpdir(), 'benchplan-nb5b-'));
    try {
      expect(readFileSync(await run(again), 'utf8')).toBe(html);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  }, 120_000);
});
