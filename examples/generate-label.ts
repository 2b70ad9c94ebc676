/**
 * Generates the bundled example of `benchplan label` (docs/label.md). SYNTHETIC: made-up contract
 * documents, extracted payment terms and judge scores from a seeded generator, so
 * `npx tsx examples/generate-label.ts` regenerates the same bytes.
 *
 *   label-pool.csv              300 items × 2 candidates (current, candidate): item, model, stratum,
 *                               output, judge (the judge's probability that the output is right).
 *                               The candidates give the same output on about 75% of items; the
 *                               candidate is right more often (true gap about +0.07 on 0/1 scores).
 *   label-answers/batch-NNN.csv each batch the docs' session proposes, filled in by a simulated
 *                               annotator who knows the gold answer (1 when an output is right),
 *                               until the session stops. Made by running the CLI itself on the
 *                               settings below, so the files answer exactly the batches it asks for.
 *
 * The docs page runs: label start … then label record on each answers file in turn. If the loop's
 * proposals change (src/label/loop.ts), re-run this script: the docs test fails until then.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../src/cli/program.js';
import { csvLine } from '../src/data/csv-text.js';
import { openTable } from '../src/data/read.js';
import { createRng } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const rng = createRng('benchplan-examples-label-v1');
const N = 300;
const STRATA = [
  { name: 'routine', share: 0.6, accuracyBaseline: 0.8, accuracyCandidate: 0.86 },
  { name: 'rare_clause', share: 0.25, accuracyBaseline: 0.55, accuracyCandidate: 0.66 },
  { name: 'negative_control', share: 0.15, accuracyBaseline: 0.82, accuracyCandidate: 0.85 },
];
const TERMS = ['net 30', 'net 45', 'net 60', '30 days after invoice', 'on delivery', 'absent'];
/** The candidate copies the current model's answer this often (same output, same correctness). */
const COPY = 0.5;
/** The settings the docs page uses (keep in step with docs/label.md). */
export const SESSION_FLAGS = ['--baseline', 'current', '--candidate', 'candidate', '--judge', 'judge', '--margin', '0.05', '--budget', '150', '--batch', '250', '--seed', '7'];

function wrongTerm(gold: string): string {
  const wrong = TERMS.filter((t) => t !== gold);
  return wrong[rng.nextInt(wrong.length)];
}
function judgeOf(correct: boolean): number {
  const x = 0.5 + (correct ? 0.25 : -0.25) + 0.2 * rng.nextNormal();
  return Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;
}

interface Item {
  item: string;
  stratum: string;
  gold: string;
  baseline: string;
  candidate: string;
}

const items: Item[] = [];
for (let i = 0; i < N; i++) {
  const u = rng.nextFloat();
  const s = u < STRATA[0].share ? STRATA[0] : u < STRATA[0].share + STRATA[1].share ? STRATA[1] : STRATA[2];
  const gold = TERMS[rng.nextInt(TERMS.length)];
  const baseline = rng.nextFloat() < s.accuracyBaseline ? gold : wrongTerm(gold);
  // Copying keeps the current model's answer; otherwise the candidate answers on its own, right at
  // a rate that makes its overall accuracy the stratum's: a = COPY·aB + (1 − COPY)·r.
  const r = Math.min(1, Math.max(0, (s.accuracyCandidate - COPY * s.accuracyBaseline) / (1 - COPY)));
  const candidate = rng.nextFloat() < COPY ? baseline : rng.nextFloat() < r ? gold : wrongTerm(gold);
  items.push({ item: `c${String(i + 1).padStart(3, '0')}-payment`, stratum: s.name, gold, baseline, candidate });
}

const poolLines = [csvLine(['item', 'model', 'stratum', 'output', 'judge'])];
for (const it of items) {
  poolLines.push(csvLine([it.item, 'current', it.stratum, it.baseline, judgeOf(it.baseline === it.gold)]));
  poolLines.push(csvLine([it.item, 'candidate', it.stratum, it.candidate, judgeOf(it.candidate === it.gold)]));
}
writeFileSync(join(here, 'label-pool.csv'), `${poolLines.join('\n')}\n`);
const byId = new Map(items.map((it) => [it.item, it]));

const silent = { stdout: () => {}, stderr: (t: string) => process.stderr.write(t), stderrIsTTY: false };
const answersDir = join(here, 'label-answers');
rmSync(answersDir, { recursive: true, force: true });
mkdirSync(answersDir, { recursive: true });
const session = mkdtempSync(join(tmpdir(), 'benchplan-label-'));
process.chdir(root);
try {
  let out = '';
  const capture = { ...silent, stdout: (t: string) => (out += t) };
  const started = await run(['node', 'benchplan', 'label', 'start', 'examples/label-pool.csv', ...SESSION_FLAGS, '--session', session, '--json'], capture);
  if (started !== 0) throw new Error(`label start exited ${started}`);
  for (let round = 1; ; round++) {
    const status = JSON.parse(out) as { verdict: string; batch: number | null; batchFile: string | null };
    if (status.verdict !== 'continue' || status.batchFile === null) {
      process.stderr.write(`label example: ${round - 1} answer files, verdict ${status.verdict}\n`);
      break;
    }
    if (round > 50) throw new Error('the example session did not stop');
    const asked = openTable(status.batchFile);
    const lines = [csvLine(asked.columns as string[])];
    for (const { values } of asked.records) {
      const it = byId.get(String(values.item)) as Item;
      lines.push(csvLine((asked.columns as string[]).map((c) => (c === 'baseline' ? Number(it.baseline === it.gold) : c === 'candidate' ? Number(it.candidate === it.gold) : String(values[c])))));
    }
    const answers = join(answersDir, `batch-${String(status.batch).padStart(3, '0')}.csv`);
    writeFileSync(answers, `${lines.join('\n')}\n`);
    out = '';
    const code = await run(['node', 'benchplan', 'label', 'record', relative(root, answers), '--session', session, '--json'], capture);
    if (code !== 0 && code !== 1 && code !== 3) throw new Error(`label record exited ${code}`);
  }
} finally {
  rmSync(session, { recursive: true, force: true });
}
