/**
 * Result shapes for the chart tests, as the issues (#3–#8) document each command's JSON.
 * Small hand-written numbers: the charts draw them, nothing here is computed.
 */
import type { AgreementChartInput, DriftChartInput, AllocationChartInput, CostSweepInput, ForestPlotInput, RotationPlanInput, SizingCurveInput, StratumScoresInput } from '../../src/charts/index.js';

export const forestResult: ForestPlotInput = {
  confidenceLevel: 0.95,
  method: 'bca',
  pairs: [
    { a: 'alpha', b: 'beta', estimate: 0.05, interval: [0.012, 0.088] },
    { a: 'alpha', b: 'gamma', estimate: 0.01, interval: [-0.03, 0.05] },
    { a: 'beta', b: 'gamma', estimate: -0.04, interval: [-0.081, -0.002] },
  ],
};

// n = 428.9 · (2 · 1.959964 / mde)²: the seed chapter's pilot (264 at 5 points, 1,648 at 2).
const z = 1.959963984540054;
const sizingAt = (variance: number, mde: number) => variance * ((2 * z) / mde) ** 2;
export const sizingResult: SizingCurveInput = {
  mde: 5,
  n: 264,
  budget: 400,
  mdeAtBudget: 2 * z * Math.sqrt(428.9 / 400),
  unit: 'points',
  curve: Array.from({ length: 19 }, (_, k) => {
    const mde = 1 + k * 0.5;
    return { mde, n: sizingAt(428.9, mde), nLower: sizingAt(330, mde), nUpper: sizingAt(590, mde) };
  }),
};

export const allocationResult: AllocationChartInput = {
  traffic: { routine: 0.72, rare_clause: 0.05, past_failure: 0.03, negative_control: 0.2 },
  allocations: [
    { method: 'quota', allocation: [{ stratum: 'routine', n: 80 }, { stratum: 'rare_clause', n: 120 }, { stratum: 'past_failure', n: 100 }, { stratum: 'negative_control', n: 100 }] },
    { method: 'neyman', allocation: [{ stratum: 'routine', n: 150 }, { stratum: 'rare_clause', n: 110 }, { stratum: 'past_failure', n: 60 }, { stratum: 'negative_control', n: 80 }] },
  ],
};

export const headlineResult: StratumScoresInput = {
  confidenceLevel: 0.95,
  models: ['alpha', 'beta'].map((model, m) => ({
    model,
    strata: ['routine', 'rare_clause', 'past_failure', 'negative_control'].map((stratum, k) => {
      const mean = 0.9 - 0.12 * k - 0.03 * m;
      return { stratum, n: 100, mean, standardError: 0.03, interval: [mean - 0.06, mean + 0.06] as [number, number] };
    }),
    headline: { estimate: 0.83 - 0.03 * m, standardError: 0.02, interval: [0.79 - 0.03 * m, 0.87 - 0.03 * m] as [number, number], weights: { routine: 0.72, rare_clause: 0.05, past_failure: 0.03, negative_control: 0.2 } },
    rawMean: 0.72 - 0.03 * m,
  })),
};

// alpha: few fabrications, more misses; beta: the reverse. Lines cross at (0.30 − 0.20) / (0.030 − 0.010) = 5.
export const sweepResult: CostSweepInput = {
  vary: 'fabrication',
  band: [4, 20],
  policyValue: 8,
  lines: [
    { model: 'alpha', intercept: 0.3, slope: 0.01 },
    { model: 'beta', intercept: 0.2, slope: 0.03 },
    { model: 'gamma', intercept: 0.45, slope: 0.012 },
  ],
  crossings: [
    { value: 5, models: ['alpha', 'beta'] },
    { value: 12.5, models: ['beta', 'gamma'] },
  ],
  verdict: 'assumption',
  owner: 'Head of Regulatory Risk',
  decided: '2026-10-01',
};

export const agreementResult: AgreementChartInput = {
  threshold: 0.667,
  types: [
    { type: 'payment_terms', krippendorffAlpha: 0.94, alphaInterval: [0.88, 0.99], items: 20 },
    { type: 'indemnity', krippendorffAlpha: 0.78, alphaInterval: [0.65, 0.9], items: 20 },
    { type: 'change_of_control', krippendorffAlpha: 0.61, alphaInterval: [0.42, 0.77], items: 20, belowThreshold: true },
  ],
};

export const rotationResult: RotationPlanInput = {
  from: '2026Q3',
  to: '2026Q4',
  retire: [
    ...['e01', 'e02', 'e03'].map((item) => ({ item, stratum: 'routine', reason: 'saturated' })),
    { item: 'e21', stratum: 'rare_clause', reason: 'leaked' },
    ...['e41', 'e42'].map((item) => ({ item, stratum: 'past_failure', reason: 'oldest' })),
    ...['e61', 'e62'].map((item) => ({ item, stratum: 'negative_control', reason: 'oldest' })),
  ],
  add: [
    ...['i1', 'i2', 'i3'].map((item) => ({ item, stratum: 'routine' })),
    { item: 'i4', stratum: 'rare_clause' },
    { item: 'i5', stratum: 'past_failure' },
    ...['i6', 'i7'].map((item) => ({ item, stratum: 'negative_control' })),
  ],
  strata: [
    { stratum: 'routine', before: 20, after: 20 },
    { stratum: 'rare_clause', before: 20, after: 20 },
    { stratum: 'past_failure', before: 20, after: 19 },
    { stratum: 'negative_control', before: 20, after: 20 },
  ],
};

export const driftResult: DriftChartInput = {
  periods: [
    { label: '2026Q1 → 2026Q2', model: { estimate: 0, confidenceInterval: [-0.03, 0.03] }, instrument: { estimate: 0, confidenceInterval: [-0.02, 0.02] } },
    { label: '2026Q2 → 2026Q3', model: { estimate: -0.41, confidenceInterval: [-0.51, -0.31] }, instrument: { estimate: 0.01, confidenceInterval: [-0.04, 0.05] } },
  ],
};
