// The exact paired 0/1 interval benches' shared parts (bench/peers/tango-n200.mjs,
// bench/peers/paired-intervals-more.mjs): issue 25's two-sided grid, the Tango-vs-Wald cell, the
// pseudo-count Wald intervals, and the exact evaluation of any interval that depends on (n, b, c) only.
// No Monte Carlo: each table is weighted by its trinomial probability (bench/trinomial.mjs).
import { enumerateTables } from '../trinomial.mjs';

export const Z2 = 1.959963984540054;
/** Issue 25's bar on the minimum two-sided 95% coverage. */
export const COVERS = 0.93;
// issue 25's two-sided grid (bench/binary-exact-study.mjs NS, RS, FS)
export const NS = [10, 20, 30, 39, 50, 100, 200, 500, 1000];
export const RS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5];
export const FS = [-1, -0.5, -0.2, 0, 0.2, 0.5, 1];
/** The peers page's cell: 0/1 scores, n = 200, 5% discordance split evenly (truth 0). */
export const CELL = { n: 200, p10: 0.025, p01: 0.025 };

/**
 * Wald interval for p10 − p01 after adding pseudo-counts: `discordant` to b and c, `concordant` to
 * each concordant cell. p̃10 = (b + kd)/m, p̃01 = (c + kd)/m, m = n + 2kd + 2kc;
 * SE² = (p̃10 + p̃01 − (p̃10 − p̃01)²)/m; p̃10 − p̃01 ± z SE clipped to [−1, 1].
 * kd = kc = k: Agresti & Min (2005) (k = 0.5 theirs, k = 0 Wald); kd = 1, kc = 0: Bonett & Price (2012)
 * as Fagerland, Lydersen & Laake (2014) code it (contingencytables::Wald_CI_BonettPrice_paired_2x2).
 */
export function pseudoCountWald(n, b, c, discordant, concordant, z = Z2) {
  const m = n + 2 * (discordant + concordant); // = n + 4k to the last bit when kd = kc = k
  const p10 = (b + discordant) / m;
  const p01 = (c + discordant) / m;
  const d = p10 - p01;
  const se = Math.sqrt(Math.max(0, p10 + p01 - d * d) / m);
  return [Math.max(-1, d - z * se), Math.min(1, d + z * se)];
}

/** Adjusted Wald, k added to each of the four cells (Agresti & Min 2005; k = 0 is Wald). */
export function adjustedWald(n, b, c, k) {
  return pseudoCountWald(n, b, c, k, k);
}

/** The grid's cells in a fixed order: { n, r, f, p10, p01 }. */
export function gridCells() {
  const cells = [];
  for (const n of NS) for (const r of RS) for (const f of FS) cells.push({ n, r, f, p10: (r * (1 + f)) / 2, p01: (r * (1 - f)) / 2 });
  return cells;
}

/**
 * Coverage, expected width and zero-width probability of every method at one (n, p10, p01), exactly.
 * `methods`: [name, (n, b, c) => [low, high]] pairs. Returns the kept mass and per-method results.
 */
export function evaluateCell(methods, n, p10, p01) {
  const truth = p10 - p01;
  const acc = methods.map(() => ({ coverage: 0, width: 0, zeroWidth: 0 }));
  const mass = enumerateTables(n, p10, p01, (b, c, p) => {
    methods.forEach(([, f], i) => {
      const [lo, hi] = f(n, b, c);
      if (lo <= truth + 1e-12 && truth - 1e-12 <= hi) acc[i].coverage += p;
      acc[i].width += p * (hi - lo);
      if (hi - lo <= 1e-9) acc[i].zeroWidth += p;
    });
  });
  return { mass, byMethod: Object.fromEntries(methods.map(([name], i) => [name, { coverage: acc[i].coverage / mass, width: acc[i].width / mass, zeroWidth: acc[i].zeroWidth / mass }])) };
}

/**
 * Every method over issue 25's grid (or `cells`): the minimum coverage and where it is, the mean
 * coverage (the plain average over the cells, as binary-exact-study.mjs's meanCoverage), and the number
 * of cells below COVERS.
 */
export function evaluateGrid(methods, cells = gridCells()) {
  const worst = Object.fromEntries(methods.map(([name]) => [name, { minCoverage: 2, at: null, sum: 0, below: 0 }]));
  let minMass = 1;
  for (const { n, r, f, p10, p01 } of cells) {
    const res = evaluateCell(methods, n, p10, p01);
    minMass = Math.min(minMass, res.mass);
    for (const [name, s] of Object.entries(res.byMethod)) {
      const w = worst[name];
      w.sum += s.coverage;
      if (s.coverage < COVERS) w.below += 1;
      if (s.coverage < w.minCoverage) Object.assign(w, { minCoverage: s.coverage, at: { n, r, f, p10, p01 } });
    }
  }
  const byMethod = Object.fromEntries(Object.entries(worst).map(([name, w]) => [name, { minCoverage: w.minCoverage, at: w.at, meanCoverage: w.sum / cells.length, cellsBelowBar: w.below }]));
  return { cells: cells.length, minMass, byMethod };
}
