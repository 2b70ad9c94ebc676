import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gateBlindSpot } from '../../src/gate/blind-spot.js';
import { nonInferiorityFromScores } from '../../src/gate/gate.js';

interface Case { units: number; width: number; margin: number; confidenceLevel: number; blind: boolean; share: number; maxHiddenDrop: number; unitsToRuleOut: number }
const reference = JSON.parse(readFileSync(new URL('../reference/gate-blind-spot/blind_spot.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('gateBlindSpot against scipy (binom.pmf(0, n, f) = α by brentq; N by scanning n)', () => {
  it('agrees on every case of the grid, blind or not', () => {
    expect(reference.cases.length).toBe(135);
    for (const c of reference.cases) {
      const spot = gateBlindSpot(c.units, c.width, c.margin, c.confidenceLevel);
      expect(spot !== null, JSON.stringify(c)).toBe(c.blind);
      if (spot === null) {
        expect(c.unitsToRuleOut).toBeLessThanOrEqual(c.units);
        continue;
      }
      expect(spot.share).toBeCloseTo(c.share, 12);
      expect(spot.maxHiddenDrop).toBeCloseTo(c.maxHiddenDrop, 12);
      expect(spot.unitsToRuleOut).toBe(c.unitsToRuleOut);
      expect(spot.unitsToRuleOut).toBeGreaterThan(c.units);
    }
  });

  it('is null at and above the units that rule the margin out (hand: 0.95^58 = 0.0510 ≥ 0.05 > 0.95^59 = 0.0485)', () => {
    expect(gateBlindSpot(58, 1, 0.05, 0.95)?.unitsToRuleOut).toBe(59);
    expect(gateBlindSpot(59, 1, 0.05, 0.95)).toBeNull();
    expect(gateBlindSpot(5, 1, 1, 0.95)).toBeNull();
    expect(gateBlindSpot(1000, 1, 0, 0.95)?.unitsToRuleOut).toBeNull();
  });

  it('refuses impossible arguments', () => {
    expect(() => gateBlindSpot(0, 1, 0.05, 0.95)).toThrow(/units must be a positive integer \(got 0\)/);
    expect(() => gateBlindSpot(10, 0, 0.05, 0.95)).toThrow(/width/);
    expect(() => gateBlindSpot(10, 1, -0.1, 0.95)).toThrow(/margin/);
    expect(() => gateBlindSpot(10, 1, 0.05, 1)).toThrow(/confidenceLevel/);
  });
});

describe('the gate reports its blind spot on a pass on a bounded scale', () => {
  const n = 30;
  const baseline = Array.from({ length: n }, (_, i) => 0.5 + 0.01 * (i % 7));
  const candidate = baseline.map((b, i) => b + 0.02 + 0.004 * ((i % 5) - 2));

  it('a pass on 30 [0, 1] items at margin 0.05 names the 9.5% it cannot see and the 59 items that would', () => {
    const r = nonInferiorityFromScores({ candidate, baseline }, { margin: 0.05 });
    expect(r.verdict).toBe('pass');
    expect(r.blindSpot).toMatchObject({ units: 30, unit: 'item', width: 1, unitsToRuleOut: 59 });
    expect(r.blindSpot?.share).toBeCloseTo(0.0950338528553, 12);
    expect(r.warnings.at(-1)).toMatch(/^blind spot: 30 items miss a regression confined to 9\.50% of items .* 59 items would rule it out$/);
  });

  it('has none where the sample rules the margin out, on an unbounded scale, or when the gate does not pass', () => {
    expect(nonInferiorityFromScores({ candidate, baseline }, { margin: 0.11 }).blindSpot).toBeNull();
    const scaled = nonInferiorityFromScores({ candidate: candidate.map((x) => 10 * x), baseline: baseline.map((x) => 10 * x) }, { margin: 0.5 });
    expect(scaled.verdict).toBe('pass');
    expect(scaled.blindSpot).toBeNull();
    const declared = nonInferiorityFromScores({ candidate: candidate.map((x) => 10 * x), baseline: baseline.map((x) => 10 * x) }, { margin: 0.5, scoreRange: [0, 10] });
    expect(declared.blindSpot).toMatchObject({ width: 10, unitsToRuleOut: 59 });
    const failing = nonInferiorityFromScores({ candidate: baseline.map((b) => b - 0.2), baseline }, { margin: 0.05 });
    expect(failing.verdict).not.toBe('pass');
    expect(failing.blindSpot).toBeNull();
  });

  it('counts clusters, not items, with clusters', () => {
    const cluster = Int32Array.from({ length: n }, (_, i) => i % 10);
    const r = nonInferiorityFromScores({ candidate, baseline, cluster }, { margin: 0.05 });
    expect(r.verdict).toBe('pass');
    expect(r.blindSpot).toMatchObject({ units: 10, unit: 'cluster', unitsToRuleOut: 59 });
    expect(r.warnings.at(-1)).toMatch(/^blind spot: 10 clusters miss a regression confined to 25\.9% of clusters /);
  });
});
