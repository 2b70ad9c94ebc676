/**
 * SYNTHETIC example data for `benchplan sweep` (src/costs), beside the files generate.ts writes.
 * Run: npx tsx examples/generate-costs.ts   (after npm run examples, since it reads scores.csv)
 *
 *   scores-rescored.csv  the SAME outputs as scores.csv, scored a second time: the contested
 *                        absence calls read the other way (seeds/000 §3: a clause labelled absent
 *                        that a reviewer could call present) and a second judge on fuzzy span
 *                        matches (seeds/000 §6). For `sweep --alternative-scores`.
 *   costs-stable.csv     a benchmark whose ranking holds across the policy's band [4, 20]: the
 *                        counts are set exactly so the total-cost lines in the fabrication cost f
 *                        are steady 50 + 1f, eager 40 + 4f, cautious 120 + 1f (crossings at 10/3
 *                        and 80/3, both outside the band): verdict `data`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng, shuffle } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 'benchplan-examples-costs-v1';

function csv(header: string[], rows: Array<Array<string | number>>): string {
  return [header.join(','), ...rows.map((r) => r.join(','))].join('\n') + '\n';
}

// ---------------------------------------------------------------- scores-rescored.csv
// Contested slots are chosen per item (every model's outcome on the slot is re-read the same way):
// - 8 of the 100 absent slots are contested: read as present, a correct absence becomes a miss and
//   an invented value becomes a hit (the fee-as-advance call of seeds/000 §3). Contested calls are
//   where some model reported a value, so 5 of the 8 have a fabrication by some model.
// - the second judge reads 6% of span matches the other way: hit ↔ wrong_span.
function rescored(): string {
  const rng = createRng(SEED, 'rescored');
  const text = readFileSync(join(here, 'scores.csv'), 'utf8').trim().split('\n');
  const header = text[0].split(',');
  const rows = text.slice(1).map((line) => line.split(','));
  const col = (name: string) => header.indexOf(name);
  const [ITEM, STRATUM, OUTCOME, SCORE] = [col('item'), col('stratum'), col('outcome'), col('score')];
  // Contested calls are where the absence rule is arguable, which is where some model reported a
  // value: 5 slots with a fabrication by some model, 3 without.
  const absentItems = [...new Set(rows.filter((r) => r[STRATUM] === 'negative_control').map((r) => r[ITEM]))];
  const invented = new Set(rows.filter((r) => r[OUTCOME] === 'fabrication').map((r) => r[ITEM]));
  const contested = new Set([
    ...shuffle(absentItems.filter((item) => invented.has(item)), rng).slice(0, 5),
    ...shuffle(absentItems.filter((item) => !invented.has(item)), rng).slice(0, 3),
  ]);
  const presentItems = [...new Set(rows.filter((r) => r[STRATUM] !== 'negative_control').map((r) => r[ITEM]))];
  const judged = new Set(presentItems.filter(() => rng.nextFloat() < 0.06));
  const reread: Record<string, string> = { correct_absent: 'miss', fabrication: 'hit' };
  const rejudged: Record<string, string> = { hit: 'wrong_span', wrong_span: 'hit' };
  for (const row of rows) {
    const outcome = row[OUTCOME];
    let next = outcome;
    if (contested.has(row[ITEM])) next = reread[outcome] ?? outcome;
    else if (judged.has(row[ITEM])) next = rejudged[outcome] ?? outcome;
    row[OUTCOME] = next;
    row[SCORE] = next === 'hit' || next === 'correct_absent' ? '1' : '0';
  }
  return csv(header, rows);
}

// ---------------------------------------------------------------- costs-stable.csv
// 300 present slots and 100 absent slots in documents of 2–3 slots. Each model's outcome counts
// are fixed; which slots get which outcome is a seeded shuffle.
function stable(): string {
  const rng = createRng(SEED, 'stable');
  const present = 300;
  const absent = 100;
  // miss + 2 · wrong_span is the fixed part of the cost at miss 1, wrong_span 2.
  const targets: Record<string, { miss: number; wrong_span: number; fabrication: number }> = {
    steady: { miss: 36, wrong_span: 7, fabrication: 1 }, // 36 + 14 = 50, + 1f
    eager: { miss: 30, wrong_span: 5, fabrication: 4 }, // 30 + 10 = 40, + 4f
    cautious: { miss: 100, wrong_span: 10, fabrication: 1 }, // 100 + 20 = 120, + 1f
  };
  const slots: Array<{ item: string; cluster: string; stratum: string; present: boolean }> = [];
  let doc = 0;
  for (const [stratum, count, isPresent] of [
    ['rare_clause', present, true],
    ['negative_control', absent, false],
  ] as const) {
    let left = count;
    while (left > 0) {
      doc += 1;
      const n = Math.min(left, 2 + rng.nextInt(2));
      left -= n;
      const cluster = `doc${String(doc).padStart(3, '0')}`;
      for (let s = 1; s <= n; s++) slots.push({ item: `${cluster}-s${s}`, cluster, stratum, present: isPresent });
    }
  }
  const outcomes = new Map<string, string>();
  for (const [model, t] of Object.entries(targets)) {
    const presentSlots = shuffle(slots.filter((s) => s.present).map((s) => s.item), createRng(SEED, 'stable', model, 'present'));
    const absentSlots = shuffle(slots.filter((s) => !s.present).map((s) => s.item), createRng(SEED, 'stable', model, 'absent'));
    presentSlots.forEach((item, k) => outcomes.set(`${model}:${item}`, k < t.miss ? 'miss' : k < t.miss + t.wrong_span ? 'wrong_span' : 'hit'));
    absentSlots.forEach((item, k) => outcomes.set(`${model}:${item}`, k < t.fabrication ? 'fabrication' : 'correct_absent'));
  }
  const rows: Array<Array<string | number>> = [];
  for (const slot of slots) {
    for (const model of Object.keys(targets)) {
      const outcome = outcomes.get(`${model}:${slot.item}`) as string;
      rows.push([slot.item, model, slot.stratum, slot.cluster, outcome, outcome === 'hit' || outcome === 'correct_absent' ? 1 : 0]);
    }
  }
  return csv(['item', 'model', 'stratum', 'cluster', 'outcome', 'score'], rows);
}

const files: Record<string, string> = {
  'scores-rescored.csv': rescored(),
  'costs-stable.csv': stable(),
};
for (const [name, content] of Object.entries(files)) {
  writeFileSync(join(here, name), content);
  console.log(`wrote examples/${name}`);
}
