// Synthetic paired scores for the bench (SYNTHETIC: seeded, not real model outputs), in two kinds:
// - 'binary': 0/1 outcomes. A is right with probability 0.80, B with 0.75, and the two agree on most
//   items, as two models on one benchmark do. The differences take three values (−1, 0, 1): the
//   bootstrap's counts path.
// - 'normal': continuous scores, a shared item difficulty plus each model's own noise, so every
//   difference is distinct (K = n): the index path.
// Written as a scores CSV (for the CLI) and a JSON pair (for scipy).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The data kinds, in the order the bench runs them. */
export const DATA_KINDS = ['binary', 'normal'];

/** @returns {{ a: Float64Array, b: Float64Array }} */
export async function benchData(n, kind = 'binary') {
  const { createRng } = await import('../dist/random/index.js');
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  if (kind === 'binary') {
    const rng = createRng('bench', n);
    for (let i = 0; i < n; i++) {
      const shared = rng.nextFloat();
      a[i] = shared < 0.8 ? 1 : 0;
      b[i] = rng.nextFloat() < 0.85 ? (shared < 0.75 ? 1 : 0) : rng.nextFloat() < 0.75 ? 1 : 0;
    }
  } else if (kind === 'normal') {
    const rng = createRng('bench-normal', n);
    for (let i = 0; i < n; i++) {
      const difficulty = rng.nextNormal();
      a[i] = 0.62 + 0.15 * difficulty + 0.08 * rng.nextNormal();
      b[i] = 0.6 + 0.15 * difficulty + 0.08 * rng.nextNormal();
    }
  } else {
    throw new Error(`unknown bench data kind ${kind} (binary or normal)`);
  }
  return { a, b };
}

/** Writes `scores-KIND-N.csv` and `pair-KIND-N.json` into dir; returns their paths. */
export async function writeBenchFiles(dir, n, kind = 'binary') {
  const { a, b } = await benchData(n, kind);
  const lines = ['item,model,score'];
  for (let i = 0; i < n; i++) lines.push(`i${i},A,${a[i]}`, `i${i},B,${b[i]}`);
  const csv = join(dir, `scores-${kind}-${n}.csv`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const json = join(dir, `pair-${kind}-${n}.json`);
  writeFileSync(json, JSON.stringify({ a: Array.from(a), b: Array.from(b) }));
  return { csv, json };
}
