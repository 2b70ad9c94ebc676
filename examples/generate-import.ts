/**
 * Generates the bundled promptfoo results for `benchplan import` and `benchplan gate`. All of it
 * is SYNTHETIC: made-up contracts, questions and pass/fail results drawn from a seeded generator,
 * written in promptfoo's `eval -o results.json` layout (an OutputFile with an EvaluateSummary of
 * version 3) so that `npx tsx examples/generate-import.ts` regenerates the same bytes.
 *
 *   promptfoo/main.json   the prompt on the main branch: 150 tests, one provider
 *   promptfoo/pr.json     the same tests after a prompt change in a pull request, in another
 *                         order (so only --item-key vars pairs them), 3 provider errors
 *
 * Per stratum the two prompts pass with probabilities (main → pr): routine 0.93 → 0.94,
 * rare_clause 0.60 → 0.70, negative_control 0.86 → 0.80: better where it was tuned, slightly worse
 * on the documents that lack the clause. Outcomes are paired through a shared per-test difficulty.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng, shuffle } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 'benchplan-examples-import-v1';
const PROVIDER = 'openai:gpt-4o-mini';

const STRATA = [
  { name: 'routine', count: 90, main: 0.93, pr: 0.94 },
  { name: 'rare_clause', count: 30, main: 0.6, pr: 0.7 },
  { name: 'negative_control', count: 30, main: 0.86, pr: 0.8 },
] as const;
const CLAUSES = ['indemnity', 'termination', 'governing_law', 'change_of_control', 'non_compete', 'liability_cap'];

interface Test {
  vars: { contract: string; clause: string; question: string };
  stratum: string;
  main: boolean;
  pr: boolean;
}

const rng = createRng(SEED);
const tests: Test[] = [];
let k = 0;
for (const s of STRATA) {
  for (let j = 0; j < s.count; j++) {
    k += 1;
    const clause = CLAUSES[rng.nextInt(CLAUSES.length)];
    const contract = `doc-${String(k).padStart(3, '0')}`;
    const difficulty = rng.nextFloat();
    // The pull request sees the same difficulty most of the time: the two runs are paired.
    const prDifficulty = rng.nextFloat() < 0.85 ? difficulty : rng.nextFloat();
    tests.push({
      vars: { contract, clause, question: s.name === 'negative_control' ? `Does ${contract} contain a ${clause} clause?` : `Quote the ${clause} clause of ${contract}.` },
      stratum: s.name,
      main: difficulty < s.main,
      pr: prDifficulty < s.pr,
    });
  }
}

function results(which: 'main' | 'pr', order: Test[], errors: Set<number>) {
  const label = which === 'main' ? 'extract-v1' : 'extract-v2';
  const raw = which === 'main' ? 'Answer from {{contract}}: {{question}}' : 'Read {{contract}} clause by clause. If the clause is absent, say so. {{question}}';
  const out = order.map((t, testIdx) => {
    const base = {
      promptIdx: 0,
      testIdx,
      promptId: which === 'main' ? 'b7c1e2' : 'f40a9d',
      testCase: { vars: t.vars, metadata: { stratum: t.stratum } },
      vars: t.vars,
      provider: { id: PROVIDER },
      prompt: { raw: raw.replace('{{contract}}', t.vars.contract).replace('{{question}}', t.vars.question), label },
      namedScores: {},
      latencyMs: 600 + ((testIdx * 37) % 400),
    };
    if (errors.has(testIdx)) return { ...base, success: false, score: 0, failureReason: 2, error: 'API error: 429 Too Many Requests (SYNTHETIC)' };
    const pass = t[which];
    return pass ? { ...base, success: true, score: 1, failureReason: 0 } : { ...base, success: false, score: 0, failureReason: 1, error: 'Expected output to match the annotated span (SYNTHETIC)' };
  });
  const successes = out.filter((r) => r.success).length;
  const errored = out.filter((r) => r.failureReason === 2).length;
  return {
    evalId: `SYNTHETIC-${which}`,
    results: {
      version: 3,
      timestamp: which === 'main' ? '2026-10-01T09:00:00.000Z' : '2026-10-02T09:00:00.000Z',
      prompts: [{ raw, label, provider: PROVIDER }],
      results: out,
      stats: { successes, failures: out.length - successes - errored, errors: errored },
    },
    config: { description: `SYNTHETIC example results (${which}) made by examples/generate-import.ts; not from a real model` },
    shareableUrl: null,
  };
}

const prOrder = shuffle([...tests], createRng(SEED, 'pr-order'));
mkdirSync(join(here, 'promptfoo'), { recursive: true });
writeFileSync(join(here, 'promptfoo', 'main.json'), `${JSON.stringify(results('main', tests, new Set()), null, 1)}\n`);
writeFileSync(join(here, 'promptfoo', 'pr.json'), `${JSON.stringify(results('pr', prOrder, new Set([17, 64, 121])), null, 1)}\n`);
process.stdout.write('examples/promptfoo/{main,pr}.json written (SYNTHETIC)\n');
