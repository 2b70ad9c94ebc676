import { statSync } from 'node:fs';
import { extname } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { loadAnnotations } from '../data/annotations.js';
import { InputError } from '../data/errors.js';
import { loadManifest } from '../data/manifest.js';
import { pairScores } from '../data/pairing.js';
import { loadPolicy } from '../data/policy.js';
import { openTable } from '../data/read.js';
import { loadScores } from '../data/scores.js';
import { loadStrata } from '../data/strata-file.js';
import { parseYamlText, readSmallText } from '../data/yaml.js';
import { formatTable } from '../report/table.js';
import { benchmarkItemsFromManifest } from '../rotation/content.js';
import { detectFileFormat, detectSource } from '../import/detect.js';
import { loadResults } from '../import/load-results.js';
import { choiceFlag, contextOf, emit, type Io } from './io.js';
import { dropUnpairedOption } from './shared-flags.js';

const KINDS = ['auto', 'scores', 'promptfoo', 'inspect', 'lm-eval', 'strata', 'policy', 'annotations', 'manifest', 'incidents'] as const;
/** The result files of other tools, which every command that reads scores takes as they are. */
const TOOL_KINDS = ['promptfoo', 'inspect', 'lm-eval'] as const;
type ToolKind = (typeof TOOL_KINDS)[number];
const isToolKind = (kind: string): kind is ToolKind => (TOOL_KINDS as readonly string[]).includes(kind);
type Kind = (typeof KINDS)[number];

/** The tool whose log or output folder `path` is, or undefined when it holds none of their files. */
function toolFolderFormat(path: string): ToolKind | undefined {
  try {
    const format = detectSource(path).format;
    return isToolKind(format) ? format : undefined;
  } catch (error) {
    if (error instanceof InputError) return undefined;
    throw error;
  }
}

/** Guesses a file's kind from its extension and its first record or top-level keys. */
function detectKind(path: string): Exclude<Kind, 'auto'> {
  // A tool's results (a file or a log/output directory) are recognised by content, as every command does.
  // A directory that holds no tool's files falls through to the table reader's "not a regular file".
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    const format = toolFolderFormat(path);
    if (format !== undefined) return format;
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    const data = parseYamlText(readSmallText(path), path).data;
    if (Array.isArray(data)) return 'manifest';
    if (data && typeof data === 'object') {
      if ('strata' in data) return 'strata';
      if ('costs' in data || 'owner' in data) return 'policy';
      if ('items' in data) return 'manifest';
    }
    throw new InputError('cannot tell what kind of YAML file this is: pass --kind', { file: path });
  }
  const tool = detectFileFormat(path);
  if (tool !== undefined && tool !== 'table') return tool;
  const reader = openTable(path);
  let columns = reader.columns;
  if (columns === null) {
    const first = reader.records[Symbol.iterator]().next();
    columns = first.done ? [] : Object.keys(first.value.values);
  }
  if (columns.includes('annotator')) return 'annotations';
  if (columns.includes('split') || (columns.includes('text') && !columns.includes('model'))) return 'manifest';
  return 'scores';
}

export function register(program: Command, io: Io): void {
  program
    .command('validate')
    .description('check an input file (scores, a promptfoo, Inspect or lm-eval result, strata, policy, annotations, manifest) and summarise it')
    .argument('<file>', 'the file to check')
    .option('--kind <kind>', `what the file is: ${KINDS.join(', ')}`, 'auto')
    .option('--a <model>', 'with --b: check that two models pair item by item; model A, the candidate side of A − B')
    .option('--b <model>', 'model B, the baseline side of A − B')
    .option(...dropUnpairedOption('leave out items one model did not score (and say how many)'))
    .action((file, options, command) => {
      const ctx = contextOf(command, io);
      const given = choiceFlag('--kind', options.kind, KINDS) ?? 'auto';
      const kind = given === 'auto' ? detectKind(file) : given;
      let summary: Record<string, unknown>;
      switch (kind) {
        case 'promptfoo':
        case 'inspect':
        case 'lm-eval':
        case 'scores': {
          // A tool's results are read exactly as compare, gate and the other score readers read them (loadResults).
          const loaded = isToolKind(kind) ? loadResults([file], { format: kind }) : null;
          for (const warning of loaded?.warnings ?? []) io.stderr(`warning: ${warning}\n`);
          const table = loaded?.table ?? loadScores(file);
          summary = { rows: table.rowCount, items: table.items.length, models: table.models, strata: table.strata, clusters: table.clusters.length };
          if (loaded !== null) summary.files = loaded.sources.flatMap((source) => source.files);
          if ((options.a === undefined) !== (options.b === undefined)) throw new InputError('give both --a and --b, or neither', { file: options.a === undefined ? '--a' : '--b' });
          if (options.a !== undefined && options.b !== undefined) {
            const paired = pairScores(table, options.a, options.b, { dropUnpaired: options.dropUnpaired });
            summary.paired = { a: options.a, b: options.b, items: paired.items.length, dropped: paired.dropped };
          }
          break;
        }
        case 'strata': {
          const strata = loadStrata(file);
          summary = { strata: strata.strata.map((s) => s.name), hasTraffic: strata.hasTraffic, quotaKind: strata.quotaKind };
          break;
        }
        case 'policy': {
          const policy = loadPolicy(file);
          summary = { owner: policy.owner, decided: policy.decided, costs: policy.costs, sweep: policy.sweep ?? null };
          break;
        }
        case 'annotations': {
          const table = loadAnnotations(file);
          summary = { rows: table.rows.length, annotators: table.annotators, types: [...new Set(table.rows.map((r) => r.type))].filter((t) => t !== null), spans: table.hasSpans };
          break;
        }
        case 'manifest':
        case 'incidents': {
          const manifest = loadManifest(file, { incidents: kind === 'incidents' });
          // The check freeze and rotate make: every `path` a regular file inside the manifest's
          // folder, within the item size limit, and readable. Valid here means freeze accepts it.
          const contents = benchmarkItemsFromManifest(manifest);
          const files = manifest.items.filter((i) => i.text === undefined).length;
          summary = {
            items: manifest.items.length,
            guideline: manifest.guideline ?? null,
            strata: [...new Set(manifest.items.map((i) => i.stratum))],
            files,
            contentBytes: contents.reduce((t, x) => t + x.content.byteLength, 0),
          };
          break;
        }
      }
      const result = { file, kind, valid: true, ...summary };
      emit(ctx, result, () => {
        const rows = Object.entries(summary).map(([key, value]) => [key, typeof value === 'object' ? JSON.stringify(value) : String(value)]);
        const dropped = (summary.paired as { dropped?: number } | undefined)?.dropped;
        const note = dropped ? `\ndropped ${dropped} unpaired item${dropped === 1 ? '' : 's'} (--drop-unpaired)` : '';
        return `${file}: a valid ${kind} file\n${formatTable(['field', 'value'], rows, { align: ['left', 'left'] })}${note}`;
      });
    });
}
