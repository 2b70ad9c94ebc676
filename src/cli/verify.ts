import type { Command } from '@commander-js/extra-typings';
import { CheckFailed } from '../data/errors.js';
import { verifyArchive, type VerifyResult } from '../rotation/verify.js';
import { checkVersionId } from '../rotation/version-id.js';
import { contextOf, emit, type Io } from './io.js';

export function formatVerify(r: VerifyResult): string {
  const scope = r.version === null ? `${r.versions.length} version${r.versions.length === 1 ? '' : 's'}${r.versions.length ? ` (${r.versions.join(', ')})` : ''}` : `version ${r.version}`;
  const notes = [
    ...r.notes.map((n) => `note: ${n}`),
    ...r.leftovers.map((x) => `leftover (${x.kind}) ${x.path}: ${x.detail}`),
    ...(r.head ? [`chain head: ${r.head.version} (sequence ${r.head.sequence}, record digest ${r.head.recordDigest})`] : []),
    ...(r.plans.length > 0 ? [`plans: ${r.plans.join(', ')} (record digests checked)`] : []),
    ...(r.signoffs.length > 0 ? [`sign-offs: ${r.signoffs.join(', ')} (${r.evidenceFiles} evidence file${r.evidenceFiles === 1 ? '' : 's'} re-hashed)`] : []),
    ...(r.signoffHead ? [`sign-off chain head: ${r.signoffHead.id} (sequence ${r.signoffHead.sequence}, record digest ${r.signoffHead.recordDigest})`] : []),
  ];
  if (r.ok) return [`archive ${r.archive} intact: ${scope}, ${r.items} items, ${r.objects} content file${r.objects === 1 ? '' : 's'} re-hashed, fingerprints, counts, record digests${r.version === null ? ' and the hash chain' : ''} match`, ...notes].join('\n');
  const out = r.problems.map((p) => `${p.kind.padEnd(7)} ${p.path}: ${p.detail}`);
  out.push(`archive ${r.archive}: ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'} in ${scope} (${r.objects} content files re-hashed)`, ...notes);
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  program
    .command('verify')
    .description('re-hash an archive and check its hash chain: exit 1 naming each changed, missing, extra or unreadable file (leftovers of interrupted writes are listed, not failed)')
    .requiredOption('--archive <dir>', 'the archive folder')
    .option('--version <id>', 'check only this version (its record and content files)')
    .action((options, command) => {
      const ctx = contextOf(command, io);
      const version = options.version === undefined ? undefined : checkVersionId(options.version);
      const result = verifyArchive(options.archive, version === undefined ? {} : { version });
      emit(ctx, result, () => formatVerify(result));
      if (!result.ok) {
        throw new CheckFailed(`verify: archive ${options.archive} failed: ${result.problems.length} changed, missing, extra or unreadable file${result.problems.length === 1 ? '' : 's'}`, result);
      }
    });
}
