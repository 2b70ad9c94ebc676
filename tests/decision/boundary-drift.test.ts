import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { historyChartSpec } from '../../src/charts/history.js';
import { renderChartSvg } from '../../src/charts/render.js';
import { loadScores, scoresFromRows } from '../../src/data/scores.js';
import { boundaryDrift } from '../../src/decision/boundary-drift.js';
import { runHistory } from '../../src/decision/history.js';
import { runCli } from '../helpers/cli.js';

const DATES = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'];
const runs = DATES.map((date) => ({ date, table: loadScores(`examples/history/${date}.csv`) }));
const RERUN = 'examples/history/2026-11-23-rerun.csv';
const rerun = loadScores(RERUN);

/** item → [stratum, score] of one bundled CSV, read with nothing but split (the hand computation). */
function csv(path: string): Map<string, { stratum: string; score: number }> {
  const out = new Map<string, { stratum: string; score: number }>();
  for (const line of readFileSync(path, 'utf8').trim().split('\n').slice(1)) {
    const [item, , stratum, score] = line.split(',');
    out.set(item, { stratum, score: Number(score) });
  }
  return out;
}
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
const before = csv('examples/history/2026-11-16.csv');
const after = csv('examples/history/2026-11-23.csv');
const again = csv(RERUN);
const shared = [...before.keys()].filter((x) => after.has(x));

describe('boundaryDrift: the split at a version boundary', () => {
  it('with a re-run: system = mean(rerun − before), instrument = mean(after) − mean(rerun), and they add up to the change', () => {
    const a = boundaryDrift(runs[2].table, runs[3].table, 'prod', rerun, { nResamples: 999, seed: 0 });
    expect(a.mode).toBe('rerun');
    const system = mean([...before.keys()].map((x) => again.get(x)!.score - before.get(x)!.score));
    const instrument = mean([...after.values()].map((v) => v.score)) - mean([...again.values()].map((v) => v.score));
    const total = mean([...after.values()].map((v) => v.score)) - mean([...before.values()].map((v) => v.score));
    expect(a.system.estimate).toBeCloseTo(system, 12);
    expect(a.instrument.estimate).toBeCloseTo(instrument, 12);
    expect(a.total).toBeCloseTo(total, 12);
    expect(a.retired).toBe(0);
    expect(a.system.n).toBe(80);
    // The re-run scores the shared items as the boundary run does (the same system, the same week).
    for (const x of shared) expect(again.get(x)!.score).toBe(after.get(x)!.score);
  });

  it('without one: system on the 65 shared items, instrument = added vs shared, retired = shared vs all on the previous system', () => {
    const a = boundaryDrift(runs[2].table, runs[3].table, 'prod', null, { nResamples: 999, seed: 0 });
    expect(a.mode).toBe('shared items');
    expect([a.shared, a.retiredItems, a.addedItems]).toEqual([65, 15, 15]);
    expect(a.system.n).toBe(65);
    const system = mean(shared.map((x) => after.get(x)!.score - before.get(x)!.score));
    const instrument = mean([...after.values()].map((v) => v.score)) - mean(shared.map((x) => after.get(x)!.score));
    const retired = mean(shared.map((x) => before.get(x)!.score)) - mean([...before.values()].map((v) => v.score));
    expect(a.system.estimate).toBeCloseTo(system, 12);
    expect(a.instrument.estimate).toBeCloseTo(instrument, 12);
    expect(a.retired).toBeCloseTo(retired, 12);
    expect(a.system.estimate + a.instrument.estimate + a.retired).toBeCloseTo(a.total, 12);
    // The retired items are unpaired by construction: no warning says so.
    expect(a.warnings.filter((w) => /left out/.test(w))).toEqual([]);
  });

  it('per stratum, the system part is the paired mean change of the stratum (hand: routine)', () => {
    const a = boundaryDrift(runs[2].table, runs[3].table, 'prod', rerun, { nResamples: 199 });
    const routine = [...before.keys()].filter((x) => before.get(x)!.stratum === 'routine');
    expect(a.strata.find((h) => h.stratum === 'routine')!.system).toBeCloseTo(mean(routine.map((x) => again.get(x)!.score - before.get(x)!.score)), 12);
  });

  it('gives the intervals `benchplan drift` gives on the same three files and seed', async () => {
    const a = boundaryDrift(runs[2].table, runs[3].table, 'prod', rerun, { nResamples: 999, seed: 'seven' });
    const drift = await runCli(['drift', '--before', 'examples/history/2026-11-16.csv', '--rerun', RERUN, '--after', 'examples/history/2026-11-23.csv', '--resamples', '999', '--seed', 'seven', '--json']);
    expect(drift.code).toBe(0);
    const doc = JSON.parse(drift.stdout);
    expect(a.system.confidenceInterval).toEqual(doc.model.confidenceInterval);
    expect(a.instrument.confidenceInterval).toEqual(doc.instrument.confidenceInterval);
    expect(a.verdict).toEqual(doc.verdict);
  });
});

describe('runHistory: drift attribution at version boundaries', () => {
  const weights = [
    { stratum: 'routine', weight: 0.72 },
    { stratum: 'rare_clause', weight: 0.05 },
    { stratum: 'past_failure', weight: 0.03 },
    { stratum: 'negative_control', weight: 0.2 },
  ];
  const result = runHistory(runs, { weights, attribution: { reruns: [{ date: '2026-11-23', table: rerun }], nResamples: 999, seed: 0 } });

  it('splits the boundary run only, with the re-run, seeded per date and model', () => {
    expect(result.runs.map((r) => r.attribution.length)).toEqual([0, 0, 0, 1]);
    const a = result.runs[3].attribution[0];
    expect(result.runs[3].rerun).toBe(RERUN);
    expect(a).toMatchObject({ model: 'prod', mode: 'rerun', seed: '0:2026-11-23:prod', nResamples: 999, method: 'bca' });
    expect(a).toEqual(boundaryDrift(runs[2].table, runs[3].table, 'prod', rerun, { nResamples: 999, seed: '0:2026-11-23:prod', weights, previousVersion: null, currentVersion: null }));
    expect(result.attributionSettings).toEqual({ method: 'bca', nResamples: 999, seed: '0' });
  });

  it("splits the reweighted headline's change as Σ traffic × per stratum, adding up to the points' change", () => {
    const a = result.runs[3].attribution[0];
    const w = new Map(weights.map((x) => [x.stratum, x.weight]));
    const total = a.strata.reduce((t, h) => t + w.get(h.stratum)! * h.total, 0);
    expect(a.reweighted!.total).toBeCloseTo(total, 12);
    expect(a.reweighted!.system + a.reweighted!.instrument).toBeCloseTo(a.reweighted!.total, 12);
    // Hand: the reweighted headline of each run is Σ traffic × stratum mean, so its change is the same sum.
    const headline = (k: number) => result.runs[k].models[0].points.find((p) => p.scope === 'headline')!.estimate;
    expect(headline(3) - headline(2)).toBeCloseTo(a.reweighted!.total, 12);
  });

  it('refuses a re-run at a run that is not a boundary, or at no run; attribution false skips it', () => {
    expect(() => runHistory(runs, { attribution: { reruns: [{ date: '2026-11-16', table: rerun }] } })).toThrow('not at a version boundary');
    expect(() => runHistory(runs, { attribution: { reruns: [{ date: '2026-11-30', table: rerun }] } })).toThrow('no run has this date');
    const off = runHistory(runs, { attribution: false });
    expect(off.runs[3].attribution).toEqual([]);
    expect(off.attributionSettings).toBeNull();
  });

  it('says why when nothing is shared and there is no re-run, and does not fail', () => {
    const a = scoresFromRows([{ item: 'x', model: 'm', score: 0 }, { item: 'y', model: 'm', score: 1 }]);
    const b = scoresFromRows([{ item: 'q', model: 'm', score: 1 }, { item: 'r', model: 'm', score: 0 }]);
    const r = runHistory([{ date: '2026-01-01', table: a }, { date: '2026-01-08', table: b }], { attribution: { nResamples: 99 } });
    expect(r.runs[1].attribution).toEqual([]);
    expect(r.warnings).toContain('2026-01-08: m: the change at the version boundary cannot be split: <rows> shares no item with the previous run; give a re-run of the previous version (--rerun)');
    expect(() => boundaryDrift(a, b, 'm', null)).toThrow('shares no item with the previous run');
  });

  it('labels the boundary in every panel of the chart with the split', async () => {
    const spec = historyChartSpec(result) as unknown as { data: { values: Array<Record<string, unknown>> } };
    const labels = spec.data.values.filter((r) => r.kind === 'attribution');
    expect(labels.map((r) => r.scope)).toEqual(['headline', 'routine', 'rare_clause', 'past_failure', 'negative_control']);
    const a = result.runs[3].attribution[0];
    const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Number(Math.abs(x).toPrecision(2))}`;
    expect(labels[0].label).toBe(`sys ${signed(a.reweighted!.system)} · test ${signed(a.reweighted!.instrument)}`);
    const svg = await renderChartSvg(historyChartSpec(result));
    expect(svg).toContain(`sys ${signed(a.reweighted!.system)}`);
  });
});

describe('benchplan history --rerun', () => {
  const args = [...DATES.flatMap((d) => ['--run', `${d}=examples/history/${d}.csv`]), '--strata', 'examples/strata.yaml', '--resamples', '999'];
  it('prints and writes the split at the boundary', async () => {
    const run = await runCli(['history', ...args, '--rerun', `2026-11-23=${RERUN}`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`| version boundary at 2026-11-23: 15 items added, 15 removed; the change splits into the system's and the test's (drift attribution, re-run ${RERUN}):`);
    expect(run.stdout).toMatch(/system \(paired on the re-run's 80 items\) +0\.0125/);
    const json = JSON.parse((await runCli(['history', ...args, '--rerun', `2026-11-23=${RERUN}`, '--json'])).stdout);
    expect(json.runs[3].attribution[0]).toMatchObject({ mode: 'rerun', model: 'prod' });
    expect(json.attributionSettings).toEqual({ method: 'bca', nResamples: 999, seed: '0' });
    const percentile = JSON.parse((await runCli(['history', ...args, '--drift-method', 'percentile', '--json'])).stdout);
    expect(percentile.attributionSettings.method).toBe('percentile');
    expect(percentile.runs[3].attribution[0].method).toBe('percentile');
    const bare = await runCli(['history', ...args]);
    expect(bare.stdout).toMatch(/retired items \(15, on the previous system\)/);
  });
  it('exits 2 for a re-run that is not DATE=FILE, or off a boundary', async () => {
    const bad = await runCli(['history', ...args, '--rerun', RERUN]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rerun: must be DATE=FILE');
    const off = await runCli(['history', ...args, '--rerun', `2026-11-16=${RERUN}`]);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('not at a version boundary');
  });
});
