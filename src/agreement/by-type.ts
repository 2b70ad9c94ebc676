import type { AnnotationsTable } from '../data/annotations.js';
import { streamName, type Seed } from '../random/index.js';
import { krippendorffAlphaInterval } from './alpha-interval.js';
import { cohenKappa } from './cohen.js';
import { fleissKappa } from './fleiss.js';
import { krippendorffAlpha } from './krippendorff.js';
import { annotatorColumn, labelsAreSpans, labelsByType, type TypeLabels } from './labels.js';
import { rawAgreement } from './raw.js';
import { spanAgreement, type SpanAgreementResult } from './spans.js';
import { ALPHA_TENTATIVE, agreementStatement, labelNoise } from './statement.js';

/** Settings of `agreementByType`. Every field is optional; the result echoes the values used. */
export interface AgreementOptions {
  /** Types whose nominal alpha is below this are flagged; default 0.667 (Krippendorff's floor for tentative conclusions). */
  threshold?: number;
  /** The pair for Cohen's kappa; default the first two annotators by name. */
  annotators?: readonly [string, string];
  /** For Cohen's kappa interval and the alpha bootstrap; in (0, 1), default 0.95. */
  confidenceLevel?: number;
  /** Bootstrap resamples for the alpha interval; default 9999. */
  nResamples?: number;
  /** Seed of the alpha bootstrap; each type draws from its own stream `${seed}:agree:${type}`. Default 0. */
  seed?: Seed;
  /** Overlap ratio at which two spans count as agreeing; in (0, 1], default 0.5. */
  spanOverlapThreshold?: number;
}

/** Agreement on one clause type. */
export interface TypeAgreement {
  type: string;
  /** Items of this type (rows of the table, labelled or not). */
  items: number;
  /** Annotators with a row of this type. */
  annotators: number;
  annotatorNames: string[];
  /** Share of annotator pairs giving an item the same label (see `rawAgreement`). */
  rawAgreement: number;
  /** Cohen's kappa of the chosen pair on the items both labelled. */
  cohenKappa: number;
  cohenKappaStandardError: number;
  cohenKappaInterval: [number, number];
  /** The pair behind cohenKappa and how many items both labelled. */
  cohenPair: [string, string];
  cohenItems: number;
  /** Fleiss' kappa over every annotator of the type (items all of them labelled); null with fewer than 3 annotators. */
  fleissKappa: number | null;
  fleissItems: number | null;
  /** Nominal Krippendorff's alpha, missing labels allowed. */
  krippendorffAlpha: number;
  /** Percentile bootstrap interval for krippendorffAlpha, resampling items. */
  alphaInterval: [number, number];
  /** Ordinal and interval alpha when every label of the type is a number; else null. */
  krippendorffAlphaLevels: { ordinal: number; interval: number } | null;
  /** 1 − rawAgreement: the share of items whose recorded label depends on the reader (see `labelNoise`). */
  labelNoise: number;
  /** krippendorffAlpha < threshold, or alpha undefined. */
  belowThreshold: boolean;
  /** What the labels of this type can support, in words. */
  statement: string;
  /** Items with two or more different labels (the adjudication list for this type). */
  disagreements: number;
  /** Span agreement when the table has start / end columns; else null. */
  spans: SpanAgreementResult | null;
  warnings: string[];
}

/** Agreement per clause type, with the settings that produced it. */
export interface AgreementByTypeResult {
  /** Every annotator of the table, sorted. */
  annotators: string[];
  /** The pair used for Cohen's kappa. */
  cohenPair: [string, string];
  threshold: number;
  confidenceLevel: number;
  nResamples: number;
  seed: string;
  /** True when the table has spans and no labels: labels are then the spans' "start-end" (exact match). */
  labelsFromSpans: boolean;
  spanOverlapThreshold: number | null;
  types: TypeAgreement[];
  /** The types below the threshold, in table order. */
  flagged: string[];
  warnings: string[];
}

/**
 * Annotator agreement per clause type: raw agreement, Cohen's kappa for a pair with its
 * standard error and interval, Fleiss' kappa (three or more annotators), nominal Krippendorff's
 * alpha with a seeded bootstrap interval over items (ordinal and interval alpha too when the
 * labels are numbers), span agreement when labels are spans, a flag for types whose alpha is
 * below the threshold, and a plain statement of what each type's labels can support.
 * Agreement between trained annotators is a ceiling on what any model score on that type can
 * mean ("Building a private benchmark", "The oracle, and how stable it is").
 * A table without a `type` column is one type, `'all'`.
 * @param table from `loadAnnotations`.
 * @returns see AgreementByTypeResult; a type with one item, one annotator, or no item labelled
 *   twice gets NaN coefficients and a warning, never an exception.
 * @throws {RangeError} when the table has fewer than two annotators, the Cohen pair names an
 *   annotator not in the table (or the same one twice), or a setting is out of range.
 * Cost: O(rows + types × nResamples × items).
 * @example agreementByType(loadAnnotations('examples/annotations.csv')).types.map((t) => t.belowThreshold) // => [false, true, true]
 */
export function agreementByType(table: AnnotationsTable, options: AgreementOptions = {}): AgreementByTypeResult {
  const threshold = options.threshold ?? ALPHA_TENTATIVE;
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const nResamples = options.nResamples ?? 9999;
  const seed = String(options.seed ?? 0);
  if (!(threshold >= -1 && threshold <= 1)) throw new RangeError(`threshold must be in [−1, 1] (got ${threshold})`);
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const annotators = [...table.annotators].sort();
  if (annotators.length < 2) throw new RangeError(`agreement needs at least two annotators (got ${annotators.length}: ${annotators.join(', ')})`);
  const pair: [string, string] = options.annotators ? [options.annotators[0], options.annotators[1]] : [annotators[0], annotators[1]];
  for (const name of pair) if (!annotators.includes(name)) throw new RangeError(`annotator "${name}" is not in the table (annotators: ${annotators.join(', ')})`);
  if (pair[0] === pair[1]) throw new RangeError(`Cohen's kappa needs two different annotators (got "${pair[0]}" twice)`);
  const spanOverlapThreshold = table.hasSpans ? (options.spanOverlapThreshold ?? 0.5) : null;
  const labelsFromSpans = labelsAreSpans(table);

  const types = labelsByType(table).map((group) => typeAgreement(group, { threshold, confidenceLevel, nResamples, seed, pair, spanOverlapThreshold, labelsFromSpans }));
  const warnings: string[] = [];
  if (labelsFromSpans) warnings.push('the table has spans and no labels: kappa and alpha treat each distinct span as a label (exact match)');
  return {
    annotators,
    cohenPair: pair,
    threshold,
    confidenceLevel,
    nResamples,
    seed,
    labelsFromSpans,
    spanOverlapThreshold,
    types,
    flagged: types.filter((t) => t.belowThreshold).map((t) => t.type),
    warnings,
  };
}

function typeAgreement(
  group: TypeLabels,
  settings: { threshold: number; confidenceLevel: number; nResamples: number; seed: string; pair: [string, string]; spanOverlapThreshold: number | null; labelsFromSpans: boolean },
): TypeAgreement {
  const { labels, annotators, type } = group;
  const warnings: string[] = [];
  if (group.items.length < 2) warnings.push(`type "${type}" has only ${group.items.length} item: too few to measure agreement`);
  if (annotators.length < 2) warnings.push(`type "${type}" is labelled by one annotator only (${annotators.join(', ')}): agreement cannot be measured`);

  const raw = rawAgreement(labels);
  // Cohen's kappa: the chosen pair, missing columns count as all-missing.
  const column = (name: string) => (annotators.includes(name) ? annotatorColumn(labels, annotators.indexOf(name)) : labels.map(() => null));
  const missing = settings.pair.filter((name) => !annotators.includes(name));
  const cohen = cohenKappa(column(settings.pair[0]), column(settings.pair[1]), { confidenceLevel: settings.confidenceLevel });
  if (missing.length > 0) warnings.push(`${missing.map((m) => `"${m}"`).join(' and ')} labelled no item of type "${type}": no Cohen's kappa for ${settings.pair.join(' / ')}`);
  else warnings.push(...cohen.warnings.map((w) => `Cohen's kappa (${settings.pair.join(' / ')}): ${w}`));

  let fleiss: ReturnType<typeof fleissKappa> | null = null;
  if (annotators.length >= 3) {
    fleiss = fleissKappa(labels);
    warnings.push(...fleiss.warnings.map((w) => `Fleiss: ${w}`));
  }
  const alpha = krippendorffAlpha(labels);
  warnings.push(...alpha.warnings.map((w) => `alpha: ${w}`));
  const interval = krippendorffAlphaInterval(labels, { nResamples: settings.nResamples, seed: streamName(settings.seed, 'agree', type), confidenceLevel: settings.confidenceLevel });
  if (Number.isFinite(alpha.alpha)) warnings.push(...interval.warnings.map((w) => `alpha interval: ${w}`));

  const numeric = labels.every((row) => row.every((label) => label === null || isNumeric(label))) && labels.some((row) => row.some((label) => label !== null));
  const levels = numeric ? { ordinal: krippendorffAlpha(labels, { level: 'ordinal' }).alpha, interval: krippendorffAlpha(labels, { level: 'interval' }).alpha } : null;
  const spans = group.spans && settings.spanOverlapThreshold !== null ? spanAgreement(group.spans, { overlapThreshold: settings.spanOverlapThreshold }) : null;
  const disagreements = labels.filter((row) => new Set(row.filter((label) => label !== null)).size >= 2).length;
  const belowThreshold = !(alpha.alpha >= settings.threshold);
  return {
    type,
    items: group.items.length,
    annotators: annotators.length,
    annotatorNames: annotators,
    rawAgreement: raw.rawAgreement,
    cohenKappa: cohen.kappa,
    cohenKappaStandardError: cohen.standardError,
    cohenKappaInterval: cohen.interval,
    cohenPair: settings.pair,
    cohenItems: cohen.n,
    fleissKappa: fleiss ? fleiss.kappa : null,
    fleissItems: fleiss ? fleiss.items : null,
    krippendorffAlpha: alpha.alpha,
    alphaInterval: interval.confidenceInterval,
    krippendorffAlphaLevels: levels,
    labelNoise: labelNoise(raw.rawAgreement),
    belowThreshold,
    statement: agreementStatement({ rawAgreement: raw.rawAgreement, alpha: alpha.alpha, threshold: settings.threshold, spans, labelsFromSpans: settings.labelsFromSpans }),
    disagreements,
    spans,
    warnings: [...new Set(warnings)],
  };
}

function isNumeric(label: string): boolean {
  return label.trim() !== '' && Number.isFinite(Number(label));
}
