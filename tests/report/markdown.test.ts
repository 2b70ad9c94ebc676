import { describe, expect, it } from 'vitest';
import type { NonInferiorityCheck, NonInferiorityResult } from '../../src/gate/gate.js';
import type { CompareModelsResult, PairComparison } from '../../src/paired/compare-models.js';
import type { CostSweepResult } from '../../src/costs/sweep.js';
import type { StratifiedHeadlinesResult } from '../../src/strata/headlines.js';
import { markdownLevel, markdownPValue, markdownTable, markdownText } from '../../src/report/markdown.js';
import { compareMarkdown, compareVerdictMarkdown } from '../../src/report/markdown-compare.js';
import { gateMarkdown, gateVerdictMarkdown } from '../../src/report/markdown-gate.js';
import { headlineMarkdown, headlineVerdictMarkdown } from '../../src/report/markdown-headline.js';
import { sweepMarkdown, sweepVerdictMarkdown } from '../../src/report/markdown-sweep.js';

// The renderers are pure functions of result objects: these results are written by hand, so
// every expected document below follows from its numbers and GFM's rules, not from a run.

describe('Markdown building blocks', () => {
  it('escapes what would start emphasis, code, a link, HTML or a new cell; keeps intraword underscores', () => {
    expect(markdownText('gpt_4o [v2]')).toBe('gpt_4o \\[v2\\]');
    expect(markdownText('_base_ a|b *c* <x> `y` ~z~')).toBe('\\_base\\_ a\\|b \\*c\\* \\<x\\> \\`y\\` \\~z\\~');
    expect(markdownText('two\nlines')).toBe('two lines');
  });

  it('writes a pipe table with right-aligned numeric columns and escapes a stray |', () => {
    expect(markdownTable(['model', 'mean'], [['a', '0.81']], ['left', 'right'])).toBe('| model | mean |\n| --- | ---: |\n| a | 0.81 |');
    expect(markdownTable(['x'], [['a|b'], ['c\\|d']])).toBe('| x |\n| --- |\n| a\\|b |\n| c\\|d |');
  });

  it('spells levels and p-values for people', () => {
    expect(markdownLevel(0.95)).toBe('95%');
    expect(markdownLevel(0.975)).toBe('97.5%');
    // 1 / (9999 + 1): the smallest p that 9999 random sign flips can give.
    expect(markdownPValue(0.0001, 9999)).toBe('≤ 0.0001');
    expect(markdownPValue(0.00003)).toBe('< 0.0001');
    expect(markdownPValue(0.04567)).toBe('0.046');
    expect(markdownPValue(NaN)).toBe('NaN');
  });
});

function check(stratum: string | null, n: number, estimate: number, lowerBound: number, verdict: NonInferiorityCheck['verdict'], reason: string, upperBound = NaN): NonInferiorityCheck {
  return { stratum, n, nClusters: null, estimate, lowerBound, upperBound, confidenceInterval: [lowerBound, Infinity], standardError: 0.02, threshold: -0.05, verdict, passed: verdict === 'pass', reason, warnings: [] };
}

function gateResult(overrides: Partial<NonInferiorityResult>): NonInferiorityResult {
  return {
    baseline: 'main',
    candidate: 'pr',
    margin: 0.05,
    threshold: -0.05,
    method: 'bca',
    confidenceLevel: 0.95,
    alternative: 'greater',
    nResamples: 9999,
    seed: '0',
    clustered: false,
    stratified: false,
    perStratum: false,
    n: 147,
    dropped: 3,
    passed: true,
    verdict: 'pass',
    inconclusive: [],
    overall: check(null, 147, 0.0136, -0.0272, 'pass', 'the lower bound -0.0272 is above -0.05'),
    strata: [],
    failed: [],
    blindSpot: null,
    warnings: [],
    ...overrides,
  };
}

describe('gateMarkdown', () => {
  it('a pass: the verdict line first, then the table of checks and the settings', () => {
    expect(gateMarkdown(gateResult({}))).toBe(
      [
        '✅ **PASS**: no regression of pr against main: pr − main ≥ -0.0272 (95% lower bound) > -0.05 (−margin).',
        '',
        '| check | n | estimate | 95% lower | 95% upper | threshold | verdict |',
        '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
        '| overall | 147 | 0.0136 | -0.0272 | - | -0.05 | ✅ pass |',
        '',
        '<sub>candidate − baseline on 147 paired items (3 unpaired left out); passes when the one-sided 95% lower bound is above −margin, fails when the upper bound is below it, else inconclusive; method bca, 9999 resamples, seed 0. benchplan gate.</sub>',
        '',
      ].join('\n'),
    );
  });

  it('a drop shown in one stratum: named in the verdict, marked in the table, its reason listed', () => {
    const strata = [
      check('routine', 88, 0.0227, -0.0114, 'pass', 'the lower bound -0.0114 is above -0.05'),
      check('negative_control', 30, -0.133, -0.267, 'fail', 'regression: the upper bound -0.0871 is below -0.05: a drop larger than the margin is shown', -0.0871),
    ];
    const result = gateResult({ perStratum: true, strata, passed: false, verdict: 'fail', failed: ['negative_control'], warnings: ['a *note*'] });
    expect(gateVerdictMarkdown(result)).toBe('❌ **FAIL**: regression shown for pr against main: 1 of 2 strata show a drop beyond the margin (negative_control).');
    expect(gateMarkdown(result).split('\n').slice(4, 13)).toEqual([
      '| overall | 147 | 0.0136 | -0.0272 | - | -0.05 | ✅ pass |',
      '| routine | 88 | 0.0227 | -0.0114 | - | -0.05 | ✅ pass |',
      '| negative_control | 30 | -0.133 | -0.267 | -0.0871 | -0.05 | ❌ FAIL |',
      '',
      '- negative_control: regression: the upper bound -0.0871 is below -0.05: a drop larger than the margin is shown',
      '',
      '<sub>candidate − baseline on 147 paired items (3 unpaired left out); passes when the one-sided 95% lower bound is above −margin, fails when the upper bound is below it, else inconclusive; method bca, 9999 resamples, seed 0. benchplan gate.</sub>',
      '',
      '- ⚠️ warning: a \\*note\\*',
    ]);
  });

  it('an inconclusive stratum is named as such, with a ⚠️ verdict', () => {
    const strata = [
      check('routine', 88, 0.0227, -0.0114, 'pass', 'the lower bound -0.0114 is above -0.05'),
      check('rare', 12, -0.01, -0.2, 'inconclusive', 'inconclusive: cannot rule out a drop larger than the margin', 0.15),
    ];
    const result = gateResult({ perStratum: true, strata, passed: false, verdict: 'inconclusive', inconclusive: ['rare'], failed: ['rare'] });
    expect(gateVerdictMarkdown(result)).toBe('⚠️ **INCONCLUSIVE**: no regression shown, and none ruled out, for pr against main: 1 of 2 strata inconclusive (rare).');
    expect(gateMarkdown(result).split('\n')[6]).toBe('| rare | 12 | -0.01 | -0.2 | 0.15 | -0.05 | ⚠️ INCONCLUSIVE |');
  });

  it('an overall check with no bound to decide with is inconclusive and names the bound and −margin (an undefined one prints NaN)', () => {
    const overall = check(null, 10, -0.01, NaN, 'inconclusive', 'inconclusive: the lower bound is undefined (see warnings)');
    expect(gateVerdictMarkdown(gateResult({ overall, passed: false, verdict: 'inconclusive', inconclusive: ['overall'], failed: ['overall'] }))).toBe(
      '⚠️ **INCONCLUSIVE**: no regression shown, and none ruled out, for pr against main: 95% lower bound NaN ≤ -0.05 (−margin).',
    );
  });
});

function pair(a: string, b: string, estimate: number, interval: [number, number], p: number, adjusted: number, exact: boolean): PairComparison {
  return {
    a,
    b,
    n: 400,
    estimate,
    confidenceInterval: interval,
    standardError: 0.02,
    excludesZero: interval[0] > 0 || interval[1] < 0,
    pValue: p,
    adjustedPValue: adjusted,
    distinguishable: adjusted < 0.05,
    bootstrap: { n: 400 } as PairComparison['bootstrap'],
    test: { exact } as PairComparison['test'],
    warnings: [],
  };
}

function compareResult(models: string[], means: number[], pairs: PairComparison[]): CompareModelsResult {
  return { models, pairs, means, method: 'bca', confidenceLevel: 0.95, nResamples: 9999, nPermutations: 9999, seed: '0', alternative: 'two-sided', adjustment: 'holm', n: 400, warnings: [] };
}

describe('compareMarkdown', () => {
  it('one pair whose interval excludes 0: who is higher, by at least the near end of the interval', () => {
    const result = compareResult(['alpha', 'beta'], [0.882, 0.73], [pair('alpha', 'beta', 0.152, [0.11, 0.195], 0.0001, 0.0001, false)]);
    expect(compareMarkdown(result, { source: 'examples/scores.csv' })).toBe(
      [
        '**alpha scores higher than beta** by 0.152; at 95% confidence the gap is at least 0.11.',
        '',
        '| A − B | mean A | mean B | estimate | 95% bca interval | p (sign-flip) | n |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| alpha − beta | 0.882 | 0.73 | 0.152 | [0.11, 0.195] | ≤ 0.0001 | 400 |',
        '',
        '<sub>400 paired items of examples/scores.csv; resampling items; 9999 resamples, seed 0. benchplan compare.</sub>',
        '',
      ].join('\n'),
    );
  });

  it('a pair whose interval includes 0: cannot tell apart, and the largest gap still consistent', () => {
    const result = compareResult(['beta', 'gamma'], [0.73, 0.703], [pair('beta', 'gamma', 0.0275, [-0.0112, 0.0625], 0.22, 0.22, false)]);
    expect(compareVerdictMarkdown(result, result.pairs[0])).toBe('**Cannot tell beta and gamma apart** at 95%: the interval includes 0, and a gap of up to 0.0625 either way is still consistent with the data.');
    // B higher: the gap is −high at least.
    const reversed = compareResult(['b', 'a'], [0.7, 0.8], [pair('b', 'a', -0.1, [-0.15, -0.04], 0.001, 0.001, true)]);
    expect(compareVerdictMarkdown(reversed, reversed.pairs[0])).toBe('**a scores higher than b** by 0.1; at 95% confidence the gap is at least 0.04.');
  });

  it('every pair: the distinguishable ones after Holm, then the ties, the means and one row a pair', () => {
    const result = compareResult(
      ['alpha', 'beta', 'gamma'],
      [0.882, 0.73, 0.703],
      [pair('alpha', 'beta', 0.152, [0.107, 0.198], 0.0001, 0.0003, false), pair('alpha', 'gamma', 0.18, [0.135, 0.228], 0.0001, 0.0003, false), pair('beta', 'gamma', 0.0275, [-0.0112, 0.0625], 0.22, 0.22, false)],
    );
    expect(compareMarkdown(result, { dropped: 2 }).split('\n')).toEqual([
      '**Distinguishable at 95% after Holm**: alpha > beta, alpha > gamma. Ties (1 of 3 pairs): beta vs gamma.',
      '',
      '| model | mean |',
      '| --- | ---: |',
      '| alpha | 0.882 |',
      '| beta | 0.73 |',
      '| gamma | 0.703 |',
      '',
      '| A − B | estimate | 95% bca interval | p | Holm p | distinguishable at 95% |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
      '| alpha − beta | 0.152 | [0.107, 0.198] | ≤ 0.0001 | 0.0003 | yes |',
      '| alpha − gamma | 0.18 | [0.135, 0.228] | ≤ 0.0001 | 0.0003 | yes |',
      '| beta − gamma | 0.0275 | [-0.0112, 0.0625] | 0.22 | 0.22 | no |',
      '',
      '<sub>400 paired items (2 unpaired left out); resampling items; 9999 resamples, seed 0. benchplan compare.</sub>',
      '',
    ]);
  });
});

describe('headlineMarkdown', () => {
  const weights = [
    { stratum: 'routine', weight: 0.8 },
    { stratum: 'rare', weight: 0.2 },
  ];
  const model = (name: string, routine: number, rare: number, headline: number, interval: [number, number], rawMean: number) => ({
    model: name,
    strata: [
      { stratum: 'routine', n: 50, mean: routine, sd: 0.3, standardError: 0.04, interval: [routine - 0.08, routine + 0.08] as [number, number], method: 'wald' as const, binary: false, withinUnit: true },
      { stratum: 'rare', n: 50, mean: rare, sd: 0.4, standardError: 0.06, interval: [rare - 0.12, rare + 0.12] as [number, number], method: 'wald' as const, binary: false, withinUnit: true },
    ],
    headline: { estimate: headline, standardError: 0.03, interval, method: 'wald' as const, methodReason: 'scores are not all 0/1', weights, confidenceLevel: 0.95, warnings: [] },
    rawMean,
  });
  // headline = 0.8 × routine + 0.2 × rare: 0.8·0.9 + 0.2·0.5 = 0.82; 0.8·0.85 + 0.2·0.3 = 0.74.
  const result: StratifiedHeadlinesResult = {
    models: [model('a', 0.9, 0.5, 0.82, [0.76, 0.88], 0.7), model('b', 0.85, 0.3, 0.74, [0.68, 0.8], 0.575)],
    differences: [{ a: 'a', b: 'b', n: 100, estimate: 0.08, standardError: 0.03, interval: [0.02, 0.14], bootstrapStandardError: 0.03, excludesZero: true, warnings: [] }],
    strata: ['routine', 'rare'],
    confidenceLevel: 0.95,
    method: 'bca',
    stratumInterval: 'wald',
    headlineInterval: 'wald',
    nResamples: 999,
    seed: '0',
    warnings: [],
  };

  it('the headlines in one line (the higher in bold), then strata, headline and plain mean, then differences', () => {
    expect(headlineVerdictMarkdown(result)).toBe('Traffic-reweighted headline, 95% intervals: **a 0.82 [0.76, 0.88]**, b 0.74 [0.68, 0.8]. a − b: 0.08 [0.02, 0.14], excludes 0.');
    expect(headlineMarkdown(result, { source: 's.csv', strataSource: 'strata.yaml' }).split('\n').slice(2)).toEqual([
      '| stratum | traffic | n | a | b |',
      '| --- | ---: | ---: | --- | --- |',
      '| routine | 80.0% | 50 | 0.9 [0.82, 0.98] | 0.85 [0.77, 0.93] |',
      '| rare | 20.0% | 50 | 0.5 [0.38, 0.62] | 0.3 [0.18, 0.42] |',
      '| **headline** | 100.0% |  | **0.82 [0.76, 0.88]** | **0.74 [0.68, 0.8]** |',
      '| plain mean (a ranking aid, not an accuracy) |  | 100 | 0.7 | 0.575 |',
      '',
      '| A − B | estimate | 95% bca interval | SE | excludes 0 |',
      '| --- | ---: | ---: | ---: | --- |',
      '| a − b | 0.08 | [0.02, 0.14] | 0.03 | yes |',
      '',
      "<sub>100 items of s.csv; headline = Σ traffic × stratum mean, traffic shares from strata.yaml; stratum intervals are normal (as R survey's confint); differences by stratified bootstrap, 999 resamples, seed 0. benchplan headline.</sub>",
      '',
    ]);
  });
});

describe('sweepMarkdown', () => {
  const rate = (estimate: number, low: number, high: number) => ({ estimate, confidenceInterval: [low, high] as [number, number] });
  const sweep = {
    source: 'outcomes.csv',
    owner: 'Head of Risk',
    decided: '2026-10-01',
    policyCosts: { hit: 0, miss: 1, fabrication: 8 },
    vary: 'fabrication',
    policyValue: 8,
    band: [4, 20],
    documents: 10,
    documentsFrom: 'cluster',
    items: 40,
    ranking: ['a', 'b'],
    costs: [
      { model: 'a', costPerDocument: 0.5, rates: { recall: rate(0.9, 0.8, 0.95), precision: rate(0.95, 0.9, 0.98), hallucinationRate: rate(0.05, 0.01, 0.2) } },
      { model: 'b', costPerDocument: 0.75, rates: { recall: rate(0.7, 0.6, 0.8), precision: rate(0.9, 0.8, 0.95), hallucinationRate: rate(0.02, 0.005, 0.1) } },
    ],
    crossings: [{ value: 25, models: ['a', 'b'], fraction: null, cheaperBelow: 'a', cheaperAbove: 'b', inBand: false }],
    crossingsInBand: [],
    verdict: 'data',
    intervals: [
      { from: 0, to: 25, ranking: ['a', 'b'], containsPolicy: true, overlapsBand: true },
      { from: 25, to: Infinity, ranking: ['b', 'a'], containsPolicy: false, overlapsBand: false },
    ],
    confidenceLevel: 0.95,
    warnings: [],
  } as unknown as CostSweepResult;

  it('data: the ranking across the band, the costs and rates, the crossing outside the band, the owner', () => {
    expect(sweepMarkdown(sweep).split('\n')).toEqual([
      '✅ **Verdict: data.** No crossing inside the accepted band [4, 20] of the fabrication cost: the ranking a < b (lowest cost first) holds across it.',
      '',
      '| rank | model | cost/doc | recall | precision | hallucination |',
      '| ---: | --- | ---: | ---: | ---: | ---: |',
      '| 1 | a | 0.500 | 90.0% [80.0%, 95.0%] | 95.0% [90.0%, 98.0%] | 5.0% [1.0%, 20.0%] |',
      '| 2 | b | 0.750 | 70.0% [60.0%, 80.0%] | 90.0% [80.0%, 95.0%] | 2.0% [0.5%, 10.0%] |',
      '',
      '- a and b tie at fabrication = 25: a cheaper below, b above',
      '',
      '<sub>Costs (hit 0, miss 1, fabrication 8) and the band of fabrication are the policy of Head of Risk, decided 2026-10-01; 40 slots in 10 documents of outcomes.csv; rates with 95% Wilson intervals. benchplan sweep.</sub>',
      '',
    ]);
  });

  it('a second scoring of the same outputs: whether the ranking and the verdict survive it', () => {
    const alternative = { alternative: 'rescored.csv', ranking: ['a', 'b'], alternativeRanking: ['b', 'a'], rankingSurvives: false, verdictSurvives: false, verdict: 'assumption', warnings: [] };
    const lines = sweepMarkdown(sweep, null, alternative as unknown as Parameters<typeof sweepMarkdown>[2]).split('\n');
    expect(lines[9]).toBe('Other scoring of the same outputs (rescored.csv): the ranking does **not** survive (a < b → b < a); the verdict changes: data → assumption.');
  });

  it('assumption: names the crossings inside the band', () => {
    const inBand = { value: 13.8, models: ['a', 'b'], fraction: null, cheaperBelow: 'a', cheaperAbove: 'b', inBand: true };
    const assumption = { ...sweep, verdict: 'assumption', crossings: [inBand], crossingsInBand: [inBand] } as unknown as CostSweepResult;
    expect(sweepVerdictMarkdown(assumption)).toBe('⚠️ **Verdict: assumption.** Inside the accepted band [4, 20] of the fabrication cost the ranking changes (a/b at 13.8): the exchange rate decides, not the data.');
  });
});
