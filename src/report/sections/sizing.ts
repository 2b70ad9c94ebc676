import { sizingCurveSpec } from '../../charts/sizing-curve.js';
import { pairScores } from '../../data/pairing.js';
import type { ScoresTable } from '../../data/scores.js';
import type { Strata } from '../../data/strata-file.js';
import { sizeFromPilot, type PilotSizing } from '../../sizing/index.js';
import { InputError } from '../../data/errors.js';
import { formatInterval, formatNumber } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

const count = (x: number) => (Number.isFinite(x) ? String(x) : '-');

/**
 * The sizing section: from the pilot's variance of A − B, the items needed to see the smallest
 * gap you would act on (and at the upper limit of that variance), the gap the budget resolves,
 * per stratum when the pilot has strata, and the n(mde) curve.
 * @param mde the gap to size for; when undefined, the gap the budget resolves (rounded to 2
 *   significant digits), so the curve is drawn around what the budget can see.
 */
export function sizingSection(
  pilot: ScoresTable,
  a: string,
  b: string,
  budget: number,
  mde: number | undefined,
  strata: Strata | undefined,
  settings: ReportSettings,
): { section: ReportSection; result: PilotSizing } {
  const paired = pairScores(pilot, a, b, { dropUnpaired: settings.dropUnpaired ?? false });
  let target = mde;
  let chosen = 'given with --mde';
  if (target === undefined) {
    // The gap the budget resolves (clusters and all), read off a first sizing at any gap.
    const resolved = sizeFromPilot(paired, { mde: 1, budget, confidenceLevel: settings.confidenceLevel }).mdeAtBudget;
    if (resolved === null || !(resolved > 0)) throw new InputError(`the pilot's differences ${a} − ${b} have no spread: there is no gap to size for (give --mde)`, { file: pilot.source });
    target = Number(resolved.toPrecision(2));
    chosen = `the gap ${budget} items resolve, rounded (give --mde to choose it)`;
  }
  const result = sizeFromPilot(paired, {
    mde: target,
    budget,
    confidenceLevel: settings.confidenceLevel,
    perStratum: pilot.hasStratum,
    ...(strata && pilot.hasStratum ? { strata } : {}),
  });
  const paragraphs = [
    `How many items are needed depends on the smallest gap you commit in advance to acting on. From the pilot’s ${result.pilotItems} paired items (${a} − ${b}, variance of the difference ${formatNumber(result.varianceOfDifference)}), a ${Math.round(result.confidenceLevel * 100)}% paired interval no wider than a gap of ${formatNumber(result.mde)} needs ${count(result.n)} items; if the pilot’s variance was on the low side (the upper end of its interval) ${count(result.nUpper)}.`,
    `Halving the gap costs four times the items: the count grows with the square of 1 / gap, so small differences are quadratically more expensive.${result.mdeAtBudget !== null ? ` ${budget} items resolve a gap of ${formatNumber(result.mdeAtBudget)}.` : ''}`,
  ];
  if (result.clusters) paragraphs.push(`Items share clusters: design effect ${formatNumber(result.clusters.designEffect)}, so ${count(result.clusters.nClusters)} clusters are needed (${count(result.clusters.nIgnoringClusters)} items if they were independent).`);
  const tables = [
    {
      caption: 'Items needed',
      header: ['quantity', 'value'],
      rows: [
        ['gap to detect (mde)', formatNumber(result.mde)],
        ['variance of the difference', `${formatNumber(result.varianceOfDifference)} ${formatInterval(result.varianceInterval)}`],
        ['items (interval no wider than the gap)', count(result.n)],
        ['… at the variance’s upper limit', count(result.nUpper)],
        [`items for ${Math.round(result.power * 100)}% power (paired t-test)`, count(result.nForPower)],
        ...(result.mdeAtBudget !== null ? [[`gap ${budget} items resolve`, formatNumber(result.mdeAtBudget)]] : []),
      ],
    },
    ...(result.strata
      ? [
          {
            caption: 'Per stratum (each on its own variance)',
            header: ['stratum', 'pilot items', 'variance', 'items', 'items (upper)'],
            rows: result.strata.map((s) => [s.stratum, String(s.pilotItems), formatNumber(s.varianceOfDifference), count(s.n), count(s.nUpper)]),
          },
        ]
      : []),
  ];
  const section: ReportSection = {
    id: 'sizing',
    title: 'Sizing from the pilot',
    paragraphs,
    figure: { spec: sizingCurveSpec(result), caption: 'Items needed against the gap to detect; shaded: the range the pilot’s own uncertainty about its variance allows.' },
    tables,
    settings: [
      ['pilot', `${result.source}: ${a} − ${b}, ${result.pilotItems} paired items`],
      ['mde', `${formatNumber(result.mde)} (${chosen})`],
      ['confidence level', String(result.confidenceLevel)],
      ['power', String(result.power)],
      ['budget', String(budget)],
    ],
    warnings: result.warnings,
  };
  return { section, result };
}
