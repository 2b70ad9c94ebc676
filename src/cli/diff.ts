import type { Command } from '@commander-js/extra-typings';
import { formatTable } from '../report/table.js';
import { readArchiveVersion } from '../rotation/archive.js';
import { diffVersions, type DiffItem, type VersionDiff } from '../rotation/diff.js';
import { contextOf, emit, type Io } from './io.js';

function listByStratum(items: readonly DiffItem[]): string[] {
  const out: string[] = [];
  const strata = [...new Set(items.map((x) => x.stratum))];
  for (const s of strata) out.push(`  ${s}: ${items.filter((x) => x.stratum === s).map((x) => (x.split === 'dev' ? `${x.item} (dev)` : x.item)).join(', ')}`);
  return out;
}

export function formatDiff(d: VersionDiff): string {
  const out = [
    `${d.from} → ${d.to}: ${d.added.length} added, ${d.retired.length} retired, ${d.changed.length} changed, ${d.unchanged} unchanged`,
    `fingerprints ${d.fromFingerprint.slice(0, 12)}… → ${d.toFingerprint.slice(0, 12)}…${d.guideline ? `; guideline ${d.guideline.from ?? '(none)'} → ${d.guideline.to ?? '(none)'}` : ''}`,
    '',
    formatTable(
      ['stratum', 'items before', 'items after', 'eval before', 'eval after', 'added', 'retired', 'changed'],
      d.strata.map((s) => [s.stratum, s.before, s.after, s.evalBefore, s.evalAfter, s.added, s.retired, s.changed]),
    ),
  ];
  if (d.added.length) out.push('', 'added', ...listByStratum(d.added));
  if (d.retired.length) out.push('', 'retired', ...listByStratum(d.retired));
  if (d.changed.length) {
    out.push('', 'changed');
    for (const c of d.changed) out.push(`  ${c.item} (${c.stratum}, ${c.split}): ${c.changes.join('; ')}`);
  }
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  program
    .command('diff')
    .description('added, retired and changed items between two archived versions, by stratum')
    .argument('<a>', 'the earlier version id')
    .argument('<b>', 'the later version id')
    .requiredOption('--archive <dir>', 'the archive folder')
    .action((a, b, options, command) => {
      const ctx = contextOf(command, io);
      const from = readArchiveVersion(options.archive, a, 'A');
      const to = readArchiveVersion(options.archive, b, 'B');
      const result = diffVersions(from, to);
      emit(ctx, result, () => formatDiff(result));
    });
}
