/**
 * Notebook 2: sizing a benchmark from a pilot. Reproduces the seed chapter's 264 and 1,648,
 * shows the quadratic cost of small gaps, and sizes the bundled SYNTHETIC pilot overall and per
 * stratum. Run: npx tsx notebooks/02-sizing.ts [OUTDIR]
 */
import { pathToFileURL } from 'node:url';
import {
  formatInterval,
  formatNumber,
  formatTable,
  itemsForIntervalWidth,
  itemsForPower,
  loadScores,
  mdeForIntervalWidth,
  pairScores,
  sizeFromPilot,
  sizingCurve,
  sizingCurveSpec,
} from '../src/index.js';
import { Notebook } from './lib/notebook.js';

export async function run(outDir: string): Promise<string> {
  const nb = new Notebook(import.meta.url, '02-sizing.html', 'Sizing from a pilot: 264, 1,648 and the quadratic cost of small gaps');
  nb.md(`
    “How many items do we need” has no answer until you say what difference you intend to act on:
    the **minimum detectable effect** (mde), committed to in advance. Run the candidates on a pilot
    of about 80 items, take the per-item variance v of the paired difference A − B, and solve for
    the count whose 95% interval is no wider than the gap. The half-width of that interval is
    z·√(v / n); setting it to mde / 2 gives

    > n = ceil(v · (2z / mde)²),  z = Φ⁻¹(0.975) ≈ 1.96.

    ## The chapter’s example

    The chapter’s pilot has a variance of the difference of 428.9 (scores in points).
  `);

  // #region chapter
  const v = 428.9;
  const at5 = itemsForIntervalWidth({ varianceOfDifference: v, mde: 5 });
  const at2 = itemsForIntervalWidth({ varianceOfDifference: v, mde: 2 });
  const chapter = [
    `mde 5: n = ${formatNumber(v)} · (2 · ${at5.z.toFixed(6)} / 5)² = ${at5.nExact.toFixed(2)} → ${at5.n} items`,
    `mde 2: n = ${formatNumber(v)} · (2 · ${at2.z.toFixed(6)} / 2)² = ${at2.nExact.toFixed(2)} → ${at2.n} items`,
    `ratio ${at2.n} / ${at5.n} = ${(at2.n / at5.n).toFixed(3)}; (5 / 2)² = ${(2.5 ** 2).toFixed(3)}`,
  ].join('\n');
  // #endregion
  nb.code('chapter').output(chapter);
  nb.md(`
    ${at5.n} and ${at2.n.toLocaleString('en-US')}, as in the chapter. Tightening the gap from five points to two is a shrink by
    a factor of 2.5, and the price is that factor squared, 6.25: the half-width falls as the square
    root of the count, so the count must rise as the square of any tightening. Resolving small
    differences is not a little more expensive, it is **quadratically** more expensive.

    ## The whole curve

    The same rule over a range of gaps, with a budget of 400 annotated items drawn across: 400
    items settle a five-point question and cannot settle a two-point one.
  `);

  // #region curve
  const mdes = Array.from({ length: 19 }, (_, k) => 1 + k / 2);
  const curve = sizingCurve(v, { mde: 5, mdes });
  const budget = 400;
  const resolved = mdeForIntervalWidth(v, budget);
  const curveTable = formatTable(
    ['mde', 'items', '× items at mde 5', 'items for 80% power'],
    curve.filter((p) => [1, 2, 2.5, 3, 4, 5, 7, 10].includes(p.mde)).map((p) => [formatNumber(p.mde), String(p.n), (p.n / at5.n).toFixed(2), String(p.nForPower)]),
  );
  // #endregion
  nb.code('curve').output(`${curveTable}\n\n${budget} items resolve a gap of ${formatNumber(resolved)} points.`);
  await nb.chart(sizingCurveSpec({ curve, mde: 5, n: at5.n, budget, mdeAtBudget: resolved, unit: 'points' }), 'Items needed for a 95% paired interval no wider than the gap, at the chapter’s variance 428.9.');
  nb.md(`
    The power column is the other common rule, a paired t-test with 80% power at α = 0.05
    (it matches statsmodels’ \`TTestPower().solve_power\` and R’s \`pwr.t.test(type = "paired")\`).
    It needs about half the items, because an interval no wider than the gap is the stricter
    requirement (it amounts to 97.5% power). Either way the count scales as 1 / mde².
    For mde 5: ${itemsForPower({ varianceOfDifference: v, mde: 5 }).n} items by power against ${at5.n} by interval width.

    ## Sizing the bundled pilot

    \`examples/pilot.csv\` is a SYNTHETIC pilot: 80 items in four strata, candidate and baseline
    scored in points. \`sizeFromPilot\` does the whole job: the variance of the difference, the
    count, the count at the upper end of the variance’s chi-square interval (the pilot is itself
    a sample), the power count, the gap the budget resolves, and each stratum on its own.
  `);

  // #region pilot
  const pilot = pairScores(loadScores('examples/pilot.csv'), 'candidate', 'baseline');
  const sized = sizeFromPilot(pilot, { mde: 5, budget, perStratum: true });
  const pilotText = [
    `variance of the difference ${formatNumber(sized.varianceOfDifference)}, 95% interval ${formatInterval(sized.varianceInterval)} (${sized.pilotItems} items)`,
    `to see a 5-point gap: ${sized.n} items (${sized.nUpper} if the variance is at its upper limit); ${sized.nForPower} for 80% power`,
    `${budget} items resolve ${formatNumber(sized.mdeAtBudget ?? NaN)} points`,
    '',
    formatTable(
      ['stratum', 'pilot items', 'variance', 'items for a 5-point gap', 'upper'],
      (sized.strata ?? []).map((s) => [s.stratum, String(s.pilotItems), formatNumber(s.varianceOfDifference), String(s.n), String(s.nUpper)]),
    ),
  ].join('\n');
  // #endregion
  nb.code('pilot').output(pilotText);
  await nb.chart(sizingCurveSpec({ ...sized, unit: 'points' }), 'The bundled pilot: items needed against the gap, with the range the pilot’s uncertainty about its own variance allows.');
  const rare = sized.strata?.find((s) => s.stratum === 'rare_clause');
  nb.md(`
    One assumption holds the overall count up: that the full set is drawn the way the pilot was.
    Variance is a property of the mix of items. The routine stratum has a small variance because
    candidates agree there; rare clauses a large one because that is where they come apart.
    ${rare ? `On its own, the rare-clause stratum needs ${rare.n} items to see a five-point gap between the candidates (its variance is ${formatNumber(rare.varianceOfDifference)}).` : ''}
    Sizing applies per stratum: a stratum with a dozen items supports no per-stratum conclusion,
    however large the whole set is.
  `);

  // #region dozen
  const rareVariance = rare?.varianceOfDifference ?? NaN;
  const dozen = [12, 30, 120].map((n) => `${n} rare-clause items: a 95% interval of ±${formatNumber(mdeForIntervalWidth(rareVariance, n) / 2)} points around the stratum’s difference`);
  // #endregion
  nb.code('dozen').output(dozen.join('\n'));
  nb.md(`
    With a dozen items the interval is wider than the range the candidates could plausibly fall
    in, so every interval overlaps every other and the ranking read off them is the order the
    items happened to land in. Knowing that in advance is what stops a team from spending six
    weeks and then arguing about a difference their instrument was never able to see.
  `);
  return nb.write(outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await run(process.argv[2] ?? 'out/notebooks'));
}
