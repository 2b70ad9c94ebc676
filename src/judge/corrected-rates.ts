import { wilsonInterval } from '../costs/wilson.js';
import { normalQuantile } from '../distributions/index.js';
import type { JudgeShare } from './judge-agreement.js';
import { roganGladen, type RoganGladenResult } from './rogan-gladen.js';

/** One (item, candidate) row as the correction needs it: the judge's 0/1 call and the human's 0/1 label where labelled. */
export interface CorrectionRow {
  item: string;
  model: string;
  /** The judge's call, 0 or 1 (already thresholded for a graded judge). */
  judge: 0 | 1;
  /** The human label, 0 or 1; absent when the row was not labelled. */
  human?: 0 | 1;
  /** Rows of one cluster are resampled together in the difference's variance; default the item. */
  cluster?: string;
}

/** Where a candidate's sensitivity and specificity come from. */
export type CorrectionSource = 'per-candidate' | 'pooled';

/** A judge-only rate corrected for the judge's error (Rogan–Gladen), marked as corrected. */
export interface CorrectedRate extends RoganGladenResult {
  model: string;
  /** Always true: this is the judge's rate corrected by the measured error, not a human rate. */
  corrected: true;
  /** per-candidate: Se and Sp measured on this candidate's labelled rows; pooled: on every candidate's. */
  correctionSource: CorrectionSource;
  /** The labelled rows Se and Sp were measured on. */
  nLabelledForCorrection: number;
  /** The humans' rate on this candidate's labelled rows (Wilson), for comparison. */
  humanRate: JudgeShare;
  /**
   * Fieller's g = z²·Var(Ĵ)/Ĵ² for the denominator J = Se + Sp − 1, Var(Ĵ) = Se(1 − Se)/n₁ + Sp(1 − Sp)/n₀:
   * the delta interval is trustworthy for g well below 0.1; at g ≥ 1 the denominator's interval
   * reaches 0 and the rate's interval is [0, 1] (inconclusive).
   */
  fiellerG: number;
}

/** The corrected A − B with an interval that carries the dependence between the two corrections. */
export interface CorrectedDifference {
  a: string;
  b: string;
  correctionSource: CorrectionSource;
  /** Unclipped corrected A − unclipped corrected B. */
  estimate: number;
  /** Linearised (item-level influence, cluster-robust) standard error. */
  standardError: number;
  /** estimate ± z·SE, clipped to [−1, 1]. */
  confidenceInterval: [number, number];
  confidenceLevel: number;
  methodUsed: 'rogan-gladen-linearized';
  /** Independent units (clusters, or items) the variance sums over. */
  nClusters: number;
  warnings: string[];
}

/** Per-candidate corrected rates and their pairwise differences. */
export interface CorrectedRates {
  correctionSource: CorrectionSource;
  rates: CorrectedRate[];
  differences: CorrectedDifference[];
  warnings: string[];
}

interface Counts {
  judged: number;
  judgePositive: number;
  humanPositive: number;
  truePositive: number;
  humanNegative: number;
  trueNegative: number;
}

const emptyCounts = (): Counts => ({ judged: 0, judgePositive: 0, humanPositive: 0, truePositive: 0, humanNegative: 0, trueNegative: 0 });

function addRow(c: Counts, r: CorrectionRow, rates: boolean, labels: boolean): void {
  if (rates) {
    c.judged++;
    c.judgePositive += r.judge;
  }
  if (labels && r.human !== undefined) {
    if (r.human === 1) {
      c.humanPositive++;
      c.truePositive += r.judge;
    } else {
      c.humanNegative++;
      c.trueNegative += 1 - r.judge;
    }
  }
}

/**
 * The judge-only rate of each candidate corrected for the judge's measured sensitivity and
 * specificity (Rogan–Gladen), and the corrected A − B for every pair with an interval.
 *
 * Rate of candidate m: π̂ₘ = (p̂ₘ + Spₘ − 1) / (Seₘ + Spₘ − 1) where p̂ₘ is the judge's rate on all
 * of m's rows and Seₘ, Spₘ are measured on m's labelled rows (`per-candidate`, the default: a
 * judge that errs differently on each candidate is corrected for each) or on every candidate's
 * labelled rows (`pooled`: narrower, biased when the judge treats the candidates unequally).
 * Its interval is {@link roganGladen}'s delta method (Greiner & Gardner 2000), which carries the
 * uncertainty of p̂, Se and Sp.
 *
 * Difference A − B: π̂_A − π̂_B (unclipped) with a linearised variance. Every estimate is a
 * smooth function of ratios of sums over items (p̂ = Σ jᵢ / Σ dᵢ, Se = Σ tpᵢ / Σ h1ᵢ, …), so
 * π̂_A − π̂_B − (π_A − π_B) ≈ Σᵢ uᵢ with the item's influence
 * uᵢ = (1/J_A)(jᴬᵢ − p̂_A dᴬᵢ)/Σdᴬ − (π̂_A/J_A)(tpᴬᵢ − Se_A h1ᴬᵢ)/Σh1ᴬ + ((1 − π̂_A)/J_A)(tnᴬᵢ − Sp_A h0ᴬᵢ)/Σh0ᴬ − (the same for B),
 * and Var = Σ_c (Σ_{i∈c} uᵢ)² over clusters c (each item its own cluster by default). Summing
 * both candidates' terms per item before squaring carries every dependence: the two candidates
 * judged on the same items, labels on the same items, shared Se/Sp when pooled, and p̂ sharing
 * rows with Se/Sp. It equals the multivariate delta method on the item-level means with the
 * covariance divided by n (checked against an R computation by that route,
 * tests/reference/judge/corrected-rates.json). Both intervals lean on the denominator
 * J = Se + Sp − 1 being well away from 0: with Fieller's g = z²·Var(Ĵ)/Ĵ² above 0.1 a warning says
 * the interval is too narrow (on the bundled example, gamma's J = 0.27, g = 0.48: a paired
 * bootstrap's 95% range of alpha − gamma is 30% wider than the linearised one), and at g ≥ 1 the
 * interval is the whole range (inconclusive). Fieller (1954), JRSS B 16:175–185.
 * The rate's delta formula treats p̂, Se, Sp as independent; since the labelled rows are among
 * the judged rows, Cov(p̂, Se) ≥ 0 and Cov(p̂, Sp) ≤ 0 and both lower the true variance, so the
 * rate's interval is conservative; the difference's linearisation includes these covariances.
 * Reference: Rogan & Gladen (1978), Am. J. Epidemiol. 107:71–76; Greiner & Gardner (2000),
 * Prev. Vet. Med. 45:43–59; the linearisation of ratio estimators: Woodruff (1971), JASA 66:411–414.
 * @param rows one row per (item, candidate), 0/1 judge, optional 0/1 human label.
 * @param options `source` ('per-candidate' default, or 'pooled'), `confidenceLevel` (0.95).
 * @returns rates in the order candidates first appear, and one difference per pair (earlier − later).
 *   NaN with a warning where a candidate has no labelled positive or negative, or Se + Sp ≤ 1.
 * @throws {RangeError} for no rows, a judge or label not 0/1, or a repeated (item, candidate).
 * @example correctedRates([{ item: 'a', model: 'x', judge: 1, human: 1 }, { item: 'b', model: 'x', judge: 0, human: 0 }, { item: 'c', model: 'x', judge: 1 }]).rates[0].estimate // => 0.6666666666666666
 */
export function correctedRates(rows: readonly CorrectionRow[], options: { source?: CorrectionSource; confidenceLevel?: number } = {}): CorrectedRates {
  const source = options.source ?? 'per-candidate';
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  if (source !== 'per-candidate' && source !== 'pooled') throw new RangeError(`source must be "per-candidate" or "pooled" (got ${String(source)})`);
  if (rows.length === 0) throw new RangeError('correctedRates needs at least one row');
  const seen = new Set<string>();
  const models: string[] = [];
  for (const [k, r] of rows.entries()) {
    if (r.judge !== 0 && r.judge !== 1) throw new RangeError(`row ${k}: the judge's call must be 0 or 1 (got ${String(r.judge)})`);
    if (r.human !== undefined && r.human !== 0 && r.human !== 1) throw new RangeError(`row ${k}: the human label must be 0 or 1 (got ${String(r.human)})`);
    const key = JSON.stringify([r.item, r.model]);
    if (seen.has(key)) throw new RangeError(`row ${k}: item "${r.item}" appears twice for candidate "${r.model}"`);
    seen.add(key);
    if (!models.includes(r.model)) models.push(r.model);
  }
  const warnings: string[] = [];
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  // Totals: each candidate's judged rows, and the labelled rows its Se/Sp use.
  const own = new Map(models.map((m) => [m, emptyCounts()]));
  const pooledLabels = emptyCounts();
  for (const r of rows) {
    addRow(own.get(r.model) as Counts, r, true, true);
    addRow(pooledLabels, r, false, true);
  }
  const labelsOf = (m: string): Counts => (source === 'pooled' ? pooledLabels : (own.get(m) as Counts));
  const rates: CorrectedRate[] = models.map((model) => {
    const c = own.get(model) as Counts;
    const l = labelsOf(model);
    const rg = roganGladen({ judgePositive: c.judgePositive, judged: c.judged, humanPositive: l.humanPositive, truePositive: l.truePositive, humanNegative: l.humanNegative, trueNegative: l.trueNegative }, { confidenceLevel });
    for (const msg of rg.warnings) warnings.push(`${model}: Rogan–Gladen: ${msg}`);
    const w = wilsonInterval(c.humanPositive, c.humanPositive + c.humanNegative, { confidenceLevel });
    const J = rg.sensitivity + rg.specificity - 1;
    const fiellerG = (z * z * ((rg.sensitivity * (1 - rg.sensitivity)) / l.humanPositive + (rg.specificity * (1 - rg.specificity)) / l.humanNegative)) / (J * J);
    let confidenceInterval = rg.confidenceInterval;
    if (Number.isFinite(rg.unclippedEstimate) && fiellerG >= 1) {
      confidenceInterval = [0, 1];
      warnings.push(`${model}: the judge's sensitivity + specificity − 1 = ${J.toFixed(3)} is not distinguishable from 0 on ${l.humanPositive + l.humanNegative} labelled rows (Fieller's g = ${fiellerG.toFixed(2)} ≥ 1): the corrected rate is inconclusive, its interval is [0, 1]; label more of this candidate's items`);
    } else if (fiellerG > 0.1) {
      warnings.push(`${model}: the judge barely beats chance on the labelled rows (sensitivity + specificity − 1 = ${J.toFixed(3)}, Fieller's g = ${fiellerG.toFixed(2)} > 0.1): the delta-method interval of the corrected rate (and of its differences) is too narrow; label more of this candidate's items`);
    }
    return {
      model,
      ...rg,
      confidenceInterval,
      fiellerG,
      corrected: true as const,
      correctionSource: source,
      nLabelledForCorrection: l.humanPositive + l.humanNegative,
      humanRate: { estimate: w.estimate, confidenceInterval: w.confidenceInterval, successes: c.humanPositive, trials: c.humanPositive + c.humanNegative },
    };
  });

  // Influence of one row on a candidate's corrected rate (zero-mean over rows by construction).
  const influence = (r: CorrectionRow, m: string, sign: number, forRate: boolean, forLabels: boolean): number => {
    const rate = rates[models.indexOf(m)];
    const c = own.get(m) as Counts;
    const l = labelsOf(m);
    const J = rate.sensitivity + rate.specificity - 1;
    const pi = rate.unclippedEstimate;
    let u = 0;
    if (forRate) u += (r.judge - rate.judgeRate) / c.judged / J;
    if (forLabels && r.human === 1) u -= (pi / J) * (r.judge - rate.sensitivity) / l.humanPositive;
    if (forLabels && r.human === 0) u += ((1 - pi) / J) * (1 - r.judge - rate.specificity) / l.humanNegative;
    return sign * u;
  };
  const differences: CorrectedDifference[] = [];
  for (let x = 0; x < models.length; x++) {
    for (let y = x + 1; y < models.length; y++) {
      const [a, b] = [models[x], models[y]];
      const ra = rates[x];
      const rb = rates[y];
      const dw: string[] = [];
      const estimate = ra.unclippedEstimate - rb.unclippedEstimate;
      const totals = new Map<string, number>();
      if (Number.isFinite(estimate)) {
        for (const r of rows) {
          let u = 0;
          // Rate terms: a row counts toward its own candidate's p̂.
          if (r.model === a) u += influence(r, a, 1, true, source === 'per-candidate');
          if (r.model === b) u += influence(r, b, -1, true, source === 'per-candidate');
          // Pooled Se/Sp: every labelled row moves both candidates' corrections.
          if (source === 'pooled' && r.human !== undefined) u += influence(r, a, 1, false, true) + influence(r, b, -1, false, true);
          if (u === 0) continue;
          const key = r.cluster ?? r.item;
          totals.set(key, (totals.get(key) ?? 0) + u);
        }
      } else dw.push(`${a} − ${b}: a corrected rate is undefined, so is the difference`);
      let v = 0;
      for (const t of totals.values()) v += t * t;
      const standardError = Number.isFinite(estimate) ? Math.sqrt(v) : NaN;
      const unstable = ra.fiellerG >= 1 || rb.fiellerG >= 1;
      if (unstable && Number.isFinite(estimate)) dw.push(`${a} − ${b}: a correction's denominator is not distinguishable from 0: the interval is [−1, 1] (inconclusive)`);
      if (ra.estimate !== ra.unclippedEstimate || rb.estimate !== rb.unclippedEstimate) dw.push(`${a} − ${b}: a corrected rate was clipped to [0, 1]; the difference uses the unclipped rates`);
      const clusters = new Set(rows.filter((r) => r.model === a || r.model === b).map((r) => r.cluster ?? r.item)).size;
      differences.push({
        a,
        b,
        correctionSource: source,
        estimate,
        standardError,
        confidenceInterval: !Number.isFinite(estimate) ? [NaN, NaN] : unstable ? [-1, 1] : [Math.max(-1, estimate - z * standardError), Math.min(1, estimate + z * standardError)],
        confidenceLevel,
        methodUsed: 'rogan-gladen-linearized',
        nClusters: clusters,
        warnings: dw,
      });
      warnings.push(...dw);
    }
  }
  return { correctionSource: source, rates, differences, warnings: [...new Set(warnings)] };
}
