/**
 * Generates the bundled judge-validation table for `benchplan judge`. SYNTHETIC: made-up items,
 * human labels and an LLM judge's 0/1 verdicts from a seeded generator, so
 * `npx tsx examples/generate-judge.ts` regenerates the same bytes.
 *
 *   judge-labels.csv   240 items × 3 candidates (alpha, beta, gamma): item, model, stratum
 *                      (routine / rare_clause), length (output tokens), position (1 or 2: the
 *                      output's slot in the judge's prompt), judge (the judge's 0/1 verdict),
 *                      score (the human label on a uniformly random 90 items, empty on the rest),
 *                      rerun (the verdict of an updated judge on 30 anchor items, empty elsewhere).
 *
 * What is planted: the judge is from gamma's model family and says "correct" to a wrong gamma
 * output 30% more often than to the others' (self-preference); each extra 100 tokens of output
 * raises its chance of saying "correct" to a wrong answer by about 4 points (length bias);
 * position has no effect. Sensitivity ≈ 0.92, specificity ≈ 0.85 for alpha and beta.
 * The updated judge flips about 7% of anchor verdicts.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { csvLine } from '../src/data/csv-text.js';
import { createRng } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const rng = createRng('benchplan-examples-judge-v1');
const N = 240;
const LABELLED = 120;
const ANCHORS = 30;
const MODELS = [
  { name: 'alpha', accuracy: { routine: 0.85, rare_clause: 0.6 } },
  { name: 'beta', accuracy: { routine: 0.8, rare_clause: 0.55 } },
  { name: 'gamma', accuracy: { routine: 0.78, rare_clause: 0.5 } },
] as const;

const pick = (k: number, n: number): Set<number> => {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return new Set(order.slice(0, k));
};
const labelled = pick(LABELLED, N);
const anchors = pick(ANCHORS, N);
const lines = [csvLine(['item', 'model', 'stratum', 'length', 'position', 'judge', 'score', 'rerun'])];
for (let i = 0; i < N; i++) {
  const item = `q${String(i + 1).padStart(3, '0')}`;
  const stratum = rng.nextFloat() < 0.7 ? 'routine' : 'rare_clause';
  const firstSlot = rng.nextFloat() < 0.5 ? 0 : 1;
  MODELS.forEach((m, k) => {
    const truth = rng.nextFloat() < m.accuracy[stratum] ? 1 : 0;
    const length = Math.round(120 + 380 * rng.nextFloat());
    const position = ((k + firstSlot) % 2) + 1;
    const falsePositive = 0.04 + 0.08 * ((length - 120) / 100) + (m.name === 'gamma' ? 0.45 : 0);
    const judge = truth === 1 ? (rng.nextFloat() < 0.92 ? 1 : 0) : rng.nextFloat() < falsePositive ? 1 : 0;
    const rerun = anchors.has(i) ? (rng.nextFloat() < 0.07 ? 1 - judge : judge) : '';
    lines.push(csvLine([item, m.name, stratum, length, position, judge, labelled.has(i) ? truth : '', rerun]));
  });
}
writeFileSync(join(here, 'judge-labels.csv'), `${lines.join('\n')}\n`);
