import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { InputError } from './errors.js';
import { openTable } from './read.js';
import { parseWith } from './validate.js';
import { parseYamlText, readSmallText } from './yaml.js';

const Id = z.union([z.string().trim().min(1), z.number().transform(String)]);

/** One item of a benchmark manifest (DESIGN.md "Benchmark manifest"). */
const ManifestItemBase = z.strictObject({
    item: Id,
    stratum: z.string().trim().min(1),
    split: z.enum(['dev', 'eval']),
    /** The item's content inline… */
    text: z.string().optional(),
    /** …or a path to a file holding it, relative to the manifest's folder and inside it. */
    path: z.string().min(1).optional(),
    label: z.union([z.string(), z.number(), z.boolean()]).optional(),
    /** The version or date the item was added. */
    added: z.union([z.string(), z.number().transform(String)]).optional(),
    /** Where it came from, e.g. `incident`, `template`. */
    source: z.string().optional(),
});
const oneContent = (x: { text?: string; path?: string }) => (x.text === undefined) !== (x.path === undefined);
export const ManifestItemSchema = ManifestItemBase.refine(oneContent, { message: 'give exactly one of text and path' });
export type ManifestItem = z.infer<typeof ManifestItemSchema>;

/** An incidents log row: a manifest item whose split defaults to eval (it is a candidate replacement). */
export const IncidentSchema = ManifestItemBase.extend({ split: z.enum(['dev', 'eval']).default('eval') }).refine(oneContent, {
  message: 'give exactly one of text and path',
});

const ManifestFileSchema = z.union([
  z.array(z.unknown()),
  z.strictObject({ guideline: z.string().optional(), items: z.array(z.unknown()) }),
]);

export interface Manifest {
  source: string;
  /** The annotation guideline version, when the manifest names one. */
  guideline: string | undefined;
  items: Array<ManifestItem & { line: number }>;
}

/**
 * Loads a benchmark manifest: YAML (a list of items, or `{ guideline, items }`) or JSONL (one
 * item a line). Item ids must be unique; a `path` must stay inside the manifest's folder.
 * @param options.incidents read an incidents log: `split` may be omitted (eval).
 * @throws {InputError} naming the file, line, field and value.
 */
export function loadManifest(path: string, options: { incidents?: boolean } = {}): Manifest {
  const schema = options.incidents ? IncidentSchema : ManifestItemSchema;
  const items: Manifest['items'] = [];
  let guideline: string | undefined;
  const ext = extname(path).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    const source = parseYamlText(readSmallText(path), path, { empty: options.incidents ? 'a list of incident items' : 'a list of items, or `items:` with one (see examples/manifest.yaml)' });
    const file = parseWith(ManifestFileSchema, source.data, { file: path, lineOf: source.lineOf });
    const list = Array.isArray(file) ? file : file.items;
    const prefix: PropertyKey[] = Array.isArray(file) ? [] : ['items'];
    if (!Array.isArray(file)) guideline = file.guideline;
    list.forEach((raw, k) => {
      const at = [...prefix, k];
      const item = parseWith(schema, raw, { file: path, lineOf: (p) => source.lineOf([...at, ...p]), pathPrefix: at }) as ManifestItem;
      items.push({ ...item, line: source.lineOf(at) ?? 0 });
    });
  } else {
    const reader = openTable(path);
    for (const { line, values } of reader.records) {
      const cleaned = reader.format === 'csv' ? dropEmpty(values) : values;
      const item = parseWith(schema, cleaned, { file: path, line }) as ManifestItem;
      items.push({ ...item, line });
    }
  }
  const seen = new Map<string, number>();
  for (const item of items) {
    const first = seen.get(item.item);
    if (first !== undefined) throw new InputError(`item "${item.item}" appears twice (first on line ${first})`, { file: path, line: item.line, value: item.item });
    seen.set(item.item, item.line);
    if (item.path !== undefined) resolveInside(path, item.path, item.line);
  }
  if (items.length === 0) throw new InputError('has no items', { file: path });
  return { source: path, guideline, items };
}

function dropEmpty(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (v !== '') out[k] = v;
  return out;
}

/**
 * Resolves an item's content path against the manifest's folder, refusing absolute paths and
 * any path that leaves the folder, so a manifest cannot make benchplan read arbitrary files.
 * @throws {InputError} for a path outside the folder.
 */
export function resolveInside(manifestPath: string, itemPath: string, line?: number): string {
  const base = resolve(dirname(manifestPath));
  const target = resolve(base, itemPath);
  const rel = relative(base, target);
  if (isAbsolute(itemPath) || rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel) || itemPath.includes('\0')) {
    throw new InputError("path must be a file inside the manifest's folder", { file: manifestPath, ...(line ? { line } : {}), field: 'path', value: itemPath });
  }
  return target;
}
