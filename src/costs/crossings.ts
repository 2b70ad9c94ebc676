import { decimalRational, divideRational, parseRational, rationalText, subtractRational, type Rational } from './rational.js';

/** A model's cost as a straight line in the swept cost x: cost(x) = intercept + slope · x. */
export interface CostLine {
  model: string;
  intercept: number;
  slope: number;
  /**
   * The same intercept and slope exactly, as "n" or "n/d" (totalCostLines sums count × cost in exact
   * rationals of the decimal costs). Without it, each number is read as the decimal it prints as.
   */
  exact?: { intercept: string; slope: string } | null;
}

/** How two lines meet. */
export interface PairCrossing {
  models: [string, string];
  /** `crossing`: one tie point; `parallel`: never tie; `identical`: tie everywhere. */
  relation: 'crossing' | 'parallel' | 'identical';
  /** The swept cost at which the two tie; NaN when they are parallel or identical. */
  value: number;
  /**
   * The value as an exact reduced fraction of the decimal inputs (e.g. "69/5"; "83/38" from costs like
   * 2.5); null when the lines do not cross.
   */
  fraction: string | null;
  /** The value lies in the domain the swept cost can take (default [0, ∞)). */
  inDomain: boolean;
  /** The value lies in the band, ends included (at an end the two tie). */
  inBand: boolean;
  /** The cheaper of the two for swept costs below the value (for parallel lines: everywhere; null when identical). */
  cheaperBelow: string | null;
  /** The cheaper of the two above the value. */
  cheaperAbove: string | null;
}

/** A crossing that changes the ranking: inside the domain. */
export interface Crossing {
  value: number;
  models: [string, string];
  fraction: string | null;
  cheaperBelow: string;
  cheaperAbove: string;
  inBand: boolean;
}

/** The ranking on one interval between consecutive crossings. */
export interface RankingInterval {
  /** Ends of the interval; `to` is Infinity for the last (JSON null). */
  from: number;
  to: number;
  /** Model names, lowest cost first. */
  ranking: string[];
  /** The interval contains the policy's value of the swept cost. */
  containsPolicy: boolean;
  /** The interval overlaps the band. */
  overlapsBand: boolean;
}

export interface LineCrossingsOptions {
  /** The band of the swept cost the owner would accept, [low, high] with low < high. */
  band: readonly [number, number];
  /** The policy's value of the swept cost (where the headline ranking is read). */
  at: number;
  /** The values the swept cost can take; default [0, ∞) (a cost is never negative). */
  domain?: readonly [number, number];
}

export interface LineCrossingsResult {
  band: [number, number];
  at: number;
  domain: [number, number];
  /** Every pair of lines, in input order (a before b), with where and whether they cross. */
  pairs: PairCrossing[];
  /** Crossings inside the domain, by value (then by pair): the only places the ranking changes. */
  crossings: Crossing[];
  /** Those inside the band, ends included. */
  crossingsInBand: Crossing[];
  /** The ranking on each interval between consecutive crossings, covering the domain. */
  intervals: RankingInterval[];
  /** Ranking at the policy's value, lowest cost first; lines that tie there keep input order. */
  ranking: string[];
  /** `data`: no crossing inside the band, so no accepted rate changes the ranking; `assumption`: one does. */
  verdict: 'data' | 'assumption';
  /** The stretch of the swept cost, around the policy's value, on which `ranking` holds. */
  rankingHolds: [number, number];
  /**
   * With verdict `data`: how far below the band's low end and above its high end the band's
   * ranking still holds (Infinity when it holds for ever); null with `assumption`.
   */
  holdsBeyondBand: [number, number] | null;
  /** The distinct leaders (lowest cost) over the band, in order of the swept cost. */
  leadersInBand: string[];
  warnings: string[];
}

function exactOf(line: CostLine, field: 'intercept' | 'slope'): Rational {
  return line.exact ? parseRational(line.exact[field]) : decimalRational(line[field]);
}

/** (intercept_b − intercept_a) / (slope_a − slope_b) in exact rationals, as text. */
function fractionText(a: CostLine, b: CostLine): string | null {
  const dSlope = subtractRational(exactOf(a, 'slope'), exactOf(b, 'slope'));
  if (dSlope.numerator === 0n) return null;
  return rationalText(divideRational(subtractRational(exactOf(b, 'intercept'), exactOf(a, 'intercept')), dSlope));
}

/**
 * Where two cost lines tie, exactly: intercept_a + slope_a·x = intercept_b + slope_b·x gives
 * x = (intercept_b − intercept_a) / (slope_a − slope_b), one division, no grid.
 * Below x the line with the larger slope is cheaper. `fraction` is x exactly, from the lines' exact
 * rationals (see CostLine.exact), so decimal costs give "83/38", not null or a float.
 * @example pairCrossing({ model: 'alpha', intercept: 55, slope: 6 }, { model: 'beta', intercept: 124, slope: 1 }, [4, 20], [0, Infinity]).value // => 13.8
 */
export function pairCrossing(a: CostLine, b: CostLine, band: readonly [number, number], domain: readonly [number, number] = [0, Infinity]): PairCrossing {
  const models: [string, string] = [a.model, b.model];
  const dSlope = a.slope - b.slope;
  const dIntercept = b.intercept - a.intercept;
  if (dSlope === 0) {
    const identical = dIntercept === 0;
    const cheaper = identical ? null : dIntercept > 0 ? a.model : b.model;
    return { models, relation: identical ? 'identical' : 'parallel', value: NaN, fraction: null, inDomain: false, inBand: false, cheaperBelow: cheaper, cheaperAbove: cheaper };
  }
  const value = dIntercept / dSlope;
  return {
    models,
    relation: 'crossing',
    value,
    fraction: fractionText(a, b),
    inDomain: value >= domain[0] && value <= domain[1],
    inBand: value >= band[0] && value <= band[1],
    cheaperBelow: dSlope > 0 ? a.model : b.model,
    cheaperAbove: dSlope > 0 ? b.model : a.model,
  };
}

/** −1 when a is cheaper than b on the side of the pair's crossing given, 0 on a tie. */
function order(pair: PairCrossing | undefined, a: string, side: 'below' | 'above' | 'tie'): number {
  if (!pair || pair.relation === 'identical' || side === 'tie') return 0;
  const cheaper = side === 'below' ? pair.cheaperBelow : pair.cheaperAbove;
  return cheaper === a ? -1 : 1;
}

/**
 * The sweep of one cost with the others fixed: every model's cost is a line in the swept
 * cost, so the ranking can change only where two lines cross. Computes every pairwise crossing
 * exactly, the ranking on each interval between crossings, and the verdict: no crossing inside
 * the band (ends included) → `data` (the data decides); one inside → `assumption` (the
 * exchange rate decides). Rankings are exact: each pair's order on an interval comes from which
 * side of its crossing the interval lies, never from comparing rounded costs.
 *
 * Reference: the seed chapter's "Scoring when the errors are not the same error" (sweep the
 * rate across the band the risk owner would accept; a winner that changes inside it means the
 * assumption decided).
 * O(m² log m) for m lines.
 * @param lines two or more lines with distinct model names and finite coefficients.
 * @param options band, the policy's value `at`, and the domain.
 * @returns pairs, crossings, intervals with their rankings, the verdict and how far the ranking holds.
 * @throws {TypeError} for an empty list or a repeated model; {RangeError} for non-finite coefficients or a bad band.
 * @example lineCrossings([{ model: 'alpha', intercept: 55, slope: 6 }, { model: 'beta', intercept: 124, slope: 1 }], { band: [4, 20], at: 8 }).verdict // => 'assumption'
 */
export function lineCrossings(lines: readonly CostLine[], options: LineCrossingsOptions): LineCrossingsResult {
  if (!Array.isArray(lines) || lines.length === 0) throw new TypeError('lineCrossings needs at least one line');
  const names = lines.map((line) => line.model);
  if (new Set(names).size !== names.length) throw new TypeError(`lineCrossings: model names must be distinct (got ${names.join(', ')})`);
  for (const line of lines) {
    if (!Number.isFinite(line.intercept) || !Number.isFinite(line.slope)) {
      throw new RangeError(`line of "${line.model}" must have a finite intercept and slope (got ${line.intercept}, ${line.slope})`);
    }
  }
  const domain: [number, number] = [options.domain?.[0] ?? 0, options.domain?.[1] ?? Infinity];
  const band: [number, number] = [options.band[0], options.band[1]];
  const at = options.at;
  if (!(domain[0] < domain[1]) || Number.isNaN(domain[0])) throw new RangeError(`domain must be [low, high] with low < high (got [${domain.join(', ')}])`);
  if (!(Number.isFinite(band[0]) && Number.isFinite(band[1]) && band[0] < band[1])) throw new RangeError(`band must be finite [low, high] with low < high (got [${band.join(', ')}])`);
  if (!Number.isFinite(at)) throw new RangeError(`the policy's value must be finite (got ${at})`);

  const pairs: PairCrossing[] = [];
  const pairOf = new Map<string, PairCrossing>();
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const pair = pairCrossing(lines[i], lines[j], band, domain);
      pairs.push(pair);
      pairOf.set(`${i}:${j}`, pair);
    }
  }
  const pairFor = (i: number, j: number) => (i < j ? pairOf.get(`${i}:${j}`) : pairOf.get(`${j}:${i}`));

  const crossings: Crossing[] = pairs
    .filter((pair) => pair.relation === 'crossing' && pair.inDomain)
    .map((pair) => ({
      value: pair.value,
      models: pair.models,
      fraction: pair.fraction,
      cheaperBelow: pair.cheaperBelow as string,
      cheaperAbove: pair.cheaperAbove as string,
      inBand: pair.inBand,
    }))
    .sort((x, y) => x.value - y.value);
  const crossingsInBand = crossings.filter((crossing) => crossing.inBand);

  // Ranking at a point, or on an open interval: each pair's side of its own crossing.
  const rankWith = (side: (pair: PairCrossing) => 'below' | 'above' | 'tie'): string[] => {
    const indices = lines.map((_, k) => k);
    indices.sort((i, j) => {
      const pair = pairFor(i, j);
      if (!pair) return 0;
      if (pair.relation !== 'crossing') return order(pair, names[i], 'below');
      return order(pair, names[i], side(pair));
    });
    return indices.map((k) => names[k]);
  };
  const rankOn = (from: number, to: number) => rankWith((pair) => (pair.value <= from ? 'above' : pair.value >= to ? 'below' : 'tie'));
  const rankAt = (x: number) => rankWith((pair) => (x < pair.value ? 'below' : x > pair.value ? 'above' : 'tie'));

  const breaks = [...new Set(crossings.map((c) => c.value).filter((v) => v > domain[0] && v < domain[1]))];
  const ends = [domain[0], ...breaks, domain[1]];
  const intervals: RankingInterval[] = [];
  for (let k = 0; k + 1 < ends.length; k++) {
    const from = ends[k];
    const to = ends[k + 1];
    intervals.push({
      from,
      to,
      ranking: rankOn(from, to),
      containsPolicy: at >= from && at <= to,
      overlapsBand: from <= band[1] && to >= band[0],
    });
  }

  const below = breaks.filter((v) => v < at);
  const above = breaks.filter((v) => v > at);
  const onCrossing = breaks.includes(at);
  const rankingHolds: [number, number] = onCrossing ? [at, at] : [below.length ? below[below.length - 1] : domain[0], above.length ? above[0] : domain[1]];

  const verdict = crossingsInBand.length === 0 ? 'data' : 'assumption';
  let holdsBeyondBand: [number, number] | null = null;
  if (verdict === 'data') {
    const lower = breaks.filter((v) => v < band[0]);
    const upper = breaks.filter((v) => v > band[1]);
    const from = lower.length ? lower[lower.length - 1] : domain[0];
    const to = upper.length ? upper[0] : domain[1];
    holdsBeyondBand = [band[0] - from, to - band[1]];
  }
  const leadersInBand: string[] = [];
  for (const interval of intervals) {
    if (!interval.overlapsBand) continue;
    const leader = interval.ranking[0];
    if (leadersInBand[leadersInBand.length - 1] !== leader) leadersInBand.push(leader);
  }

  const warnings: string[] = [];
  for (const pair of pairs) {
    if (pair.relation === 'identical') warnings.push(`${pair.models[0]} and ${pair.models[1]} cost the same at every value of the swept cost: their order in the ranking is arbitrary (input order)`);
  }
  if (at < band[0] || at > band[1]) warnings.push(`the policy's value ${at} is outside the band [${band[0]}, ${band[1]}]`);
  if (onCrossing) warnings.push(`the policy's value ${at} is exactly a crossing: the models that cross there tie`);
  if (band[0] < domain[0] || band[1] > domain[1]) warnings.push(`the band [${band[0]}, ${band[1]}] reaches outside the domain [${domain[0]}, ${domain[1]}]`);
  return { band, at, domain, pairs, crossings, crossingsInBand, intervals, ranking: rankAt(at), verdict, rankingHolds, holdsBeyondBand, leadersInBand, warnings };
}
