import type { DesignFile } from '../data/design-file.js';
import { InputError } from '../data/errors.js';
import type { Strata } from '../data/strata-file.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { designHeadline, type DesignHeadlineResult } from '../selection/index.js';
import { readDesignLabels } from '../data/design-labels.js';
import { auditLine } from '../report/design-audit.js';
import { emit, warningLines, type Context } from './io.js';

/** `benchplan headline LIST --design FILE --strata FILE --json`. */
export interface HeadlineDesignReport extends DesignHeadlineResult {
  scores: string;
  design: string;
  strata: string;
  pool: string;
  method: DesignFile['method'];
  sampling: DesignFile['sampling'];
  chosenUnlabelled: number;
}

/** Flags of headline that the design estimator does not take (they set up the bootstrap and the per-stratum intervals of a plain set). */
const ALLOWED = new Set(['strata', 'design', 'confidence', 'json', 'format']);

/**
 * headline --design: the traffic-weighted headline of both candidates and of A − B over the whole
 * pool, from the labelled list `select` wrote and its design file.
 */
export function headlineWithDesign(
  ctx: Context,
  inputs: readonly string[],
  strata: Strata,
  confidenceLevel: number,
  command: { options: readonly { long?: string; attributeName: () => string }[]; getOptionValueSource: (key: string) => string | undefined },
): void {
  if (inputs.length !== 1) throw new InputError(`--design reads one labelled list (the one select wrote), got ${inputs.length} inputs`, { file: '--design', value: inputs.join(' ') });
  for (const o of command.options) {
    const key = o.attributeName();
    if (!ALLOWED.has(key) && command.getOptionValueSource(key) === 'cli') throw new InputError('--design estimates analytically from the design file (normal intervals); this option does not apply', { file: o.long ?? key });
  }
  if (ctx.markdown) throw new InputError('headline --design has no Markdown output yet', { file: '--format', value: 'markdown' });
  const scoresPath = inputs[0];
  const designPath = (command as unknown as { opts: () => { design: string } }).opts().design;
  const { design, scores, chosenUnlabelled, warnings } = readDesignLabels(scoresPath, designPath);
  const poolStrata = new Set(design.rows.map((r) => r.stratum));
  if (poolStrata.size === 1 && poolStrata.has('')) throw new InputError('the design has no strata (the pool had no stratum column), so there is nothing to reweight; use compare --design', { file: designPath });
  const names = new Set(strata.strata.map((s) => s.name));
  for (const s of poolStrata) {
    if (!names.has(s)) throw new InputError(`stratum "${s}" is in the pool but not in ${strata.source}: add it with a traffic share (or fix the name)`, { file: strata.source, value: s });
  }
  for (const s of strata.strata) {
    if ((s.traffic ?? 0) > 0 && !poolStrata.has(s.name)) {
      throw new InputError(`stratum "${s.name}" has traffic ${s.traffic} but no item in the pool ${design.pool}, so the headline cannot cover it: give it traffic 0 or use a strata file for this pool`, {
        file: strata.source,
        line: s.line || undefined,
        field: `strata.${s.name}.traffic`,
        value: s.traffic,
      });
    }
  }
  const weights = strata.strata.filter((s) => poolStrata.has(s.name)).map((s) => ({ stratum: s.name, weight: s.traffic as number }));
  let r: DesignHeadlineResult;
  try {
    r = designHeadline(design, scores, { weights, confidenceLevel });
  } catch (error) {
    if (error instanceof RangeError) throw new InputError(error.message, { file: scoresPath });
    throw error;
  }
  const report: HeadlineDesignReport = {
    scores: scoresPath,
    design: designPath,
    strata: strata.source,
    pool: design.pool,
    method: design.method,
    sampling: design.sampling,
    chosenUnlabelled: chosenUnlabelled.length,
    ...r,
    warnings: [...warnings, ...r.warnings],
  };
  emit(ctx, report, () => formatHeadlineDesign(report));
}

function formatHeadlineDesign(r: HeadlineDesignReport): string {
  const level = formatPercent(r.confidenceLevel, 0).replace('.0%', '%');
  const cell = (e: { estimate: number; interval: [number, number] }) => `${formatNumber(e.estimate)} ${formatInterval(e.interval)}`;
  const out: string[] = [];
  out.push(`Traffic-weighted headline over all ${r.poolSize} items of the pool ${r.pool}, from ${r.labelled} labelled items (${r.method} design, ${r.estimator}); ${level} intervals`);
  const header = ['stratum', 'traffic', 'pool', 'labelled', r.a, r.b, `${r.a} − ${r.b}`];
  const rows = r.models[0].strata.map((s, h) => [s.stratum, formatPercent(s.weight), String(s.poolItems), String(s.labelled), cell(s), cell(r.models[1].strata[h]), cell(r.difference.strata[h])]);
  rows.push(['headline', formatPercent(r.weights.reduce((a, w) => a + w.weight, 0)), String(r.poolSize), String(r.labelled), cell(r.models[0].headline), cell(r.models[1].headline), cell(r.difference)]);
  out.push(formatTable(header, rows, { align: ['left', 'right', 'right', 'right', 'left', 'left', 'left'] }));
  out.push(
    `headline = Σ traffic × the stratum's pool mean, each estimated with the design's inclusion probabilities (${r.strata}); the intervals are about the items the pool stands for${r.nClusters !== null ? `, with the pool-level variance by cluster (${r.nClusters} clusters labelled)` : ''}. The difference's SE is ${formatNumber(r.difference.standardError)}; from the subsampling alone ${formatNumber(r.difference.poolStandardError)}.`,
  );
  if (r.method === 'disagreement') out.push('Each candidate\'s own headline rests on the few audited agreeing items, so it is wide; the difference is what the design measures.');
  out.push(auditLine(r.audit));
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
