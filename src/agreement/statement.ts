/** Krippendorff's standard for reliable data: α ≥ 0.800 supports conclusions. */
export const ALPHA_RELIABLE = 0.8;
/** Krippendorff's floor for tentative conclusions, the default threshold: α ≥ 0.667. */
export const ALPHA_TENTATIVE = 0.667;

/**
 * The label noise of a clause type: the share of items on which two readers would record
 * different labels, 1 − rawAgreement. A model is scored against one reader's labels; on that
 * share of items the other reader would have recorded the other defensible answer. A model
 * that writes one reading and a model that writes the other are then separated by up to this
 * share of the items in either direction, depending only on which reader labelled them, so a
 * difference between two models smaller than this (in points, × 100) is within label noise.
 * Reference: "Building a private benchmark", section "The oracle, and how stable it is"
 * (agreement 0.61 on change of control cannot support a four-point difference).
 * @param rawAgreement in [0, 1].
 * @example labelNoise(0.61) // => 0.39 (39 points)
 */
export function labelNoise(rawAgreement: number): number {
  return 1 - rawAgreement;
}

const DENOMINATORS = [2, 3, 4, 5, 10, 20];

/**
 * A share as "p times in q" with a small q (2, 3, 4, 5, 10, 20) within 0.025 of it, else
 * out of 100; prefixed "about" unless exact.
 * @example agreementInWords(0.61) // => "about 3 times in 5"
 * @example agreementInWords(0.94) // => "about 19 times in 20"
 */
export function agreementInWords(share: number): string {
  if (!Number.isFinite(share)) return 'an unknown share of the time';
  if (share >= 1) return 'every time';
  if (share <= 0) return 'never';
  for (const q of DENOMINATORS) {
    const p = Math.round(share * q);
    if (p > 0 && p < q && Math.abs(p / q - share) <= 0.025) return `${Math.abs(p / q - share) < 1e-9 ? '' : 'about '}${p} time${p === 1 ? '' : 's'} in ${q}`;
  }
  const p = Math.round(share * 100);
  return `about ${p} time${p === 1 ? '' : 's'} in 100`;
}

/** A number of points for the statement: whole points, or one decimal below 1. */
function points(share: number): string {
  const x = share * 100;
  return x >= 1 ? String(Math.round(x)) : String(Number(x.toFixed(1)));
}

/**
 * The plain statement of what a clause type's labels can support, e.g.
 * "labels agree about 3 times in 5 (61%): a model difference of up to 39 points on this type is
 * within label noise; alpha 0.412 is below 0.667: sharpen the guideline for this type and
 * re-annotate before comparing models on it".
 * The first half reads raw agreement through `labelNoise`; the second half reads
 * Krippendorff's alpha against the threshold and Krippendorff's 0.800 for firm conclusions.
 * With spans, the noise floor is given twice: for models scored by exact span (1 − exact
 * agreement) and by overlap at the threshold (1 − overlap agreement), since span scoring is
 * usually by overlap.
 * @param input.rawAgreement pairwise raw agreement in [0, 1] (NaN when unmeasurable).
 * @param input.alpha nominal Krippendorff's alpha (NaN when undefined).
 * @param input.threshold the alpha below which a type is flagged.
 * @param input.spans span agreement of the type, when its labels are spans.
 * @param input.labelsFromSpans the labels are the spans themselves (a span-only table).
 * @example agreementStatement({ rawAgreement: 1, alpha: 1, threshold: 0.667 }) // => "labels agree on every item: …"
 */
export function agreementStatement(input: {
  rawAgreement: number;
  alpha: number;
  threshold: number;
  spans?: { exactAgreement: number; overlapAgreement: number; overlapThreshold: number } | null;
  labelsFromSpans?: boolean;
}): string {
  const { rawAgreement: raw, alpha, threshold, spans } = input;
  const what = input.labelsFromSpans ? 'spans match exactly' : 'labels agree';
  if (!Number.isFinite(raw)) return 'no item has labels from two annotators: agreement cannot be measured on this type, and no model difference on it can be checked against label noise';
  const noise = labelNoise(raw);
  const scoredBy = input.labelsFromSpans ? ' scored by exact span,' : '';
  let first =
    noise <= 0
      ? `${what} on every item: label noise sets no floor under model differences on this type`
      : `${what} ${agreementInWords(raw)} (${(raw * 100).toFixed(0)}%):${scoredBy} a model difference of up to ${points(noise)} points on this type is within label noise`;
  if (spans && Number.isFinite(spans.overlapAgreement)) {
    const overlapNoise = labelNoise(spans.overlapAgreement);
    const exact = input.labelsFromSpans ? '' : ` (exact match ${(spans.exactAgreement * 100).toFixed(0)}%)`;
    first += `; spans overlap by at least ${spans.overlapThreshold} on ${(spans.overlapAgreement * 100).toFixed(0)}% of pairs${exact}`;
    first += overlapNoise <= 0 ? ', so models scored by that overlap face no label-noise floor' : `, so for models scored by that overlap a difference of up to ${points(overlapNoise)} points is within label noise`;
  }
  const a = Number.isFinite(alpha) ? alpha.toFixed(3) : '';
  let second: string;
  if (!Number.isFinite(alpha)) second = 'alpha is undefined here (too few labels, or no variation in them), so these labels cannot show they are reliable';
  else if (alpha < threshold) second = `alpha ${a} is below ${threshold}: sharpen the guideline for this type and re-annotate before comparing models on it`;
  else if (alpha < ALPHA_RELIABLE) second = `alpha ${a} supports tentative conclusions only (Krippendorff asks 0.800 for firm ones)`;
  else second = `alpha ${a} is high enough to draw conclusions on this type`;
  return `${first}; ${second}`;
}
