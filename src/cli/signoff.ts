import type { Command } from '@commander-js/extra-typings';
import { sha256File } from '../rotation/hash.js';
import { InputError } from '../data/errors.js';
import { loadPolicy } from '../data/policy.js';
import { checkReviewPair } from '../data/review-pair.js';
import { readShortlist, type ShortlistDocument } from '../data/shortlist-document.js';
import { signoff, type EvidenceRole } from '../decision/signoff.js';
import { choiceFlag, contextOf, emit, type Io } from './io.js';
import { bindPlan, boundPlan, STRATA_BINDING } from './bind-plan.js';
import { departureText, enforcePlan, planDepartures, type PlanDeparture, type PlanDeviation, type PlanField } from '../decision/plan.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * The deviations a sign-off under a plan records: those allowed by this command's --deviate, those
 * the shortlist document carries, and the shortlist's own settings compared with the plan (a
 * shortlist computed with another margin or level is a departure, refused without --deviate).
 */
function signoffDeviations(list: ShortlistDocument, shortlistPath: string, bound: NonNullable<ReturnType<typeof boundPlan>>, reason: string | undefined, io: Io): PlanDeviation[] {
  if (list.plan !== undefined && list.plan.recordDigest !== bound.reference.recordDigest) {
    throw new InputError(`was computed under another plan (${list.plan.id}, record digest ${list.plan.recordDigest.slice(0, 12)}…), not ${bound.reference.id} (${bound.reference.recordDigest.slice(0, 12)}…)`, { file: shortlistPath, field: 'plan', value: list.plan.id });
  }
  const used: Partial<Record<PlanField, unknown>> = {};
  if (list.margin !== undefined) used.margin = list.margin;
  if (list.confidenceLevel !== undefined) used.confidenceLevel = list.confidenceLevel;
  if (list.perStratum !== undefined) used.perStratum = list.perStratum;
  if (list.clustered !== undefined) used.cluster = list.clustered;
  // A departure the shortlist already allowed with --deviate is recorded with its reason, not asked again.
  for (const d of list.deviations ?? []) delete used[d.field as PlanField];
  const own = enforcePlan(planDepartures(bound.plan, used), bound.reference.source, reason, `in the shortlist ${shortlistPath}`);
  for (const d of own) io.stderr(`deviation from plan ${bound.reference.id}: ${departureText(d, `in the shortlist ${shortlistPath}`)}: ${d.reason}\n`);
  return [...bound.deviations, ...(list.deviations ?? []).map((d) => ({ field: d.field as PlanField, plan: d.plan, used: d.used, reason: d.reason })), ...own];
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('signoff')
    .description('record the decision write-once in the archive: reviewer, date, choice, finalists, note and the digests of its evidence')
    .requiredOption('--archive <dir>', 'the archive folder (the record goes to DIR/signoffs/ID.json)')
    .requiredOption('--id <id>', 'the sign-off id, e.g. 2026Q4-pick (write-once: a second sign-off of an id fails)')
    .requiredOption('--reviewer <name>', 'the named person who read the review sample and owns the choice')
    .requiredOption('--date <YYYY-MM-DD>', 'the date of the decision')
    .requiredOption('--chosen <model>', 'the candidate chosen: one of the shortlist\'s finalists')
    .requiredOption('--shortlist <file>', 'the JSON written by benchplan shortlist -o')
    .option('--note <text>', 'what the reviewer writes about the choice', '')
    .option('--version <id>', 'the archive version decided on (default: the head of the archive)')
    .option('--scores <file>', 'the scores file the shortlist was computed from')
    .option('--strata <file>', 'the strata file')
    .option('--policy <file>', 'the cost policy (its owner is recorded)')
    .option('--review <file>', 'the review sample: the page (benchplan review -o) and/or its CSV (--csv); repeat for both. The page and CSV must carry one sample digest (a CSV or page of the same name beside the one given is checked too)', collect)
    .option('--agreement <file>', 'the annotator agreement report (benchplan agree --json)')
    .option('--judge <name>', 'the judge (model or rubric) that scored the outputs, if one did')
    .option('--labels <state>', 'the gold labels: reviewed or unreviewed');
  // The plan's strata file becomes evidence when --strata is left out; a different one is a departure.
  bindPlan(command, io, [STRATA_BINDING]);
  command.action((opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const list = readShortlist(opts.shortlist);
      const policyOwner = opts.policy === undefined ? null : loadPolicy(opts.policy).owner;
      // A shortlist priced under one policy signed off with another would record the wrong exchange rate.
      // And one priced under a policy signed off without it would record no owner for the exchange rate it rests on.
      if (opts.policy === undefined && list.policy) {
        throw new InputError(`was computed under the cost policy ${list.policy.source} (sha256 ${list.policy.sha256.slice(0, 12)}…): give that file as --policy, so the sign-off records it and its owner`, { file: opts.shortlist, field: 'policy', value: list.policy.source });
      }
      if (opts.policy !== undefined && list.policy) {
        const now = sha256File(opts.policy, { regularOnly: true }).sha256;
        if (now !== list.policy.sha256) throw new InputError(`is not the policy the shortlist was computed under (${opts.shortlist} records ${list.policy.source} with sha256 ${list.policy.sha256.slice(0, 12)}…, this file has ${now.slice(0, 12)}…)`, { file: opts.policy });
      }
      const bound = boundPlan(cmd);
      const deviations = bound === null ? [] : signoffDeviations(list, opts.shortlist, bound, (opts as Record<string, unknown>).deviate as string | undefined, io);
      // A page and a CSV from two runs of review (one interrupted between its writes) would record a sample the reviewer never read.
      if (opts.review !== undefined) checkReviewPair(opts.review);
      const evidence: Array<{ role: EvidenceRole; path: string }> = [];
      const files: Array<[EvidenceRole, string | undefined]> = [['scores', opts.scores], ['strata', opts.strata], ['policy', opts.policy], ['shortlist', opts.shortlist], ...(opts.review ?? []).map((path): [EvidenceRole, string] => ['review', path]), ['agreement', opts.agreement]];
      for (const [role, path] of files) if (path !== undefined) evidence.push({ role, path });
      const result = signoff(opts.archive, {
        id: opts.id,
        reviewer: opts.reviewer,
        date: opts.date,
        chosen: opts.chosen,
        finalists: list.finalists,
        note: opts.note,
        ...(opts.version === undefined ? {} : { version: opts.version }),
        policyOwner,
        ...(opts.judge === undefined ? {} : { judge: opts.judge }),
        ...(opts.labels === undefined ? {} : { labels: choiceFlag('--labels', opts.labels, ['reviewed', 'unreviewed'] as const) as 'reviewed' | 'unreviewed' }),
        evidence,
        ...(bound === null ? {} : { plan: { id: bound.reference.id, recordDigest: bound.reference.recordDigest }, deviations }),
      });
      const r = result.record;
      emit(ctx, { ...r, path: result.path }, () =>
        [
          `signed off: ${r.chosen} (of finalists ${r.finalists.join(', ')}) by ${r.reviewer} on ${r.date}, on version ${r.archiveVersion.version}`,
          result.completedInterrupted ? `completed ${result.path}: an earlier run of this sign-off was interrupted after the sign-off chain named it; its record is now in place (write-once), record digest ${r.recordDigest}` : `written ${result.path} (write-once), record digest ${r.recordDigest}`,
          ...r.evidence.map((e) => `  ${e.role.padEnd(9)} ${e.path}  sha256 ${e.sha256}`),
          ...(r.policyOwner === null ? [] : [`  policy owner: ${r.policyOwner}`]),
          ...(r.judge === null ? [] : [`  judge: ${r.judge}`]),
          ...(r.labels === null ? [] : [`  labels: ${r.labels}`]),
          ...(r.plan === undefined ? [] : [`  plan: ${r.plan.id} (record digest ${r.plan.recordDigest})${(r.deviations ?? []).length === 0 ? ', followed' : `, ${(r.deviations ?? []).length} deviation${(r.deviations ?? []).length === 1 ? '' : 's'} recorded`}`]),
          ...(r.deviations ?? []).map((d) => `  deviation: ${departureText(d as PlanDeparture, 'used')}: ${d.reason}`),
          'benchplan verify --archive DIR re-checks the record and re-hashes the evidence files.',
        ].join('\n'),
      );
    });
}
