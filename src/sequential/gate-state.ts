import { z } from 'zod';
import { InputError } from '../data/errors.js';
import { parseJsonDocument } from '../data/json-document.js';
import { parseWith } from '../data/validate.js';

/** One recorded look of a sequential gate. */
export const GateLookSchema = z.strictObject({
  look: z.number().int().min(1),
  candidate: z.string(),
  label: z.string().nullable(),
  items: z.number().int().min(0),
  units: z.number().int().min(0),
  estimate: z.number().nullable(),
  lowerBound: z.number().nullable(),
  alpha: z.number().gt(0).lt(1),
  passed: z.boolean(),
  /** The look's verdict: pass, fail (the upper bound below −margin) or inconclusive (absent in state files written before there were three: read `passed`). */
  verdict: z.enum(['pass', 'fail', 'inconclusive']).optional(),
  /** The look's one-sided upper bound at 1 − α_k (absent in older state files). */
  upperBound: z.number().nullable().optional(),
  /** The sequence behind this look's bound (absent in state files written before it was recorded: empirical Bernstein). */
  sequence: z.enum(['empirical-bernstein', 'betting', 'agrapa']).optional(),
  /** Seed of the units' random order (absent in state files written before the order was shuffled: those looks read the table's order). */
  seed: z.string().optional(),
});
export type GateLook = z.infer<typeof GateLookSchema>;

/**
 * The state file of `gate --sequential`: the settings every look must share, and every look so far
 * (pass or fail: each spent its α_k). The user names the file and keeps it (e.g. a CI cache or a
 * branch artifact); deleting it resets the budget, which is exactly what the design forbids.
 */
export const GateStateSchema = z.strictObject({
  format: z.literal('benchplan-sequential-gate'),
  version: z.literal(1),
  spending: z.literal('alpha/(k(k+1))'),
  baseline: z.string(),
  margin: z.number().min(0),
  confidenceLevel: z.number().gt(0).lt(1),
  scoreRange: z.tuple([z.number(), z.number()]),
  cluster: z.boolean(),
  looks: z.array(GateLookSchema),
});
export type GateState = z.infer<typeof GateStateSchema>;

/**
 * Parses a state file's text.
 * @param text the file's content (JSON).
 * @param source the file name, for messages.
 * @throws {InputError} naming the file, line and field for bad JSON, an unknown key, a wrong type, or looks out of sequence.
 * @example parseGateState(text, 'gate-state.json').looks.length // => the looks so far
 */
export function parseGateState(text: string, source: string): GateState {
  const { data, lineOf } = parseJsonDocument(text, source, 'a state file benchplan gate --sequential wrote; start a new one for a new design');
  const state = parseWith(GateStateSchema, data, { file: source, lineOf });
  state.looks.forEach((l, k) => {
    if (l.look !== k + 1) throw new InputError(`looks must be numbered 1, 2, … in order`, { file: source, line: lineOf(['looks', k, 'look']), field: `looks[${k}].look`, value: l.look });
  });
  return state;
}
