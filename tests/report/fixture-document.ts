/** A report document built from the chart fixtures: every chart kind, no module needed. */
import { agreementChartSpec, allocationChartSpec, costSweepSpec, forestPlotSpec, rotationPlanSpec, sizingCurveSpec, stratumScoresSpec } from '../../src/charts/index.js';
import type { ReportDocument } from '../../src/report/index.js';
import { agreementResult, allocationResult, forestResult, headlineResult, rotationResult, sizingResult, sweepResult } from '../charts/fixtures.js';

export const EVIL = '"><script>alert(1)</script><img src=x onerror=alert(2)>';

export function fixtureDocument(): ReportDocument {
  const figures = [
    ['forest', 'Which models differ', forestPlotSpec({ ...forestResult, pairs: [...(forestResult.pairs ?? []), { a: EVIL, b: 'beta', estimate: 0, interval: [-0.01, 0.01] }] })],
    ['sizing', 'Sizing', sizingCurveSpec(sizingResult)],
    ['allocation', 'Allocation', allocationChartSpec(allocationResult)],
    ['strata', 'Scores by stratum', stratumScoresSpec(headlineResult)],
    ['sweep', 'Cost sweep', costSweepSpec(sweepResult)],
    ['agreement', 'Agreement', agreementChartSpec(agreementResult)],
    ['rotation', 'Rotation', rotationPlanSpec(rotationResult)],
  ] as const;
  return {
    title: 'benchplan report (fixture)',
    version: '0.0.0-test',
    inputs: [{ role: 'scores', path: `scores-${EVIL}.csv`, sha256: 'a'.repeat(64), bytes: 123 }],
    settings: [['seed', '0']],
    notes: [`note with ${EVIL}`],
    sections: figures.map(([id, title, spec]) => ({
      id,
      title,
      paragraphs: [`About ${title}; model ${EVIL}.`],
      figure: { spec, caption: `caption ${EVIL}` },
      tables: [{ caption: 'numbers', header: ['model', 'value'], rows: [[EVIL, 0.5], ['beta', '[0.1, 0.2]']] }],
      settings: [['confidence level', '0.95']],
      warnings: [`warning about ${EVIL}`],
    })),
  };
}
