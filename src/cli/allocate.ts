import { allocationChartSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../data/errors.js';
import { pairScores } from '../data/pairing.js';
import { loadScores } from '../data/scores.js';
import { loadStrata } from '../data/strata-file.js';
import { formatNumber, formatPercent, formatTable } from '../report/table.js';
import { ALLOCATION_METHODS, allocateSample, type AllocationMethod, type AllocationResult } from '../strata/allocate.js';
import { compareAllocations, type AllocationTradeoff } from '../strata/compare-allocations.js';
import { allocationSds, stratumDiscordance, type StratumDiscordance } from '../strata/discordance.js';
import { choiceFlag, contextOf, emit, type Io, warningLines, budgetFlag } from './io.js';
import { strataInputError } from './strata-input-error.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption } from './shared-flags.js';

/** The JSON document of `benchplan allocate`. */
export interface AllocateReport {
  method: AllocationMethod;
  budget: number;
  total: number;
  allocation: Array<AllocationResult['allocation'][number] & { traffic: number | null; quota: number | null; cost: number | null }>;
  /** With a pilot: what each method buys for the same budget. */
  compare: AllocationTradeoff[] | null;
  /** Methods the comparison leaves out because the strata file lacks what they need. */
  compareSkipped: Array<{ method: AllocationMethod; reason: string }>;
  /** With a pilot: how far the two candidates come apart in each stratum. */
  pilot: { source: string; a: string; b: string; items: number; dropped: number; binary: boolean; strata: StratumDiscordance[] } | null;
  strata: string;
  min: number | null;
  max: number | null;
  confidenceLevel: number;
  warnings: string[];
}

const show = (x: number) => (x === Infinity ? '∞' : formatNumber(x));

/** The readable report: the allocation, the pilot's discordance, and what each method buys. */
export function formatAllocate(r: AllocateReport): string {
  const out: string[] = [];
  out.push(`Allocation of ${r.budget} items by ${r.method} (${r.strata}${r.min !== null ? `, min ${r.min}` : ''}${r.max !== null ? `, max ${r.max}` : ''})`);
  const pilot = r.pilot;
  // The share of items the two score differently is telling for 0/1 scores; with graded scores
  // nearly every item differs, so the mean difference is shown instead.
  const header = ['stratum', 'traffic', 'quota', ...(pilot ? ['pilot sd', pilot.binary ? 'disagree' : 'mean diff'] : []), 'items', 'share', 'bound'];
  const rows = r.allocation.map((a) => {
    const d = pilot?.strata.find((s) => s.stratum === a.stratum);
    return [
      a.stratum,
      a.traffic === null ? '-' : formatPercent(a.traffic),
      a.quota === null ? '-' : a.quota <= 1 ? formatPercent(a.quota) : String(a.quota),
      ...(pilot ? [d ? formatNumber(d.sd) : '-', d ? (pilot.binary ? formatPercent(d.discordance) : formatNumber(d.meanDifference)) : '-'] : []),
      String(a.n),
      formatPercent(a.n / r.total),
      a.bound === null ? '' : a.bound === 'min' ? `at min ${a.min}` : `at max ${a.max}`,
    ];
  });
  rows.push(['total', '', '', ...(pilot ? ['', ''] : []), String(r.total), formatPercent(1), '']);
  out.push(formatTable(header, rows, { align: header.map((h) => (h === 'stratum' || h === 'bound' ? 'left' : 'right')) }));
  if (pilot) {
    const last = pilot.binary ? '"disagree" the share of items on which the two score differently' : '"mean diff" the mean of the difference';
    out.push(`Pilot ${pilot.source}: ${pilot.items} paired items, ${pilot.a} − ${pilot.b}. "pilot sd" is the sd of the paired difference per stratum (what Neyman allocation weighs); ${last}.`);
  }
  if (!pilot) out.push('Give --pilot FILE --a MODEL --b MODEL to see each stratum\'s sd of the difference and what each method buys.');
  if (r.compare && r.compare.length > 0) {
    const strata = r.allocation.map((a) => a.stratum);
    out.push('');
    out.push(`What each allocation buys: the ${formatPercent(r.confidenceLevel, 0)} interval of the traffic-reweighted difference ${pilot!.a} − ${pilot!.b}, expected from the pilot`);
    const h = ['method', ...strata, '± half-width', 'MDE', 'widest stratum ±'];
    out.push(
      formatTable(
        h,
        r.compare.map((c) => {
          const widest = c.strata.reduce((best, s) => (s.halfWidth > best.halfWidth ? s : best), c.strata[0]);
          return [c.method, ...c.allocation.map((a) => String(a.n)), show(c.expectedHalfWidth), show(c.mde), `${show(widest.halfWidth)} (${widest.stratum})`];
        }),
        { align: h.map((x) => (x === 'method' ? 'left' : 'right')) },
      ),
    );
    const finite = r.compare.filter((c) => Number.isFinite(c.mde));
    if (finite.length > 0) {
      const best = finite.reduce((x, y) => (y.mde < x.mde ? y : x));
      const proportional = r.compare.find((c) => c.method === 'proportional');
      let sentence = `With ${r.budget} items, ${best.method} resolves a gap of ${formatNumber(best.mde)} in the reweighted difference`;
      if (proportional && proportional !== best) sentence += `; a traffic-proportional set of the same size resolves ${show(proportional.mde)}`;
      out.push(`${sentence}. MDE = 2 × half-width (an interval no wider than the gap, as in benchplan size); "widest stratum ±" is the least-resolved stratum's own half-width.`);
    }
    for (const s of r.compareSkipped) out.push(`(${s.method} is not compared: ${s.reason})`);
  }
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  program
    .command('allocate')
    .description('split an annotation budget across strata')
    .requiredOption('--strata <file>', 'strata file (YAML): traffic, quota, cost, min, max, available per stratum')
    .requiredOption('--budget <n>', 'items to annotate (a whole number from 1 to 10,000,000)')
    .option('--method <method>', `${ALLOCATION_METHODS.join(', ')} (default: quota when the strata file has quotas, else neyman with a pilot, else proportional)`)
    .option('--pilot <file>', 'pilot scores (CSV or JSONL with a stratum column): per-stratum sd of the paired difference, and what each method buys')
    .option('--a <model>', 'model A of the pilot, the candidate side of A − B')
    .option('--b <model>', 'model B of the pilot, the baseline side of A − B')
    .option('--min <k>', 'least items for every stratum (the tighter of this and a stratum\'s own min applies)')
    .option('--max <k>', 'most items for every stratum (the tighter of this and a stratum\'s own max / available applies)')
    .option(...confidenceOption('coverage of the expected intervals'))
    .option(...dropUnpairedOption('leave out pilot items only one model scored (and say how many)'))
    .option(...CHART_OPTION)
    .action(async (options, command) => {
      const ctx = contextOf(command, io);
      if (options.chart !== undefined) preflightChart(options.chart);
      const budget = budgetFlag('--budget', options.budget, 1) as number;
      const min = budgetFlag('--min', options.min, 0);
      const max = budgetFlag('--max', options.max, 0);
      if (min !== undefined && max !== undefined && min > max) throw new InputError('must not exceed --max', { file: '--min', value: `${min} > ${max}` });
      const confidenceLevel = confidenceFlag(options.confidence);
      const chosen = choiceFlag('--method', options.method, ALLOCATION_METHODS);
      const strata = loadStrata(options.strata);
      const names = strata.strata.map((s) => s.name);
      const warnings: string[] = [];

      let pilot: AllocateReport['pilot'] = null;
      let sd: Record<string, number> | undefined;
      if (options.pilot === undefined) {
        if (options.a !== undefined || options.b !== undefined) throw new InputError('--a and --b name the pilot\'s models: give --pilot FILE too', { file: options.a !== undefined ? '--a' : '--b' });
      } else {
        if (options.a === undefined || options.b === undefined) throw new InputError('--pilot needs --a MODEL and --b MODEL (the two candidates whose difference is compared)', { file: '--pilot', value: options.pilot });
        const table = loadScores(options.pilot);
        if (!table.hasStratum) throw new InputError('the pilot needs a stratum column to give per-stratum sds', { file: options.pilot });
        const paired = pairScores(table, options.a, options.b, { dropUnpaired: Boolean(options.dropUnpaired) });
        const discordance = stratumDiscordance(paired, { strata: names });
        const extra = stratumDiscordance(paired).strata.filter((s) => s.n > 0 && !names.includes(s.stratum));
        if (extra.length > 0) {
          warnings.push(`the pilot has strata that are not in ${strata.source}, left out: ${extra.map((s) => `"${s.stratum}" (${s.n} items)`).join(', ')}`);
        }
        for (const s of discordance.strata) {
          if (s.n < 2) {
            throw new InputError(
              `stratum "${s.stratum}" has ${s.n === 0 ? 'no' : 'one'} paired pilot item${s.n === 1 ? '' : 's'}; its sd of the difference needs at least two (add pilot items, or drop --pilot)`,
              { file: options.pilot, value: s.n },
            );
          }
          if (s.n < 10) warnings.push(`stratum "${s.stratum}" has only ${s.n} pilot items: its sd, and every allocation and half-width built on it, is rough`);
        }
        if (paired.dropped > 0) warnings.push(`${paired.dropped} pilot item${paired.dropped === 1 ? '' : 's'} scored by only one model left out (--drop-unpaired)`);
        const weighed = allocationSds(discordance);
        sd = weighed.sd;
        for (const name of weighed.floored) {
          warnings.push(
            `stratum "${name}": the models agreed on every pilot item (sd 0), which a pilot this small cannot tell from rare disagreement; allocations weigh it at the rule-of-three bound ${formatNumber(sd[name])} instead of 0`,
          );
        }
        pilot = { source: options.pilot, a: options.a, b: options.b, items: paired.items.length, dropped: paired.dropped, binary: discordance.binary, strata: discordance.strata };
      }

      const method: AllocationMethod = chosen ?? (strata.quotaKind !== null ? 'quota' : pilot ? 'neyman' : 'proportional');
      if ((method === 'neyman' || method === 'optimal') && pilot === null) {
        throw new InputError(`${method} allocation needs --pilot FILE --a MODEL --b MODEL (each stratum's sd of the paired difference)`, { file: '--method', value: method });
      }
      let result: AllocationResult;
      let compare: AllocationTradeoff[] | null = null;
      let compareSkipped: AllocateReport['compareSkipped'] = [];
      try {
        result = allocateSample(strata.strata, { budget, method, sd, min, max });
        if (pilot && sd) {
          if (strata.hasTraffic) {
            const c = compareAllocations(strata.strata, { budget, sd, min, max, confidenceLevel });
            compare = c.compare;
            compareSkipped = c.skipped;
            for (const row of c.compare) if (row.method !== method) for (const w of row.warnings) warnings.push(`compare, ${row.method}: ${w}`);
          } else {
            warnings.push(`comparing allocations needs traffic shares in ${strata.source} (they are compared on the traffic-reweighted difference)`);
          }
        }
      } catch (error) {
        strataInputError(error, strata);
      }
      const report: AllocateReport = {
        method,
        budget,
        total: result.total,
        allocation: result.allocation.map((a, h) => ({
          ...a,
          traffic: strata.strata[h].traffic ?? null,
          quota: strata.strata[h].quota ?? null,
          cost: strata.strata[h].cost ?? null,
        })),
        compare,
        compareSkipped,
        pilot,
        strata: strata.source,
        min: min ?? null,
        max: max ?? null,
        confidenceLevel,
        warnings: [...result.warnings, ...warnings],
      };
      emit(ctx, report, () => formatAllocate(report));
      if (options.chart !== undefined) await writeChart(allocationChartSpec({ traffic: strata.hasTraffic ? Object.fromEntries(strata.strata.map((s) => [s.name, s.traffic ?? 0])) : undefined, allocations: compare ? compare.filter((c) => c.method !== 'proportional').map((c) => ({ method: c.method, allocation: c.allocation })) : [{ method, allocation: result.allocation }] }), options.chart);
    });
}
