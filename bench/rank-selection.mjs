// The study registered in bench/rank-selection.txt: coverage of the naive and the selection-adjusted
// lower bound of "chosen − incumbent" when the chosen one is the best of 8. Run after `npm run build`:
//   node bench/rank-selection.mjs [runs]   (default 1000 per cell)
import { rankCandidates } from '../dist/decision/index.js';
import { createRng } from '../dist/random/index.js';

const runs = Number(process.argv[2] ?? 1000);
const cells = [
  { name: 'A 8 equal, n=200', n: 200, deltas: [0, 0, 0, 0, 0, 0, 0, 0] },
  { name: 'B one better (0.05), n=200', n: 200, deltas: [0.05, 0, 0, 0, 0, 0, 0, 0] },
  { name: 'C 8 equal, n=60', n: 60, deltas: [0, 0, 0, 0, 0, 0, 0, 0] },
];
const models = ['incumbent', ...cells[0].deltas.map((_, j) => `c${j + 1}`)];
const lines = ['cell | runs | naive coverage | adjusted coverage | mean naive bound | mean adjusted bound | null chosen & naive > 0 | null chosen & adjusted > 0'];
for (const cell of cells) {
  let naiveCover = 0;
  let adjustedCover = 0;
  let naiveSum = 0;
  let adjustedSum = 0;
  let naiveFalse = 0;
  let adjustedFalse = 0;
  let done = 0;
  for (let r = 0; r < runs; r++) {
    const rng = createRng(`rank-selection:${cell.name}:${r}`);
    const p = Array.from({ length: cell.n }, () => 0.4 + 0.55 * rng.nextFloat());
    const deltas = [0, ...cell.deltas];
    const scores = deltas.map((d) => p.map((pi) => (rng.nextFloat() < pi + d ? 1 : 0)));
    const result = rankCandidates(scores, { models, incumbent: 'incumbent', nResamples: 999, seed: `run${r}` });
    if (result.selection === null) continue; // the incumbent leads: nothing is chosen over it
    done += 1;
    const truth = deltas[models.indexOf(result.selection.chosen)];
    const { naiveLowerBound, adjustedLowerBound } = result.selection;
    if (naiveLowerBound <= truth) naiveCover += 1;
    if (adjustedLowerBound <= truth) adjustedCover += 1;
    naiveSum += naiveLowerBound;
    adjustedSum += adjustedLowerBound;
    if (truth === 0 && naiveLowerBound > 0) naiveFalse += 1;
    if (truth === 0 && adjustedLowerBound > 0) adjustedFalse += 1;
  }
  const f = (x) => (x / done).toFixed(3);
  lines.push(`${cell.name} | ${done} | ${f(naiveCover)} | ${f(adjustedCover)} | ${(naiveSum / done).toFixed(4)} | ${(adjustedSum / done).toFixed(4)} | ${f(naiveFalse)} | ${f(adjustedFalse)}`);
  console.error(lines.at(-1));
}
console.log(lines.join('\n'));
