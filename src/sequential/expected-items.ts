import { createRng } from '../random/index.js';
import type { Seed } from '../random/index.js';
import { createSequence, type SequenceMethod } from './sequence.js';
import { tiltToMean } from './tilt.js';
import { sequentialVerdict } from './verdict.js';

/** The settings of `expectedItemsToDecision`. */
export interface ExpectedItemsOptions {
  /** [low, high] bound of a unit's value (the difference range). */
  range: readonly [number, number];
  /** True gaps to simulate (each strictly inside the pilot's smallest and largest value). */
  gaps: readonly number[];
  /** The smallest gap you would act on: enables 'equivalent' as a decision. */
  mde?: number;
  /** Level of the sequence; default 0.95. */
  confidenceLevel?: number;
  /** Simulated annotation runs per gap; default 1000. */
  simulations?: number;
  /** Each run stops here if undecided (a budget cap). */
  maxUnits: number;
  /** Look after every `every` units; default 1. */
  every?: number;
  /** The sequence: 'empirical-bernstein' (default here; `size --sequential` passes autoSequenceMethod's choice), 'betting' or 'agrapa'. */
  method?: SequenceMethod;
  seed?: Seed;
}

/** The simulated stopping behaviour at one true gap. */
export interface ExpectedItemsRow {
  gap: number;
  /** Mean units to a decision, counting an undecided run as maxUnits (so a lower bound when undecided > 0). */
  meanUnits: number;
  /** Monte Carlo standard error of meanUnits: sd / √simulations. */
  meanUnitsStandardError: number;
  medianUnits: number;
  /** 90th percentile (nearest rank). */
  p90Units: number;
  /** Share of runs that decided for the side the gap is on (gap 0: 'equivalent'). */
  correct: number;
  /** Share that declared the other side a winner (gap 0: any winner). */
  wrong: number;
  /** Share that declared 'equivalent' at a gap ≠ 0. */
  equivalent: number;
  /** Share still undecided at maxUnits. */
  undecided: number;
}

export interface ExpectedItemsResult {
  method: 'simulation-tilted-pilot';
  sequence: SequenceMethod;
  range: [number, number];
  confidenceLevel: number;
  mde: number | null;
  simulations: number;
  maxUnits: number;
  every: number;
  seed: string;
  pilotUnits: number;
  rows: ExpectedItemsRow[];
}

/**
 * Expected units (items, or clusters) until a confidence sequence decides, by simulation from a
 * pilot: for each true gap g, draw units from the pilot's distribution tilted to mean g
 * (tiltToMean), run the PrPl-EB sequence with a look every `every` units, and stop at the first
 * verdict or at maxUnits. What `size --sequential` sets against the fixed-n count.
 * Each gap has its own random stream (`${seed}:gap:${index}`), so adding a gap leaves the others alone.
 * Cost: O(simulations × gaps × maxUnits) at worst.
 * @param values the pilot's unit values (per-item differences, or per-cluster mean differences).
 * @param options range, gaps, mde, confidenceLevel, simulations, maxUnits, every, seed.
 * @returns one row per gap: mean / median / 90th percentile units, and shares correct / wrong / equivalent / undecided.
 * @throws {RangeError} for a gap the pilot cannot be tilted to, or bad settings.
 * @example
 * const pilot = [...Array(15).fill(1), ...Array(15).fill(-1), ...Array(70).fill(0)]; // 30% discordant
 * expectedItemsToDecision(pilot, { range: [-1, 1], gaps: [0.1], maxUnits: 2000 }).rows[0].meanUnits // => 408.822 (seed 0, 1000 runs)
 */
export function expectedItemsToDecision(values: ArrayLike<number>, options: ExpectedItemsOptions): ExpectedItemsResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const simulations = options.simulations ?? 1000;
  const every = options.every ?? 1;
  const { maxUnits, mde } = options;
  if (!(Number.isInteger(simulations) && simulations >= 1)) throw new RangeError(`simulations must be a whole number ≥ 1 (got ${simulations})`);
  if (!(Number.isInteger(maxUnits) && maxUnits >= 1)) throw new RangeError(`maxUnits must be a whole number ≥ 1 (got ${maxUnits})`);
  if (!(Number.isInteger(every) && every >= 1)) throw new RangeError(`every must be a whole number ≥ 1 (got ${every})`);
  const seed = String(options.seed ?? '0');
  const sequence = options.method ?? 'empirical-bernstein';
  const rows = options.gaps.map((gap, index): ExpectedItemsRow => {
    const law = tiltToMean(values, gap);
    const cumulative = new Float64Array(law.probability.length);
    let run = 0;
    law.probability.forEach((p, j) => (cumulative[j] = run += p));
    cumulative[cumulative.length - 1] = 1;
    const rng = createRng(seed, 'gap', index);
    const stops = new Float64Array(simulations);
    let correct = 0;
    let wrong = 0;
    let equivalent = 0;
    let undecided = 0;
    for (let r = 0; r < simulations; r++) {
      const seq = createSequence(sequence, { range: options.range, confidenceLevel });
      let stop = maxUnits;
      let verdict = 'continue';
      for (let t = 1; t <= maxUnits; t++) {
        const u = rng.nextFloat();
        let j = 0;
        let hi = cumulative.length - 1;
        while (j < hi) {
          const mid = (j + hi) >> 1;
          if (cumulative[mid] > u) hi = mid;
          else j = mid + 1;
        }
        seq.push(law.support[j]);
        if (t % every !== 0 && t !== maxUnits) continue;
        verdict = sequentialVerdict([seq.lower, seq.upper], mde);
        if (verdict !== 'continue' && verdict !== 'inconsistent') {
          stop = t;
          break;
        }
      }
      stops[r] = stop;
      const winner = verdict === 'a-better' ? 1 : verdict === 'b-better' ? -1 : 0;
      if (verdict === 'equivalent') {
        if (gap === 0) correct += 1;
        else equivalent += 1;
      } else if (winner === 0) undecided += 1;
      else if (gap !== 0 && winner === Math.sign(gap)) correct += 1;
      else wrong += 1;
    }
    const sorted = Float64Array.from(stops).sort();
    let mean = 0;
    for (const s of stops) mean += s;
    mean /= simulations;
    let ss = 0;
    for (const s of stops) ss += (s - mean) * (s - mean);
    const sd = simulations > 1 ? Math.sqrt(ss / (simulations - 1)) : NaN;
    return {
      gap,
      meanUnits: mean,
      meanUnitsStandardError: sd / Math.sqrt(simulations),
      medianUnits: sorted[Math.ceil(0.5 * simulations) - 1],
      p90Units: sorted[Math.ceil(0.9 * simulations) - 1],
      correct: correct / simulations,
      wrong: wrong / simulations,
      equivalent: equivalent / simulations,
      undecided: undecided / simulations,
    };
  });
  return {
    method: 'simulation-tilted-pilot',
    sequence,
    range: [options.range[0], options.range[1]],
    confidenceLevel,
    mde: mde ?? null,
    simulations,
    maxUnits,
    every,
    seed,
    pilotUnits: values.length,
    rows,
  };
}
