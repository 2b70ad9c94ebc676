// Joins the blocks of bench/label-loop-study.mjs (run with --only 01|graded|nopremise|real) into
// bench/label-loop-study.results.txt and .json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const blocks = [
  '01',
  'graded',
  'nopremise',
  'real',
  'supp',
  'supp-rest',
  'suppcal',
  'boundary600',
  'tuned',
  'tuned-base',
  'tuned-boundary',
  'tuned-boundary2',
  'tuned-boundary3',
  'tuned-boundary3b',
  'tuned-boundary4',
  'tuned-boundary4b',
  'tuned-real-1',
  'tuned-real-2',
  'tuned-real-3',
  'graded-before-fix',
];
const text = [
  ...readFileSync(new URL('./label-loop-study.conclusions.txt', import.meta.url), 'utf8').split('\n'),
  'How each block was run: 01, nopremise and real with node on dist/ built from commit 57b7fc4..4121fe7 (before the',
  'sure-bound tolerance fix of fe3274b, which cannot change them: their cells are not at θ = −m with fractional',
  'differences); graded (re-run), supp and suppcal with STUDY_FROM_SRC=1 (tsx on src/ after the fix).',
  'supp was stopped at the first session\'s deadline after 18 of 24 cells; the other 6 ran later as supp-rest',
  '(amendment 5a, tsx on src/, the loop\'s code unchanged). boundary600 (amendment 5b), tuned* (amendment 6/6b)',
  'likewise; tuned-summary.txt joins the tuned blocks. The boundary cells of V are split over several files only',
  'because they ran as parallel processes (tuned-boundary: ρ 0.9; tuned-boundary2: biased; 3/3b: none, seed',
  'indices 1000..1029 and 1030..1059; 4/4b: ρ 0.5, likewise). Pilot files (pilot-*) are diagnostics, not results.',
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
