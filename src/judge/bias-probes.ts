import { holmAdjust } from '../paired/holm.js';
import { normalQuantile } from '../distributions/index.js';
import { createRng, type Seed } from '../random/index.js';
import { hc3Design, hc3Statistic, olsHc3 } from './ols-hc3.js';

/** One predictor of the judge's error: a name and its value on every labelled row. */
export interface ProbeTerm {
  name: string;
  values: ArrayLike<number>;
}

/** Options of {@link biasProbes}. */
export interface BiasProbesOptions {
  /** Two-sided level of the HC3 intervals; default 0.95. */
  confidenceLevel?: number;
  /** Family-wise false-alarm rate across the probes (Holm); default 0.05. */
  alpha?: number;
  /** Permutations per probe; default 999. */
  nPermutations?: number;
  seed?: Seed;
  /**
   * Terms in the regression that are not tested (default none). validateJudge passes the human
   * label: a judge's error depends on the truth (−1 only on human 1, +1 only on human 0), so a
   * probe that predicts the truth (longer outputs are more often right, one candidate is better)
   * would look like bias without it.
   */
  controls?: readonly ProbeTerm[];
}

/** One probe's verdict. */
export interface BiasProbe {
  name: string;
  /** Change in the judge's mean error (judge − human) per unit of the predictor, others held fixed. */
  estimate: number;
  /** HC3 robust standard error. */
  standardError: number;
  /** estimate ± z·SE. */
  confidenceInterval: [number, number];
  /** estimate / SE (the HC3 t statistic). */
  statistic: number;
  /** Freedman–Lane permutation p-value of |statistic|: (1 + #{|t*| ≥ |t|}) / (B + 1). */
  pValue: number;
  /** Holm-adjusted across the probes. */
  adjustedPValue: number;
  verdict: 'bias detected' | 'not detected';
}

/** The bias probes: one regression of the judge's error on every probe at once. */
export interface BiasProbesResult {
  method: 'ols-hc3-freedman-lane';
  n: number;
  confidenceLevel: number;
  alpha: number;
  nPermutations: number;
  seed: Seed;
  /** The intercept: the judge's mean error when every predictor is 0. */
  intercept: number;
  /** The untested control terms, with their coefficients. */
  controls: Array<{ name: string; estimate: number }>;
  probes: BiasProbe[];
  warnings: string[];
}

/**
 * Bias probes for an LLM judge: its error e = judge − human on labelled rows regressed on every
 * probe at once (output length, position in a pairwise prompt, an indicator of the judge's own
 * model family, named covariates) and untested controls c_k (the human label), e = β₀ + Σ_k γ_k c_k + Σ_j β_j x_j + ε, with HC3 robust standard errors
 * ({@link olsHc3}). Each β_j is tested with the Freedman–Lane permutation test of its HC3 t
 * statistic: fit the model without x_j, permute its residuals, add them back to its fitted values,
 * refit the full model, B times; p_j = (1 + #{|t*_j| ≥ |t_j|}) / (B + 1). The studentized statistic
 * keeps the test valid under heteroskedastic errors asymptotically, and the permutation makes it
 * near-exact at small n. The p-values are Holm-adjusted ({@link holmAdjust}) so the chance of any
 * false alarm across the probes is ≤ alpha; a probe with adjusted p < alpha says 'bias detected'.
 * Rows are taken as exchangeable under the null: rows of one item (several candidates) share the
 * item's difficulty, which the probes' within-item contrasts (self-preference, position) do not see.
 * Reference: Freedman & Lane (1983), J. Bus. Econ. Stat. 1:292–298; Winkler et al. (2014),
 * NeuroImage 92 (studentized Freedman–Lane); HC3 as R `sandwich::vcovHC(type = "HC3")`.
 * @param error e = judge − human, one per labelled row.
 * @param terms the probes, each with a value on every row.
 * @returns see {@link BiasProbesResult}. A probe that is constant or collinear with the others is
 *   dropped with a warning.
 * @throws {RangeError} when a term's length differs from error's, no term is given, or there are
 *   not more rows than terms + 1.
 * Cost O(B · p · n · p²) for p probes.
 * @example biasProbes(error, [{ name: 'length', values: length }], { seed: 0 }).probes[0].verdict // => 'bias detected' on a planted length bias
 */
export function biasProbes(error: ArrayLike<number>, terms: readonly ProbeTerm[], options: BiasProbesOptions = {}): BiasProbesResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const alpha = options.alpha ?? 0.05;
  const B = options.nPermutations ?? 999;
  const seed = options.seed ?? 0;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1) (got ${alpha})`);
  if (!(Number.isInteger(B) && B >= 1)) throw new RangeError(`nPermutations must be a whole number ≥ 1 (got ${B})`);
  if (terms.length === 0) throw new RangeError('biasProbes needs at least one probe term');
  const n = error.length;
  const controls = options.controls ?? [];
  for (const t of [...terms, ...controls]) if (t.values.length !== n) throw new RangeError(`term "${t.name}" has ${t.values.length} values for ${n} rows`);
  const warnings: string[] = [];
  // A control that is constant (every labelled row has the same human label) is left out silently.
  const keptControls: ProbeTerm[] = [];
  for (const c of controls) {
    try {
      if (n > keptControls.length + 2) {
        olsHc3(error, design([...keptControls, c], n));
        keptControls.push(c);
      }
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
  }
  const q = keptControls.length;
  // Drop terms that are constant or collinear, one at a time, in the order given.
  const kept: ProbeTerm[] = [];
  for (const t of terms) {
    const trial = [...keptControls, ...kept, t];
    if (n <= trial.length + 1) {
      warnings.push(`probe "${t.name}" left out: ${n} labelled rows are too few for ${trial.length - q} probes, ${q} controls and an intercept`);
      continue;
    }
    try {
      olsHc3(error, design(trial, n));
      kept.push(t);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      warnings.push(`probe "${t.name}" left out: it is constant on the labelled rows or a combination of the other probes`);
    }
  }
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  if (kept.length === 0) return { method: 'ols-hc3-freedman-lane', n, confidenceLevel, alpha, nPermutations: B, seed, intercept: NaN, controls: [], probes: [], warnings };
  const X = design([...keptControls, ...kept], n);
  const full = olsHc3(error, X);
  const at = (j: number) => 1 + q + j;
  const pValues = kept.map((t, j) => permutationPValue(error, X, at(j), full.statistic[at(j)], B, createRng(seed, 'probe', t.name)));
  const adjusted = holmAdjust(pValues);
  const probes: BiasProbe[] = kept.map((t, j) => {
    const b = full.coefficients[at(j)];
    const se = full.standardError[at(j)];
    return {
      name: t.name,
      estimate: b,
      standardError: se,
      confidenceInterval: [b - z * se, b + z * se],
      statistic: full.statistic[at(j)],
      pValue: pValues[j],
      adjustedPValue: adjusted[j],
      verdict: adjusted[j] < alpha ? 'bias detected' : 'not detected',
    };
  });
  return { method: 'ols-hc3-freedman-lane', n, confidenceLevel, alpha, nPermutations: B, seed, intercept: full.coefficients[0], controls: keptControls.map((c, k) => ({ name: c.name, estimate: full.coefficients[1 + k] })), probes, warnings };
}

function design(terms: readonly ProbeTerm[], n: number): number[][] {
  return Array.from({ length: n }, (_, i) => [1, ...terms.map((t) => t.values[i])]);
}

/** Freedman–Lane: permute the residuals of the model without column j; count |t*_j| ≥ |t_j|. */
function permutationPValue(y: ArrayLike<number>, X: number[][], j: number, observed: number, B: number, rng: ReturnType<typeof createRng>): number {
  if (!Number.isFinite(observed)) return 1;
  const n = y.length;
  const reducedX = X.map((row) => row.filter((_, c) => c !== j));
  const reduced = olsHc3(y, reducedX);
  const fitted = new Float64Array(n);
  for (let i = 0; i < n; i++) fitted[i] = y[i] - reduced.residuals[i];
  const order = Array.from({ length: n }, (_, i) => i);
  const ystar = new Float64Array(n);
  const fixed = hc3Design(X);
  const beta = new Float64Array(fixed.k);
  const target = Math.abs(observed) * (1 - 1e-12);
  let count = 0;
  for (let b = 0; b < B; b++) {
    for (let i = n - 1; i > 0; i--) {
      const k = rng.nextInt(i + 1);
      const tmp = order[i];
      order[i] = order[k];
      order[k] = tmp;
    }
    for (let i = 0; i < n; i++) ystar[i] = fitted[i] + reduced.residuals[order[i]];
    const t = hc3Statistic(fixed, ystar, j, beta);
    if (Math.abs(t) >= target || !Number.isFinite(t)) count++;
  }
  return (1 + count) / (B + 1);
}
