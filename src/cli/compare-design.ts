import { designDifference } from '../selection/index.js';
import { readDesignLabels } from '../data/design-labels.js';
import { compareDesignReport, formatCompareDesign } from '../report/compare-design.js';
import { emit, type Context } from './io.js';

/**
 * compare --design: reads back the annotation list `select` wrote (scores filled in) and
 * estimates the whole pool's mean difference A − B with the design's inclusion probabilities.
 */
export function compareWithDesign(ctx: Context, scoresPath: string, designPath: string, confidenceLevel: number): void {
  const labels = readDesignLabels(scoresPath, designPath);
  const result = designDifference(labels.design, labels.difference, confidenceLevel);
  const report = compareDesignReport(labels, result, { scores: scoresPath, design: designPath });
  emit(ctx, report, () => formatCompareDesign(report));
}
