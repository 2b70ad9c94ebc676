/**
 * A year of four quarterly rotations on SYNTHETIC data where the truth is known, run through the
 * CLI end to end (freeze, rotate --apply with saturation history, drift, verify, diff).
 *
 * Generating model: item i has a latent ease l_i (by stratum, plus a standard normal draw); a
 * system of ability θ passes it when θ + l_i > 0. A rotation's new items copy the ease of the
 * items they replace, so a rotation changes nothing unless a scenario says so:
 *   - "regressed": the system's ability drops by 1.2 in quarter 3; the items are as before;
 *   - "harder":    the system stays the same; quarter 3's new items are 4 units harder.
 * Every other quarter ships the same system and an equivalent test: the model and instrument
 * drifts are then exactly 0. The planted effects are several standard errors wide (see the
 * numbers in each comment), so the verdicts do not hang on the seed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/random/index.js';
import { readArchiveVersion } from '../../src/rotation/archive.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from './helpers.js';

const STRATA = ['routine', 'rare_clause', 'past_failure', 'negative_control'] as const;
const EASE: Record<string, number> = { routine: 1.5, rare_clause: -0.3, past_failure: -0.2, negative_control: 0.8 };
const VERSIONS = ['2026Q1', '2026Q2', '2026Q3', '2026Q4', '2027Q1'];
const DATES = ['2026-01-05', '2026-04-06', '2026-07-06', '2026-10-05', '2027-01-04'];

interface Scenario {
  name: string;
  regressAt?: number;
  harderAt?: number;
}

interface QuarterOutcome {
  quarter: number;
  verdict: { system: string; test: string; text: string };
  model: number;
  instrument: number;
  truthModel: number;
  truthInstrument: number;
}

function text(rng: ReturnType<typeof createRng>): string {
  return Array.from({ length: 12 }, () => `term${rng.nextInt(5000)}`).join(' ');
}

async function cli(args: string[]): Promise<unknown> {
  const r = await runCli([...args, '--json']);
  if (r.code !== 0) throw new Error(`benchplan ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function runYear(scenario: Scenario): Promise<{ outcomes: QuarterOutcome[]; dir: string }> {
  const dir = tempDir('benchplan-year-');
  const archive = join(dir, 'archive');
  const rng = createRng('year', scenario.name);
  const ease = new Map<string, number>();
  const stratumOf = new Map<string, string>();
  const ability = [0.5];
  for (let q = 1; q <= 4; q++) ability.push(ability[q - 1] - (q === scenario.regressAt ? 1.2 : 0));
  const passes = (q: number, item: string) => (ability[q] + (ease.get(item) as number) > 0 ? 1 : 0);

  // Version 0: 20 eval and 5 dev items a stratum.
  const lines: string[] = [];
  for (const s of STRATA) {
    for (let k = 0; k < 25; k++) {
      const id = `${s}-${k}`;
      ease.set(id, EASE[s] + rng.nextNormal());
      stratumOf.set(id, s);
      lines.push(JSON.stringify({ item: id, stratum: s, split: k < 20 ? 'eval' : 'dev', text: text(rng), label: 'present', added: '2025Q4' }));
    }
  }
  writeFileSync(join(dir, 'manifest.jsonl'), `${lines.join('\n')}\n`);
  await cli(['freeze', join(dir, 'manifest.jsonl'), '--archive', archive, '--version', VERSIONS[0], '--guideline', 'g1', '--date', DATES[0]]);

  const evalItems = (v: string) => readArchiveVersion(archive, v).items.filter((x) => x.split === 'eval').map((x) => x.item);
  const writeScores = (file: string, q: number, items: string[], model = `system-q${q}`) => {
    writeFileSync(join(dir, file), ['item,model,stratum,score', ...items.map((i) => `${i},${model},${stratumOf.get(i)},${passes(q, i)}`)].join('\n') + '\n');
    return join(dir, file);
  };
  const mean = (q: number, items: string[]) => items.reduce((t, i) => t + passes(q, i), 0) / items.length;

  const outcomes: QuarterOutcome[] = [];
  const history: string[] = [];
  for (let q = 1; q <= 4; q++) {
    const from = VERSIONS[q - 1];
    const to = VERSIONS[q];
    const previous = evalItems(from);
    // Candidates' scores on the version rotated from (this system and a stronger rival): saturation.
    const candidates = join(dir, `candidates-${from}.csv`);
    writeFileSync(candidates, ['item,model,score', ...previous.flatMap((i) => [`${i},system,${passes(q - 1, i)}`, `${i},rival,${ability[q - 1] + 1 + (ease.get(i) as number) > 0 ? 1 : 0}`])].join('\n') + '\n');
    // This quarter's incidents log: 8 a stratum.
    const incidents: string[] = [];
    for (const s of STRATA) {
      for (let k = 0; k < 8; k++) {
        const id = `inc-${q}-${s}-${k}`;
        stratumOf.set(id, s);
        incidents.push(JSON.stringify({ item: id, stratum: s, text: text(rng), label: 'present', added: to, source: 'incident' }));
      }
    }
    writeFileSync(join(dir, `incidents-${q}.jsonl`), `${incidents.join('\n')}\n`);
    const plan = (await cli([
      'rotate', '--archive', archive, '--from', from, '--incidents', join(dir, `incidents-${q}.jsonl`),
      '--scores', candidates, ...history.flatMap((h) => ['--history', h]),
      '--fraction', '0.2', '--seed', '0', '--apply', '--version', to, '--date', DATES[q],
    ])) as { retire: Array<{ item: string; stratum: string }>; add: Array<{ item: string; stratum: string }>; strata: Array<{ before: number; after: number }>; trend: unknown; applied: { version: string } };
    history.push(`${from}=${candidates}`);
    expect(plan.applied.version).toBe(to);
    expect(plan.retire).toHaveLength(16);
    expect(plan.strata.every((s) => s.before === 20 && s.after === 20)).toBe(true);
    expect(plan.trend === null).toBe(q === 1);
    // New items copy the ease of the items they replace (in id order within a stratum), harder by 4 when planted.
    for (const s of STRATA) {
      const out = plan.retire.filter((x) => x.stratum === s).map((x) => x.item).sort();
      const inn = plan.add.filter((x) => x.stratum === s).map((x) => x.item).sort();
      inn.forEach((id, k) => ease.set(id, (ease.get(out[k]) as number) - (q === scenario.harderAt ? 4 : 0)));
    }
    const current = evalItems(to);
    const drift = (await cli([
      'drift',
      '--before', writeScores(`before-${q}.csv`, q - 1, previous),
      '--rerun', writeScores(`rerun-${q}.csv`, q, previous),
      '--after', writeScores(`after-${q}.csv`, q, current),
      '--archive', archive, '--from', from, '--to', to, '--resamples', '2000', '--seed', String(q),
    ])) as { verdict: QuarterOutcome['verdict']; model: { estimate: number }; instrument: { estimate: number }; total: number };
    expect(drift.total).toBeCloseTo(drift.model.estimate + drift.instrument.estimate, 12);
    outcomes.push({
      quarter: q,
      verdict: drift.verdict,
      model: drift.model.estimate,
      instrument: drift.instrument.estimate,
      truthModel: mean(q, previous) - mean(q - 1, previous),
      truthInstrument: mean(q, current) - mean(q, previous),
    });
  }
  return { outcomes, dir: archive };
}

describe('a year of quarterly rotations with drift attribution (SYNTHETIC, truth known)', () => {
  it('the system regressed in quarter 3: drift says so, and says the test did not change', async () => {
    const { outcomes, dir } = await runYear({ name: 'regressed', regressAt: 3 });
    for (const o of outcomes) {
      // The estimates are the known truth, computed from the generating model.
      expect(o.model).toBeCloseTo(o.truthModel, 12);
      expect(o.instrument).toBeCloseTo(o.truthInstrument, 12);
      expect(o.instrument).toBe(0);
      if (o.quarter === 3) {
        // About 3 items in 10 flip to fail (ability −1.2 against a unit-spread ease): ≈ −0.3, SE ≈ 0.05.
        expect(o.model).toBeLessThan(-0.15);
        expect(o.verdict).toMatchObject({ system: 'worse', test: 'unchanged' });
        expect(o.verdict.text).toMatch(/^the system got worse: −0\.\d+ \[−0\.\d+, −0\.\d+\] on 2026Q3's 80 items; the test did not change measurably/);
      } else {
        expect(o.model).toBe(0);
        expect(o.verdict).toMatchObject({ system: 'steady', test: 'unchanged' });
        expect(o.verdict.text).toMatch(/^no measurable drift/);
      }
    }
    const verify = await runCli(['verify', '--archive', dir]);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/intact: 5 versions \(2026Q1, 2026Q2, 2026Q3, 2026Q4, 2027Q1\), 500 items/);
    // Each version records the one it was rotated from.
    for (let q = 1; q <= 4; q++) expect(readArchiveVersion(dir, VERSIONS[q]).parent?.version).toBe(VERSIONS[q - 1]);
    const diff = (await cli(['diff', '--archive', dir, VERSIONS[0], VERSIONS[4]])) as { strata: Array<{ evalBefore: number; evalAfter: number }>; changed: unknown[] };
    expect(diff.strata.map((s) => [s.evalBefore, s.evalAfter])).toEqual(STRATA.map(() => [20, 20]));
    expect(diff.changed).toEqual([]);
  });

  it('the test got harder in quarter 3: drift says so, and says the system held steady', async () => {
    const { outcomes } = await runYear({ name: 'harder', harderAt: 3 });
    for (const o of outcomes) {
      expect(o.model).toBeCloseTo(o.truthModel, 12);
      expect(o.instrument).toBeCloseTo(o.truthInstrument, 12);
      expect(o.model).toBe(0);
      if (o.quarter === 3) {
        // 16 of 80 items replaced by ones 4 units harder: most that passed now fail, ≈ −0.13, SE ≈ 0.025.
        expect(o.instrument).toBeLessThan(-0.06);
        expect(o.verdict).toMatchObject({ system: 'steady', test: 'harder' });
        expect(o.verdict.text).toMatch(/^the test got harder: −0\.\d+ \[−0\.\d+, −0\.\d+\] on the rotated version; the system held steady/);
      } else {
        expect(o.instrument).toBe(0);
        expect(o.verdict).toMatchObject({ system: 'steady', test: 'unchanged' });
      }
    }
  });
});
