#!/usr/bin/env node
// The demo: every benchplan command on the bundled SYNTHETIC examples, outputs into one folder.
// Usage: npm run demo [-- OUTDIR]   (default out/)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const out = resolve(process.argv[2] ?? 'out');
// Clear only a folder this demo made (it leaves a marker file): `npm run demo -- .` must never
// delete the repository, nor `-- ~` a home folder.
const marker = join(out, '.benchplan-demo');
if (existsSync(out) && readdirSync(out).length > 0 && !existsSync(marker)) {
  process.stderr.write(`demo: ${out} is not empty and was not made by the demo; name a new or empty folder\n`);
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(marker, 'made by npm run demo; the next run may delete this folder\n');
const bin = resolve('bin/benchplan.js');
const o = (name) => join(out, name);

// One step a command; gate may exit 1 or 3 (it is shown failing or undecided on purpose).
const steps = [
  ['compare', ['compare', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--cluster']],
  ['compare (all pairs)', ['compare', 'examples/scores.csv', '--cluster']],
  ['size', ['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--budget', '400', '--per-stratum', '--strata', 'examples/strata.yaml']],
  ['allocate', ['allocate', '--strata', 'examples/strata.yaml', '--budget', '400', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline']],
  ['headline', ['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml']],
  ['sweep', ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--alternative-scores', 'examples/scores-rescored.csv']],
  ['agree', ['agree', 'examples/annotations.csv', '--adjudicate', o('adjudicate.csv')]],
  ['freeze', ['freeze', 'examples/manifest.yaml', '--archive', o('archive'), '--version', '2026Q3', '--date', '2026-07-01']],
  ['verify', ['verify', '--archive', o('archive')]],
  ['rotate', ['rotate', '--archive', o('archive'), '--from', '2026Q3', '--incidents', 'examples/incidents.jsonl', '--scores', 'examples/rotation/scores-2026Q3.csv', '--apply', '--version', '2026Q4', '--date', '2026-10-01']],
  ['diff', ['diff', '--archive', o('archive'), '2026Q3', '2026Q4']],
  ['drift', ['drift', '--before', 'examples/rotation/drift-before.csv', '--rerun', 'examples/rotation/drift-rerun.csv', '--after', 'examples/rotation/drift-after.csv', '--archive', o('archive'), '--from', '2026Q3', '--to', '2026Q4']],
  ['import', ['import', 'inspect', 'tests/fixtures/import/inspect/run-a.eval', 'tests/fixtures/import/inspect/run-b.eval', '--stratum-key', 'stratum', '-o', o('imported.csv')]],
  ['gate', ['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster', '--per-stratum']],
  ['report', ['report', '--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--strata', 'examples/strata.yaml', '--policy', 'examples/policy.yaml', '--annotations', 'examples/annotations.csv', '--archive', o('archive'), '--mde', '5', '-o', o('report.html')]],
];

let ran = 0;
for (const [name, args] of steps) {
  process.stdout.write(`\n$ benchplan ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  const text = result.stdout + result.stderr;
  process.stdout.write(text);
  if (result.status !== 0 && !(name === 'gate' && (result.status === 1 || result.status === 3))) {
    process.stderr.write(`demo: step "${name}" failed with exit status ${result.status}\n`);
    process.exit(1);
  }
  ran += 1;
}
// The notebooks, last: each writes one HTML page (prose, code, outputs, charts) into OUTDIR/notebooks.
process.stdout.write(`\n$ npm run notebooks -- ${o('notebooks')}\n`);
const notebooks = spawnSync(process.execPath, ['--import', 'tsx', 'notebooks/build.ts', o('notebooks')], { encoding: 'utf8' });
process.stdout.write(notebooks.stdout + notebooks.stderr);
if (notebooks.status !== 0) {
  process.stderr.write(`demo: the notebooks failed with exit status ${notebooks.status}\n`);
  process.exit(1);
}
ran += 1;
process.stdout.write(`\ndemo: ran ${ran} steps; outputs in ${out}\n`);
