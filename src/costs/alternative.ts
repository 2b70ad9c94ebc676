import { InputError } from '../data/errors.js';
import { OUTCOME_KINDS } from '../data/outcomes.js';
import type { ScoresTable } from '../data/scores.js';
import type { CostSweepResult } from './sweep.js';

/** How many of one model's outcomes the second scoring changed. */
export interface ChangedOutcomes {
  model: string;
  /** Rows (item, repeat) whose outcome differs between the two scorings. */
  changed: number;
  /** Rows of this model found in both scorings. */
  compared: number;
  /** The changes by kind, "from→to": count, most frequent first. */
  changes: Record<string, number>;
}

/** Does the ranking survive a second scoring of the same outputs? */
export interface ScoringComparison {
  /** The two scores files. */
  primary: string;
  alternative: string;
  /** The ranking at the policy's costs under each scoring. */
  ranking: string[];
  alternativeRanking: string[];
  /** The same order at the policy's costs. */
  rankingSurvives: boolean;
  /** The same model first at the policy's costs. */
  leaderSurvives: boolean;
  /** The same verdict (data / assumption). */
  verdictSurvives: boolean;
  /** The same sequence of rankings across the band. */
  bandRankingsSurvive: boolean;
  /** The rankings across the band under each scoring, in order of the swept cost. */
  bandRankings: string[][];
  alternativeBandRankings: string[][];
  /** Pairs whose crossing lies inside the band under either scoring: where it lies under each (NaN: no crossing). */
  crossingShifts: Array<{ models: [string, string]; value: number; alternativeValue: number }>;
  /** Per model: cost per document under each scoring, and the outcome changes. */
  models: Array<{ model: string; costPerDocument: number; alternativeCostPerDocument: number; changedOutcomes: ChangedOutcomes }>;
  /** Rows found in only one of the two scorings. */
  unmatchedRows: number;
  warnings: string[];
}

/** The distinct rankings over the band, in order of the swept cost. */
export function bandRankings(sweep: Pick<CostSweepResult, 'intervals'>): string[][] {
  const out: string[][] = [];
  for (const interval of sweep.intervals) {
    if (!interval.overlapsBand) continue;
    const last = out[out.length - 1];
    if (!last || last.join('\u0000') !== interval.ranking.join('\u0000')) out.push(interval.ranking);
  }
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/**
 * Other assumptions, same question: the same outputs scored twice (two judges, or the contested
 * labels of seeds/000 §3 flipped, §6's "if a number moves depending on who judged, say so") and
 * swept under the same policy. Reports whether the ranking at the policy's costs, the leader,
 * the verdict and the rankings across the band survive, and which outcomes the second scoring
 * changed, row by row, per model.
 * O(rows) time and memory.
 * @param primary the first scoring: its table and its sweep (`costSweep`).
 * @param alternative the second scoring of the same outputs, under the same policy.
 * @returns what survives, and the outcome changes per model.
 * @throws {InputError} when the two scorings do not have the same models, or either has no outcome column.
 * @example compareScorings({ table, sweep }, { table: table2, sweep: sweep2 }).rankingSurvives // => true when the second judge leaves the order alone
 */
export function compareScorings(
  primary: { table: ScoresTable; sweep: CostSweepResult },
  alternative: { table: ScoresTable; sweep: CostSweepResult },
): ScoringComparison {
  const a = primary.table;
  const b = alternative.table;
  const modelsA = [...primary.sweep.costs.map((c) => c.model)].sort();
  const modelsB = [...alternative.sweep.costs.map((c) => c.model)].sort();
  if (!sameList(modelsA, modelsB)) {
    throw new InputError(`the alternative scoring must score the same models as ${a.source} (${modelsA.join(', ')})`, { file: b.source, value: modelsB.join(',') });
  }
  if (!a.hasOutcome || !b.hasOutcome) throw new InputError('both scorings need an "outcome" column', { file: a.hasOutcome ? b.source : a.source });

  // Outcome of every (item, model, repeat) row of the primary scoring.
  const key = (table: ScoresTable, r: number) => `${table.items[table.item[r]]}\u0000${table.models[table.model[r]]}\u0000${table.repeat[r]}`;
  const primaryOutcome = new Map<string, number>();
  for (let r = 0; r < a.rowCount; r++) primaryOutcome.set(key(a, r), a.outcome[r]);
  const changed = new Map<string, ChangedOutcomes>(modelsA.map((model) => [model, { model, changed: 0, compared: 0, changes: {} }]));
  let matched = 0;
  for (let r = 0; r < b.rowCount; r++) {
    const before = primaryOutcome.get(key(b, r));
    if (before === undefined) continue;
    matched += 1;
    const entry = changed.get(b.models[b.model[r]]);
    if (!entry) continue;
    entry.compared += 1;
    if (before !== b.outcome[r]) {
      entry.changed += 1;
      const what = `${OUTCOME_KINDS[before]}→${OUTCOME_KINDS[b.outcome[r]]}`;
      entry.changes[what] = (entry.changes[what] ?? 0) + 1;
    }
  }
  for (const entry of changed.values()) {
    entry.changes = Object.fromEntries(Object.entries(entry.changes).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)));
  }
  const unmatchedRows = a.rowCount - matched + (b.rowCount - matched);

  const p = primary.sweep;
  const q = alternative.sweep;
  const warnings: string[] = [];
  if (unmatchedRows > 0) warnings.push(`${unmatchedRows} row${unmatchedRows === 1 ? '' : 's'} appear in only one of the two scorings: they are not the same outputs throughout`);
  if (p.owner !== q.owner || p.decided !== q.decided || p.policyValue !== q.policyValue || p.vary !== q.vary) {
    warnings.push('the two sweeps were run under different policies: compare them under one');
  }
  if (p.documents !== q.documents) warnings.push(`the two scorings have different numbers of documents (${p.documents} and ${q.documents})`);
  const bandA = bandRankings(p);
  const bandB = bandRankings(q);
  const alternativeCost = new Map(q.costs.map((c) => [c.model, c.costPerDocument]));
  const pairKey = (models: readonly string[]) => [...models].sort().join('\u0000');
  const alternativePair = new Map(q.pairs.map((pair) => [pairKey(pair.models), pair]));
  const crossingShifts: ScoringComparison['crossingShifts'] = [];
  for (const pair of p.pairs) {
    const other = alternativePair.get(pairKey(pair.models));
    if (!other || !(pair.inBand || other.inBand)) continue;
    // The alternative's value for the same orientation (a, b) is the same tie point whatever the order.
    crossingShifts.push({ models: pair.models, value: pair.value, alternativeValue: other.value });
  }
  return {
    primary: a.source,
    alternative: b.source,
    ranking: p.ranking,
    alternativeRanking: q.ranking,
    rankingSurvives: sameList(p.ranking, q.ranking),
    leaderSurvives: p.ranking[0] === q.ranking[0],
    verdictSurvives: p.verdict === q.verdict,
    bandRankingsSurvive: bandA.length === bandB.length && bandA.every((ranking, k) => sameList(ranking, bandB[k])),
    bandRankings: bandA,
    alternativeBandRankings: bandB,
    crossingShifts,
    models: p.costs.map((c) => ({
      model: c.model,
      costPerDocument: c.costPerDocument,
      alternativeCostPerDocument: alternativeCost.get(c.model) as number,
      changedOutcomes: changed.get(c.model) as ChangedOutcomes,
    })),
    unmatchedRows,
    warnings,
  };
}
