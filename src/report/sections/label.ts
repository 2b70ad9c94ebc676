import { labelSequenceSpec } from '../../charts/label-sequence.js';
import type { LabelLog, LabelSessionState } from '../../label/session.js';
import type { ReportSection } from '../html.js';
import { formatInterval, formatNumber, formatPercent } from '../table.js';

/** A labelling session as the report reads it: the checked log and its replay. */
export interface LabelReportSource {
  log: LabelLog;
  session: LabelSessionState;
}

/**
 * A labelling session (`benchplan label`) as a report section: the verdict, the confidence
 * sequence narrowing as labels arrived (chart and table), and where the labels went — per stratum,
 * items whose outputs differ against those that agree (the audit), with the share labelled and
 * how many audited agreeing items had a human difference (which would break "same output, same
 * score"). Every number is the session log's, replayed (replayLabelLog); nothing is recomputed.
 * @param source the log and its replayed state.
 * @returns the section.
 * @example labelSection({ log, session }).section.id // => the section for a session read with readLabelLog and replayLabelLog
 */
export function labelSection(source: LabelReportSource): { section: ReportSection } {
  const { log, session } = source;
  const h = log.header;
  const o = h.options;
  const level = o.confidence ?? 0.95;
  const last = session.status;
  const difference = `${h.candidate} − ${h.baseline}`;
  const labelled = new Map<string, { baseline: number; candidate: number; batch: number }>();
  for (const a of session.answers) for (const x of a.answers) labelled.set(x.id, { baseline: x.baseline, candidate: x.candidate, batch: a.batch });
  const draws = new Map<string, number>();
  for (const line of log.lines) if (line.kind === 'proposal') for (const d of line.draws) draws.set(d.id, (draws.get(d.id) ?? 0) + 1);
  const groups = new Map<string, { stratum: string; same: boolean; items: number; labelled: number; draws: number; differing: number }>();
  for (const it of h.items) {
    const key = `${it.stratum ?? ''}\u0000${it.same}`;
    const g = groups.get(key) ?? { stratum: it.stratum ?? '(all)', same: it.same, items: 0, labelled: 0, draws: 0, differing: 0 };
    g.items += 1;
    g.draws += draws.get(it.id) ?? 0;
    const l = labelled.get(it.id);
    if (l) {
      g.labelled += 1;
      if (l.candidate !== l.baseline) g.differing += 1;
    }
    groups.set(key, g);
  }
  const where = [...groups.values()].sort((a, b) => (a.stratum < b.stratum ? -1 : a.stratum > b.stratum ? 1 : Number(a.same) - Number(b.same)));
  const auditBreaks = where.filter((g) => g.same).reduce((s, g) => s + g.differing, 0);
  const verdictText =
    last === null
      ? 'No labels are recorded yet.'
      : last.verdict === 'continue'
        ? `The session is still running after ${last.labelsUsed} of ${o.budget} labels: ${last.reason}.`
        : `The session ended ${last.verdict.toUpperCase()} after ${last.labelsUsed} of ${o.budget} labels: ${last.reason}.`;
  const section: ReportSection = {
    id: 'label',
    title: 'Labelling until decided',
    paragraphs: [
      `${difference} on the ${h.items.length} items of ${h.pool.path} (${h.items.filter((x) => x.same).length} with the same output), margin ${formatNumber(o.margin)}, budget ${o.budget} labels, seed ${o.seed}${h.judge ? `, judge ${h.judge.source}` : ''}. ${verdictText}`,
      `The band is a ${formatPercent(level, 0)} anytime-valid confidence sequence (docs/label-method.md): valid at every batch at once, so stopping at the first batch that settles the question keeps the error rate. Items are drawn where the outputs differ, most where the judge is least sure, with a small audit of agreeing items.`,
      auditBreaks > 0 ? `${auditBreaks} audited item(s) with the same output from both models got different human scores: "same output, same score" does not hold exactly here.` : 'No audited item with the same output got different human scores.',
    ],
    ...(session.history.length > 0
      ? {
          figure: {
            spec: labelSequenceSpec({ points: session.history.map((r) => ({ labelsUsed: r.status.labelsUsed, estimate: r.status.estimate, lower: r.status.confidenceInterval[0], upper: r.status.confidenceInterval[1] })), margin: o.margin, confidenceLevel: level, difference }),
            caption: `The ${formatPercent(level, 0)} sequence after each batch, against the labels used; the dashed line is −margin.`,
          },
        }
      : {}),
    tables: [
      {
        caption: 'The sequence after each batch',
        header: ['batch', 'labels', 'draws', 'estimate', `${formatPercent(level, 0)} sequence`, 'verdict'],
        rows: session.history.map((r) => [String(r.batch), String(r.status.labelsUsed), String(r.status.draws), formatNumber(r.status.estimate ?? NaN), formatInterval([r.status.confidenceInterval[0] ?? -Infinity, r.status.confidenceInterval[1] ?? Infinity]), r.status.verdict]),
      },
      {
        caption: 'Where the labels went (draws count every pick, labels each item once; human differs: labelled items whose two scores differ)',
        header: ['stratum', 'outputs', 'items', 'labelled', 'share labelled', 'draws', 'human differs'],
        rows: where.map((g) => [g.stratum, g.same ? 'same' : 'differ', String(g.items), String(g.labelled), formatPercent(g.labelled / g.items, 0), String(g.draws), String(g.differing)]),
      },
    ],
    settings: [
      ['session log', `${log.path} (${log.lines.length} lines, replayed)`],
      ['confidence level', String(level)],
      ['margin', String(o.margin)],
      ['budget', String(o.budget)],
      ['seed', String(o.seed)],
      ['batch size', String(o.batchSize)],
    ],
    warnings: last?.warnings ?? [],
  };
  return { section };
}
