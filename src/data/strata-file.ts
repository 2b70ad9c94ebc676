import { z } from 'zod';
import { InputError } from './errors.js';
import { loadYaml } from './yaml.js';

/** One stratum's line in the strata file. */
export const StratumSpecSchema = z.strictObject({
  /** Share of production traffic, in [0, 1]; the shares sum to 1. */
  traffic: z.number().min(0).max(1).optional(),
  /** Share of the annotated set (shares summing to 1) or a whole count of items. */
  quota: z.number().min(0).optional(),
  /** Annotation cost of one item, for cost-optimal allocation (any positive unit). */
  cost: z.number().positive().optional(),
  /** Least and most items this stratum may get, and how many candidate items exist. */
  min: z.number().int().min(0).optional(),
  max: z.number().int().min(0).optional(),
  available: z.number().int().min(0).optional(),
});
export type StratumSpec = z.infer<typeof StratumSpecSchema>;

/** The strata file (DESIGN.md "Strata file"). */
export const StrataFileSchema = z.strictObject({
  strata: z.record(z.string().min(1), StratumSpecSchema),
});
export type StrataFile = z.infer<typeof StrataFileSchema>;

/** A stratum as the library uses it: the file's fields plus its name and line. */
export interface Stratum extends StratumSpec {
  name: string;
  /** Line of the stratum's key in the file (0 when built in memory). */
  line: number;
}

/** The strata, in file order, with what kind of quota they give. */
export interface Strata {
  source: string;
  strata: Stratum[];
  /** Every stratum has a traffic share (and they sum to 1). */
  hasTraffic: boolean;
  /** 'share' when quotas are shares summing to 1, 'count' when whole counts, null when absent. */
  quotaKind: 'share' | 'count' | null;
}

const SUM_TOLERANCE = 1e-6;

/**
 * Checks a parsed strata file and puts it in the library's form: traffic shares present on
 * all strata or none and summing to 1; quotas all shares summing to 1 or all whole counts;
 * min ≤ max.
 * @param lineOf maps a path in the file to its line, for messages.
 * @throws {InputError} naming the file, line and values.
 */
export function strataFromSpec(
  spec: StrataFile,
  source = '<strata>',
  lineOf: (path: ReadonlyArray<PropertyKey>) => number | undefined = () => undefined,
): Strata {
  const names = Object.keys(spec.strata);
  const at = (path: PropertyKey[]) => {
    const line = lineOf(path);
    return line === undefined ? { file: source } : { file: source, line };
  };
  if (names.length === 0) throw new InputError('strata: name at least one stratum', at(['strata']));
  const strata: Stratum[] = names.map((name) => ({ name, line: lineOf(['strata', name]) ?? 0, ...spec.strata[name] }));

  const withTraffic = strata.filter((s) => s.traffic !== undefined);
  if (withTraffic.length > 0 && withTraffic.length < strata.length) {
    const missing = strata.find((s) => s.traffic === undefined)!;
    throw new InputError(`strata.${missing.name}: traffic is given for some strata but not this one`, at(['strata', missing.name]));
  }
  if (withTraffic.length > 0) {
    const sum = strata.reduce((acc, s) => acc + (s.traffic ?? 0), 0);
    if (Math.abs(sum - 1) > SUM_TOLERANCE) {
      throw new InputError('strata: traffic shares must sum to 1', { ...at(['strata']), value: round(sum) });
    }
  }

  let quotaKind: Strata['quotaKind'] = null;
  const withQuota = strata.filter((s) => s.quota !== undefined);
  if (withQuota.length > 0 && withQuota.length < strata.length) {
    const missing = strata.find((s) => s.quota === undefined)!;
    throw new InputError(`strata.${missing.name}: quota is given for some strata but not this one`, at(['strata', missing.name]));
  }
  if (withQuota.length > 0) {
    const quotas = strata.map((s) => s.quota!);
    const sum = quotas.reduce((a, b) => a + b, 0);
    if (quotas.every((q) => q <= 1) && Math.abs(sum - 1) <= SUM_TOLERANCE) quotaKind = 'share';
    else if (quotas.every((q) => Number.isInteger(q))) quotaKind = 'count';
    else {
      throw new InputError('strata: quotas must be shares summing to 1 or whole item counts', { ...at(['strata']), value: round(sum) });
    }
  }
  for (const s of strata) {
    if (s.min !== undefined && s.max !== undefined && s.min > s.max) {
      throw new InputError(`strata.${s.name}: min must not exceed max`, { ...at(['strata', s.name, 'min']), value: `${s.min} > ${s.max}` });
    }
    if (s.min !== undefined && s.available !== undefined && s.min > s.available) {
      throw new InputError(`strata.${s.name}: min must not exceed available`, { ...at(['strata', s.name, 'min']), value: `${s.min} > ${s.available}` });
    }
  }
  return { source, strata, hasTraffic: withTraffic.length > 0, quotaKind };
}

/**
 * Loads a strata file (YAML): `strata: { name: { traffic, quota, cost, min, max, available } }`.
 * @throws {InputError} for unknown keys, values out of range, traffic not summing to 1, mixed quotas.
 */
export function loadStrata(path: string): Strata {
  const { value, source } = loadYaml(path, StrataFileSchema, { empty: 'a `strata:` mapping of stratum names to traffic and quota (see examples/strata.yaml)' });
  return strataFromSpec(value, path, source.lineOf);
}

function round(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}
