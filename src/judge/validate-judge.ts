import type { Seed } from '../random/index.js';
import { biasProbes, type BiasProbesResult, type ProbeTerm } from './bias-probes.js';
import { candidateBias, type CandidateBias } from './candidate-bias.js';
import { calibrationTable, judgeAgreement, type CalibrationBin, type JudgeAgreement } from './judge-agreement.js';
import { judgeDrift, type JudgeDrift } from './judge-drift.js';
import type { JudgedItem } from './judged-comparison.js';
import { correctedRates as correctedRatesOf, type CorrectedDifference, type CorrectedRate, type CorrectionSource } from './corrected-rates.js';

/** One (item, candidate) row: the judge's score, the human label where labelled, and probes. */
export interface JudgeRow {
  item: string;
  model: string;
  judge: number;
  human?: number;
  /** The judge's score in a second run (anchor rows, for drift). */
  rerun?: number;
  stratum?: string;
  cluster?: string;
  length?: number;
  position?: number;
  covariates?: Readonly<Record<string, number>>;
}

/** Options of {@link validateJudge}. */
export interface ValidateJudgeOptions {
  confidenceLevel?: number;
  /** Family-wise false-alarm rate across the bias probes; default 0.05. */
  alpha?: number;
  nPermutations?: number;
  seed?: Seed;
  /** Candidates of the judge's own model family: the self-preference probe. */
  selfFamily?: readonly string[];
  /** Named covariates to probe (each on every labelled row's covariates). */
  covariates?: readonly string[];
  /** A graded judge's cut: judge ≥ threshold counts as 1 (for κ, sensitivity, Rogan–Gladen). */
  threshold?: number;
  /** With it, the labels a humans-only and a PPI++ interval of half-width mde/2 need. */
  mde?: number;
  /** Skip PPI++'s random-subset check. */
  assumeRandom?: boolean;
  /** Calibration bins for a graded judge; default 5. */
  calibrationBins?: number;
  /** Rogan–Gladen sensitivity and specificity: each candidate's own labelled rows (default) or pooled. */
  correction?: CorrectionSource;
}

/** A row the method cannot use: which row, which field, what value. */
export class JudgeDataError extends RangeError {
  readonly rowIndex: number;
  readonly field: string;
  readonly value: unknown;
  constructor(message: string, rowIndex: number, field: string, value: unknown) {
    super(message);
    this.name = 'JudgeDataError';
    this.rowIndex = rowIndex;
    this.field = field;
    this.value = value;
  }
}

/** Everything `benchplan judge` reports. */
export interface JudgeValidation {
  /** binary: judge and humans 0/1 (or thresholded); graded otherwise. */
  kind: 'binary' | 'graded';
  threshold: number | null;
  confidenceLevel: number;
  nRows: number;
  nLabelled: number;
  models: string[];
  strata: string[];
  agreement: { overall: JudgeAgreement; byCandidate: JudgeAgreement[]; byStratum: JudgeAgreement[] };
  /** The humans' mean per judge-score bin (a 0/1 judge: one bin per score, i.e. 1 − NPV and PPV). */
  calibration: CalibrationBin[];
  /** Every pair of candidates. */
  candidates: CandidateBias[];
  probes: BiasProbesResult | null;
  drift: JudgeDrift | null;
  /** Where the corrections' sensitivity and specificity come from. */
  correction: CorrectionSource;
  /** Binary (or thresholded) judge with 0/1 human labels: Rogan–Gladen per candidate ({@link correctedRates}). */
  correctedRates: CorrectedRate[] | null;
  /** The corrected A − B for every pair of candidates, linearised interval. */
  correctedDifferences: CorrectedDifference[] | null;
  warnings: string[];
}

const isBinary = (x: number) => x === 0 || x === 1;

/**
 * Validates an LLM judge against human labels (issue 30): agreement overall, per candidate and
 * per stratum ({@link judgeAgreement}; the calibration table, one bin per score for a 0/1 judge); whether it treats the
 * candidates alike ({@link candidateBias} per pair, with judge-only, humans-only and PPI++ A − B);
 * bias probes — its error regressed on length, position, self-preference and covariates with
 * HC3 SEs and Holm-controlled permutation verdicts ({@link biasProbes}); drift between two runs
 * ({@link judgeDrift}); and the judge-only rate per candidate corrected by Rogan–Gladen with
 * sensitivity and specificity measured on that candidate's labelled rows (or pooled), and the
 * corrected A − B per pair ({@link correctedRatesOf}).
 * Rows without a human label are used only where the method allows: the judge-only rates,
 * PPI++ and the Rogan–Gladen numerator.
 * @throws {JudgeDataError} (a RangeError naming the row) for no labelled row, a judge that gives
 *   every row the same score, a stratum with no labelled row, a self-family candidate not in the
 *   rows, or a missing covariate on a labelled row.
 * @example validateJudge(rows, { selfFamily: ['gamma'], seed: 0 }).probes.probes[0].verdict // => 'not detected' on a fair judge
 */
export function validateJudge(rows: readonly JudgeRow[], options: ValidateJudgeOptions = {}): JudgeValidation {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  if (rows.length === 0) throw new RangeError('validateJudge needs at least one row');
  const warnings: string[] = [];
  const labelledIndex = rows.map((r, i) => (r.human !== undefined ? i : -1)).filter((i) => i >= 0);
  if (labelledIndex.length === 0) throw new JudgeDataError('no row has a human label: the judge cannot be validated without labels', 0, 'human', null);
  const firstJudge = rows[0].judge;
  if (rows.every((r) => r.judge === firstJudge)) throw new JudgeDataError(`the judge gave every row the same score: agreement, correlation and the bias probes are undefined for a constant judge`, 0, 'judge', firstJudge);
  const models = [...new Set(rows.map((r) => r.model))];
  const strata = [...new Set(rows.map((r) => r.stratum).filter((s): s is string => s !== undefined))];
  for (const s of strata) {
    if (!labelledIndex.some((i) => rows[i].stratum === s)) {
      const at = rows.findIndex((r) => r.stratum === s);
      throw new JudgeDataError(`stratum "${s}" has no labelled row: its agreement cannot be measured (label some of its items, or leave the stratum out)`, at, 'stratum', s);
    }
  }
  for (const m of options.selfFamily ?? []) if (!models.includes(m)) throw new RangeError(`selfFamily names "${m}", which is not a candidate (candidates: ${models.join(', ')})`);
  const threshold = options.threshold;
  const humanBinary = labelledIndex.every((i) => isBinary(rows[i].human as number));
  const judgeBinary = rows.every((r) => isBinary(r.judge));
  if (threshold !== undefined && judgeBinary) warnings.push('--threshold is ignored: the judge already scores 0/1');
  const binary = humanBinary && (judgeBinary || threshold !== undefined);
  if (threshold !== undefined && !humanBinary) warnings.push('the threshold is not used: the human labels are not 0/1');
  const cut = judgeBinary ? undefined : threshold;
  const graded = !judgeBinary;
  const agreementOf = (group: JudgeAgreement['group'], name: string, which: number[]) =>
    judgeAgreement(which.map((i) => rows[i].judge), which.map((i) => rows[i].human as number), { group, name, binary, graded, ...(cut !== undefined ? { threshold: cut } : {}), confidenceLevel });
  const overall = agreementOf('all', 'all', labelledIndex);
  const byCandidate = models.map((m) => agreementOf('candidate', m, labelledIndex.filter((i) => rows[i].model === m)));
  const byStratum = strata.map((s) => agreementOf('stratum', s, labelledIndex.filter((i) => rows[i].stratum === s)));
  for (const a of [overall, ...byCandidate, ...byStratum]) warnings.push(...a.warnings);
  const calibration = calibrationTable(labelledIndex.map((i) => rows[i].judge), labelledIndex.map((i) => rows[i].human as number), { binaryHuman: humanBinary, bins: options.calibrationBins ?? 5, confidenceLevel });

  // Candidate pairs.
  const byItem = new Map<string, Map<string, JudgeRow>>();
  for (const r of rows) {
    const m = byItem.get(r.item) ?? new Map<string, JudgeRow>();
    m.set(r.model, r);
    byItem.set(r.item, m);
  }
  const hasCluster = rows.some((r) => r.cluster !== undefined);
  const candidates: CandidateBias[] = [];
  for (let x = 0; x < models.length; x++) {
    for (let y = x + 1; y < models.length; y++) {
      const [a, b] = [models[x], models[y]];
      const items: JudgedItem[] = [];
      const clusters: string[] = [];
      for (const [item, m] of byItem) {
        const ra = m.get(a);
        const rb = m.get(b);
        if (!ra || !rb) continue;
        const labelled = ra.human !== undefined && rb.human !== undefined;
        items.push({ item, stratum: '', judgeA: ra.judge, judgeB: rb.judge, ...(labelled ? { humanA: ra.human, humanB: rb.human } : {}) });
        clusters.push(ra.cluster ?? item);
      }
      if (items.length === 0) {
        warnings.push(`${a} vs ${b}: no item was judged for both`);
        continue;
      }
      const c = candidateBias(a, b, items, { confidenceLevel, ...(hasCluster ? { clusters } : {}), ...(options.mde !== undefined ? { mde: options.mde } : {}), assumeRandom: options.assumeRandom ?? false });
      warnings.push(...c.warnings);
      candidates.push(c);
    }
  }

  // Bias probes on the labelled rows.
  const labelled = labelledIndex.map((i) => rows[i]);
  const error = labelled.map((r) => (cut !== undefined ? (r.judge >= cut ? 1 : 0) : r.judge) - (r.human as number));
  const terms: ProbeTerm[] = [];
  if (labelled.some((r) => r.length !== undefined)) terms.push({ name: 'length', values: labelled.map((r, k) => requireNumber(r.length, labelledIndex[k], 'length')) });
  if (labelled.some((r) => r.position !== undefined)) terms.push({ name: 'position', values: labelled.map((r, k) => requireNumber(r.position, labelledIndex[k], 'position')) });
  if (options.selfFamily !== undefined && options.selfFamily.length > 0) {
    const family = new Set(options.selfFamily);
    terms.push({ name: 'self-preference', values: labelled.map((r) => (family.has(r.model) ? 1 : 0)) });
  }
  for (const c of options.covariates ?? []) terms.push({ name: c, values: labelled.map((r, k) => requireNumber(r.covariates?.[c], labelledIndex[k], c)) });
  let probes: BiasProbesResult | null = null;
  if (terms.length > 0) {
    // Permute within the human label when it is 0/1: the judge's error is −1/0 on human-1 rows and
    // 0/+1 on human-0 rows, so rows are exchangeable only within a label (bench/judge-probes.txt, amendment 2).
    const human = labelled.map((r) => r.human as number);
    probes = biasProbes(error, terms, { controls: [{ name: 'human label', values: human }], ...(humanBinary ? { blocks: human } : {}), confidenceLevel, alpha: options.alpha ?? 0.05, nPermutations: options.nPermutations ?? 999, seed: options.seed ?? 0 });
    warnings.push(...probes.warnings);
  } else warnings.push('no bias probe: the table has no length or position column, and no --self-family or --covariate was given');

  // Drift on anchor rows.
  const anchors = rows.filter((r) => r.rerun !== undefined).map((r) => ({ item: r.item, model: r.model, before: r.judge, after: r.rerun as number }));
  const drift = anchors.length > 0 ? judgeDrift(anchors, { binary: judgeBinary && anchors.every((r) => isBinary(r.after)), confidenceLevel }) : null;
  if (drift) warnings.push(...drift.warnings);

  // Rogan–Gladen per candidate: Se and Sp on the candidate's own labelled rows, or pooled.
  const correction = options.correction ?? 'per-candidate';
  let correctedRates: CorrectedRate[] | null = null;
  let correctedDifferences: CorrectedDifference[] | null = null;
  if (binary) {
    const corr = correctedRatesOf(
      rows.map((r) => ({ item: r.item, model: r.model, judge: (cut !== undefined ? (r.judge >= cut ? 1 : 0) : r.judge) as 0 | 1, ...(r.human !== undefined ? { human: r.human as 0 | 1 } : {}), ...(r.cluster !== undefined ? { cluster: r.cluster } : {}) })),
      { source: correction, confidenceLevel },
    );
    correctedRates = corr.rates;
    correctedDifferences = corr.differences;
    warnings.push(...corr.warnings);
    const uneven = candidates.filter((c) => c.errorDifference.confidenceInterval[0] > 0 || c.errorDifference.confidenceInterval[1] < 0);
    if (correction === 'pooled' && uneven.length > 0) warnings.push(`Rogan–Gladen pools sensitivity and specificity over the candidates, but the judge errs differently on ${uneven.map((c) => `${c.a} vs ${c.b}`).join(', ')} (the error difference excludes 0): the corrected rates of those candidates are biased; correct per candidate (the default) or compare them with PPI++ instead`);
  }
  return {
    kind: binary ? 'binary' : 'graded',
    threshold: cut ?? null,
    confidenceLevel,
    nRows: rows.length,
    nLabelled: labelledIndex.length,
    models,
    strata,
    agreement: { overall, byCandidate, byStratum },
    calibration,
    candidates,
    probes,
    drift,
    correction,
    correctedRates,
    correctedDifferences,
    warnings: [...new Set(warnings)],
  };
}

function requireNumber(x: number | undefined, rowIndex: number, field: string): number {
  if (x === undefined || !Number.isFinite(x)) throw new JudgeDataError(`${field} must be a finite number on every labelled row (the bias probes regress on it)`, rowIndex, field, x ?? null);
  return x;
}
