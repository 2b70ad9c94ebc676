import { normalQuantile } from '../distributions/index.js';

/** Cohen's kappa between two annotators, with its large-sample standard error and interval. */
export interface CohenKappaResult {
  /** κ = (p_o − p_e) / (1 − p_e); NaN when undefined (no paired items, or one category only). */
  kappa: number;
  /** SE of κ under the alternative (Fleiss, Cohen & Everitt 1969): psych `sqrt(var.kappa)`, statsmodels `std_kappa`. */
  standardError: number;
  /** SE of κ under H0: κ = 0 (statsmodels `std_kappa0`), for testing agreement beyond chance. */
  standardErrorNull: number;
  /** κ ∓ z · standardError, clipped to [−1, 1] as psych does. */
  interval: [number, number];
  confidenceLevel: number;
  /** Items both annotators labelled. */
  n: number;
  /** Items dropped because one or both labels were missing. */
  dropped: number;
  /** p_o: share of paired items with the same label. */
  observedAgreement: number;
  /** p_e = Σ_c p_A(c) p_B(c): agreement expected from the two annotators' label shares alone. */
  expectedAgreement: number;
  /** The labels seen, sorted. */
  categories: string[];
  warnings: string[];
}

/**
 * Cohen's kappa for two annotators on the items both labelled: agreement beyond what their
 * label shares alone would give by chance.
 * κ = (p_o − p_e) / (1 − p_e), p_o = Σ_c p_cc, p_e = Σ_c p_c· p_·c over the c × c table p of
 * label pairs. Standard error (Fleiss, Cohen & Everitt 1969, "Large sample standard errors of
 * kappa and weighted kappa", Psychological Bulletin 72:323–327):
 *   Var κ = [ Σ_c p_cc ((1 − p_e) − (p_c· + p_·c)(1 − p_o))²
 *             + (1 − p_o)² Σ_{c≠k} p_ck (p_·c + p_k·)² − (p_o p_e − 2 p_e + p_o)² ] / (n (1 − p_e)⁴).
 * Under H0 κ = 0: Var₀ κ = (p_e + p_e² − Σ_c p_c· p_·c (p_c· + p_·c)) / (n (1 − p_e)²).
 * Interval κ ± Φ⁻¹(1 − α/2) · SE, clipped to [−1, 1].
 * Reference: R `psych::cohen.kappa(cbind(a, b))` (kappa, var.kappa, confid);
 * Python `statsmodels.stats.inter_rater.cohens_kappa(table)` (kappa, std_kappa, std_kappa0).
 * @param a labels of the first annotator, one per item; null = missing.
 * @param b labels of the second annotator, aligned with `a`.
 * @param options.confidenceLevel in (0, 1); default 0.95.
 * @returns see CohenKappaResult; NaN with a warning when no item has both labels or only one
 *   label value occurs (then p_e = 1 and κ is 0/0).
 * @throws {TypeError} when a and b differ in length. @throws {RangeError} on a bad confidenceLevel.
 * Cost: O(n + c²).
 * @example cohenKappa(['y','y','n','n'], ['y','n','n','n']).kappa // => 0.5
 */
export function cohenKappa(a: ReadonlyArray<string | null>, b: ReadonlyArray<string | null>, options: { confidenceLevel?: number } = {}): CohenKappaResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  if (a.length !== b.length) throw new TypeError(`cohenKappa needs two label vectors of the same length (got ${a.length} and ${b.length})`);
  const warnings: string[] = [];
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== null && x !== undefined && y !== null && y !== undefined) pairs.push([x, y]);
  }
  const n = pairs.length;
  const dropped = a.length - n;
  const categories = [...new Set(pairs.flat())].sort();
  const base = { confidenceLevel, n, dropped, categories };
  if (n === 0) {
    warnings.push('no item has labels from both annotators: kappa is undefined');
    return { kappa: NaN, standardError: NaN, standardErrorNull: NaN, interval: [NaN, NaN], observedAgreement: NaN, expectedAgreement: NaN, ...base, warnings };
  }
  const c = categories.length;
  const index = new Map(categories.map((label, k) => [label, k]));
  // Count in integers, then divide once: p_o is then exactly 1 when every pair agrees.
  const count = Array.from({ length: c }, () => new Float64Array(c));
  for (const [x, y] of pairs) count[index.get(x) as number][index.get(y) as number] += 1;
  const p = count.map((r) => r.map((k) => k / n));
  let agreeing = 0;
  for (let i = 0; i < c; i++) agreeing += count[i][i];
  const row = new Float64Array(c);
  const col = new Float64Array(c);
  for (let i = 0; i < c; i++) for (let j = 0; j < c; j++) {
    row[i] += p[i][j];
    col[j] += p[i][j];
  }
  const po = agreeing / n;
  let pe = 0;
  for (let i = 0; i < c; i++) pe += row[i] * col[i];
  if (!(pe < 1)) {
    warnings.push(`both annotators used only the label "${categories[0]}": kappa is undefined (no variation to agree on)`);
    return { kappa: NaN, standardError: NaN, standardErrorNull: NaN, interval: [NaN, NaN], observedAgreement: po, expectedAgreement: pe, ...base, warnings };
  }
  const kappa = (po - pe) / (1 - pe);
  let diagonal = 0;
  let offDiagonal = 0;
  let nullTerm = 0;
  for (let i = 0; i < c; i++) {
    diagonal += p[i][i] * ((1 - pe) - (row[i] + col[i]) * (1 - po)) ** 2;
    nullTerm += row[i] * col[i] * (row[i] + col[i]);
    for (let j = 0; j < c; j++) if (i !== j) offDiagonal += p[i][j] * (col[i] + row[j]) ** 2;
  }
  // At p_o = 1 the variance is exactly 0: the off-diagonal cells are empty and the diagonal sum is
  // (1 − p_e)² Σ p_cc = (1 − p_e)², the last term. Evaluated in floating point the two cancel only to
  // ~1e-16, which the square root turns into an SE of ~1e-8, so that case is set to its exact value.
  // Elsewhere rounding can leave a tiny negative variance; psych sets it to 0 too.
  const variance = agreeing === n ? 0 : (diagonal + (1 - po) ** 2 * offDiagonal - (po * pe - 2 * pe + po) ** 2) / (n * (1 - pe) ** 4);
  const standardError = Math.sqrt(Math.max(0, variance));
  const standardErrorNull = Math.sqrt(Math.max(0, (pe + pe * pe - nullTerm) / (n * (1 - pe) ** 2)));
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const clip = (x: number) => Math.min(1, Math.max(-1, x));
  if (po === 1) warnings.push(`the two annotators agree on all ${n} items: the large-sample standard error is 0, so the interval [1, 1] says nothing about sampling error`);
  if (n < 10) warnings.push(`only ${n} items have labels from both annotators: the standard error of kappa is a large-sample formula and is rough here`);
  return {
    kappa,
    standardError,
    standardErrorNull,
    interval: [clip(kappa - z * standardError), clip(kappa + z * standardError)],
    observedAgreement: po,
    expectedAgreement: pe,
    ...base,
    warnings,
  };
}
