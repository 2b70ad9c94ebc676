import type { Command } from '@commander-js/extra-typings';
import { preflightOutput } from '../data/atomic.js';
import { assertOutputsApart } from '../data/output-paths.js';
import { detectSource } from '../import/detect.js';
import { importResults } from '../import/import-results.js';
import { IMPORT_FORMATS, type ImportOptions } from '../import/types.js';
import { importedScoresFormatOf, writeImportedScores } from '../import/write.js';
import { formatTable } from '../report/table.js';
import { choiceFlag, contextOf, emit, type Io } from './io.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function register(program: Command, io: Io): void {
  program
    .command('import')
    .description('convert promptfoo, Inspect or lm-eval results to a scores table')
    .argument('<format>', `the tool that wrote the files: ${IMPORT_FORMATS.join(', ')}`)
    .argument('<files...>', 'result files or directories: promptfoo results .json/.jsonl; Inspect .eval/.json logs; lm-eval samples_<task>_<time>.jsonl')
    .requiredOption('-o, --output <scores>', 'the scores table to write (.csv or .jsonl)')
    .option('--item-key <key>', 'promptfoo: testIdx (one file) or vars (a hash of each test\'s vars; matches tests across files and repeats)')
    .option('--score <field>', 'promptfoo: score (default), success (1/0) or namedScores.NAME')
    .option('--scorer <name>', 'Inspect: the scorer to read (default: the only one); NAME.KEY for a dict value')
    .option('--epoch-reducer <name>', 'Inspect: mean (epochs kept as repeats), median, mode, max, at_least_K, pass_at_K or pass_k_K (default: the log\'s own)')
    .option('--metric <name>', 'lm-eval: the per-sample metric (default: the only one)')
    .option('--filter <name>', 'lm-eval: the filter whose rows to keep (default: the only one)')
    .option('--stratum-key <key>', 'stratum from promptfoo testCase.metadata/vars, Inspect metadata, lm-eval doc')
    .option('--cluster-key <key>', 'cluster, from the same places as --stratum-key')
    .option('--model <name>', 'model name for every file, or repeat once per file in order', collect, [] as string[])
    .addHelpText(
      'after',
      `
Examples:
  benchplan import promptfoo results.json -o scores.csv
  benchplan import promptfoo before.json after.json --item-key vars --model before --model after -o scores.csv
  benchplan import inspect logs/run-a.eval logs/run-b.eval --scorer match -o scores.jsonl
  benchplan import lm-eval out/model-a/samples_gsm8k_*.jsonl out/model-b/samples_gsm8k_*.jsonl --filter strict-match -o scores.csv`,
    )
    .action((format, files, opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const chosen = choiceFlag('FORMAT', format, IMPORT_FORMATS) as (typeof IMPORT_FORMATS)[number];
      importedScoresFormatOf(opts.output);
      // A path that cannot be written fails now, not after every log has been read.
      assertOutputsApart([{ flag: '-o', path: opts.output }], files.map((path: string) => ({ flag: 'FILES', path })));
      preflightOutput(opts.output, '-o');
      // The digest column binds the table to the items' content, so later pairings can be checked.
      const options: ImportOptions = { withDigest: true };
      if (opts.itemKey !== undefined) options.itemKey = choiceFlag('--item-key', opts.itemKey, ['testIdx', 'vars'] as const);
      if (opts.score !== undefined) options.score = opts.score;
      if (opts.scorer !== undefined) options.scorer = opts.scorer;
      if (opts.epochReducer !== undefined) options.epochReducer = opts.epochReducer;
      if (opts.metric !== undefined) options.metric = opts.metric;
      if (opts.filter !== undefined) options.filter = opts.filter;
      if (opts.stratumKey !== undefined) options.stratumKey = opts.stratumKey;
      if (opts.clusterKey !== undefined) options.clusterKey = opts.clusterKey;
      if (opts.model.length > 0) options.model = opts.model;
      // A directory stands for the format's result files in it (Inspect logs, lm-eval samples).
      const expanded = files.flatMap((path) => detectSource(path, chosen).files);
      assertOutputsApart([{ flag: '-o', path: opts.output }], expanded.map((path: string) => ({ flag: 'FILES', path })));
      const result = importResults(chosen, expanded, options);
      writeImportedScores(opts.output, result.rows);
      const { rows: _rows, ...summary } = result;
      emit(ctx, { output: opts.output, ...summary }, () => {
        const lines = [
          `wrote ${result.rowCount} rows (${result.itemCount} items, ${result.models.length} model${result.models.length === 1 ? '' : 's'}) to ${opts.output}`,
          `left out: ${result.errors} errored run${result.errors === 1 ? '' : 's'}, ${result.unscored} unscored`,
          '',
          formatTable(
            ['file', 'model', 'rows', 'errored', 'unscored'],
            result.files.map((f) => [f.file, f.models.join(', ') || '-', f.rows, f.errors, f.unscored]),
          ),
        ];
        const settings = Object.entries(result.settings)
          .filter(([, v]) => v !== null)
          .map(([k, v]) => `${k} ${v}`);
        if (settings.length > 0) lines.push('', `settings: ${settings.join(', ')}${result.hasOutcome ? '; outcome column from C/I/P/N letters' : ''}`);
        for (const warning of result.warnings) lines.push(`warning: ${warning}`);
        return lines.join('\n');
      });
    });
}
