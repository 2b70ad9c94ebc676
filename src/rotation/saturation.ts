import { InputError } from '../data/errors.js';
import { itemMeans } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';
import { daysToIsoDate, isIsoDate, isoDateToDays } from '../data/dates.js';
import { compareIds } from './hash.js';

export interface SaturationOptions {
  /**
   * A model passes an item when its (repeat-averaged) score is at least this. Default 1 (0/1 or
   * [0, 1] scores; use e.g. 90 for points: with the default, a score above 1 draws a warning).
   */
  pass?: number;
  /** Warn for a stratum whose saturated share is above this, in [0, 1]. Default 0.8. */
  warnAbove?: number;
  /** The candidates that count; default every model in the scores. */
  models?: readonly string[];
}

export interface StratumSaturation {
  stratum: string;
  /** Eval items of the version in this stratum. */
  items: number;
  /** Of those, items every candidate scored. */
  scored: number;
  /** Of those, items every candidate passes. */
  saturated: number;
  /** saturated / scored (NaN when nothing was scored). */
  share: number;
  /** share > warnAbove. */
  warning: boolean;
}

export interface SaturationResult {
  pass: number;
  /** True when `pass` was not given and the default 1 was used. */
  passIsDefault: boolean;
  /** The largest score the counted candidates have in the table (before averaging repeats). */
  maxScore: number;
  warnAbove: number;
  models: string[];
  strata: StratumSaturation[];
  overall: { items: number; scored: number; saturated: number; share: number; warning: boolean };
  /** The saturated eval items, sorted by id: the first a rotation retires. */
  saturatedItems: string[];
  /** Eval items some candidate did not score (left out of the shares). */
  unscoredItems: string[];
  warnings: string[];
}

/**
 * Saturation of a benchmark version: per stratum, the share of eval items that every candidate
 * passes. Such an item adds the same amount to every candidate's total and nothing to any
 * difference between them, so a stratum that is mostly saturated has stopped separating the
 * candidates (the seed chapter: a set saturates "when the candidates improve until nearly every
 * item contributes the same amount to every total and drops out of every difference").
 *
 *   share_s = #{i in stratum s, scored by all : min over models of score(m, i) ≥ pass} / #{i in s scored by all}
 *
 * Repeats of an item are averaged first. Scores for items not in `items` are ignored (a warning
 * says how many). With the default pass threshold (1), any score above 1 draws a warning: such
 * scores are likely points, on which nearly every item would count as saturated.
 * Cost O(rows + models × items).
 * @param items the version's eval items with their strata (dev items are ignored if given).
 * @param table the candidates' scores on this version.
 * @throws {InputError} when a named model is not in the scores, or no eval item was scored.
 * @example measureSaturation(record.items, loadScores('examples/rotation/scores-2026Q3.csv')).strata[0]
 * // => { stratum: 'routine', items: 20, scored: 20, saturated: 20, share: 1, warning: true } (the bundled 2026Q3)
 */
export function measureSaturation(items: ReadonlyArray<{ item: string; stratum: string; split?: 'dev' | 'eval' }>, table: ScoresTable, options: SaturationOptions = {}): SaturationResult {
  const passIsDefault = options.pass === undefined;
  const pass = options.pass ?? 1;
  const warnAbove = options.warnAbove ?? 0.8;
  if (!Number.isFinite(pass)) throw new RangeError(`pass threshold must be a finite number (got ${pass})`);
  if (!(warnAbove >= 0 && warnAbove <= 1)) throw new RangeError(`saturation warning threshold must be in [0, 1] (got ${warnAbove})`);
  const models = options.models ? [...options.models] : [...table.models];
  const modelIndex = models.map((name) => {
    const m = table.models.indexOf(name);
    if (m < 0) throw new InputError(`model "${name}" is not in the scores (models: ${table.models.join(', ')})`, { file: table.source });
    return m;
  });
  const means = itemMeans(table);
  const counted = new Set(modelIndex);
  let maxScore = -Infinity;
  for (let r = 0; r < table.rowCount; r++) if (counted.has(table.model[r]) && table.score[r] > maxScore) maxScore = table.score[r];
  const nTableItems = table.items.length;
  const tableIndex = new Map(table.items.map((id, i) => [id, i]));
  const evalItems = items.filter((x) => x.split === undefined || x.split === 'eval');
  const known = new Set(evalItems.map((x) => x.item));
  const perStratum = new Map<string, StratumSaturation>();
  const saturatedItems: string[] = [];
  const unscoredItems: string[] = [];
  for (const x of evalItems) {
    let s = perStratum.get(x.stratum);
    if (!s) perStratum.set(x.stratum, (s = { stratum: x.stratum, items: 0, scored: 0, saturated: 0, share: NaN, warning: false }));
    s.items += 1;
    const i = tableIndex.get(x.item);
    let scoredByAll = i !== undefined;
    let passedByAll = true;
    if (i !== undefined) {
      for (const m of modelIndex) {
        const cell = m * nTableItems + i;
        if (means.count[cell] === 0) {
          scoredByAll = false;
          break;
        }
        if (!(means.mean[cell] >= pass)) passedByAll = false;
      }
    }
    if (!scoredByAll) {
      unscoredItems.push(x.item);
      continue;
    }
    s.scored += 1;
    if (passedByAll) {
      s.saturated += 1;
      saturatedItems.push(x.item);
    }
  }
  const strata = [...perStratum.values()];
  const warnings: string[] = [];
  if (passIsDefault && maxScore > 1) {
    // A points scale (0–100) with the default threshold 1 would call nearly every item passed.
    warnings.push(`scores go up to ${maxScore}, but the pass threshold is the default 1 (meant for 0/1 or [0, 1] scores): on a points scale nearly every item counts as passed and saturated; give the threshold (--pass, e.g. 90 for points)`);
  }
  for (const s of strata) {
    s.share = s.scored > 0 ? s.saturated / s.scored : NaN;
    s.warning = s.share > warnAbove;
    if (s.warning) warnings.push(`stratum "${s.stratum}" is saturated: every candidate passes ${s.saturated} of ${s.scored} items (${(100 * s.share).toFixed(1)}% > ${(100 * warnAbove).toFixed(0)}%)`);
  }
  const scored = strata.reduce((t, s) => t + s.scored, 0);
  if (scored === 0) throw new InputError(`no eval item of the version is scored by every candidate (${models.join(', ')})`, { file: table.source });
  const saturated = strata.reduce((t, s) => t + s.saturated, 0);
  const share = saturated / scored;
  if (unscoredItems.length > 0) warnings.push(`${unscoredItems.length} eval item${unscoredItems.length === 1 ? ' is' : 's are'} not scored by every candidate and left out`);
  const foreign = table.items.filter((id) => !known.has(id)).length;
  if (foreign > 0) warnings.push(`scores for ${foreign} item${foreign === 1 ? '' : 's'} not among the version's eval items were ignored`);
  return {
    pass,
    passIsDefault,
    maxScore,
    warnAbove,
    models,
    strata,
    overall: { items: evalItems.length, scored, saturated, share, warning: share > warnAbove },
    saturatedItems: saturatedItems.sort(compareIds),
    unscoredItems: unscoredItems.sort(compareIds),
    warnings,
  };
}

/** One version's saturation at the date it was frozen. */
export interface SaturationPoint {
  version: string;
  /** `YYYY-MM-DD`. */
  date: string;
  saturation: SaturationResult;
}

/** A least-squares line through (date, saturated share) and where it meets the threshold. */
export interface SaturationTrendLine {
  /** The stratum, or null for the whole eval split. */
  stratum: string | null;
  /** Versions with a finite share. */
  points: number;
  /** Change in the saturated share per 365.25 days (NaN with fewer than two dates). */
  slopePerYear: number;
  /** The latest version's share. */
  latest: number;
  /**
   * `saturated`: the latest share is already at or above the threshold; `rising`: the line
   * reaches it on `saturatesOn`; `not-rising`: flat or falling; `too-few`: fewer than two dates.
   */
  status: 'saturated' | 'rising' | 'not-rising' | 'too-few';
  /** The day the fitted line reaches the threshold (`YYYY-MM-DD`), when rising; else null. */
  saturatesOn: string | null;
}

export interface SaturationTrend {
  threshold: number;
  versions: Array<{ version: string; date: string; share: number }>;
  overall: SaturationTrendLine;
  strata: SaturationTrendLine[];
}

/**
 * When does the set saturate at the current rate? Fits an ordinary least-squares line through
 * each version's (date, saturated share), overall and per stratum, and solves for the day the
 * line reaches the threshold:
 *
 *   slope b = Σ(t − t̄)(y − ȳ) / Σ(t − t̄)²,  t* = t̄ + (threshold − ȳ) / b   (t in days)
 *
 * A straight line is the simplest honest extrapolation from a handful of quarters; it says
 * "at the current rate", nothing more. Cf. R `lm(share ~ days)`.
 * @param points one per version, any order (sorted by date, then version).
 * @param options.threshold the share that counts as saturated, in (0, 1]; default the first
 *   point's warnAbove.
 * @throws {RangeError} for a bad date or threshold.
 * @example saturationTrend([{ version: 'a', date: '2026-01-01', saturation: share50 }, { version: 'b', date: '2026-04-11', saturation: share60 }]).overall.saturatesOn
 * // => "2026-10-28" (+0.1 per 100 days reaches 0.8 two hundred days later)
 */
export function saturationTrend(points: readonly SaturationPoint[], options: { threshold?: number } = {}): SaturationTrend {
  if (points.length === 0) throw new RangeError('saturationTrend needs at least one version (got 0)');
  const threshold = options.threshold ?? points[0].saturation.warnAbove;
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`saturation threshold must be in (0, 1] (got ${threshold})`);
  for (const p of points) if (!isIsoDate(p.date)) throw new RangeError(`version ${p.version}: date must be YYYY-MM-DD (got "${p.date}")`);
  const sorted = [...points].sort((a, b) => compareIds(a.date, b.date) || compareIds(a.version, b.version));
  const strataNames: string[] = [];
  for (const p of sorted) for (const s of p.saturation.strata) if (!strataNames.includes(s.stratum)) strataNames.push(s.stratum);
  const line = (stratum: string | null, share: (p: SaturationPoint) => number): SaturationTrendLine => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const p of sorted) {
      const y = share(p);
      if (Number.isFinite(y)) {
        xs.push(isoDateToDays(p.date));
        ys.push(y);
      }
    }
    return trendLine(stratum, xs, ys, threshold);
  };
  return {
    threshold,
    versions: sorted.map((p) => ({ version: p.version, date: p.date, share: p.saturation.overall.share })),
    overall: line(null, (p) => p.saturation.overall.share),
    strata: strataNames.map((name) => line(name, (p) => p.saturation.strata.find((s) => s.stratum === name)?.share ?? NaN)),
  };
}

function trendLine(stratum: string | null, xs: number[], ys: number[], threshold: number): SaturationTrendLine {
  const n = xs.length;
  const latest = n > 0 ? ys[n - 1] : NaN;
  const base = { stratum, points: n, latest };
  const xBar = xs.reduce((t, x) => t + x, 0) / n;
  const yBar = ys.reduce((t, y) => t + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let k = 0; k < n; k++) {
    sxx += (xs[k] - xBar) ** 2;
    sxy += (xs[k] - xBar) * (ys[k] - yBar);
  }
  const slope = n >= 2 && sxx > 0 ? sxy / sxx : NaN;
  const slopePerYear = slope * 365.25;
  if (latest >= threshold) return { ...base, slopePerYear, status: 'saturated', saturatesOn: null };
  if (!Number.isFinite(slope)) return { ...base, slopePerYear, status: 'too-few', saturatesOn: null };
  if (slope <= 0) return { ...base, slopePerYear, status: 'not-rising', saturatesOn: null };
  const day = xBar + (threshold - yBar) / slope;
  return { ...base, slopePerYear, status: 'rising', saturatesOn: daysToIsoDate(Math.ceil(day)) };
}
