import { describe, expect, it } from 'vitest';
import { bootstrapMeanDifference } from '../../src/bootstrap/index.js';
import { scoresFromRows } from '../../src/data/scores.js';
import { createRng } from '../../src/random/index.js';
import { attributeDrift, driftScoresFromTable, type DriftScores } from '../../src/rotation/drift.js';

function scores(model: string, values: Record<string, number>, strata?: Record<string, string>): DriftScores {
  const items = Object.keys(values);
  return { source: `${model}.csv`, model, items, scores: items.map((i) => values[i]), strata: strata ? items.map((i) => strata[i]) : null, clusters: null };
}

const FAST = { nResamples: 2000, seed: 3 };

describe('attributeDrift: point estimates (hand computation)', () => {
  // Previous version: p1..p4; current: p1, p2, p3 kept, p4 retired, n1 added.
  const before = scores('last', { p1: 1, p2: 1, p3: 1, p4: 0 });
  const rerun = scores('this', { p1: 1, p2: 0, p3: 1, p4: 0 });
  const after = scores('this', { p1: 1, p2: 0, p3: 1, n1: 1 });
  const r = attributeDrift({ before, rerun, after }, { ...FAST, method: 'percentile' });

  it('model drift = mean(rerun − before) on the previous items; instrument = mean(after) − mean(rerun); total = the sum', () => {
    expect(r.means).toEqual({ before: 0.75, rerun: 0.5, after: 0.75 });
    expect(r.model.estimate).toBe(-0.25); // (0 − 1) / 4
    expect(r.instrument.estimate).toBe(0.25); // 3/4 − 2/4
    expect(r.total).toBe(0);
    expect(r.model.estimate + r.instrument.estimate).toBe(r.total);
    expect([r.instrument.shared, r.instrument.retired, r.instrument.added]).toEqual([3, 1, 1]);
    expect(r.items).toEqual({ before: 4, rerun: 4, after: 4 });
    expect(r.models).toEqual({ before: 'last', rerun: 'this', after: 'this' });
  });

  it('model drift is the paired bootstrap of bootstrapMeanDifference, with the same settings', () => {
    const direct = bootstrapMeanDifference([1, 0, 1, 0], [1, 1, 1, 0], { method: 'percentile', nResamples: 2000, seed: '3', confidenceLevel: 0.95 });
    expect(r.model.bootstrap).toEqual(direct);
    expect(r.model.confidenceInterval).toEqual(direct.confidenceInterval);
  });
});

describe('attributeDrift: the instrument interval', () => {
  it("has the bootstrap's standard error for a partially paired design, within Monte Carlo error", () => {
    // 60 kept items scored the same on both versions, 20 retired, 20 added; one stratum.
    const rng = createRng('drift-se');
    const rerunValues: Record<string, number> = {};
    const afterValues: Record<string, number> = {};
    for (let k = 0; k < 60; k++) rerunValues[`k${k}`] = afterValues[`k${k}`] = rng.nextFloat();
    for (let k = 0; k < 20; k++) rerunValues[`r${k}`] = rng.nextFloat();
    for (let k = 0; k < 20; k++) afterValues[`a${k}`] = rng.nextFloat() * 0.8;
    const rerun = scores('s', rerunValues);
    const r = attributeDrift({ before: rerun, rerun, after: scores('s', afterValues) }, { method: 'percentile', nResamples: 9999, seed: 1 });
    // Kept items cancel exactly; within each group of m items resampled with replacement, the sum
    // has variance m·σ² (σ² the population variance, ddof 0). So with n = 80 on both versions:
    // Var(Δ_I) = (20·σ²_added + 20·σ²_retired) / 80².
    const popVar = (xs: number[]) => {
      const m = xs.reduce((t, x) => t + x, 0) / xs.length;
      return xs.reduce((t, x) => t + (x - m) ** 2, 0) / xs.length;
    };
    const added = Object.entries(afterValues).filter(([k]) => k.startsWith('a')).map(([, v]) => v);
    const retired = Object.entries(rerunValues).filter(([k]) => k.startsWith('r')).map(([, v]) => v);
    const se = Math.sqrt((20 * popVar(added) + 20 * popVar(retired)) / 80 ** 2);
    // The bootstrap SE from B = 9999 resamples has relative Monte Carlo error ≈ 1/√(2B) ≈ 0.7%; allow 4% (≈ 5.6 of them).
    expect(Math.abs(r.instrument.standardError / se - 1)).toBeLessThan(0.04);
    expect(r.model.estimate).toBe(0);
  });

  it('is exactly zero when the current version is the previous one and the system scores the same', () => {
    const x = scores('s', { a: 1, b: 0, c: 1 });
    const r = attributeDrift({ before: x, rerun: x, after: x }, FAST);
    expect([r.model.estimate, r.instrument.estimate, r.total]).toEqual([0, 0, 0]);
    expect(r.verdict.system).toBe('steady');
    expect(r.verdict.test).toBe('unchanged');
    expect(r.verdict.text).toMatch(/^no measurable drift: /);
  });
});

describe('attributeDrift: verdicts', () => {
  // 40 previous items in two strata; p0..p9 retire and n0..n9 replace them; 0/1 scores laid out
  // so that each planted effect is large next to its interval.
  const ids = Array.from({ length: 40 }, (_, k) => `p${k}`);
  const newIds = Array.from({ length: 10 }, (_, k) => `n${k}`);
  const stratumOf = (k: number) => (k % 2 ? 'hard' : 'easy');
  const strata = Object.fromEntries([...ids.map((id, k) => [id, stratumOf(k)]), ...newIds.map((id, k) => [id, stratumOf(k)])]);
  const good = (k: number) => k % 10 !== 0; // 90% pass
  const worse = (k: number) => k % 2 === 0; // 50% pass
  const values = (rule: (k: number) => boolean) => Object.fromEntries(ids.map((id, k) => [id, rule(k) ? 1 : 0]));

  /** before: last system (rule B) on the previous items; rerun: this system (rule R); after: R on the kept items, `added(k)` on the new ones. */
  function run(before: (k: number) => boolean, rerun: (k: number) => boolean, added: (k: number) => number) {
    const after: Record<string, number> = {};
    ids.forEach((id, k) => {
      if (k >= 10) after[id] = rerun(k) ? 1 : 0;
    });
    newIds.forEach((id, k) => {
      after[id] = added(k);
    });
    return attributeDrift(
      { before: scores('v1', values(before), strata), rerun: scores('v2', values(rerun), strata), after: scores('v2', after, strata) },
      { ...FAST, previousVersion: 'Q3', currentVersion: 'Q4' },
    );
  }
  const sameAsRetired = (rule: (k: number) => boolean) => (k: number) => (rule(k) ? 1 : 0); // n_k scores as p_k did

  it('the system got worse (the new items score as the retired ones did)', () => {
    const r = run(good, worse, sameAsRetired(worse));
    expect(r.instrument.estimate).toBe(0);
    expect(r.verdict).toMatchObject({ system: 'worse', test: 'unchanged' });
    expect(r.verdict.text).toMatch(/^the system got worse: −0\.4 \[−0\.\d+, −0\.\d+\] on Q3's 40 items; the test did not change measurably \(0(, the same on every resample\)$| \[)/);
    // (Every resample of the instrument drift is 0 here: the bootstrap gives [0, 0] or, since it
    // reports a degenerate interval as undefined, no interval, which the verdict says in words.)
  });

  it('the test got harder (same system, the new items all fail)', () => {
    const r = run(good, good, () => 0);
    expect(r.model.estimate).toBe(0);
    expect(r.instrument.estimate).toBeCloseTo(-9 / 40, 14); // 9 of the 10 retired passed; none of the new (30/40 − 39/40 up to rounding)
    expect(r.verdict).toMatchObject({ system: 'steady', test: 'harder' });
    expect(r.verdict.text).toMatch(/^the test got harder: −0\.225 \[−0\.\d+, −0\.\d+\] on the rotated version; the system held steady \(0 on Q3's 40 items, the same on every resample\)$/);
    expect(r.strata.map((s) => s.stratum)).toEqual(['easy', 'hard']);
  });

  it('both', () => {
    const r = run(good, worse, () => 0);
    expect(r.verdict).toMatchObject({ system: 'worse', test: 'harder' });
    expect(r.verdict.text).toMatch(/^both: the system got worse: .*; and the test got harder: /);
  });

  it('the system got better and the test easier', () => {
    const r = run(
      (k) => k >= 30,
      (k) => k >= 10,
      (k) => (k === 0 ? 0 : 1),
    );
    expect(r.model.estimate).toBe(0.5);
    expect(r.instrument.estimate).toBeCloseTo(9 / 40, 14);
    expect(r.verdict).toMatchObject({ system: 'better', test: 'easier' });
  });

  it('a change with no spread at all still counts (every resample equal, BCa undefined)', () => {
    const r = run(
      (k) => k >= 30,
      (k) => k >= 10,
      () => 1,
    );
    expect(r.instrument.estimate).toBe(10 / 40);
    expect(r.instrument.standardError).toBeLessThan(1e-12);
    expect(r.instrument.direction).toBe('up');
  });
});

describe('attributeDrift: inputs', () => {
  const a = scores('m', { x: 1, y: 0, z: 1 });
  const b = scores('m', { x: 1, y: 1 });

  it('refuses unpaired items unless told to drop them', () => {
    expect(() => attributeDrift({ before: a, rerun: b, after: b }, FAST)).toThrow(/m.csv: 1 item is not scored in both the before and the re-run scores: "z"; pass --drop-unpaired/);
    const r = attributeDrift({ before: a, rerun: b, after: b }, { ...FAST, dropUnpaired: true });
    expect(r.model.n).toBe(2);
    expect(r.dropped.unpaired).toBe(1);
    expect(r.warnings[0]).toMatch(/1 item scored in only one of before \/ re-run left out/);
  });

  it("restricts to the archived versions' eval items and takes their strata", () => {
    const r = attributeDrift(
      { before: a, rerun: a, after: b },
      { ...FAST, previousItems: [{ item: 'x', stratum: 's1' }, { item: 'y', stratum: 's2' }], currentItems: [{ item: 'x', stratum: 's1' }], previousVersion: 'P', currentVersion: 'C' },
    );
    expect(r.items).toEqual({ before: 2, rerun: 2, after: 1 });
    expect(r.strata.map((s) => s.stratum)).toEqual(['s1', 's2']);
    expect(r.warnings).toContain("m.csv: 1 item not among P's eval items ignored");
    expect(r.warnings).toContain("m.csv: 1 item not among C's eval items ignored");
    expect(() => attributeDrift({ before: a, rerun: a, after: b }, { ...FAST, currentItems: [{ item: 'q', stratum: 's' }], currentVersion: 'C' })).toThrow(/no item left to compare \(none is among C's eval items\)/);
  });

  it('refuses strata that disagree between files', () => {
    const s1 = scores('m', { x: 1 }, { x: 'easy' });
    const s2 = scores('m', { x: 1 }, { x: 'hard' });
    expect(() => attributeDrift({ before: s1, rerun: s2, after: s2 }, FAST)).toThrow(/item "x" is in stratum "hard" here but "easy" elsewhere/);
  });

  it('driftScoresFromTable picks the one model, or the named one, averaging repeats', () => {
    const one = scoresFromRows([
      { item: 'a', model: 'sys', score: 1, repeat: 1 },
      { item: 'a', model: 'sys', score: 0, repeat: 2 },
    ]);
    expect(driftScoresFromTable(one)).toMatchObject({ model: 'sys', items: ['a'], scores: [0.5], strata: null, clusters: null });
    const two = scoresFromRows([
      { item: 'a', model: 'x', score: 1 },
      { item: 'a', model: 'y', score: 0 },
    ]);
    expect(() => driftScoresFromTable(two)).toThrow(/holds 2 models \(x, y\); name the system with --model/);
    expect(driftScoresFromTable(two, 'y').scores).toEqual([0]);
    expect(() => driftScoresFromTable(two, 'z')).toThrow(/model "z" is not in the scores/);
  });
});
