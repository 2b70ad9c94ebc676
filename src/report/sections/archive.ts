import { rotationPlanSpec, type RotationPlanInput } from '../../charts/rotation.js';
import { InputError } from '../../data/errors.js';
import { compareIds } from '../../rotation/hash.js';
import { readSignoff } from '../../decision/signoff.js';
import { diffVersions, listArchiveVersions, readArchiveVersion, verifyArchive, type VersionRecord } from '../../rotation/index.js';
import type { ReportSection } from '../html.js';

/**
 * What a rotation did to the eval split between two frozen versions, by stratum: items kept,
 * items that left it (retired, or moved to dev) and items added.
 */
export function rotationBetween(from: VersionRecord, to: VersionRecord): RotationPlanInput {
  const evalOf = (record: VersionRecord) => new Map(record.items.filter((x) => x.split === 'eval').map((x) => [x.item, x]));
  const before = evalOf(from);
  const after = evalOf(to);
  const inTo = new Map(to.items.map((x) => [x.item, x]));
  const retire = [...before.values()]
    .filter((x) => !after.has(x.item))
    .map((x) => ({ item: x.item, stratum: x.stratum, reason: inTo.has(x.item) ? 'moved to dev' : 'retired' }));
  const add = [...after.values()].filter((x) => !before.has(x.item)).map((x) => ({ item: x.item, stratum: x.stratum }));
  const names = [...new Set([...from.items, ...to.items].filter((x) => x.split === 'eval').map((x) => x.stratum))];
  const strata = names.map((stratum) => ({
    stratum,
    before: [...before.values()].filter((x) => x.stratum === stratum).length,
    after: [...after.values()].filter((x) => x.stratum === stratum).length,
  }));
  return { from: from.version, to: to.version, retire, add, strata };
}

/**
 * Versions in the order they were made, not the order of their ids (as text, "v10" sorts
 * before "v9"): by date, then by depth in the parent chain (a version comes after the one it
 * was rotated from, also on the same day), then by id. Pure.
 */
export function versionsInOrder(records: readonly VersionRecord[]): VersionRecord[] {
  const byId = new Map(records.map((r) => [r.version, r]));
  const depth = new Map<string, number>();
  for (const r of records) {
    let d = 0;
    const seen = new Set([r.version]);
    for (let p = r.parent && byId.get(r.parent.version); p && !seen.has(p.version); p = p.parent && byId.get(p.parent.version)) {
      seen.add(p.version);
      d += 1;
    }
    depth.set(r.version, d);
  }
  return [...records].sort((a, b) => compareIds(a.date, b.date) || (depth.get(a.version) as number) - (depth.get(b.version) as number) || compareIds(a.version, b.version));
}

/**
 * The latest rotation: the latest version (`versionsInOrder`) and the version it was rotated
 * from (its `parent`); for a latest version frozen without a parent, the version before it.
 * Null with fewer than two versions.
 */
export function latestRotation(records: readonly VersionRecord[]): { previous: VersionRecord; last: VersionRecord } | null {
  const ordered = versionsInOrder(records);
  if (ordered.length < 2) return null;
  const last = ordered[ordered.length - 1];
  const parent = last.parent ? ordered.find((r) => r.version === last.parent?.version) : undefined;
  return { previous: parent ?? ordered[ordered.length - 2], last };
}

/**
 * The archive section: every frozen version with its fingerprint and counts, whether the
 * archive is intact (every file re-hashed), and what the latest rotation did by stratum
 * (the latest version against the one it was rotated from; see `latestRotation`).
 * @throws {InputError} when the folder holds no version.
 */
export function archiveSection(archiveDir: string): { section: ReportSection } {
  const versions = listArchiveVersions(archiveDir);
  if (versions.length === 0) throw new InputError('the archive holds no frozen version (benchplan freeze writes one)', { file: archiveDir });
  const records = versionsInOrder(versions.map((v) => readArchiveVersion(archiveDir, v, '--archive')));
  const verified = verifyArchive(archiveDir);
  const latest = latestRotation(records);
  const paragraphs = [
    'A benchmark goes stale three ways: its items stop being representative, it gets tuned against, and candidates saturate it. Rotating a share of the eval items each quarter, keeping dev and eval apart, and keeping every old version runnable are the defences; a frozen version is what lets a score drop be told apart from a harder test.',
    verified.ok
      ? `The archive is intact: ${verified.versions.length} version${verified.versions.length === 1 ? '' : 's'} and ${verified.objects} content files re-hashed, no change, nothing missing or extra.`
      : `The archive is NOT intact: ${verified.problems.length} problem${verified.problems.length === 1 ? '' : 's'} (listed under warnings). Do not trust scores on a tampered version.`,
  ];
  if (verified.notes.length > 0) paragraphs.push(`Note: ${verified.notes.join('; ')}.`);
  const tables = [
    {
      caption: 'Frozen versions',
      header: ['version', 'date', 'guideline', 'eval', 'dev', 'parent', 'fingerprint'],
      // The first 12 hex digits, as `benchplan verify` prints them; the full value is in versions/<id>.json.
      rows: records.map((r) => [r.version, r.date, r.guideline ?? '-', String(r.counts.eval), String(r.counts.dev), r.parent?.version ?? '-', `${r.fingerprint.slice(0, 12)}…`]),
    },
  ];
  let figure: ReportSection['figure'];
  if (latest) {
    const { previous, last } = latest;
    const rotation = rotationBetween(previous, last);
    const diff = diffVersions(previous, last);
    paragraphs.push(
      `From ${previous.version} to ${last.version}: ${rotation.retire.length} eval items left the split, ${rotation.add.length} joined it, ${diff.changed.length} changed in place${diff.guideline ? `, and the guideline went from ${diff.guideline.from ?? 'none'} to ${diff.guideline.to ?? 'none'}` : ''}.`,
    );
    figure = { spec: rotationPlanSpec(rotation), caption: `Eval items by stratum in ${previous.version} (kept and leaving) and ${last.version} (kept and added).` };
    tables.push({
      caption: `${previous.version} → ${last.version} by stratum (eval items)`,
      header: ['stratum', 'before', 'left', 'added', 'after'],
      rows: rotation.strata.map((s) => [s.stratum, String(s.before), String(rotation.retire.filter((r) => r.stratum === s.stratum).length), String(rotation.add.filter((r) => r.stratum === s.stratum).length), String(s.after)]),
    });
  }
  // The decisions signed off on this benchmark (verify has checked them; a problem is a warning below).
  const signed = verified.signoffs.map((id) => readSignoff(archiveDir, id)).filter((r) => r !== null);
  if (signed.length > 0) {
    paragraphs.push(`${signed.length} decision${signed.length === 1 ? '' : 's'} signed off on this benchmark (write-once records in signoffs/, re-checked with their evidence files by verify).`);
    tables.push({
      caption: 'Sign-offs',
      header: ['id', 'date', 'reviewer', 'chosen', 'finalists', 'version', 'record digest'],
      rows: signed.map((r) => [r.id, r.date, r.reviewer, r.chosen, r.finalists.join(', '), r.archiveVersion.version, `${r.recordDigest.slice(0, 12)}…`]),
    });
  }
  const section: ReportSection = {
    id: 'archive',
    title: 'Benchmark versions and rotation',
    paragraphs,
    ...(figure ? { figure } : {}),
    tables,
    settings: [
      ['archive', archiveDir],
      ['versions', records.map((r) => r.version).join(', ')],
    ],
    warnings: verified.problems.map((p) => `${p.kind}: ${p.path}${p.detail ? ` (${p.detail})` : ''}`),
  };
  return { section };
}
