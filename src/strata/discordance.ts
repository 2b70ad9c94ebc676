/** Two models' paired scores with a stratum per item (a `PairedScores` from src/data fits). */
export interface StratifiedPairs {
  scoreA: ArrayLike<number>;
  scoreB: ArrayLike<number>;
  /** Per item: index into `strata`. */
  stratum: ArrayLike<number> | null;
  strata: readonly string[];
}

/** How much one stratum separates two candidates. */
export interface StratumDiscordance {
  stratum: string;
  /** Paired items in the stratum. */
  n: number;
  /** Share of items on which the two scores differ: for 0/1 scores the discordant pairs (b + c) / n of McNemar's table. */
  discordance: number;
  /** Mean of A − B. */
  meanDifference: number;
  /** Sample variance (n − 1) of A − B: what Neyman allocation weighs; NaN with fewer than two items. */
  varianceOfDifference: number;
  /** √varianceOfDifference: the S_h of Neyman allocation. */
  sd: number;
}

export interface DiscordanceResult {
  strata: StratumDiscordance[];
  /** Every score is 0 or 1, so `discordance` is the discordant-pair share. */
  binary: boolean;
  /** The largest |A − B| over all reported items (0 when the models agree everywhere). */
  largestDifference: number;
  warnings: string[];
}

/**
 * Per stratum, how far two candidates come apart: the share of items on which they disagree
 * and the variance of their paired difference. This is what a stratum can contribute to
 * telling them apart (the chapter's cancellation argument: an item both score the same adds
 * nothing to the difference), and the S_h that Neyman allocation puts items behind.
 *
 * Formulas per stratum h with n_h items and d_i = a_i − b_i:
 * discordance = #{i : a_i ≠ b_i} / n_h; meanDifference = Σ d_i / n_h;
 * varianceOfDifference = Σ (d_i − d̄)² / (n_h − 1) (as R `var`); sd = its square root.
 *
 * @param pairs paired scores with a stratum per item.
 * @param options.strata the strata to report, in this order (default: pairs.strata); a named
 *   stratum with no items gets n = 0 and NaN with a warning.
 * @returns one row per stratum, whether scores are 0/1, warnings for strata with < 2 items.
 * @throws {TypeError} when there is no stratum per item or the lengths differ.
 * Cost: O(n).
 * @example stratumDiscordance({ scoreA: [1, 1, 0, 1], scoreB: [1, 0, 0, 0], stratum: [0, 0, 1, 1], strata: ['x', 'y'] })
 *   .strata.map((s) => s.discordance) // => [0.5, 0.5]
 */
export function stratumDiscordance(pairs: StratifiedPairs, options: { strata?: readonly string[] } = {}): DiscordanceResult {
  const { scoreA, scoreB, stratum } = pairs;
  if (stratum === null || stratum === undefined) throw new TypeError('stratumDiscordance needs a stratum per item (the scores have no stratum column)');
  if (scoreA.length !== scoreB.length || scoreA.length !== stratum.length) {
    throw new TypeError(`stratumDiscordance: scoreA, scoreB and stratum must have the same length (got ${scoreA.length}, ${scoreB.length}, ${stratum.length})`);
  }
  const names = options.strata ?? pairs.strata;
  const slot = new Map<string, number>();
  names.forEach((name, k) => slot.set(name, k));
  // Map the pairs' stratum indices to output rows (−1: a stratum not asked for).
  const row = pairs.strata.map((name) => slot.get(name) ?? -1);
  const H = names.length;
  const count = new Float64Array(H);
  const differ = new Float64Array(H);
  const sum = new Float64Array(H);
  let binary = true;
  let largestDifference = 0;
  for (let i = 0; i < scoreA.length; i++) {
    const h = row[stratum[i]];
    if (h === undefined || h < 0) continue;
    const a = scoreA[i];
    const b = scoreB[i];
    largestDifference = Math.max(largestDifference, Math.abs(a - b));
    count[h] += 1;
    if (a !== b) differ[h] += 1;
    sum[h] += a - b;
    if ((a !== 0 && a !== 1) || (b !== 0 && b !== 1)) binary = false;
  }
  const mean = Float64Array.from(sum, (s, h) => (count[h] > 0 ? s / count[h] : NaN));
  const squares = new Float64Array(H);
  for (let i = 0; i < scoreA.length; i++) {
    const h = row[stratum[i]];
    if (h === undefined || h < 0) continue;
    const e = scoreA[i] - scoreB[i] - mean[h];
    squares[h] += e * e;
  }
  const warnings: string[] = [];
  const strata = names.map((name, h): StratumDiscordance => {
    const n = count[h];
    if (n === 0) warnings.push(`stratum "${name}" has no paired items: its discordance and variance are NaN`);
    else if (n === 1) warnings.push(`stratum "${name}" has one paired item: its variance of the difference is NaN (it needs at least two)`);
    const variance = n > 1 ? squares[h] / (n - 1) : NaN;
    return {
      stratum: name,
      n,
      discordance: n > 0 ? differ[h] / n : NaN,
      meanDifference: mean[h],
      varianceOfDifference: variance,
      sd: Math.sqrt(variance),
    };
  });
  return { strata, binary, largestDifference, warnings };
}

/**
 * The S_h an allocation should weigh: each stratum's pilot sd of the difference, floored where the
 * pilot saw no variation. Two candidates that agreed on all n_h pilot items of a stratum give sd 0,
 * and Neyman allocation would give that stratum no items at all; but zero is a small-sample
 * artefact. By the rule of three the share of items on which they differ may still be up to about
 * p = 3 / n_h (a 95% upper bound), and a share p of items differing by at most R (the rest by 0) has
 * variance at most p·R². So the floor is R·√min(1, 3 / n_h), with R the largest |A − B| in the pilot
 * (1 for 0/1 scores when the models agree everywhere).
 * Reference: Hanley & Lippman-Hand (1983), "If nothing goes wrong, is everything all right?", JAMA.
 * @returns the sd per stratum name, and the strata whose sd was floored.
 * @example allocationSds({ strata: [{ stratum: 'x', n: 30, sd: 0 }], largestDifference: 1 }).sd.x // => 0.3162 (√(3/30))
 */
export function allocationSds(result: { strata: ReadonlyArray<Pick<StratumDiscordance, 'stratum' | 'n' | 'sd'>>; largestDifference: number }): {
  sd: Record<string, number>;
  floored: string[];
} {
  const range = result.largestDifference > 0 ? result.largestDifference : 1;
  const sd: Record<string, number> = {};
  const floored: string[] = [];
  for (const s of result.strata) {
    if (s.sd === 0 && s.n > 0) {
      sd[s.stratum] = range * Math.sqrt(Math.min(1, 3 / s.n));
      floored.push(s.stratum);
    } else sd[s.stratum] = s.sd;
  }
  return { sd, floored };
}
