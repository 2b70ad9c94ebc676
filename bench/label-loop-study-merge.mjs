// Joins the blocks of bench/label-loop-study.mjs (run with --only 01|graded|nopremise|real) into
// bench/label-loop-study.results.txt and .json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const blocks = ['01', 'graded', 'nopremise', 'real', 'supp', 'suppcal', 'graded-before-fix'];
const text = [];
const json = {};
for (const b of blocks) {
  const t = new URL(`./label-loop-study.results.${b}.txt`, import.meta.url);
  const j = new URL(`./label-loop-study.results.${b}.json`, import.meta.url);
  if (!existsSync(t)) {
    text.push(`== block ${b}: not run ==`, '');
    continue;
  }
  text.push(`== block ${b}${b === 'graded-before-fix' ? ' (first run, before the sure-bound tolerance fix; kept for the record, see AMENDMENT 2)' : ''} ==`, readFileSync(t, 'utf8'));
  json[b] = JSON.parse(readFileSync(j, 'utf8'));
}
writeFileSync(new URL('./label-loop-study.results.txt', import.meta.url), text.join('\n'));
writeFileSync(new URL('./label-loop-study.results.json', import.meta.url), JSON.stringify(json, null, 1) + '\n');
