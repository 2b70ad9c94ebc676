import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-strata-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const reference = JSON.parse(readFileSync(new URL('../reference/strata/survey.json', import.meta.url), 'utf8')) as {
  cases: Array<{ models: Array<{ model: string; estimate: number; standardError: number; interval: [number, number]; rawMean: number; strata: Array<{ stratum: string; n: number; mean: number; standardError: number; interval: [number, number] }> }>; differences: Array<{ a: string; b: string; estimate: number; standardError: number }> }>;
};

describe('benchplan allocate', () => {
  it('prints the issue\'s JSON: allocation [{stratum, n}], total, method, compare [{method, expectedHalfWidth, mde}]', async () => {
    const { code, stdout, stderr } = await runCli(['allocate', '--strata', 'examples/strata.yaml', '--budget', '400', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r.method).toBe('quota');
    expect(r.total).toBe(400);
    expect(r.allocation.map((a: { stratum: string; n: number }) => [a.stratum, a.n])).toEqual([
      ['routine', 80],
      ['rare_clause', 120],
      ['past_failure', 100],
      ['negative_control', 100],
    ]);
    expect(r.compare.map((c: { method: string }) => c.method)).toEqual(['quota', 'proportional', 'neyman']);
    for (const c of r.compare) {
      expect(c.expectedHalfWidth).toBeGreaterThan(0);
      expect(c.mde).toBeCloseTo(2 * c.expectedHalfWidth, 12);
    }
    // Neyman minimises the reweighted variance for a fixed n (up to rounding to whole items).
    const by = Object.fromEntries(r.compare.map((c: { method: string; mde: number }) => [c.method, c.mde]));
    expect(by.neyman).toBeLessThan(by.proportional);
    expect(r.compareSkipped).toEqual([{ method: 'optimal', reason: 'stratum "routine" has no cost' }]);
    expect(r.pilot).toMatchObject({ a: 'candidate', b: 'baseline', items: 80, binary: false });
    expect(r.confidenceLevel).toBe(0.95);
    expect(r.warnings).toEqual([]);
  });

  it('allocates by Neyman with the pilot\'s sds, and says so in text', async () => {
    const { code, stdout } = await runCli(['allocate', '--strata', 'examples/strata.yaml', '--budget', '400', '--method', 'neyman', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Allocation of 400 items by neyman/);
    expect(stdout).toMatch(/What each allocation buys/);
    expect(stdout).toMatch(/a traffic-proportional set of the same size resolves/);
  });

  it('proportional without a pilot; --min and --max bind', async () => {
    const { code, stdout } = await runCli(['allocate', '--strata', 'examples/strata.yaml', '--budget', '400', '--method', 'proportional', '--min', '30', '--max', '250', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    // traffic (.72, .05, .03, .2) · 400 = (288, 20, 12, 80); routine capped at 250, the small two
    // raised to 30; the 90 left for negative_control... by hand: 400 − 250 − 30 − 30 = 90.
    expect(r.allocation.map((a: { n: number }) => a.n)).toEqual([250, 30, 30, 90]);
    expect(r.allocation.map((a: { bound: string | null }) => a.bound)).toEqual(['max', 'min', 'min', null]);
    expect(r.compare).toBeNull();
    expect(r.min).toBe(30);
    expect(r.max).toBe(250);
  });

  it('optimal with costs', async () => {
    const strata = file('costs.yaml', 'strata:\n  cheap: { traffic: 0.5, cost: 1 }\n  dear:  { traffic: 0.5, cost: 4 }\n');
    const pilot = file('pilot2.csv', 'item,model,stratum,score\n' + ['cheap', 'dear'].flatMap((s) => [0, 1, 2, 3].flatMap((k) => [`${s}${k},a,${s},${k % 2}`, `${s}${k},b,${s},${1 - (k % 2)}`])).join('\n') + '\n');
    const { code, stdout, stderr } = await runCli(['allocate', '--strata', strata, '--budget', '120', '--method', 'optimal', '--pilot', pilot, '--a', 'a', '--b', 'b', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    // Both strata have the same sd of the difference, so n ∝ 1/√c = (1, 1/2): (80, 40).
    expect(r.allocation.map((a: { n: number }) => a.n)).toEqual([80, 40]);
    expect(r.compare.map((c: { method: string }) => c.method)).toEqual(['proportional', 'neyman', 'optimal']);
    expect(r.pilot.binary).toBe(true);
    expect(r.warnings.join()).toMatch(/only 4 pilot items/);
  });
});

describe('benchplan headline', () => {
  it('prints the issue\'s JSON with R survey\'s numbers (the Wald intervals, by name)', async () => {
    const { code, stdout, stderr } = await runCli(['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--method', 'bca', '--resamples', '999', '--stratum-interval', 'wald', '--headline-interval', 'wald', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    const ref = reference.cases[0];
    expect(r.models.map((m: { model: string }) => m.model)).toEqual(['alpha', 'beta', 'gamma']);
    for (const [k, m] of r.models.entries()) {
      const want = ref.models[k];
      expect(Object.keys(m)).toEqual(['model', 'strata', 'headline', 'rawMean']);
      expect(Object.keys(m.headline)).toEqual(['estimate', 'standardError', 'confidenceInterval', 'method', 'methodReason', 'weights']);
      expect(m.headline.method).toBe('wald');
      expect(Math.abs(m.headline.estimate - want.estimate)).toBeLessThan(1e-9);
      expect(Math.abs(m.headline.standardError - want.standardError)).toBeLessThan(1e-9);
      expect(Math.abs(m.headline.confidenceInterval[0] - want.interval[0])).toBeLessThan(1e-9);
      expect(Math.abs(m.headline.confidenceInterval[1] - want.interval[1])).toBeLessThan(1e-9);
      expect(m.headline.weights).toEqual([
        { stratum: 'routine', weight: 0.72 },
        { stratum: 'rare_clause', weight: 0.05 },
        { stratum: 'past_failure', weight: 0.03 },
        { stratum: 'negative_control', weight: 0.2 },
      ]);
      expect(Math.abs(m.rawMean - want.rawMean)).toBeLessThan(1e-12);
      for (const [h, s] of m.strata.entries()) {
        expect(Object.keys(s)).toEqual(['stratum', 'n', 'mean', 'standardError', 'confidenceInterval', 'method']);
        expect(Math.abs(s.confidenceInterval[1] - want.strata[h].interval[1])).toBeLessThan(1e-9);
        expect(s.stratum).toBe(want.strata[h].stratum);
        expect(Math.abs(s.standardError - want.strata[h].standardError)).toBeLessThan(1e-9);
      }
    }
    expect(r.differences).toHaveLength(3);
    expect(Math.abs(r.differences[0].standardError - ref.differences[0].standardError)).toBeLessThan(1e-9);
    expect(r.rawMeanNote).toMatch(/ranking aid, not an accuracy/);
    expect(r).toMatchObject({ confidenceLevel: 0.95, stratumInterval: 'wald', headlineInterval: 'wald', method: 'bca', nResamples: 999, seed: '0', items: 400 });
  });

  it('by default (auto) the 0/1 demo gets Wilson rows and a smoothed-beta headline, all inside [0, 1]: no more [0.963, 1.01]', async () => {
    const { code, stdout } = await runCli(['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--resamples', '99', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ stratumInterval: 'auto', headlineInterval: 'auto' });
    for (const m of r.models) {
      expect(m.headline.method).toBe('beta-smoothed');
      expect(m.headline.methodReason).toMatch(/every score is 0\/1/);
      for (const s of m.strata) {
        expect(s.method).toBe('wilson');
        expect(s.confidenceInterval[0]).toBeGreaterThanOrEqual(0);
        expect(s.confidenceInterval[1]).toBeLessThanOrEqual(1);
      }
      expect(m.headline.confidenceInterval[1]).toBeLessThanOrEqual(1);
    }
    // routine, alpha: 79 of 80; R prop.test(79, 80, correct = FALSE)$conf.int = [0.9325372992, 0.9977900245]
    expect(r.models[0].strata[0].confidenceInterval[0]).toBeCloseTo(0.9325372992, 9);
    expect(r.models[0].strata[0].confidenceInterval[1]).toBeCloseTo(0.9977900245, 9);
    expect(r.warnings.join()).not.toMatch(/pass the range of the scores/);
  });

  it('a bad --headline-interval names the choices', async () => {
    const { code, stderr } = await runCli(['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--headline-interval', 'wilson']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--headline-interval/);
  });

  it('text: per-stratum rows first, the weights next to the headline, the plain mean labelled', async () => {
    const { code, stdout } = await runCli(['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--model', 'alpha']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Per-stratum scores \(the primary output\)/);
    expect(stdout).toMatch(/weights: routine 0\.72, rare_clause 0\.05, past_failure 0\.03, negative_control 0\.2/);
    expect(stdout).toMatch(/plain mean over the enriched set: a ranking aid, not an accuracy/);
    expect(stdout).not.toMatch(/Differences of reweighted headlines/);
  });

  it('same seed, same bytes', async () => {
    const args = ['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--resamples', '300', '--seed', '5', '--json'];
    expect((await runCli(args)).stdout).toBe((await runCli(args)).stdout);
  });

  it('an empty stratum and a one-item stratum: exit 0 with explicit warnings, the NaN spelled null', async () => {
    const strata = file('four.yaml', 'strata:\n  x: { traffic: 0.5 }\n  y: { traffic: 0.3 }\n  z: { traffic: 0.2 }\n');
    const scores = file('few.csv', 'item,model,stratum,score\ni1,m,x,1\ni2,m,x,0\ni3,m,x,1\ni4,m,y,1\n');
    const { code, stdout } = await runCli(['headline', scores, '--strata', strata, '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r.models[0].headline.estimate).toBeNull();
    expect(r.warnings.join('\n')).toMatch(/stratum "y" has one item/);
    expect(r.warnings.join('\n')).toMatch(/stratum "z" has traffic share 0.2 but no items in the scores, so the reweighted headline is NaN/);
  });
});

describe('bad input: exit 2 and a message naming the file, line or flag and the value', () => {
  const noTraffic = file('no-traffic.yaml', 'strata:\n  a: { quota: 0.5 }\n  b: { quota: 0.5 }\n');
  const noStratum = file('no-stratum.csv', 'item,model,score\ni1,a,1\ni1,b,0\ni2,a,1\ni2,b,1\n');
  const lonely = file('lonely.csv', 'item,model,stratum,score\n' + ['i1,a,routine,1', 'i1,b,routine,0', 'i2,a,routine,1', 'i2,b,routine,1', 'i3,a,rare_clause,1', 'i3,b,rare_clause,0'].join('\n') + '\n');
  const typo = file('typo.csv', 'item,model,stratum,score\ni1,a,routine,1\ni2,a,rare-clause,0\ni3,a,past_failure,1\ni4,a,negative_control,1\n');
  const base = ['--strata', 'examples/strata.yaml'];
  const pilot = ['--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline'];
  const cases: Array<[string, string[], RegExp]> = [
    ['budget 0', ['allocate', ...base, '--budget', '0'], /--budget: must be a whole number ≥ 1 \(got "0"\)/],
    ['budget not whole', ['allocate', ...base, '--budget', '2.5'], /--budget: must be a whole number ≥ 1 \(got "2\.5"\)/],
    ['budget missing', ['allocate', ...base], /required option '--budget <n>' not specified/],
    ['unknown method', ['allocate', ...base, '--budget', '10', '--method', 'random'], /--method: must be one of quota, proportional, neyman, optimal \(got "random"\)/],
    ['neyman without a pilot', ['allocate', ...base, '--budget', '10', '--method', 'neyman'], /--method: neyman allocation needs --pilot FILE --a MODEL --b MODEL/],
    ['pilot without --a', ['allocate', ...base, '--budget', '10', '--pilot', 'examples/pilot.csv'], /--pilot: --pilot needs --a MODEL and --b MODEL/],
    ['--a without a pilot', ['allocate', ...base, '--budget', '10', '--a', 'x'], /--a: --a and --b name the pilot's models: give --pilot FILE too/],
    ['pilot model missing', ['allocate', ...base, '--budget', '10', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'nobody'], /pilot\.csv: model "nobody" is not in the scores/],
    ['pilot without strata', ['allocate', ...base, '--budget', '10', '--pilot', noStratum, '--a', 'a', '--b', 'b'], /no-stratum\.csv: the pilot needs a stratum column/],
    ['pilot stratum with one item', ['allocate', ...base, '--budget', '10', '--pilot', lonely, '--a', 'a', '--b', 'b'], /lonely\.csv: stratum "rare_clause" has one paired pilot item; its sd of the difference needs at least two .*\(got 1\)/],
    ['proportional without traffic', ['allocate', '--strata', noTraffic, '--budget', '10', '--method', 'proportional'], /no-traffic\.yaml:2: strata\.a: proportional allocation needs a traffic share in the strata file/],
    ['optimal without costs', ['allocate', ...base, '--budget', '10', '--method', 'optimal', ...pilot], /strata\.yaml:3: strata\.routine: optimal allocation needs a cost per item/],
    ['minimums over the budget', ['allocate', ...base, '--budget', '100', '--min', '30'], /strata\.yaml: the strata's minimums add up to 120, more than the budget \(got 100\)/],
    ['maximums under the budget', ['allocate', ...base, '--budget', '400', '--max', '50'], /strata\.yaml: the strata can take at most 200 items .* fewer than the budget \(got 400\)/],
    ['--min over --max', ['allocate', ...base, '--budget', '400', '--min', '60', '--max', '50'], /--min: must not exceed --max \(got "60 > 50"\)/],
    ['--confidence 1.5', ['allocate', ...base, '--budget', '400', '--confidence', '1.5'], /--confidence: must be a number > 0 and < 1 \(got "1\.5"\)/],
    ['headline without traffic', ['headline', 'examples/scores.csv', '--strata', noTraffic], /no-traffic\.yaml:2: the headline needs a traffic share for every stratum/],
    ['headline without a stratum column', ['headline', noStratum, ...base], /no-stratum\.csv: the headline needs a stratum column in the scores/],
    ['stratum not in the strata file', ['headline', typo, ...base], /typo\.csv: stratum "rare-clause" \(1 item\) is in the scores but not in examples\/strata\.yaml: add it with a traffic share \(or fix the name\) \(got "rare-clause"\)/],
    ['model missing', ['headline', 'examples/scores.csv', ...base, '--model', 'delta'], /scores\.csv: model "delta" is not in the scores/],
    ['t is not a bootstrap interval', ['headline', 'examples/scores.csv', ...base, '--method', 't'], /--method: must be one of auto, bca, percentile, basic \(got "t"\)/],
    ['resamples 0', ['headline', 'examples/scores.csv', ...base, '--resamples', '0'], /--resamples: must be a whole number ≥ 1 \(got "0"\)/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const { code, stderr } = await runCli(args);
      expect(stderr).toMatch(message);
      expect(code).toBe(2);
    });
  }
});
