import { z } from 'zod';
import { InputError } from './errors.js';
import { isIsoDate } from './dates.js';
import { OUTCOME_KINDS } from './outcomes.js';
import { loadYaml } from './yaml.js';

const OutcomeKindSchema = z.enum(OUTCOME_KINDS);

/** The exchange rate between errors: a policy input with an owner (DESIGN.md "Cost policy"). */
export const CostPolicySchema = z.strictObject({
  /** Who owns the decision, e.g. "Head of Regulatory Risk". */
  owner: z.string().trim().min(1),
  /** When it was decided, YYYY-MM-DD. */
  decided: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD').refine(isIsoDate, 'must be a real calendar date'),
  /** Cost of each outcome kind, ≥ 0, in any one unit. */
  costs: z.partialRecord(OutcomeKindSchema, z.number().min(0)),
  /** The cost to vary and the band of values the owner would accept. */
  sweep: z
    .strictObject({
      vary: OutcomeKindSchema,
      band: z.tuple([z.number().min(0), z.number().min(0)]).refine(([lo, hi]) => lo < hi, 'band must be [low, high] with low < high'),
    })
    .optional(),
  /** Free text: why this rate. */
  note: z.string().optional(),
});
export type CostPolicy = z.infer<typeof CostPolicySchema>;

/**
 * Loads a cost policy (YAML). The swept cost must also have a base value in `costs`.
 * @throws {InputError} for unknown keys or outcome kinds, negative costs, a bad date or band.
 */
export function loadPolicy(path: string): CostPolicy {
  const { value, source } = loadYaml(path, CostPolicySchema, { empty: 'a cost policy (owner, decided, costs; see examples/policy.yaml)' });
  if (value.sweep && value.costs[value.sweep.vary] === undefined) {
    const line = source.lineOf(['sweep', 'vary']);
    throw new InputError(`sweep.vary: the swept cost needs a value in costs too`, {
      file: path,
      ...(line === undefined ? {} : { line }),
      value: value.sweep.vary,
    });
  }
  return value;
}
