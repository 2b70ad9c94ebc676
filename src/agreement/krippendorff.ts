/** The level of measurement of Krippendorff's alpha: which difference function δ² it uses. */
export type AlphaLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';

/** Every level, in the order the CLI and docs list them. */
export const ALPHA_LEVELS: readonly AlphaLevel[] = ['nominal', 'ordinal', 'interval', 'ratio'];

/** A label as Krippendorff's alpha takes it: a category, a number, or null for missing. */
export type AlphaValue = string | number | null;

/** Krippendorff's alpha with the pieces it is computed from. */
export interface KrippendorffAlphaResult {
  /** α = 1 − D_o / D_e; NaN when undefined (no pairable values, or no variation). */
  alpha: number;
  level: AlphaLevel;
  /** D_o = (1/n) Σ_c Σ_k o_ck δ²_ck. */
  observedDisagreement: number;
  /** D_e = (1 / (n (n − 1))) Σ_c Σ_k n_c n_k δ²_ck. */
  expectedDisagreement: number;
  /** n: values in items with at least two labels (pairable values). */
  pairableValues: number;
  /** Items with at least two labels. */
  units: number;
  /** The distinct values, sorted (numerically for ordinal / interval / ratio). */
  values: Array<string | number>;
  /** The coincidence matrix o_ck (values × values), rows and columns in the order of `values`. */
  coincidences: number[][];
  warnings: string[];
}

/**
 * Krippendorff's alpha: agreement among any number of annotators, allowing missing labels,
 * for nominal, ordinal, interval or ratio labels.
 * From the coincidence matrix o_ck = Σ_u (n_uc n_uk − [c = k] n_uc) / (m_u − 1), summed over
 * units u with m_u ≥ 2 labels (n_uc: labels c in unit u), margins n_c = Σ_k o_ck, n = Σ_c n_c:
 *   α = 1 − D_o / D_e, D_o = (1/n) Σ_ck o_ck δ²_ck, D_e = Σ_ck n_c n_k δ²_ck / (n (n − 1)),
 * with δ²_ck = [c ≠ k] (nominal); (Σ_{g=c..k} n_g − (n_c + n_k)/2)² (ordinal, over ranks);
 * (c − k)² (interval); ((c − k) / (c + k))² (ratio).
 * α ≥ 0.800 is Krippendorff's standard for reliable data; 0.667 ≤ α < 0.800 for tentative conclusions.
 * Reference: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", Annenberg
 * School for Communication, University of Pennsylvania (its example: nominal 0.743, ordinal
 * 0.815, interval 0.849, ratio 0.797); R `irr::kripp.alpha(t(x), method)`.
 * @param units one row per item (unit), one column per annotator; null (or undefined) = missing.
 *   Rows may differ in length. For ordinal / interval / ratio, values must be numbers (or
 *   numeric strings); ratio values must be ≥ 0.
 * @param options.level default `'nominal'`.
 * @returns see KrippendorffAlphaResult; NaN with a warning when no item has two labels or
 *   every pairable label is the same value.
 * @throws {TypeError} when a value is not a number for a numeric level.
 * @throws {RangeError} on an unknown level, or a negative value at level ratio.
 * Cost: O(labels + V²) for V distinct values.
 * @example krippendorffAlpha([[1, 1], [2, 2], [1, 2]]).alpha // => 0.444… (1 − (2/6) / (18/30))
 */
export function krippendorffAlpha(units: ReadonlyArray<ReadonlyArray<AlphaValue | undefined>>, options: { level?: AlphaLevel } = {}): KrippendorffAlphaResult {
  const level = options.level ?? 'nominal';
  if (!ALPHA_LEVELS.includes(level)) throw new RangeError(`level must be one of ${ALPHA_LEVELS.join(', ')} (got ${String(level)})`);
  const warnings: string[] = [];
  const coded = codeUnits(units, level);
  const { values, unitCodes } = coded;
  const v = values.length;
  const o = Array.from({ length: v }, () => new Float64Array(v));
  const counts = new Float64Array(v);
  let pairable = 0;
  for (const codes of unitCodes) {
    const m = codes.length;
    if (m < 2) continue;
    pairable += 1;
    counts.fill(0);
    const present: number[] = [];
    for (const c of codes) {
      if (counts[c] === 0) present.push(c);
      counts[c] += 1;
    }
    for (const c of present) for (const k of present) o[c][k] += (counts[c] * counts[k] - (c === k ? counts[c] : 0)) / (m - 1);
  }
  const margins = o.map((row) => row.reduce((s, x) => s + x, 0));
  const n = margins.reduce((s, x) => s + x, 0);
  const delta = differenceFunction(level, values as number[], margins);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < v; c++) for (let k = 0; k < v; k++) {
    if (c === k) continue;
    const d = delta(c, k);
    observed += o[c][k] * d;
    expected += margins[c] * margins[k] * d;
  }
  observed /= n;
  expected /= n * (n - 1);
  const base = { level, pairableValues: Math.round(n), units: pairable, values, coincidences: o.map((row) => Array.from(row)) };
  if (pairable === 0) {
    warnings.push('no item has labels from two annotators: alpha is undefined');
    return { alpha: NaN, observedDisagreement: NaN, expectedDisagreement: NaN, ...base, warnings };
  }
  if (!(expected > 0)) {
    warnings.push('every pairable label is the same value: alpha is undefined (no variation to agree on)');
    return { alpha: NaN, observedDisagreement: observed, expectedDisagreement: expected, ...base, warnings };
  }
  return { alpha: 1 - observed / expected, observedDisagreement: observed, expectedDisagreement: expected, ...base, warnings };
}

/** Values in sorted order and each unit's present values as indices into them. */
function codeUnits(units: ReadonlyArray<ReadonlyArray<AlphaValue | undefined>>, level: AlphaLevel): { values: Array<string | number>; unitCodes: number[][] } {
  const numeric = level !== 'nominal';
  const present = units.map((row) => row.filter((x): x is string | number => x !== null && x !== undefined));
  let keys: Array<Array<string | number>>;
  if (numeric) {
    keys = present.map((row) =>
      row.map((x) => {
        const value = typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : NaN;
        if (!Number.isFinite(value)) throw new TypeError(`krippendorffAlpha at level ${level} needs numeric labels (got ${JSON.stringify(x)})`);
        if (level === 'ratio' && value < 0) throw new RangeError(`krippendorffAlpha at level ratio needs labels ≥ 0 (got ${value})`);
        return value;
      }),
    );
  } else {
    keys = present.map((row) => row.map((x) => (typeof x === 'number' ? String(x) : x)));
  }
  const distinct = [...new Set(keys.flat())];
  const values = numeric ? (distinct as number[]).sort((a, b) => a - b) : (distinct as string[]).sort();
  const index = new Map<string | number, number>(values.map((value, k) => [value, k]));
  return { values, unitCodes: keys.map((row) => row.map((key) => index.get(key) as number)) };
}

/** δ²(c, k) for value indices c, k at a level; ordinal uses the margins n_g. */
function differenceFunction(level: AlphaLevel, values: number[], margins: number[]): (c: number, k: number) => number {
  switch (level) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1);
    case 'interval':
      return (c, k) => (values[c] - values[k]) ** 2;
    case 'ratio':
      return (c, k) => {
        const sum = values[c] + values[k];
        return sum === 0 ? 0 : ((values[c] - values[k]) / sum) ** 2;
      };
    case 'ordinal': {
      // Cumulative margins: Σ_{g=c..k} n_g = cum[k + 1] − cum[c] for c ≤ k.
      const cum = [0];
      for (const x of margins) cum.push(cum[cum.length - 1] + x);
      return (c, k) => {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        return (cum[hi + 1] - cum[lo] - (margins[c] + margins[k]) / 2) ** 2;
      };
    }
  }
}
