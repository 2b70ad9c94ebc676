/**
 * What a passing gate cannot see on a bounded scale: a regression confined to items the sample did
 * not draw. Pure arithmetic on the sample size, the scale's width, the margin and the level; no data.
 */

/** The share of the population a passing gate could have missed, and what would rule it out. */
export interface GateBlindSpot {
  /** Items, or clusters (documents) with `--cluster`: the independent draws the gate rests on. */
  units: number;
  unit: 'item' | 'cluster';
  /** Width of the score scale (HIGH − LOW of the declared range, or 1 for scores in [0, 1]). */
  width: number;
  /** 1 − α^(1/units): the largest share of the population the sample misses with probability ≥ α. */
  share: number;
  /** share · width: how far a regression confined to that share can lower the mean. */
  maxHiddenDrop: number;
  /** The fewest units at which maxHiddenDrop falls below the margin; null when none does (margin 0). */
  unitsToRuleOut: number | null;
}

/**
 * The gate's blind spot (the rule of three, Hanley & Lippman-Hand 1983, taken to a bounded mean): a
 * sample of n independent units misses a set holding a share f of the population with probability
 * (1 − f)^n, which is ≥ α for every f ≤ 1 − α^(1/n). A regression confined to such a set lowers the
 * mean by up to f · width, since no unit can lose more than the scale's width. When
 * (1 − α^(1/n)) · width ≥ margin, a drop as large as the margin can hide in units the sample did
 * not draw, at least α of the time, so no test on this sample can hold its false-pass rate against
 * every such regression while passing a sample like this one. Units that rule it out:
 * N = ⌊ln α / ln(1 − margin / width)⌋ + 1, the first n with (1 − margin / width)^n < α.
 * Returns null when the margin is out of the blind spot's reach (margin ≥ width, or the share is
 * below margin / width). For clusters the share is of documents, and the drop bound assumes
 * documents of similar size.
 * @example gateBlindSpot(30, 1, 0.05, 0.95)?.unitsToRuleOut // => 59
 * @example gateBlindSpot(59, 1, 0.05, 0.95) // => null
 */
export function gateBlindSpot(units: number, width: number, margin: number, confidenceLevel: number, unit: 'item' | 'cluster' = 'item'): GateBlindSpot | null {
  if (!(Number.isInteger(units) && units >= 1)) throw new RangeError(`units must be a positive integer (got ${units})`);
  if (!(width > 0 && Number.isFinite(width))) throw new RangeError(`width must be a positive finite number (got ${width})`);
  if (!(margin >= 0 && Number.isFinite(margin))) throw new RangeError(`margin must be a finite number ≥ 0 (got ${margin})`);
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must lie in (0, 1) (got ${confidenceLevel})`);
  const alpha = 1 - confidenceLevel;
  if (margin >= width) return null;
  // (1 − m/w)^n ≥ α ⇔ the share 1 − α^(1/n) reaches m/w; compared on the log scale, as N is found.
  const keep = Math.log1p(-margin / width);
  if (units * keep < Math.log(alpha)) return null;
  const share = -Math.expm1(Math.log(alpha) / units);
  const unitsToRuleOut = margin === 0 ? null : Math.floor(Math.log(alpha) / keep) + 1;
  return { units, unit, width, share, maxHiddenDrop: share * width, unitsToRuleOut };
}
