import { describe, expect, it } from 'vitest';
import { toJsonText } from '../../src/cli/io.js';
import { runCli } from '../helpers/cli.js';

// One name per idea at the JSON edge (docs/library.md): an interval is `confidenceInterval`, a resample
// count `nResamples`, whichever command prints it and however deep in its document.
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

describe('the JSON vocabulary', () => {
  const runs: string[][] = [
    ['compare', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta'],
    ['compare', 'examples/scores.csv', '--resamples', '199'],
    ['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--per-stratum'],
    ['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--model', 'alpha', '--model', 'beta', '--resamples', '199'],
    ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '99'],
    ['monitor', 'examples/monitor.csv', '--a', 'candidate', '--b', 'current', '--mde', '0.05'],
    ['compare', 'examples/pool-judged.csv', '--judge', 'judge'],
  ];
  for (const args of runs) {
    it(`${args.join(' ')} --json prints confidenceInterval / nResamples, never interval / resamples`, async () => {
      const run = await runCli([...args, '--json']);
      expect([0, 1, 3]).toContain(run.code);
      const keys = keysOf(JSON.parse(run.stdout));
      expect(keys.has('interval'), 'interval').toBe(false);
      expect(keys.has('resamples'), 'resamples').toBe(false);
      expect(keys.has('confidenceInterval') || keys.has('lowerBound')).toBe(true);
    });
  }
  it('renames only a [low, high] interval, keeps key order, and keeps both names when their values differ', () => {
    expect(toJsonText({ a: 1, interval: [0, 1], resamples: 9, b: 2 })).toBe(toJsonText({ a: 1, confidenceInterval: [0, 1], nResamples: 9, b: 2 }));
    expect(JSON.parse(toJsonText({ levels: { ordinal: 0.5, interval: 0.6 } }))).toEqual({ levels: { ordinal: 0.5, interval: 0.6 } });
    expect(JSON.parse(toJsonText({ interval: [0, 1], confidenceInterval: [0, 1] }))).toEqual({ confidenceInterval: [0, 1] });
    expect(Object.keys(JSON.parse(toJsonText({ interval: [0, 2], confidenceInterval: [0, 1] })))).toEqual(['interval', 'confidenceInterval']);
  });
});
