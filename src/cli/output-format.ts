import { InputError } from '../data/errors.js';

/**
 * What a command prints: the readable table (default), one JSON document (`--json`), or
 * GitHub-flavoured Markdown (`--format markdown`, on compare, gate, headline and sweep).
 */
export const OUTPUT_FORMATS = ['table', 'json', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The `--format` option of the commands that can print Markdown (compare, gate, headline, sweep):
 * `markdown` is made for GitHub job summaries (`>> "$GITHUB_STEP_SUMMARY"`) and PR comments.
 */
export const FORMAT_OPTION = ['--format <format>', `output: ${OUTPUT_FORMATS.join(', ')} (markdown: a verdict line, then a compact table, for GitHub job summaries and PR comments)`] as const;

// The flag's name and its key in commander's options, both from FORMAT_OPTION, so renaming the
// flag is a one-line change.
const FLAG = FORMAT_OPTION[0].split(' ')[0];
const KEY = FLAG.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The output format from a command's options: `--format` when given, else `json` with `--json`,
 * else `table`. `--json` with `--format table` or `--format markdown` is a contradiction, refused.
 * @throws {InputError} for an unknown format or a contradiction.
 */
export function outputFormatOf(options: Record<string, unknown>): OutputFormat {
  const json = Boolean(options.json);
  const raw = options[KEY];
  if (raw === undefined) return json ? 'json' : 'table';
  if (typeof raw !== 'string' || !(OUTPUT_FORMATS as readonly string[]).includes(raw)) {
    throw new InputError(`must be one of ${OUTPUT_FORMATS.join(', ')}`, { file: FLAG, value: String(raw) });
  }
  if (json && raw !== 'json') throw new InputError('contradicts --json: give one of them', { file: FLAG, value: raw });
  return raw as OutputFormat;
}
