import { allocationChartSpec } from '../../charts/allocation.js';
import { InputError } from '../../data/errors.js';
import { pairScores } from '../../data/pairing.js';
import type { ScoresTable } from '../../data/scores.js';
import type { Strata } from '../../data/strata-file.js';
import { compareAllocations, stratumDiscordance, type CompareAllocationsResult, type DiscordanceResult } from '../../strata/index.js';
import { formatNumber, formatPercent } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

const show = (x: number) => (Number.isFinite(x) ? formatNumber(x) : '∞');

/**
 * The allocation section: how quota, traffic-proportional and Neyman allocations spend the same
 * budget across strata, and what each buys (the expected half-width of the traffic-reweighted
 * paired difference and the gap it resolves) given the pilot's per-stratum sd of A − B.
 * @throws {InputError} when the pilot has no stratum column or a stratum has under two pilot items.
 */
export function allocationSection(
  pilot: ScoresTable,
  a: string,
  b: string,
  strata: Strata,
  budget: number,
  settings: ReportSettings,
): { section: ReportSection; result: CompareAllocationsResult; discordance: DiscordanceResult } {
  if (!pilot.hasStratum) throw new InputError('the allocation section needs a stratum column in the pilot', { file: pilot.source });
  if (!strata.hasTraffic) throw new InputError('comparing allocations needs a traffic share for every stratum', { file: strata.source });
  const names = strata.strata.map((s) => s.name);
  const paired = pairScores(pilot, a, b, { dropUnpaired: settings.dropUnpaired ?? false });
  const discordance = stratumDiscordance(paired, { strata: names });
  const warnings: string[] = [];
  for (const s of discordance.strata) {
    if (s.n < 2) throw new InputError(`stratum "${s.stratum}" has ${s.n} paired pilot item${s.n === 1 ? '' : 's'}; its sd of the difference needs at least two`, { file: pilot.source, value: s.n });
    if (s.n < 10) warnings.push(`stratum "${s.stratum}" has only ${s.n} pilot items: its sd, and every allocation built on it, is rough`);
  }
  const sd = Object.fromEntries(discordance.strata.map((s) => [s.stratum, s.sd]));
  const result = compareAllocations(strata.strata, { budget, sd, confidenceLevel: settings.confidenceLevel });
  const traffic = Object.fromEntries(strata.strata.map((s) => [s.name, s.traffic as number]));
  const finite = result.compare.filter((c) => Number.isFinite(c.mde));
  const best = finite.length > 0 ? finite.reduce((x, y) => (y.mde < x.mde ? y : x)) : undefined;
  const proportional = result.compare.find((c) => c.method === 'proportional');
  const paragraphs = [
    'A case on which both candidates give the same verdict adds the same amount to both totals and nothing to their difference. Routine work is most of the traffic and where candidates agree most, so a traffic-proportional set spends most of its budget where it cannot separate anyone.',
    `Per stratum, the pilot’s sd of ${a} − ${b}: ${discordance.strata.map((s) => `${s.stratum} ${formatNumber(s.sd)} (${s.n} items${discordance.binary ? `, disagree on ${formatPercent(s.discordance)}` : ''})`).join('; ')}.`,
  ];
  if (best) {
    paragraphs.push(
      `With ${budget} items, ${best.method} resolves a gap of ${formatNumber(best.mde)} in the traffic-reweighted difference${proportional && proportional !== best ? `; a traffic-proportional set of the same size resolves ${show(proportional.mde)}` : ''}.`,
    );
  }
  const section: ReportSection = {
    id: 'allocation',
    title: 'Allocating the budget across strata',
    paragraphs,
    figure: {
      spec: allocationChartSpec({ traffic, allocations: result.compare.filter((c) => c.method !== 'proportional').map((c) => ({ method: c.method, allocation: c.allocation })) }),
      caption: `Share of ${budget} items each method gives each stratum, beside the stratum’s share of production traffic (which is what proportional allocation gives).`,
    },
    tables: [
      {
        caption: `What each allocation of ${budget} items buys`,
        header: ['stratum', 'traffic', ...result.compare.map((c) => c.method)],
        rows: [
          ...names.map((name) => [name, formatPercent(traffic[name]), ...result.compare.map((c) => String(c.allocation.find((x) => x.stratum === name)?.n ?? 0))]),
          ['± half-width', '', ...result.compare.map((c) => show(c.expectedHalfWidth))],
          ['MDE', '', ...result.compare.map((c) => show(c.mde))],
        ],
      },
    ],
    settings: [
      ['budget', String(budget)],
      ['pilot', `${pilot.source}: ${a} − ${b}, ${paired.items.length} paired items`],
      ['confidence level', String(result.confidenceLevel)],
      ['MDE', '2 × expected half-width of the traffic-reweighted difference (an interval no wider than the gap)'],
      ...result.skipped.map((s) => [`${s.method}`, `not compared: ${s.reason}`] as [string, string]),
    ],
    warnings: [...warnings, ...result.compare.flatMap((c) => c.warnings.map((w) => `${c.method}: ${w}`))],
  };
  return { section, result, discordance };
}
