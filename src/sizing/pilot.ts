import type { PairedScores } from '../data/pairing.js';
import type { Strata } from '../data/strata-file.js';
import { InputError } from '../data/errors.js';
import { clusterDesign, type ClusterDesign } from './clusters.js';
import { ceilCount } from './counts.js';
import { defaultCurveMdes, sizingCurve, type PilotCurvePoint } from './curve.js';
import { checkConfidence, checkMde, criticalZ, itemsForIntervalWidth, mdeForIntervalWidth } from './interval.js';
import { sizeAllocationPlan, sizePerStratum, type PlanSizing, type SizingSettings, type StratumSizing } from './per-stratum.js';
import { itemsForPower, mdeForPower, type PowerAlternative } from './power.js';
import { repeatSizing, type RepeatSizing } from './repeats.js';
import { summarizeDifferences, varianceInterval } from './variance.js';

/** A pilot smaller than this earns a warning that its variance is rough. */
export const SMALL_PILOT_ITEMS = 20;

/** Settings of sizeFromPilot. */
export interface PilotSizingOptions {
  /** The smallest gap you would act on, in score units (> 0). */
  mde: number;
  /** Interval coverage, and 1 − α of the test; default 0.95. */
  confidenceLevel?: number;
  /** Target power of the paired t-test; default 0.8. */
  power?: number;
  alternative?: PowerAlternative;
  /** Items you can afford: adds mdeAtBudget and mdeForPowerAtBudget. */
  budget?: number;
  /** Size each stratum on its own variance (the pilot needs a stratum column). */
  perStratum?: boolean;
  /** A planned allocation: adds `plan` (implies per-stratum variances; the pilot needs strata). */
  strata?: Strata;
  /** Size as if items were independent even when the pilot has clusters. */
  ignoreClusters?: boolean;
  /** The gaps of the n(mde) curve; default mde × 0.5, 0.6, …, 2.0. */
  curveMdes?: readonly number[];
}

/** Clustered pilots: the design effect and the counts in clusters as well as items. */
export interface ClusterSizing extends ClusterDesign {
  /** Clusters (documents) needed by the interval rule: n / m̄ rounded up. */
  nClusters: number;
  /** Clusters needed for the power target (the t-test on cluster totals, df = clusters − 1). */
  nClustersForPower: number;
  /** What the counts would be if the items were independent (design effect 1). */
  nIgnoringClusters: number;
  nForPowerIgnoringClusters: number;
}

/** Everything `benchplan size` reports; plain JSON-able numbers, NaN where undefined. */
export interface PilotSizing {
  method: 'pilot-sizing';
  /** The pilot file, and the two models compared (difference = a − b). */
  source: string;
  a: string;
  b: string;
  /** Paired items in the pilot, and items left out as unpaired (with --drop-unpaired). */
  pilotItems: number;
  droppedItems: number;
  /** Mean and sample variance (ddof 1) of the per-item differences a − b, and its square root. */
  meanDifference: number;
  varianceOfDifference: number;
  standardDeviation: number;
  /** The settings. */
  mde: number;
  confidenceLevel: number;
  power: number;
  alternative: PowerAlternative;
  /** z = Φ⁻¹(1 − α/2). */
  z: number;
  /** The per-item variance the counts use: varianceOfDifference, or the clustered effective variance. */
  sizingVariance: number;
  /** Items for a paired interval of half-width mde/2 (the chapter's rule), real and whole. */
  nExact: number;
  n: number;
  /** Items for the paired t-test to detect mde with the given power, real and whole. */
  nForPowerExact: number;
  nForPower: number;
  /** The normal approximation of nForPower, real and whole. */
  nForPowerNormalExact: number;
  nForPowerNormal: number;
  /** Chi-square confidence interval of sizingVariance (df = items − 1, or clusters − 1). */
  varianceInterval: [number, number];
  /** n and nForPower at the interval's upper end: what to plan for if the pilot was lucky. */
  nUpper: number;
  nForPowerUpper: number;
  /** The budget echoed; the gap it resolves by the interval rule and by the power target (null without). */
  budget: number | null;
  mdeAtBudget: number | null;
  mdeForPowerAtBudget: number | null;
  /** Present when the pilot has clusters with more than one item. */
  clusters: ClusterSizing | null;
  /** Present when some item has two or more repeats per model. */
  repeats: RepeatSizing | null;
  /** Present with perStratum or strata. */
  strata: StratumSizing[] | null;
  /** Present with strata. */
  plan: PlanSizing | null;
  /** n(mde) for a chart. */
  curve: PilotCurvePoint[];
  /** Every warning, including those of strata, plan and repeats (which keep their own too). */
  warnings: string[];
}

/**
 * Sizes a benchmark from a pilot: how many items are needed to see the smallest gap you would
 * act on, by the chapter's interval rule and by the paired t-test's power, with the pilot's own
 * uncertainty, clustering, repeats and strata taken into account where the pilot has them.
 *
 * Steps: the variance of per-item differences (ddof 1) → n = ceil(v·(2z/mde)²) and the power
 * count → the chi-square upper limit of v → nUpper; with clusters, v becomes the effective
 * variance deff·s² and counts come in clusters too; with repeats, n by K repeats (Miller 2024);
 * per stratum, each stratum's own count; with a strata file, what the planned mix buys and
 * whether the blended pilot variance misleads.
 * Reference: "Building a private benchmark", Sizing, from the smallest gap you would act on.
 * @param paired the pilot, paired (pairScores): differences, and optionally stratum, cluster, repeats.
 * @returns a PilotSizing; counts NaN with a warning when the pilot's differences have no spread.
 * @throws {RangeError} for fewer than two paired items or bad settings;
 *   {InputError} naming the pilot when per-stratum sizing or a plan is asked of a pilot without strata,
 *   or naming the strata file when a pilot stratum is not in it.
 * Cost: O(items) plus ~25 power solves (~1 ms each).
 * @example sizeFromPilot(pairScores(loadScores('examples/pilot.csv'), 'candidate', 'baseline'), { mde: 5 }).n // => 151
 */
export function sizeFromPilot(paired: PairedScores, options: PilotSizingOptions): PilotSizing {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const power = options.power ?? 0.8;
  const alternative = options.alternative ?? 'two-sided';
  const { mde } = options;
  checkMde(mde);
  checkConfidence(confidenceLevel);
  checkConfidence(power, 'power');
  if (options.budget !== undefined && !(options.budget > 1 && Number.isFinite(options.budget))) {
    throw new RangeError(`budget must be a finite number of items > 1 (got ${options.budget})`);
  }
  const settings: SizingSettings = { mde, confidenceLevel, power, alternative };
  const summary = summarizeDifferences(paired.differences);
  if (summary.count < 2) {
    throw new RangeError(`sizeFromPilot: the pilot has ${summary.count} paired item${summary.count === 1 ? '' : 's'}; a variance needs at least 2`);
  }
  const warnings: string[] = [];
  const v = summary.variance;
  if (summary.count < SMALL_PILOT_ITEMS) {
    warnings.push(`the pilot has only ${summary.count} paired items: its variance is a rough estimate; plan with nUpper rather than n`);
  }

  // Clusters: size with the effective variance, count in clusters too.
  let design: ClusterDesign | null = null;
  if (paired.cluster && !options.ignoreClusters && paired.clusters.length < summary.count) {
    design = clusterDesign(paired.differences, paired.cluster, paired.clusters.length);
    if (design.clusters < 2) {
      warnings.push('every pilot item is in one cluster: the design effect cannot be estimated, so clusters are ignored');
      design = null;
    }
  }
  const sizingVariance = design ? design.effectiveVariance : v;
  const df = design ? design.clusters - 1 : summary.count - 1;
  const clusterSize = design ? design.meanClusterSize : 1;
  const degenerate = !(sizingVariance > 0);
  if (degenerate) {
    warnings.push(
      'the per-item differences have no spread in the pilot (every item differs by the same amount): the pilot cannot size the set; counts are NaN — run a larger or more varied pilot',
    );
  }
  const count = (x: number) => (degenerate ? NaN : x);

  const interval = itemsForIntervalWidth({ ...settings, varianceOfDifference: sizingVariance });
  // Power in the sampling unit (clusters when clustered), then back to items.
  const unitVariance = sizingVariance / clusterSize;
  const powerSized = itemsForPower({ ...settings, varianceOfDifference: unitVariance });
  const toItems = (units: number) => ceilCount(units * clusterSize);
  const vInterval = varianceInterval(sizingVariance, df, confidenceLevel);
  const upperInterval = itemsForIntervalWidth({ ...settings, varianceOfDifference: vInterval[1] });
  const upperPower = itemsForPower({ ...settings, varianceOfDifference: vInterval[1] / clusterSize });

  let clusters: ClusterSizing | null = null;
  if (design) {
    const plain = itemsForPower({ ...settings, varianceOfDifference: v });
    clusters = {
      ...design,
      nClusters: count(ceilCount(interval.nExact / clusterSize)),
      nClustersForPower: count(powerSized.n),
      nIgnoringClusters: count(itemsForIntervalWidth({ ...settings, varianceOfDifference: v }).n),
      nForPowerIgnoringClusters: count(plain.n),
    };
    if (design.designEffect < 1) {
      warnings.push(
        `the design effect is below 1 (${fmt(design.designEffect)}): items of a cluster disagree more than chance would have them, or the pilot has too few clusters to tell; the counts use it, nIgnoringClusters does not`,
      );
    }
  }

  let repeats: RepeatSizing | null = null;
  const [repeatsA, repeatsB] = paired.repeats;
  if (repeatsA.some((k) => k > 1) || repeatsB.some((k) => k > 1)) {
    repeats = repeatSizing(
      {
        differences: paired.differences,
        repeatsA,
        repeatsB,
        repeatVarianceA: paired.repeatVariance[0],
        repeatVarianceB: paired.repeatVariance[1],
      },
      { ...settings, varianceOfDifference: v },
    );
    warnings.push(...repeats.warnings);
  }

  let strata: StratumSizing[] | null = null;
  let plan: PlanSizing | null = null;
  if (options.perStratum || options.strata) {
    if (!paired.stratum) {
      throw new InputError(`${options.strata ? 'a strata plan' : 'per-stratum sizing'} needs a "stratum" column in the pilot`, { file: paired.source });
    }
    const perStratum = sizePerStratum(paired.differences, paired.stratum, paired.strata, settings);
    // Strata of the table with no paired item here (dropped) are left out of the list.
    strata = perStratum.filter((s) => s.pilotItems > 0 || options.strata?.strata.some((x) => x.name === s.stratum));
    for (const s of strata) warnings.push(...s.warnings);
    if (options.strata) {
      plan = sizeAllocationPlan(strata, options.strata, { ...settings, blendedVariance: v, budget: options.budget });
      warnings.push(...plan.warnings);
    }
    if (!options.perStratum) strata = null;
  }

  const budget = options.budget ?? null;
  let mdeForPowerAtBudget: number | null = null;
  if (budget !== null) {
    const units = budget / clusterSize;
    if (units > 1) mdeForPowerAtBudget = count(mdeForPower(unitVariance, units, settings));
    else {
      mdeForPowerAtBudget = NaN;
      warnings.push(`a budget of ${budget} items is ${fmt(units)} clusters: too few for a t-test`);
    }
  }

  const curve = sizingCurve(sizingVariance, { ...settings, mdes: options.curveMdes ?? defaultCurveMdes(mde), varianceInterval: vInterval }).map((point) =>
    degenerate ? { ...point, n: NaN, nLower: NaN, nUpper: NaN, nForPower: NaN } : design ? { ...point, nForPower: forPowerInItems(point.mde) } : point,
  );
  function forPowerInItems(gap: number): number {
    return toItems(itemsForPower({ ...settings, mde: gap, varianceOfDifference: unitVariance }).nExact);
  }

  return {
    method: 'pilot-sizing',
    source: paired.source,
    a: paired.a,
    b: paired.b,
    pilotItems: summary.count,
    droppedItems: paired.dropped,
    meanDifference: summary.mean,
    varianceOfDifference: v,
    standardDeviation: Math.sqrt(v),
    mde,
    confidenceLevel,
    power,
    alternative,
    z: criticalZ(confidenceLevel),
    sizingVariance,
    nExact: count(interval.nExact),
    n: count(interval.n),
    nForPowerExact: count(powerSized.nExact * clusterSize),
    nForPower: count(toItems(powerSized.nExact)),
    nForPowerNormalExact: count(powerSized.nNormalExact * clusterSize),
    nForPowerNormal: count(toItems(powerSized.nNormalExact)),
    varianceInterval: vInterval,
    nUpper: count(upperInterval.n),
    nForPowerUpper: count(toItems(upperPower.nExact)),
    budget,
    mdeAtBudget: budget === null ? null : count(mdeForIntervalWidth(sizingVariance, budget, confidenceLevel)),
    mdeForPowerAtBudget,
    clusters,
    repeats,
    strata,
    plan,
    curve,
    warnings,
  };
}

function fmt(x: number): string {
  return Number(x.toPrecision(4)).toString();
}
