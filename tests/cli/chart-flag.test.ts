import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

const dir = tempDir();

// Every command with a chart takes --chart FILE.svg|FILE.png (issue #9) and draws the same
// result it prints. One small run a command; a cheap resample count where there is one.
const commands: Array<[string, (chart: string) => string[]]> = [
  ['compare', (c) => ['compare', 'examples/scores.csv', '--cluster', '--resamples', '199', '--chart', c]],
  ['size', (c) => ['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--budget', '400', '--chart', c]],
  ['allocate', (c) => ['allocate', '--strata', 'examples/strata.yaml', '--budget', '400', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--chart', c]],
  ['headline', (c) => ['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--resamples', '199', '--chart', c]],
  ['sweep', (c) => ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '199', '--chart', c]],
  ['agree', (c) => ['agree', 'examples/annotations.csv', '--resamples', '199', '--chart', c]],
  ['drift', (c) => ['drift', '--before', 'examples/rotation/drift-before.csv', '--rerun', 'examples/rotation/drift-rerun.csv', '--after', 'examples/rotation/drift-after.csv', '--resamples', '199', '--chart', c]],
];

describe('--chart', () => {
  for (const [name, args] of commands) {
    it(`${name} draws its chart as SVG beside its usual output`, async () => {
      const path = join(dir, `${name}.svg`);
      const { code, stdout, stderr } = await runCli(args(path));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout.length).toBeGreaterThan(0);
      const svg = readFileSync(path, 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toContain('<text');
    });
  }

  it('rotate draws the plan by stratum as PNG', async () => {
    const archive = join(dir, 'archive');
    expect((await runCli(['freeze', 'examples/manifest.yaml', '--archive', archive, '--version', 'v1', '--date', '2026-09-30'])).code).toBe(0);
    const path = join(dir, 'rotate.png');
    const { code } = await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', 'examples/incidents.jsonl', '--chart', path]);
    expect(code).toBe(0);
    expect([...readFileSync(path).subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('refuses another extension before doing any work, and writes nothing', async () => {
    const before = readdirSync(dir).length;
    const { code, stdout, stderr } = await runCli(['compare', 'examples/scores.csv', '--chart', join(dir, 'forest.jpg')]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: --chart: must end in \.svg or \.png \(got ".*forest\.jpg"\)/);
    expect(readdirSync(dir).length).toBe(before);
    expect(existsSync(join(dir, 'forest.jpg'))).toBe(false);
  });
});

describe('outputs are checked before any work', () => {
  it('agree writes no adjudication list when the chart cannot be written', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const adjudicate = join(dir, 'adjudicate.csv');
    const { code, stderr } = await runCli(['agree', 'examples/annotations.csv', '--adjudicate', adjudicate, '--chart', join(blocker, 'agree.svg')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: --chart: cannot write there: (ENOTDIR|EEXIST) \(got ".*a-file\/agree\.svg"\)/);
    expect(existsSync(adjudicate)).toBe(false);
  });
});
