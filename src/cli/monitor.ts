import type { Command } from '@commander-js/extra-typings';
import { loadAnnotationOrder } from '../data/annotation-order.js';
import { bindPlan, MONITOR_STOPPING_BINDING, numberBinding, planEcho, switchBinding, textBinding } from './bind-plan.js';
import { InputError } from '../data/errors.js';
import { checkClustersWithinStrata, pairScores } from '../data/pairing.js';
import { loadScores } from '../data/scores.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { monitorComparison, type MonitorResult } from '../sequential/index.js';
import { contextOf, emit, numberFlag, warningLines, type Io } from './io.js';
import { SCORE_RANGE_OPTION, MONITOR_SEQUENCE_OPTION, arrivalOf, monitorSequenceFlag, scoreRangeFlag, sequenceName, verdictText } from './sequential-flags.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption } from './shared-flags.js';

/** The readable report: one line per look, then what it means. */
export function formatMonitor(r: MonitorResult): string {
  const out: string[] = [];
  const unit = r.unit === 'cluster' ? 'clusters' : 'items';
  const level = formatPercent(r.confidenceLevel, 0);
  out.push(`Monitoring ${r.a} − ${r.b} on ${r.source}: ${r.items} items${r.unit === 'cluster' ? ` in ${r.units} complete clusters (each cluster is one unit)` : ''}, ` +
    `${r.schedule.kind === 'batch' ? 'a look after every batch' : `a look every ${r.schedule.every} ${unit}`}.`);
  out.push(`${level} anytime-valid confidence sequence (${sequenceName(r.method)}${r.methodRequested === 'auto' ? ' by --sequence auto' : ''}, Waudby-Smith & Ramdas 2024), differences bounded by [${r.differenceRange.join(', ')}]: valid at every look at once.`);
  out.push('');
  const rows = r.looks.map((l) => [
    String(l.look),
    l.batch === null ? '-' : String(l.batch),
    r.unit === 'cluster' ? `${l.items} (${l.units})` : String(l.items),
    formatNumber(l.estimate),
    formatInterval(l.interval),
    verdictText(l.verdict, r.a, r.b, r.mde, l),
  ]);
  out.push(formatTable(['look', 'batch', r.unit === 'cluster' ? 'items (clusters)' : 'items', `mean ${r.a} − ${r.b}`, `${level} sequence`, 'verdict'], rows, { align: ['right', 'right', 'right', 'right', 'left', 'left'] }));
  out.push('');
  const last = r.looks[r.looks.length - 1];
  if (r.decision) {
    out.push(`Settled at look ${r.decision.look} after ${r.decision.items} items: ${verdictText(r.decision.verdict, r.a, r.b, r.mde)}. Labelling could have stopped there; the error rate stays ${formatPercent(1 - r.confidenceLevel, 0)} although every look was read.`);
  } else if (last) {
    out.push(`Not settled after ${last.items} items: ${verdictText(last.verdict, r.a, r.b, r.mde, last)}${r.unit === 'cluster' && last.unitsStillNeeded !== null && Number.isFinite(last.unitsStillNeeded) ? ` (${last.unitsStillNeeded} more clusters)` : ''}, if the variance and the gap stay as seen.`);
  }
  if (r.stratumDecisions && last?.strata) {
    out.push('');
    out.push(`Per stratum: each sequence at ${formatPercent(r.stratumConfidenceLevel as number, 2)} (Bonferroni: ${formatPercent(1 - r.confidenceLevel, 0)} / ${r.stratumDecisions.length} strata), so all strata together hold at ${level}:`);
    out.push(
      formatTable(
        ['stratum', 'items', 'mean', 'sequence (last look)', 'verdict (last look)', 'settled at'],
        last.strata.map((s, j) => {
          const d = r.stratumDecisions![j].decision;
          return [s.stratum, String(s.items), formatNumber(s.estimate), formatInterval(s.interval), verdictText(s.verdict, r.a, r.b, r.mde, s), d ? `look ${d.look} (${d.items} items)` : '-'];
        }),
        { align: ['left', 'right', 'right', 'left', 'left', 'left'] },
      ),
    );
  }
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('monitor')
    .description('watch a comparison as labels arrive: an anytime-valid interval at every look, and stop when it is settled')
    .argument('<scores>', 'scores table (.csv or .jsonl) in annotation order: an order and/or batch column, or file order')
    .option('--a <model>', 'model A, the candidate side of A − B; required unless --plan names the candidate')
    .option('--b <model>', 'model B, the baseline side of A − B; required unless --plan names the baseline')
    .option('--mde <gap>', 'the smallest gap you would act on: also settle as "equivalent" when the sequence fits inside ±mde/2')
    .option(...confidenceOption('level of the confidence sequence (valid at every look at once)'))
    .option(...SCORE_RANGE_OPTION)
    .option(...MONITOR_SEQUENCE_OPTION)
    .option('--cluster', 'monitor whole clusters (the cluster column, e.g. documents): a cluster counts once all its items are labelled')
    .option('--per-stratum', 'also a sequence per stratum (Bonferroni across strata)')
    .option('--every <n>', 'without a batch column: look after every n items (or clusters)', '20')
    .option(...dropUnpairedOption('leave out items one model did not score'))
    .addHelpText(
      'after',
      `
Order: items are taken by the batch column, then the order column, then file order. Looks come after
each batch (with a batch column) or every --every units. Shuffle the pool before labelling: the
sequence assumes the order does not depend on the scores.

Example:
  benchplan monitor examples/monitor.csv --a candidate --b current --mde 0.05 --per-stratum`,
    );
  bindPlan(
    command,
    io,
    [
      textBinding('candidate', 'a', '--a'),
      textBinding('baseline', 'b', '--b'),
      numberBinding('mde', 'mde', '--mde'),
      numberBinding('confidenceLevel', 'confidence', '--confidence'),
      switchBinding('cluster', 'cluster', '--cluster'),
      switchBinding('perStratum', 'perStratum', '--per-stratum'),
      MONITOR_STOPPING_BINDING,
    ],
    [['a', '--a <model>'], ['b', '--b <model>']],
  );
  command.action((scores, opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const mde = numberFlag('--mde', opts.mde, { above: 0 });
      const confidenceLevel = confidenceFlag(opts.confidence);
      const every = numberFlag('--every', opts.every, { integer: true, min: 1 }) as number;
      const scoreRange = scoreRangeFlag(opts.scoreRange);
      const method = monitorSequenceFlag(opts.sequence);
      const table = loadScores(scores);
      if (opts.cluster && !table.hasCluster) throw new InputError('--cluster needs a "cluster" column', { file: scores });
      if (opts.perStratum && !table.hasStratum) throw new InputError('--per-stratum needs a "stratum" column', { file: scores });
      const order = loadAnnotationOrder(scores);
      const paired = pairScores(table, opts.a as string, opts.b as string, { dropUnpaired: Boolean(opts.dropUnpaired) });
      if (opts.cluster && opts.perStratum) checkClustersWithinStrata(paired);
      const result = monitorComparison(paired, {
        arrival: arrivalOf(paired, order),
        scoreRange,
        confidenceLevel,
        mde,
        cluster: Boolean(opts.cluster),
        perStratum: Boolean(opts.perStratum),
        every,
        method,
      });
      emit(ctx, { ...result, droppedItems: paired.dropped, order: order.hasBatch ? (order.hasOrder ? 'batch, order' : 'batch') : order.hasOrder ? 'order' : 'file', ...planEcho(cmd) }, () => formatMonitor(result));
    });
}
