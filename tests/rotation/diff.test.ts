import { describe, expect, it } from 'vitest';
import { buildVersionRecord } from '../../src/rotation/archive.js';
import { diffVersions } from '../../src/rotation/diff.js';
import { item } from './helpers.js';

describe('diffVersions', () => {
  const a = buildVersionRecord(
    [
      item('r1', 'routine', 'one', { label: 'present' }),
      item('r2', 'routine', 'two', { label: 'present' }),
      item('r3', 'routine', 'three', { label: 'present' }),
      item('h1', 'hard', 'four', { label: 'present' }),
      item('h2', 'hard', 'five', { label: 'present' }),
      item('d1', 'hard', 'six', { split: 'dev' }),
    ],
    { version: 'A', date: '2026-07-01', guideline: 'g1' },
  );
  const b = buildVersionRecord(
    [
      item('r1', 'routine', 'one', { label: 'present' }), // unchanged
      item('r2', 'routine', 'two, edited', { label: 'absent' }), // content and label
      item('h1', 'hard', 'four', { label: 'present' }), // unchanged
      item('h2', 'routine', 'five', { label: 'present' }), // moved stratum
      item('d1', 'hard', 'six', { split: 'eval' }), // promoted from dev
      item('i1', 'hard', 'incident one'),
      item('i2', 'new_stratum', 'incident two'),
    ],
    { version: 'B', date: '2026-10-01', guideline: 'g2' },
  );

  it('lists added, retired and changed items with what changed, by stratum', () => {
    const d = diffVersions(a, b);
    expect(d.added).toEqual([
      { item: 'i1', stratum: 'hard', split: 'eval' },
      { item: 'i2', stratum: 'new_stratum', split: 'eval' },
    ]);
    expect(d.retired).toEqual([{ item: 'r3', stratum: 'routine', split: 'eval' }]);
    expect(d.changed).toEqual([
      { item: 'h2', stratum: 'routine', split: 'eval', changes: ['stratum hard → routine'] },
      { item: 'r2', stratum: 'routine', split: 'eval', changes: ['content', 'label "present" → "absent"'] },
      { item: 'd1', stratum: 'hard', split: 'eval', changes: ['split dev → eval'] },
    ]);
    expect(d.unchanged).toBe(2);
    expect(d.guideline).toEqual({ from: 'g1', to: 'g2' });
    expect(d.strata).toEqual([
      { stratum: 'routine', before: 3, after: 3, evalBefore: 3, evalAfter: 3, added: 0, retired: 1, changed: 2 },
      { stratum: 'hard', before: 3, after: 3, evalBefore: 2, evalAfter: 3, added: 1, retired: 0, changed: 1 },
      { stratum: 'new_stratum', before: 0, after: 1, evalBefore: 0, evalAfter: 1, added: 1, retired: 0, changed: 0 },
    ]);
    expect([d.from, d.to, d.fromFingerprint, d.toFingerprint]).toEqual(['A', 'B', a.fingerprint, b.fingerprint]);
  });

  it('finds nothing between a version and itself', () => {
    const d = diffVersions(a, a);
    expect([d.added, d.retired, d.changed, d.guideline, d.unchanged]).toEqual([[], [], [], null, 6]);
  });
});
