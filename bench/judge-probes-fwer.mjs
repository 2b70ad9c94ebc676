#!/usr/bin/env node
// The amendment registered in bench/judge-probes.txt (AMENDMENT 2, issue 30 / h22): the family-wise
// false-alarm rate of the bias probes across all four probes on clean data, with Monte Carlo SE ≤ 0.5
// points, for four procedures, and power by labelled items. Read the registration first.
// Usage: npm run build && node bench/judge-probes-fwer.mjs --part clean|power [--only C2:100,...] [--reps R]
// Prints one Markdown row per cell as it finishes (results are appended to bench/judge-probes.txt).
import { biasProbes, createRng, holmAdjust } from '../dist/index.js';
import { simulate } from './judge-probes-data.mjs';

const argValue = (flag) => {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const PART = argValue('--part') ?? 'clean';
const ONLY = argValue('--only')?.split(',');
const B = 999; // the CLI's default
const ALPHA = 0.05;
const PROBES = ['length', 'position', 'self', 'noise'];

/** One replicate, two permutation schemes (all rows; within the human label), each read two ways. */
function replicate(cellName, cell, n, r, schemes) {
  const d = simulate(cell, n, createRng('judge-probes-fwer', `${cellName}:${n}`, r));
  const terms = PROBES.map((name) => ({ name, values: d[name] }));
  const out = {};
  for (const scheme of schemes) {
    const res = biasProbes(d.error, terms, {
      controls: [{ name: 'human label', values: d.human }],
      nPermutations: B,
      seed: `fwer:${cellName}:${n}:${r}:${scheme}`,
      multiplicity: 'max-t',
      ...(scheme === 'within' ? { blocks: d.human } : {}),
    });
    const holm = holmAdjust(res.probes.map((p) => p.pValue));
    out[`${scheme}/max-t`] = res.probes.filter((p) => p.adjustedPValue < ALPHA).map((p) => p.name);
    out[`${scheme}/holm`] = res.probes.filter((_, j) => holm[j] < ALPHA).map((p) => p.name);
  }
  return out;
}

const PROCS = ['all/holm', 'all/max-t', 'within/holm', 'within/max-t'];
const f = (x) => (100 * x).toFixed(1);

if (PART === 'clean') {
  const REPS = Number(argValue('--reps') ?? 2000);
  const cells = [
    ['C2', 'C2 lopsided', { accS: 0.95, accO: 0.5 }, 100],
    ['C5', 'C5 lenient + item-level length', { lenient: true, itemLength: true }, 100],
    ['C6', 'C6 small', { accS: 0.85, accO: 0.85 }, 40],
    ['C1', 'C1 balanced', {}, 100],
    ['C3', 'C3 confounded length', { confounded: true }, 100],
    ['C4', 'C4 lenient items', { lenient: true }, 100],
  ];
  console.log(`Clean: any-probe false-alarm rate, ${REPS} replicates, B = ${B}; per procedure: any (per-probe length/position/self/noise)`);
  console.log(`| cell | n items | ${PROCS.join(' | ')} | s |`);
  console.log(`| --- | ---: | ${PROCS.map(() => '---:').join(' | ')} | ---: |`);
  for (const [key, name, cell, n] of cells) {
    if (ONLY && !ONLY.includes(`${key}:${n}`)) continue;
    const t0 = Date.now();
    const any = Object.fromEntries(PROCS.map((p) => [p, 0]));
    const per = Object.fromEntries(PROCS.map((p) => [p, Object.fromEntries(PROBES.map((q) => [q, 0]))]));
    for (let r = 0; r < REPS; r++) {
      const out = replicate(key, cell, n, r, ['all', 'within']);
      for (const p of PROCS) {
        if (out[p].length > 0) any[p]++;
        for (const q of out[p]) per[p][q]++;
      }
      // Checkpoint (amendment 2b): the tallies so far, so a run stopped at a fixed time is read at its last one.
      if ((r + 1) % 100 === 0) console.log(`checkpoint ${key}:${n} replicates ${r + 1} any ${PROCS.map((p) => `${p}=${any[p]}`).join(' ')} per-probe ${JSON.stringify(per)} s ${((Date.now() - t0) / 1000).toFixed(0)}`);
    }
    const cellText = PROCS.map((p) => `${f(any[p] / REPS)}% (${PROBES.map((q) => f(per[p][q] / REPS)).join('/')})`);
    console.log(`| ${name} | ${n} | ${cellText.join(' | ')} | ${((Date.now() - t0) / 1000).toFixed(0)} |`);
  }
} else {
  const REPS = Number(argValue('--reps') ?? 100);
  const cells = [
    ['P-self', 'P-self: +5 points on the judge family', { selfBias: 0.05, planted: 'self' }],
    ['P-length', 'P-length: +2.5 points per 100 tokens', { lengthBias: 0.025, planted: 'length' }],
  ];
  console.log(`Power: share of ${REPS} replicates where the planted probe detects / any other probe detects, permutations within the human label, B = ${B}`);
  console.log('| planted bias | n items | max-T: planted | max-T: any other | Holm: planted | Holm: any other | s |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [key, name, cell] of cells) {
    for (const n of [500, 1000, 2000]) {
      if (ONLY && !ONLY.includes(`${key}:${n}`)) continue;
      const t0 = Date.now();
      const hit = { 'within/max-t': 0, 'within/holm': 0 };
      const other = { 'within/max-t': 0, 'within/holm': 0 };
      for (let r = 0; r < REPS; r++) {
        const out = replicate(key, cell, n, r, ['within']);
        for (const p of Object.keys(hit)) {
          if (out[p].includes(cell.planted)) hit[p]++;
          if (out[p].some((q) => q !== cell.planted)) other[p]++;
        }
      }
      console.log(`| ${name} | ${n} | ${f(hit['within/max-t'] / REPS)}% | ${f(other['within/max-t'] / REPS)}% | ${f(hit['within/holm'] / REPS)}% | ${f(other['within/holm'] / REPS)}% | ${((Date.now() - t0) / 1000).toFixed(0)} |`);
    }
  }
}
