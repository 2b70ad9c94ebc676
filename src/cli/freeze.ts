import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../data/errors.js';
import { loadManifest } from '../data/manifest.js';
import { dateFlag } from './shared-flags.js';
import { formatTable } from '../report/table.js';
import { freezeVersion, type FreezeResult } from '../rotation/archive.js';
import { benchmarkItemsFromManifest } from '../rotation/content.js';
import { isIsoDate } from '../data/dates.js';
import { findLeakage, type LeakageResult } from '../rotation/leakage.js';
import { formatLeakage } from '../report/leakage.js';
import { checkVersionId } from '../rotation/version-id.js';
import { contextOf, emit, numberFlag, type Io } from './io.js';

/** The JSON document of `benchplan freeze`. */
export interface FreezeReport extends FreezeResult {
  manifest: string;
  leakage: LeakageResult;
  warnings: string[];
}

export function formatFreeze(r: FreezeReport): string {
  const evalCount = r.strata.reduce((t, s) => t + s.eval, 0);
  const devCount = r.strata.reduce((t, s) => t + s.dev, 0);
  const out = [
    `Froze version ${r.version} of ${r.manifest} into ${r.archive}: ${r.items} items (${evalCount} eval, ${devCount} dev), ${r.objectsWritten + r.objectsShared} distinct contents: ${r.objectsWritten} written, ${r.objectsShared} already stored`,
    `fingerprint ${r.fingerprint}`,
    `guideline ${r.guideline ?? '(none recorded)'}, date ${r.date}${r.parent ? `, rotated from ${r.parent.version}` : ''}; number ${r.sequence} of the archive's hash chain${r.previous ? ` (after ${r.previous.version})` : ''}`,
    ...(r.leftoversRemoved > 0 ? [`removed ${r.leftoversRemoved} temporary file${r.leftoversRemoved === 1 ? '' : 's'} left by interrupted writes`] : []),
    '',
    formatTable(['stratum', 'eval', 'dev'], r.strata.map((s) => [s.stratum, s.eval, s.dev])),
    '',
    ...formatLeakage(r.leakage),
  ];
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  program
    .command('freeze')
    .description('store a benchmark version in a write-once, content-addressed archive')
    .argument('<manifest>', 'the benchmark manifest (YAML or JSONL): item, stratum, split, text or path, label, added, source')
    .requiredOption('--archive <dir>', 'the archive folder (created if absent)')
    .requiredOption('--version <id>', 'the new version id, e.g. 2026Q3 (letters, digits, ".", "_", "-"; never overwritten)')
    .option('--guideline <version>', "the annotation guideline version the labels follow (when the manifest does not say)")
    .option('--date <yyyy-mm-dd>', 'the date recorded for the version (default today)')
    .option('--near-duplicate <jaccard>', 'Jaccard similarity of word 3-shingles at which a dev item counts as a copy of an eval item', '0.8')
    .action((manifestPath, options, command) => {
      const ctx = contextOf(command, io);
      const version = checkVersionId(options.version);
      const date = dateFlag(options.date);
      const threshold = numberFlag('--near-duplicate', options.nearDuplicate, { above: 0, max: 1 }) as number;
      const manifest = loadManifest(manifestPath);
      if (options.guideline !== undefined && manifest.guideline !== undefined && options.guideline !== manifest.guideline) {
        throw new InputError(`differs from the manifest's guideline "${manifest.guideline}"`, { file: '--guideline', value: options.guideline });
      }
      const guideline = options.guideline ?? manifest.guideline ?? null;
      const items = benchmarkItemsFromManifest(manifest);
      const leakage = findLeakage(items, { threshold });
      const result = freezeVersion(options.archive, items, { version, date, guideline });
      const warnings: string[] = [];
      if (guideline === null) warnings.push('no annotation guideline version recorded (--guideline): labels cannot be traced to the rules they follow');
      const report: FreezeReport = { ...result, manifest: manifestPath, leakage, warnings };
      emit(ctx, report, () => formatFreeze(report));
    });
}
