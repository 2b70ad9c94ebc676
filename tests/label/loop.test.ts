import { describe, expect, it } from 'vitest';
import {
  labelLoopStatus,
  proposeLabelBatch,
  recordLabelAnswers,
  runLabelLoop,
  startLabelLoop,
  type LabelAnswer,
  type LabelLoopOptions,
  type LabelPoolItem,
} from '../../src/label/loop.js';
import { labelContribution, labelSamplingProbabilities, type SamplingItem } from '../../src/label/sampling.js';
import { createRng } from '../../src/random/index.js';

/** A pool of n items, the first nDiff disagreeing; y and the judge's g per item. */
function makePool(n: number, nDiff: number, y: (i: number) => number, g: (i: number) => number | undefined): { pool: LabelPoolItem[]; answer: (id: string) => LabelAnswer } {
  const pool: LabelPoolItem[] = [];
  const ys = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const id = `item-${i}`;
    const judge = g(i);
    pool.push(judge === undefined ? { id, same: i >= nDiff } : { id, same: i >= nDiff, judge });
    ys.set(id, y(i));
  }
  // 0/1 scores: y = 1 → (0, 1), y = −1 → (1, 0), y = 0 → (1, 1).
  const answer = (id: string): LabelAnswer => {
    const d = ys.get(id) as number;
    return d > 0 ? { id, baseline: 0, candidate: 1 } : d < 0 ? { id, baseline: 1, candidate: 0 } : { id, baseline: 1, candidate: 1 };
  };
  return { pool, answer };
}

describe('the contribution Z = ḡ + (y − g)/(Nπ)', () => {
  it('has expectation θ exactly under π, enumerated over every outcome of a 4-item pool and several label states', () => {
    // Every y ∈ {−1, 0, 1}^4, two judges (none / a fixed noisy one), and sampling distributions
    // learned from every subset of labelled items: Σ π_i Z_i must equal (1/N) Σ y_i.
    const judges: Array<number[]> = [
      [0, 0, 0, 0],
      [0.8, -0.3, 1, 0],
    ];
    const same = [false, false, true, false];
    let checked = 0;
    for (let code = 0; code < 81; code++) {
      const y = [0, 1, 2, 3].map((k) => (Math.floor(code / 3 ** k) % 3) - 1);
      const theta = y.reduce((a, b) => a + b, 0) / 4;
      for (const g of judges) {
        const gBar = g.reduce((a, b) => a + b, 0) / 4;
        for (let mask = 0; mask < 16; mask++) {
          const items: SamplingItem[] = y.map((yi, i) => ({ same: same[i], judge: g[i], stratum: i % 2 === 0 ? 'a' : 'b', label: (mask >> i) & 1 ? yi : null }));
          const pi = labelSamplingProbabilities(items, { width: 1, auditFloor: 0.05, uniformShare: 0.1 });
          expect(pi.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
          const mean = pi.reduce((acc, p, i) => acc + p * labelContribution(gBar, y[i], g[i], 4, p), 0);
          expect(mean).toBeCloseTo(theta, 12);
          checked++;
        }
      }
    }
    expect(checked).toBe(81 * 2 * 16);
  });

  it('puts the audit share on agreeing items and more mass where the judge is least sure', () => {
    const items: SamplingItem[] = [
      { same: false, judge: 0, stratum: '', label: null },
      { same: false, judge: 0.9, stratum: '', label: null },
      { same: true, judge: 0, stratum: '', label: null },
      { same: true, judge: 0, stratum: '', label: null },
    ];
    const pi = labelSamplingProbabilities(items, { width: 1, auditFloor: 0.1, uniformShare: 0.1 });
    expect(pi[2] + pi[3]).toBeCloseTo(0.1, 12);
    expect(pi[0]).toBeGreaterThan(pi[1]);
    for (const p of pi) expect(p).toBeGreaterThan(0);
  });
});

describe('the stop rule', () => {
  it('passes when the candidate is clearly better', () => {
    const { pool, answer } = makePool(300, 150, (i) => (i < 150 && i % 2 === 0 ? 1 : 0), () => undefined);
    const { status } = runLabelLoop(pool, answer, { margin: 0.05, budget: 300, seed: 3 });
    expect(status.verdict).toBe('pass');
    expect(status.confidenceInterval[0]).toBeGreaterThanOrEqual(-0.05);
    expect(status.labelsUsed).toBeLessThan(150);
  });

  it('fails when the candidate is clearly worse', () => {
    const { pool, answer } = makePool(300, 150, (i) => (i < 150 && i % 3 !== 0 ? -1 : 0), () => undefined);
    const { status } = runLabelLoop(pool, answer, { margin: 0.05, budget: 300, seed: 3 });
    expect(status.verdict).toBe('fail');
    expect(status.confidenceInterval[1]).toBeLessThanOrEqual(-0.05);
  });

  it('is inconclusive when the budget is spent, and says how many more labels', () => {
    const { pool, answer } = makePool(300, 150, (i) => (i < 150 ? (i % 2 === 0 ? 1 : -1) : 0), () => undefined);
    const { status, history } = runLabelLoop(pool, answer, { margin: 0.02, budget: 15, seed: 3 });
    expect(status.verdict).toBe('inconclusive');
    expect(status.labelsUsed).toBe(15);
    expect(status.labelsNeeded).toBeGreaterThan(0);
    expect(status.reason).toMatch(/budget of 15 labels is spent/);
    expect(history.at(-1)?.verdict).toBe('inconclusive');
  });

  it('decides for sure once every item that could matter is labelled', () => {
    // 10 disagreeing items with y = −1 on one of them: θ = −0.1/… exactly known after labelling all
    // ten under the assumption that agreeing items score the same.
    const { pool, answer } = makePool(100, 10, (i) => (i === 0 ? -1 : 0), () => undefined);
    const { status } = runLabelLoop(pool, answer, { margin: 0.005, budget: 100, seed: 1, assumeSameScore: true, auditFloor: 0.01 });
    expect(status.verdict).toBe('fail');
    expect(status.confidenceInterval[1]).toBeLessThanOrEqual(-0.005);
    expect(status.confidenceInterval[1]).toBeGreaterThanOrEqual(-0.01 - 1e-12);
  });
});

describe('the boundary known exactly', () => {
  // θ = −margin up to rounding: (0.1 + 0.2 − 0.36)/3 sums to −0.01999999999999998 and
  // (0.7 − 0.1 − 0.66)/3 to −0.02000000000000009 in floating point. Once every item is labelled the
  // sure bounds meet at −margin: the verdict must be inconclusive, not a pass or fail decided by rounding.
  it.each([[[0.1, 0.2, -0.36]], [[0.7, -0.1, -0.66]]])('is inconclusive for differences %j', (ys) => {
    const pool = ys.map((_, i) => ({ id: `g${i}`, same: false }));
    const oracle = (id: string): LabelAnswer => {
      const y = ys[Number(id.slice(1))];
      return { id, baseline: 0.5 - y / 2, candidate: 0.5 + y / 2 };
    };
    // Seed 1: the sequence itself does not decide within the batch (some seeds do — a wrong pass or
    // fail at the boundary has chance ≤ 5% each: 2.3% and 2.0% over 1000 seeds with batches of 200).
    const { status } = runLabelLoop(pool, oracle, { margin: 0.02, budget: 3, seed: 1 });
    expect(status.labelsUsed).toBe(3);
    expect(status.verdict).toBe('inconclusive');
  });
});

describe('determinism and resumption', () => {
  const { pool, answer } = makePool(200, 60, (i) => (i < 60 ? (i % 3) - 1 : 0), (i) => (i < 60 ? ((i % 3) - 1) * 0.5 : 0));
  const options: LabelLoopOptions = { margin: 0.05, budget: 80, seed: 11, batchSize: 10 };

  it('gives the same draws for the same seed and answers, and other draws for another seed', () => {
    const a = runLabelLoop(pool, answer, options);
    const b = runLabelLoop(pool, answer, options);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const first = proposeLabelBatch(startLabelLoop(pool, options)).draws.map((d) => d.id);
    const other = proposeLabelBatch(startLabelLoop(pool, { ...options, seed: 12 })).draws.map((d) => d.id);
    expect(first).not.toEqual(other);
  });

  it('continues identically from a JSON round trip of the state, and repeats a batch still waiting', () => {
    let s = startLabelLoop(pool, options);
    let t = JSON.parse(JSON.stringify(s)) as typeof s;
    for (let k = 0; k < 4; k++) {
      const p = proposeLabelBatch(s);
      const q = proposeLabelBatch(t);
      expect(q.draws).toEqual(p.draws);
      expect(proposeLabelBatch(p.state).draws).toEqual(p.draws);
      s = recordLabelAnswers(p.state, p.toLabel.map(answer));
      t = JSON.parse(JSON.stringify(recordLabelAnswers(q.state, q.toLabel.map(answer)))) as typeof s;
    }
    expect(labelLoopStatus(t)).toEqual(labelLoopStatus(s));
  });

  it('marks a second draw of a labelled item as reused and asks for each item once', () => {
    const small = makePool(3, 3, () => 1, () => undefined);
    const p = proposeLabelBatch(startLabelLoop(small.pool, { margin: 0, budget: 3, seed: 1, batchSize: 20 }));
    expect(new Set(p.toLabel).size).toBe(p.toLabel.length);
    expect(p.draws.filter((d) => !d.reused).map((d) => d.id)).toEqual(p.toLabel);
    expect(p.draws.length).toBe(20);
  });
});

describe('refusals', () => {
  const { pool } = makePool(5, 3, () => 0, () => 0);
  const base: LabelLoopOptions = { margin: 0.05, budget: 5, seed: 1 };
  it.each([
    [{ ...base, margin: -0.1 }, /margin must be a finite number ≥ 0 \(got -0.1\)/],
    [{ ...base, budget: 0 }, /budget must be a whole number ≥ 1 \(got 0\)/],
    [{ ...base, confidence: 1 }, /confidence must be in \(0, 1\) \(got 1\)/],
    [{ ...base, seed: 1.5 }, /seed must be an integer \(got 1.5\)/],
    [{ ...base, scoreRange: [1, 0] as [number, number] }, /scoreRange must be \[lo, hi\]/],
    [{ ...base, auditFloor: 0 }, /auditFloor must be in \(0, 1\) \(got 0\)/],
    [{ ...base, batchSize: 2.5 }, /batchSize must be a whole number ≥ 1 \(got 2.5\)/],
  ])('refuses bad options (%#)', (options, message) => {
    expect(() => startLabelLoop(pool, options)).toThrow(message);
  });

  it('refuses a duplicate id, a judge outside its range and an empty pool', () => {
    expect(() => startLabelLoop([...pool, { id: 'item-1', same: true }], base)).toThrow(/pool item 6: id "item-1" repeats item 2/);
    expect(() => startLabelLoop([{ id: 'x', same: false, judge: 1.5 }], base)).toThrow(/pool item "x": judge must be a number in \[-1, 1\] \(got 1.5\)/);
    expect(() => startLabelLoop([], base)).toThrow(/at least one item/);
  });

  it('refuses an answer not asked for, a second answer and a score off the scale, keeping the state', () => {
    const p = proposeLabelBatch(startLabelLoop(pool, { ...base, batchSize: 1 }));
    const asked = p.toLabel[0];
    const notAsked = pool.map((it) => it.id).find((id) => id !== asked) as string;
    expect(() => recordLabelAnswers(p.state, [{ id: notAsked, baseline: 0, candidate: 0 }])).toThrow(new RegExp(`item "${notAsked}": id was not asked for in batch 1`));
    expect(() => recordLabelAnswers(p.state, [{ id: 'nope', baseline: 0, candidate: 0 }])).toThrow(/item "nope": id is not in the pool/);
    expect(() => recordLabelAnswers(p.state, [{ id: asked, baseline: 0, candidate: 1.2 }])).toThrow(new RegExp(`item "${asked}": candidate must be a number in \\[0, 1\\] \\(got 1.2\\)`));
    expect(() => recordLabelAnswers(p.state, [{ id: asked, baseline: 0, candidate: 1 }, { id: asked, baseline: 0, candidate: 1 }])).toThrow(/already has an answer/);
    expect(p.state.labelsUsed).toBe(0);
    const s = recordLabelAnswers(p.state, [{ id: asked, baseline: 0, candidate: 1 }]);
    expect(() => recordLabelAnswers(s, [{ id: asked, baseline: 0, candidate: 1 }])).toThrow(/already has an answer/);
  });
});

describe('validity at the boundary (seeded simulation)', () => {
  // θ = −margin exactly: a pass is a false decision. The loop is peeked at after every batch of 10.
  // With α = 0.05 the false-pass rate must stay ≤ 0.05; over 150 replicates its Monte Carlo standard
  // error is at most √(0.05·0.95/150) = 0.018, so a method that erred at ≥ 12% would fail the bound
  // 0.05 + 3·0.018 ≈ 0.105 with high probability. Agreeing items score the same here; the judge is noisy.
  it('keeps false passes at θ = −margin under 10.5% (α = 5%, 150 replicates)', () => {
    const margin = 0.05;
    let falsePass = 0;
    let coverageMiss = 0;
    const reps = 150;
    for (let r = 0; r < reps; r++) {
      const rng = createRng(r, 'label-validity');
      // 200 items, 60 disagreeing; on them y = −1 on 10 more than y = +1, so θ = −10/200 = −0.05.
      const ys: number[] = [];
      for (let i = 0; i < 60; i++) ys.push(i < 20 ? -1 : i < 30 ? 1 : 0);
      const g = ys.map((y) => (rng.nextFloat() < 0.6 ? y : [-1, 0, 1][rng.nextInt(3)]));
      const { pool, answer } = makePool(200, 60, (i) => (i < 60 ? ys[i] : 0), (i) => (i < 60 ? g[i] : 0));
      const { status, history } = runLabelLoop(pool, answer, { margin, budget: 200, seed: r, batchSize: 10, gridSize: 40, assumeSameScore: true });
      if (status.verdict === 'pass') falsePass++;
      if (history.some((h) => !(h.confidenceInterval[0] < -0.05 + 1e-12 && h.confidenceInterval[1] > -0.05 - 1e-12))) coverageMiss++;
    }
    expect(falsePass / reps).toBeLessThanOrEqual(0.105);
    // Two one-sided bounds at 95% each: the interval misses θ at some look with chance ≤ 10%.
    expect(coverageMiss / reps).toBeLessThanOrEqual(0.1 + 3 * Math.sqrt(0.1 * 0.9 / reps));
  });

  // The same boundary with a judge biased 0.5 towards the candidate and calibrateJudge on: the
  // recalibrated control variate is fitted on earlier labels only, so a wrong pass stays ≤ 5%.
  // 100 replicates: MC SE ≤ √(0.05·0.95/100) = 0.022, bound 0.05 + 3·0.022 ≈ 0.115.
  it('keeps false passes at θ = −margin under 11.5% with a biased judge recalibrated (100 replicates)', () => {
    let falsePass = 0;
    const reps = 100;
    for (let r = 0; r < reps; r++) {
      const rng = createRng(r, 'label-validity-calibrated');
      const ys: number[] = [];
      for (let i = 0; i < 60; i++) ys.push(i < 20 ? -1 : i < 30 ? 1 : 0);
      const g = ys.map((y) => Math.min(1, (rng.nextFloat() < 0.6 ? y : [-1, 0, 1][rng.nextInt(3)]) + 0.5));
      const { pool, answer } = makePool(200, 60, (i) => (i < 60 ? ys[i] : 0), (i) => (i < 60 ? g[i] : 0));
      const { status } = runLabelLoop(pool, answer, { margin: 0.05, budget: 200, seed: r, batchSize: 10, gridSize: 40, assumeSameScore: true, calibrateJudge: true });
      if (status.verdict === 'pass') falsePass++;
    }
    expect(falsePass / reps).toBeLessThanOrEqual(0.115);
  });
});
