import { describe, expect, it } from 'vitest';
import { agreementInWords, agreementStatement, labelNoise, rawAgreement } from '../../src/agreement/index.js';
import { inputs, statsmodels } from './reference.js';

describe('rawAgreement', () => {
  it('repeats its JSDoc example: 2 agreeing pairs of 4', () => {
    // item 1: pairs (a,a) (a,b) (a,b) → 1 of 3; item 2: (c,c) → 1 of 1.
    expect(rawAgreement([['a', 'a', 'b'], ['c', 'c', null]])).toEqual({ rawAgreement: 0.5, pairs: 4, agreeingPairs: 2, items: 2 });
  });

  for (const [type, data] of Object.entries(inputs.examples)) {
    it(`matches the pair count of reference.py on examples/annotations.csv, ${type}`, () => {
      expect(rawAgreement(data.labels).rawAgreement).toBeCloseTo(statsmodels.rawAgreement[type], 14);
    });
  }

  it("is Fleiss' P̄ for complete data and percent agreement for two annotators", () => {
    // Two annotators: 3 of 4 items agree.
    expect(rawAgreement([['a', 'a'], ['b', 'b'], ['a', 'b'], ['c', 'c']]).rawAgreement).toBe(0.75);
  });

  it('is NaN when no item has two labels', () => {
    expect(rawAgreement([['a', null], [null, null]]).rawAgreement).toBeNaN();
  });
});

describe('the statement of what a type can support', () => {
  it('says agreement in small fractions', () => {
    expect(agreementInWords(0.61)).toBe('about 3 times in 5');
    expect(agreementInWords(0.94)).toBe('about 19 times in 20');
    expect(agreementInWords(0.6)).toBe('3 times in 5');
    expect(agreementInWords(0.5)).toBe('1 time in 2');
    expect(agreementInWords(0.99)).toBe('about 99 times in 100');
    expect(agreementInWords(1)).toBe('every time');
  });

  it("reads the seed chapter's change-of-control case: 61% cannot support a 4-point claim", () => {
    // labelNoise = 1 − 0.61 = 0.39: the reader choice alone can move a model difference by 39 points.
    expect(labelNoise(0.61)).toBeCloseTo(0.39, 15);
    const s = agreementStatement({ rawAgreement: 0.61, alpha: 0.41, threshold: 0.667 });
    expect(s).toBe(
      'labels agree about 3 times in 5 (61%): a model difference of up to 39 points on this type is within label noise; alpha 0.410 is below 0.667: sharpen the guideline for this type and re-annotate before comparing models on it',
    );
  });

  it('grades alpha against the threshold and 0.800', () => {
    expect(agreementStatement({ rawAgreement: 0.94, alpha: 0.9, threshold: 0.667 })).toMatch(/up to 6 points .* alpha 0.900 is high enough to draw conclusions/);
    expect(agreementStatement({ rawAgreement: 0.85, alpha: 0.7, threshold: 0.667 })).toMatch(/tentative conclusions only/);
    expect(agreementStatement({ rawAgreement: 0.995, alpha: 0.99, threshold: 0.667 })).toMatch(/up to 0.5 points/);
    expect(agreementStatement({ rawAgreement: 1, alpha: 1, threshold: 0.667 })).toMatch(/^labels agree on every item/);
    expect(agreementStatement({ rawAgreement: 0.9, alpha: NaN, threshold: 0.667 })).toMatch(/alpha is undefined/);
    expect(agreementStatement({ rawAgreement: NaN, alpha: NaN, threshold: 0.667 })).toMatch(/cannot be measured/);
  });
});

describe('the statement for span labels', () => {
  it('gives the noise floor for exact-span and overlap scoring', () => {
    const s = agreementStatement({ rawAgreement: 0.4, alpha: 0.39, threshold: 0.667, labelsFromSpans: true, spans: { exactAgreement: 0.4, overlapAgreement: 0.75, overlapThreshold: 0.8 } });
    expect(s).toBe(
      'spans match exactly 2 times in 5 (40%): scored by exact span, a model difference of up to 60 points on this type is within label noise; spans overlap by at least 0.8 on 75% of pairs, so for models scored by that overlap a difference of up to 25 points is within label noise; alpha 0.390 is below 0.667: sharpen the guideline for this type and re-annotate before comparing models on it',
    );
    const withLabels = agreementStatement({ rawAgreement: 0.9, alpha: 0.85, threshold: 0.667, spans: { exactAgreement: 0.5, overlapAgreement: 1, overlapThreshold: 0.5 } });
    expect(withLabels).toMatch(/^labels agree 9 times in 10 \(90%\): a model difference of up to 10 points .*; spans overlap by at least 0.5 on 100% of pairs \(exact match 50%\), so models scored by that overlap face no label-noise floor; alpha 0.850/);
  });
});
