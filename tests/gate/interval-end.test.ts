// The one-sided rule on bounded scores (bench/comet-gate-rules.txt, R4, adopted): a one-sided t bound on
// scores in [0, 1] without strata or clusters is the end of the two-sided t interval at the same level,
// its p-value twice the one-sided t test's. Checked against scipy's ttest_rel on samples scipy's side
// drew (tests/reference/gate-interval-end/interval_end.py), for the library, the gate and the CLI.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { autoPairedInterval } from '../../src/paired/auto-interval.js';
import { nonInferiorityFromScores } from '../../src/gate/gate.js';
import { runCli } from '../helpers/cli.js';
import { formatNonInferiorityReport } from '../../src/report/gate.js';
import { gateMarkdown } from '../../src/report/markdown-gate.js';
import { createRng } from '../../src/random/index.js';

interface Case { n: number; confidenceLevel: number; kind: 'unit' | 'wide'; alternative: 'greater' | 'less'; a: number[]; b: number[]; g1: number; bound: number; pValue: number }
const reference = JSON.parse(readFileSync(new URL('../reference/gate-interval-end/interval_end.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('one-sided t bounds on bounded scores sit at the two-sided interval end (against scipy ttest_rel)', () => {
  it('agrees with scipy on every case: [0, 1] scores at the two-sided end, unbounded scores one-sided', () => {
    expect(reference.cases.length).toBe(60);
    let unbounded = 0;
    for (const c of reference.cases) {
      const r = autoPairedInterval(c.a, c.b, { alternative: c.alternative, confidenceLevel: c.confidenceLevel });
      const label = `${c.kind} n=${c.n} ${c.alternative} ${c.confidenceLevel}`;
      if (c.kind === 'wide' && (c.alternative === 'greater' ? c.g1 < 0 : c.g1 > 0)) {
        // unbounded scores skewed toward the bound keep the studentized bootstrap (bench/gate-skew-rule.txt)
        expect(r.methodUsed, label).toBe('studentized');
        continue;
      }
      if (c.kind === 'wide') unbounded += 1;
      expect(r.methodUsed, label).toBe('t');
      expect(r.boundAtIntervalEnd === true, label).toBe(c.kind === 'unit');
      expect(r.confidenceLevel, label).toBe(c.confidenceLevel);
      const bound = c.alternative === 'greater' ? r.confidenceInterval[0] : r.confidenceInterval[1];
      expect(Math.abs(bound - c.bound), label).toBeLessThan(1e-12 * Math.max(1, Math.abs(c.bound)));
      expect(Math.abs((r.pValue as number) - c.pValue), label).toBeLessThan(1e-10);
      expect(c.alternative === 'greater' ? r.confidenceInterval[1] : r.confidenceInterval[0]).toBe(c.alternative === 'greater' ? Infinity : -Infinity);
    }
    expect(unbounded).toBeGreaterThanOrEqual(10);
  });

  it('is the lower end of the two-sided interval compare prints, and the gate passes only when that end clears −margin', () => {
    const units = reference.cases.filter((x) => x.kind === 'unit' && x.confidenceLevel === 0.95 && x.alternative === 'greater');
    let checked = 0;
    for (const c of units) {
      const two = autoPairedInterval(c.a, c.b);
      const one = autoPairedInterval(c.a, c.b, { alternative: 'greater' });
      expect(one.confidenceInterval[0]).toBe(two.confidenceInterval[0]);
      expect(Math.abs((one.pValue as number) - (two.pValue as number))).toBeLessThan(1e-14);
      const low = two.confidenceInterval[0];
      if (!(low < 0)) continue;
      // margins either side of −low: a pass just above it, never at or just below it
      const passes = nonInferiorityFromScores({ candidate: c.a, baseline: c.b }, { margin: -low + 1e-9 });
      expect(passes.overall.lowerBound).toBe(low);
      expect(passes.verdict).toBe('pass');
      expect(nonInferiorityFromScores({ candidate: c.a, baseline: c.b }, { margin: -low - 1e-9 }).verdict).not.toBe('pass');
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(1);
  });

  it('passes normal [0, 1] differences with mean exactly −margin about α/2 of the time (the level of the two-sided end)', () => {
    // Scores near 0.5 (never clipped), differences normal with mean −margin: the t bound at 1 − α/2 clears
    // −margin with probability 0.025 (a few samples with |G1| > 1.1 take betting instead, which passes
    // less). 4000 runs: Monte Carlo SE √(0.025·0.975/4000) = 0.0025; tolerance 4 SE. At one-sided 95% it was 0.05.
    const rng = createRng('gate-interval-end-level');
    const margin = 0.05;
    const n = 30;
    const runs = 4000;
    let passes = 0;
    const baseline = new Float64Array(n).fill(0.5);
    for (let r = 0; r < runs; r++) {
      const candidate = Float64Array.from({ length: n }, () => 0.5 - margin + 0.05 * rng.nextNormal());
      if (nonInferiorityFromScores({ candidate, baseline }, { margin }).passed) passes += 1;
    }
    expect(Math.abs(passes / runs - 0.025)).toBeLessThan(4 * Math.sqrt((0.025 * 0.975) / runs));
  });

  it('leaves stratified, clustered, declared-range-free unbounded and 0/1 comparisons as they were', () => {
    const c = reference.cases.find((x) => x.kind === 'unit' && x.n === 100 && x.confidenceLevel === 0.95 && x.alternative === 'greater') as Case;
    const strata = Int32Array.from(c.a, (_, i) => i % 2);
    const stratified = autoPairedInterval(c.a, c.b, { alternative: 'greater', strata });
    expect(stratified.boundAtIntervalEnd).toBeUndefined();
    const cluster = Int32Array.from(c.a, (_, i) => Math.floor(i / 5));
    expect(autoPairedInterval(c.a, c.b, { alternative: 'greater', cluster }).boundAtIntervalEnd).toBeUndefined();
    const binary = autoPairedInterval([1, 0, 1, 1, 0, 1], [1, 1, 0, 1, 0, 0], { alternative: 'greater' });
    expect(binary.methodUsed).toBe('tango');
    expect(binary.boundAtIntervalEnd).toBeUndefined();
  });
});

describe('the gate says when its bound is the two-sided interval end', () => {
  it('marks each check that reads it (bounded t, per stratum too) and no other, and its report names that bound', () => {
    const c = reference.cases.find((x) => x.kind === 'unit' && x.n === 100 && x.confidenceLevel === 0.95 && x.alternative === 'greater') as Case;
    const stratum = Int32Array.from(c.a, (_, i) => i % 2);
    const bounded = nonInferiorityFromScores({ candidate: c.a, baseline: c.b, stratum }, { margin: 0.05, perStratum: true });
    expect(bounded.overall.methodUsed).toBe('t');
    expect(bounded.overall.boundAtIntervalEnd).toBe(true);
    for (const check of bounded.strata) expect(check.boundAtIntervalEnd).toBe(check.methodUsed === 't' ? true : undefined);
    const report = formatNonInferiorityReport(bounded);
    expect(report).toContain('passes when the 95% lower bound of candidate − baseline (for these bounded scores the lower end of the two-sided 95% t interval) is above −margin');
    expect(gateMarkdown(bounded)).toContain('passes when the 95% lower bound (for these bounded scores the lower end of the two-sided 95% t interval) is above −margin');
    // unbounded (scaled past [0, 1] without a declared range), stratified, clustered and 0/1 checks read a one-sided bound
    const others = [
      nonInferiorityFromScores({ candidate: c.a.map((x) => 3 * x), baseline: c.b.map((x) => 3 * x) }, { margin: 0.15 }),
      nonInferiorityFromScores({ candidate: c.a, baseline: c.b, stratum, stratified: true }, { margin: 0.05 }),
      nonInferiorityFromScores({ candidate: c.a, baseline: c.b, cluster: Int32Array.from(c.a, (_, i) => Math.floor(i / 5)) }, { margin: 0.05 }),
      nonInferiorityFromScores({ candidate: [1, 0, 1, 1, 0, 1, 1, 1], baseline: [1, 1, 0, 1, 0, 0, 1, 1] }, { margin: 0.2 }),
    ];
    for (const other of others) {
      expect(other.overall.boundAtIntervalEnd).toBeUndefined();
      expect(formatNonInferiorityReport(other)).toContain('passes when the one-sided 95% lower bound of candidate − baseline is above −margin');
    }
  });
});

describe('benchplan compare --alternative on bounded scores', () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchplan-interval-end-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('prints the two-sided interval end as its one-sided bound, at the level asked for', async () => {
    const c = reference.cases.find((x) => x.kind === 'unit' && x.n === 30 && x.confidenceLevel === 0.9 && x.alternative === 'greater') as Case;
    const file = join(dir, 'scores.csv');
    const rows = ['item,model,score'];
    c.a.forEach((x, i) => rows.push(`q${i},new,${x}`, `q${i},old,${c.b[i]}`));
    writeFileSync(file, `${rows.join('\n')}\n`);
    const run = await runCli(['compare', file, '--a', 'new', '--b', 'old', '--alternative', 'greater', '--confidence', '0.9', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const text = run.stdout;
    const bound = c.bound;
    // the JSON carries the bound to full precision somewhere under the pair; find the number nearest scipy's
    const numbers = [...text.matchAll(/-?\d+\.\d+(?:e-?\d+)?/g)].map((m) => Number(m[0]));
    const nearest = numbers.reduce((best, x) => (Math.abs(x - bound) < Math.abs(best - bound) ? x : best), Infinity);
    expect(Math.abs(nearest - bound)).toBeLessThan(1e-12);
    expect(text).toMatch(/end of the two-sided interval/);
  });
});
