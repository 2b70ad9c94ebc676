import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { costSweep, outcomeRates, emptyOutcomeCounts, tallyOutcomes, totalCostLines } from '../../src/costs/index.js';
import { InputError, loadPolicy, loadScores, scoresFromRows, type CostPolicy, type ScoreRow } from '../../src/data/index.js';

const policy: CostPolicy = {
  owner: 'Head of Regulatory Risk',
  decided: '2026-10-01',
  costs: { hit: 0, miss: 1, fabrication: 8, wrong_span: 2, correct_absent: 0 },
  sweep: { vary: 'fabrication', band: [4, 20] },
};

/** Counts outcomes per model straight from the CSV text, without the loader (an independent check). */
function countByHand(path: string): Record<string, Record<string, number>> {
  const [header, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const cols = header.split(',');
  const model = cols.indexOf('model');
  const outcome = cols.indexOf('outcome');
  const counts: Record<string, Record<string, number>> = {};
  for (const line of lines) {
    const cells = line.split(',');
    counts[cells[model]] ??= {};
    counts[cells[model]][cells[outcome]] = (counts[cells[model]][cells[outcome]] ?? 0) + 1;
  }
  return counts;
}

describe('costSweep on the bundled example (an `assumption` set)', () => {
  const tally = tallyOutcomes(loadScores('examples/scores.csv'));
  const sweep = costSweep(tally, loadPolicy('examples/policy.yaml'), { policySource: 'examples/policy.yaml' });
  const hand = countByHand('examples/scores.csv');

  it('counts what the file holds', () => {
    for (const [m, model] of tally.models.entries()) {
      for (const [kind, n] of Object.entries(hand[model])) expect(tally.counts[m][kind as 'hit']).toBe(n);
    }
  });

  it('has the hand-computed lines: alpha 55 + 6f, beta 124 + 1f, gamma 135 + 10f (total cost)', () => {
    // intercept = misses + 2 · wrong spans; slope = fabrications.
    const lines = totalCostLines(tally, policy.costs, 'fabrication');
    for (const line of lines) {
      const c = hand[line.model];
      expect(line).toEqual({ model: line.model, intercept: c.miss + 2 * c.wrong_span, slope: c.fabrication, exact: { intercept: String(c.miss + 2 * c.wrong_span), slope: String(c.fabrication) } });
    }
    expect(lines.map((l) => [l.intercept, l.slope])).toEqual([
      [55, 6],
      [124, 1],
      [135, 10],
    ]);
  });

  it('flips alpha and beta at 69/5 = 13.8, inside [4, 20]: verdict assumption', () => {
    expect(sweep.verdict).toBe('assumption');
    expect(sweep.crossings).toHaveLength(1);
    expect(sweep.crossings[0]).toMatchObject({ value: 13.8, models: ['alpha', 'beta'], fraction: '69/5', inBand: true });
    expect(sweep.crossingsInBand).toEqual(sweep.crossings);
    expect(sweep.ranking).toEqual(['alpha', 'beta', 'gamma']);
    expect(sweep.intervals.map((i) => i.ranking.join(' '))).toEqual(['alpha beta gamma', 'beta alpha gamma']);
  });

  it('divides by the 159 documents, not the 400 slots', () => {
    const docs = new Set(readFileSync('examples/scores.csv', 'utf8').trim().split('\n').slice(1).map((line) => line.split(',')[3]));
    expect(docs.size).toBe(159);
    expect(sweep.documents).toBe(159);
    expect(sweep.items).toBe(400);
    // alpha at f = 8: 55 + 6 · 8 = 103 total → 103 / 159 per document.
    expect(sweep.costs[0]).toMatchObject({ model: 'alpha', totalCost: 103, costPerDocument: 103 / 159 });
    expect(sweep.costs[0].line.intercept).toBeCloseTo(55 / 159, 15);
    expect(sweep.costs[0].line.slope).toBeCloseTo(6 / 159, 15);
  });

  it('echoes the owner, date, band and the policy value', () => {
    expect(sweep).toMatchObject({ owner: 'Head of Regulatory Risk', decided: '2026-10-01', band: [4, 20], vary: 'fabrication', policyValue: 8 });
  });
});

describe('costSweep on examples/costs-stable.csv (a `data` set)', () => {
  // examples/generate-costs.ts fixes the counts: steady 50 + 1f, eager 40 + 4f, cautious 120 + 1f.
  // steady/eager tie at 10/3, eager/cautious at 80/3, steady/cautious never (parallel).
  const sweep = costSweep(tallyOutcomes(loadScores('examples/costs-stable.csv')), policy);

  it('has no crossing in [4, 20]: the data decides', () => {
    expect(sweep.verdict).toBe('data');
    expect(sweep.crossingsInBand).toEqual([]);
    expect(sweep.crossings.map((c) => [c.fraction, c.models.join('/')])).toEqual([
      ['10/3', 'steady/eager'],
      ['80/3', 'eager/cautious'],
    ]);
    expect(sweep.pairs.find((p) => p.models.join('/') === 'steady/cautious')?.relation).toBe('parallel');
    expect(sweep.ranking).toEqual(['steady', 'eager', 'cautious']);
  });

  it('holds 4 − 10/3 below the band and 80/3 − 20 above it', () => {
    expect(sweep.holdsBeyondBand?.[0]).toBeCloseTo(4 - 10 / 3, 14);
    expect(sweep.holdsBeyondBand?.[1]).toBeCloseTo(80 / 3 - 20, 14);
    expect(sweep.leadersInBand).toEqual(['steady']);
  });
});

describe('the per-document denominator', () => {
  // Two documents: d1 holds 3 slots, d2 holds 2. Model m: miss, miss, hit | fabrication, hit.
  // Total cost at miss 1, fabrication 8 = 1 + 1 + 8 = 10 → 10 / 2 documents = 5 (not 10 / 5 slots = 2).
  const rows: ScoreRow[] = [
    { item: 's1', model: 'm', cluster: 'd1', outcome: 'miss' },
    { item: 's2', model: 'm', cluster: 'd1', outcome: 'miss' },
    { item: 's3', model: 'm', cluster: 'd1', outcome: 'hit' },
    { item: 's4', model: 'm', cluster: 'd2', outcome: 'fabrication' },
    { item: 's5', model: 'm', cluster: 'd2', outcome: 'hit' },
  ];

  it('divides by distinct documents', () => {
    const sweep = costSweep(tallyOutcomes(scoresFromRows(rows)), policy);
    expect(sweep.documents).toBe(2);
    expect(sweep.documentsFrom).toBe('cluster');
    expect(sweep.costs[0].costPerDocument).toBe(5);
    expect(sweep.costs[0].totalCost).toBe(10);
  });

  it('treats each item as a document when there is no cluster column', () => {
    const sweep = costSweep(tallyOutcomes(scoresFromRows(rows.map(({ cluster: _, ...row }) => row))), policy);
    expect(sweep.documents).toBe(5);
    expect(sweep.documentsFrom).toBe('item');
    expect(sweep.costs[0].costPerDocument).toBe(2);
  });

  it('keeps per-document counts for the bootstrap', () => {
    const tally = tallyOutcomes(scoresFromRows(rows));
    // OUTCOME_KINDS order: hit, miss, fabrication, wrong_span, correct_absent, critical_failure, partial.
    expect(Array.from(tally.perDocument[0])).toEqual([1, 2, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0]);
  });

  it('averages repeats: an item scored twice, once miss once hit, is half a miss', () => {
    const tally = tallyOutcomes(
      scoresFromRows([
        { item: 's1', model: 'm', outcome: 'miss', repeat: 0 },
        { item: 's1', model: 'm', outcome: 'hit', repeat: 1 },
        { item: 's2', model: 'm', outcome: 'miss', repeat: 0 },
        { item: 's2', model: 'm', outcome: 'miss', repeat: 1 },
      ]),
    );
    expect(tally.counts[0]).toMatchObject({ miss: 1.5, hit: 0.5 });
    expect(tally.repeatsAveraged).toBe(true);
    expect(tally.warnings[0]).toMatch(/repeats/);
    expect(costSweep(tally, policy).costs[0].costPerDocument).toBe(0.75);
  });
});

describe('costSweep errors', () => {
  it('names an outcome kind the policy gives no cost', () => {
    const table = scoresFromRows([
      { item: 's1', model: 'a', outcome: 'critical_failure' },
      { item: 's1', model: 'b', outcome: 'hit' },
    ]);
    const run = () => costSweep(tallyOutcomes(table), policy, { policySource: 'p.yaml' });
    expect(run).toThrow(InputError);
    expect(run).toThrow('p.yaml: costs.critical_failure: 1 outcome is "critical_failure" (a: 1) but the policy gives "critical_failure" no cost; add costs.critical_failure (got "critical_failure")');
  });

  it('a kind with no cost is fine when no model produced it', () => {
    const table = scoresFromRows([{ item: 's1', model: 'a', outcome: 'hit' }]);
    expect(() => costSweep(tallyOutcomes(table), { ...policy, costs: { hit: 0, fabrication: 8 } })).not.toThrow();
  });

  it('needs a sweep section and an outcome column', () => {
    const table = scoresFromRows([{ item: 's1', model: 'a', outcome: 'hit' }]);
    expect(() => costSweep(tallyOutcomes(table), { ...policy, sweep: undefined })).toThrow(/no sweep section/);
    expect(() => tallyOutcomes(scoresFromRows([{ item: 's1', model: 'a', score: 1 }]))).toThrow(/has no "outcome" column/);
  });

  it('warns when no model has the swept outcome', () => {
    const table = scoresFromRows([
      { item: 's1', model: 'a', outcome: 'hit' },
      { item: 's1', model: 'b', outcome: 'miss' },
    ]);
    expect(costSweep(tallyOutcomes(table), policy).warnings.join('\n')).toMatch(/no model has a "fabrication" outcome/);
  });
});

describe('outcomeRates', () => {
  // alpha on the bundled example: 259 hits, 27 misses, 6 fabrications, 14 wrong spans, 94 correct absences.
  const counts = { ...emptyOutcomeCounts(), hit: 259, miss: 27, fabrication: 6, wrong_span: 14, correct_absent: 94 };
  const rates = outcomeRates(counts);

  it('recall = hit / (hit + miss), precision = hit / (hit + fabrication + wrong_span), hallucination = fabrication / (fabrication + correct_absent)', () => {
    expect(rates.recall).toMatchObject({ estimate: 259 / 286, numerator: 259, denominator: 286, note: null });
    expect(rates.precision).toMatchObject({ estimate: 259 / 279, numerator: 259, denominator: 279 });
    expect(rates.hallucinationRate).toMatchObject({ estimate: 0.06, numerator: 6, denominator: 100, oneSlot: 0.01 });
  });

  it('uses the Wilson interval (statsmodels: proportion_confint(6, 100, method="wilson") = [0.027786123963188188, 0.12476815445895918])', () => {
    expect(rates.hallucinationRate.confidenceInterval[0]).toBeCloseTo(0.027786123963188188, 14);
    expect(rates.hallucinationRate.confidenceInterval[1]).toBeCloseTo(0.12476815445895918, 14);
  });

  it('says how many points one slot moves a small denominator (seeds/000: 11 absent slots, ~9 points)', () => {
    const small = outcomeRates({ ...emptyOutcomeCounts(), fabrication: 1, correct_absent: 10 });
    expect(small.hallucinationRate.oneSlot).toBe(1 / 11);
    expect(small.hallucinationRate.note).toBe('hallucination rate: one slot moves it by 9.1 points (denominator 11)');
    expect(small.recall.note).toMatch(/undefined: no slots/);
    expect(small.recall.estimate).toBeNaN();
  });

  it('leaves partial credit and critical failures out of all three rates', () => {
    const withExtra = outcomeRates({ ...counts, partial: 5, critical_failure: 3 });
    expect(withExtra.recall.denominator).toBe(286);
    expect(withExtra.precision.denominator).toBe(279);
  });
});
