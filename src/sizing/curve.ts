import { itemsForIntervalWidth } from './interval.js';
import type { SizingSettings } from './per-stratum.js';
import { itemsForPower } from './power.js';

/** One point of the n(mde) curve (the shape src/charts sizingCurveSpec draws). */
export interface PilotCurvePoint {
  /** The gap, in score units. */
  mde: number;
  /** Items by the interval-width rule at the pilot's variance. */
  n: number;
  /** Items at the lower and upper confidence limits of the pilot's variance (NaN when unknown). */
  nLower: number;
  nUpper: number;
  /** Items for the paired t-test's power. */
  nForPower: number;
}

/** The default grid: mde × 0.5, 0.6, …, 2.0 (16 points, the chosen gap among them). */
export function defaultCurveMdes(mde: number): number[] {
  return Array.from({ length: 16 }, (_, k) => Number((mde * (5 + k) / 10).toPrecision(12)));
}

/**
 * The curve n(mde) over a range of gaps: data for a chart of how the count grows as the gap you
 * would act on shrinks (quadratically: half the gap, four times the items).
 * @param varianceOfDifference the per-item variance to size with (ddof 1; effective under clusters).
 * @param options.mdes the gaps, each > 0 (default defaultCurveMdes(options.mde));
 *   options.varianceInterval the variance's confidence interval, for nLower and nUpper.
 * @returns points in the order of `mdes`, each {mde, n, nLower, nUpper, nForPower}: plain numbers.
 * @throws {RangeError} as itemsForIntervalWidth for a bad variance or gap.
 * Cost: O(points × a power solve), ~1 ms a point.
 * @example sizingCurve(428.9, { mde: 5, mdes: [2, 5] }).map((p) => p.n) // => [1648, 264]
 */
export function sizingCurve(
  varianceOfDifference: number,
  options: SizingSettings & { mdes?: readonly number[]; varianceInterval?: readonly [number, number] },
): PilotCurvePoint[] {
  const mdes = options.mdes ?? defaultCurveMdes(options.mde);
  return mdes.map((mde) => {
    const settings = { ...options, mde, varianceOfDifference };
    const at = (variance: number | undefined) =>
      variance !== undefined && Number.isFinite(variance) ? itemsForIntervalWidth({ ...settings, varianceOfDifference: variance }).n : NaN;
    return {
      mde,
      n: itemsForIntervalWidth(settings).n,
      nLower: at(options.varianceInterval?.[0]),
      nUpper: at(options.varianceInterval?.[1]),
      nForPower: itemsForPower(settings).n,
    };
  });
}
