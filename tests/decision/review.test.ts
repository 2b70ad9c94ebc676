import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScores, scoresFromRows } from '../../src/data/scores.js';
import { defaultReviewStrata, reviewSample } from '../../src/decision/review.js';
import { reviewCsv, reviewPageHtml } from '../../src/decision/review-page.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

const table = loadScores('examples/rotation/scores-2026Q3.csv');

describe('defaultReviewStrata', () => {
  it('picks the strata named like rare or negative, in file order', () => {
    expect(defaultReviewStrata(['routine', 'rare_clause', 'past_failure', 'negative_control'])).toEqual(['rare_clause', 'negative_control']);
    expect(defaultReviewStrata(['Negative-Controls', 'common'])).toEqual(['Negative-Controls']);
    expect(defaultReviewStrata(['routine'])).toEqual([]);
  });
});

describe('reviewSample', () => {
  const options = { finalists: ['alpha', 'beta'], strata: ['rare_clause', 'negative_control'], perStratum: 5 };

  it('draws perStratum distinct items of each stratum, the same for the same seed', () => {
    const a = reviewSample(table, options);
    expect(a.items).toHaveLength(10);
    expect(a.strata).toEqual([{ stratum: 'rare_clause', available: 20, drawn: 5 }, { stratum: 'negative_control', available: 20, drawn: 5 }]);
    for (const stratum of options.strata) {
      const ids = a.items.filter((x) => x.stratum === stratum).map((x) => x.item);
      expect(new Set(ids).size).toBe(5);
      for (const id of ids) expect(table.strata[table.itemStratum[table.items.indexOf(id)]]).toBe(stratum);
    }
    expect(reviewSample(table, options)).toEqual(a);
    expect(reviewSample(table, { ...options, seed: 1 }).digest).not.toBe(a.digest);
  });

  it("draws a stratum's items from its own stream: reviewing one stratum alone gives the same items", () => {
    const both = reviewSample(table, options).items.filter((x) => x.stratum === 'negative_control');
    const alone = reviewSample(table, { ...options, strata: ['negative_control'] }).items;
    expect(alone).toEqual(both);
  });

  it('includes every item with probability perStratum / N (uniform without replacement)', () => {
    // 2000 seeds, 5 of 20: inclusion 0.25, binomial SE sqrt(0.25 · 0.75 / 2000) = 0.0097; allow 4.5 SE.
    const counts = new Map<string, number>();
    const seeds = 2000;
    for (let s = 0; s < seeds; s++) for (const x of reviewSample(table, { ...options, strata: ['rare_clause'], seed: s }).items) counts.set(x.item, (counts.get(x.item) ?? 0) + 1);
    expect(counts.size).toBe(20);
    for (const n of counts.values()) expect(Math.abs(n / seeds - 0.25)).toBeLessThan(4.5 * 0.0097);
  });

  it('shows the text and gold label from the manifest, and each finalist score', () => {
    const items = new Map([['e041', { text: 'No indemnity clause here.', label: 'absent' }]]);
    const one = scoresFromRows([
      { item: 'e041', model: 'alpha', stratum: 'negative_control', score: 1, outcome: 'correct_absent' },
      { item: 'e041', model: 'beta', stratum: 'negative_control', score: 0, outcome: 'fabrication' },
    ]);
    const s = reviewSample(one, { finalists: ['alpha', 'beta'], strata: ['negative_control'], items });
    expect(s.items).toEqual([{ stratum: 'negative_control', item: 'e041', text: 'No indemnity clause here.', gold: 'absent', outputs: [{ model: 'alpha', score: 1, outcome: 'correct_absent' }, { model: 'beta', score: 0, outcome: 'fabrication' }] }]);
    expect(s.warnings).toEqual(['stratum "negative_control" has only 1 item every finalist scored: all of them are in the sample']);
  });

  it('escapes every input string on the page and writes the digest in every CSV row', () => {
    const hostile = scoresFromRows([
      { item: '<img src=x onerror=alert(1)>', model: 'alpha', stratum: 'rare', score: 1 },
      { item: '<img src=x onerror=alert(1)>', model: '"beta"', stratum: 'rare', score: 0 },
    ]);
    const s = reviewSample(hostile, { finalists: ['alpha', '"beta"'], strata: ['rare'], items: new Map([['<img src=x onerror=alert(1)>', { text: '<script>alert(1)</script>, "quoted"' }]]) });
    const html = reviewPageHtml(s);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const csv = reviewCsv(s);
    expect(csv.split('\n')[0]).toBe('sample_digest,stratum,item,gold,text,alpha_outcome,alpha_score,"""beta""_outcome","""beta""_score"');
    expect(csv.split('\n')[1]).toBe(`${s.digest},rare,<img src=x onerror=alert(1)>,,"<script>alert(1)</script>, ""quoted""",,1,,0`);
  });
});

describe('benchplan review', () => {
  it('writes the page and the CSV on the rare and negative strata of the strata file by default', async () => {
    const dir = tempDir('benchplan-review-');
    const page = join(dir, 'review.html');
    const csv = join(dir, 'review.csv');
    const run = await runCli(['review', 'examples/rotation/scores-2026Q3.csv', '--model', 'alpha', '--model', 'beta', '--strata', 'examples/strata.yaml', '--manifest', 'examples/manifest.yaml', '--per-stratum', '3', '-o', page, '--csv', csv, '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.strata.map((s: { stratum: string }) => s.stratum)).toEqual(['rare_clause', 'negative_control']);
    expect(doc.warnings).toEqual([]);
    expect(doc).toMatchObject({ scores: 'examples/rotation/scores-2026Q3.csv', strataFile: 'examples/strata.yaml', manifest: 'examples/manifest.yaml', shortlist: null, perStratum: 3, seed: '0' });
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    expect(rows).toHaveLength(7);
    expect(rows.slice(1).every((r) => r.startsWith(`${doc.digest},`))).toBe(true);
    // Gold labels come from the manifest: the negative controls are absent clauses.
    expect(doc.items.filter((x: { stratum: string }) => x.stratum === 'negative_control').map((x: { gold: string }) => x.gold)).toEqual(['absent', 'absent', 'absent']);
    expect(readFileSync(page, 'utf8')).toContain(doc.digest);
  });
  it('exits 2 without finalists or strata', async () => {
    const dir = tempDir('benchplan-review-');
    const noFinalists = await runCli(['review', 'examples/rotation/scores-2026Q3.csv', '--strata', 'examples/strata.yaml', '-o', join(dir, 'r.html')]);
    expect(noFinalists.code).toBe(2);
    expect(noFinalists.stderr).toMatch(/name the finalists/);
    const unknown = await runCli(['review', 'examples/rotation/scores-2026Q3.csv', '--model', 'alpha', '--strata-to-review', 'nope', '-o', join(dir, 'r.html')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/stratum "nope" is not in the scores/);
  });
});
