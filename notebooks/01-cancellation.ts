/**
 * Notebook 1: the cancellation argument. Why a selection benchmark is not allocated like a
 * monitoring set: uniform (traffic-proportional) against enriched (quota) allocation on the
 * bundled SYNTHETIC data, with the numbers.
 * Run: npx tsx notebooks/01-cancellation.ts [OUTDIR]
 */
import { pathToFileURL } from 'node:url';
import {
  allocationChartSpec,
  compareAllocations,
  createRng,
  formatNumber,
  formatPercent,
  formatTable,
  loadScores,
  loadStrata,
  pairScores,
  stratifiedHeadlines,
  alignModels,
  stratumDiscordance,
  stratumScoresSpec,
  tInterval,
} from '../src/index.js';
import { Notebook } from './lib/notebook.js';

export async function run(outDir: string): Promise<string> {
  const nb = new Notebook(import.meta.url, '01-cancellation.html', 'The cancellation argument: uniform against enriched allocation');
  nb.md(`
    A **monitoring set** asks “what is happening to users” and should mirror traffic. A
    **selection set** asks “which of these candidates is better”, and a difference between two
    candidates is settled entirely by the cases on which they behave differently. A case both
    candidates get right adds the same amount to both totals and nothing to their difference: it
    **cancels**. This notebook puts numbers on that with the bundled SYNTHETIC data
    (\`examples/scores.csv\`: 400 items, models alpha, beta and gamma, four strata;
    \`examples/strata.yaml\`: the traffic shares and quotas of the seed chapter).

    ## Which items cancel

    Pair alpha and beta item by item and count, per stratum, the items on which they disagree.
  `);

  // #region cancel
  const scores = loadScores('examples/scores.csv');
  const strata = loadStrata('examples/strata.yaml');
  const names = strata.strata.map((s) => s.name);
  const alphaBeta = pairScores(scores, 'alpha', 'beta');
  const discord = stratumDiscordance(alphaBeta, { strata: names });
  const cancelTable = formatTable(
    ['stratum', 'traffic', 'items', 'disagree', 'cancel', 'alpha − beta'],
    discord.strata.map((s, h) => [
      s.stratum,
      formatPercent(strata.strata[h].traffic ?? NaN),
      String(s.n),
      formatPercent(s.discordance),
      formatPercent(1 - s.discordance),
      formatNumber(s.meanDifference),
    ]),
  );
  // #endregion
  nb.code('cancel').output(cancelTable);
  const routine = discord.strata.find((s) => s.stratum === 'routine')!;
  const rare = discord.strata.find((s) => s.stratum === 'rare_clause')!;
  nb.md(`
    Routine work is ${formatPercent(strata.strata.find((s) => s.name === 'routine')!.traffic!, 0)} of
    production traffic, and alpha and beta disagree on ${formatPercent(routine.discordance)} of its
    items: ${formatPercent(1 - routine.discordance)} of them add the same to both totals and nothing
    to the difference. On rare clauses they disagree on ${formatPercent(rare.discordance)}, and that
    is where alpha is ${formatNumber(rare.meanDifference)} better. Production frequency is close to a
    direct measure of a case’s tendency to cancel.

    ## Two sets of 400 items, drawn many times

    A *uniform* set draws its 400 items the way production does (traffic shares); an *enriched*
    set uses the quotas. Draw each 2,000 times from the items of each stratum (with replacement,
    seeded), and ask each set the selection question: does the paired t interval of alpha − beta
    exclude zero? And can it say anything about rare clauses on their own?
  `);

  // #region simulate
  function drawSet(counts: Record<string, number>, rng: ReturnType<typeof createRng>): { all: number[]; rare: number[] } {
    const all: number[] = [];
    const rare: number[] = [];
    for (const stratum of names) {
      const pool = alphaBeta.items.flatMap((_, i) => (alphaBeta.strata[alphaBeta.stratum![i]] === stratum ? [alphaBeta.differences[i]] : []));
      for (let k = 0; k < counts[stratum]; k++) {
        const d = pool[rng.nextInt(pool.length)];
        all.push(d);
        if (stratum === 'rare_clause') rare.push(d);
      }
    }
    return { all, rare };
  }
  const budget = 400;
  const designs = {
    uniform: Object.fromEntries(strata.strata.map((s) => [s.name, Math.round((s.traffic ?? 0) * budget)])),
    enriched: Object.fromEntries(strata.strata.map((s) => [s.name, Math.round((s.quota ?? 0) * budget)])),
  };
  const draws = 2000;
  const simulation = Object.entries(designs).map(([design, counts]) => {
    const rng = createRng('notebook-01', design);
    let resolved = 0;
    let rareResolved = 0;
    let cancelled = 0;
    let meanGap = 0;
    for (let b = 0; b < draws; b++) {
      const set = drawSet(counts, rng);
      const overall = tInterval(set.all);
      const rareOnly = tInterval(set.rare);
      if (overall.confidenceInterval[0] > 0) resolved += 1;
      if (rareOnly.confidenceInterval[0] > 0) rareResolved += 1;
      cancelled += set.all.filter((d) => d === 0).length / set.all.length;
      meanGap += overall.estimate;
    }
    return { design, counts, resolved: resolved / draws, rareResolved: rareResolved / draws, cancelled: cancelled / draws, meanGap: meanGap / draws };
  });
  const simulationTable = formatTable(
    ['set', ...names, 'items that cancel', 'mean alpha − beta', 'alpha ahead (95%)', 'ahead on rare clauses'],
    simulation.map((s) => [s.design, ...names.map((n) => String(s.counts[n])), formatPercent(s.cancelled), formatNumber(s.meanGap), formatPercent(s.resolved), formatPercent(s.rareResolved)]),
  );
  // #endregion
  nb.code('simulate').output(simulationTable);
  const [uniform, enriched] = simulation;
  nb.md(`
    The uniform set spends ${uniform.counts.routine} of its 400 items on routine documents, and
    ${formatPercent(uniform.cancelled)} of its items cancel. The gap it measures is
    ${formatNumber(uniform.meanGap)}: the few separating items contribute a difference that is then
    divided by the size of the whole set. It finds alpha ahead in ${formatPercent(uniform.resolved)}
    of draws and, with ${uniform.counts.rare_clause} rare-clause items, shows alpha ahead on rare clauses
    in ${formatPercent(uniform.rareResolved)} of them. The enriched set of the same size puts
    ${enriched.counts.rare_clause} items on rare clauses, measures a gap of
    ${formatNumber(enriched.meanGap)}, finds alpha ahead in ${formatPercent(enriched.resolved)} of
    draws and on rare clauses alone in ${formatPercent(enriched.rareResolved)}.

    Neither set is biased. The uniform set estimates production accuracy well; it spends its budget
    resolving a quantity nobody is deciding on.

    ## What each allocation buys, from a pilot

    Before annotating, the same comparison can be made from a pilot: the per-stratum standard
    deviation of the paired difference (\`examples/pilot.csv\`, candidate − baseline, in points)
    gives the expected half-width of the interval under each allocation. Neyman allocation puts
    items where candidates disagree (n_h ∝ W_h·S_h).
  `);

  // #region allocate
  const pilot = pairScores(loadScores('examples/pilot.csv'), 'candidate', 'baseline');
  const pilotStrata = stratumDiscordance(pilot, { strata: names });
  const sd = Object.fromEntries(pilotStrata.strata.map((s) => [s.stratum, s.sd]));
  const buys = compareAllocations(strata.strata, { budget, sd });
  const buysTable = formatTable(
    ['method', ...names.map((n) => `${n} (±)`), 'reweighted ±', 'MDE'],
    buys.compare.map((c) => [c.method, ...c.strata.map((s) => `${s.n} (±${formatNumber(s.halfWidth)})`), formatNumber(c.expectedHalfWidth), formatNumber(c.mde)]),
  );
  // #endregion
  nb.code('allocate').output(buysTable);
  const proportional = buys.compare.find((c) => c.method === 'proportional')!;
  const quota = buys.compare.find((c) => c.method === 'quota')!;
  const rareOf = (c: typeof quota) => c.strata.find((s) => s.stratum === 'rare_clause')!;
  nb.md(`
    A traffic-proportional set gives rare clauses ${rareOf(proportional).n} items and a per-stratum
    interval of ±${formatNumber(rareOf(proportional).halfWidth)} points; the quota gives them
    ${rareOf(quota).n} items and ±${formatNumber(rareOf(quota).halfWidth)}. The count that matters
    is the count in the stratum that carries the question.
  `);
  await nb.chart(
    allocationChartSpec({ traffic: Object.fromEntries(strata.strata.map((s) => [s.name, s.traffic ?? 0])), allocations: buys.compare.filter((c) => c.method !== 'proportional') }),
    'Share of 400 items per stratum under the quota and Neyman allocations, beside the traffic share (the uniform set).',
  );
  nb.md(`
    ## The price: the aggregate is not an accuracy

    An enriched set over-represents the hard strata, so its plain mean estimates nothing anyone
    sends. Report per-stratum scores as the primary output, and put the traffic shares back in as
    weights when a single number is needed.
  `);

  // #region headline
  const headlines = stratifiedHeadlines(alignModels(scores, ['alpha', 'beta']), strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic ?? 0 })), { nResamples: 1999, seed: 'notebook-01' });
  const headlineTable = formatTable(
    ['model', 'plain mean (ranking aid)', 'traffic-weighted headline', 'interval'],
    headlines.models.map((m) => [m.model, formatNumber(m.rawMean), formatNumber(m.headline.estimate), `[${formatNumber(m.headline.interval[0])}, ${formatNumber(m.headline.interval[1])}]`]),
  );
  // #endregion
  nb.code('headline').output(headlineTable);
  await nb.chart(stratumScoresSpec(headlines), 'Per-stratum scores with intervals, the reweighted headline and the plain mean.');
  return nb.write(outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await run(process.argv[2] ?? 'out/notebooks'));
}
