import { mcnemarFromCounts } from '../paired/mcnemar.js';
import { normalMean, type JudgeMean } from './judge-agreement.js';

/** One anchor row whose judge score changed between the runs. */
export interface FlippedRow {
  item: string;
  model: string;
  before: number;
  after: number;
}

/** The change of a judge between two runs on the same anchor rows. */
export interface JudgeDrift {
  /** Anchor rows (judged in both runs). */
  n: number;
  /** Mean of after − before (the paired change in the judge's rate), normal interval. */
  change: JudgeMean;
  /** Per candidate. */
  byCandidate: Array<{ model: string; n: number; change: JudgeMean }>;
  /** 0/1 judge: rows that went 0 → 1 and 1 → 0, and McNemar's exact p-value for "no change". */
  up: number | null;
  down: number | null;
  pValue: number | null;
  /** Rows whose score changed, in input order. */
  flipped: FlippedRow[];
  warnings: string[];
}

/**
 * Drift of a judge on anchor rows judged in two runs (before and after a judge update): the
 * paired change mean(after − before) with the normal interval mean ± z·sd/√n, per candidate too,
 * and the rows that changed. For a 0/1 judge, the counts that flipped each way and McNemar's
 * exact test ({@link mcnemarFromCounts}: binomial on the discordant rows).
 * Reference: R `t.test(after, before, paired = TRUE)` (the mean; normal instead of t quantile),
 * `binom.test(up, up + down)`.
 * @example judgeDrift([{ item: 'x', model: 'a', before: 0, after: 1 }, { item: 'y', model: 'a', before: 1, after: 1 }], { binary: true }).up // => 1
 */
export function judgeDrift(rows: ReadonlyArray<{ item: string; model: string; before: number; after: number }>, options: { binary: boolean; confidenceLevel?: number }): JudgeDrift {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const warnings: string[] = [];
  const change = normalMean(rows.map((r) => r.after - r.before), confidenceLevel);
  const models = [...new Set(rows.map((r) => r.model))];
  const byCandidate = models.map((model) => {
    const mine = rows.filter((r) => r.model === model);
    return { model, n: mine.length, change: normalMean(mine.map((r) => r.after - r.before), confidenceLevel) };
  });
  const flipped = rows.filter((r) => r.after !== r.before).map((r) => ({ item: r.item, model: r.model, before: r.before, after: r.after }));
  let up: number | null = null;
  let down: number | null = null;
  let pValue: number | null = null;
  if (options.binary) {
    up = flipped.filter((r) => r.after > r.before).length;
    down = flipped.length - up;
    pValue = mcnemarFromCounts(up, down).exactPValue;
  }
  if (rows.length < 2) warnings.push(`only ${rows.length} anchor row${rows.length === 1 ? '' : 's'} judged in both runs: the change has no interval`);
  else if (flipped.length === 0) warnings.push('no anchor row changed between the runs: the interval [0, 0] says nothing about drift on other items');
  return { n: rows.length, change, byCandidate, up, down, pValue, flipped, warnings };
}
