/** Options of {@link designLabels}. */
export interface DesignLabelsOptions {
  /** Share of items where the candidates' outputs agree, in [0, 1) (for select). */
  agreeShare?: number;
  /** select's audit share of the budget, in [0, 1); default 0.1. */
  auditShare?: number;
  /** Correlation of the judge's A − B with the humans' A − B, in [−1, 1] (for PPI++). */
  judgeCorrelation?: number;
  /** Items the judge scores (labelled and not); default Infinity (judge scores are cheap). */
  judgedItems?: number;
}

/** Human labels each design needs for the interval (or power) a plain random sample of n gives. */
export interface DesignLabelsResult {
  /** The plain paired design's labels (the input). */
  plain: number;
  /**
   * select: labels = ⌈(1 − s) · n / (1 − audit share)⌉ (every disagreement of an n-item pool plus
   * the audit), and the unlabelled pool it needs (n items with both candidates' outputs). null without agreeShare.
   */
  select: { labels: number; poolItems: number; agreeShare: number; auditShare: number } | null;
  /**
   * PPI++: the n' with Var_PPI(n') = σ²/n, Var_PPI(n') = (σ²/n')(1 − ρ² (T − n')/T), so
   * n' = ⌈n (1 − ρ²) / (1 − n ρ²/T)⌉ (T judged items; n (1 − ρ²) when T = ∞). null without judgeCorrelation.
   */
  ppi: { labels: number; judgeCorrelation: number; judgedItems: number } | null;
  warnings: string[];
}

/**
 * Human labels each annotation design needs for the same interval width (or power) as `plain`
 * random labels, from the quantities that drive each: the share of items where the candidates
 * agree (select) and the judge–human correlation of the paired difference (PPI++).
 * select: an n-item pool whose disagreements are all labelled has the interval of n labelled
 * items (agreeing items have difference 0), so it needs (1 − s)·n labels plus the audit.
 * PPI++: with the optimal λ the variance is (σ²/n')(1 − ρ² N/(n' + N)), N = T − n' unlabelled
 * (Angelopoulos, Duchi & Zrnic 2023, §2; the 1 − ρ² factor of a regression estimator, Cochran §7.1);
 * it has a solution n' ≤ T only when T ≥ plain, so fewer judged items than `plain` leave the plain
 * count (with a warning).
 * These are large-sample planning counts; bench/efficiency.ts measures them by simulation
 * (0.22× at 80% agreement; 0.54× at correlation 0.7 with 200 of 4000 items labelled).
 * The active design has no closed form here: plan it as select and let its π favour the uncertain.
 * @param plain labels the plain paired design needs (e.g. `size`'s n or nForPower), a whole number ≥ 1.
 * @returns see {@link DesignLabelsResult}.
 * @throws {RangeError} for a plain count below 1 or not whole, a share outside [0, 1), a correlation outside [−1, 1], or judgedItems < 1.
 * @example designLabels(264, { agreeShare: 0.8, judgeCorrelation: 0.7 }).select.labels // => 59 = ⌈0.2 · 264 / 0.9⌉
 */
export function designLabels(plain: number, options: DesignLabelsOptions = {}): DesignLabelsResult {
  if (!(Number.isInteger(plain) && plain >= 1)) throw new RangeError(`plain must be a whole number ≥ 1 (got ${plain})`);
  const warnings: string[] = [];
  let select: DesignLabelsResult['select'] = null;
  if (options.agreeShare !== undefined) {
    const s = options.agreeShare;
    const audit = options.auditShare ?? 0.1;
    if (!(s >= 0 && s < 1)) throw new RangeError(`agreeShare must be in [0, 1) (got ${s})`);
    if (!(audit >= 0 && audit < 1)) throw new RangeError(`auditShare must be in [0, 1) (got ${audit})`);
    select = { labels: Math.min(plain, Math.ceil(((1 - s) * plain) / (1 - audit) - 1e-9)), poolItems: plain, agreeShare: s, auditShare: audit };
  }
  let ppi: DesignLabelsResult['ppi'] = null;
  if (options.judgeCorrelation !== undefined) {
    const rho = options.judgeCorrelation;
    const T = options.judgedItems ?? Infinity;
    if (!(rho >= -1 && rho <= 1)) throw new RangeError(`judgeCorrelation must be in [−1, 1] (got ${rho})`);
    if (!(T >= 1)) throw new RangeError(`judgedItems must be ≥ 1 (got ${T})`);
    const r2 = rho * rho;
    let labels: number;
    if (rho < 0) {
      // λ is clipped to [0, 1]: an anti-correlated judge gets λ = 0 and PPI++ is the labels alone.
      warnings.push('a negative judge–human correlation: the tuned λ clips to 0, so PPI++ falls back to the labels alone; check the judge');
      labels = plain;
    } else if (T < plain) {
      // Labelling all T judged items gives σ²/T > σ²/plain: the judge cannot make up for items it
      // never scored (n' = plain(1 − ρ²)/(1 − plain·ρ²/T) has no solution n' ≤ T).
      warnings.push(`the judge scores only ${T} items, fewer than the ${plain} labels the plain design needs: even labelling every judged item gives a wider interval, so PPI++ saves nothing here; judge more items`);
      labels = plain;
    } else {
      const numerator = plain * (1 - r2);
      labels = numerator <= 0 ? 2 : Math.max(2, Math.min(plain, Math.ceil(numerator / (1 - (Number.isFinite(T) ? (plain * r2) / T : 0)) - 1e-9)));
    }
    if (Number.isFinite(T) && T >= plain && labels >= T) warnings.push(`PPI++ needs ${labels} labels but the judge scores only ${T} items`);
    ppi = { labels, judgeCorrelation: rho, judgedItems: T };
  }
  return { plain, select, ppi, warnings };
}
