import { canonicalJson } from '../data/canonical-json.js';
import { InputError } from '../data/errors.js';
import { OUTCOME_KINDS } from '../data/outcomes.js';
import type { ScoresTable } from '../data/scores.js';
import { createRng, shuffle } from '../random/xoshiro.js';
import type { Seed } from '../random/seed.js';
import { compareIds, sha256Hex } from '../rotation/hash.js';

/** What a reviewer needs to know about one item besides the outputs: its text and gold label. */
export interface ReviewItemInfo {
  text?: string;
  label?: string;
}

/** Settings of a review sample. */
export interface ReviewSampleOptions {
  /** The finalists whose outputs are shown side by side (ShortlistResult.finalists). */
  finalists: readonly string[];
  /** The strata to review, in this order (defaultReviewStrata gives the usual ones). */
  strata: readonly string[];
  /** Items drawn per stratum (all of them when the stratum has fewer); default 10. */
  perStratum?: number;
  /** Seed; default 0. Stratum h draws from the stream `${seed}:review:${h}`. */
  seed?: Seed;
  /** Item text and gold label by item id (e.g. from the benchmark manifest). */
  items?: ReadonlyMap<string, ReviewItemInfo>;
  /** The reviewer the sample is drawn for, echoed on the page. */
  reviewer?: string;
  /** What each finalist answered on each item (model → item → text, e.g. loadOutputs): shown beside the scores. */
  outputs?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** One finalist's output on a sampled item: its score and outcome as the scores file has them. */
export interface ReviewOutput {
  model: string;
  /** Mean over repeats. */
  score: number;
  /** The outcome(s) of its rows, joined by `/` when repeats differ; null without an outcome column. */
  outcome: string | null;
  /** What it answered (its output text), null when the outputs have none for this item; absent when no outputs were given. */
  output?: string | null;
}

/** One sampled item. */
export interface ReviewItem {
  stratum: string;
  item: string;
  text: string | null;
  gold: string | null;
  outputs: ReviewOutput[];
}

/** The sample, with its digest and the settings that drew it. */
export interface ReviewSample {
  finalists: string[];
  strata: Array<{ stratum: string; available: number; drawn: number }>;
  perStratum: number;
  seed: string;
  reviewer: string | null;
  /** Sampled items: strata in the order given, items by id within a stratum. */
  items: ReviewItem[];
  /**
   * SHA-256 of the canonical JSON of { finalists, strata, perStratum, seed, items }: the same
   * sample (whatever file it is written to) has the same digest; a sign-off can name it.
   */
  digest: string;
  warnings: string[];
}

/** Words that mark a stratum as one a person must read: rare clauses and negative controls (seeds/004). */
export const REVIEW_STRATUM_PATTERN = /rare|negative/i;

/**
 * The strata a reviewer reads by default: those whose name contains `rare` or `negative`
 * (case-insensitive), in the order given — `rare_clause` and `negative_control` in the bundled
 * strata file. seeds/004: "a named person reads a sample of each finalist's outputs on the
 * rare-clause and negative-control strata".
 * @param names the strata file's stratum names.
 * @returns the matching names, in order (possibly empty).
 * @example defaultReviewStrata(['routine', 'rare_clause', 'past_failure', 'negative_control']) // => ['rare_clause', 'negative_control']
 */
export function defaultReviewStrata(names: readonly string[]): string[] {
  return names.filter((name) => REVIEW_STRATUM_PATTERN.test(name));
}

/**
 * Draws the review sample: in each stratum to review, `perStratum` items (without replacement,
 * uniformly: a Fisher–Yates shuffle of the stratum's items sorted by id, seeded by the stream
 * `${seed}:review:${stratum}`, so adding a stratum does not change another's draw), among the
 * items every finalist scored; each with every finalist's score and outcome (and its output
 * text when `outputs` has it), and the item's text and gold label when `items` has them.
 * @param table a scores table with a stratum column and every finalist.
 * @returns the items, per-stratum counts, the digest and the settings.
 * @throws {InputError} for a finalist not in the table, a stratum to review not in it, a table
 *   without a stratum column. {RangeError} for perStratum not a whole number ≥ 1.
 * @example reviewSample(loadScores('examples/rotation/scores-2026Q3.csv'), { finalists: ['alpha', 'beta'], strata: ['rare_clause'], perStratum: 3 }).items.length // => 3
 */
export function reviewSample(table: ScoresTable, options: ReviewSampleOptions): ReviewSample {
  const perStratum = options.perStratum ?? 10;
  if (!Number.isInteger(perStratum) || perStratum < 1) throw new RangeError(`perStratum must be a whole number ≥ 1 (got ${String(perStratum)})`);
  const seed = String(options.seed ?? 0);
  if (!table.hasStratum) throw new InputError('has no stratum column: the review sample is drawn per stratum', { file: table.source });
  if (options.finalists.length === 0) throw new InputError('name at least one finalist to review', { file: table.source });
  const modelIndex = options.finalists.map((m) => {
    const k = table.models.indexOf(m);
    if (k < 0) throw new InputError(`finalist "${m}" is not in the scores (models: ${table.models.join(', ')})`, { file: table.source, value: m });
    return k;
  });
  for (const s of options.strata) if (!table.strata.includes(s)) throw new InputError(`stratum "${s}" is not in the scores (strata: ${table.strata.join(', ')})`, { file: table.source, value: s });
  // Per (finalist, item): score sum, rows, outcomes seen.
  const nItems = table.items.length;
  const sums = new Float64Array(modelIndex.length * nItems);
  const rows = new Int32Array(modelIndex.length * nItems);
  const outcomes = new Map<number, string[]>();
  const position = new Map(modelIndex.map((m, k) => [m, k]));
  for (let r = 0; r < table.rowCount; r++) {
    const k = position.get(table.model[r]);
    if (k === undefined) continue;
    const cell = k * nItems + table.item[r];
    sums[cell] += table.score[r];
    rows[cell] += 1;
    if (table.outcome[r] >= 0) {
      const list = outcomes.get(cell) ?? [];
      const kind = OUTCOME_KINDS[table.outcome[r]];
      if (!list.includes(kind)) list.push(kind);
      outcomes.set(cell, list);
    }
  }
  const warnings: string[] = [];
  const strata: ReviewSample['strata'] = [];
  const items: ReviewItem[] = [];
  for (const stratum of options.strata) {
    const h = table.strata.indexOf(stratum);
    const pool: number[] = [];
    for (let i = 0; i < nItems; i++) if (table.itemStratum[i] === h && modelIndex.every((_, k) => rows[k * nItems + i] > 0)) pool.push(i);
    pool.sort((a, b) => compareIds(table.items[a], table.items[b]));
    const drawn = shuffle([...pool], createRng(seed, 'review', stratum)).slice(0, perStratum);
    drawn.sort((a, b) => compareIds(table.items[a], table.items[b]));
    strata.push({ stratum, available: pool.length, drawn: drawn.length });
    if (drawn.length < perStratum) warnings.push(`stratum "${stratum}" has only ${pool.length} item${pool.length === 1 ? '' : 's'} every finalist scored: all of them are in the sample`);
    for (const i of drawn) {
      const info = options.items?.get(table.items[i]);
      items.push({
        stratum,
        item: table.items[i],
        text: info?.text ?? null,
        gold: info?.label ?? null,
        outputs: options.finalists.map((model, k) => ({
          model,
          score: sums[k * nItems + i] / rows[k * nItems + i],
          outcome: outcomes.get(k * nItems + i)?.join('/') ?? null,
          // Only with outputs given, so a sample without them keeps the digest it always had.
          ...(options.outputs === undefined ? {} : { output: options.outputs.get(model)?.get(table.items[i]) ?? null }),
        })),
      });
    }
  }
  if (options.items !== undefined) {
    const missing = items.filter((x) => x.text === null && x.gold === null).length;
    if (missing > 0) warnings.push(`${missing} sampled item${missing === 1 ? ' is' : 's are'} not in the manifest: no text or gold label shown for ${missing === 1 ? 'it' : 'them'}`);
  }
  if (options.outputs !== undefined) {
    const missing = items.reduce((t, x) => t + x.outputs.filter((o) => o.output === null).length, 0);
    if (missing > 0) warnings.push(`${missing} of ${items.length * options.finalists.length} finalist outputs on the sampled items are not in the outputs: shown as "no output"`);
  }
  const finalists = [...options.finalists];
  const digest = sha256Hex(canonicalJson({ finalists, strata, perStratum, seed, items }));
  if (options.reviewer !== undefined && /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\ufeff]/u.test(options.reviewer)) {
    throw new InputError('must be a plain name on one line: no newline, control character (ANSI escape), zero-width or direction character', { file: '--reviewer', value: options.reviewer });
  }
  return { finalists, strata, perStratum, seed, reviewer: options.reviewer ?? null, items, digest, warnings };
}
