import { describe, expect, it } from 'vitest';
import { loadAnnotationOrder } from '../../src/data/annotation-order.js';
import { pairScores } from '../../src/data/pairing.js';
import { loadScores, scoresFromRows, type ScoreRow } from '../../src/data/scores.js';
import { confidenceSequence } from '../../src/sequential/confidence-sequence.js';
import { EmpiricalBernsteinSequence, betSize, psiE } from '../../src/sequential/empirical-bernstein.js';
import { autoSequenceMethod, monitorComparison } from '../../src/sequential/monitor.js';
import { scoreRangeOf } from '../../src/sequential/score-range.js';
import { monitorUnits } from '../../src/sequential/units.js';
import { unitsStillNeeded, unitsStillNeededByRate } from '../../src/sequential/units-still-needed.js';

function table(rows: Array<[string, number, number, string?, string?]>) {
  const out: ScoreRow[] = [];
  for (const [item, a, b, stratum, cluster] of rows) {
    out.push({ item, model: 'A', score: a, ...(stratum ? { stratum } : {}), ...(cluster ? { cluster } : {}) });
    out.push({ item, model: 'B', score: b, ...(stratum ? { stratum } : {}), ...(cluster ? { cluster } : {}) });
  }
  return pairScores(scoresFromRows(out), 'A', 'B');
}

describe('monitorUnits', () => {
  const paired = table([
    ['i1', 1, 0, 's', 'd1'],
    ['i2', 0, 0, 's', 'd2'],
    ['i3', 1, 1, 's', 'd1'],
    ['i4', 0, 1, 's', 'd2'],
    ['i5', 1, 0, 's', 'd3'],
  ]);
  it('sorts by batch, then position, then file order', () => {
    const u = monitorUnits(paired, { position: [5, 4, 3, 2, 1], batch: [1, 1, 0, 0, 1] }, false);
    expect(u.ids).toEqual(['i4', 'i3', 'i5', 'i2', 'i1']);
    expect(Array.from(u.values)).toEqual([-1, 0, 1, 0, 1]);
    expect(Array.from(u.batch!)).toEqual([0, 0, 1, 1, 1]);
  });
  it('a cluster is one unit, its mean difference, arriving with its last item', () => {
    const u = monitorUnits(paired, { position: [1, 2, 3, 4, 5], batch: [1, 1, 2, 3, 3] }, true);
    // d1 = {i1: 1, i3: 0} completes at i3 (batch 2); d2 = {i2: 0, i4: −1} at i4 (batch 3); d3 = {i5: 1} at i5.
    expect(u.ids).toEqual(['d1', 'd2', 'd3']);
    expect(Array.from(u.values)).toEqual([0.5, -0.5, 1]);
    expect(Array.from(u.items)).toEqual([2, 2, 1]);
    expect(Array.from(u.batch!)).toEqual([2, 3, 3]);
  });
  it('refuses clusters without a cluster column and positions that are not finite', () => {
    const plain = table([['a', 1, 0], ['b', 0, 1]]);
    expect(() => monitorUnits(plain, undefined, true)).toThrow(/cluster column/);
    expect(() => monitorUnits(plain, { position: [0, NaN], batch: null }, false)).toThrow(/not finite/);
    expect(() => monitorUnits(plain, { position: [0], batch: null }, false)).toThrow(/entries/);
  });
});

describe('scoreRangeOf', () => {
  it('defaults to [0, 1] and checks a declared range', () => {
    expect(scoreRangeOf(table([['a', 1, 0]]))).toEqual({ scoreRange: [0, 1], differenceRange: [-1, 1], declared: false });
    expect(() => scoreRangeOf(table([['a', 7, 0]]))).toThrow(/outside \[0, 1\]: declare the range/);
    expect(scoreRangeOf(table([['a', 70, 0]]), [0, 100]).differenceRange).toEqual([-100, 100]);
    expect(() => scoreRangeOf(table([['a', 170, 0]]), [0, 100])).toThrow(/item "a" of model "A" scores 170, outside the declared score range/);
    expect(() => scoreRangeOf(table([['a', 1, 0]]), [1, 0])).toThrow(RangeError);
  });
});

describe('unitsStillNeeded', () => {
  it('matches stepping the projected half-width one value at a time (the stride is a close approximation)', () => {
    const seq = new EmpiricalBernsteinSequence({ range: [-1, 1] });
    for (let t = 0; t < 200; t++) seq.push([1, 0, 0, -1, 0, 1, 0][t % 7]);
    const s = seq.state();
    const exact = (halfWidth: number) => {
      let lam = s.sumLambda;
      let pen = s.sumPenalty;
      for (let i = s.t + 1; ; i++) {
        const l = betSize(seq.logThreshold, s.sigmaHat2, i, 0.5);
        lam += l;
        pen += 4 * s.sigmaHat2 * psiE(l);
        if ((2 * (seq.logThreshold + pen)) / lam < halfWidth) return i - s.t;
      }
    };
    for (const h of [0.1, 0.05, 0.02]) {
      const e = exact(h);
      expect(Math.abs(unitsStillNeeded(seq, h) - e) / e).toBeLessThan(0.01);
    }
    expect(unitsStillNeeded(seq, 0)).toBe(Infinity);
    expect(unitsStillNeeded(new EmpiricalBernsteinSequence({ range: [-1, 1] }), 0)).toBe(Infinity);
  });
  it('predicts when the real sequence gets there, for values whose variance does not change', () => {
    // Alternating 0/1 has a steady variance: the projection from t = 100 should land within 5% of the real crossing.
    const values = Array.from({ length: 20000 }, (_, i) => i % 2);
    const seq = new EmpiricalBernsteinSequence({ range: [0, 1], intersect: false });
    for (let t = 0; t < 100; t++) seq.push(values[t]);
    const target = 0.03;
    const predicted = 100 + unitsStillNeeded(seq, target);
    const real = confidenceSequence(values, { range: [0, 1], intersect: false });
    const crossing = real.lower.findIndex((lo, t) => (real.upper[t] - lo) / 2 < target) + 1;
    expect(Math.abs(predicted - crossing) / crossing).toBeLessThan(0.05);
  });
});

describe('monitorComparison', () => {
  const path = 'examples/monitor.csv';
  const scores = loadScores(path);
  const order = loadAnnotationOrder(path);
  const paired = pairScores(scores, 'candidate', 'current');
  const arrival = { position: paired.items.map((i) => order.order.get(i)!), batch: paired.items.map((i) => order.batch.get(i)!) };

  it('looks after every batch; each look is the confidence sequence over the units so far', () => {
    const r = monitorComparison(paired, { arrival, mde: 0.05, method: 'empirical-bernstein' });
    expect(r.schedule).toEqual({ kind: 'batch' });
    expect(r.looks.length).toBe(new Set(order.batch.values()).size);
    const units = monitorUnits(paired, arrival, false);
    const cs = confidenceSequence(units.values, { range: [-1, 1] });
    for (const l of r.looks) {
      expect(l.interval).toEqual([cs.lower[l.units - 1], cs.upper[l.units - 1]]);
      expect(l.estimate).toBeCloseTo(cs.mean[l.units - 1], 14);
    }
    // The decision is the first look that resolves, and later looks agree (the intersection is nested).
    const firstResolved = r.looks.findIndex((l) => l.verdict !== 'continue');
    expect(r.decision).toEqual({ look: firstResolved + 1, units: r.looks[firstResolved].units, items: r.looks[firstResolved].items, verdict: 'a-better' });
    for (const l of r.looks.slice(firstResolved)) expect(l.verdict).toBe('a-better');
    for (const l of r.looks.slice(0, firstResolved)) {
      expect(l.unitsStillNeeded).toBeGreaterThan(0);
      expect(l.itemsStillNeeded).toBe(l.unitsStillNeeded);
    }
  });

  it('per stratum: each stratum its own sequence at 1 − α/K over its own units', () => {
    const r = monitorComparison(paired, { arrival, perStratum: true, method: 'empirical-bernstein' });
    expect(r.stratumConfidenceLevel).toBeCloseTo(0.975, 15);
    const units = monitorUnits(paired, arrival, false);
    const last = r.looks[r.looks.length - 1];
    for (const s of last.strata!) {
      const k = units.strata.indexOf(s.stratum);
      const values = units.values.filter((_, j) => units.stratum![j] === k);
      const cs = confidenceSequence(values, { range: [-1, 1], confidenceLevel: 0.975 });
      expect(s.interval).toEqual(cs.interval);
      expect(s.units).toBe(values.length);
    }
    expect(r.stratumDecisions!.map((d) => d.stratum).sort()).toEqual(['rare_clause', 'routine']);
  });

  it('clusters: units are whole documents, and reach a verdict later than items do', () => {
    const byItem = monitorComparison(paired, { arrival });
    const byDoc = monitorComparison(paired, { arrival, cluster: true });
    expect(byDoc.unit).toBe('cluster');
    expect(byDoc.units).toBe(new Set(paired.clusters).size);
    expect(byDoc.items).toBe(paired.items.length);
    expect(byDoc.decision === null || byDoc.decision.items > byItem.decision!.items).toBe(true);
  });

  it('without batches, looks every `every` units and at the end', () => {
    const r = monitorComparison(paired, { every: 100 });
    expect(r.schedule).toEqual({ kind: 'every', every: 100 });
    expect(r.looks.map((l) => l.units)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });

  it('equivalence: two models that agree on every item settle as equivalent within ±mde/2', () => {
    const same = table(Array.from({ length: 400 }, (_, i) => [`i${i}`, i % 3 === 0 ? 1 : 0, i % 3 === 0 ? 1 : 0] as [string, number, number]));
    const r = monitorComparison(same, { mde: 0.2, every: 10 });
    expect(r.decision?.verdict).toBe('equivalent');
    const none = monitorComparison(same, { every: 10 });
    expect(none.decision).toBeNull();
    expect(none.looks[none.looks.length - 1].unitsStillNeeded).toBe(Infinity);
  });

  it('is deterministic, and checks its settings', () => {
    expect(JSON.stringify(monitorComparison(paired, { arrival, mde: 0.05 }))).toBe(JSON.stringify(monitorComparison(paired, { arrival, mde: 0.05 })));
    expect(() => monitorComparison(paired, { mde: 0 })).toThrow(RangeError);
    expect(() => monitorComparison(paired, { every: 0 })).toThrow(RangeError);
    expect(() => monitorComparison(table([['a', 1, 0]]), { perStratum: true })).toThrow(/stratum column/);
  });
});

describe('monitorComparison with the betting sequence', () => {
  const paired = pairScores(loadScores('examples/monitor.csv'), 'candidate', 'current');
  it('the @example: file order, a look every 40 items, settles at look 2 after 80 items (auto: aGRAPA)', () => {
    expect(monitorComparison(paired, { every: 40 }).decision).toEqual({ look: 2, units: 80, items: 80, verdict: 'a-better' });
    // Empirical Bernstein, asked for by name, needs twice as many.
    expect(monitorComparison(paired, { every: 40, method: 'empirical-bernstein' }).decision).toEqual({ look: 4, units: 160, items: 160, verdict: 'a-better' });
  });
  it('each look is the aGRAPA sequence over the units so far, per stratum at 1 − α/K too', () => {
    const r = monitorComparison(paired, { every: 40, perStratum: true });
    expect(r.truncation).toBe(0.99);
    const units = monitorUnits(paired, undefined, false);
    const cs = confidenceSequence(units.values, { method: 'agrapa', range: [-1, 1] });
    for (const l of r.looks) expect(l.interval).toEqual([cs.lower[l.units - 1], cs.upper[l.units - 1]]);
    const last = r.looks[r.looks.length - 1];
    for (const s of last.strata!) {
      const k = units.strata.indexOf(s.stratum);
      const values = units.values.filter((_, j) => units.stratum![j] === k);
      expect(s.interval).toEqual(confidenceSequence(values, { method: 'agrapa', range: [-1, 1], confidenceLevel: 0.975 }).interval);
    }
  });
  it('each look is the betting sequence over the units so far; on whole documents it settles sooner than empirical Bernstein', () => {
    const r = monitorComparison(paired, { every: 40, cluster: true, method: 'betting' });
    expect(r.method).toBe('betting');
    expect(r.truncation).toBe(0.75);
    const units = monitorUnits(paired, undefined, true);
    const cs = confidenceSequence(units.values, { method: 'betting', range: [-1, 1] });
    for (const l of r.looks) expect(l.interval).toEqual([cs.lower[l.units - 1], cs.upper[l.units - 1]]);
    const eb = monitorComparison(paired, { every: 40, cluster: true, method: 'empirical-bernstein' });
    expect(r.decision!.items).toBeLessThan(eb.decision?.items ?? Infinity);
  });

  it('auto: aGRAPA on item-level 0/1 differences and on cluster means alike (what bench/sequential.mjs measured), with the reason', () => {
    const items = monitorComparison(paired, { every: 40 });
    expect(items).toMatchObject({ method: 'agrapa', methodUsed: 'agrapa', methodRequested: 'auto' });
    expect(items.methodReason).toMatch(/^item-level differences of 0\/1 scores: aGRAPA/);
    expect(items.looks).toEqual(monitorComparison(paired, { every: 40, method: 'agrapa' }).looks);
    const documents = monitorComparison(paired, { every: 40, cluster: true });
    expect(documents).toMatchObject({ method: 'agrapa', methodRequested: 'auto' });
    expect(documents.methodReason).toMatch(/^cluster means/);
    expect(documents.looks).toEqual(monitorComparison(paired, { every: 40, cluster: true, method: 'agrapa' }).looks);
    expect(monitorComparison(paired, { every: 40, method: 'betting' })).toMatchObject({ method: 'betting', methodRequested: 'betting', methodReason: 'asked for' });
    expect(autoSequenceMethod({ kind: 'item', values: Float64Array.of(1, 0, -1) }).method).toBe('agrapa');
    expect(autoSequenceMethod({ kind: 'item', values: Float64Array.of(0.5, 0) }).reason).toMatch(/^partial or continuous/);
  });
  it('on whole documents aGRAPA settles sooner than the hedged betting sequence, which settles sooner than empirical Bernstein', () => {
    // A look after every document (with looks every 40 documents both betting sequences wait for the same look).
    const at = (method: 'agrapa' | 'betting' | 'empirical-bernstein') => monitorComparison(paired, { every: 1, cluster: true, method }).decision!.items;
    expect(at('agrapa')).toBeLessThan(at('betting'));
    expect(at('betting')).toBeLessThan(at('empirical-bernstein'));
  });
});

describe('unitsStillNeededByRate', () => {
  it('by hand: from w = 0.2 at t = 100 to 0.1 needs T with T/log(1+T) = 400/log 101, T = 547', () => {
    const T = 547;
    expect((T - 1) / Math.log1p(T - 1)).toBeLessThan(400 / Math.log(101));
    expect(T / Math.log1p(T)).toBeGreaterThanOrEqual(400 / Math.log(101));
    expect(unitsStillNeededByRate(100, 0.2, 0.1)).toBe(T - 100);
    expect(unitsStillNeededByRate(100, 0.05, 0.1)).toBe(1);
    expect(unitsStillNeededByRate(100, 0.2, 0)).toBe(Infinity);
  });
});

describe('monitorComparison warns about drift', () => {
  it('items sorted so that the gap grows: the running mean leaves the band, and a warning says so', () => {
    // 200 items with no gap, then 200 with A better on every item: the mean drifts with the order.
    const rows: Array<[string, number, number]> = [];
    for (let i = 0; i < 200; i++) rows.push([`a${i}`, i % 2, i % 2]);
    for (let i = 0; i < 200; i++) rows.push([`b${i}`, 1, 0]);
    const r = monitorComparison(table(rows), { every: 20 });
    expect(r.warnings.some((w) => /drift|running intersection/.test(w))).toBe(true);
    // The bundled example, labelled in shuffled order, raises no such warning.
    const example = monitorComparison(pairScores(loadScores('examples/monitor.csv'), 'candidate', 'current'), { every: 40 });
    expect(example.warnings).toEqual([]);
  });
});
