import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module without types
import { summarise, tables } from '../../bench/peers/summary.mjs';

// The arithmetic the peers tables (docs/peers.md) rest on, on hand-made results whose rates are known.
const cell = (kind: string, truth: number) => ({ id: 'c0', kind, family: 'f', design: 'd', size: 20, reps: [{ truth }] });

describe('peers summary', () => {
  it('interval: coverage, MC SE, mean width and zero-width rate over every replicate; a failed call is a miss', () => {
    const results = { benchplan: { c0: { results: { default: [[-0.1, 0.1], [0.05, 0.2], [0, 0], null] }, msPerCall: 1 } } };
    const [row] = summarise([cell('interval', 0)], results, {});
    const s = row.tools.benchplan;
    expect(s.coverage).toBe(0.5); // [−0.1, 0.1] and [0, 0] contain 0; [0.05, 0.2] misses; null misses
    expect(s.se).toBeCloseTo(Math.sqrt(0.25 / 4), 12);
    expect(s.meanWidth).toBeCloseTo((0.2 + 0.15 + 0) / 3, 12);
    expect(s.zeroWidth).toBe(0.25);
    expect(s.failed).toBe(1);
  });
  it('interval: the narrowest covering peer excludes peers below 0.93 or with zero-width intervals', () => {
    const wide = Array.from({ length: 100 }, () => [-0.2, 0.2]);
    const narrow = Array.from({ length: 100 }, (_, i) => (i < 90 ? [-0.05, 0.05] : [0.1, 0.15])); // covers 0.90
    const zero = Array.from({ length: 100 }, (_, i) => (i < 99 ? [-0.01, 0.01] : [0, 0])); // covers 1.0 but one zero width
    const results = { benchplan: { c0: { results: { default: wide }, msPerCall: 1 } }, p: { c0: { results: { default: narrow, b: wide.map(([a, b]) => [a / 2, b / 2]), z: zero }, msPerCall: { default: 1, b: 1, z: 1 }, cannot: {} } } };
    const [row] = summarise([cell('interval', 0)], results, {});
    expect(row.narrowestCoveringPeer.name).toBe('p (b)');
    expect(row.narrowestCoveringPeer.benchplanRatio).toBeCloseTo(2, 12);
  });
  it('gate: the pass rate over every replicate', () => {
    const results = { benchplan: { c0: { results: { default: [true, false, false, false, true] }, msPerCall: 1 } } };
    const [row] = summarise([cell('gate', -0.05)], results, {});
    expect(row.tools.benchplan.passRate).toBeCloseTo(0.4, 12);
  });
  it('monitor: share decided and mean / median items among the decided', () => {
    const results = { benchplan: { c0: { results: { default: [100, 300, null, 200] }, msPerCall: 1 } } };
    const [row] = summarise([cell('monitor', 0.1)], results, {});
    expect(row.tools.benchplan.decidedRate).toBe(0.75);
    expect(row.tools.benchplan.meanItems).toBe(200);
    expect(row.tools.benchplan.medianItems).toBe(200);
  });
  it('monitor table: a peer stopped by its budget is marked R=k; a monitor-only run has no time table', () => {
    const results = { benchplan: { c0: { results: { default: [100, 300, null, 200] }, msPerCall: 1 } }, p: { c0: { results: { default: [150, null, 250] }, msPerCall: { default: 1 }, cannot: {} } } };
    const summary = summarise([cell('monitor', 0.1)], results, {});
    const md = tables({ command: 'x', date: '2026-12-02T00:00:00Z', replicates: 4, seconds: 1, machine: { cpus: 2, loadAverage: [1, 1, 1], node: 'v20', python: null }, peers: {} }, summary);
    expect(md).toContain('0.667 ± 0.272; 200 (200) R=3');
    expect(md).toContain('0.750 ± 0.217; 200 (200) |');
    expect(md).not.toContain('Time per call');
  });
});
