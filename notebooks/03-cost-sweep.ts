/**
 * Notebook 3: the cost-ratio sweep. When errors are not the same error, the ranking depends on
 * an exchange rate somebody chose; sweeping it across the band the policy's owner accepts asks
 * whether the data or the assumption decides. On the bundled SYNTHETIC data the ranking flips
 * inside the band. Run: npx tsx notebooks/03-cost-sweep.ts [OUTDIR]
 */
import { pathToFileURL } from 'node:url';
import {
  compareScorings,
  costSweep,
  costSweepSpec,
  formatInterval,
  formatNumber,
  formatPercent,
  formatTable,
  loadPolicy,
  loadScores,
  sweepUncertainty,
  tallyOutcomes,
} from '../src/index.js';
import { Notebook } from './lib/notebook.js';

export async function run(outDir: string): Promise<string> {
  const nb = new Notebook(import.meta.url, '03-cost-sweep.html', 'The cost-ratio sweep: does the data decide, or the assumption?');
  nb.md(`
    A missed clause is a compliance gap a reviewer may still catch downstream. A fabricated clause
    is a false statement entered into a regulatory record, which review is much less likely to
    catch. Ranking models by one number needs an **exchange rate** between those errors, and that
    rate is not measured: it is a policy input, with an owner and a date. The policy file
    (\`examples/policy.yaml\`) writes it down, with the band of rates the owner would accept.

    ## The vector and the scalar at the policy’s costs
  `);

  // #region policy
  const policy = loadPolicy('examples/policy.yaml');
  const scores = loadScores('examples/scores.csv');
  const tally = tallyOutcomes(scores);
  const sweep = costSweep(tally, policy, { policySource: 'examples/policy.yaml' });
  const atPolicy = formatTable(
    ['model', 'cost / document', 'hit', 'miss', 'fabrication', 'wrong_span', 'correct_absent'],
    sweep.costs.map((c) => [c.model, formatNumber(c.costPerDocument), ...(['hit', 'miss', 'fabrication', 'wrong_span', 'correct_absent'] as const).map((k) => String(c.counts[k]))]),
  );
  // #endregion
  nb.code('policy').output(`Owner: ${sweep.owner}, decided ${sweep.decided}; costs ${JSON.stringify(sweep.policyCosts)}\n${sweep.documents} documents\n\n${atPolicy}`);
  nb.md(`
    The scalar ranks (${sweep.ranking.join(' < ')}, lowest expected cost per document first); the
    vector is what a person signs off on. The cost per document divides by the number of distinct
    documents (${sweep.documents}, the \`cluster\` column), not by the number of outcomes.

    ## Sweeping the rate

    Hold the outcomes fixed and vary the cost of a ${sweep.vary.replace('_', ' ')} across the
    accepted band [${sweep.band.join(', ')}]. Each model’s expected cost is a straight line in it,
    so the ranking can only change where two lines cross, and every crossing can be computed
    exactly rather than on a grid.
  `);

  // #region sweep
  const lines = formatTable(
    ['model', 'cost / document at fabrication cost f'],
    sweep.costs.map((c) => [c.model, `${formatNumber(c.line.intercept)} + ${formatNumber(c.line.slope)} · f`]),
  );
  const crossings = sweep.crossings.map((c) => `${c.models[0]} = ${c.models[1]} at f = ${formatNumber(c.value)}${c.fraction ? ` (${c.fraction})` : ''}${c.inBand ? ', inside the band' : ''}: ${c.cheaperBelow} cheaper below, ${c.cheaperAbove} above`);
  const intervals = formatTable(
    ['from', 'to', 'ranking'],
    sweep.intervals.map((i) => [formatNumber(i.from), Number.isFinite(i.to) ? formatNumber(i.to) : '∞', i.ranking.join(' < ')]),
  );
  // #endregion
  nb.code('sweep').output(`${lines}\n\n${crossings.join('\n')}\n\n${intervals}\n\nverdict: ${sweep.verdict}`);
  await nb.chart(costSweepSpec(sweep), 'Expected cost per document of each model as the cost of one fabrication varies; the accepted band shaded.');
  const flip = sweep.crossingsInBand[0];
  nb.md(
    flip
      ? `
    **The ranking flips inside the band.** At the policy’s rate of ${formatNumber(sweep.policyValue)}
    ${flip.cheaperBelow} is cheaper; above ${formatNumber(flip.value)} ${flip.cheaperAbove} is. Both
    rates are ones the owner said they would accept, so the data decided nothing here: the
    assumption decided everything. That is a finding to report, with the owner’s name next to it,
    not a wobble to smooth over.

    ## How sure is the leader, and where is the flip?

    The outcomes are a sample too. Resampling whole documents gives the probability that the
    leader at the policy’s rate is truly the cheapest, and an interval for where the flip lies.
  `
      : `The ranking holds across the band: the data decides.`,
  );

  // #region uncertainty
  const uncertainty = sweepUncertainty(tally, sweep, { nResamples: 1999, seed: 'notebook-03' });
  const uncertaintyText = [
    `${uncertainty.leader} is strictly the cheapest at the policy's costs in ${formatPercent(uncertainty.leaderAheadProbability)} of ${uncertainty.nResamples} resamples of ${uncertainty.documents} documents`,
    ...uncertainty.gaps.map((g) => `${g.model} costs ${formatNumber(g.difference)} more per document ${formatInterval(g.confidenceInterval)}`),
    ...uncertainty.crossings.map((c) => `${c.models.join(' = ')} at ${formatNumber(c.value)}, interval ${formatInterval(c.confidenceInterval)}, inside the band in ${formatPercent(c.inBandProbability)} of resamples`),
  ].join('\n');
  // #endregion
  nb.code('uncertainty').output(uncertaintyText);
  nb.md(`
    ## A benchmark where the data decides

    For contrast, \`examples/costs-stable.csv\` (SYNTHETIC) is built so that no crossing falls
    inside the band: whatever rate in [${sweep.band.join(', ')}] the owner picks, the same model leads.
    Then the exact number does not matter and the argument about it can stop.
  `);

  // #region stable
  const stable = costSweep(tallyOutcomes(loadScores('examples/costs-stable.csv')), policy, { policySource: 'examples/policy.yaml' });
  const stableText = `verdict: ${stable.verdict}; ranking ${stable.ranking.join(' < ')}; it holds from ${formatNumber(stable.rankingHolds[0])} to ${formatNumber(stable.rankingHolds[1])}`;
  // #endregion
  nb.code('stable').output(stableText);
  await nb.chart(costSweepSpec(stable), 'A benchmark whose ranking holds across the accepted band: no crossing inside it.');
  nb.md(`
    ## The same question about other assumptions

    The exchange rate is one assumption; the labels are another. \`examples/scores-rescored.csv\`
    scores the same outputs a second time, with the contested absence calls read the other way
    and a second judge on fuzzy span matches. Does the ranking survive?
  `);

  // #region rescored
  const rescoredTable = loadScores('examples/scores-rescored.csv');
  const rescored = costSweep(tallyOutcomes(rescoredTable), policy, { policySource: 'examples/policy.yaml' });
  const comparison = compareScorings({ table: scores, sweep }, { table: rescoredTable, sweep: rescored });
  const rescoredText = [
    `ranking ${comparison.ranking.join(' < ')} → ${comparison.alternativeRanking.join(' < ')}`,
    `ranking survives: ${comparison.rankingSurvives}; leader survives: ${comparison.leaderSurvives}; verdict survives: ${comparison.verdictSurvives}`,
    ...comparison.crossingShifts.map((s) => `${s.models.join(' = ')}: at ${formatNumber(s.value)} → ${formatNumber(s.alternativeValue)}`),
  ].join('\n');
  // #endregion
  nb.code('rescored').output(rescoredText);
  nb.md(`
    A ranking is a function of the outputs, the labels and the exchange rate. Sweeping the
    assumptions with the outputs held fixed asks which of them is producing the answer.
  `);
  return nb.write(outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await run(process.argv[2] ?? 'out/notebooks'));
}
