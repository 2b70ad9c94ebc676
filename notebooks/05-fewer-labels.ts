/**
 * Notebook 5: fewer labels for the same decision. The chapter's 400-document budget spent where it
 * changes the answer (select: every disagreement plus an audit), whole documents when reading a
 * contract is what costs (select --sample-unit cluster), the traffic-weighted headline from the
 * same labels (headline --design), and an LLM judge carrying the rest (PPI++), on the bundled
 * SYNTHETIC pools.
 * Run: npx tsx notebooks/05-fewer-labels.ts [OUTDIR]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  alignModels,
  clusterDisagreementDesign,
  designDifference,
  designHeadline,
  disagreementDesign,
  finishChartSpec,
  formatNumber,
  formatPercent,
  formatTable,
  judgedComparison,
  judgedItemsFromPool,
  loadPool,
  loadScores,
  loadStrata,
  poolItems,
  stratifiedDifferenceEstimate,
  type DesignFile,
  type SelectionDesign,
} from '../src/index.js';
import { Notebook } from './lib/notebook.js';

export async function run(outDir: string): Promise<string> {
  const nb = new Notebook(import.meta.url, '05-fewer-labels.html', 'Fewer labels: annotate where candidates disagree, and let a judge carry the rest');
  nb.md(`
    The chapter's budget is about 400 annotated documents. This notebook is for the evaluation
    engineer who has two candidates (alpha and beta), their outputs on an unlabelled pool of 400
    contract documents (the extracted payment term), and an LLM judge's opinion of each output
    (\`examples/pool.csv\`, SYNTHETIC). The question is the usual one: is alpha better than beta,
    and by how much? The claim: most of those 400 labels are not needed. The walk: count the
    items that cancel, label where the candidates disagree (\`select\`), read the labels back
    (\`compare --design\`), sample whole documents when reading a contract is the cost
    (\`--sample-unit cluster\`), put the traffic back for a headline (\`headline --design\`), and
    let a judge carry a random sample (\`compare --judge\`, PPI++).

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
  `);

  nb.md(`
    ## Whole documents: when reading the contract is the cost

    The items so far are payment-term slots, one per document. Real extraction has several slots
    per contract (payment term, governing law, termination notice, ...), and an annotator who
    opens a contract to grade one slot has done most of the work for the others. The bundled
    \`examples/pool-docs.csv\` (SYNTHETIC) has a \`cluster\` column naming each slot's document.
    \`select --sample-unit cluster\` makes the document the sampling unit: a document is
    "disagree" when the candidates differ on any of its slots, documents are drawn at random
    within stratum × kind, and every slot of a chosen document is labelled. The same 150-slot
    budget, spent both ways:
  `);

  // #region documents
  const docPool = loadPool('examples/pool-docs.csv', { outputColumn: 'output' });
  const docItems = poolItems(docPool, 'alpha', 'beta', { mode: 'normalised', tolerance: 0 });
  const byItems = disagreementDesign(docItems, { budget: 150, seed: 0 });
  const byDocuments = clusterDisagreementDesign(docItems, { budget: 150, seed: 0 });
  const clusterOf = new Map(docItems.map((it) => [it.item, it.cluster as string]));
  const cost = (d: SelectionDesign) => {
    const chosen = d.rows.filter((r) => r.selected);
    return {
      slots: chosen.length,
      documents: new Set(chosen.map((r) => clusterOf.get(r.item))).size,
      disagreeing: chosen.filter((r) => r.kind === 'disagree').length,
      agreeing: chosen.filter((r) => r.kind === 'agree').length,
    };
  };
  const itemCost = cost(byItems);
  const documentCost = cost(byDocuments);
  const documentsInPool = new Set(docItems.map((it) => it.cluster)).size;
  const documentsWithDisagreement = new Set(docItems.filter((it) => !it.agree).map((it) => it.cluster)).size;
  const costTable = formatTable(
    ['design (budget 150 slots)', 'slots labelled', 'documents opened', 'disagreeing slots', 'agreeing slots'],
    [
      ['items one by one (--sample-unit item)', String(itemCost.slots), String(itemCost.documents), String(itemCost.disagreeing), String(itemCost.agreeing)],
      ['whole documents (--sample-unit cluster)', String(documentCost.slots), String(documentCost.documents), String(documentCost.disagreeing), String(documentCost.agreeing)],
    ],
  );
  // #endregion
  nb.code('documents').output(
    `${docItems.length} slots in ${documentsInPool} documents; ${docItems.filter((it) => !it.agree).length} slots disagree, spread over ${documentsWithDisagreement} documents\n${costTable}`,
  );
  nb.md(`
    Item sampling takes ${itemCost.disagreeing} disagreeing slots and audits ${itemCost.agreeing} agreeing ones,
    but scatters them over ${itemCost.documents} documents. Whole-document sampling opens only
    ${documentCost.documents} documents for its ${documentCost.slots} slots (the chosen documents
    differ in size, so the budget is met on average), and ${documentCost.agreeing} of those slots are
    agreeing slots that ride along with a disagreeing neighbour: a slot budget buys fewer
    disagreements this way. The annotators label every slot of the chosen documents
    (\`examples/pool-docs-labelled.csv\` is that list with simulated gold scores); the estimator adds
    up document totals, so a document labelled only in part is refused.
  `);

  // #region documents-estimate
  const docLabels = alignModels(loadScores('examples/pool-docs-labelled.csv'), ['alpha', 'beta']);
  const docDiff = new Map(docLabels.items.map((item, k) => [item, docLabels.scores[0][k] - docLabels.scores[1][k]]));
  const documentDesign = designFile(byDocuments, 'examples/pool-docs.csv');
  const documentEstimate = designDifference(documentDesign, docDiff, 0.95);
  // #endregion
  nb.code('documents-estimate').output(
    `alpha − beta = ${formatNumber(documentEstimate.estimate)}, 95% interval [${formatNumber(documentEstimate.interval[0])}, ${formatNumber(documentEstimate.interval[1])}] (t, ${documentEstimate.degreesOfFreedom} df), SE ${formatNumber(documentEstimate.standardError)}\n` +
      `${documentEstimate.nClusters} documents labelled; SE of the pool's own mean from sampling documents: ${formatNumber(documentEstimate.poolStandardError)}; audit: ${documentEstimate.audit.differing} of ${documentEstimate.audit.audited} agreeing slots scored differently`,
  );
  const docSim = JSON.parse(readFileSync('bench/efficiency.json', 'utf8')).clusterSampling as Array<{ agreeShare: number; budget: string; meanLabels: number; meanLabelsItemDesign: number; coverage: number; coverageItemDesign: number; meanWidth: number; meanWidthItemDesign: number }>;
  const halfBudget = docSim.filter((c) => c.budget !== 'all disagreeing documents');
  nb.md(`
    Here the budget did not cover every document with a disagreement, so the pool's own mean is
    estimated, not known (its SE ${formatNumber(documentEstimate.poolStandardError)}), and the
    interval uses a t quantile on labelled documents − cells degrees of freedom, as R's survey
    package does. The simulation in \`bench/efficiency.ts\` (pools of 100 documents of 2–6 slots
    that lean alike) shows the trade: at half the budget of every disagreeing document, whole
    documents cover ${halfBudget.map((c) => `${formatNumber(c.coverage, 3)} (${formatPercent(c.agreeShare, 0)} agree)`).join(' and ')},
    as item sampling does, but their interval is ${halfBudget.map((c) => `${formatNumber(c.meanWidth / c.meanWidthItemDesign, 2)}× as wide on ${formatNumber(c.meanLabels, 3)} slots against ${formatNumber(c.meanLabelsItemDesign, 3)}`).join(', and ')}.
    Use whole documents when opening the contract is what you pay for, not grading each slot.
  `);
  await nb.chart(
    finishChartSpec(
      {
        width: 420,
        height: 110,
        data: {
          values: [
            { design: 'items one by one', what: 'slots labelled', count: itemCost.slots },
            { design: 'items one by one', what: 'documents opened', count: itemCost.documents },
            { design: 'whole documents', what: 'slots labelled', count: documentCost.slots },
            { design: 'whole documents', what: 'documents opened', count: documentCost.documents },
          ],
        },
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'design', type: 'nominal', title: null },
          yOffset: { field: 'what', type: 'nominal' },
          x: { field: 'count', type: 'quantitative', title: 'count (budget 150 slots)' },
          color: { field: 'what', type: 'nominal', title: null },
        },
      },
      { text: 'What the 150-slot budget buys', subtitle: 'examples/pool-docs.csv (SYNTHETIC), seed 0' },
    ),
    'Slots labelled and documents opened by item sampling and by whole-document sampling on the same budget.',
  );

  nb.md(`
    ## The traffic-weighted headline from the same labels

    A selection set is enriched on purpose, so its plain average is not an accuracy. When someone
    needs one number for a slide, \`headline --design\` puts the strata back in their production
    shares (\`examples/pool-strata.yaml\`) and estimates each stratum's pool mean with the design's
    inclusion probabilities: the 65 labels of the first design, nothing new to annotate.
  `);

  // #region headline
  const traffic = loadStrata('examples/pool-strata.yaml').strata.map((s) => ({ stratum: s.name, weight: s.traffic as number }));
  const pairScores = new Map(labelled.items.map((item, k) => [item, { a: labelled.scores[0][k], b: labelled.scores[1][k] }]));
  const headline = designHeadline(designFile(design, 'examples/pool.csv'), pairScores, { weights: traffic, confidenceLevel: 0.95 });
  const show = (e: { estimate: number; interval: [number, number] }) => `${formatNumber(e.estimate, 3)} [${formatNumber(e.interval[0], 3)}, ${formatNumber(e.interval[1], 3)}]`;
  const headlineTable = formatTable(
    ['stratum', 'traffic', 'pool', 'labelled', 'alpha', 'beta', 'alpha − beta'],
    [
      ...headline.models[0].strata.map((s, h) => [s.stratum, formatPercent(s.weight, 0), String(s.poolItems), String(s.labelled), show(s), show(headline.models[1].strata[h]), show(headline.difference.strata[h])]),
      ['headline', '100%', String(headline.poolSize), String(headline.labelled), show(headline.models[0].headline), show(headline.models[1].headline), show(headline.difference)],
    ],
  );
  // #endregion
  nb.code('headline').output(headlineTable);
  const headlineSim = JSON.parse(readFileSync('bench/efficiency.json', 'utf8')).headline as Array<{ agreeShare: number; auditShare: number; coverageDifference: number; coverageModelA: number; meanWidthModelA: number }>;
  const at80 = headlineSim.filter((c) => c.agreeShare === 0.8);
  nb.md(`
    The difference is what the design measures: alpha − beta by traffic is
    ${show(headline.difference)}. Each candidate's own headline rests on the few audited agreeing
    items (${design.cells.filter((c) => c.kind === 'agree').map((c) => `${c.sampled} of ${c.size} in ${c.stratum}`).join(', ')}), since they
    stand for most of the pool, so its interval is wide. In the simulation with 80% of items agreeing, alpha's
    own headline covers ${at80.map((c) => `${formatNumber(c.coverageModelA, 3)} at audit share ${c.auditShare} (width ${formatNumber(c.meanWidthModelA, 2)})`).join(' and ')};
    the difference covers at both. Report the per-stratum rows first, write the traffic shares next
    to the headline, and raise \`--audit-share\` when the candidates' own scores are what the slide
    needs.
  `);
  nb.md(`

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
    a pilot), PPI++ on a random sample roughly halves the labels. If annotators are paid per
    contract rather than per slot, sample whole documents and accept a wider interval per slot.
    Whichever design chose the labels, \`headline --design\` turns them into the traffic-weighted
    number, with the difference as the figure to trust. Either way the interval stays valid; only
    its width depends on how lucky you are.
  `);
  return nb.write(outDir);
}

/** The design file `benchplan select` would write for a design (the estimators read that shape). */
function designFile(design: SelectionDesign, pool: string): DesignFile {
  return {
    kind: 'benchplan-selection-design',
    version: 1,
    pool,
    a: 'alpha',
    b: 'beta',
    method: design.method,
    sampling: design.sampling,
    equality: 'normalised on column "output"',
    budget: design.budget,
    auditShare: design.auditShare,
    seed: design.seed,
    poolSize: design.poolSize,
    selected: design.selected,
    cells: design.cells,
    rows: design.rows,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await run(process.argv[2] ?? 'out/notebooks'));
}
