// Amendment 6's table: variant V (calibrateJudge + batches of 5) against the registered loop and the fixed
// designs, per cell, on the fresh pools of the `tuned` blocks. Reads bench/label-loop-study.results.{tuned,
// tuned-base,tuned-boundary,tuned-real,real}.json; writes bench/label-loop-study.results.tuned-summary.txt.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const read = (b) => {
  const f = new URL(`./label-loop-study.results.${b}.json`, import.meta.url);
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')).rows : [];
};
const tuned = read('tuned');
const base = new Map(read('tuned-base').map((r) => [r.key, r]));
const lines = [
  'Amendment 6: variant V = calibrateJudge + batchSize 5, fresh pools (seed indices 1000..1059, 60 replicates),',
  'N = 2000, m = 0.05, 0/1 scores, agreement 0.8. "registered" = the loop with its defaults on the same pools.',
  'best = smallest of select n*, compare --judge n*, monitor mean labels (equal-error rule as registered).',
  '',
  'judge  θ/m  V labels      V false  registered labels  select ppi  monitor best             V ÷ best  registered ÷ best  V ÷ registered',
];
const f = (x, d = 3) => (x === undefined ? '–' : String(Number(x.toFixed(d))));
for (const r of tuned) {
  const b = base.get(r.key);
  const best = r.best === 'select' ? r.select : r.best === 'compare --judge' ? r.ppi : r.monitor;
  lines.push(
    [
      r.judge.padEnd(6),
      String(r.gap).padEnd(4),
      `${r.loopLabels}±${r.loopLabelsSe}`.padEnd(13),
      `${r.verdicts.pass}/${r.verdicts.fail}/${r.verdicts.inconclusive}`.padEnd(8),
      (b ? `${b.loopLabels}±${b.loopLabelsSe}` : '–').padEnd(18),
      String(r.select).padEnd(6),
      String(r.ppi).padEnd(4),
      String(r.monitor).padEnd(7),
      r.best.padEnd(16),
      f(r.ratio).padEnd(9),
      (b ? f(b.loopLabels / best) : '–').padEnd(18),
      b ? f(r.loopLabels / b.loopLabels) : '–',
    ].join(' '),
  );
}
lines.push('', 'Boundary cells (θ = −m; a pass is false):', 'judge  V labels      false          verdicts p/f/i');
for (const r of ['tuned-boundary', 'tuned-boundary2', 'tuned-boundary3', 'tuned-boundary3b', 'tuned-boundary4', 'tuned-boundary4b'].flatMap(read)) lines.push(`${r.judge.padEnd(6)} ${`${r.loopLabels}±${r.loopLabelsSe}`.padEnd(13)} ${`${r.falseRate.toFixed(3)}±${r.falseSe.toFixed(3)}`.padEnd(14)} ${r.verdicts.pass}/${r.verdicts.fail}/${r.verdicts.inconclusive}`);
const real = read('real');
const tr = ['tuned-real-1', 'tuned-real-2', 'tuned-real-3'].flatMap(read);
if (tr.length) {
  lines.push('', 'Real pools (V, loop seeds 1000..1059; comparators from the registered real block, same pools):', 'pool                          V labels      V false  registered labels  best (n)               V ÷ best');
  for (const r of tr) {
    const q = real.find((x) => x.name === r.name);
    const best = q.best === 'select' ? q.select : q.best === 'compare --judge' ? q.ppi : q.monitor;
    lines.push(`${r.name.slice(0, 29).padEnd(29)} ${`${r.loopLabels}±${r.loopLabelsSe}`.padEnd(13)} ${f(r.falseRate).padEnd(8)} ${String(q.loopLabels).padEnd(18)} ${`${q.best} (${best})`.padEnd(22)} ${f(r.loopLabels / best)}`);
  }
}
const ratios = tuned.map((r) => r.ratio);
lines.push('', `H2 (V ÷ best ≤ 0.5): ${ratios.filter((x) => x <= 0.5).length}/${ratios.length} decisive cells; range ${f(Math.min(...ratios))}–${f(Math.max(...ratios))}`);
writeFileSync(new URL('./label-loop-study.results.tuned-summary.txt', import.meta.url), lines.join('\n') + '\n');
console.log(lines.join('\n'));
