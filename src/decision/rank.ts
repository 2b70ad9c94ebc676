import { normalQuantile } from '../distributions/index.js';
import { createRng } from '../random/index.js';
import type { Seed } from '../random/seed.js';

/** Settings of {@link rankCandidates}. */
export interface RankOptions {
  /** Names of the k candidates, in the order of `scores`. */
  models: readonly string[];
  /** The model in production now (one of `models`), for "chosen − incumbent"; null for none. */
  incumbent?: string | null;
  /** Confidence level of every interval and bound, in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** Bootstrap resamples; default 4999. */
  nResamples?: number;
  /** Seed; default 0. The bootstrap uses stream `${seed}:rank`, "label more?" `${seed}:label-more`. */
  seed?: Seed;
  /** Per item: cluster index (resample whole clusters, e.g. documents); null for items. */
  cluster?: Int32Array | null;
  /** Per item: stratum index (resample within strata, their sizes fixed); null for none. */
  strata?: Int32Array | null;
  /** "Label more?": how many more items the budget allows (≥ 1); null to skip. */
  budget?: number | null;
  /** The margin (≥ 0, score units) at which the leader counts as separated from the runner-up; default 0. */
  margin?: number;
}

/** One candidate's row of the ranking. */
export interface RankedCandidate {
  model: string;
  mean: number;
  /** Share of bootstrap resamples in which this candidate has the highest mean (ties shared). */
  pBest: number;
  /** Observed rank (1 = highest mean). */
  rank: number;
  /** Marginal bootstrap percentile interval of the rank, [best, worst]. */
  rankInterval: [number, number];
  /** mean − leader's mean, with a simultaneous (max-T, two-sided) interval over all candidates; [0, 0] for the leader. */
  fromBest: { estimate: number; confidenceInterval: [number, number] };
  /** mean − incumbent's mean, with a simultaneous (max-T, two-sided) interval; null without an incumbent or for it. */
  fromIncumbent: { estimate: number; confidenceInterval: [number, number]; standardError: number } | null;
}

/** What {@link rankCandidates} returns. */
export interface RankResult {
  models: string[];
  n: number;
  /** Resampled units: clusters, or items. */
  nUnits: number;
  leader: string;
  runnerUp: string | null;
  incumbent: string | null;
  candidates: RankedCandidate[];
  /**
   * "chosen − incumbent" where the chosen is the leader: the naive one-sided lower bound
   * (estimate − z·SE, valid for a candidate named in advance) and the selection-adjusted one
   * (estimate − c·SE, c the (1 − α) quantile of max over all non-incumbent j of the studentized
   * bootstrap deviation (D*_j − D_j)/SE_j): simultaneous over every candidate that could have been
   * chosen, so it stays valid when the chosen one is the best of k. null without an incumbent, or
   * when the incumbent leads.
   */
  selection: { chosen: string; estimate: number; standardError: number; naiveLowerBound: number; adjustedLowerBound: number; criticalValue: number; naiveCriticalValue: number } | null;
  /**
   * "Label more?": pLeaderChanges, the predictive probability that `budget` more items would make
   * another candidate lead (new items drawn from the observed ones, their truth shifted by a bootstrap draw); itemsToSeparate, the items at which the one-sided lower bound of
   * leader − runner-up would clear −margin at this spread (null when the estimate does not clear it).
   */
  labelMore: { budget: number | null; pLeaderChanges: number | null; margin: number; itemsToSeparate: number | null };
  confidenceLevel: number;
  nResamples: number;
  seed: string;
  methodUsed: 'max-t bootstrap';
  warnings: string[];
}

function quantile(sorted: Float64Array, p: number): number {
  // Type 1 (inverse empirical CDF): the smallest value with at least p of the mass at or below it.
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

/** Units to resample: per stratum, the list of units, and per unit its items. */
function unitsOf(n: number, cluster: Int32Array | null, strata: Int32Array | null): { groups: number[][]; items: number[][] } {
  const unitOf = new Map<number, number>();
  const items: number[][] = [];
  const strataOfUnit: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = cluster === null ? i : cluster[i];
    let u = unitOf.get(key);
    if (u === undefined) {
      u = items.length;
      unitOf.set(key, u);
      items.push([]);
      strataOfUnit.push(strata === null ? 0 : strata[i]);
    } else if (strata !== null && strataOfUnit[u] !== strata[i]) throw new RangeError(`cluster ${key} spans two strata (${strataOfUnit[u]} and ${strata[i]}): a cluster must lie in one stratum`);
    items[u].push(i);
  }
  const byStratum = new Map<number, number[]>();
  strataOfUnit.forEach((h, u) => {
    const list = byStratum.get(h) ?? [];
    list.push(u);
    byStratum.set(h, list);
  });
  return { groups: [...byStratum.keys()].sort((a, b) => a - b).map((h) => byStratum.get(h) as number[]), items };
}

/** Index of the highest value; ties go to the first (the observed order). */
function argmax(x: ArrayLike<number>): number {
  let best = 0;
  for (let j = 1; j < x.length; j++) if (x[j] > x[best]) best = j;
  return best;
}

/**
 * The best of k candidates scored on the same items: P(best), simultaneous intervals for each
 * candidate's difference from the leader and from the incumbent, rank intervals, a
 * selection-adjusted lower bound for "chosen − incumbent", and "label more?".
 *
 * One paired bootstrap (items, or whole clusters, within strata) gives B resampled mean vectors
 * m*_b. P(best)_j = share of b with j = argmax m*_b (ties shared equally). For the differences
 * D_j = m_j − m_ref (ref the incumbent, or the leader), SE_j is the bootstrap SD of D*_j, and the
 * max-T critical values are the (1 − α) quantiles of max_j |D*_j − D_j|/SE_j (two-sided,
 * simultaneous intervals D_j ± c·SE_j) and of max_j (D*_j − D_j)/SE_j (one-sided: the
 * selection-adjusted lower bound D_chosen − c·SE_chosen, c floored at Bonferroni's z_{1−α/m} over the m challengers). Because the one-sided bounds hold for every
 * j at once with probability ≈ 1 − α, the bound of the one picked as best holds too, however it was
 * picked (Romano & Wolf 2005, Econometrica 73:1237; Hothorn, Bretz & Westfall 2008, multcomp's
 * "single-step" max-T). The naive bound D − z·SE ignores the selection and over-covers the winner's
 * luck (bench/rank-selection.txt). Rank intervals are marginal bootstrap percentiles of each
 * candidate's rank, not simultaneous.
 *
 * "Label more?": pLeaderChanges draws `budget` more items (whole units) from the observed ones
 * R = min(B, 2000) times, shifts their means by the r-th bootstrap deviation m*_r − m (so the truth
 * they come from is as uncertain as the bootstrap says, not fixed at the observed means), and counts
 * how often another candidate then leads on all n + budget items;
 * itemsToSeparate = ceil(n · (z · SE_LR / (D_LR + margin))²), D_LR = leader − runner-up.
 * @param scores per candidate, its score on each of the n common items (same item order).
 * @param options models (required), incumbent, confidenceLevel, nResamples, seed, cluster, strata, budget, margin.
 * @throws {RangeError} for fewer than 2 candidates or 2 units, arrays of different lengths, an unknown incumbent, or bad settings.
 * @example rankCandidates([[1, 1, 1, 0], [0, 1, 0, 0]], { models: ['a', 'b'], nResamples: 999 }).leader // => 'a'
 */
export function rankCandidates(scores: ReadonlyArray<ArrayLike<number>>, options: RankOptions): RankResult {
  const k = scores.length;
  const models = [...options.models];
  if (k < 2) throw new RangeError(`rank needs at least 2 candidates (got ${k})`);
  if (models.length !== k) throw new RangeError(`models must name every candidate (got ${models.length} names for ${k})`);
  const n = scores[0].length;
  for (let j = 0; j < k; j++) if (scores[j].length !== n) throw new RangeError(`every candidate must score the same ${n} items (${models[j]} has ${scores[j].length})`);
  for (let j = 0; j < k; j++) for (let i = 0; i < n; i++) if (!Number.isFinite(scores[j][i])) throw new RangeError(`scores must be finite (${models[j]}, item ${i}: ${scores[j][i]})`);
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const nResamples = options.nResamples ?? 4999;
  if (!Number.isInteger(nResamples) || nResamples < 1) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${nResamples})`);
  const margin = options.margin ?? 0;
  if (!(margin >= 0 && Number.isFinite(margin))) throw new RangeError(`margin must be a finite number ≥ 0 (got ${margin})`);
  const budget = options.budget ?? null;
  if (budget !== null && !(Number.isInteger(budget) && budget >= 1)) throw new RangeError(`budget must be a whole number ≥ 1 (got ${budget})`);
  const incumbent = options.incumbent ?? null;
  const inc = incumbent === null ? -1 : models.indexOf(incumbent);
  if (incumbent !== null && inc < 0) throw new RangeError(`incumbent must be one of ${models.join(', ')} (got ${incumbent})`);
  const seed = String(options.seed ?? 0);
  const { groups, items } = unitsOf(n, options.cluster ?? null, options.strata ?? null);
  const nUnits = items.length;
  if (nUnits < 2) throw new RangeError(`rank needs at least 2 units to resample (got ${nUnits})`);

  // Per unit: the sum of each candidate's scores and the item count (a cluster's items move together).
  const unitSum = Array.from({ length: nUnits }, (_, u) => Float64Array.from({ length: k }, (_, j) => items[u].reduce((s, i) => s + scores[j][i], 0)));
  const unitSize = items.map((list) => list.length);
  const mean = Float64Array.from({ length: k }, (_, j) => unitSum.reduce((s, row) => s + row[j], 0) / n);

  const rng = createRng(seed, 'rank');
  const boot: Float64Array[] = [];
  const sums = new Float64Array(k);
  for (let b = 0; b < nResamples; b++) {
    sums.fill(0);
    let count = 0;
    for (const group of groups) {
      for (let t = 0; t < group.length; t++) {
        const u = group[rng.nextInt(group.length)];
        const row = unitSum[u];
        for (let j = 0; j < k; j++) sums[j] += row[j];
        count += unitSize[u];
      }
    }
    boot.push(Float64Array.from(sums, (s) => s / count));
  }

  // P(best) with ties shared, and bootstrap ranks (1 = best; ties get their average rank).
  const pBest = new Float64Array(k);
  const ranks = Array.from({ length: k }, () => new Float64Array(nResamples));
  boot.forEach((m, b) => {
    let top = -Infinity;
    for (let j = 0; j < k; j++) top = Math.max(top, m[j]);
    const tied: number[] = [];
    for (let j = 0; j < k; j++) if (m[j] === top) tied.push(j);
    for (const j of tied) pBest[j] += 1 / tied.length;
    for (let j = 0; j < k; j++) {
      let above = 0;
      let same = 0;
      for (let l = 0; l < k; l++) {
        if (m[l] > m[j]) above += 1;
        else if (m[l] === m[j]) same += 1;
      }
      ranks[j][b] = above + (same + 1) / 2;
    }
  });
  const order = Array.from({ length: k }, (_, j) => j).sort((x, y) => mean[y] - mean[x] || x - y);
  const leader = order[0];
  const runnerUp = order[1];
  const alpha = 1 - confidenceLevel;

  /** Max-T simultaneous intervals of m_j − m_ref over j ≠ ref. */
  const maxT = (ref: number) => {
    const others = Array.from({ length: k }, (_, j) => j).filter((j) => j !== ref);
    const estimate = new Float64Array(k);
    const se = new Float64Array(k);
    for (const j of others) {
      estimate[j] = mean[j] - mean[ref];
      let s = 0;
      let s2 = 0;
      for (const m of boot) {
        const d = m[j] - m[ref];
        s += d;
        s2 += d * d;
      }
      const mb = s / nResamples;
      se[j] = Math.sqrt(Math.max(0, (s2 - nResamples * mb * mb) / Math.max(1, nResamples - 1)));
    }
    const two = new Float64Array(nResamples);
    const one = new Float64Array(nResamples);
    boot.forEach((m, b) => {
      let a = 0;
      let u = -Infinity;
      for (const j of others) {
        if (!(se[j] > 0)) continue;
        const t = (m[j] - m[ref] - estimate[j]) / se[j];
        a = Math.max(a, Math.abs(t));
        u = Math.max(u, t);
      }
      two[b] = a;
      one[b] = u === -Infinity ? 0 : u;
    });
    two.sort();
    one.sort();
    return { others, estimate, se, twoSided: quantile(two, confidenceLevel), oneSided: quantile(one, confidenceLevel) };
  };

  const fromBest = maxT(leader);
  const fromInc = inc >= 0 ? maxT(inc) : null;
  const warnings: string[] = [];
  const candidates: RankedCandidate[] = models.map((model, j) => {
    const r = Float64Array.from(ranks[j]).sort();
    const best = j === leader ? { estimate: 0, confidenceInterval: [0, 0] as [number, number] } : { estimate: fromBest.estimate[j], confidenceInterval: [fromBest.estimate[j] - fromBest.twoSided * fromBest.se[j], fromBest.estimate[j] + fromBest.twoSided * fromBest.se[j]] as [number, number] };
    const vsInc =
      fromInc === null || j === inc
        ? null
        : { estimate: fromInc.estimate[j], confidenceInterval: [fromInc.estimate[j] - fromInc.twoSided * fromInc.se[j], fromInc.estimate[j] + fromInc.twoSided * fromInc.se[j]] as [number, number], standardError: fromInc.se[j] };
    return { model, mean: mean[j], pBest: pBest[j] / nResamples, rank: order.indexOf(j) + 1, rankInterval: [quantile(r, alpha / 2), quantile(r, 1 - alpha / 2)], fromBest: best, fromIncumbent: vsInc };
  });

  let selection: RankResult['selection'] = null;
  if (fromInc !== null && leader !== inc) {
    const z = normalQuantile(confidenceLevel);
    const est = fromInc.estimate[leader];
    const se = fromInc.se[leader];
    // The max-T quantile, floored at Bonferroni's z_{1−α/m} over the m challengers: the union bound holds
    // at any dependence, and the bootstrap max-T of discrete deviations is too small at small n
    // (bench/rank-selection.txt, amendment 1).
    const critical = Math.max(fromInc.oneSided, normalQuantile(1 - alpha / fromInc.others.length));
    selection = { chosen: models[leader], estimate: est, standardError: se, naiveLowerBound: est - z * se, adjustedLowerBound: est - critical * se, criticalValue: critical, naiveCriticalValue: z };
  } else if (fromInc !== null) warnings.push(`the incumbent ${incumbent} leads: there is no challenger to bound against it`);

  // "Label more?"
  let pLeaderChanges: number | null = null;
  if (budget !== null) {
    const draws = Math.min(nResamples, 2000);
    const more = createRng(seed, 'label-more');
    let changed = 0;
    const total = new Float64Array(k);
    for (let r = 0; r < draws; r++) {
      for (let j = 0; j < k; j++) total[j] = mean[j] * n;
      // budget more items, drawn as whole units until the budget is reached (items when not clustered).
      let added = 0;
      while (added < budget) {
        const u = more.nextInt(nUnits);
        for (let j = 0; j < k; j++) total[j] += unitSum[u][j];
        added += unitSize[u];
      }
      // The new items come from the truth as uncertain as the bootstrap says: shift them by m*_b − m.
      const truth = boot[r % nResamples];
      for (let j = 0; j < k; j++) total[j] += added * (truth[j] - mean[j]);
      if (argmax(total) !== leader) changed += 1;
    }
    pLeaderChanges = changed / draws;
  }
  const z = normalQuantile(confidenceLevel);
  const gap = mean[leader] - mean[runnerUp];
  const seLR = fromBest.se[runnerUp];
  const itemsToSeparate = gap + margin > 0 && seLR > 0 ? Math.max(n, Math.ceil(n * ((z * seLR) / (gap + margin)) ** 2)) : null;
  if (gap + margin > 0 && !(seLR > 0)) warnings.push(`the leader and the runner-up differ by the same amount on every resample: no spread to size "items to separate" from`);

  return {
    models,
    n,
    nUnits,
    leader: models[leader],
    runnerUp: models[runnerUp],
    incumbent,
    candidates,
    selection,
    labelMore: { budget, pLeaderChanges, margin, itemsToSeparate },
    confidenceLevel,
    nResamples,
    seed,
    methodUsed: 'max-t bootstrap',
    warnings,
  };
}
