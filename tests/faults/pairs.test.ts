/**
 * Fault injection for the two-file outputs (issue 32), with real processes of the built CLI (`npm
 * run build` first): a second run of `select` (list + design) and of `review` (CSV + page) is
 * killed (SIGKILL, tests/faults/crash-at.mjs) before each link, rename, unlink and fsync it makes,
 * over the files of a first run with another seed. After each kill the pair on disk is either one
 * run's (digests agree) or a mix, and a mix is refused by its reader (compare --design, signoff
 * --review: exit 2 naming both files and both digests), never read; a plain re-run then repairs
 * it (the reader exits 0). Prints how many kills left a mix.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvLine } from '../../src/data/csv-text.js';
import { openTable } from '../../src/data/read.js';
import { freezeVersion } from '../../src/rotation/archive.js';
import { smallBenchmark } from '../rotation/helpers.js';
import { built, cli } from './crash-cli.js';

const root = mkdtempSync(join(tmpdir(), 'benchplan-pair-faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));


async function steps(args: string[]): Promise<string[]> {
  const log = join(root, `steps-${Math.random().toString(36).slice(2)}.log`);
  const r = await cli(args, { BENCHPLAN_TEST_CRASH_LOG: log }, true);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(log, 'utf8').trim().split('\n');
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The list with every score filled in (A scores 1, B scores 0), as an annotator would return it. */
function fillScores(list: string, out: string): void {
  const table = openTable(list);
  const header = table.columns as string[];
  const lines = [csvLine(header)];
  let first: string | undefined;
  for (const r of table.records) {
    first ??= String(r.values.model);
    lines.push(csvLine(header.map((h) => (h === 'score' ? (r.values.model === first ? 1 : 0) : String(r.values[h])))));
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
}

function listDigest(list: string): string {
  for (const r of openTable(list).records) return String(r.values.design_digest);
  return '';
}

/** The next run removes a dead writer's temporary file only once it is a minute old: stand for that minute passing. */
function ageLeftovers(dir: string): void {
  const past = new Date(Date.now() - 10 * 60_000);
  for (const n of readdirSync(dir)) if (n.endsWith('.tmp')) utimesSync(join(dir, n), past, past);
}

const TIMEOUT_MS = 600_000;
let made = 0;

describe.skipIf(!built)('a two-file output killed between its writes is never read as a mix', () => {
  it('select (list + design): compare --design refuses a mixed pair, reads a whole one, and a re-run repairs it', async () => {
    const pool = resolve('examples/pool.csv');
    const selectArgs = (dir: string, seed: string) => ['select', pool, '--budget', '12', '-o', join(dir, 'list.csv'), '--seed', seed];
    const probe = join(root, 'select-probe');
    mkdirSync(probe);
    const all = await steps(selectArgs(probe, '1'));
    expect(all.some((s) => / renameSync .*list\.design\.json/.test(s)) && all.some((s) => / renameSync .*list\.csv/.test(s)), all.join('\n')).toBe(true);
    let mixed = 0;
    for (let at = 1; at <= all.length; at++) {
      const dir = join(root, `select-${(made += 1)}`);
      mkdirSync(dir);
      expect((await cli(selectArgs(dir, '0'))).code).toBe(0);
      const killed = await cli(selectArgs(dir, '1'), { BENCHPLAN_TEST_CRASH_AT: String(at) }, true);
      expect(killed.signal, `step ${at}`).toBe('SIGKILL');
      const list = join(dir, 'list.csv');
      const design = join(dir, 'list.design.json');
      fillScores(list, join(dir, 'filled.csv'));
      const read = await cli(['compare', join(dir, 'filled.csv'), '--design', design]);
      const context = `kill before step ${at} (${all[at - 1]})`;
      if (listDigest(list) === sha256(design)) {
        expect(read.code, `${context}: ${read.stderr}`).toBe(0);
      } else {
        mixed += 1;
        expect(read.code, context).toBe(2);
        expect(read.stderr, context).toContain(`has sha256 ${sha256(design)}`);
        expect(read.stderr, context).toContain(`design whose sha256 is ${listDigest(list)}`);
        expect(read.stderr, context).toMatch(/filled\.csv:2: design_digest: .*different runs of benchplan select/);
      }
      ageLeftovers(dir);
      expect((await cli(selectArgs(dir, '1'))).code).toBe(0);
      fillScores(list, join(dir, 'filled.csv'));
      const again = await cli(['compare', join(dir, 'filled.csv'), '--design', design]);
      expect(again.code, `${context}, after a re-run: ${again.stderr}`).toBe(0);
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp')), `${context}, after a re-run`).toEqual([]);
    }
    // The kill between the design's rename and the list's is the window: at least that one mixes.
    expect(mixed).toBeGreaterThan(0);
    console.log(`select killed before each of its ${all.length} steps: ${mixed} kills left a mixed pair, each refused by compare --design; every re-run repaired the pair`);
  }, TIMEOUT_MS);

  it('review (CSV + page): signoff --review refuses a mixed pair, records a whole one, and a re-run repairs it', async () => {
    const reviewArgs = (dir: string, seed: string) => ['review', resolve('examples/scores.csv'), '--model', 'alpha', '--model', 'beta', '--strata', resolve('examples/strata.yaml'), '--per-stratum', '3', '--seed', seed, '-o', join(dir, 'review.html'), '--csv', join(dir, 'review.csv')];
    const probe = join(root, 'review-probe');
    mkdirSync(probe);
    const all = await steps(reviewArgs(probe, '1'));
    const archive = join(root, 'archive');
    freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
    const shortlist = join(root, 'shortlist.json');
    writeFileSync(shortlist, JSON.stringify({ best: 'alpha', finalists: ['alpha', 'beta'] }));
    const signoffArgs = (id: string, review: string) => ['signoff', '--archive', archive, '--id', id, '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', shortlist, '--review', review];
    const digestOf = (dir: string) => ({ page: /Sample digest <span class="hash">([0-9a-f]{64})/.exec(readFileSync(join(dir, 'review.html'), 'utf8'))?.[1], csv: listSampleDigest(join(dir, 'review.csv')) });
    let mixed = 0;
    for (let at = 1; at <= all.length; at++) {
      const dir = join(root, `review-${(made += 1)}`);
      mkdirSync(dir);
      expect((await cli(reviewArgs(dir, '0'))).code).toBe(0);
      const killed = await cli(reviewArgs(dir, '1'), { BENCHPLAN_TEST_CRASH_AT: String(at) }, true);
      expect(killed.signal, `step ${at}`).toBe('SIGKILL');
      const d = digestOf(dir);
      const context = `kill before step ${at} (${all[at - 1]})`;
      // Given the page only, the CSV beside it is checked too; given both, the same.
      for (const [k, review] of [join(dir, 'review.html'), join(dir, 'review.csv')].entries()) {
        const r = await cli(signoffArgs(`s${made}-${at}-${k}`, review));
        if (d.page === d.csv) expect(r.code, `${context}: ${r.stderr}`).toBe(0);
        else {
          expect(r.code, context).toBe(2);
          expect(r.stderr, context).toContain(`shows sample digest ${d.page} but the CSV`);
          expect(r.stderr, context).toContain(`carries ${d.csv}`);
        }
      }
      if (d.page !== d.csv) mixed += 1;
      ageLeftovers(dir);
      expect((await cli(reviewArgs(dir, '1'))).code).toBe(0);
      const again = await cli(signoffArgs(`s${made}-${at}-again`, join(dir, 'review.html')));
      expect(again.code, `${context}, after a re-run: ${again.stderr}`).toBe(0);
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp')), `${context}, after a re-run`).toEqual([]);
    }
    expect(mixed).toBeGreaterThan(0);
    console.log(`review killed before each of its ${all.length} steps: ${mixed} kills left a mixed page/CSV, each refused by signoff --review; every re-run repaired the pair`);
  }, TIMEOUT_MS);
});

function listSampleDigest(csv: string): string | undefined {
  for (const r of openTable(csv).records) return String(r.values.sample_digest);
  return undefined;
}
