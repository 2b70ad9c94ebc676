/**
 * No command overwrites its own input (issue 32): every command with an output flag, given an
 * output that is one of its inputs (by name, through a symbolic link, or a hard link), exits 2
 * naming both flags and leaves the input's bytes as they were. And every writing command removes,
 * from its output folder, the temporary files of dead writers (a minute old), never a live one's.
 */
import { copyFileSync, existsSync, linkSync, readFileSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeDeadWritersFilesIn } from '../../src/rotation/leftovers.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

const dir = tempDir();
const ex = (name: string) => resolve('examples', name);
/** A private copy of an example, so a failed guard could not damage the repository. */
function copy(name: string, as = name.replace(/\//g, '-')): string {
  const path = join(dir, as);
  if (!existsSync(path)) copyFileSync(ex(name), path);
  return path;
}

interface Case {
  name: string;
  /** The command line, and the input whose bytes must not change. */
  setup: () => { args: string[]; input: string };
  message: RegExp;
}

const scores = () => copy('scores.csv');
const cases: Case[] = [
  { name: 'compare --chart naming the scores', setup: () => ({ args: ['compare', scores(), '--chart', scores()], input: scores() }), message: /--chart: would overwrite its own input INPUTS/ },
  {
    name: 'compare --chart through a symbolic link to the scores',
    setup: () => {
      const link = join(dir, 'link.csv');
      if (!existsSync(link)) symlinkSync(scores(), link);
      return { args: ['compare', scores(), '--chart', link], input: scores() };
    },
    message: /--chart: would overwrite its own input INPUTS .*\(got ".*link\.csv"\)/,
  },
  {
    name: 'shortlist -o naming a hard link of the scores',
    setup: () => {
      const hard = join(dir, 'hard.csv');
      if (!existsSync(hard)) linkSync(scores(), hard);
      return { args: ['shortlist', scores(), '-o', hard], input: scores() };
    },
    message: /--output: would overwrite its own input SCORES/,
  },
  { name: 'select -o naming the pool', setup: () => ({ args: ['select', copy('pool.csv'), '--budget', '10', '-o', copy('pool.csv')], input: copy('pool.csv') }), message: /--output: would overwrite its own input POOL/ },
  { name: 'select --design naming the pool', setup: () => ({ args: ['select', copy('pool.csv'), '--budget', '10', '-o', join(dir, 'l.csv'), '--design', copy('pool.csv')], input: copy('pool.csv') }), message: /--design: would overwrite its own input POOL/ },
  { name: 'import -o naming its input', setup: () => ({ args: ['import', 'promptfoo', copy('promptfoo/main.json'), '-o', copy('promptfoo/main.json')], input: copy('promptfoo/main.json') }), message: /--output: would overwrite its own input FILES/ },
  { name: 'report -o naming its scores', setup: () => ({ args: ['report', '--scores', scores(), '-o', scores()], input: scores() }), message: /--output: would overwrite its own input --scores/ },
  { name: 'review -o naming the strata file', setup: () => ({ args: ['review', scores(), '--model', 'alpha', '--strata', copy('strata.yaml'), '-o', copy('strata.yaml')], input: copy('strata.yaml') }), message: /--output: would overwrite its own input --strata/ },
  { name: 'review --csv naming the scores', setup: () => ({ args: ['review', scores(), '--model', 'alpha', '--strata', copy('strata.yaml'), '-o', join(dir, 'r.html'), '--csv', scores()], input: scores() }), message: /--csv: would overwrite its own input SCORES/ },
  { name: 'agree --adjudicate naming the annotations', setup: () => ({ args: ['agree', copy('annotations.csv'), '--adjudicate', copy('annotations.csv')], input: copy('annotations.csv') }), message: /--adjudicate: would overwrite its own input ANNOTATIONS/ },
  { name: 'gate --sequential --state naming the scores', setup: () => ({ args: ['gate', scores(), '--sequential', '--state', scores(), '--margin', '0.05'], input: scores() }), message: /--state: would overwrite its own input INPUTS/ },
  { name: 'headline --chart naming the strata file', setup: () => ({ args: ['headline', scores(), '--strata', copy('strata.yaml'), '--chart', copy('strata.yaml')], input: copy('strata.yaml') }), message: /--chart: would overwrite its own input --strata/ },
  { name: 'size --chart naming the pilot', setup: () => ({ args: ['size', copy('pilot.csv'), '--mde', '0.05', '--chart', copy('pilot.csv')], input: copy('pilot.csv') }), message: /--chart: would overwrite its own input/ },
  { name: 'review -o X --csv X (two outputs, one file)', setup: () => ({ args: ['review', scores(), '--model', 'alpha', '--strata', copy('strata.yaml'), '-o', join(dir, 'x.html'), '--csv', join(dir, 'x.html')], input: scores() }), message: /--csv: is the same file as --output/ },
];

describe('no command overwrites its own input: exit 2 naming both, the input unchanged', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const { args, input } = c.setup();
      const before = readFileSync(input);
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
      expect(r.stderr).toMatch(c.message);
      expect(readFileSync(input).equals(before)).toBe(true);
    });
  }
});

describe('dead writers\' temporary files in an output folder', () => {
  it('the next writing command there removes those a minute old whose PID is gone, and no other file', async () => {
    const out = tempDir();
    const deadPid = 999_999_999; // above any PID Linux hands out (pid_max ≤ 2^22)
    const old = new Date(Date.now() - 10 * 60_000);
    const files = {
      deadOld: `.list.csv.${deadPid}.3.tmp`,
      deadNew: `.list.csv.${deadPid}.4.tmp`,
      liveOld: `.list.csv.${process.pid}.5.tmp`,
      other: 'notes.tmp',
    };
    for (const name of Object.values(files)) writeFileSync(join(out, name), 'x');
    for (const name of [files.deadOld, files.liveOld, files.other]) utimesSync(join(out, name), old, old);
    const r = await runCli(['select', ex('pool.csv'), '--budget', '10', '-o', join(out, 'list.csv')]);
    expect(r.code, r.stderr).toBe(0);
    const left = readdirSync(out).sort();
    expect(left).not.toContain(files.deadOld);
    // Too young to judge (its writer could be on another host sharing the folder), a live PID's, and a name not ours: kept.
    expect(left).toEqual(expect.arrayContaining([files.deadNew, files.liveOld, files.other]));
  });

  it('removeDeadWritersFilesIn: the age threshold is measured from `now`', () => {
    const out = tempDir();
    const name = '.report.html.999999999.1.tmp';
    writeFileSync(join(out, name), 'x');
    const mtime = Date.now();
    expect(removeDeadWritersFilesIn(out, { now: mtime + 1_000 })).toEqual([]);
    expect(removeDeadWritersFilesIn(out, { now: mtime + 61_000 })).toEqual([name]);
    expect(existsSync(join(out, name))).toBe(false);
  });
});
