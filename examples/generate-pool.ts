/**
 * Generates the bundled unlabelled pool for `benchplan select` and `compare --judge`. SYNTHETIC:
 * made-up contract documents, extracted payment terms and judge scores from a seeded generator,
 * so `npx tsx examples/generate-pool.ts` regenerates the same bytes.
 *
 *   pool.csv            400 items × 2 candidates (alpha, beta): item, model, stratum, output, judge
 *                       (the judge's probability that the output is right). The candidates agree on
 *                       about 80% of items (B copies A 60% of the time and often lands on the same answer otherwise), sometimes in different case ("Net 30" / "net 30").
 *   pool-judged.csv     the same items with judge scores and human scores on a uniformly random 80
 *                       of them (score empty on the rest): input of `compare --judge judge`.
 *   pool-labelled.csv   the annotation list `benchplan select examples/pool.csv --budget 120` writes,
 *                       with the score column filled from the simulated gold labels.
 *   pool-strata.yaml    traffic shares of the pool's three strata, for `headline --design` and
 *                       `compare --judge --strata`.
 *   pool-docs.csv       90 contract documents of 3–7 extracted slots each (a `cluster` column: the
 *                       document), 2 candidates; a document's slots share its stratum and lean
 *                       alike (a hard document trips both candidates).
 *   pool-docs-labelled.csv  the list `benchplan select examples/pool-docs.csv --sample-unit cluster
 *                       --budget 150` writes (whole documents), scores filled from the gold labels.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../src/cli/program.js';
import { stringify } from 'yaml';
import { csvLine } from '../src/data/csv-text.js';
import { openTable } from '../src/data/read.js';
import { createRng } from '../src/random/index.js';
import { normaliseOutput } from '../src/selection/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const rng = createRng('benchplan-examples-pool-v1');
const N = 400;
const STRATA = [
  { name: 'routine', share: 0.6, accuracyA: 0.88, accuracyB: 0.82 },
  { name: 'rare_clause', share: 0.25, accuracyA: 0.62, accuracyB: 0.5 },
  { name: 'negative_control', share: 0.15, accuracyA: 0.85, accuracyB: 0.8 },
];
const TERMS = ['net 30', 'net 45', 'net 60', '30 days after invoice', 'on delivery', 'absent'];
/** The candidates produce the same output this often (copying A's answer). */
const AGREEMENT = 0.6;

function draw(correct: boolean, gold: string): string {
  if (correct) return gold;
  const wrong = TERMS.filter((t) => t !== gold);
  return wrong[rng.nextInt(wrong.length)];
}
function judgeOf(correct: boolean): number {
  const x = 0.5 + (correct ? 0.28 : -0.28) + 0.18 * rng.nextNormal();
  return Math.round(Math.min(0.99, Math.max(0.01, x)) * 100) / 100;
}
function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

interface Row { item: string; model: string; stratum: string; output: string; judge: number; score: number }
const rows: Row[] = [];
for (let i = 0; i < N; i++) {
  const u = (i + 0.5) / N;
  const stratum = u < STRATA[0].share ? STRATA[0] : u < STRATA[0].share + STRATA[1].share ? STRATA[1] : STRATA[2];
  const item = `doc${String(i + 1).padStart(3, '0')}-payment`;
  const gold = TERMS[rng.nextInt(TERMS.length)];
  const outA = draw(rng.nextFloat() < stratum.accuracyA, gold);
  let outB: string;
  if (rng.nextFloat() < AGREEMENT) outB = rng.nextFloat() < 0.1 ? capitalise(outA) : outA;
  else outB = draw(rng.nextFloat() < stratum.accuracyB, gold);
  const scoreA = normaliseOutput(outA) === gold ? 1 : 0;
  const scoreB = normaliseOutput(outB) === gold ? 1 : 0;
  // The judge sees the output: the same answer gets the same judge score.
  const judgeA = judgeOf(scoreA === 1);
  const judgeB = normaliseOutput(outA) === normaliseOutput(outB) ? judgeA : judgeOf(scoreB === 1);
  rows.push({ item, model: 'alpha', stratum: stratum.name, output: outA, judge: judgeA, score: scoreA });
  rows.push({ item, model: 'beta', stratum: stratum.name, output: outB, judge: judgeB, score: scoreB });
}

const write = (name: string, lines: string[]) => writeFileSync(join(here, name), `${lines.join('\n')}\n`);
write('pool.csv', [csvLine(['item', 'model', 'stratum', 'output', 'judge']), ...rows.map((r) => csvLine([r.item, r.model, r.stratum, r.output, r.judge]))]);

// A uniformly random 100 of the 400 items carry human scores.
const order = Array.from({ length: N }, (_, i) => i);
for (let i = N - 1; i > 0; i--) {
  const j = rng.nextInt(i + 1);
  [order[i], order[j]] = [order[j], order[i]];
}
const labelled = new Set(order.slice(0, 100));
write('pool-judged.csv', [csvLine(['item', 'model', 'stratum', 'judge', 'score']), ...rows.map((r, k) => csvLine([r.item, r.model, r.stratum, r.judge, labelled.has(Math.floor(k / 2)) ? r.score : '']))]);

// The README's select runs, then their lists filled in with the gold scores.
async function labelledList(poolName: string, flags: string[], truthRows: Row[], outName: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'benchplan-pool-'));
  try {
    const list = join(dir, 'to-label.csv');
    const silent = { stdout: () => {}, stderr: (t: string) => process.stderr.write(t), stderrIsTTY: false };
    const code = await run(['node', 'benchplan', 'select', join(here, poolName), ...flags, '-o', list], silent);
    if (code !== 0) throw new Error(`select exited ${code}`);
    const truth = new Map(truthRows.map((r) => [`${r.item}\u0000${r.model}`, r.score]));
    const reader = openTable(list);
    const header = reader.columns as string[];
    const out = [csvLine(header)];
    for (const { values } of reader.records) {
      values.score = String(truth.get(`${values.item}\u0000${values.model}`));
      out.push(csvLine(header.map((h) => values[h] as string)));
    }
    write(outName, out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
await labelledList('pool.csv', ['--budget', '120'], rows, 'pool-labelled.csv');

write('pool-strata.yaml', ['# SYNTHETIC traffic shares of the bundled pool\'s strata (routine dominates production).', stringify({ strata: { routine: { traffic: 0.75 }, rare_clause: { traffic: 0.05 }, negative_control: { traffic: 0.2 } } }, { flow: false }).trimEnd()]);

// ---------------------------------------------------------------- documents (clusters)
// Its own stream, so the files above keep their bytes.
const docRng = createRng('benchplan-examples-pool-docs-v1');
const SLOTS = ['payment', 'termination', 'liability', 'governing_law', 'renewal', 'notice', 'assignment'];
const docRows: Row[] = [];
const DOCS = 90;
for (let d = 0; d < DOCS; d++) {
  const u = (d + 0.5) / DOCS;
  const stratum = u < STRATA[0].share ? STRATA[0] : u < STRATA[0].share + STRATA[1].share ? STRATA[1] : STRATA[2];
  const doc = `doc${String(d + 1).padStart(3, '0')}`;
  const slots = 3 + docRng.nextInt(5);
  // A hard document (scanned, unusual layout) lowers both candidates' accuracy on all its slots.
  const hard = docRng.nextFloat() < 0.25 ? 0.25 : 0;
  for (let k = 0; k < slots; k++) {
    const item = `${doc}-${SLOTS[k]}`;
    const gold = TERMS[docRng.nextInt(TERMS.length)];
    const pick = (correct: boolean) => (correct ? gold : TERMS.filter((t) => t !== gold)[docRng.nextInt(TERMS.length - 1)]);
    const outA = pick(docRng.nextFloat() < stratum.accuracyA - hard);
    const outB = docRng.nextFloat() < 0.7 ? outA : pick(docRng.nextFloat() < stratum.accuracyB - hard * 1.4);
    docRows.push({ item, model: 'alpha', stratum: stratum.name, output: outA, judge: 0, score: outA === gold ? 1 : 0, cluster: doc } as Row & { cluster: string });
    docRows.push({ item, model: 'beta', stratum: stratum.name, output: outB, judge: 0, score: outB === gold ? 1 : 0, cluster: doc } as Row & { cluster: string });
  }
}
write('pool-docs.csv', [csvLine(['item', 'model', 'stratum', 'cluster', 'output']), ...docRows.map((r) => csvLine([r.item, r.model, r.stratum, (r as Row & { cluster: string }).cluster, r.output]))]);
await labelledList('pool-docs.csv', ['--sample-unit', 'cluster', '--budget', '150'], docRows, 'pool-docs-labelled.csv');
