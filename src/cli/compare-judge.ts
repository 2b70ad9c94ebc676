import { existsSync, statSync } from 'node:fs';
import { InputError } from '../data/errors.js';
import { loadPool } from '../data/pool.js';
import { loadScores, type ScoresTable } from '../data/scores.js';
import { loadStrata, type Strata } from '../data/strata-file.js';
import { judgedComparison, judgedItemsFromPool, NotRandomSubsetError, type JudgedItem, type JudgedComparisonResult } from '../judge/index.js';
import { compareJudgeReport, formatCompareJudge } from '../report/compare-judge.js';
import { emit, type Context } from './io.js';

/**
 * compare --judge: PPI++ on A − B from judge scores on every item plus human scores on a random
 * subset. JUDGE is a column of the scores file (human `score` empty where not labelled) or a
 * second scores file holding the judge's scores for every item.
 */
export function compareWithJudge(ctx: Context, scoresPath: string, judge: string, flags: { a?: string; b?: string; assumeRandom?: boolean; stratified?: boolean; strata?: string }, confidenceLevel: number): void {
  const strata = flags.strata !== undefined ? loadStrata(flags.strata) : undefined;
  if (strata !== undefined && !strata.hasTraffic) throw new InputError('--judge --strata needs a traffic share for every stratum', { file: strata.source, line: strata.strata[0].line || undefined });
  const isFile = existsSync(judge) && statSync(judge).isFile();
  const items: JudgedItem[] = [];
  let models: string[];
  if (isFile) {
    const human = loadScores(scoresPath);
    const judged = loadScores(judge);
    models = judged.models;
    const [a, b] = pickModels(models, flags, judge);
    const humanScores = perItem(human, a, b);
    const judgeScores = perItem(judged, a, b);
    const half = halfScored(human, a, b);
    if (half !== undefined) throw new InputError(`item "${half.item}" has a human score for ${half.has} only: label both candidates on every labelled item (or neither)`, { file: scoresPath, line: half.line, field: 'model', value: half.has });
    for (const item of humanScores.keys()) {
      if (!judgeScores.has(item)) throw new InputError(`item "${item}" has human scores but no judge score for both candidates in ${judge}`, { file: scoresPath, line: lineOf(human, item), field: 'item', value: item });
    }
    if (human.hasStratum && !judged.hasStratum) throw new InputError(`the human scores have a stratum column but the judge scores ${judge} do not: stratified PPI needs the stratum of every judged item, so put the column in the judge file`, { file: judge, line: 1, field: 'stratum' });
    for (const [item, h] of humanScores) {
      const j = judgeScores.get(item) as { stratum: string };
      if (human.hasStratum && h.stratum !== j.stratum) throw new InputError(`item "${item}" has stratum "${j.stratum}" in the judge scores ${judge} but another here`, { file: scoresPath, line: lineOf(human, item), field: 'stratum', value: h.stratum });
    }
    for (const [item, j] of judgeScores) {
      const h = humanScores.get(item);
      items.push({ item, stratum: j.stratum, judgeA: j.a, judgeB: j.b, ...(h ? { humanA: h.a, humanB: h.b } : {}) });
    }
    return finish(ctx, items, { scoresPath, judge, judgeSource: 'file', a, b, flags, confidenceLevel, strata });
  }
  if (/[\\/]|\.(csv|jsonl|ndjson)$/i.test(judge)) throw new InputError('is neither an existing file nor a column name', { file: '--judge', value: judge });
  const pool = loadPool(scoresPath, { judgeColumn: judge, requireJudge: true });
  models = pool.models;
  const [a, b] = pickModels(models, flags, scoresPath);
  items.push(...judgedItemsFromPool(pool, a, b));
  finish(ctx, items, { scoresPath, judge, judgeSource: 'column', a, b, flags, confidenceLevel, strata });
}

function pickModels(models: string[], flags: { a?: string; b?: string }, source: string): [string, string] {
  if (flags.a !== undefined && flags.b !== undefined) {
    for (const [flag, m] of [['--a', flags.a], ['--b', flags.b]]) if (!models.includes(m)) throw new InputError(`model is not in the judge scores (models: ${models.join(', ')})`, { file: flag, value: m });
    return [flags.a, flags.b];
  }
  if (models.length !== 2) throw new InputError(`has ${models.length} models: name the two to compare with --a and --b`, { file: source });
  return [models[0], models[1]];
}

/** The source line of an item's first row (for messages). */
function lineOf(table: ScoresTable, item: string): number | undefined {
  const k = table.items.indexOf(item);
  for (let r = 0; r < table.rowCount; r++) if (table.item[r] === k) return table.line[r] || undefined;
  return undefined;
}

/** The first item scored for exactly one of the two models, with that row's line. */
function halfScored(table: ScoresTable, a: string, b: string): { item: string; has: string; line: number | undefined } | undefined {
  const ma = table.models.indexOf(a);
  const mb = table.models.indexOf(b);
  const seen = new Map<number, { a: boolean; b: boolean; row: number }>();
  for (let r = 0; r < table.rowCount; r++) {
    const m = table.model[r];
    if (m !== ma && m !== mb) continue;
    const e = seen.get(table.item[r]) ?? { a: false, b: false, row: r };
    if (m === ma) e.a = true;
    else e.b = true;
    seen.set(table.item[r], e);
  }
  for (const [i, e] of seen) if (e.a !== e.b) return { item: table.items[i], has: e.a ? a : b, line: table.line[e.row] || undefined };
  return undefined;
}

/** Items with a score for both models: per item, A's and B's (repeats averaged) and the stratum. */
function perItem(table: ScoresTable, a: string, b: string): Map<string, { a: number; b: number; stratum: string }> {
  const ma = table.models.indexOf(a);
  const mb = table.models.indexOf(b);
  const sum = new Map<number, { a: number; na: number; b: number; nb: number }>();
  for (let r = 0; r < table.rowCount; r++) {
    const m = table.model[r];
    if (m !== ma && m !== mb) continue;
    const e = sum.get(table.item[r]) ?? { a: 0, na: 0, b: 0, nb: 0 };
    if (m === ma) {
      e.a += table.score[r];
      e.na += 1;
    } else {
      e.b += table.score[r];
      e.nb += 1;
    }
    sum.set(table.item[r], e);
  }
  const out = new Map<string, { a: number; b: number; stratum: string }>();
  for (const [i, e] of sum) {
    if (e.na === 0 || e.nb === 0) continue;
    const s = table.itemStratum[i];
    out.set(table.items[i], { a: e.a / e.na, b: e.b / e.nb, stratum: s >= 0 ? table.strata[s] : '' });
  }
  return out;
}

function finish(
  ctx: Context,
  items: JudgedItem[],
  o: { scoresPath: string; judge: string; judgeSource: 'column' | 'file'; a: string; b: string; flags: { assumeRandom?: boolean; stratified?: boolean }; confidenceLevel: number; strata?: Strata },
): void {
  let weights: Array<{ stratum: string; weight: number }> | undefined;
  if (o.strata !== undefined) {
    const strata = o.strata;
    const present = new Set(items.map((it) => it.stratum));
    if (present.size === 1 && present.has('')) throw new InputError('--strata reweights strata, but the scores have no stratum column', { file: o.scoresPath });
    const names = new Set(strata.strata.map((s) => s.name));
    for (const s of present) if (!names.has(s)) throw new InputError(`stratum "${s}" is in the scores but not in ${strata.source}: add it with a traffic share (or fix the name)`, { file: strata.source, value: s });
    for (const s of strata.strata) {
      if ((s.traffic ?? 0) > 0 && !present.has(s.name)) {
        throw new InputError(`stratum "${s.name}" has traffic ${s.traffic} but no judged item in ${o.scoresPath}, so the estimate cannot cover it: give it traffic 0 or use a strata file for these items`, { file: strata.source, line: s.line || undefined, field: `strata.${s.name}.traffic`, value: s.traffic });
      }
    }
    weights = strata.strata.filter((s) => present.has(s.name)).map((s) => ({ stratum: s.name, weight: s.traffic as number }));
  }
  let r: JudgedComparisonResult;
  try {
    r = judgedComparison(items, { confidenceLevel: o.confidenceLevel, assumeRandom: Boolean(o.flags.assumeRandom), ...(weights !== undefined ? { weights } : {}) });
  } catch (error) {
    if (error instanceof NotRandomSubsetError) throw new InputError(`${error.message}; if they were drawn at random, say so with --assume-random`, { file: o.scoresPath });
    if (error instanceof RangeError) throw new InputError(error.message, { file: o.scoresPath });
    throw error;
  }
  const report = compareJudgeReport(r, items, { scores: o.scoresPath, judge: o.judge, judgeSource: o.judgeSource, a: o.a, b: o.b, assumeRandom: Boolean(o.flags.assumeRandom), strataFile: o.strata?.source ?? null, confidenceLevel: o.confidenceLevel });
  emit(ctx, report, () => formatCompareJudge(report));
}
