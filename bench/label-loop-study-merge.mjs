// Joins the blocks of bench/label-loop-study.mjs (run with --only 01|graded|nopremise|real) into
// bench/label-loop-study.results.txt and .json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const blocks = ['01', 'graded', 'nopremise', 'real', 'supp', 'suppcal', 'graded-before-fix'];
const text = [
  'How each block was run: 01, nopremise and real with node on dist/ built from commit 57b7fc4..4121fe7 (before the',
  'sure-bound tolerance fix of fe3274b, which cannot change them: their cells are not at θ = −m with fractional',
  'differences); graded (re-run), supp and suppcal with STUDY_FROM_SRC=1 (tsx on src/ after the fix).',
  'supp and suppcal were stopped at the session deadline: the cells listed are all that ran.',
  '',
];
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
