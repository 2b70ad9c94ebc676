import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMeanDifference, bootstrapStatistic } from '../../src/bootstrap/index.js';
import { costSweep, sweepUncertainty, tallyOutcomes } from '../../src/costs/index.js';
import { loadPolicy, loadScores, scoresFromRows, type CostPolicy, type ScoreRow } from '../../src/data/index.js';
import rBoot from '../reference/costs/sweep-bootstrap.json' with { type: 'json' };

const policy = loadPolicy('examples/policy.yaml');
const tally = tallyOutcomes(loadScores('examples/scores.csv'));
const sweep = costSweep(tally, policy);
const B = 9999;
const u = sweepUncertainty(tally, sweep, { seed: 0, nResamples: B });

describe('sweepUncertainty on the bundled example, against R boot (independent RNG)', () => {
  // tests/reference/costs/sweep-bootstrap.R: boot(documents, stat, R = 20000) on the same per-document
  // costs. The two bootstraps draw different resamples, so they agree up to Monte Carlo error:
  // a share p estimated from B resamples has SE √(p(1 − p)/B); the tolerance is 4 combined SEs.
  const share = (p: number) => 4 * Math.sqrt((p * (1 - p)) / B + (p * (1 - p)) / rBoot.nResamples);

  it('P(alpha is truly cheapest at fabrication = 8) within Monte Carlo error of R (0.8976)', () => {
    expect(u.leader).toBe('alpha');
    expect(Math.abs(u.leaderAheadProbability - rBoot.leaderAheadProbability)).toBeLessThan(share(rBoot.leaderAheadProbability));
  });

  it('the alpha/beta crossing: share inside the band, share of slope swaps, and the interval', () => {
    const [c] = u.crossings;
    expect(c.models).toEqual(['alpha', 'beta']);
    expect(c.value).toBe(rBoot.crossing.value);
    expect(Math.abs(c.inBandProbability - rBoot.crossing.inBandProbability)).toBeLessThan(share(rBoot.crossing.inBandProbability));
    expect(Math.abs(c.orientationFlips - rBoot.crossing.orientationFlips)).toBeLessThan(share(rBoot.crossing.orientationFlips));
    // The ends' Monte Carlo SD at B = 9999 comes from 20 R runs; R's own ends (B = 20000) have
    // about 1/√2 of it. Tolerance: 4 × √(sd² + sd²/2) per end.
    for (const k of [0, 1]) {
      const sd = rBoot.monteCarloSdOfEndsAt9999[k];
      expect(Math.abs(c.confidenceInterval[k] - rBoot.crossing.confidenceInterval[k])).toBeLessThanOrEqual(4 * Math.sqrt(sd * sd * 1.5));
    }
  });
});

describe('sweepUncertainty, checked through src/bootstrap on the very same resamples', () => {
  it('leaderAheadProbability = mean of the indicator statistic (θ̂ + bias) with the same seed', () => {
    // Per-document costs at x = 8 (miss 1, wrong_span 2, fabrication 8), straight from the tally.
    const K = 7;
    const cost = tally.perDocument.map((cells) => Float64Array.from(tally.documents, (_, d) => cells[d * K + 1] + 8 * cells[d * K + 2] + 2 * cells[d * K + 3]));
    const indicator = bootstrapStatistic(
      tally.documents.length,
      (ix) => {
        const t = cost.map((c) => ix.reduce((s, i) => s + c[i], 0));
        return t[0] < t[1] && t[0] < t[2] ? 1 : 0;
      },
      { seed: 0, nResamples: B, method: 'percentile' },
    );
    expect(u.leaderAheadProbability).toBeCloseTo(indicator.estimate + indicator.bias, 12);
  });

  it('the crossing interval is the percentile interval of the resampled crossings when none is infinite', () => {
    // a fabricates in every document, b never, so every resample has ΔB* = 40 > 0: x* always finite.
    // a misses 0 or 1 per document, b misses 1–4: the lines cross at (Σ b − Σ a) / 40.
    const rows: ScoreRow[] = [];
    for (let d = 0; d < 40; d++) {
      const doc = `d${d}`;
      rows.push({ item: `${doc}-absent`, model: 'a', cluster: doc, outcome: 'fabrication' }, { item: `${doc}-absent`, model: 'b', cluster: doc, outcome: 'correct_absent' });
      for (let s = 0; s < 4; s++) {
        rows.push({ item: `${doc}-s${s}`, model: 'a', cluster: doc, outcome: s === 0 && d % 3 === 0 ? 'miss' : 'hit' });
        rows.push({ item: `${doc}-s${s}`, model: 'b', cluster: doc, outcome: s <= d % 4 ? 'miss' : 'hit' });
      }
    }
    const small = tallyOutcomes(scoresFromRows(rows));
    const costs: CostPolicy = { owner: 'x', decided: '2026-01-01', costs: { hit: 0, miss: 1, fabrication: 2, correct_absent: 0 }, sweep: { vary: 'fabrication', band: [1, 4] } };
    const s = costSweep(small, costs);
    expect(s.crossingsInBand).toHaveLength(1);
    // Σ misses: a = 14 (d = 0, 3, …, 39), b = 10·(1 + 2 + 3 + 4) = 100; crossing (100 − 14) / 40 = 2.15.
    expect(s.crossings[0].value).toBe(2.15);
    const res = sweepUncertainty(small, s, { seed: 'check', nResamples: 2000 });
    const K = 7;
    const part = (m: number, k: number) => Float64Array.from(small.documents, (_, d) => small.perDocument[m][d * K + k]);
    const [missA, missB, fabA, fabB] = [part(0, 1), part(1, 1), part(0, 2), part(1, 2)];
    const reference = bootstrapStatistic(
      small.documents.length,
      (ix) => {
        let level = 0;
        let rise = 0;
        for (const i of ix) {
          level += missA[i] - missB[i];
          rise += fabA[i] - fabB[i];
        }
        return -level / rise;
      },
      { seed: 'check', nResamples: 2000, method: 'percentile' },
    );
    expect(res.crossings[0].confidenceInterval[0]).toBeCloseTo(reference.confidenceInterval[0], 12);
    expect(res.crossings[0].confidenceInterval[1]).toBeCloseTo(reference.confidenceInterval[1], 12);
    expect(res.crossings[0].orientationFlips).toBe(0);
  });
});

describe('sweepUncertainty, its resampled totals against a plain sum on the same resamples', () => {
  // sweepUncertainty adds several whole-number columns packed into one double (packedTotals) when
  // the costs allow; here every resample's per-model costs are summed one by one in draw order, and
  // the shares of resamples and the gaps' intervals must come out the same, exactly. Costs up to 10⁶
  // need several doubles a document; a cost of 0 leaves a column of zeros; a fraction the general loop.
  it('gives the same shares and gap intervals as summing each model in draw order (property)', () => {
    const kinds = ['hit', 'miss', 'fabrication', 'wrong_span', 'correct_absent'] as const;
    const cost = fc.constantFrom(0, 1, 2, 8, 1000, 1e6, 0.5);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 3, max: 30 }), fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 400, maxLength: 400 }), fc.tuple(cost, cost, cost, cost), (M, D, picks, [miss, fabrication, wrongSpan, absent]) => {
        const rows: ScoreRow[] = [];
        let p = 0;
        for (let d = 0; d < D; d++) for (let s = 0; s < 2; s++) for (let m = 0; m < M; m++) rows.push({ item: `d${d}-${s}`, model: `m${m}`, cluster: `d${d}`, outcome: kinds[picks[p++ % picks.length]] });
        const t = tallyOutcomes(scoresFromRows(rows));
        const pol: CostPolicy = { owner: 'x', decided: '2026-01-01', costs: { hit: 0, miss, fabrication, wrong_span: wrongSpan, correct_absent: absent }, sweep: { vary: 'fabrication', band: [1, 20] } };
        const s = costSweep(t, pol);
        const nResamples = 200;
        const res = sweepUncertainty(t, s, { seed: 'pack', nResamples, method: 'percentile' });
        const K = 7;
        const atPolicy = t.perDocument.map((cells) => Float64Array.from(t.documents, (_, d) => miss * cells[d * K + 1] + fabrication * cells[d * K + 2] + wrongSpan * cells[d * K + 3] + absent * cells[d * K + 4]));
        const l = t.models.indexOf(res.leader);
        let ahead = 0;
        const cheaper = new Array(M).fill(0);
        bootstrapStatistic(
          D,
          (ix) => {
            const totals = atPolicy.map((c) => ix.reduce((sum, i) => sum + c[i], 0));
            if (totals.every((x, m) => m === l || totals[l] < x)) ahead += 1;
            totals.forEach((x, m) => (cheaper[m] += x < totals[l] ? 1 : 0));
            return 0;
          },
          { seed: 'pack', nResamples, method: 'percentile' },
        );
        // The first call is the statistic on the data as given: take it back out.
        const all = atPolicy.map((c) => c.reduce((a, b) => a + b, 0));
        if (all.every((x, m) => m === l || all[l] < x)) ahead -= 1;
        all.forEach((x, m) => (cheaper[m] -= x < all[l] ? 1 : 0));
        expect(res.leaderAheadProbability).toBe(ahead / nResamples);
        for (const gap of res.gaps) {
          const m = t.models.indexOf(gap.model);
          expect(gap.aheadOfLeaderProbability).toBe(cheaper[m] / nResamples);
          const reference = bootstrapMeanDifference(atPolicy[m], atPolicy[l], { seed: 'pack', nResamples, method: 'percentile', resamplePath: 'indices' });
          expect(gap.confidenceInterval).toEqual(reference.confidenceInterval);
          expect(gap.standardError).toBe(reference.standardError);
        }
      }),
      { seed: 19, numRuns: 60 },
    );
  });
});

describe('sweepUncertainty behaviour', () => {
  it('is deterministic in the seed', () => {
    const again = sweepUncertainty(tally, sweep, { seed: 0, nResamples: 500 });
    expect(sweepUncertainty(tally, sweep, { seed: 0, nResamples: 500 })).toEqual(again);
    expect(sweepUncertainty(tally, sweep, { seed: 1, nResamples: 500 }).leaderAheadProbability).not.toBe(again.leaderAheadProbability);
  });

  it('a leader cheaper in every document is ahead in every resample', () => {
    const rows: ScoreRow[] = [];
    for (let d = 0; d < 30; d++) rows.push({ item: `i${d}`, model: 'good', cluster: `d${d}`, outcome: 'hit' }, { item: `i${d}`, model: 'bad', cluster: `d${d}`, outcome: 'miss' });
    const t = tallyOutcomes(scoresFromRows(rows));
    const s = costSweep(t, policy);
    const res = sweepUncertainty(t, s, { nResamples: 300, method: 'percentile' });
    expect(res).toMatchObject({ leader: 'good', leaderAheadProbability: 1, crossings: [], nResamples: 300, seed: '0', unit: 'document', documents: 30 });
    expect(res.gaps[0]).toMatchObject({ model: 'bad', difference: 1, aheadOfLeaderProbability: 0 });
  });

  it('warns with few documents, and rejects bad settings', () => {
    const t = tallyOutcomes(scoresFromRows([{ item: 'i', model: 'a', outcome: 'hit' }, { item: 'i', model: 'b', outcome: 'miss' }, { item: 'j', model: 'a', outcome: 'miss' }, { item: 'j', model: 'b', outcome: 'hit' }]));
    const s = costSweep(t, policy);
    expect(sweepUncertainty(t, s, { nResamples: 50, method: 'percentile' }).warnings.join('\n')).toMatch(/only 2 documents/);
    expect(() => sweepUncertainty(t, s, { nResamples: 0 })).toThrow(/nResamples/);
    expect(() => sweepUncertainty(t, s, { confidenceLevel: 2 })).toThrow(/confidenceLevel/);
  });
});

describe('sweepUncertainty with method auto', () => {
  it('picks t below 100 documents (else BCa), the named method’s numbers exactly', () => {
    const tally = tallyOutcomes(loadScores('examples/scores.csv'));
    const sweep = costSweep(tally, loadPolicy('examples/policy.yaml'));
    const auto = sweepUncertainty(tally, sweep, { nResamples: 499, method: 'auto' });
    const t = sweepUncertainty(tally, sweep, { nResamples: 499, method: 't' });
    expect(auto.method).toBe('auto');
    const expected = tally.documents.length < 100 ? 't' : 'bca';
    const named = expected === 't' ? t : sweepUncertainty(tally, sweep, { nResamples: 499, method: 'bca' });
    for (const [k, gap] of auto.gaps.entries()) {
      expect(gap.methodUsed).toBe(expected);
      expect(gap.confidenceInterval).toEqual(named.gaps[k].confidenceInterval);
      expect(gap.aheadOfLeaderProbability).toBe(named.gaps[k].aheadOfLeaderProbability);
    }
  });
});
