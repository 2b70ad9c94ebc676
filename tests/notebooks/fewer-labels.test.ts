import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../notebooks/05-fewer-labels.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-nb5-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('notebook 5: fewer labels', () => {
  it('labels every disagreement plus a 10% audit, and knows the pool mean exactly', async () => {
    const page = readFileSync(await run(dir), 'utf8')
      .replace(/<svg[\s\S]*?<\/svg>/g, '')
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    // the pool's counts: 23 + 24 + 6 = 53 disagreements; audit round(0.1 · 120) = 12
    expect(page).toMatch(/53 disagreements with certainty/);
    expect(page).toMatch(/65 items to label; 55 of the budget not needed/);
    expect(page).toMatch(/SE of the pool's own mean from subsampling: 0; audited agreeing items that scored differently: 0/);
    expect(page).toMatch(/PPI\+\+ \(judge \+ 100 humans\)/);
  });
});
