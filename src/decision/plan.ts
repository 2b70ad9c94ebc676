import { canonicalJson } from '../data/canonical-json.js';
import { InputError } from '../data/errors.js';
import { parseWith } from '../data/validate.js';
import { PLAN_RECORD_FORMAT, PlanRecordSchema, type PlanRecord, type PlanSettings } from '../rotation/plan-record.js';
import { versionRecordDigest } from '../rotation/record-digest.js';

// The analysis plan fixed before the data (issue 26 item 3): built and compared here (pure);
// stored, read and verified with the archive (src/rotation/plan-record.ts).

export { PLAN_FOLDER, PLAN_RECORD_FORMAT, PlanRecordSchema, PlanSettingsSchema, parsePlanText, planRecordText, readPlanFile, verifyPlan, writePlanRecord, type PlanRecord, type PlanSettings } from '../rotation/plan-record.js';

/** A field a plan fixes. */
export type PlanField = Exclude<keyof PlanSettings, 'decision'> | 'inconclusive';

/** What a plan needs: an id, the date it was made, and any of the settings it fixes (the rest stay free). */
export interface PlanInput extends Partial<Omit<PlanSettings, 'decision'>> {
  id: string;
  /** The day the plan was made, YYYY-MM-DD (the library never reads the clock). */
  date: string;
  author?: string | null;
  note?: string;
  /** What an inconclusive verdict is read as: kept as inconclusive (exit 3, the default), or mapped to pass or fail. */
  inconclusive?: 'inconclusive' | 'pass' | 'fail';
}

/** One way an analysis departs from its plan. */
export interface PlanDeparture {
  /** The plan's field, e.g. `margin`. */
  field: PlanField;
  /** The plan's value. */
  plan: unknown;
  /** The value the analysis used. */
  used: unknown;
}

/** A departure that was allowed with `--deviate`, and why. */
export interface PlanDeviation extends PlanDeparture {
  reason: string;
}

/**
 * Builds a plan record: the settings an analysis must follow, with `null` for every one the plan
 * leaves free, the decision rule (three verdicts; inconclusive kept or mapped), and the record's
 * digest (SHA-256 of its canonical JSON, as version records carry). Validated with the stored
 * record's own schema, so a plan that builds is a plan that reads back.
 * @param input the id, date and the settings to fix.
 * @returns the record, ready to store with writePlanRecord.
 * @throws {InputError} naming the field and value when a setting is out of its domain (a
 *   negative margin, a confidence level outside (0, 1), a bad id or date).
 * @example buildPlan({ id: 'q4', date: '2026-11-30', margin: 0.02 }).margin // => 0.02
 */
export function buildPlan(input: PlanInput): PlanRecord {
  const body = {
    format: PLAN_RECORD_FORMAT,
    id: input.id,
    date: input.date,
    author: input.author ?? null,
    note: input.note ?? '',
    baseline: input.baseline ?? null,
    candidate: input.candidate ?? null,
    incumbent: input.incumbent ?? null,
    models: input.models ?? null,
    margin: input.margin ?? null,
    mde: input.mde ?? null,
    confidenceLevel: input.confidenceLevel ?? null,
    method: input.method ?? null,
    nResamples: input.nResamples ?? null,
    seed: input.seed ?? null,
    cluster: input.cluster ?? null,
    stratified: input.stratified ?? null,
    perStratum: input.perStratum ?? null,
    strata: input.strata ?? null,
    stopping: input.stopping ?? null,
    budget: input.budget ?? null,
    decision: { verdicts: ['pass', 'fail', 'inconclusive'] as ['pass', 'fail', 'inconclusive'], inconclusive: input.inconclusive ?? 'inconclusive' },
  };
  const record = { ...body, recordDigest: versionRecordDigest(body) };
  return parseWith(PlanRecordSchema, record, { file: 'plan' }) as PlanRecord;
}

/** The value a plan gives a field (the decision rule's mapping under `inconclusive`); null when the plan leaves it free. */
export function planValue(plan: PlanRecord, field: PlanField): unknown {
  return field === 'inconclusive' ? plan.decision.inconclusive : plan[field];
}

/** Two values are the same setting: numbers equal, model lists the same set, anything else the same canonical JSON. */
function sameSetting(field: PlanField, a: unknown, b: unknown): boolean {
  if (field === 'models' && Array.isArray(a) && Array.isArray(b)) return canonicalJson([...a].sort()) === canonicalJson([...b].sort());
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Compares the settings an analysis uses with its plan: a departure for every field the plan
 * fixes (not null) whose value in `used` differs. Fields the plan leaves free, and fields `used`
 * does not name, are not departures. Model lists compare as sets; numbers as numbers.
 * @param plan the plan record.
 * @param used the analysis's settings, by plan field (only those it sets).
 * @returns the departures in the plan's field order; empty when the analysis follows the plan.
 * @example planDepartures(buildPlan({ id: 'q4', date: '2026-11-30', margin: 0.02 }), { margin: 0.05 }) // => [{ field: 'margin', plan: 0.02, used: 0.05 }]
 */
export function planDepartures(plan: PlanRecord, used: Partial<Record<PlanField, unknown>>): PlanDeparture[] {
  const out: PlanDeparture[] = [];
  for (const field of PLAN_FIELDS) {
    if (!(field in used)) continue;
    const fixed = planValue(plan, field);
    if (fixed === null) continue;
    const value = used[field];
    if (!sameSetting(field, fixed, value)) out.push({ field, plan: fixed, used: value });
  }
  return out;
}

/** The plan's fields in the order departures are listed. */
export const PLAN_FIELDS: readonly PlanField[] = ['baseline', 'candidate', 'incumbent', 'models', 'margin', 'mde', 'confidenceLevel', 'method', 'nResamples', 'seed', 'cluster', 'stratified', 'perStratum', 'strata', 'stopping', 'budget', 'inconclusive'];

/** A plan value in a message: numbers and names plainly, the rest as compact JSON. */
export function showPlanValue(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return 'unset';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  if (typeof value === 'object' && 'rule' in value) {
    const s = value as { rule: string; sequence?: string; items?: number | null; maxItems?: number | null };
    const cap = s.items ?? s.maxItems ?? null;
    return `${s.rule}${s.sequence === undefined ? '' : ` (${s.sequence})`}${cap === null ? '' : `, ${cap} items`}`;
  }
  if (typeof value === 'object' && 'sha256' in value && !('source' in value)) return `sha256 ${String((value as { sha256: string }).sha256).slice(0, 12)}…`;
  if (typeof value === 'object' && 'sha256' in value && 'source' in value) return `${(value as { source: string }).source} (sha256 ${String((value as { sha256: string }).sha256).slice(0, 12)}…)`;
  return JSON.stringify(value);
}

/** The sentence naming a departure: `margin is 0.02 in the plan, 0.05 on the command line`. */
export function departureText(d: PlanDeparture, where = 'on the command line'): string {
  return `${d.field} is ${showPlanValue(d.plan)} in the plan, ${showPlanValue(d.used)} ${where}`;
}

/**
 * Refuses an analysis that departs from its plan, or allows it with a reason and returns the deviations to record.
 * @param source the plan's file (or archive reference), for the message.
 * @param reason the `--deviate` reason, or undefined when none was given.
 * @returns the deviations (each departure with the reason); empty when the analysis follows the plan.
 * @throws {InputError} `plan.json: margin is 0.02 in the plan, 0.05 on the command line` when
 *   there are departures and no reason, or the reason is blank.
 * @example enforcePlan([], 'plan.json', undefined) // => []
 */
export function enforcePlan(departures: readonly PlanDeparture[], source: string, reason: string | undefined, where = 'on the command line'): PlanDeviation[] {
  if (reason !== undefined && reason.trim() === '') throw new InputError('give the reason for departing from the plan', { file: '--deviate', value: reason });
  if (departures.length === 0) return [];
  if (reason === undefined) {
    throw new InputError(`${departures.map((d) => departureText(d, where)).join('; ')}; follow the plan, or give --deviate "REASON" to depart from it and record why`, { file: source });
  }
  return departures.map((d) => ({ ...d, reason: reason.trim() }));
}
