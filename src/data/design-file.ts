import { z } from 'zod';
import { parseWith } from './validate.js';
import { readSmallText } from './yaml.js';
import { InputError } from './errors.js';

const Probability = z.number().gt(0).lte(1);

/** The design file `benchplan select --design` writes and `compare --design` reads. */
export const DesignFileSchema = z.strictObject({
  kind: z.literal('benchplan-selection-design'),
  version: z.literal(1),
  pool: z.string(),
  a: z.string(),
  b: z.string(),
  method: z.enum(['disagreement', 'active']),
  sampling: z.enum(['stratified', 'poisson', 'cluster']),
  equality: z.string(),
  budget: z.number().int().min(1),
  auditShare: z.number().min(0).lt(1),
  seed: z.string(),
  poolSize: z.number().int().min(1),
  selected: z.number().int().min(0),
  cells: z.array(
    z.strictObject({
      cell: z.string(),
      stratum: z.string(),
      kind: z.enum(['disagree', 'agree']),
      size: z.number().int().min(1),
      sampled: z.number().int().min(0),
      inclusionProbability: z.number().min(0).max(1),
      items: z.number().int().min(1).optional(),
      chosenItems: z.number().int().min(0).optional(),
    }),
  ),
  rows: z.array(
    z.strictObject({
      item: z.string().min(1),
      stratum: z.string(),
      kind: z.enum(['disagree', 'agree']),
      cell: z.string(),
      inclusionProbability: z.number().min(0).max(1),
      selected: z.boolean(),
      prediction: z.number().optional(),
      cluster: z.string().optional(),
    }),
  ),
});
export type DesignFile = z.infer<typeof DesignFileSchema>;

/** Largest design file read: 64 MiB (a pool of about half a million items). */
const MAX_DESIGN_BYTES = 64 * 1024 * 1024;

/**
 * Reads and validates a design file written by `benchplan select`.
 * @throws {InputError} naming the file, field and value for anything that does not match
 *   {@link DesignFileSchema}, or a chosen item whose inclusion probability is not in (0, 1].
 */
export function loadDesign(path: string): DesignFile {
  const text = readSmallText(path, MAX_DESIGN_BYTES);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`not valid JSON: ${(error as Error).message}`, { file: path });
  }
  const design = parseWith(DesignFileSchema, data, { file: path });
  const cells = new Set(design.cells.map((c) => c.cell));
  design.rows.forEach((r, i) => {
    if (r.selected && !Probability.safeParse(r.inclusionProbability).success) throw new InputError('a chosen item must have an inclusion probability in (0, 1]', { file: path, field: `rows[${i}].inclusionProbability`, value: r.inclusionProbability });
    if (design.sampling === 'cluster' && r.cluster === undefined) throw new InputError('a cluster design needs the cluster of every row', { file: path, field: `rows[${i}].cluster` });
    if (design.sampling !== 'poisson' && !cells.has(r.cell)) throw new InputError('names a cell that is not in cells', { file: path, field: `rows[${i}].cell`, value: r.cell });
  });
  return design;
}
