import { existsSync, statSync } from 'node:fs';
import { InputError } from '../data/errors.js';
import { loadPool } from '../data/pool.js';
import { loadScores } from '../data/scores.js';
import { judgedItemsFromPool, judgeHumanCorrelation, type JudgedItem } from '../judge/index.js';
import { formatNumber, formatPercent, formatTable } from '../report/table.js';
import { designLabels, type DesignLabelsResult } from '../selection/index.js';
import type { PilotSizing } from '../sizing/index.js';
import { numberFlag, budgetFlag } from './io.js';

/** The options `size` passes through for the annotation designs. */
export interface SizeDesignFlags {
  agreeShare?: string;
  judge?: string;
  judgeCorrelation?: string;
  judgedItems?: string;
}

/** `size --json` gains `designs` when any design flag is given. */
export interface SizeDesigns {
  forWidth: DesignLabelsResult;
  forPower: DesignLabelsResult;
  /** Where the judge correlation came from: the pilot's judge scores, or --judge-correlation. */
  judgeCorrelationSource: 'pilot' | 'flag' | null;
}

/** The options lines `size` registers for the designs (kept here so size.ts changes by a few lines). */
export const SIZE_DESIGN_OPTIONS = [
  ['--agree-share <share>', 'share of items where the candidates\' outputs agree (benchplan select prints it): labels select needs'],
  ['--judge <column-or-file>', 'judge scores on the pilot (a column, or a scores file): their correlation with the humans sets the labels PPI++ needs'],
  ['--judge-correlation <r>', 'or assume this judge–human correlation of A − B'],
  ['--judged-items <n>', 'items the judge will score (default: many more than the labels)'],
] as const;

/**
 * The labels select and PPI++ need for size's two counts (interval width and power), from the
 * design flags; null when none is given.
 */
export function sizeDesigns(pilotPath: string, flags: SizeDesignFlags, result: PilotSizing): SizeDesigns | null {
  if (flags.agreeShare === undefined && flags.judge === undefined && flags.judgeCorrelation === undefined) return null;
  if (flags.judge !== undefined && flags.judgeCorrelation !== undefined) throw new InputError('give --judge (measure it on the pilot) or --judge-correlation (assume it), not both', { file: '--judge-correlation', value: flags.judgeCorrelation });
  const agreeShare = numberFlag('--agree-share', flags.agreeShare, { min: 0, below: 1 });
  const judgedItems = budgetFlag('--judged-items', flags.judgedItems, 2);
  let judgeCorrelation = numberFlag('--judge-correlation', flags.judgeCorrelation, { min: -1, max: 1 });
  let source: SizeDesigns['judgeCorrelationSource'] = judgeCorrelation === undefined ? null : 'flag';
  if (flags.judge !== undefined) {
    const items = pilotJudged(pilotPath, flags.judge, result.a, result.b);
    judgeCorrelation = judgeHumanCorrelation(items);
    if (!Number.isFinite(judgeCorrelation)) throw new InputError('the judge–human correlation is undefined on this pilot (a constant difference, or fewer than 2 items)', { file: flags.judge });
    source = 'pilot';
  }
  const options = { agreeShare, judgeCorrelation, judgedItems };
  return { forWidth: designLabels(result.n, options), forPower: designLabels(result.nForPower, options), judgeCorrelationSource: source };
}

/** The pilot's items with human scores (the pilot) and judge scores (a column of it, or another file). */
function pilotJudged(pilotPath: string, judge: string, a: string, b: string): JudgedItem[] {
  if (existsSync(judge) && statSync(judge).isFile()) {
    const human = loadScores(pilotPath);
    const judged = loadScores(judge);
    const mean = (t: typeof human, item: string, model: string) => {
      const i = t.items.indexOf(item);
      const m = t.models.indexOf(model);
      let s = 0;
      let k = 0;
      for (let r = 0; r < t.rowCount; r++) if (t.item[r] === i && t.model[r] === m) (s += t.score[r]), (k += 1);
      return k > 0 ? s / k : undefined;
    };
    const items: JudgedItem[] = [];
    for (const item of human.items) {
      const [ha, hb, ja, jb] = [mean(human, item, a), mean(human, item, b), mean(judged, item, a), mean(judged, item, b)];
      if (ha === undefined || hb === undefined) continue;
      if (ja === undefined || jb === undefined) throw new InputError(`pilot item "${item}" has no judge score for both ${a} and ${b}`, { file: judge });
      items.push({ item, stratum: '', judgeA: ja, judgeB: jb, humanA: ha, humanB: hb });
    }
    return items;
  }
  return judgedItemsFromPool(loadPool(pilotPath, { judgeColumn: judge, requireJudge: true }), a, b);
}

/** The designs block of size's readable output. */
export function formatSizeDesigns(d: SizeDesigns): string {
  const out: string[] = ['', 'Human labels each annotation design needs for the same interval and power:'];
  const rows: string[][] = [['plain paired (random items)', String(d.forWidth.plain), String(d.forPower.plain), '']];
  if (d.forWidth.select && d.forPower.select) {
    const s = d.forWidth.select;
    rows.push([`select (${formatPercent(s.agreeShare, 0)} agree, ${formatPercent(s.auditShare, 0)} audit)`, String(s.labels), String(d.forPower.select.labels), `from a pool of ${s.poolItems} / ${d.forPower.select.poolItems} unlabelled items`]);
  }
  if (d.forWidth.ppi && d.forPower.ppi) {
    const p = d.forWidth.ppi;
    const judged = Number.isFinite(p.judgedItems) ? `${p.judgedItems} judged items` : 'judge on many more items';
    rows.push([`PPI++ (judge corr. ${formatNumber(p.judgeCorrelation, 2)}${d.judgeCorrelationSource === 'pilot' ? ', from the pilot' : ''})`, String(p.labels), String(d.forPower.ppi.labels), judged]);
  }
  out.push(formatTable(['design', 'for the interval', 'for the power', 'needs'], rows, { align: ['left', 'right', 'right', 'left'] }));
  out.push('Large-sample planning counts (bench/efficiency.ts checks them by simulation); the active design is planned as select.');
  for (const w of [...new Set([...d.forWidth.warnings, ...d.forPower.warnings])]) out.push(`warning: ${w}`);
  return out.join('\n');
}
