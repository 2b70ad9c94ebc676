import { sizingCurveSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import { SIZE_DESIGN_OPTIONS, formatSizeDesigns, sizeDesigns } from './size-designs.js';
import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../data/errors.js';
import { pairScores } from '../data/pairing.js';
import { loadStrata } from '../data/strata-file.js';
import { SCORE_RANGE_OPTION, SEQUENCE_OPTION } from './sequential-flags.js';
import { runSequentialSize } from './size-sequential.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { sizeFromPilot, type PilotSizing } from '../sizing/pilot.js';
import type { PowerAlternative } from '../sizing/power.js';
import { choiceFlag, contextOf, emit, numberFlag, type Io, warningLines, budgetFlag } from './io.js';
import { loadInputs, pairFromInputs, withSourceOptions } from './sources.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, seedOption } from './shared-flags.js';

const ALTERNATIVES = ['two-sided', 'greater'] as const satisfies readonly PowerAlternative[];
/** The gaps (as multiples of --mde) the text table shows; the JSON curve has them all. */
const TABLE_FACTORS = [0.5, 0.7, 1, 1.5, 2];

const num = (x: number | null) => (x === null ? '-' : x === Infinity ? '∞' : formatNumber(x));
const count = (x: number) => (Number.isNaN(x) ? 'NaN' : x === Infinity ? '∞' : String(x));
const items = (x: number) => (x === 1 ? '1 item' : `${count(x)} items`);

/** The readable report: what the numbers mean, in sentences, then the tables behind them. */
export function formatSize(r: PilotSizing): string {
  const out: string[] = [];
  const level = formatPercent(r.confidenceLevel, 0);
  const power = formatPercent(r.power, 0);
  const alpha = formatNumber(1 - r.confidenceLevel);
  const gap = num(r.mde);
  out.push(`Sizing from the pilot ${r.source}: ${r.pilotItems} paired items, difference ${r.a} − ${r.b}${r.droppedItems ? ` (${r.droppedItems} unpaired items dropped)` : ''}`);
  out.push(`  mean difference ${num(r.meanDifference)}, variance of the per-item difference ${num(r.varianceOfDifference)} (sd ${num(r.standardDeviation)})`);
  out.push('');
  const clustered = r.clusters ? ' (allowing for clusters)' : '';
  out.push(`To see a gap of ${gap} (a ${level} interval no wider than ±${num(r.mde / 2)}) you need ${items(r.n)}${clustered}.`);
  out.push(
    `For ${power} power to detect a gap of ${gap} (paired t-test, ${r.alternative}, α = ${alpha}) you need ${items(r.nForPower)} (normal approximation: ${count(r.nForPowerNormal)}).`,
  );
  out.push(
    `The pilot's variance is itself an estimate (${level} interval ${formatInterval(r.varianceInterval)}): if the truth is at its upper end you need ${items(r.nUpper)} (${count(r.nForPowerUpper)} for power).`,
  );
  if (r.budget !== null) {
    out.push(`${r.budget} items resolve a gap of ${num(r.mdeAtBudget)} by the interval rule, and detect ${num(r.mdeForPowerAtBudget)} with ${power} power.`);
  }
  out.push('');
  const rows = r.curve.filter((p) => TABLE_FACTORS.some((f) => Math.abs(p.mde - f * r.mde) < 1e-9 * r.mde));
  out.push('Items needed by gap (half the gap costs four times the items):');
  out.push(
    formatTable(
      ['gap', `items (±gap/2, ${level})`, 'at variance upper limit', `items (${power} power)`],
      rows.map((p) => [num(p.mde), count(p.n), count(p.nUpper), count(p.nForPower)]),
    ),
  );

  if (r.clusters) {
    const c = r.clusters;
    out.push('');
    out.push(
      `Items share clusters: ${c.clusters} clusters of ${num(c.meanClusterSize)} items on average. The design effect is ${num(c.designEffect)} ` +
        `(intraclass correlation ${num(c.intraclassCorrelation)}), so the counts above use ${num(c.designEffect)} × the item variance. ` +
        `Counted in clusters: ${count(c.nClusters)} clusters for the interval, ${count(c.nClustersForPower)} for power. Treating items as independent would say ${items(c.nIgnoringClusters)}.`,
    );
  }

  if (r.repeats) {
    const k = r.repeats;
    out.push('');
    out.push(
      `Repeats: the pilot ran each item ${num(k.pilotRepeatsA)} times (${r.a}) and ${num(k.pilotRepeatsB)} times (${r.b}). Of the variance of differences ${num(r.varianceOfDifference)}, ` +
        `${num(k.withinVarianceOfDifference)} is run-to-run noise and ${num(k.betweenItemVariance)} lies between items (Miller 2024). With K runs of each model per item:`,
    );
    out.push(
      formatTable(
        ['K', 'per-item variance', 'items', `items (${power} power)`, 'runs per model'],
        k.byRepeats.map((row) => [String(row.repeats), num(row.perItemVariance), count(row.n), count(row.nForPower), count(row.runs)]),
      ),
    );
    out.push(`No number of repeats brings the count below ${items(k.nLimit)} (the between-item variance alone).`);
  }

  if (r.strata) {
    out.push('');
    out.push(`Per stratum: the items each stratum needs for its OWN ${level} interval of ±${num(r.mde / 2)} (a per-stratum conclusion):`);
    out.push(
      formatTable(
        ['stratum', 'pilot items', 'mean diff', 'variance', 'items', `items (${power} power)`, 'at variance upper limit'],
        r.strata.map((s) => [s.stratum, String(s.pilotItems), num(s.meanDifference), num(s.varianceOfDifference), count(s.n), count(s.nForPower), count(s.nUpper)]),
        { align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'] },
      ),
    );
  }

  if (r.plan) {
    const p = r.plan;
    out.push('');
    out.push(`Planned allocation (${p.source}${p.budget !== null ? `, ${p.budget} items` : ''}):`);
    out.push(
      formatTable(
        ['stratum', 'quota', 'items', 'traffic', 'pilot share', 'variance'],
        p.strata.map((s) => [
          s.stratum,
          formatPercent(s.quotaShare),
          s.plannedItems === null ? '-' : num(s.plannedItems),
          s.traffic === null ? '-' : formatPercent(s.traffic),
          formatPercent(s.pilotShare),
          num(s.varianceOfDifference),
        ]),
        { align: ['left', 'right', 'right', 'right', 'right', 'right'] },
      ),
    );
    const line = (name: string, e: NonNullable<PilotSizing['plan']>['quotaWeighted']) =>
      `${name}: per-item variance ${num(e.perItemVariance)} → ${items(e.n)} for ±${num(r.mde / 2)} (${count(e.nForPower)} for power)` +
      (e.mdeAtBudget !== null ? `; at ${p.budget} items it resolves a gap of ${num(e.mdeAtBudget)}` : '') +
      '.';
    out.push(line('Plain mean over the planned set (quota weights)', p.quotaWeighted));
    if (p.trafficReweighted) out.push(line('Traffic-reweighted headline (traffic weights)', p.trafficReweighted));
    out.push(`The blended pilot variance ${num(p.blendedVariance)} would say ${items(p.blendedN)}; the pilot's mix is ${num(p.pilotMixDistance)} (total variation) from the plan's.`);
  }

  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('size')
    .description("items needed to see the smallest gap you would act on, from a pilot")
    .argument('<pilot...>', 'pilot scores (CSV or JSONL): both models on the same items; stratum, cluster and repeat columns are used when present; or two results files (A first) of promptfoo, Inspect, lm-eval')
    .option('--a <model>', 'model A, the candidate side of A − B; default with two inputs: the first input\'s model')
    .option('--b <model>', 'model B, the baseline side of A − B; default: the second input\'s model')
    .requiredOption('--mde <gap>', 'the smallest gap you would act on, in the scores\' units (> 0)')
    .option(...SIZE_DESIGN_OPTIONS[0])
    .option(...SIZE_DESIGN_OPTIONS[1])
    .option(...SIZE_DESIGN_OPTIONS[2])
    .option(...SIZE_DESIGN_OPTIONS[3])
    .option(...confidenceOption('interval coverage, and 1 − α of the power test'))
    .option('--power <power>', 'target power of the paired t-test', '0.8')
    .option('--alternative <kind>', `the test of the power count: ${ALTERNATIVES.join(' or ')} (A > B)`, 'two-sided')
    .option('--budget <n>', 'items you can afford: the gap they resolve (at most 10,000,000)')
    .option('--per-stratum', "size each stratum on its own variance (needs a stratum column)")
    .option('--sequential', 'also simulate the items a confidence sequence needs to a decision (see docs/monitor.md)')
    .option('--gap <gaps>', 'with --sequential: true gaps to simulate, comma-separated (default mde and 2 × mde)')
    .option('--simulations <n>', 'with --sequential: simulated runs per gap', '1000')
    .option('--max-items <n>', 'with --sequential: stop a run undecided here (default 4 × the power count)')
    .option(...seedOption('with --sequential: seed of the simulation'))
    .option(...SCORE_RANGE_OPTION)
    .option(...SEQUENCE_OPTION)
    .option('--strata <file>', 'strata file (YAML) with quotas (shares or counts) and traffic: what the planned allocation buys')
    .option('--ignore-clusters', 'size as if items were independent even when the pilot has a cluster column')
    .option(...dropUnpairedOption('leave out items only one model scored (and say how many)'))
    .option(...CHART_OPTION);
  withSourceOptions(command)
    .action(async (pilotInputs, options, command) => {
      const pilotPath = pilotInputs.join(' + ');
      const ctx = contextOf(command, io);
      if (options.chart !== undefined) preflightChart(options.chart);
      const mde = numberFlag('--mde', options.mde, { above: 0 }) as number;
      const confidenceLevel = confidenceFlag(options.confidence);
      const power = numberFlag('--power', options.power, { above: 0, below: 1 }) as number;
      const alternative = choiceFlag('--alternative', options.alternative, ALTERNATIVES) as PowerAlternative;
      const budget = budgetFlag('--budget', options.budget, 2);
      const alpha = 1 - confidenceLevel;
      const falsePositive = alternative === 'two-sided' ? alpha / 2 : alpha;
      if (power <= falsePositive) {
        throw new InputError(`must exceed the test's false-positive rate ${formatNumber(falsePositive)} at --confidence ${confidenceLevel}`, { file: '--power', value: options.power });
      }
      const strata = options.strata === undefined ? undefined : loadStrata(options.strata);
      const loaded = loadInputs(pilotInputs, options as Record<string, unknown>, io);
      const table = loaded.table;
      [options.a, options.b] = pairFromInputs(loaded, options.a, options.b, ['--a', '--b']);
      const paired = pairScores(table, options.a, options.b, { dropUnpaired: Boolean(options.dropUnpaired) });
      if (paired.differences.length < 2) {
        throw new InputError(
          `the pilot has ${paired.differences.length} item scored by both "${options.a}" and "${options.b}"; sizing needs at least 2 to estimate the variance of the difference`,
          { file: pilotPath },
        );
      }
      if ((options.perStratum || strata) && !table.hasStratum) {
        throw new InputError(`${strata ? '--strata' : '--per-stratum'} needs a "stratum" column in the pilot`, { file: pilotPath });
      }
      if (options.sequential) return runSequentialSize(ctx, paired, { mde, confidenceLevel, power, alternative, budget, perStratum: Boolean(options.perStratum), strata, ignoreClusters: Boolean(options.ignoreClusters) }, options, formatSize);
      const result = sizeFromPilot(paired, {
        mde,
        confidenceLevel,
        power,
        alternative,
        budget,
        perStratum: Boolean(options.perStratum),
        strata,
        ignoreClusters: Boolean(options.ignoreClusters),
      });
      const designs = sizeDesigns(pilotPath, options, result);
      emit(ctx, designs ? { ...result, designs } : result, () => formatSize(result) + (designs ? `\n${formatSizeDesigns(designs)}` : ''));
      if (options.chart !== undefined) await writeChart(sizingCurveSpec(result), options.chart);
    });
}
