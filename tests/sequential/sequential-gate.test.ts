import { describe, expect, it } from 'vitest';
import { pairScores } from '../../src/data/pairing.js';
import { scoresFromRows, type ScoreRow } from '../../src/data/scores.js';
import { readFileSync } from 'node:fs';
import { createRng, shuffle } from '../../src/random/index.js';
import { confidenceSequence } from '../../src/sequential/confidence-sequence.js';
import { parseGateState } from '../../src/sequential/gate-state.js';
import { sequentialGate } from '../../src/sequential/sequential-gate.js';

function paired(diffs: number[], candidate = 'pr', baseline = 'main') {
  const rows: ScoreRow[] = [];
  diffs.forEach((d, i) => {
    // d ∈ {−1, 0, 1} as (candidate, baseline) = (0,1), (1,1), (1,0).
    rows.push({ item: `i${i}`, model: candidate, score: d >= 0 ? 1 : 0 });
    rows.push({ item: `i${i}`, model: baseline, score: d <= 0 ? 1 : 0 });
  });
  return pairScores(scoresFromRows(rows), candidate, baseline);
}

// The documented order: the items sorted by id (UTF-16 code units), then Fisher–Yates with the stream `${seed}:gate-order`.
function inSeedOrder(p: ReturnType<typeof paired>, seed: string): number[] {
  const order = Array.from({ length: p.items.length }, (_, k) => k).sort((x, y) => (p.items[x] < p.items[y] ? -1 : p.items[x] > p.items[y] ? 1 : 0));
  return shuffle(order, createRng(seed, 'gate-order')).map((k) => p.differences[k]);
}

describe('sequentialGate', () => {
  const good = paired(Array.from({ length: 300 }, (_, i) => (i % 10 === 0 ? 1 : 0)));
  it('look k tests at α/(k(k+1)) with the one-sided sequence bound, and appends to the state', () => {
    const first = sequentialGate(good, { margin: 0.02, state: null, label: 'c1' });
    expect(first.look).toBe(1);
    expect(first.alpha).toBeCloseTo(0.025, 15);
    // auto: the aGRAPA sequence's one-sided bound, as monitor would choose it.
    expect(first).toMatchObject({ method: 'alpha-spending', methodUsed: 'agrapa', methodRequested: 'auto' });
    expect(first.methodReason).toMatch(/^item-level differences of 0\/1 scores/);
    expect(first.state.looks[0].sequence).toBe('agrapa');
    const bound = confidenceSequence(inSeedOrder(good, '0'), { method: 'agrapa', range: [-1, 1], confidenceLevel: 1 - 0.025, bound: 'lower' }).interval[0];
    expect(first.lowerBound).toBe(bound);
    expect(first.passed).toBe(bound > -0.02);
    const second = sequentialGate(good, { margin: 0.02, state: first.state, label: 'c2' });
    expect(second.look).toBe(2);
    expect(second.alpha).toBeCloseTo(0.05 / 6, 16);
    expect(second.alphaSpent).toBeCloseTo(0.05 * (2 / 3), 16);
    // A smaller α at the later look: the bound can only be lower on the same data.
    expect(second.lowerBound).toBeLessThan(first.lowerBound);
    expect(second.state.looks.map((l) => l.label)).toEqual(['c1', 'c2']);
  });
  it('a sequence asked for by name gives its own bound, recorded in the look; an older state without it still reads', () => {
    const eb = sequentialGate(good, { margin: 0.02, state: null, sequence: 'empirical-bernstein' });
    expect(eb).toMatchObject({ methodUsed: 'empirical-bernstein', methodRequested: 'empirical-bernstein', methodReason: 'asked for' });
    expect(eb.lowerBound).toBe(confidenceSequence(inSeedOrder(good, '0'), { range: [-1, 1], confidenceLevel: 1 - 0.025, bound: 'lower' }).interval[0]);
    // On these 300 items (10% better, no worse) aGRAPA's bound is the higher one.
    expect(sequentialGate(good, { margin: 0.02, state: null }).lowerBound).toBeGreaterThan(eb.lowerBound);
    const old = { ...eb.state, looks: eb.state.looks.map(({ sequence: _, ...rest }) => rest) };
    expect(parseGateState(JSON.stringify(old), 'old.json').looks[0].sequence).toBeUndefined();
    const next = sequentialGate(good, { margin: 0.02, state: parseGateState(JSON.stringify(old), 'old.json') });
    expect(next.state.looks.map((l) => l.sequence)).toEqual([undefined, 'agrapa']);
  });
  it('three verdicts: a clear drop fails (upper sequence bound below −margin), agreement on few items is inconclusive, a clean run passes', () => {
    // 200 items, 60 lost and 2 won: mean −0.29, far below −0.05.
    const drop = sequentialGate(paired([...Array(60).fill(-1), ...Array(2).fill(1), ...Array(138).fill(0)]), { margin: 0.05, state: null });
    expect(drop.verdict).toBe('fail');
    expect(drop.upperBound).toBeLessThan(-0.05);
    expect(drop.state.looks[0]).toMatchObject({ verdict: 'fail', passed: false });
    // 48 items that agree everywhere: no valid claim either way at margin 0.02.
    const thin = sequentialGate(paired(Array(48).fill(0)), { margin: 0.02, state: null });
    expect([thin.verdict, thin.passed]).toEqual(['inconclusive', false]);
    const clean = sequentialGate(paired(Array(2000).fill(0)), { margin: 0.05, state: null });
    expect(clean.verdict).toBe('pass');
    expect(Number.isNaN(clean.upperBound)).toBe(true);
  });

  it('the state round-trips through JSON and refuses a changed design', () => {
    const first = sequentialGate(good, { margin: 0.02, state: null });
    const state = parseGateState(JSON.stringify(first.state), 'state.json');
    expect(state).toEqual(first.state);
    expect(() => sequentialGate(good, { margin: 0.03, state, stateSource: 'state.json' })).toThrow(/state\.json: margin: this run's margin is 0\.03 but the state file's looks used 0\.02/);
    expect(() => sequentialGate(good, { margin: 0.02, confidenceLevel: 0.9, state })).toThrow(/confidenceLevel/);
    expect(() => sequentialGate(paired([1, 0], 'pr', 'other'), { margin: 0.02, state })).toThrow(/baseline/);
    expect(() => parseGateState('{"format":"x"}', 's.json')).toThrow(/s\.json:1: format/);
    expect(() => parseGateState('nope', 's.json')).toThrow(/s\.json:1: is not valid JSON \(a state file benchplan gate --sequential wrote/);
    // Errors name the line of the pretty-printed file the gate writes: a bad field at its key, a syntax error where JSON.parse stopped.
    const text = JSON.stringify(first.state, null, 2);
    const lineOfKey = (key: string) => text.split('\n').findIndex((l) => l.startsWith(`  "${key}"`)) + 1;
    expect(() => parseGateState(text.replace('"margin": 0.02', '"margin": "0.02"'), 's.json')).toThrow(`s.json:${lineOfKey('margin')}: margin: Invalid input: expected number, received string (got "0.02")`);
    expect(() => parseGateState(text.replace('"cluster": false,', '"cluster": false,,'), 's.json')).toThrow(new RegExp(`^s\\.json:${lineOfKey('cluster')}: is not valid JSON`));
    expect(() => parseGateState(text.replace('"cluster": false,', '"cluster": false, "margin": 1,'), 's.json')).toThrow(`s.json:${lineOfKey('cluster')}: an object names the same key twice (JSON keys must be unique) (got "margin")`);
    const looks = text.replace('"look": 1', '"look": 3');
    expect(() => parseGateState(looks, 's.json')).toThrow(`s.json:${looks.split('\n').findIndex((l) => l.includes('"look": 3')) + 1}: looks[0].look: looks must be numbered 1, 2, … in order (got 3)`);
    expect(() => parseGateState(JSON.stringify({ ...first.state, looks: [{ ...first.state.looks[0], look: 2 }] }), 's.json')).toThrow(/looks\[0\]\.look/);
    expect(() => parseGateState(JSON.stringify({ ...first.state, extra: 1 }), 's.json')).toThrow(/unknown key/);
  });
  describe('the units are read in a seeded random order, not the table\'s (issue 17)', () => {
    // examples/scores.csv as stored: 400 paired items of alpha − beta, rows sorted so that the
    // sequence run in file order gives a 97.5% aGRAPA lower bound of 0.139, above the fixed-n t bound.
    const lines = readFileSync('examples/scores.csv', 'utf8').trim().split('\n');
    const header = lines[0].split(',');
    const rows: ScoreRow[] = lines.slice(1).map((line) => {
      const cell = Object.fromEntries(line.split(',').map((v, k) => [header[k], v]));
      return { item: cell.item, model: cell.model, stratum: cell.stratum, cluster: cell.cluster, score: Number(cell.score) };
    });
    const asStored = pairScores(scoresFromRows(rows), 'alpha', 'beta');
    const reversed = pairScores(scoresFromRows([...rows].reverse()), 'alpha', 'beta');
    const shuffled = pairScores(scoresFromRows(shuffle([...rows], createRng('rows'))), 'alpha', 'beta');
    it('for a fixed seed the bound and the state do not depend on the row order of the file', () => {
      // The old behaviour (file order) fails this: the stored order gives 0.139, the reversed another bound.
      const inFileOrder = (p: typeof asStored) => confidenceSequence(Array.from(p.differences), { method: 'agrapa', range: [-1, 1], confidenceLevel: 0.975, bound: 'lower' }).interval[0];
      expect(inFileOrder(asStored)).toBeCloseTo(0.139, 12);
      expect(inFileOrder(reversed)).not.toBeCloseTo(inFileOrder(asStored), 3);
      for (const cluster of [false, true]) {
        const runs = [asStored, reversed, shuffled].map((p) => sequentialGate(p, { margin: 0.02, state: null, seed: 7, cluster }));
        expect(runs[1].lowerBound).toBe(runs[0].lowerBound);
        expect(runs[2].lowerBound).toBe(runs[0].lowerBound);
        expect(runs[1].state).toEqual(runs[0].state);
        expect(runs[0]).toMatchObject({ seed: '7', order: 'seeded-permutation', units: cluster ? 159 : 400 });
        expect(runs[0].state.looks[0].seed).toBe('7');
      }
      // Seed 0 (the default) is the documented order: sort by id, shuffle with the stream "0:gate-order".
      const byDefault = sequentialGate(asStored, { margin: 0.02, state: null });
      expect(byDefault.seed).toBe('0');
      expect(byDefault.lowerBound).toBe(confidenceSequence(inSeedOrder(asStored, '0'), { method: 'agrapa', range: [-1, 1], confidenceLevel: 0.975, bound: 'lower' }).interval[0]);
    });
    it('over seeds the bound no longer sits above the fixed-n t bound', () => {
      // Fixed-n one-sided 97.5% t bound on the same 400 differences: mean − qt(0.975, 399)·sd/√400
      // (R: with d = alpha − beta, mean(d) − qt(0.975, 399) * sd(d) / 20 = 0.1086). A valid anytime
      // bound is wider than the fixed-n one on average; read in the stored order it was 0.139.
      const d = Array.from(asStored.differences);
      const mean = d.reduce((s, x) => s + x, 0) / d.length;
      const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length - 1));
      const tBound = mean - 1.965927 * sd / Math.sqrt(d.length);
      expect(tBound).toBeCloseTo(0.1086, 4);
      const bounds = Array.from({ length: 20 }, (_, s) => sequentialGate(asStored, { margin: 0.02, state: null, seed: s }).lowerBound);
      expect(bounds.reduce((s, x) => s + x, 0) / bounds.length).toBeLessThan(tBound);
      expect(new Set(bounds).size).toBeGreaterThan(1);
    });
    it('a state written before the seed was recorded still reads, and a new look adds its seed', () => {
      const first = sequentialGate(asStored, { margin: 0.02, state: null, seed: 'ci' });
      const old = { ...first.state, looks: first.state.looks.map(({ seed: _, sequence: __, ...rest }) => rest) };
      const state = parseGateState(JSON.stringify(old), 'old.json');
      expect(state.looks[0].seed).toBeUndefined();
      const next = sequentialGate(asStored, { margin: 0.02, state, seed: 'ci' });
      expect(next.state.looks.map((l) => l.seed)).toEqual([undefined, 'ci']);
      expect(() => parseGateState(JSON.stringify({ ...first.state, looks: [{ ...first.state.looks[0], seed: 3 }] }), 's.json')).toThrow('s.json:1: looks[0].seed: Invalid input: expected string, received number (got 3)');
    });
  });
  it('Monte Carlo: 10 commits that each regress by exactly the margin pass at some look in ≤ 5% of runs', () => {
    // Differences with mean −margin: P(+1) = 0.1, P(−1) = 0.14 → mean −0.04 = −margin. 200 runs × 10 looks × 200 items.
    // The union bound says ≤ Σ_{k≤10} α/(k(k+1)) = 0.0455; the tolerance adds 3 Monte Carlo SE: 3·√(0.05·0.95/200) = 0.046.
    const rng = createRng('gate-mc');
    let anyPass = 0;
    const runs = 200;
    for (let r = 0; r < runs; r++) {
      let state = null;
      let passed = false;
      for (let k = 0; k < 10; k++) {
        const diffs = Array.from({ length: 200 }, () => {
          const u = rng.nextFloat();
          return u < 0.1 ? 1 : u < 0.24 ? -1 : 0;
        });
        const res = sequentialGate(paired(diffs), { margin: 0.04, state });
        state = res.state;
        passed ||= res.passed;
      }
      anyPass += passed ? 1 : 0;
    }
    expect(anyPass / runs).toBeLessThan(0.05 + 0.046);
  });
});
