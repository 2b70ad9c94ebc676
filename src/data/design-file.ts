import { z } from 'zod';
import { parseWith } from './validate.js';
import { readSmallText } from './yaml.js';
import { InputError } from './errors.js';
import { parseJsonText } from './json-text.js';

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
 * Beyond the schema, the file must be one `select` could have written ({@link checkDesignConsistency}):
 * a hand edit that changes a count or a probability would change the estimate silently.
 * @throws {InputError} naming the file, field and value for anything that does not match
 *   {@link DesignFileSchema}, a chosen item whose inclusion probability is not in (0, 1], or a
 *   file whose rows, cells and totals disagree.
 */
export function loadDesign(path: string): DesignFile {
  const text = readSmallText(path, MAX_DESIGN_BYTES);
  const data = parseJsonText(text, { file: path });
  const design = parseWith(DesignFileSchema, data, { file: path });
  const cells = new Set(design.cells.map((c) => c.cell));
  design.rows.forEach((r, i) => {
    if (r.selected && !Probability.safeParse(r.inclusionProbability).success) throw new InputError('a chosen item must have an inclusion probability in (0, 1]', { file: path, field: `rows[${i}].inclusionProbability`, value: r.inclusionProbability });
    if (design.sampling === 'cluster' && r.cluster === undefined) throw new InputError('a cluster design needs the cluster of every row', { file: path, field: `rows[${i}].cluster` });
    if (design.sampling !== 'poisson' && !cells.has(r.cell)) throw new InputError('names a cell that is not in cells', { file: path, field: `rows[${i}].cell`, value: r.cell });
  });
  checkDesignConsistency(design, path);
  return design;
}

/** Probabilities written by select round-trip through JSON exactly; this absorbs a re-serialisation. */
const SAME = 1e-12;

function close(x: number, y: number, tolerance = SAME): boolean {
  return Math.abs(x - y) <= tolerance * Math.max(1, Math.abs(y));
}

/**
 * The checks that make a design file one `select` could have written: every pool item once,
 * `poolSize` and `selected` equal to the rows' counts, each cell's `size` / `sampled` (clusters
 * for a cluster design, with `items` / `chosenItems`) equal to its rows', and each probability
 * the one the sampling implies: π = sampled / size for every row of a stratified or cluster cell,
 * a cell's mean π for a Poisson (active) design, whose probabilities are all > 0 and add up to
 * the budget (its expected label count). Row stratum and kind must be those of the row's cell
 * (item designs), and every item of a cluster in one cell and chosen or not together.
 * @throws {InputError} naming the file, the field path (`rows[7].inclusionProbability`,
 *   `cells[1].size`) and the value found.
 */
export function checkDesignConsistency(design: DesignFile, file: string): void {
  const fail = (what: string, field: string, value: unknown): never => {
    throw new InputError(`${what}; the design file looks edited by hand: write it again with benchplan select`, { file, field, value });
  };
  const seen = new Map<string, number>();
  design.rows.forEach((r, i) => {
    const first = seen.get(r.item);
    if (first !== undefined) fail(`item "${r.item}" appears twice (first at rows[${first}])`, `rows[${i}].item`, r.item);
    seen.set(r.item, i);
  });
  if (design.poolSize !== design.rows.length) fail(`poolSize must be the number of rows (${design.rows.length})`, 'poolSize', design.poolSize);
  const selected = design.rows.reduce((s, r) => s + (r.selected ? 1 : 0), 0);
  if (design.selected !== selected) fail(`selected must be the number of chosen rows (${selected})`, 'selected', design.selected);
  const cellIndex = new Map<string, number>();
  design.cells.forEach((c, h) => {
    if (cellIndex.has(c.cell)) fail(`cell "${c.cell}" appears twice`, `cells[${h}].cell`, c.cell);
    cellIndex.set(c.cell, h);
  });
  const stats = design.cells.map(() => ({ rows: 0, chosen: 0, piSum: 0, clusters: new Set<string>(), chosenClusters: new Set<string>() }));
  const clusterOf = new Map<string, { cell: string; selected: boolean; row: number }>();
  design.rows.forEach((r, i) => {
    const h = cellIndex.get(r.cell);
    if (h === undefined) {
      if (design.sampling === 'poisson') fail('names a cell that is not in cells', `rows[${i}].cell`, r.cell);
      return;
    }
    const c = design.cells[h];
    const st = stats[h];
    st.rows += 1;
    st.chosen += r.selected ? 1 : 0;
    st.piSum += r.inclusionProbability;
    if (design.sampling !== 'cluster') {
      if (r.stratum !== c.stratum) fail(`its stratum must be that of its cell ${c.cell} ("${c.stratum}")`, `rows[${i}].stratum`, r.stratum);
      if (r.kind !== c.kind) fail(`its kind must be that of its cell ${c.cell} ("${c.kind}")`, `rows[${i}].kind`, r.kind);
    }
    if (design.sampling === 'poisson') {
      if (!(r.inclusionProbability > 0)) fail('an active design gives every item an inclusion probability > 0', `rows[${i}].inclusionProbability`, r.inclusionProbability);
    } else {
      const pi = c.size === 0 ? 0 : c.sampled / c.size;
      if (!close(r.inclusionProbability, pi)) fail(`must be its cell's ${c.sampled} / ${c.size} = ${pi} (cell ${c.cell})`, `rows[${i}].inclusionProbability`, r.inclusionProbability);
    }
    if (design.sampling === 'cluster') {
      const name = r.cluster as string;
      const other = clusterOf.get(name);
      if (other === undefined) clusterOf.set(name, { cell: r.cell, selected: r.selected, row: i });
      else {
        if (other.cell !== r.cell) fail(`cluster "${name}" is in cell ${other.cell} at rows[${other.row}]: every item of a cluster shares its cell`, `rows[${i}].cell`, r.cell);
        if (other.selected !== r.selected) fail(`cluster "${name}" is ${other.selected ? '' : 'not '}chosen at rows[${other.row}]: a cluster design chooses every item of a cluster or none`, `rows[${i}].selected`, r.selected);
      }
      st.clusters.add(name);
      if (r.selected) st.chosenClusters.add(name);
    }
  });
  design.cells.forEach((c, h) => {
    const st = stats[h];
    const units = design.sampling === 'cluster' ? st.clusters.size : st.rows;
    const chosenUnits = design.sampling === 'cluster' ? st.chosenClusters.size : st.chosen;
    const unit = design.sampling === 'cluster' ? 'clusters' : 'rows';
    if (c.size !== units) fail(`must be the number of ${unit} in cell ${c.cell} (${units})`, `cells[${h}].size`, c.size);
    if (c.sampled !== chosenUnits) fail(`must be the number of chosen ${unit} in cell ${c.cell} (${chosenUnits})`, `cells[${h}].sampled`, c.sampled);
    if (design.sampling === 'cluster') {
      if (c.items !== undefined && c.items !== st.rows) fail(`must be the number of rows in cell ${c.cell} (${st.rows})`, `cells[${h}].items`, c.items);
      if (c.chosenItems !== undefined && c.chosenItems !== st.chosen) fail(`must be the number of chosen rows in cell ${c.cell} (${st.chosen})`, `cells[${h}].chosenItems`, c.chosenItems);
    }
    const pi = design.sampling === 'poisson' ? st.piSum / st.rows : c.sampled / c.size;
    if (!close(c.inclusionProbability, pi, design.sampling === 'poisson' ? 1e-9 : SAME)) fail(`must be ${design.sampling === 'poisson' ? "the mean of its rows' probabilities" : `${c.sampled} / ${c.size}`} = ${pi}`, `cells[${h}].inclusionProbability`, c.inclusionProbability);
  });
  if (design.sampling === 'poisson') {
    const total = design.rows.reduce((s, r) => s + r.inclusionProbability, 0);
    if (!close(total, design.budget, 1e-9)) fail(`the inclusion probabilities of an active design add up to its budget ${design.budget} (its expected number of labels), not ${total}`, 'rows[*].inclusionProbability', total);
  }
}
