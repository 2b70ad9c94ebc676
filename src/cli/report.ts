import type { Command } from '@commander-js/extra-typings';
import { loadAnnotations } from '../data/annotations.js';
import { preflightOutput, writeFileAtomic } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { loadJudgeLabels } from '../data/judge-labels.js';
import { loadPolicy } from '../data/policy.js';
import { loadStrata } from '../data/strata-file.js';
import { readLabelLog, replayLabelLog } from '../label/session.js';
import { buildReport, type ReportSources } from '../report/build.js';
import { fingerprintFile, fingerprintFolder } from '../report/fingerprint.js';
import { reportHtml, type ReportInput } from '../report/html.js';
import { contextOf, emit, numberFlag, progress, seedFlag, type Io, resamplesFlag, budgetFlag } from './io.js';
import { loadInputs, withSourceOptions } from './sources.js';
import { VERSION } from './version.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

/** The JSON document of `benchplan report`. */
export interface ReportCommandResult {
  output: string;
  bytes: number;
  sections: Array<{ id: string; title: string; warnings: number }>;
  inputs: ReportInput[];
  notes: string[];
  version: string;
  seed: string;
  confidenceLevel: number;
  resamples: number;
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('report')
    .description('one self-contained HTML report with charts')
    .requiredOption('--scores <files...>', 'scores of the candidates (CSV or JSONL tables, or results files and directories of promptfoo, Inspect, lm-eval): which models differ; per stratum with --strata; cost sweep with --policy')
    .option('--pilot <file>', 'pilot scores of two candidates (with --a, --b): sizing, and allocation across strata (with --strata)')
    .option('--a <model>', 'model A of the pilot, the candidate side of A − B')
    .option('--b <model>', 'model B of the pilot, the baseline side of A − B')
    .option('--strata <file>', 'strata file (YAML) with traffic shares and quotas')
    .option('--policy <file>', 'cost policy (YAML): the cost sweep over the scores\' outcome column')
    .option('--annotations <file>', 'annotations (CSV or JSONL): agreement per clause type')
    .option('--judge-labels <file>', "an LLM judge's scores with human labels beside some (CSV or JSONL, as benchplan judge): the judge section")
    .option('--judge-self-family <models>', "with --judge-labels: comma-separated candidates from the judge's own model family (the self-preference probe)")
    .option('--archive <dir>', 'benchmark archive (benchplan freeze): versions, integrity, the last rotation by stratum')
    .option('--history-run <DATE=FILE>', 'a dated run of the instrument (repeat, in date order): the weekly-dashboard section, as benchplan history', collectRun)
    .option('--history-rerun <DATE=FILE>', "with --history-run: the run DATE's system re-run on the previous version (a version boundary's exact drift split, as history --rerun)", collectRun)
    .option('--label-session <dir>', 'a benchplan label session folder: labels over time, the sequence narrowing, where the labels went')
    .option('--incumbent <model>', 'with three or more models: the model in production; the ranking adds each model\'s difference from it and the selection-adjusted bound of "leader − incumbent" (as benchplan rank)')
    .option('--budget <n>', 'items to allocate and size for (default: the items in --scores) (at most 10,000,000)')
    .option('--mde <x>', "the gap to size for, in the pilot's score units (default: the gap the budget resolves)")
    .option(...seedOption('seed of every bootstrap'))
    .option(...resamplesOption('bootstrap resamples (at most 10,000,000)'))
    .option(...confidenceOption('coverage of every interval'))
    .option('--title <text>', 'title of the report', 'benchplan report')
    .option(...dropUnpairedOption('leave out items some model did not score (default: refuse them, naming them), as compare and gate do'))
    .requiredOption('-o, --output <file>', 'where to write the report (HTML, written atomically)');
  withSourceOptions(command)
    .action(async (options, command) => {
      const ctx = contextOf(command, io);
      const seed = seedFlag(options.seed);
      const nResamples = resamplesFlag(options.resamples) as number;
      const confidenceLevel = confidenceFlag(options.confidence);
      // Sizing from a pilot needs two items to resolve any gap.
      const budget = budgetFlag('--budget', options.budget, options.pilot === undefined ? 1 : 2);
      const mde = numberFlag('--mde', options.mde, { above: 0 });
      if (mde !== undefined && options.pilot === undefined) throw new InputError('sizes from a pilot: give --pilot FILE --a MODEL --b MODEL too', { file: '--mde', value: options.mde });
      if (!/\.html?$/i.test(options.output)) throw new InputError('must end in .html', { file: '--output', value: options.output });
      if (options.pilot === undefined && (options.a !== undefined || options.b !== undefined)) {
        throw new InputError("--a and --b name the pilot's models: give --pilot FILE too", { file: options.a !== undefined ? '--a' : '--b' });
      }
      if (options.pilot !== undefined && (options.a === undefined || options.b === undefined)) {
        throw new InputError('--pilot needs --a MODEL and --b MODEL', { file: '--pilot', value: options.pilot });
      }
      // A path that cannot be written fails now, not after the bootstrap has run.
      preflightOutput(options.output, '-o');

      const loaded = loadInputs(options.scores, options as Record<string, unknown>, io);
      const inputs: ReportInput[] = loaded.sources.flatMap((s) => s.files.map((file) => fingerprintFile('scores', file)));
      // The items' content, apart from the files' bytes: the same suite gives the same line.
      if (loaded.suiteDigest !== null) inputs.push({ role: 'item digests', path: `${loaded.suiteDigest.items} items (item, digest listing)`, sha256: loaded.suiteDigest.sha256, bytes: loaded.suiteDigest.bytes });
      const sources: ReportSources = { scores: loaded.table };
      if (options.pilot !== undefined) {
        inputs.push(fingerprintFile('pilot', options.pilot));
        sources.pilot = { table: loadInputs([options.pilot], options as Record<string, unknown>, io).table, a: options.a as string, b: options.b as string };
      }
      if (options.strata !== undefined) {
        inputs.push(fingerprintFile('strata', options.strata));
        sources.strata = loadStrata(options.strata);
      }
      if (options.policy !== undefined) {
        inputs.push(fingerprintFile('policy', options.policy));
        sources.policy = { policy: loadPolicy(options.policy), source: options.policy };
      }
      if (options.annotations !== undefined) {
        inputs.push(fingerprintFile('annotations', options.annotations));
        sources.annotations = loadAnnotations(options.annotations);
      }
      if (options.judgeSelfFamily !== undefined && options.judgeLabels === undefined) throw new InputError('goes with --judge-labels', { file: '--judge-self-family', value: options.judgeSelfFamily });
      if (options.judgeLabels !== undefined) {
        inputs.push(fingerprintFile('judge labels', options.judgeLabels));
        const judgeTable = loadJudgeLabels(options.judgeLabels);
        const selfFamily = (options.judgeSelfFamily ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
        for (const m of selfFamily) if (!judgeTable.models.includes(m)) throw new InputError(`is not a candidate in ${options.judgeLabels} (candidates: ${judgeTable.models.join(', ')})`, { file: '--judge-self-family', value: m });
        sources.judge = { table: judgeTable, selfFamily };
      }
      if (options.archive !== undefined) {
        inputs.push(fingerprintFolder('archive', options.archive));
        sources.archive = options.archive;
      }
      if (options.labelSession !== undefined) {
        const log = readLabelLog(options.labelSession);
        inputs.push(fingerprintFile('label session log', log.path));
        sources.label = { log, session: replayLabelLog(log) };
      }
      if (options.historyRerun !== undefined && options.historyRun === undefined) throw new InputError('goes with --history-run', { file: '--history-rerun', value: options.historyRerun[0] });
      if (options.historyRun !== undefined) {
        sources.history = options.historyRun.map((text) => {
          const at = text.indexOf('=');
          if (at <= 0 || at === text.length - 1) throw new InputError('must be DATE=FILE, e.g. 2026-11-02=runs/w45.csv', { file: '--history-run', value: text });
          const file = text.slice(at + 1);
          inputs.push(fingerprintFile(`run ${text.slice(0, at)}`, file));
          return { date: text.slice(0, at), table: loadInputs([file], options as Record<string, unknown>, io).table };
        });
        sources.historyReruns = (options.historyRerun ?? []).map((text) => {
          const at = text.indexOf('=');
          if (at <= 0 || at === text.length - 1) throw new InputError('must be DATE=FILE, e.g. 2026-11-23=runs/w48-rerun.csv', { file: '--history-rerun', value: text });
          const file = text.slice(at + 1);
          inputs.push(fingerprintFile(`re-run ${text.slice(0, at)}`, file));
          return { date: text.slice(0, at), table: loadInputs([file], options as Record<string, unknown>, io).table };
        });
        const history = sources.history;
        for (let k = 1; k < history.length; k++) {
          if (!(history[k - 1].date < history[k].date)) throw new InputError(`runs must come in increasing date order (${history[k - 1].date} is followed by ${history[k].date})`, { file: '--history-run', value: history[k].date });
        }
      }

      const version = VERSION;
      const bar = progress(io, 'report');
      let html: string;
      let doc: ReturnType<typeof buildReport>;
      try {
        // buildReport names the input file in any error the data causes; the rest are bugs.
        doc = buildReport(sources, { version, inputs, seed, confidenceLevel, nResamples, budget, mde, title: options.title, dropUnpaired: Boolean(options.dropUnpaired), ...(options.incumbent === undefined ? {} : { incumbent: options.incumbent }) });
        bar.update(0.8);
        html = await reportHtml(doc);
      } finally {
        bar.done();
      }
      writeFileAtomic(options.output, html);
      const result: ReportCommandResult = {
        output: options.output,
        bytes: Buffer.byteLength(html),
        sections: doc.sections.map((s) => ({ id: s.id, title: s.title, warnings: s.warnings.length })),
        inputs,
        notes: [...doc.notes],
        version,
        seed,
        confidenceLevel,
        resamples: nResamples,
      };
      emit(ctx, result, () => {
        const lines = [`wrote ${result.output} (${result.bytes} bytes): ${result.sections.length} section${result.sections.length === 1 ? '' : 's'}`];
        for (const s of result.sections) lines.push(`  ${s.title}${s.warnings ? ` (${s.warnings} warning${s.warnings === 1 ? '' : 's'})` : ''}`);
        for (const note of result.notes) lines.push(`note: ${note}`);
        return lines.join('\n');
      });
    });
}

/** Commander's collector for a repeatable --history-run. */
function collectRun(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
