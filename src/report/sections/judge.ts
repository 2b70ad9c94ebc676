import { judgeCalibrationSpec } from '../../charts/judge-calibration.js';
import { InputError } from '../../data/errors.js';
import type { JudgeLabelsTable } from '../../data/judge-labels.js';
import type { JudgeAgreement } from '../../judge/judge-agreement.js';
import { JudgeDataError, validateJudge, type JudgeValidation } from '../../judge/validate-judge.js';
import type { ReportSection } from '../html.js';
import { formatInterval, formatNumber, formatPercent } from '../table.js';
import type { ReportSettings } from './settings.js';

/** Options of the judge section: what `benchplan judge` takes besides the table. */
export interface JudgeSectionOptions {
  /** Candidates of the judge's own model family (the self-preference probe). */
  selfFamily?: readonly string[];
  /** Permutations per bias probe; default 999 (as `benchplan judge`). */
  nPermutations?: number;
  /** Rogan–Gladen source; default per-candidate. */
  correction?: 'per-candidate' | 'pooled';
}

const pct = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? formatPercent(x, 1) : '-');
const pctInterval = (i: readonly [number, number] | undefined) => (i !== undefined && Number.isFinite(i[0]) ? `[${pct(i[0])}, ${pct(i[1])}]` : '-');
const shareCell = (s: { estimate: number; confidenceInterval: [number, number] } | null) => (s ? `${pct(s.estimate)} ${pctInterval(s.confidenceInterval)}` : '-');
const groupName = (g: JudgeAgreement) => (g.group === 'all' ? 'all' : `${g.group} ${g.name}`);

/**
 * The judge section of a report: is the LLM judge that scored the candidates trustworthy? The
 * same computation as `benchplan judge` (validateJudge with the report's seed and confidence
 * level, 999 permutations), laid out as: the calibration chart (human rate per judge-score bin),
 * agreement per candidate and stratum (accuracy, κ ± SE, sensitivity and specificity with Wilson
 * intervals), the candidate-bias line per pair (judge − human error difference, judge-only,
 * humans-only, PPI++), the bias probes' verdicts, and the judge-only rates corrected by
 * Rogan–Gladen with the corrected A − B.
 * @throws {InputError} naming the file and line for data the judge's validation cannot use.
 */
export function judgeSection(table: JudgeLabelsTable, settings: ReportSettings, options: JudgeSectionOptions = {}): { section: ReportSection; result: JudgeValidation } {
  const nPermutations = options.nPermutations ?? 999;
  let r: JudgeValidation;
  try {
    r = validateJudge(table.rows, {
      confidenceLevel: settings.confidenceLevel,
      seed: settings.seed,
      nPermutations,
      selfFamily: options.selfFamily ?? [],
      covariates: table.covariates,
      correction: options.correction ?? 'per-candidate',
    });
  } catch (error) {
    if (error instanceof JudgeDataError) {
      const row = table.rows[error.rowIndex];
      const field = error.field === 'human' ? table.humanColumn : error.field === 'judge' ? table.judgeColumn : error.field;
      throw new InputError(error.message, { file: table.source, line: row?.line, field, value: error.value });
    }
    throw error;
  }
  const groups = [r.agreement.overall, ...r.agreement.byCandidate, ...r.agreement.byStratum];
  const paragraphs: string[] = [
    `The judge is one more reader: ${r.nLabelled} of its ${r.nRows} scores (${table.source}) have a human label beside them. Its agreement with the humans is a ceiling on what a comparison scored by it means, and a judge that errs differently on two candidates moves their A − B by that difference.`,
  ];
  for (const c of r.candidates) {
    const e = c.errorDifference;
    const excludes = e.confidenceInterval[0] > 0 || e.confidenceInterval[1] < 0;
    paragraphs.push(
      `${c.a} − ${c.b}: the judge’s error (judge − human) differs by ${formatNumber(e.estimate)} ${formatInterval(e.confidenceInterval)} between the two${excludes ? ' — a bias a judge-only A − B carries' : ' (no difference shown)'}; judge-only A − B ${formatNumber(c.judgeOnly.estimate)}, humans-only ${formatNumber(c.humanOnly.estimate)}${c.ppi ? `, PPI++ ${formatNumber(c.ppi.estimate)} ${formatInterval(c.ppi.confidenceInterval)}` : ''}.`,
    );
  }
  if (r.probes && r.probes.probes.length > 0) {
    const found = r.probes.probes.filter((p) => p.verdict === 'bias detected');
    paragraphs.push(
      found.length === 0
        ? `Bias probes (${r.probes.probes.map((p) => p.name).join(', ')}): none detected at a false-alarm rate of ${formatNumber(r.probes.alpha)} across probes — read against the probes' power at ${r.probes.n} labelled rows (docs/judge.md).`
        : `Bias probes: ${found.map((p) => `${p.name} (effect ${formatNumber(p.estimate)}, ${r.probes?.multiplicity === 'holm' ? 'Holm' : 'max-T'} p ${formatNumber(p.adjustedPValue, 3)})`).join('; ')} detected at a false-alarm rate of ${formatNumber(r.probes.alpha)} across ${r.probes.probes.length} probes.`,
    );
  } else paragraphs.push('Bias probes: none (the table has no length or position column, and no self-family was named).');
  if (r.correctedRates) paragraphs.push(`Corrected rates (Rogan–Gladen, ${r.correction === 'pooled' ? 'sensitivity and specificity pooled over the candidates' : 'each candidate’s own sensitivity and specificity'}) are the judge’s rates corrected for its measured error — not human rates.`);

  const tables: ReportSection['tables'][number][] = [];
  if (r.kind === 'binary') {
    tables.push({
      caption: 'Agreement with the human labels',
      header: ['group', 'labelled', 'accuracy', 'κ', 'κ SE', 'sensitivity', 'specificity'],
      rows: groups.map((g) => [groupName(g), String(g.n), shareCell(g.accuracy), formatNumber(g.kappa?.estimate ?? NaN), formatNumber(g.kappa?.standardError ?? NaN), shareCell(g.sensitivity), shareCell(g.specificity)]),
    });
  } else {
    tables.push({
      caption: 'Agreement with the human labels',
      header: ['group', 'labelled', 'correlation', 'interval', 'judge − human', 'interval'],
      rows: groups.map((g) => [groupName(g), String(g.n), formatNumber(g.correlation?.estimate ?? NaN), formatInterval(g.correlation?.confidenceInterval ?? [NaN, NaN]), formatNumber(g.meanError.estimate), formatInterval(g.meanError.confidenceInterval)]),
    });
  }
  tables.push({
    caption: 'Calibration: the humans’ rate per judge-score bin',
    header: ['judge scores', 'rows', 'judge mean', 'human mean', 'interval'],
    rows: r.calibration.map((b) => [b.low === b.high ? formatNumber(b.low) : `${formatNumber(b.low)}–${formatNumber(b.high)}`, String(b.n), formatNumber(b.judgeMean), formatNumber(b.humanMean), formatInterval(b.confidenceInterval)]),
  });
  if (r.candidates.length > 0) {
    tables.push({
      caption: 'Does the judge treat the candidates alike? (A − B; error = judge − human)',
      header: ['A − B', 'error difference', 'interval', 'judge only', 'humans only', 'PPI++', 'labelled / judged'],
      rows: r.candidates.map((c) => [`${c.a} − ${c.b}`, formatNumber(c.errorDifference.estimate), formatInterval(c.errorDifference.confidenceInterval), formatNumber(c.judgeOnly.estimate), formatNumber(c.humanOnly.estimate), c.ppi ? `${formatNumber(c.ppi.estimate)} ${formatInterval(c.ppi.confidenceInterval)}` : '-', `${c.nLabelled} / ${c.nJudged}`]),
    });
  }
  if (r.probes && r.probes.probes.length > 0) {
    tables.push({
      caption: `Bias probes: judge − human regressed on each, controlling for the human label (HC3 SE; permutation p; ${r.probes.multiplicity === 'holm' ? 'Holm' : 'max-T step-down'} across probes at ${formatNumber(r.probes.alpha)})`,
      header: ['probe', 'effect', 'HC3 SE', 'interval', 'p', r.probes.multiplicity === 'holm' ? 'Holm p' : 'max-T p', 'verdict'],
      rows: r.probes.probes.map((p) => [p.name, formatNumber(p.estimate), formatNumber(p.standardError), formatInterval(p.confidenceInterval), formatNumber(p.pValue, 3), formatNumber(p.adjustedPValue, 3), p.verdict]),
    });
  }
  if (r.correctedRates) {
    tables.push({
      caption: 'Judge-only rates CORRECTED for the judge’s error (Rogan–Gladen; delta-method interval with the uncertainty of sensitivity and specificity)',
      header: ['candidate', 'judge rate', 'sensitivity', 'specificity', 'corrected', 'interval', 'humans (labelled)'],
      rows: r.correctedRates.map((c) => [c.model, pct(c.judgeRate), pct(c.sensitivity), pct(c.specificity), pct(c.estimate), pctInterval(c.confidenceInterval), `${pct(c.humanRate.estimate)} (${c.humanRate.trials})`]),
    });
    if (r.correctedDifferences && r.correctedDifferences.length > 0) {
      tables.push({
        caption: 'Corrected A − B (linearised over items: the dependence of the two corrections is carried)',
        header: ['A − B', 'corrected', 'SE', 'interval'],
        rows: r.correctedDifferences.map((d) => [`${d.a} − ${d.b}`, formatNumber(d.estimate), formatNumber(d.standardError), formatInterval(d.confidenceInterval)]),
      });
    }
  }
  const section: ReportSection = {
    id: 'judge',
    title: 'Can the LLM judge be trusted?',
    paragraphs,
    figure: { spec: judgeCalibrationSpec({ bins: r.calibration }), caption: `The humans’ rate per judge-score bin with its ${formatPercent(r.confidenceLevel, 0)} Wilson interval (normal for graded labels); ${r.nLabelled} labelled rows.` },
    tables,
    settings: [
      ['judge labels', table.source],
      ['judge column', table.judgeColumn],
      ['human column', table.humanColumn],
      ['self family', (options.selfFamily ?? []).join(', ') || '-'],
      ['permutations per probe', String(nPermutations)],
      ['Rogan–Gladen', r.correction],
      ['confidence level', String(r.confidenceLevel)],
      ['seed', settings.seed],
    ],
    warnings: r.warnings,
  };
  return { section, result: r };
}
