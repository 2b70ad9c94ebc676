/** Ordinary least squares with heteroskedasticity-consistent (HC3) standard errors. */
export interface OlsHc3Result {
  /** β̂ = (XᵀX)⁻¹ Xᵀ y, one per column of X. */
  coefficients: number[];
  /** √diag of the HC3 covariance, one per coefficient. */
  standardError: number[];
  /** β̂_j / SE_j. */
  statistic: number[];
  /** y − Xβ̂. */
  residuals: Float64Array;
  /** Rows n and columns k. */
  n: number;
  k: number;
}

/**
 * OLS fit of y on the columns of X with HC3 ("jackknife-like") robust standard errors, valid
 * when the error variance differs between rows (a judge's error on 0/1 labels always does).
 *
 * β̂ = (XᵀX)⁻¹Xᵀy, e = y − Xβ̂, h_i = x_iᵀ(XᵀX)⁻¹x_i (leverage),
 * V_HC3 = (XᵀX)⁻¹ [Σ_i x_i x_iᵀ e_i² / (1 − h_i)²] (XᵀX)⁻¹, SE_j = √V_jj.
 * A row with leverage 1 (a column that picks out a single row) has no HC3 term: its e_i is 0
 * and 0/0 is taken as 0, as sandwich does not; avoid such columns.
 * Reference: MacKinnon & White (1985), J. Econometrics 29:305–325; Long & Ervin (2000);
 * R `sandwich::vcovHC(lm(y ~ X), type = "HC3")`, statsmodels `OLS(y, X).fit(cov_type="HC3")`
 * (tests/reference/judge/hc3.json).
 * @param y responses, length n. @param X rows of predictors, each of length k (include a column
 *   of 1s for an intercept).
 * @returns see {@link OlsHc3Result}.
 * @throws {RangeError} when n ≤ k, a value is not finite, rows differ in length, or XᵀX is
 *   singular (a constant or collinear predictor).
 * Cost O(n k²).
 * @example olsHc3([1, 2, 2, 4], [[1, 0], [1, 1], [1, 2], [1, 3]]).coefficients // => [0.9, 0.9]
 */
export function olsHc3(y: ArrayLike<number>, X: ReadonlyArray<ArrayLike<number>>): OlsHc3Result {
  const n = y.length;
  if (X.length !== n) throw new RangeError(`olsHc3: y has ${n} rows but X has ${X.length}`);
  const k = n > 0 ? X[0].length : 0;
  if (!(n > k && k >= 1)) throw new RangeError(`olsHc3 needs more rows than columns (got ${n} rows, ${k} columns)`);
  for (let i = 0; i < n; i++) {
    if (X[i].length !== k) throw new RangeError(`olsHc3: row ${i} of X has ${X[i].length} columns, not ${k}`);
    if (!Number.isFinite(y[i])) throw new RangeError(`olsHc3: y[${i}] must be finite (got ${y[i]})`);
    for (let j = 0; j < k; j++) if (!Number.isFinite(X[i][j])) throw new RangeError(`olsHc3: X[${i}][${j}] must be finite (got ${X[i][j]})`);
  }
  const inverse = invertGram(X, k);
  const xty = new Float64Array(k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) xty[j] += X[i][j] * y[i];
  const coefficients = Array.from({ length: k }, (_, j) => {
    let s = 0;
    for (let l = 0; l < k; l++) s += inverse[j][l] * xty[l];
    return s;
  });
  const residuals = new Float64Array(n);
  const meat = Array.from({ length: k }, () => new Float64Array(k));
  const ax = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let fit = 0;
    for (let j = 0; j < k; j++) fit += X[i][j] * coefficients[j];
    const e = y[i] - fit;
    residuals[i] = e;
    // h_i = x_iᵀ A x_i with A = (XᵀX)⁻¹.
    let h = 0;
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let l = 0; l < k; l++) s += inverse[j][l] * X[i][l];
      ax[j] = s;
      h += X[i][j] * s;
    }
    const w = 1 - h > 1e-12 ? (e * e) / ((1 - h) * (1 - h)) : 0;
    if (w === 0) continue;
    for (let j = 0; j < k; j++) for (let l = 0; l < k; l++) meat[j][l] += w * X[i][j] * X[i][l];
  }
  const standardError = new Array<number>(k);
  for (let j = 0; j < k; j++) {
    // (A M A)_jj = Σ_l Σ_m A_jl M_lm A_mj.
    let v = 0;
    for (let l = 0; l < k; l++) {
      let s = 0;
      for (let m = 0; m < k; m++) s += meat[l][m] * inverse[m][j];
      v += inverse[j][l] * s;
    }
    standardError[j] = Math.sqrt(Math.max(0, v));
  }
  return { coefficients, standardError, statistic: coefficients.map((b, j) => b / standardError[j]), residuals, n, k };
}

/** (XᵀX)⁻¹ by Gauss–Jordan with partial pivoting; refuses a singular (collinear) design. */
function invertGram(X: ReadonlyArray<ArrayLike<number>>, k: number): Float64Array[] {
  const a = Array.from({ length: k }, () => new Float64Array(2 * k));
  for (const row of X) for (let j = 0; j < k; j++) for (let l = 0; l < k; l++) a[j][l] += row[j] * row[l];
  const scale = Math.max(...a.map((r, j) => r[j]));
  for (let j = 0; j < k; j++) a[j][k + j] = 1;
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    if (!(Math.abs(a[p][c]) > 1e-10 * scale)) throw new RangeError(`olsHc3: XᵀX is singular (column ${c} is constant or a combination of the others)`);
    [a[c], a[p]] = [a[p], a[c]];
    const pivot = a[c][c];
    for (let l = 0; l < 2 * k; l++) a[c][l] /= pivot;
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = a[r][c];
      if (f === 0) continue;
      for (let l = 0; l < 2 * k; l++) a[r][l] -= f * a[c][l];
    }
  }
  return a.map((r) => r.slice(k));
}

/** A fixed design's pieces for refitting many responses fast: (XᵀX)⁻¹x_i per row and the leverages. */
export interface Hc3Design {
  n: number;
  k: number;
  /** ax[j][i] = ((XᵀX)⁻¹ x_i)_j, so β̂_j = Σ_i ax[j][i] y_i. */
  ax: Float64Array[];
  /** Rows of X, flattened (row-major). */
  x: Float64Array;
  /** 1 / (1 − h_i)², 0 where h_i = 1. */
  hc3Weight: Float64Array;
}

/**
 * Precomputes a design for {@link hc3Statistic}: with X fixed and many responses y (a permutation
 * test), β̂ = Σ_i ((XᵀX)⁻¹x_i) y_i and V_HC3,jj = Σ_i ((XᵀX)⁻¹x_i)_j² e_i² / (1 − h_i)², so each
 * refit is O(n k) instead of O(n k²). Same numbers as {@link olsHc3}.
 * @throws {RangeError} as olsHc3 for a singular design.
 * @example hc3Statistic(hc3Design([[1, 0], [1, 1], [1, 2], [1, 3]]), [1, 2, 2, 4], 1) // => olsHc3's statistic[1]
 */
export function hc3Design(X: ReadonlyArray<ArrayLike<number>>): Hc3Design {
  const n = X.length;
  const k = n > 0 ? X[0].length : 0;
  if (!(n > k && k >= 1)) throw new RangeError(`hc3Design needs more rows than columns (got ${n} rows, ${k} columns)`);
  const inverse = invertGram(X, k);
  const ax = Array.from({ length: k }, () => new Float64Array(n));
  const x = new Float64Array(n * k);
  const hc3Weight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0;
    for (let j = 0; j < k; j++) {
      x[i * k + j] = X[i][j];
      let s = 0;
      for (let l = 0; l < k; l++) s += inverse[j][l] * X[i][l];
      ax[j][i] = s;
      h += X[i][j] * s;
    }
    hc3Weight[i] = 1 - h > 1e-12 ? 1 / ((1 - h) * (1 - h)) : 0;
  }
  return { n, k, ax, x, hc3Weight };
}

/**
 * The HC3 t statistic β̂_j / SE_HC3,j of column j for response y on a design from {@link hc3Design}.
 * @param beta scratch of length k (reused across calls to avoid allocation).
 */
export function hc3Statistic(d: Hc3Design, y: ArrayLike<number>, j: number, beta: Float64Array = new Float64Array(d.k)): number {
  const { n, k, ax, x, hc3Weight } = d;
  for (let c = 0; c < k; c++) {
    const a = ax[c];
    let s = 0;
    for (let i = 0; i < n; i++) s += a[i] * y[i];
    beta[c] = s;
  }
  const aj = ax[j];
  let v = 0;
  for (let i = 0; i < n; i++) {
    let fit = 0;
    const base = i * k;
    for (let c = 0; c < k; c++) fit += x[base + c] * beta[c];
    const e = y[i] - fit;
    v += aj[i] * aj[i] * e * e * hc3Weight[i];
  }
  return beta[j] / Math.sqrt(v);
}
