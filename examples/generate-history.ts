/**
 * Generates the history example. All of it is SYNTHETIC: four weekly runs of one made-up system
 * ("prod") on the bundled benchmark, from a seeded generator, so
 * `npx tsx examples/generate-history.ts` regenerates the same bytes.
 *
 *   history/2026-11-02.csv   prod on the 80 eval items of 2026Q3 (examples/rotation/drift-before.csv's items)
 *   history/2026-11-09.csv   the same items, a prompt tweak: nothing real changed
 *   history/2026-11-16.csv   the vendor shipped a new model: rare clauses got worse
 *   history/2026-11-23.csv   the benchmark was rotated to 2026Q4 (drift-after.csv's items): a version boundary
 *   history/2026-11-23-rerun.csv   the same week's system re-run on the frozen 2026Q3 (history --rerun):
 *                            on the items both versions share it scores as 2026-11-23.csv does
 *
 * Item model: item i passes in week w when u_i + 0.05·e_iw < p_h(w), with u_i a uniform item
 * effect shared by every week (the item's difficulty), e_iw uniform on (−1, 1) the week's own
 * noise, and p_h(w) the stratum's pass rate: routine 0.95, rare_clause 0.75, past_failure 0.7,
 * negative_control 0.9, with rare_clause at 0.3 from the vendor release on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const RATE: Record<string, number> = { routine: 0.95, rare_clause: 0.75, past_failure: 0.7, negative_control: 0.9 };

function items(file: string): Array<{ item: string; stratum: string }> {
  return readFileSync(join(here, 'rotation', file), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .map(([item, , stratum]) => ({ item, stratum }));
}

const weeks = [
  { date: '2026-11-02', items: items('drift-before.csv'), vendorRelease: false, file: '2026-11-02.csv' },
  { date: '2026-11-09', items: items('drift-before.csv'), vendorRelease: false, file: '2026-11-09.csv' },
  { date: '2026-11-16', items: items('drift-before.csv'), vendorRelease: true, file: '2026-11-16.csv' },
  { date: '2026-11-23', items: items('drift-after.csv'), vendorRelease: true, file: '2026-11-23.csv' },
  { date: '2026-11-23', items: items('drift-before.csv'), vendorRelease: true, file: '2026-11-23-rerun.csv' },
];
for (const week of weeks) {
  const lines = ['item,model,stratum,score'];
  for (const { item, stratum } of week.items) {
    const u = createRng(0, 'history', 'item', item).nextFloat();
    const e = 2 * createRng(0, 'history', week.date, item).nextFloat() - 1;
    const p = week.vendorRelease && stratum === 'rare_clause' ? 0.3 : RATE[stratum];
    lines.push(`${item},prod,${stratum},${u + 0.05 * e < p ? 1 : 0}`);
  }
  writeFileSync(join(here, 'history', week.file), `${lines.join('\n')}\n`);
}
