/**
 * Notebook 5: fewer labels for the same decision. The chapter's 400-document budget spent where it
 * changes the answer (select: every disagreement plus an audit), and an LLM judge carrying the
 * rest (PPI++), on the bundled SYNTHETIC pool.
 * Run: npx tsx notebooks/05-fewer-labels.ts [OUTDIR]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  alignModels,
  disagreementDesign,
  finishChartSpec,
  formatNumber,
  formatPercent,
  formatTable,
  judgedComparison,
  judgedItemsFromPool,
  loadPool,
  loadScores,
  poolItems,
  stratifiedDifferenceEstimate,
} from '../src/index.js';
import { Notebook } from './lib/notebook.js';

export async function run(outDir: string): Promise<string> {
  const nb = new Notebook(import.meta.url, '05-fewer-labels.html', 'Fewer labels: annotate where candidates disagree, and let a judge carry the rest');
  nb.md(`
    The chapter's budget is about 400 annotated documents. This notebook is for the evaluation
    engineer who has two candidates (alpha and beta), their outputs on an unlabelled pool of 400
    contract documents (the extracted payment term), and an LLM judge's opinion of each output
    (\`examples/pool.csv\`, SYNTHETIC). The question is the usual one: is alpha better than beta,
    and by how much? The claim: most of those 400 labels are not needed.

    ## Where the candidates agree, the label does not matter

    If the score is a function of (output, gold label), an item where both candidates give the
    same answer has a paired difference of exactly 0, whatever the gold label is. Count them.
  `);

  // #region agree
  const pool = loadPool('examples/pool.csv', { outputColumn: 'output', judgeColumn: 'judge' });
  const items = poolItems(pool, 'alpha', 'beta', { mode: 'normalised', tolerance: 0 });
  const strata = [...new Set(items.map((it) => it.stratum))];
  const agreeTable = formatTable(
    ['stratum', 'items', 'outputs agree', 'differ'],
    strata.map((s) => {
      const inS = items.filter((it) => it.stratum === s);
      const agree = inS.filter((it) => it.agree).length;
      return [s, String(inS.length), formatPercent(agree / inS.length), String(inS.length - agree)];
    }),
  );
  // #endregion
  nb.code('agree').output(agreeTable);
  const disagreeing = items.filter((it) => !it.agree).length;
  nb.md(`
    ${items.length - disagreeing} of ${items.length} items (${formatPercent(1 - disagreeing / items.length)}) cancel out of the
    difference before anyone reads them. "Agree" is after normalising case and white space
    ("Net 30" and "net 30" are the same answer); use an exact or numeric comparison, or a column
    of normalised answers, when that is what your scorer does.

    ## select: label every disagreement, audit the agreements

    With a budget of 120 labels, \`select\` takes all ${disagreeing} disagreements with certainty and
    spends 10% of the budget on a random audit of agreeing items, spread over the strata, to check
    the assumption. Every chosen item carries its inclusion probability.
  `);

  // #region select
  const design = disagreementDesign(items, { budget: 120, seed: 0 });
  const designTable = formatTable(
    ['cell', 'pool items', 'to label', 'inclusion probability'],
    design.cells.map((c) => [c.cell, String(c.size), String(c.sampled), formatNumber(c.inclusionProbability, 3)]),
  );
  // #endregion
  nb.code('select').output(`${designTable}\n${design.selected} items to label; ${design.unspent} of the budget not needed.`);
  nb.md(`
    Annotators label those ${design.selected} items (\`examples/pool-labelled.csv\` is the list with
    the simulated gold scores filled in). Reading it back, each cell's mean difference is weighted
    by its share of the pool (a stratified Horvitz–Thompson estimate), and the audit says whether
    any agreeing item scored differently.
  `);

  // #region estimate
  const labelled = alignModels(loadScores('examples/pool-labelled.csv'), ['alpha', 'beta']);
  const diff = new Map(labelled.items.map((item, k) => [item, labelled.scores[0][k] - labelled.scores[1][k]]));
  const cells = design.cells.map((c) => ({
    cell: c.cell,
    size: c.size,
    differences: design.rows.filter((r) => r.cell === c.cell && diff.has(r.item)).map((r) => diff.get(r.item) as number),
  }));
  const selectEstimate = stratifiedDifferenceEstimate(cells);
  const auditFailures = design.rows.filter((r) => r.kind === 'agree' && diff.has(r.item) && diff.get(r.item) !== 0).length;
  // #endregion
  nb.code('estimate').output(
    `alpha − beta = ${formatNumber(selectEstimate.estimate)}, 95% interval [${formatNumber(selectEstimate.confidenceInterval[0])}, ${formatNumber(selectEstimate.confidenceInterval[1])}], SE ${formatNumber(selectEstimate.standardError)}\n` +
      `SE of the pool's own mean from subsampling: ${formatNumber(selectEstimate.poolStandardError)}; audited agreeing items that scored differently: ${auditFailures}`,
  );
  nb.md(`
    Because every disagreement is labelled and the audit found no agreeing item that scored
    differently, the pool's own mean difference is known exactly (its subsampling error is
    ${formatNumber(selectEstimate.poolStandardError)}): ${design.selected} labels give the interval
    that labelling all 400 documents would. The interval that remains is about the documents the
    pool stands for, as a fully labelled paired comparison's is. Had the audit found a mismatch,
    the agreeing cells would be estimated from the audit and the interval would widen: the method
    degrades into honesty, not bias.

    ## A judge on every item, humans on a random 100

    Suppose instead that the judge has scored every output and humans have scored a uniformly
    random 100 items (\`examples/pool-judged.csv\`). Prediction-powered inference (PPI++) uses the
    judge on all 400 items and corrects its bias with the 100 human labels; λ, tuned per stratum,
    says how much the judge is trusted, and λ = 0 falls back to the humans alone.
  `);

  // #region ppi
  const judged = judgedItemsFromPool(loadPool('examples/pool-judged.csv', { judgeColumn: 'judge', requireJudge: true }), 'alpha', 'beta');
  const ppi = judgedComparison(judged);
  const ppiTable = formatTable(
    ['interval', 'alpha − beta', '95% interval', 'SE'],
    [
      ['PPI++ (judge + 100 humans)', formatNumber(ppi.estimate), `[${formatNumber(ppi.confidenceInterval[0])}, ${formatNumber(ppi.confidenceInterval[1])}]`, formatNumber(ppi.standardError)],
      ['100 humans only', formatNumber(ppi.classicalEstimate), `[${formatNumber(ppi.classicalInterval[0])}, ${formatNumber(ppi.classicalInterval[1])}]`, formatNumber(ppi.classicalStandardError)],
    ],
  );
  // #endregion
  nb.code('ppi').output(`${ppiTable}\nλ per stratum: ${ppi.strata.map((s) => `${s.stratum} ${formatNumber(s.lambda, 2)}`).join(', ')}; effective human labels ${formatNumber(ppi.effectiveLabels, 3)}`);
  nb.md(`
    The judge is worth about ${formatNumber(ppi.effectiveLabels - ppi.nLabelled, 2)} extra human labels here: a humans-only interval as
    narrow would need ${formatNumber(ppi.effectiveLabels, 3)} labels. The labelled items must be a
    random subset: \`compare --judge\` checks that the judge's scores look the same on labelled and
    unlabelled items and refuses when they do not.
  `);
  const rows = [
    { design: `select (${design.selected} labels)`, estimate: selectEstimate.estimate, low: selectEstimate.confidenceInterval[0], high: selectEstimate.confidenceInterval[1] },
    { design: 'PPI++ (100 labels + judge)', estimate: ppi.estimate, low: ppi.confidenceInterval[0], high: ppi.confidenceInterval[1] },
    { design: 'humans only (100 labels)', estimate: ppi.classicalEstimate, low: ppi.classicalInterval[0], high: ppi.classicalInterval[1] },
  ];
  await nb.chart(
    finishChartSpec(
      {
        width: 420,
        height: 120,
        data: { values: rows },
        layer: [
          { mark: { type: 'rule', strokeWidth: 2 }, encoding: { y: { field: 'design', type: 'nominal', sort: null, title: null }, x: { field: 'low', type: 'quantitative', title: 'alpha − beta (95% interval)' }, x2: { field: 'high' } } },
          { mark: { type: 'point', filled: true, size: 60 }, encoding: { y: { field: 'design', type: 'nominal', sort: null }, x: { field: 'estimate', type: 'quantitative' } } },
          { data: { values: [{ zero: 0 }] }, mark: { type: 'rule', strokeDash: [4, 3], color: '#888' }, encoding: { x: { field: 'zero', type: 'quantitative' } } },
        ],
      },
      { text: 'Three ways to read alpha − beta', subtitle: 'the bundled SYNTHETIC pool of 400 documents' },
    ),
    'The same comparison from the select design, PPI++ and the humans-only sample.',
  );
  nb.md(`
    ## How far to trust this: the simulation

    \`bench/efficiency.ts\` repeats both designs on thousands of simulated pools with a known
    answer. Every interval covered the truth about 95% of the time; the labels each design needs
    for the same width:
  `);
  // #region simulation
  const sim = JSON.parse(readFileSync('bench/efficiency.json', 'utf8'));
  const simTable = formatTable(
    ['design', 'setting', 'coverage', 'labels needed (× random)'],
    [
      ...sim.ppi.filter((c: { strata: boolean }) => !c.strata).map((c: { scores: string; measuredRho: number; coveragePpi: number; labelsRatio: number }) => [`PPI++, ${c.scores}`, `judge corr. ${formatNumber(c.measuredRho, 2)}`, formatNumber(c.coveragePpi, 3), formatNumber(c.labelsRatio, 2)]),
      ...sim.select.filter((c: { violation: number }) => c.violation === 0).map((c: { agreeShare: number; coverageSelect: number; labelsRatio: number }) => ['select', `${formatPercent(c.agreeShare, 0)} agree`, formatNumber(c.coverageSelect, 3), formatNumber(c.labelsRatio, 2)]),
    ],
  );
  // #endregion
  nb.code('simulation').output(simTable);
  nb.md(`
    Which to use: if the candidates agree on most items, \`select\` is nearly free and needs no
    judge. If they disagree a lot and a judge tracks your annotators (correlation 0.7 or better on
    a pilot), PPI++ on a random sample roughly halves the labels. Either way the interval stays
    valid; only its width depends on how lucky you are.
  `);
  return nb.write(outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await run(process.argv[2] ?? 'out/notebooks'));
}
