import { rotationPlanSpec, type RotationPlanInput } from '../../charts/rotation.js';
import { InputError } from '../../data/errors.js';
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
 * The archive section: every frozen version with its fingerprint and counts, whether the
 * archive is intact (every file re-hashed), and what the latest rotation did by stratum.
 * @throws {InputError} when the folder holds no version.
 */
export function archiveSection(archiveDir: string): { section: ReportSection } {
  const versions = listArchiveVersions(archiveDir);
  if (versions.length === 0) throw new InputError('the archive holds no frozen version (benchplan freeze writes one)', { file: archiveDir });
  const records = versions.map((v) => readArchiveVersion(archiveDir, v, '--archive'));
  const verified = verifyArchive(archiveDir);
  const last = records[records.length - 1];
  const previous = records.length > 1 ? records[records.length - 2] : undefined;
  const paragraphs = [
    'A benchmark goes stale three ways: its items stop being representative, it gets tuned against, and candidates saturate it. Rotating a share of the eval items each quarter, keeping dev and eval apart, and keeping every old version runnable are the defences; a frozen version is what lets a score drop be told apart from a harder test.',
    verified.ok
      ? `The archive is intact: ${verified.versions.length} version${verified.versions.length === 1 ? '' : 's'} and ${verified.objects} content files re-hashed, no change, nothing missing or extra.`
      : `The archive is NOT intact: ${verified.problems.length} problem${verified.problems.length === 1 ? '' : 's'} (listed under warnings). Do not trust scores on a tampered version.`,
  ];
  const tables = [
    {
      caption: 'Frozen versions',
      header: ['version', 'date', 'guideline', 'eval', 'dev', 'parent', 'fingerprint'],
      // The first 12 hex digits, as `benchplan verify` prints them; the full value is in versions/<id>.json.
      rows: records.map((r) => [r.version, r.date, r.guideline ?? '-', String(r.counts.eval), String(r.counts.dev), r.parent?.version ?? '-', `${r.fingerprint.slice(0, 12)}…`]),
    },
  ];
  let figure: ReportSection['figure'];
  if (previous) {
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
  const section: ReportSection = {
    id: 'archive',
    title: 'Benchmark versions and rotation',
    paragraphs,
    ...(figure ? { figure } : {}),
    tables,
    settings: [
      ['archive', archiveDir],
      ['versions', versions.join(', ')],
    ],
    warnings: verified.problems.map((p) => `${p.kind}: ${p.path}${p.detail ? ` (${p.detail})` : ''}`),
  };
  return { section };
}
