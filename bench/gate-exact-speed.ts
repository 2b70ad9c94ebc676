// The 0/1 gate's items-needed search before and after issues 29/33's speed-up, as a ratio in one process:
// the slow search (tests/gate/reference/slow-exact.ts, the code at commit f68b830) and the fast one
// (src/gate/gate.ts itemsNeededExact, asking exactScoreRejects) on the same tables, in alternation
// (slow, fast, slow, fast, …), median of each; their answers are checked equal on the way. Never a
// timed test. Usage: npx tsx bench/gate-exact-speed.ts [--reps 5]
import { loadavg } from 'node:os';
import { itemsNeededExact } from '../src/gate/gate.js';
import { exactScoreNonInferiority } from '../src/paired/exact-score.js';
import { pairedItemsNeeded, type PairedCounts } from '../src/paired/paired-proportion.js';
import { slowExactScoreNonInferiority, slowItemsNeededExact } from '../tests/gate/reference/slow-exact.js';

const k = process.argv.indexOf('--reps');
const reps = k >= 0 ? Number(process.argv[k + 1]) : 5;
const tables: Array<[string, PairedCounts]> = [
  ['n = 50, 5 only-A / 4 only-B (peers gate cell, truth 0)', { both: 30, onlyA: 3, onlyB: 2, neither: 15 }],
  ['n = 50, 10% / 8%', { both: 30, onlyA: 5, onlyB: 4, neither: 11 }],
  ['n = 100, 10% / 8% (speed.mjs 0/1 n = 100)', { both: 60, onlyA: 10, onlyB: 8, neither: 22 }],
  ['n = 200, 5% / 5%', { both: 120, onlyA: 10, onlyB: 10, neither: 60 }],
];
const ms = (f: () => unknown): number => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`load ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${reps} alternations; median ms`);
console.log('| table | search start → items needed | slow search | fast search | fast / slow | full exact test at n |');
console.log('|---|---|---|---|---|---|');
for (const [label, counts] of tables) {
  const start = pairedItemsNeeded(counts, -0.05, { method: 'tango', confidenceLevel: 0.95 }) ?? 0;
  const slow: number[] = [];
  const fast: number[] = [];
  let answer: number | null = null;
  for (let r = 0; r < reps; r++) {
    slow.push(ms(() => (answer = slowItemsNeededExact(counts, -0.05, 0.05, start))));
    fast.push(ms(() => {
      if (itemsNeededExact(counts, -0.05, 0.05, start) !== answer) throw new Error(`${label}: the fast search disagrees`);
    }));
  }
  const full = median(Array.from({ length: reps }, () => ms(() => exactScoreNonInferiority(counts, -0.05))));
  if (exactScoreNonInferiority(counts, -0.05).pValue !== slowExactScoreNonInferiority(counts, -0.05).pValue) throw new Error('p differs');
  console.log(`| ${label} | ${start} → ${answer} | ${median(slow).toFixed(1)} | ${median(fast).toFixed(1)} | ${(median(fast) / median(slow)).toFixed(2)} | ${full.toFixed(1)} |`);
}
