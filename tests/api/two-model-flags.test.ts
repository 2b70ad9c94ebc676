import type { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { commands } from '../../scripts/docs-flags.js';

// Two names for the two models, one direction (docs/input-formats.md, "Names"): a command that
// compares without a protected side names them --a/--b, one that protects a model names them
// --baseline/--candidate, and every difference is A − B = candidate − baseline. Read from the
// command definitions (the objects --help prints), as tests/docs/flags.test.ts does.
const PAIR = ['--a', '--b'];
const PROTECTED = ['--baseline', '--candidate'];
// Spellings a new command might reach for instead of the two sets above.
const OTHER_NAMES = /^--(model-?[ab]|first|second|reference|control|treatment|base|new|old|champion|challenger)$/;
// The lead's assignment (issue 27): which commands take which set.
const EXPECTED: Record<string, 'pair' | 'protected'> = {
  compare: 'pair',
  size: 'pair',
  select: 'pair',
  monitor: 'pair',
  allocate: 'pair',
  report: 'pair',
  validate: 'pair',
  gate: 'protected',
  label: 'protected',
  plan: 'protected',
};

function flagsOf(command: { options: readonly unknown[] }): Map<string, string> {
  return new Map((command.options as readonly Option[]).filter((o) => o.long !== undefined).map((o) => [o.long as string, o.description]));
}

describe('two-model flags', () => {
  const all = commands();
  it('finds the commands', () => expect(all.size).toBeGreaterThan(15));
  for (const [name, command] of all) {
    it(`${name}: its two-model flags are exactly --a/--b, exactly --baseline/--candidate, or none`, () => {
      const flags = flagsOf(command);
      const named = [...PAIR, ...PROTECTED].filter((f) => flags.has(f));
      const set = named.length === 0 ? 'none' : named.join(',') === PAIR.join(',') ? 'pair' : named.join(',') === PROTECTED.join(',') ? 'protected' : `mixed: ${named.join(', ')}`;
      expect(set).toBe(EXPECTED[name] ?? 'none');
      expect([...flags.keys()].filter((f) => OTHER_NAMES.test(f)), 'another name for one of the two models').toEqual([]);
    });
  }
  for (const [name, kind] of Object.entries(EXPECTED)) {
    it(`${name}: the help text says the direction (${kind === 'pair' ? 'A − B' : 'candidate − baseline'})`, () => {
      const flags = flagsOf(all.get(name) as unknown as { options: readonly unknown[] });
      if (kind === 'pair') {
        expect(flags.get('--a')).toContain('model A');
        expect(flags.get('--a')).toContain('the candidate side of A − B');
        expect(flags.get('--b')).toContain('model B');
        expect(flags.get('--b')).toContain('the baseline side of A − B');
      } else {
        expect(flags.get('--baseline')).toContain('the baseline side of candidate − baseline');
        expect(flags.get('--candidate')).toContain('the candidate side of candidate − baseline');
      }
    });
  }
  it('recognises a mixed set and another name (a command with --a and --candidate would fail)', () => {
    const mixed = new Map([['--a', ''], ['--candidate', '']]);
    expect([...PAIR, ...PROTECTED].filter((f) => mixed.has(f))).toEqual(['--a', '--candidate']);
    expect(['--model-a', '--reference', '--baseline', '--b'].filter((f) => OTHER_NAMES.test(f))).toEqual(['--model-a', '--reference']);
  });
});
