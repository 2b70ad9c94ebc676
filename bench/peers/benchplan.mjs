// benchplan's side of the peers study: every replicate of every cell through the library
// (dist/, built by `npm run peers`) in this one Node process: the same calls `compare`, `gate`,
// `judge` and `monitor` make, at their defaults. Returns per cell and method the per-replicate
// results in the shape bench/peers/peer.py writes for a peer, and the time per call.
import { autoPairedInterval } from '../../dist/paired/auto-interval.js';
import { nonInferiorityFromScores } from '../../dist/gate/gate.js';
import { ppiMean } from '../../dist/judge/ppi-mean.js';
import { createSequence } from '../../dist/sequential/sequence.js';

/** The gate's margin where a cell sets none (the synthetic gate cells); a real gate cell carries its own (designs.mjs). */
export const MARGIN = 0.05;

const clusterIndex = (cluster) => (cluster ? Int32Array.from(cluster) : null);

/** One replicate through benchplan: { method: result } (interval [low, high], gate boolean, monitor items or null). */
function runOne(cell, rep, r) {
  const kind = cell.kind;
  if (kind === 'interval') {
    const res = autoPairedInterval(rep.a, rep.b, { cluster: clusterIndex(rep.cluster), seed: r });
    return { default: res.confidenceInterval, methodUsed: res.methodUsed };
  }
  if (kind === 'gate') {
    const res = nonInferiorityFromScores({ candidate: rep.a, baseline: rep.b }, { margin: cell.margin ?? MARGIN, seed: r });
    return { default: res.passed, methodUsed: res.methodUsed };
  }
  if (kind === 'judge') {
    const res = ppiMean(rep.labels, rep.predictions, rep.unlabelled);
    return { default: res.confidenceInterval };
  }
  // monitor: the aGRAPA sequence monitor's auto picks, a look after every item
  const seq = createSequence('agrapa', { range: [-1, 1] });
  for (let i = 0; i < rep.a.length; i++) {
    seq.push(rep.a[i] - rep.b[i]);
    if (seq.lower > 0 || seq.upper < 0) return { default: i + 1 };
  }
  return { default: null };
}

/**
 * Runs every cell's replicates; returns { [cellId]: { results: { default: [...] }, methodUsed: {name: count}, msPerCall } }.
 */
export function runBenchplan(cells, reps) {
  const out = {};
  for (const cell of cells) {
    if (cell.skipped) continue;
    const results = [];
    const used = {};
    const times = [];
    cell.reps.forEach((rep, r) => {
      const t0 = process.hrtime.bigint();
      const one = runOne(cell, rep, r);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      results.push(one.default);
      if (one.methodUsed) used[one.methodUsed] = (used[one.methodUsed] ?? 0) + 1;
    });
    times.sort((x, y) => x - y);
    out[cell.id] = { results: { default: results }, methodUsed: used, msPerCall: times[Math.floor(times.length / 2)] };
  }
  return out;
}
