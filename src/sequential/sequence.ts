import { AgrapaBettingSequence } from './agrapa.js';
import { HedgedBettingSequence } from './betting.js';
import { EmpiricalBernsteinSequence, type SequenceBound } from './empirical-bernstein.js';

/** The anytime-valid sequences for bounded means benchplan offers. */
export type SequenceMethod = 'empirical-bernstein' | 'betting' | 'agrapa';

export const SEQUENCE_METHODS: readonly SequenceMethod[] = ['empirical-bernstein', 'betting', 'agrapa'];

/** What every sequence offers: add a value, read the bounds. */
export interface AnytimeSequence {
  push(y: number): void;
  readonly count: number;
  readonly mean: number;
  readonly lower: number;
  readonly upper: number;
  readonly low: number;
  readonly high: number;
  readonly confidenceLevel: number;
  readonly truncation: number;
}

/** The settings shared by both methods. */
export interface SequenceOptions {
  range: readonly [number, number];
  confidenceLevel?: number;
  bound?: SequenceBound;
  /** The bet cap c; default 1/2 for empirical-Bernstein, 3/4 for betting (the paper's suggestions), 0.99 for aGRAPA. */
  truncation?: number;
  /** Empirical-Bernstein only: report the running intersection (default true). Betting always intersects. */
  intersect?: boolean;
  /** Betting and aGRAPA only: grid points on [0, 1] (default 1000). */
  gridSize?: number;
}

/**
 * A new, empty anytime-valid sequence of the chosen method.
 * 'empirical-bernstein' (default; closed form, O(1) a value): EmpiricalBernsteinSequence.
 * 'betting' (hedged capital on a grid, O(grid) a value; tighter when the values' spread is small
 * next to their range, e.g. continuous scores or cluster means): HedgedBettingSequence.
 * 'agrapa' (one gambler per candidate mean with approximately Kelly-optimal bets, O(grid) a value;
 * decides soonest in bench/sequential.mjs on 0/1 items, continuous scores and cluster means): AgrapaBettingSequence.
 * Reference: Waudby-Smith & Ramdas, JRSSB 2024, Theorems 2 and 3 and the aGRAPA bets.
 * @throws {RangeError} for an unknown method or bad settings.
 * @example createSequence('betting', { range: [-1, 1] }).count // => 0
 */
export function createSequence(method: SequenceMethod, options: SequenceOptions): AnytimeSequence {
  if (method === 'empirical-bernstein') return new EmpiricalBernsteinSequence(options);
  if (method === 'betting') {
    if (options.intersect === false) throw new RangeError('the betting sequence always keeps the running intersection (intersect: false is not available)');
    return new HedgedBettingSequence(options);
  }
  if (method === 'agrapa') {
    if (options.intersect === false) throw new RangeError('the aGRAPA sequence always keeps the running intersection (intersect: false is not available)');
    return new AgrapaBettingSequence(options);
  }
  throw new RangeError(`method must be one of ${SEQUENCE_METHODS.join(', ')} (got ${String(method)})`);
}
