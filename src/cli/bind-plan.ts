import type { Command } from '@commander-js/extra-typings';
import { join } from 'node:path';
import { InputError } from '../data/errors.js';
import { departureText, enforcePlan, planDepartures, planValue, readPlanFile, type PlanDeparture, type PlanDeviation, type PlanField, type PlanRecord } from '../decision/plan.js';
import { sha256File } from '../rotation/hash.js';
import { PLAN_FOLDER } from '../rotation/plan-record.js';
import { checkVersionId } from '../rotation/version-id.js';
import type { Io } from './io.js';

// `--plan FILE|ARCHIVE#ID` and `--deviate REASON` for gate, monitor, rank, shortlist and signoff:
// before the command's action runs, every option the plan fixes is compared with the command line
// (a departure refused unless --deviate gives a reason) or, when the user left it out, set to the
// plan's value. The action then reads its options as usual and echoes planEcho(command) in its JSON.

/** The two options every plan-bound command takes. */
export const PLAN_OPTION = ['--plan <file|archive#id>', 'the analysis plan (benchplan plan): a plan file, or ARCHIVE#ID for the plan frozen in an archive; options it fixes take its values, and a different value is refused'] as const;
export const DEVIATE_OPTION = ['--deviate <reason>', 'with --plan: allow the departures from the plan, print them and record them with this reason (JSON deviations; signoff: in the record)'] as const;

/** The plan an analysis ran under: where it came from, its id and digest. */
export interface PlanReference {
  id: string;
  recordDigest: string;
  source: string;
}

/** What a plan-bound command adds to its JSON: the plan and the departures allowed with --deviate. */
export interface PlanEcho {
  plan?: PlanReference;
  deviations?: PlanDeviation[];
}

/** How one option of a command expresses a plan field. */
export interface FlagBinding {
  field: PlanField;
  /** The flag, for messages (`--margin`). */
  flag: string;
  /** The plan's value as this command can express it (default: the value itself). */
  project?: (value: unknown) => unknown;
  /** What the command line sets, as a plan value; undefined when the user did not set it. */
  given: (opts: Record<string, unknown>, sourceOf: (key: string) => string | undefined, plan: unknown) => unknown;
  /** Sets the command's options to the plan's value (the user left them out). */
  apply: (value: unknown, set: (key: string, value: unknown) => void, opts: Record<string, unknown>) => void;
}

const given = (key: string, parse: (raw: unknown) => unknown) => (opts: Record<string, unknown>, sourceOf: (key: string) => string | undefined) => (sourceOf(key) === 'cli' ? parse(opts[key]) : undefined);
const asNumber = (raw: unknown): unknown => {
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(n) ? n : raw;
};

/** A number option (`--margin 0.02`). */
export function numberBinding(field: PlanField, key: string, flag: string): FlagBinding {
  return { field, flag, given: given(key, asNumber), apply: (v, set) => set(key, String(v)) };
}

/** A text option (`--baseline main`, `--seed 7`). */
export function textBinding(field: PlanField, key: string, flag: string): FlagBinding {
  return { field, flag, given: given(key, (raw) => raw), apply: (v, set) => set(key, String(v)) };
}

/** A switch (`--cluster`; `--no-per-stratum` sets perStratum false). */
export function switchBinding(field: PlanField, key: string, flag: string): FlagBinding {
  return { field, flag, given: given(key, (raw) => Boolean(raw)), apply: (v, set) => set(key, Boolean(v)) };
}

/** A repeated option (`--model a --model b`), compared as a set. */
export function listBinding(field: PlanField, key: string, flag: string): FlagBinding {
  return { field, flag, given: given(key, (raw) => (Array.isArray(raw) ? raw : [raw])), apply: (v, set) => set(key, [...(v as string[])]) };
}

/** `--inconclusive pass|fail` against the plan's decision rule (absent: kept inconclusive). */
export const INCONCLUSIVE_BINDING: FlagBinding = {
  field: 'inconclusive',
  flag: '--inconclusive',
  given: (opts, sourceOf) => (sourceOf('inconclusive') === 'cli' ? opts.inconclusive : undefined),
  apply: (v, set) => {
    if (v !== 'inconclusive') set('inconclusive', v);
  },
};

/** The strata file, compared by its content's SHA-256 (the path may differ). */
export const STRATA_BINDING: FlagBinding = {
  field: 'strata',
  flag: '--strata',
  project: (v) => ({ sha256: (v as { sha256: string }).sha256 }),
  given: (opts, sourceOf) => (sourceOf('strata') === 'cli' ? { sha256: digestOf(String(opts.strata), '--strata') } : undefined),
  apply: (v, set) => {
    const strata = v as { source: string; sha256: string };
    const now = digestOf(strata.source, 'the plan\'s strata file');
    if (now !== strata.sha256) throw new InputError(`the strata file the plan fixes changed since the plan was made (sha256 ${strata.sha256.slice(0, 12)}… in the plan, ${now.slice(0, 12)}… now); give the plan's file, or --strata FILE with --deviate "REASON"`, { file: strata.source });
    set('strata', strata.source);
  },
};

function digestOf(path: string, what: string): string {
  try {
    return sha256File(path, { regularOnly: true }).sha256;
  } catch (error) {
    throw new InputError(`cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
}

type Stopping = { rule: 'fixed'; items: number | null } | { rule: 'sequential'; sequence: string; maxItems: number | null };
const stoppingShape = (s: Stopping) => (s.rule === 'fixed' ? { rule: 'fixed' } : { rule: 'sequential', sequence: s.sequence });

/** gate's `--sequential` (and `--sequence`) against the plan's stopping rule. */
export const GATE_STOPPING_BINDING: FlagBinding = {
  field: 'stopping',
  flag: '--sequential',
  project: (v) => stoppingShape(v as Stopping),
  given: (opts, sourceOf, plan) => {
    const p = plan as Stopping;
    if (sourceOf('sequential') !== 'cli' && sourceOf('sequence') !== 'cli') return undefined;
    const sequential = sourceOf('sequential') === 'cli' ? Boolean(opts.sequential) : p.rule === 'sequential';
    if (!sequential) return { rule: 'fixed' };
    return { rule: 'sequential', sequence: sourceOf('sequence') === 'cli' ? opts.sequence : p.rule === 'sequential' ? p.sequence : 'auto' };
  },
  apply: (v, set, opts) => {
    const p = v as Stopping;
    if (p.rule !== 'sequential') return;
    set('sequential', true);
    if (opts.sequence === undefined || opts.sequence === 'auto') set('sequence', p.sequence);
  },
};

/** monitor is sequential by nature: its `--sequence` against the plan's stopping rule (a fixed-n plan is departed from). */
export const MONITOR_STOPPING_BINDING: FlagBinding = {
  field: 'stopping',
  flag: '--sequence',
  project: (v) => stoppingShape(v as Stopping),
  given: (opts, sourceOf, plan) => {
    const p = plan as Stopping;
    if (p.rule === 'fixed') return { rule: 'sequential', sequence: String(opts.sequence ?? 'auto') };
    return sourceOf('sequence') === 'cli' ? { rule: 'sequential', sequence: opts.sequence } : undefined;
  },
  apply: (v, set) => {
    const p = v as Stopping;
    if (p.rule === 'sequential') set('sequence', p.sequence);
  },
};

/** What was bound to each command that ran with --plan. */
const BOUND = new WeakMap<object, { reference: PlanReference; deviations: PlanDeviation[]; plan: PlanRecord }>();

/**
 * Reads `--plan`: a plan file, or `ARCHIVE#ID` for `ARCHIVE/plans/ID.json`; its digest checked (readPlanFile).
 * @throws {InputError} naming the file for a missing, malformed, unknown-field, duplicate-key or edited plan.
 */
export function loadPlan(ref: string): { plan: PlanRecord; source: string } {
  const hash = ref.lastIndexOf('#');
  if (hash > 0) {
    const archive = ref.slice(0, hash);
    const id = checkVersionId(ref.slice(hash + 1), '--plan');
    const path = join(archive, PLAN_FOLDER, `${id}.json`);
    return { plan: readPlanFile(path), source: path };
  }
  return { plan: readPlanFile(ref), source: ref };
}

/**
 * Adds `--plan` and `--deviate` to a command and binds them: before the action, the plan's fixed
 * settings are compared with the command line (planDepartures) and refused (enforcePlan, exit 2)
 * unless --deviate is given, in which case each departure is printed on stderr and kept for
 * planEcho; options the user left out take the plan's values. `required` lists options the
 * command needs from the command line or the plan (commander's required check runs before this).
 */
export function bindPlan<C extends Command<any, any, any>>(command: C, io: Io, bindings: readonly FlagBinding[], required: ReadonlyArray<readonly [key: string, flag: string]> = []): C {
  command.option(...PLAN_OPTION).option(...DEVIATE_OPTION);
  command.hook('preAction', (_self, action) => {
    const opts = action.opts() as Record<string, unknown>;
    const sourceOf = (key: string) => action.getOptionValueSource(key as never) as string | undefined;
    const set = (key: string, value: unknown) => action.setOptionValueWithSource(key as never, value as never, 'config' as never);
    if (opts.plan === undefined) {
      if (opts.deviate !== undefined) throw new InputError('goes with --plan (it records departures from a plan)', { file: '--deviate', value: opts.deviate });
    } else {
      const { plan, source } = loadPlan(String(opts.plan));
      const used: Partial<Record<PlanField, unknown>> = {};
      const projected = { ...plan } as PlanRecord;
      const flags = new Map<PlanField, string>();
      for (const b of bindings) {
        const fixed = planValue(plan, b.field);
        if (fixed === null) continue;
        const value = b.given(opts, sourceOf, fixed);
        if (value === undefined) b.apply(fixed, set, opts);
        else {
          used[b.field] = value;
          flags.set(b.field, b.flag);
          if (b.project && b.field !== 'inconclusive') (projected as Record<string, unknown>)[b.field] = b.project(fixed);
        }
      }
      const departures: PlanDeparture[] = planDepartures(projected, used);
      const deviations = enforceWithFlags(departures, flags, source, opts.deviate as string | undefined);
      for (const d of deviations) io.stderr(`deviation from plan ${plan.id}: ${departureText(d, `used (${flags.get(d.field)})`)}: ${d.reason}\n`);
      BOUND.set(action, { reference: { id: plan.id, recordDigest: plan.recordDigest, source }, deviations, plan });
    }
    for (const [key, flag] of required) {
      if (action.opts()[key] === undefined) action.error(`error: required option '${flag}' not specified`);
    }
  });
  return command;
}

function enforceWithFlags(departures: PlanDeparture[], flags: ReadonlyMap<PlanField, string>, source: string, reason: string | undefined): PlanDeviation[] {
  try {
    return enforcePlan(departures, source, reason);
  } catch (error) {
    if (!(error instanceof InputError) || departures.length === 0) throw error;
    const text = departures.map((d) => `${departureText(d)} (${flags.get(d.field)})`).join('; ');
    throw new InputError(`${text}; follow the plan, or give --deviate "REASON" to depart from it and record why`, { file: source });
  }
}

/** The plan a command ran under and the deviations it allowed, for its JSON; {} without --plan. */
export function planEcho(command: object): PlanEcho {
  const bound = BOUND.get(command);
  return bound === undefined ? {} : { plan: bound.reference, deviations: bound.deviations };
}

/** The plan record a command ran under (null without --plan). */
export function boundPlan(command: object): { plan: PlanRecord; reference: PlanReference; deviations: PlanDeviation[] } | null {
  return BOUND.get(command) ?? null;
}
