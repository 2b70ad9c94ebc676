import type { Strata } from '../data/strata-file.js';
import { InputError } from '../data/errors.js';
import { ceilCount } from './counts.js';
import { criticalZ, itemsForIntervalWidth } from './interval.js';
import { itemsForPower, type PowerAlternative } from './power.js';
import { stratifiedVariance } from './stratified.js';
import { summarizeDifferences, varianceInterval } from './variance.js';

/** Fewer pilot items than this in a stratum earns a warning. */
export const MIN_STRATUM_PILOT_ITEMS = 10;

/** Common settings of the sizing functions. */
export interface SizingSettings {
  mde: number;
  confidenceLevel?: number;
  power?: number;
  alternative?: PowerAlternative;
}

/** One stratum sized on its own: how many of ITS items a per-stratum conclusion needs. */
export interface StratumSizing {
  stratum: string;
  pilotItems: number;
  /** pilotItems / all pilot items. */
  pilotShare: number;
  meanDifference: number;
  /** The stratum's own sample variance of differences (ddof 1); NaN with < 2 items. */
  varianceOfDifference: number;
  /** Chi-square interval of that variance at confidenceLevel (NaN with < 2 items). */
  varianceInterval: [number, number];
  /** Items in this stratum for an interval of half-width mde/2 on the stratum's own score. */
  n: number;
  /** Items in this stratum for the paired t-test's power against mde. */
  nForPower: number;
  /** n at the upper end of the variance interval. */
  nUpper: number;
  warnings: string[];
}

/**
 * Sizes each stratum on its own variance: a stratum with a dozen items supports no per-stratum
 * conclusion, however large the whole set is ("Building a private benchmark": sizing applies per
 * stratum, not just overall). Each stratum's n is the interval-width and power count computed
 * from that stratum's pilot differences alone, treating its items as independent (a clustered
 * pilot's design effect is applied to the overall count only: within a stratum there are
 * usually too few clusters to estimate one).
 * @param differences per pilot item; stratum index per item into `names`.
 * @returns one entry per name, in order; a stratum with < 2 pilot items has NaN variance and
 *   counts, and every stratum with < 10 gets a warning naming its count and variance upper limit;
 *   a stratum whose differences have no spread gets NaN counts and a warning.
 * @throws {TypeError} when differences and stratum differ in length.
 * Cost: O(items + strata).
 */
export function sizePerStratum(
  differences: ArrayLike<number>,
  stratum: ArrayLike<number>,
  names: readonly string[],
  settings: SizingSettings,
): StratumSizing[] {
  if (stratum.length !== differences.length) throw new TypeError(`sizePerStratum: ${differences.length} differences but ${stratum.length} stratum labels`);
  const confidenceLevel = settings.confidenceLevel ?? 0.95;
  const members: number[][] = names.map(() => []);
  for (let i = 0; i < stratum.length; i++) members[stratum[i]]?.push(i);
  return names.map((name, h) => {
    const summary = summarizeDifferences(differences, members[h]);
    const warnings: string[] = [];
    const v = summary.variance;
    const interval: [number, number] = summary.count > 1 ? varianceInterval(v, summary.count - 1, confidenceLevel) : [NaN, NaN];
    const sized = (variance: number) =>
      Number.isFinite(variance)
        ? { n: itemsForIntervalWidth({ ...settings, varianceOfDifference: variance }).n, power: itemsForPower({ ...settings, varianceOfDifference: variance }).n }
        : { n: NaN, power: NaN };
    const flat = v === 0;
    const point = flat ? { n: NaN, power: NaN } : sized(v);
    const upper = flat ? { n: NaN, power: NaN } : sized(interval[1]);
    if (flat) {
      warnings.push(
        `stratum "${name}": the ${summary.count} pilot differences have no spread (the models differ by the same amount on every item), so the pilot cannot size it; counts are NaN`,
      );
    } else if (summary.count < 2) {
      warnings.push(`stratum "${name}" has ${summary.count} pilot item${summary.count === 1 ? '' : 's'}: no variance can be estimated, so it cannot be sized`);
    } else if (summary.count < MIN_STRATUM_PILOT_ITEMS) {
      warnings.push(
        `stratum "${name}" has only ${summary.count} pilot items (fewer than ${MIN_STRATUM_PILOT_ITEMS}): its variance ${fmt(v)} could be as large as ${fmt(interval[1])} ` +
          `(${Math.round(confidenceLevel * 100)}% upper limit), so its count ${point.n} could be ${upper.n}`,
      );
    }
    return {
      stratum: name,
      pilotItems: summary.count,
      pilotShare: summary.count / differences.length,
      meanDifference: summary.mean,
      varianceOfDifference: v,
      varianceInterval: interval,
      n: point.n,
      nForPower: point.power,
      nUpper: upper.n,
      warnings,
    };
  });
}

/** One stratum's line in a planned allocation. */
export interface PlanStratum {
  stratum: string;
  /** q_h: the stratum's share of the planned set. */
  quotaShare: number;
  /** q_h · budget (whole counts when the strata file gives counts); null without a budget. */
  plannedItems: number | null;
  /** t_h: share of production traffic; null when the file has none. */
  traffic: number | null;
  /** The stratum's share of the pilot. */
  pilotShare: number;
  /** s_h², from the pilot (NaN with < 2 pilot items). */
  varianceOfDifference: number;
}

/** What a planned allocation buys for one estimator (quota-weighted or traffic-reweighted). */
export interface PlanEstimator {
  /** 'quota': the plain mean over the enriched set (w_h = q_h); 'traffic': the reweighted headline (w_h = t_h). */
  weights: 'quota' | 'traffic';
  /** V with Var(estimator) = V / N at N items in the planned mix: Σ w_h² s_h² / q_h. */
  perItemVariance: number;
  /** Items the planned mix needs for an interval of half-width mde/2 on this estimator. */
  n: number;
  /** Items for the t-test's power (df taken as n − 1: an approximation for a stratified mean). */
  nForPower: number;
  /** At the budget: Σ w_h² s_h² / n_h (stratifiedVariance); null without a budget. */
  variance: number | null;
  standardError: number | null;
  /** 2z·SE: the gap the budget resolves with this estimator; null without a budget. */
  mdeAtBudget: number | null;
}

/** The variance a planned allocation buys, and how far the pilot's mix is from it. */
export interface PlanSizing {
  /** The strata file. */
  source: string;
  /** 'share' or 'count' as the file gives quotas; 'pilot' when it gives none (the pilot's own mix is used). */
  quotaKind: 'share' | 'count' | 'pilot';
  /** Total planned items: the budget, or the sum of count quotas; null when neither is known. */
  budget: number | null;
  strata: PlanStratum[];
  quotaWeighted: PlanEstimator;
  /** Null when the strata file gives no traffic shares. */
  trafficReweighted: PlanEstimator | null;
  /** Total variation distance ½ Σ |pilotShare − quotaShare| between the pilot's mix and the plan's. */
  pilotMixDistance: number;
  /** The blended pilot variance and the count it gives (what sizing without strata would say). */
  blendedVariance: number;
  blendedN: number;
  warnings: string[];
}

/** Mixes farther apart than this (total variation distance) earn the blended-variance warning. */
export const MIX_DISTANCE_WARNING = 0.01;

/**
 * What a planned allocation buys: the variance of the quota-weighted mean (the plain mean over
 * the enriched set) and of the traffic-reweighted headline, from each stratum's pilot variance.
 *
 * With quota shares q_h, N items, n_h = q_h·N and stratum weights w_h:
 *   Var = Σ w_h² s_h² / n_h = (Σ w_h² s_h² / q_h) / N   (stratifiedVariance),
 * so the items needed for a half-width of mde/2 are n = (Σ w_h² s_h² / q_h) · (2z/mde)².
 * For quota weights (w = q) that is Σ q_h s_h² · (2z/mde)²; for traffic weights it is
 * Σ t_h² s_h² / q_h · (2z/mde)², which grows when traffic-heavy strata get small quotas.
 *
 * One blended pilot variance sizes the set for the pilot's mix ("one assumption holds that whole
 * calculation up"): when the planned quotas differ from the pilot's stratum shares (total
 * variation distance > 0.01), a warning gives both counts.
 * Reference: Cochran (1977), Sampling Techniques, §5.3 and §5.5; "Building a private benchmark",
 * Sizing; R `survey::svymean` on `svydesign(ids = ~1, strata = ~stratum, weights = …)`.
 * @param perStratum from sizePerStratum on the same pilot (its variances and shares are used).
 * @param strata the strata file; every pilot stratum must be in it.
 * @param options.blendedVariance the pilot's overall variance of differences;
 *   options.budget the planned total (ignored with count quotas, which fix it).
 * @throws {InputError} naming the strata file when a pilot stratum is missing from it.
 */
export function sizeAllocationPlan(
  perStratum: readonly StratumSizing[],
  strata: Strata,
  options: SizingSettings & { blendedVariance: number; budget?: number },
): PlanSizing {
  const byName = new Map(strata.strata.map((s) => [s.name, s]));
  for (const s of perStratum) {
    if (s.pilotItems > 0 && !byName.has(s.stratum)) {
      throw new InputError(`stratum "${s.stratum}" of the pilot is not in the strata file (strata: ${strata.strata.map((x) => x.name).join(', ')})`, { file: strata.source });
    }
  }
  const pilot = new Map(perStratum.map((s) => [s.stratum, s]));
  const warnings: string[] = [];
  const quotaKind: PlanSizing['quotaKind'] = strata.quotaKind ?? 'pilot';
  const quotaTotal = strata.quotaKind === 'count' ? strata.strata.reduce((sum, s) => sum + (s.quota ?? 0), 0) : null;
  let budget: number | null = options.budget ?? null;
  if (quotaTotal !== null) {
    if (budget !== null && budget !== quotaTotal) {
      warnings.push(`the strata file's quotas are counts totalling ${quotaTotal}; the plan uses them, not the budget ${budget}`);
    }
    budget = quotaTotal;
  }
  const rows: PlanStratum[] = strata.strata.map((s) => {
    const p = pilot.get(s.name);
    const quotaShare = quotaKind === 'share' ? s.quota! : quotaKind === 'count' ? s.quota! / quotaTotal! : (p?.pilotShare ?? 0);
    const plannedItems = budget === null ? null : quotaKind === 'count' ? s.quota! : quotaShare * budget;
    if (!p || p.pilotItems < 2) {
      warnings.push(`stratum "${s.name}" has ${p?.pilotItems ?? 0} pilot items: its variance is unknown, so the plan's variances are NaN`);
    }
    return {
      stratum: s.name,
      quotaShare,
      plannedItems,
      traffic: s.traffic ?? null,
      pilotShare: p?.pilotShare ?? 0,
      varianceOfDifference: p?.varianceOfDifference ?? NaN,
    };
  });
  if (quotaKind === 'pilot') warnings.push("the strata file gives no quotas: the plan keeps the pilot's own stratum mix");
  const estimator = (weights: 'quota' | 'traffic'): PlanEstimator => {
    const w = rows.map((r) => (weights === 'quota' ? r.quotaShare : r.traffic!));
    const variances = rows.map((r) => r.varianceOfDifference);
    // Per-item variance: N · Σ w² s² / (q N) = Σ w² s² / q (stratifiedVariance with counts q).
    const perItemVariance = stratifiedVariance(w, variances, rows.map((r) => r.quotaShare));
    const sized = Number.isFinite(perItemVariance)
      ? {
          n: itemsForIntervalWidth({ ...options, varianceOfDifference: perItemVariance }).n,
          nForPower: itemsForPower({ ...options, varianceOfDifference: perItemVariance }).n,
        }
      : { n: perItemVariance, nForPower: perItemVariance };
    let variance: number | null = null;
    if (budget !== null) variance = stratifiedVariance(w, variances, rows.map((r) => r.plannedItems!));
    const standardError = variance === null ? null : Math.sqrt(variance);
    return {
      weights,
      perItemVariance,
      ...sized,
      variance,
      standardError,
      mdeAtBudget: standardError === null ? null : 2 * criticalZ(options.confidenceLevel ?? 0.95) * standardError,
    };
  };
  const quotaWeighted = estimator('quota');
  const trafficReweighted = strata.hasTraffic ? estimator('traffic') : null;
  if (trafficReweighted && trafficReweighted.perItemVariance === Infinity) {
    warnings.push('a stratum with traffic has a quota of 0: the traffic-reweighted headline cannot be computed from this plan');
  }
  const pilotMixDistance = 0.5 * rows.reduce((sum, r) => sum + Math.abs(r.pilotShare - r.quotaShare), 0);
  const blendedN = itemsForIntervalWidth({ ...options, varianceOfDifference: options.blendedVariance }).n;
  if (pilotMixDistance > MIX_DISTANCE_WARNING && Number.isFinite(quotaWeighted.perItemVariance)) {
    warnings.push(
      `the pilot's stratum mix differs from the planned quotas (total variation distance ${fmt(pilotMixDistance)}): ` +
        `the blended pilot variance ${fmt(options.blendedVariance)} sizes a set drawn like the pilot (n = ${blendedN}), ` +
        `while the planned mix has per-item variance Σ q_h s_h² = ${fmt(quotaWeighted.perItemVariance)} (n = ${quotaWeighted.n}); size with the plan`,
    );
  }
  return {
    source: strata.source,
    quotaKind,
    budget,
    strata: rows,
    quotaWeighted,
    trafficReweighted,
    pilotMixDistance,
    blendedVariance: options.blendedVariance,
    blendedN,
    warnings,
  };
}

function fmt(x: number): string {
  return Number(x.toPrecision(4)).toString();
}

