import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoresFromRows } from '../../src/data/scores.js';
import { measureSaturation, saturationTrend, type SaturationResult } from '../../src/rotation/saturation.js';

const reference = JSON.parse(readFileSync(new URL('../reference/rotation/reference.json', import.meta.url), 'utf8')) as {
  trend: { dates: string[]; shares: number[]; threshold: number; slopePerYear: number; saturatesOn: string };
};

const items = [
  { item: 'r1', stratum: 'routine' },
  { item: 'r2', stratum: 'routine' },
  { item: 'r3', stratum: 'routine' },
  { item: 'r4', stratum: 'routine' },
  { item: 'h1', stratum: 'hard' },
  { item: 'h2', stratum: 'hard' },
  { item: 'h3', stratum: 'hard' },
  { item: 'd1', stratum: 'routine', split: 'dev' as const },
];

// alpha / beta per item (1 = pass). Every candidate passes: r1, r2, r3 (routine), h1 (hard).
const rows = [
  ['r1', 1, 1],
  ['r2', 1, 1],
  ['r3', 1, 1],
  ['r4', 1, 0],
  ['h1', 1, 1],
  ['h2', 0, 1],
  ['h3', 0, 0],
  ['zz', 1, 1], // not in the version
].flatMap(([item, a, b]) => [
  { item: String(item), model: 'alpha', score: Number(a) },
  { item: String(item), model: 'beta', score: Number(b) },
]);

describe('measureSaturation', () => {
  it('hand computation: routine 3/4, hard 1/3, overall 4/7, warning above the threshold', () => {
    const r = measureSaturation(items, scoresFromRows(rows), { warnAbove: 0.7 });
    expect(r.strata).toEqual([
      { stratum: 'routine', items: 4, scored: 4, saturated: 3, share: 0.75, warning: true },
      { stratum: 'hard', items: 3, scored: 3, saturated: 1, share: 1 / 3, warning: false },
    ]);
    expect(r.overall).toEqual({ items: 7, scored: 7, saturated: 4, share: 4 / 7, warning: false });
    expect(r.saturatedItems).toEqual(['h1', 'r1', 'r2', 'r3']);
    expect(r.warnings).toEqual(['stratum "routine" is saturated: every candidate passes 3 of 4 items (75.0% > 70%)', 'scores for 1 item not among the version\'s eval items were ignored']);
    expect(r.models).toEqual(['alpha', 'beta']);
  });

  it('counts only the named candidates, averages repeats, and uses the pass threshold', () => {
    expect(measureSaturation(items, scoresFromRows(rows), { models: ['alpha'] }).overall.saturated).toBe(5);
    const repeated = scoresFromRows([
      { item: 'r1', model: 'a', score: 1, repeat: 1 },
      { item: 'r1', model: 'a', score: 0, repeat: 2 },
      { item: 'r2', model: 'a', score: 90, repeat: 1 },
    ]);
    const two = [items[0], items[1]];
    expect(measureSaturation(two, repeated, { pass: 0.5 }).saturatedItems).toEqual(['r1', 'r2']); // r1's mean is 0.5
    expect(measureSaturation(two, repeated, { pass: 0.6 }).saturatedItems).toEqual(['r2']);
    expect(measureSaturation(two, repeated, { pass: 95 }).saturatedItems).toEqual([]);
  });

  it('leaves out items some candidate did not score, and refuses when none is scored', () => {
    const partial = scoresFromRows(rows.filter((r) => !(r.item === 'r4' && r.model === 'beta')));
    const r = measureSaturation(items, partial);
    expect(r.unscoredItems).toEqual(['r4']);
    expect(r.strata[0]).toMatchObject({ items: 4, scored: 3, saturated: 3, share: 1 });
    expect(() => measureSaturation([{ item: 'nope', stratum: 's' }], partial)).toThrow(/no eval item of the version is scored by every candidate/);
    expect(() => measureSaturation(items, partial, { models: ['gamma'] })).toThrow(/model "gamma" is not in the scores/);
  });
});

/** A saturation result with the given overall share (and one stratum with the same). */
function point(share: number, warnAbove = 0.8): SaturationResult {
  return {
    pass: 1,
    passIsDefault: true,
    maxScore: 1,
    warnAbove,
    models: ['a'],
    strata: [{ stratum: 's', items: 100, scored: 100, saturated: share * 100, share, warning: share > warnAbove }],
    overall: { items: 100, scored: 100, saturated: share * 100, share, warning: share > warnAbove },
    saturatedItems: [],
    unscoredItems: [],
    warnings: [],
  };
}

describe('dates', () => {
  it('repeat their JSDoc examples and refuse non-days', async () => {
    const { isoDateToDays, daysToIsoDate, isIsoDate } = await import('../../src/data/dates.js');
    expect(isoDateToDays('1970-01-02')).toBe(1);
    expect(daysToIsoDate(1)).toBe('1970-01-02');
    expect([isIsoDate('2028-02-29'), isIsoDate('2026-02-29'), isIsoDate('2026-1-01'), isIsoDate('20260101')]).toEqual([true, false, false, false]);
  });
});

describe('saturationTrend', () => {
  it('fits the least-squares line of numpy.polyfit and solves for the threshold date (reference.py)', () => {
    const t = reference.trend;
    const points = t.dates.map((date, k) => ({ version: `q${k}`, date, saturation: point(t.shares[k]) }));
    const r = saturationTrend([...points].reverse(), { threshold: t.threshold });
    expect(Math.abs(r.overall.slopePerYear - t.slopePerYear)).toBeLessThan(1e-12);
    expect(r.overall).toMatchObject({ status: 'rising', saturatesOn: t.saturatesOn, points: 4, latest: 0.6 });
    expect(r.strata[0]).toMatchObject({ stratum: 's', saturatesOn: t.saturatesOn });
    expect(r.versions.map((v) => v.version)).toEqual(['q0', 'q1', 'q2', 'q3']);
  });

  it('hand computation with two points: 0.5 → 0.6 over 100 days reaches 0.8 200 days later', () => {
    const r = saturationTrend([
      { version: 'a', date: '2026-01-01', saturation: point(0.5) },
      { version: 'b', date: '2026-04-11', saturation: point(0.6) },
    ]);
    // 2026-04-11 is day 100 after 2026-01-01; +0.1 per 100 days; 0.8 needs 200 more days: 2026-10-28.
    expect(r.overall.saturatesOn).toBe('2026-10-28');
    expect(r.overall.slopePerYear).toBeCloseTo(0.36525, 12);
  });

  it('says when there are too few dates, when it is not rising, and when it is already saturated', () => {
    expect(saturationTrend([{ version: 'a', date: '2026-01-01', saturation: point(0.5) }]).overall.status).toBe('too-few');
    const falling = saturationTrend([
      { version: 'a', date: '2026-01-01', saturation: point(0.5) },
      { version: 'b', date: '2026-04-01', saturation: point(0.4) },
    ]);
    expect(falling.overall).toMatchObject({ status: 'not-rising', saturatesOn: null });
    const done = saturationTrend([
      { version: 'a', date: '2026-01-01', saturation: point(0.5) },
      { version: 'b', date: '2026-04-01', saturation: point(0.9) },
    ]);
    expect(done.overall.status).toBe('saturated');
    expect(() => saturationTrend([{ version: 'a', date: '2026-13-01', saturation: point(0.5) }])).toThrow(/date must be YYYY-MM-DD/);
  });
});
