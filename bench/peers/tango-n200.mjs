#!/usr/bin/env node
// The peers page's Tango-vs-Wald cell (0/1, n = 200, 5% discordance: p10 = p01 = 0.025, truth 0),
// computed EXACTLY over the trinomial (b, c, n − b − c) instead of by Monte Carlo; and the adjusted-Wald
// family "add k to each of the four cells" (Agresti & Min 2005; k = 0 is Wald) on issue 25's exact
// two-sided grid (bench/binary-exact-study.mjs), to find the narrowest member that keeps the minimum
// coverage ≥ 0.93 over the whole grid. Registered in bench/peers/h30-cells.txt before it ran.
// No Monte Carlo: every table is weighted by its probability; binomial tails below 1e-12 are skipped
// (the smallest kept mass is printed). These intervals depend on (b, c, n) only, not on the concordant split.
// Addendum 2b (registered before it ran): Tango at smaller quantiles z', the slack under that bar.
// Run: npm run build && node bench/peers/tango-n200.mjs   (writes bench/peers/runs/h30/tango-n200.json)
//   --render: the table from that JSON without re-computing; --write-docs: into docs/peers.md's
//   <!-- peers:tango-n200:start --> … <!-- peers:tango-n200:end --> markers.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedProportionBounds } from '../../dist/paired/index.js';
import { writeDocs } from './docs.mjs';
import { adjustedWald, CELL, COVERS, evaluateCell, evaluateGrid, FS, NS, RS, Z2 } from './paired-intervals.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// addendum 2b: Tango at a smaller quantile z' (the slack under issue 25's bar)
const ZS = [1.8, 1.85, 1.88, 1.9, 1.92, 1.94, 1.95];
const KS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2];

const tangoMemo = new Map();
/** benchplan's default paired 0/1 interval: Tango's score interval with the n/(n − 1) correction (at quantile z). */
function tango(n, b, c, z = Z2) {
  const key = `${z}|${n}|${b}|${c}`;
  let v = tangoMemo.get(key);
  if (v === undefined) {
    v = pairedProportionBounds({ both: n - b - c, onlyA: b, onlyB: c, neither: 0 }, 'tango', z);
    tangoMemo.set(key, v);
  }
  return v;
}

const methods = [
  ['tango', (n, b, c) => tango(n, b, c)],
  ...KS.map((k) => [k === 0 ? 'wald' : `adjusted-wald k=${k}`, (n, b, c) => adjustedWald(n, b, c, k)]),
  ...ZS.map((z) => [`tango z'=${z}`, (n, b, c) => tango(n, b, c, z)]),
];

const args = process.argv.slice(2);
const file = join(here, 'runs', 'h30', 'tango-n200.json');
const out = args.includes('--render') ? JSON.parse(readFileSync(file, 'utf8')) : compute();
const md = table(out);
if (args.includes('--write-docs')) process.stderr.write(`peers: wrote the table into ${writeDocs(md, 'tango-n200')}\n`);
process.stdout.write(md);

function compute() {
  const t0 = process.hrtime.bigint();
  const atCell = evaluateCell(methods, CELL.n, CELL.p10, CELL.p01);
  // the minimum coverage of each method over issue 25's grid, and where it is
  const { cells, minMass, byMethod: grid } = evaluateGrid(methods);
  const worst = Object.fromEntries(Object.entries(grid).map(([name, g]) => [name, { minCoverage: g.minCoverage, at: g.at }]));
  const rows = methods.map(([name]) => ({ method: name, ...atCell.byMethod[name], ...worst[name], keepsBar: worst[name].minCoverage >= COVERS }));
  const tangoWidth = atCell.byMethod.tango.width;
  const waldWidth = atCell.byMethod.wald.width;
  const keeping = rows.filter((r) => r.keepsBar && r.method.startsWith('adjusted-wald'));
  const narrowest = keeping.length ? keeping.reduce((m, r) => (r.width < m.width ? r : m)) : null;
  // 2b: the smallest quantile z' at which Tango keeps the bar (the default among the candidates)
  const tangoKeeping = rows.filter((r) => r.keepsBar && r.method.startsWith('tango'));
  const narrowestTango = tangoKeeping.reduce((m, r) => (r.width < m.width ? r : m));
  const result = {
    bench: 'Tango vs Wald at n = 200, 5% discordance, exact (bench/peers/h30-cells.txt)',
    date: new Date().toISOString(),
    cell: { ...CELL, keptMass: atCell.mass },
    grid: { NS, RS, FS, cells, minKeptMass: minMass },
    bar: COVERS,
    rows,
    narrowestAdjustedWaldKeepingBar: narrowest && { method: narrowest.method, width: narrowest.width, overWald: narrowest.width / waldWidth, overTango: narrowest.width / tangoWidth },
    narrowestTangoKeepingBar: { method: narrowestTango.method, width: narrowestTango.width, coverage: narrowestTango.coverage, minCoverage: narrowestTango.minCoverage, overWald: narrowestTango.width / waldWidth },
    tangoOverWald: tangoWidth / waldWidth,
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** The Markdown table of a result (the docs' section between <!-- peers:tango-n200:start/end -->). */
function table(res) {
  const f4 = (x) => x.toFixed(4);
  const wald = res.rows.find((r) => r.method === 'wald').width;
  const lines = [
    `Exact (no Monte Carlo; \`node bench/peers/tango-n200.mjs\`, ${res.date.slice(0, 10)}): the cell n = ${res.cell.n}, p10 = p01 = ${res.cell.p10} (truth 0), and the minimum two-sided 95% coverage over issue 25's grid (${res.grid.cells} cells: n ${res.grid.NS.join(', ')}; discordance ${res.grid.RS.join(', ')}; Δ/r ${res.grid.FS.join(', ')}; smallest kept probability mass ${res.grid.minKeptMass.toFixed(12)}).`,
    '',
    '| interval | coverage at the cell | expected width | × Wald | min coverage on the grid | where (n, r, Δ/r) | keeps ≥ 0.93 |',
    '|---|---|---|---|---|---|---|',
    ...res.rows.map((r) => `| ${r.method} | ${f4(r.coverage)} | ${f4(r.width)} | ${(r.width / wald).toFixed(3)} | ${f4(r.minCoverage)} | ${r.at.n}, ${r.at.r}, ${r.at.f} | ${r.keepsBar ? 'yes' : 'no'} |`),
    '',
    res.narrowestAdjustedWaldKeepingBar ? `Narrowest adjusted Wald keeping the bar: ${res.narrowestAdjustedWaldKeepingBar.method} (${res.narrowestAdjustedWaldKeepingBar.overWald.toFixed(3)}× Wald).` : 'No adjusted-Wald member (k = 0–2) keeps the minimum coverage ≥ 0.93.',
    `Narrowest Tango quantile keeping the bar: ${res.narrowestTangoKeepingBar.method} (${res.narrowestTangoKeepingBar.overWald.toFixed(3)}× Wald; min coverage ${f4(res.narrowestTangoKeepingBar.minCoverage)}). Tango at its default quantile: ${res.tangoOverWald.toFixed(3)}× Wald.`,
    '',
  ];
  return lines.join('\n');
}
