import type { Command } from '@commander-js/extra-typings';
import { preflightOutput, writeFileAtomic } from '../data/atomic.js';
import { assertOutputsApart } from '../data/output-paths.js';
import { InputError } from '../data/errors.js';
import { loadManifest } from '../data/manifest.js';
import { loadOutputs, mergeOutputs } from '../data/outputs.js';
import { loadStrata } from '../data/strata-file.js';
import { defaultReviewStrata, reviewSample, type ReviewItemInfo } from '../decision/review.js';
import { reviewCsv, reviewPageHtml } from '../decision/review-page.js';
import { benchmarkItemsFromManifest } from '../rotation/content.js';
import { readShortlist } from '../data/shortlist-document.js';
import { contextOf, emit, numberFlag, seedFlag, warningLines, type Io } from './io.js';
import { loadInputs, withSourceOptions } from './sources.js';
import { seedOption } from './shared-flags.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('review')
    .description("a seeded sample of each finalist's outputs on the strata a person must read, as an HTML page and a CSV")
    .argument('<scores...>', 'scores file(s) with a stratum column: CSV / JSONL (an output column is shown beside the scores), or promptfoo, Inspect, lm-eval results')
    .option('--shortlist <file>', 'the JSON written by benchplan shortlist -o: its finalists are reviewed')
    .option('--model <model>', 'a finalist to review (repeat), instead of --shortlist', collect)
    .option('--strata <file>', 'strata file (YAML): the default strata to review are those named like rare or negative')
    .option('--strata-to-review <list>', 'comma-separated strata to review (default: from --strata, names containing "rare" or "negative")')
    .option('--manifest <file>', 'benchmark manifest: item text and gold label shown beside the outputs')
    .option('--per-stratum <n>', 'items drawn per stratum', '10')
    .option(...seedOption('seed of the draw'))
    .option('--reviewer <name>', 'the person the sample is for, shown on the page')
    .requiredOption('-o, --output <file>', 'the HTML page')
    .option('--csv <file>', 'also write the sample as CSV');
  withSourceOptions(command)
    .action((inputs, opts, cmd) => {
      const scoresPath = inputs.join(' + ');
      const ctx = contextOf(cmd, io);
      const perStratum = numberFlag('--per-stratum', opts.perStratum, { integer: true, min: 1 }) as number;
      let finalists: string[];
      if (opts.shortlist !== undefined && opts.model !== undefined) throw new InputError('give --shortlist or --model, not both', { file: '--model' });
      if (opts.shortlist !== undefined) finalists = readShortlist(opts.shortlist).finalists;
      else if (opts.model !== undefined) finalists = opts.model;
      else throw new InputError('name the finalists: --shortlist FILE (from benchplan shortlist -o) or --model M (repeat)', { file: 'review' });
      let strata: string[];
      if (opts.strataToReview !== undefined) {
        strata = opts.strataToReview.split(',').map((s) => s.trim()).filter((s) => s !== '');
        if (strata.length === 0) throw new InputError('name at least one stratum', { file: '--strata-to-review', value: opts.strataToReview });
      } else {
        if (opts.strata === undefined) throw new InputError('name the strata to review: --strata FILE (its rare and negative strata) or --strata-to-review A,B', { file: 'review' });
        const file = loadStrata(opts.strata);
        strata = defaultReviewStrata(file.strata.map((s) => s.name));
        if (strata.length === 0) throw new InputError('no stratum is named like "rare" or "negative": name the strata to review with --strata-to-review', { file: file.source });
      }
      const reviewInputs = [...inputs.map((path: string) => ({ flag: 'SCORES', path })), ...(['shortlist', 'strata', 'manifest'] as const).flatMap((k) => (opts[k] === undefined ? [] : [{ flag: `--${k}`, path: opts[k] as string }]))];
      assertOutputsApart([{ flag: '--output', path: opts.output }, ...(opts.csv === undefined ? [] : [{ flag: '--csv', path: opts.csv }])], reviewInputs);
      preflightOutput(opts.output, '--output');
      if (opts.csv !== undefined) preflightOutput(opts.csv, '--csv');
      const loaded = loadInputs(inputs, opts as Record<string, unknown>, io, { keepOutputs: true });
      const table = loaded.table;
      let items: Map<string, ReviewItemInfo> | undefined;
      if (opts.manifest !== undefined) {
        const manifest = loadManifest(opts.manifest);
        items = new Map();
        const labels = new Map(manifest.items.map((x) => [x.item, x.label]));
        for (const x of benchmarkItemsFromManifest(manifest)) {
          const info: ReviewItemInfo = { text: Buffer.from(x.content).toString('utf8') };
          const label = labels.get(x.item);
          if (label !== undefined) info.label = String(label);
          items.set(x.item, info);
        }
      }
      // What each finalist answered, from an `output` column of the scores tables (CSV / JSONL).
      // and from the tools' files (promptfoo response.output, Inspect output.completion, lm-eval filtered_resps).
      const outputs = mergeOutputs([loaded.outputs ?? null, ...inputs.map((path: string) => loadOutputs(path))]);
      const sample = reviewSample(table, { finalists, strata, perStratum, seed: seedFlag(opts.seed), ...(items === undefined ? {} : { items }), ...(opts.reviewer === undefined ? {} : { reviewer: opts.reviewer }), ...(outputs === null ? {} : { outputs }) });
      // The pair is committed in order: the CSV first, the page (what the reviewer reads) last. Both
      // carry the sample digest; a kill between the renames leaves a new CSV beside an old page, which
      // signoff --review refuses (checkReviewPair) and a re-run repairs.
      if (opts.csv !== undefined) writeFileAtomic(opts.csv, reviewCsv(sample));
      writeFileAtomic(opts.output, reviewPageHtml(sample, { scores: scoresPath, ...(opts.strata === undefined ? {} : { strata: opts.strata }), ...(opts.manifest === undefined ? {} : { manifest: opts.manifest }) }));
      // The input files are echoed beside the settings: the sample's own `strata` is the list reviewed.
      const report = { ...sample, scores: scoresPath, strataFile: opts.strata ?? null, manifest: opts.manifest ?? null, shortlist: opts.shortlist ?? null, output: opts.output, csv: opts.csv ?? null };
      emit(ctx, report, () =>
        [
          `review sample of ${sample.finalists.join(', ')}: ${sample.strata.map((s) => `${s.stratum} ${s.drawn} of ${s.available}`).join(', ')} items (seed ${sample.seed})`,
          `sample digest ${sample.digest}`,
          `written ${opts.output}${opts.csv === undefined ? '' : ` and ${opts.csv}`}`,
          ...warningLines(sample.warnings),
        ].join('\n'),
      );
    });
}
