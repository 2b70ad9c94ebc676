// Synthetic paired 0/1 scores for the bench (SYNTHETIC: seeded, not real model outputs).
// A is right with probability 0.80, B with 0.75, and the two agree on most items, as two models
// on one benchmark do. Written as a scores CSV (for the CLI) and a JSON pair (for scipy).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {{ a: Float64Array, b: Float64Array }} */
export async function benchData(n) {
  const { createRng } = await import('../dist/random/index.js');
  const rng = createRng('bench', n);
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const shared = rng.nextFloat();
    a[i] = shared < 0.8 ? 1 : 0;
    b[i] = rng.nextFloat() < 0.85 ? (shared < 0.75 ? 1 : 0) : rng.nextFloat() < 0.75 ? 1 : 0;
  }
  return { a, b };
}

/** Writes `scores-N.csv` and `pair-N.json` into dir; returns their paths. */
export async function writeBenchFiles(dir, n) {
  const { a, b } = await benchData(n);
  const lines = ['item,model,score'];
  for (let i = 0; i < n; i++) lines.push(`i${i},A,${a[i]}`, `i${i},B,${b[i]}`);
  const csv = join(dir, `scores-${n}.csv`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const json = join(dir, `pair-${n}.json`);
  writeFileSync(json, JSON.stringify({ a: Array.from(a), b: Array.from(b) }));
  return { csv, json };
}
