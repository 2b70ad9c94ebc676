import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { costSweep } from '../../src/costs/sweep.js';
import { tallyOutcomes } from '../../src/costs/tally.js';
import { sweepUncertainty } from '../../src/costs/uncertainty.js';
import { loadPolicy } from '../../src/data/policy.js';
import { alignModels } from '../../src/data/pairing.js';
import { loadScores, scoresFromRows } from '../../src/data/scores.js';
import { costScopes } from '../../src/decision/cost-scopes.js';
import { parseRequirement } from '../../src/decision/requirement.js';
import { shortlist, type ShortlistResult } from '../../src/decision/shortlist.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

// R 4.2.2, tests/reference/decision/shortlist-cost.R: an independent computation of the
// per-document costs under the README's attribution rule, t.test()$conf.int, t.test(d, mu =
// costMargin, alternative = "greater") and p.adjust(method = "holm") over each candidate's score
// and cost checks. (A first scipy 1.10 version agreed on every cost to 1e-15 but its t.ppf is
// ~1e-9 off R's qt, which benchplan's studentTQuantile matches to 1e-15: R is the reference.)
interface Reference {
  best: string;
  cheapest: string;
  margin: number;
  costMargin: number;
  candidates: Record<
    string,
    {
      costs: Record<string, { documents: number; estimate: number; confidenceInterval: [number, number] }>;
      score?: Array<{ scope: string; pValue: number; adjustedPValue: number; holmLevel: number; holmUpper: number }>;
      cost?: Array<{ scope: string; documents: number; estimate: number; lowerBound: number; twoSidedInterval: [number, number]; pValue: number; adjustedPValue: number; holmLevel: number; holmLower: number }>;
    }
  >;
}
const reference = JSON.parse(readFileSync('tests/reference/decision/shortlist-cost.json', 'utf8')) as { examples: Reference; spanning: Reference };
const policy = loadPolicy('examples/policy.yaml');
const cases = {
  examples: loadScores('examples/scores.csv'),
  spanning: loadScores('tests/reference/decision/cost-spanning.csv'),
};

// Largest error seen against R: 2.4e-15 relative (Holm-adjusted p); 1e-12 leaves room for other platforms' libm.
function close(actual: number, expected: number, tolerance: number) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(expected)));
}

describe.each(['examples', 'spanning'] as const)('shortlist --policy against R (%s)', (name) => {
  const ref = reference[name];
  const result = shortlist(cases[name], { margin: ref.margin, policy, costMargin: ref.costMargin, nResamples: 0 });

  it('picks the same best and cheapest and echoes the policy', () => {
    expect(result.best).toBe(ref.best);
    expect(result.cheapest).toBe(ref.cheapest);
    expect(result.policy).toEqual({ owner: 'Head of Regulatory Risk', decided: '2026-10-01', costs: { hit: 0, miss: 1, fabrication: 8, wrong_span: 2, correct_absent: 0 } });
    expect(result.costMargin).toBe(ref.costMargin);
  });

  it('gives every candidate the reference cost per document, per scope, with its t interval', () => {
    for (const c of result.candidates) {
      const want = ref.candidates[c.model].costs;
      expect(c.costs.map((x) => x.scope).sort()).toEqual(Object.keys(want).sort());
      for (const x of c.costs) {
        expect(x.documents).toBe(want[x.scope].documents);
        close(x.estimate, want[x.scope].estimate, 1e-12);
        close(x.confidenceInterval[0], want[x.scope].confidenceInterval[0], 1e-12);
        close(x.confidenceInterval[1], want[x.scope].confidenceInterval[1], 1e-12);
      }
    }
  });

  it('matches the cost checks: gap, bounds, p, Holm over score and cost checks, Holm-level bound', () => {
    let checked = 0;
    for (const c of result.candidates) {
      const want = ref.candidates[c.model];
      expect(c.costComparisons.length).toBe(want.cost?.length ?? 0);
      for (const k of c.costComparisons) {
        const w = want.cost!.find((x) => x.scope === k.scope)!;
        expect(k.n).toBe(w.documents);
        expect(k.reference).toBe(ref.cheapest);
        close(k.estimate, w.estimate, 1e-12);
        close(k.confidenceInterval[0], w.lowerBound, 1e-12);
        close(k.twoSidedInterval[0], w.twoSidedInterval[0], 1e-12);
        close(k.twoSidedInterval[1], w.twoSidedInterval[1], 1e-12);
        close(k.pValue, w.pValue, 1e-12);
        close(k.adjustedPValue, w.adjustedPValue, 1e-12);
        close(k.holmConfidenceLevel, w.holmLevel, 1e-12);
        close(k.holmLowerBound, w.holmLower, 1e-12);
        if (k.worse) expect(k.holmLowerBound).toBeGreaterThan(ref.costMargin);
        checked += 1;
      }
      for (const k of c.comparisons) {
        const w = want.score!.find((x) => x.scope === k.scope)!;
        close(k.pValue, w.pValue, 1e-12);
        close(k.adjustedPValue, w.adjustedPValue, 1e-12);
        close(k.holmConfidenceLevel, w.holmLevel, 1e-12);
        close(k.holmUpperBound, w.holmUpper, 1e-12);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('overall, is sweep: the same cost per document, and the gap interval of sweep --method t', () => {
    const tally = tallyOutcomes(cases[name]);
    const sweep = costSweep(tally, policy);
    const u = sweepUncertainty(tally, sweep, { method: 't', nResamples: 99, seed: 0 });
    expect(sweep.ranking[0]).toBe(result.cheapest);
    for (const c of result.candidates) {
      close(c.costs[0].estimate, sweep.costs.find((x) => x.model === c.model)!.costPerDocument, 1e-12);
      const gap = u.gaps.find((g) => g.model === c.model);
      if (gap === undefined) continue;
      const k = c.costComparisons.find((x) => x.scope === 'overall')!;
      close(k.estimate, gap.difference, 1e-12);
      close(k.twoSidedInterval[0], gap.confidenceInterval[0], 1e-12);
      close(k.twoSidedInterval[1], gap.confidenceInterval[1], 1e-12);
    }
  });

  it("gives the overall gap the very interval `benchplan sweep` prints (auto: t below 100 documents, BCa from 100; same seed)", () => {
    const tally = tallyOutcomes(cases[name]);
    const sweep = costSweep(tally, policy);
    const u = sweepUncertainty(tally, sweep, { method: 'auto', nResamples: 999, seed: 'x' });
    const r = shortlist(cases[name], { margin: ref.margin, policy, costMargin: ref.costMargin, nResamples: 999, seed: 'x' });
    expect(r.costBootstrap).toEqual({ nResamples: 999, seed: 'x' });
    let seen = 0;
    for (const gap of u.gaps) {
      const k = r.candidates.find((c) => c.model === gap.model)!.costComparisons.find((x) => x.scope === 'overall')!;
      expect(k.sweepInterval).toEqual({ method: gap.methodUsed, confidenceInterval: gap.confidenceInterval, nResamples: 999, seed: 'x' });
      seen += 1;
    }
    expect(seen).toBe(name === 'examples' ? 2 : 1);
    // 159 documents take BCa, 30 take t.
    expect(u.gaps[0].methodUsed).toBe(name === 'examples' ? 'bca' : 't');
    for (const c of r.candidates) for (const k of c.costComparisons) if (k.scope !== 'overall') expect(k.sweepInterval).toBeNull();
  });

  it('ties strata to the whole: overall = Σ_h (D_h / D) · cost_h', () => {
    for (const c of result.candidates) {
      const D = c.costs[0].documents;
      const total = c.costs.slice(1).reduce((a, x) => a + (x.documents / D) * x.estimate, 0);
      close(total, c.costs[0].estimate, 1e-12);
    }
  });
});

describe('costScopes: the attribution rule on a document that spans strata', () => {
  // Hand derivation. d1 holds a (stratum A, a miss: 1) and b (stratum B, a fabrication: 8); d2 holds c (A, a hit: 0).
  // Overall: d1 costs 9, d2 0 → 4.5 per document. A: documents d1, d2 with A-costs 1, 0 → 0.5.
  // B: document d1 only, B-cost 8 → 8.
  const table = scoresFromRows([
    { item: 'a', model: 'm', stratum: 'A', cluster: 'd1', outcome: 'miss', score: 0 },
    { item: 'b', model: 'm', stratum: 'B', cluster: 'd1', outcome: 'fabrication', score: 0 },
    { item: 'c', model: 'm', stratum: 'A', cluster: 'd2', outcome: 'hit', score: 1 },
  ]);
  it('counts each item in its own stratum, over the documents that touch the stratum', () => {
    const scopes = costScopes(table, alignModels(table, ['m']), policy);
    expect(scopes.map((s) => [s.scope, s.documents, Array.from(s.values[0])])).toEqual([
      ['overall', ['d1', 'd2'], [9, 0]],
      ['A', ['d1', 'd2'], [1, 0]],
      ['B', ['d1'], [8]],
    ]);
  });
  it('weighs a repeat 1 / repeats', () => {
    // a: one miss and one hit over two repeats: 0.5.
    const repeated = scoresFromRows([
      { item: 'a', model: 'm', outcome: 'miss', score: 0, repeat: 1 },
      { item: 'a', model: 'm', outcome: 'hit', score: 1, repeat: 2 },
    ]);
    expect(Array.from(costScopes(repeated, alignModels(repeated, ['m']), policy)[0].values[0])).toEqual([0.5]);
  });
  it('refuses an outcome the policy gives no price, naming it', () => {
    expect(() => costScopes(table, alignModels(table, ['m']), { costs: { hit: 0, miss: 1 } }, 'p.yaml')).toThrow(/p\.yaml: .*costs\.fabrication: m has "fabrication" outcomes but the policy gives "fabrication" no cost/);
  });
});

describe('cost bars', () => {
  const table = cases.examples;
  it('judges overall.cost and a stratum cost on the estimate (alpha: 103 / 159 overall, 48 / 39 on negative_control)', () => {
    // Hand count on examples/scores.csv: alpha has 27 misses (1), 6 fabrications (8) and 14 wrong spans (2): 103 over 159 documents;
    // its 6 fabrications are all negative controls, 39 documents: 48 / 39.
    const r: ShortlistResult = shortlist(table, { policy, margin: 1, requirements: [parseRequirement('overall.cost<=0.65'), parseRequirement('negative_control.cost<=1.2')] });
    const [overall, negative] = r.candidates[0].bars;
    expect(overall).toMatchObject({ metric: 'cost', estimate: 103 / 159, n: 159, passed: true });
    expect(negative).toMatchObject({ metric: 'cost', estimate: 48 / 39, n: 39, passed: false });
    expect(negative.reason).toMatch(/^negative_control\.cost = 1\.23 \(95% interval 0\.283 to 2\.18, n 39\) fails the bar negative_control\.cost<=1\.2$/);
  });
  it('needs a policy, and a bar on cost is ≥ 0', () => {
    expect(() => shortlist(table, { requirements: [parseRequirement('overall.cost<=1')] })).toThrow('the bar on cost needs a cost policy (--policy)');
    expect(() => parseRequirement('overall.cost<=-1')).toThrow('a bar on cost must be ≥ 0');
    expect(parseRequirement('rare_clause.cost<=2.5')).toMatchObject({ metric: 'cost', threshold: 2.5 });
  });
});

describe('benchplan shortlist --policy', () => {
  it('eliminates beta on a per-stratum cost and gamma on a cost bar (the README example), echoing owner and digest', async () => {
    const run = await runCli(['shortlist', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--margin', '0.2', '--policy', 'examples/policy.yaml', '--cost-margin', '0.1', '--require', 'overall.cost<=1.2', '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    const sha256 = createHash('sha256').update(readFileSync('examples/policy.yaml')).digest('hex');
    expect(doc.policy).toMatchObject({ source: 'examples/policy.yaml', sha256, owner: 'Head of Regulatory Risk', decided: '2026-10-01' });
    expect(doc).toMatchObject({ finalists: ['alpha'], cheapest: 'alpha', costMargin: 0.1 });
    expect(doc.candidates[1].firstReason).toMatchObject({ kind: 'costComparison', scope: 'rare_clause', worse: true });
    expect(doc.candidates[2].firstReason).toMatchObject({ kind: 'bar', metric: 'cost', scope: 'overall', passed: false });
    const text = await runCli(['shortlist', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--margin', '0.2', '--policy', 'examples/policy.yaml', '--cost-margin', '0.1', '--require', 'overall.cost<=1.2']);
    expect(text.stdout).toMatch(/\n {2}beta: rare_clause: cost per document beta − alpha = 0\.735 \(lower bound 0\.267 at Holm's level 99\.5%, 49 documents\) costs more than the cheapest by more than the cost margin 0\.1/);
    expect(text.stdout).toContain('Cost policy examples/policy.yaml (owner: Head of Regulatory Risk, decided 2026-10-01;');
  });
  it('signoff refuses a policy other than the one the shortlist was priced under (exit 2), and records the same one', async () => {
    const dir = tempDir('benchplan-shortlist-policy-');
    const archive = join(dir, 'archive');
    expect((await runCli(['freeze', 'examples/manifest.yaml', '--archive', archive, '--version', '2026Q3', '--date', '2026-07-01'])).code).toBe(0);
    const list = join(dir, 'shortlist.json');
    expect((await runCli(['shortlist', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--margin', '0.2', '-o', list, '--json'])).code).toBe(0);
    const other = join(dir, 'policy.yaml');
    writeFileSync(other, readFileSync('examples/policy.yaml', 'utf8').replace('fabrication: 8', 'fabrication: 4'));
    const base = ['signoff', '--archive', archive, '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', list];
    const wrong = await runCli([...base, '--id', 'wrong', '--policy', other]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^error: .*policy\.yaml: is not the policy the shortlist was computed under \(.*shortlist\.json records examples\/policy\.yaml with sha256 dbebab460e2e…/);
    // Without --policy the record would rest on the policy's prices but name neither the file nor its owner.
    const none = await runCli([...base, '--id', 'none']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: .*shortlist\.json: policy: was computed under the cost policy examples\/policy\.yaml \(sha256 dbebab460e2e…\): give that file as --policy, so the sign-off records it and its owner \(got "examples\/policy\.yaml"\)\n$/);
    expect(existsSync(join(archive, 'signoffs', 'none.json'))).toBe(false);
    const right = await runCli([...base, '--id', 'right', '--policy', 'examples/policy.yaml', '--json']);
    expect(right.code).toBe(0);
    const sha256 = createHash('sha256').update(readFileSync('examples/policy.yaml')).digest('hex');
    expect(JSON.parse(right.stdout).evidence).toContainEqual(expect.objectContaining({ role: 'policy', sha256 }));
  });
  it('exits 2 for a cost margin without a policy, and for a bad policy file', async () => {
    const lone = await runCli(['shortlist', 'examples/scores.csv', '--cost-margin', '0.1']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toMatch(/--cost-margin: goes with --policy/);
    const bad = await runCli(['shortlist', 'examples/scores.csv', '--policy', 'examples/strata.yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: examples\/strata\.yaml/);
  });
});
