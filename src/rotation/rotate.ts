import { CheckFailed, InputError } from '../data/errors.js';
import type { ScoresTable } from '../data/scores.js';
import type { Seed } from '../random/seed.js';
import { freezeVersion, listArchiveVersions, readArchiveVersion, readVersionItems, type FreezeResult, type VersionRecord } from './archive.js';
import type { BenchmarkItem } from './content.js';
import { assertVersionSound } from './record-links.js';
import { findLeakage, findNearDuplicates, type LeakageResult, type NearDuplicateOptions } from './leakage.js';
import { planRotation, type RotationPlan } from './plan.js';
import { measureSaturation, saturationTrend, type SaturationOptions, type SaturationResult, type SaturationTrend } from './saturation.js';

export interface PrepareRotationOptions extends SaturationOptions {
  /** Share of eval items to retire; default 0.2. */
  fraction?: number;
  /** Default 0. */
  seed?: Seed;
  /** Candidates' scores on the version rotated from: saturated items are retired first. */
  scores?: ScoresTable | null;
  /** Earlier versions with their candidates' scores, for the saturation date (needs `scores` too). */
  history?: ReadonlyArray<{ version: string; scores: ScoresTable }>;
  /** Near-duplicate settings for leakage (eval vs dev) and for incidents that copy a dev item. */
  nearDuplicate?: NearDuplicateOptions;
}

/** A rotation plan with the evidence behind it. */
export interface PreparedRotation {
  archive: string;
  plan: RotationPlan;
  /** Eval items leaked into dev in the version rotated from. */
  leakage: LeakageResult;
  /** Null without scores. */
  saturation: SaturationResult | null;
  /** Null without history. */
  trend: SaturationTrend | null;
  /**
   * The version's items with their content, as read and checked for the plan. Pass the whole
   * prepared rotation to `applyRotation` and it reuses them instead of reading and hashing
   * every object again. (Not JSON: the CLI reports the other fields.)
   */
  fromItems: BenchmarkItem[];
}

/**
 * Plans next quarter's rotation of an archived version: reads the version (checking every
 * object's hash), finds leakage between its splits, measures saturation from the candidates'
 * scores, leaves out incidents that cannot be used (an id any archived version already used, or
 * content that duplicates a dev item, which would arrive already leaked), and calls
 * `planRotation`. Writes nothing.
 * @param incidents the incidents log's items with their content (`benchmarkItemsFromManifest(loadManifest(path, { incidents: true }))`).
 * @throws {InputError} for an unknown version or bad settings; {CheckFailed} when the version's
 *   record, its parent or its chain link was changed (naming the file and field), or an object
 *   in the archive was changed.
 */
export function prepareRotation(archiveDir: string, from: string, incidents: readonly BenchmarkItem[], options: PrepareRotationOptions = {}): PreparedRotation {
  const record = readArchiveVersion(archiveDir, from, '--from');
  // Build only on a version that is as it was frozen: its record, its parent and its place in the chain.
  assertVersionSound(archiveDir, record);
  const items = readVersionItems(archiveDir, record);
  const leakage = findLeakage(items, options.nearDuplicate);
  const saturationOptions: SaturationOptions = {};
  if (options.pass !== undefined) saturationOptions.pass = options.pass;
  if (options.warnAbove !== undefined) saturationOptions.warnAbove = options.warnAbove;
  if (options.models !== undefined) saturationOptions.models = options.models;
  const saturation = options.scores ? measureSaturation(record.items, options.scores, saturationOptions) : null;
  let trend: SaturationTrend | null = null;
  if (options.history && options.history.length > 0) {
    if (!saturation) throw new InputError('a saturation history needs the current scores too (--scores)', { file: '--history' });
    const points = options.history.map((h) => {
      const r = readArchiveVersion(archiveDir, h.version, '--history');
      assertVersionSound(archiveDir, r);
      return { version: r.version, date: r.date, saturation: measureSaturation(r.items, h.scores, saturationOptions) };
    });
    if (points.some((p) => p.version === record.version)) throw new InputError(`the history repeats the version rotated from`, { file: '--history', value: record.version });
    trend = saturationTrend([...points, { version: record.version, date: record.date, saturation }]);
  }

  // Incidents that cannot be used.
  const excluded = new Map<string, string>();
  const usedIn = new Map<string, string>();
  for (const id of listArchiveVersions(archiveDir)) {
    if (id === record.version) continue;
    for (const x of readArchiveVersion(archiveDir, id).items) if (!usedIn.has(x.item)) usedIn.set(x.item, id);
  }
  for (const c of incidents) {
    const version = usedIn.get(c.item);
    if (version !== undefined) excluded.set(c.item, `id already used in version ${version}`);
  }
  const dev = items.filter((x) => x.split === 'dev');
  for (const pair of findNearDuplicates(incidents, dev, options.nearDuplicate)) {
    if (excluded.has(pair.left)) continue;
    excluded.set(pair.left, pair.kind === 'exact' ? `copies dev item ${pair.right} (would arrive leaked)` : `near-duplicates dev item ${pair.right} (Jaccard ${pair.similarity.toFixed(2)}; would arrive leaked)`);
  }

  const plan = planRotation(record, incidents, {
    fraction: options.fraction,
    seed: options.seed,
    saturated: saturation?.saturatedItems ?? [],
    leaked: leakage.leakedEvalItems,
    excluded,
  });
  return { archive: archiveDir, plan, leakage, saturation, trend, fromItems: items };
}

export interface ApplyRotationOptions {
  /** The new version's id. */
  version: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** The new version's guideline; default the old version's. */
  guideline?: string | null;
}

/**
 * Freezes the rotated version: the old version's items minus the retired ones, plus the added
 * incidents in the eval split (their `added` defaults to the new version's id), recorded with
 * the old version as parent. Refuses if the old version changed since the plan was made.
 * Given the whole `PreparedRotation`, it reuses the items `prepareRotation` read and checked,
 * so each object of the old version is read and hashed once for plan and freeze together;
 * given only its `plan`, it reads them again.
 * @throws {CheckFailed} when the new version exists or the old one changed; {InputError} for a bad id or date.
 */
export function applyRotation(archiveDir: string, prepared: PreparedRotation | RotationPlan, incidents: readonly BenchmarkItem[], options: ApplyRotationOptions): FreezeResult {
  const plan = 'plan' in prepared ? prepared.plan : prepared;
  const record: VersionRecord = readArchiveVersion(archiveDir, plan.from, '--from');
  assertVersionSound(archiveDir, record);
  if (record.fingerprint !== plan.fromFingerprint) throw new CheckFailed(`${archiveDir}: version ${plan.from} changed since the plan was made (fingerprint ${record.fingerprint.slice(0, 12)}…)`);
  // The fingerprint binds every item's content hash, so items read for this same fingerprint are the record's.
  const reused = 'plan' in prepared && prepared.archive === archiveDir ? prepared.fromItems : null;
  const retired = new Set(plan.retire.map((x) => x.item));
  const byId = new Map(incidents.map((x) => [x.item, x]));
  const kept = (reused ?? readVersionItems(archiveDir, record)).filter((x) => !retired.has(x.item));
  const added = plan.add.map((a): BenchmarkItem => {
    const x = byId.get(a.item);
    if (!x) throw new InputError(`incident "${a.item}" of the plan is not in the incidents given`, { value: a.item });
    return { ...x, split: 'eval', added: x.added ?? options.version };
  });
  return freezeVersion(archiveDir, [...kept, ...added], {
    version: options.version,
    date: options.date,
    guideline: options.guideline === undefined ? record.guideline : options.guideline,
    parent: { version: record.version, fingerprint: record.fingerprint },
    // Every object of the old version was just read and hashed (by prepareRotation or above).
    checkedObjects: new Set(record.items.map((x) => x.sha256)),
  });
}
