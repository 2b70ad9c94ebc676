import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module without types
import { criteria, gateSizes, summarise, tables } from '../../bench/peers/summary.mjs';

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
    // no criterion applies to monitoring cells: one line says so, not an empty criteria table
    expect(md).toContain('it sets no bar for monitoring');
    expect(md).not.toContain('| criterion | design | n | benchplan | against | holds |');
  });
});

// bench/peers/real-gate-cells.txt: V1 reads a peer's false pass in the power cell's twin only; V2 (size)
// needs it ≤ 0.055 in every false-pass cell of the same score type. Hand-made pass/fail lists, so the
// rates are known: k passes of 100.
describe('peers gate validity: per-cell twin (V1) and size over every false-pass cell (V2)', () => {
  const passes = (k: number) => Array.from({ length: 100 }, (_, i) => i < k);
  const gateCell = (id: string, family: string, size: number, truth: number, role: string) => ({ id, kind: 'gate', family, design: family, size, margin: 0.05, role, scoreType: 'bounded', reps: [{ truth }] });
  const cellsList = [
    gateCell('q-drop', 'gate-partial-drop', 50, -0.05, 'false-pass'),
    gateCell('q-zero', 'gate-partial-zero', 50, 0, 'power'),
    // a real power cell's truth is not 0 (margin σ/2 − truth): the role, not the truth, says it is a power cell
    gateCell('c-drop', 'gate-comet-drop', 50, -0.0042, 'false-pass'),
    gateCell('c-zero', 'gate-comet-zero', 50, -0.0042, 'power'),
  ];
  const results = {
    benchplan: { 'q-drop': { results: { default: passes(4) }, msPerCall: 1 }, 'q-zero': { results: { default: passes(20) }, msPerCall: 1 }, 'c-drop': { results: { default: passes(5) }, msPerCall: 1 }, 'c-zero': { results: { default: passes(40) }, msPerCall: 1 } },
    // tlike: valid in the quarter-point twin (0.05), false-passes on COMET (0.12): V1 counts it, V2 does not
    // strict: valid everywhere, less power
    p: {
      'q-drop': { results: { tlike: passes(5), strict: passes(2) }, msPerCall: { tlike: 1, strict: 1 }, cannot: {} },
      'q-zero': { results: { tlike: passes(30), strict: passes(22) }, msPerCall: { tlike: 1, strict: 1 }, cannot: {} },
      'c-drop': { results: { tlike: passes(12), strict: passes(3) }, msPerCall: { tlike: 1, strict: 1 }, cannot: {} },
      'c-zero': { results: { tlike: passes(90), strict: passes(60) }, msPerCall: { tlike: 1, strict: 1 }, cannot: {} },
    },
  };
  const summary = summarise(cellsList, results, {});
  it('gateSizes: each method\'s worst false-pass cell, whether it qualifies, and which failures are beyond 1.96 MC SE', () => {
    const sizes = gateSizes(summary).bounded;
    expect(sizes['p (tlike)'].worst.passRate).toBeCloseTo(0.12, 12);
    expect(sizes['p (tlike)'].worst.design).toBe('gate-comet-drop');
    expect(sizes['p (tlike)'].qualifies).toBe(false);
    // 0.12 − 1.96·√(0.12·0.88/100) = 0.056 > 0.055: separated
    expect(sizes['p (tlike)'].separated).toHaveLength(1);
    expect(sizes['p (strict)'].qualifies).toBe(true);
    expect(sizes['p (strict)'].cells).toBe(2);
    expect(sizes.benchplan.qualifies).toBe(true);
  });
  it('criteria: V1 compares with the best peer valid in the twin, V2 with the best of size ≤ 0.055', () => {
    const rows = criteria(summary).rows.filter((r: { criterion: string }) => r.criterion.startsWith('gate power'));
    const at = (criterion: string, design: string) => rows.find((r: { criterion: string; design: string }) => r.criterion === criterion && r.design === design);
    // quarter points: V1 bar = tlike 0.30 − 0.05 = 0.25 > 0.20 (fails); V2 bar = strict 0.22 − 0.05 = 0.17 (holds)
    expect(at('gate power ≥ best valid peer − 0.05', 'gate-partial-zero').against).toContain('p (tlike) 0.300');
    expect(at('gate power ≥ best valid peer − 0.05', 'gate-partial-zero').holds).toBe(false);
    expect(at('gate power ≥ best peer of size ≤ 0.055 − 0.05', 'gate-partial-zero').against).toContain('p (strict) 0.220');
    expect(at('gate power ≥ best peer of size ≤ 0.055 − 0.05', 'gate-partial-zero').holds).toBe(true);
    // COMET: tlike's twin false pass 0.12 already excludes it under V1
    expect(at('gate power ≥ best valid peer − 0.05', 'gate-comet-zero').against).toContain('p (strict) 0.600');
    expect(at('gate power ≥ best valid peer − 0.05', 'gate-comet-zero').holds).toBe(false);
  });
  it('an old summary without role or scoreType: truth −0.05 is the false-pass cell, truth 0 the power cell', () => {
    const old = summary.map(({ role, scoreType, margin, ...r }: { role: string; scoreType: string; margin: number }) => r);
    expect(criteria(old).rows.filter((r: { criterion: string }) => r.criterion.startsWith('gate power')).map((r: { design: string }) => r.design)).toEqual(['gate-partial-zero', 'gate-partial-zero']);
  });
});
