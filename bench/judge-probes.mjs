#!/usr/bin/env node
// The bias-probe study registered in bench/judge-probes.txt (read it first: cells, why each could break
// the method, decision rule). Usage: npm run build && node bench/judge-probes.mjs [--quick]
// Prints the tables as Markdown; the committed results are appended to bench/judge-probes.txt.
import { biasProbes, createRng } from '../dist/index.js';
import { simulate } from './judge-probes-data.mjs';

const quick = process.argv.includes('--quick');
const argValue = (flag) => {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
// Re-run of 2026-12-02 (registered in judge-probes.txt): --permutations 999 --only "P-self:1000" etc.
const B = Number(argValue('--permutations') ?? 199);
const ONLY = argValue('--only')?.split(',');
const CLEAN_REPS = Number(argValue('--clean-reps') ?? (quick ? 40 : 400));
const POWER_REPS = quick ? 20 : 200;
const wanted = (name, n) => ONLY === undefined || ONLY.includes(`${name.split(':')[0].split(' ')[0]}:${n}`);

function run(name, cell, n, reps) {
  const detect = { length: 0, position: 0, self: 0, noise: 0 };
  let any = 0;
  let anyOther = 0;
  const t0 = Date.now();
  for (let r = 0; r < reps; r++) {
    const rng = createRng('judge-probes', `${name}:${n}`, r);
    const d = simulate(cell, n, rng);
    const res = biasProbes(
      d.error,
      [
        { name: 'length', values: d.length },
        { name: 'position', values: d.position },
        { name: 'self', values: d.self },
        { name: 'noise', values: d.noise },
      ],
      // Holm, as in the first run (the default became max-T after the amendment; the permutation
      // streams also changed then, so re-running this script does not reproduce the old bytes).
      { controls: [{ name: 'human label', values: d.human }], nPermutations: B, seed: r, multiplicity: 'holm' },
    );
    let hit = false;
    let other = false;
    for (const p of res.probes) {
      if (p.verdict !== 'bias detected') continue;
      detect[p.name]++;
      hit = true;
      if (p.name !== cell.planted) other = true;
    }
    if (hit) any++;
    if (other) anyOther++;
  }
  return { name, n, reps, any: any / reps, anyOther: anyOther / reps, ...Object.fromEntries(Object.entries(detect).map(([k, v]) => [k, v / reps])), seconds: (Date.now() - t0) / 1000 };
}

const CLEAN = [
  ['C1 balanced', {}],
  ['C2 lopsided', { accS: 0.95, accO: 0.5 }],
  ['C3 confounded length', { confounded: true }],
  ['C4 lenient items', { lenient: true }],
  ['C5 lenient + item-level length', { lenient: true, itemLength: true }],
];
const f = (x) => (100 * x).toFixed(1);
const limit = 0.05 + 2 * Math.sqrt((0.05 * 0.95) / CLEAN_REPS);
console.log(`Clean cells: false-alarm rate (any of 4 probes detects), ${CLEAN_REPS} replicates, ${B} permutations; pass when ≤ ${f(limit)}%`);
console.log('| cell | n items | any probe | length | position | self | noise | verdict | s |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
const cleanRuns = [];
for (const [name, cell] of CLEAN) for (const n of [100, 400]) cleanRuns.push([name, cell, n]);
cleanRuns.push(['C6 small', { accS: 0.85, accO: 0.85 }, 40]);
for (const [name, cell, n] of cleanRuns) {
  if (!wanted(name, n)) continue;
  const r = run(name, cell, n, CLEAN_REPS);
  console.log(`| ${name} | ${n} | ${f(r.any)}% | ${f(r.length)}% | ${f(r.position)}% | ${f(r.self)}% | ${f(r.noise)}% | ${r.any <= limit ? 'pass' : 'FAIL'} | ${r.seconds.toFixed(0)} |`);
}
console.log('');
console.log(`Power cells: share of ${POWER_REPS} replicates where the planted probe detects (Holm, alpha 0.05), and where any other probe does`);
console.log('| planted bias | n items | planted probe detects | any other probe | s |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, cell] of [
  ['P-self: +5 points on the judge family', { selfBias: 0.05, planted: 'self' }],
  ['P-length: +2.5 points per 100 tokens', { lengthBias: 0.025, planted: 'length' }],
]) {
  for (const n of [100, 400, 1000]) {
    if (!wanted(name, n)) continue;
    const r = run(name, cell, n, POWER_REPS);
    console.log(`| ${name} | ${n} | ${f(r[cell.planted])}% | ${f(r.anyOther)}% | ${r.seconds.toFixed(0)} |`);
  }
}
