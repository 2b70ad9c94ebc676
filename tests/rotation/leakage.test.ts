import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadManifest } from '../../src/data/manifest.js';
import { benchmarkItemsFromManifest } from '../../src/rotation/content.js';
import { findLeakage, findNearDuplicates, jaccardSimilarity, normalisedWords, wordShingles } from '../../src/rotation/leakage.js';

const reference = JSON.parse(readFileSync(new URL('../reference/rotation/reference.json', import.meta.url), 'utf8')) as {
  jaccard: Array<{ a: string; b: string; jaccard: number }>;
};

describe('normalisedWords / wordShingles / jaccardSimilarity', () => {
  it('repeat their JSDoc examples', () => {
    expect(normalisedWords('Payment is due—in FULL.')).toEqual(['payment', 'is', 'due', 'in', 'full']);
    expect(wordShingles('a b c d', 3)).toEqual(new Set(['a b c', 'b c d']));
    expect(jaccardSimilarity(new Set(['a', 'b']), new Set(['b', 'c']))).toBe(1 / 3);
  });

  it('handle short and empty texts', () => {
    expect(wordShingles('two words', 3)).toEqual(new Set(['two words']));
    expect(wordShingles(' ,. ', 3)).toEqual(new Set());
    expect(jaccardSimilarity(new Set(), new Set())).toBeNaN();
    expect(() => wordShingles('x', 0)).toThrow(RangeError);
  });

  it('match the Python reference (tests/reference/rotation/reference.py) to 1e-15', () => {
    for (const r of reference.jaccard) expect(Math.abs(jaccardSimilarity(wordShingles(r.a), wordShingles(r.b)) - r.jaccard)).toBeLessThan(1e-15);
  });

  it('hand computation: "…of the fees." vs "…of the fees, as amended." is 17/19', () => {
    // 19 words → 17 shingles; the edit adds the 2 shingles "the fees as", "fees as amended": 17 shared / 19 in the union.
    const [r] = reference.jaccard;
    expect(jaccardSimilarity(wordShingles(r.a), wordShingles(r.b))).toBe(17 / 19);
  });
});

describe('findLeakage', () => {
  it('finds the bundled manifest\'s one verbatim and one near-duplicate leak between dev and eval, and nothing else', () => {
    const items = benchmarkItemsFromManifest(loadManifest('examples/manifest.yaml'));
    const r = findLeakage(items);
    expect(r).toMatchObject({ threshold: 0.8, shingleSize: 3, evalItems: 80, devItems: 20, leakedEvalItems: ['e026', 'e046'] });
    expect(r.pairs).toEqual([
      { evalItem: 'e026', devItem: 'd086', stratum: 'rare_clause', devStratum: 'rare_clause', kind: 'exact', similarity: 1 },
      { evalItem: 'e046', devItem: 'd091', stratum: 'past_failure', devStratum: 'past_failure', kind: 'near', similarity: 17 / 19 },
    ]);
  });

  it('reports every pair, exact first, and ignores eval/eval and dev/dev copies', () => {
    const items = [
      { item: 'e1', stratum: 's', split: 'eval' as const, content: 'the quick brown fox jumps over the lazy dog' },
      { item: 'e2', stratum: 's', split: 'eval' as const, content: 'the quick brown fox jumps over the lazy dog' },
      { item: 'd1', stratum: 's', split: 'dev' as const, content: 'The quick brown fox jumps over the lazy dog!' },
      { item: 'd2', stratum: 't', split: 'dev' as const, content: Buffer.from('the quick brown fox jumps over the lazy dog') },
      { item: 'd3', stratum: 't', split: 'dev' as const, content: 'something else entirely, no overlap at all' },
    ];
    const r = findLeakage(items);
    expect(r.pairs.map((p) => `${p.evalItem}${p.kind === 'exact' ? '=' : '≈'}${p.devItem}`)).toEqual(['e1=d2', 'e2=d2', 'e1≈d1', 'e2≈d1']);
    expect(r.pairs[2].similarity).toBe(1); // equal after normalisation, not byte-equal
    expect(r.pairs[0].devStratum).toBe('t');
  });

  it('respects the threshold and checks it', () => {
    const left = [{ item: 'a', content: 'Payment is due in full within 51 days after the invoice date.' }];
    const right = [{ item: 'b', content: 'Payment is due in full within 44 days after the invoice date.' }];
    // Hand count: 12 words → 10 shingles each; the 3 holding the number differ → 7 shared, 13 in the union: 7/13 (as the reference).
    const j = reference.jaccard[1].jaccard;
    expect(j).toBe(7 / 13);
    expect(findNearDuplicates(left, right, { threshold: j })).toHaveLength(1);
    expect(findNearDuplicates(left, right, { threshold: j + 1e-9 })).toHaveLength(0);
    expect(() => findNearDuplicates(left, right, { threshold: 0 })).toThrow(/threshold must be in \(0, 1\]/);
    expect(() => findNearDuplicates(left, right, { threshold: 1.5 })).toThrow(RangeError);
  });
});

describe('findNearDuplicates: the prefix filter misses nothing', () => {
  // Brute force over every pair, from wordShingles and jaccardSimilarity alone.
  function bruteForce(left: Array<{ item: string; content: string }>, right: Array<{ item: string; content: string }>, threshold: number) {
    const out: Array<{ left: string; right: string; similarity: number }> = [];
    for (const a of left) for (const b of right) {
      if (a.content === b.content) continue;
      const similarity = jaccardSimilarity(wordShingles(a.content), wordShingles(b.content));
      if (similarity >= threshold) out.push({ left: a.item, right: b.item, similarity });
    }
    return out.sort((x, y) => (x.left < y.left ? -1 : x.left > y.left ? 1 : x.right < y.right ? -1 : x.right > y.right ? 1 : 0));
  }

  it('finds exactly the pairs at or above the threshold that brute force finds, boilerplate and all', () => {
    // Texts from a 6-word vocabulary plus a boilerplate run every text shares: many pairs share
    // shingles, a few cross each threshold.
    const vocabulary = ['payment', 'due', 'net', 'thirty', 'days', 'invoice'];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 9 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 9 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0.3, 0.5, 0.7, 0.8, 1),
        fc.boolean(),
        (leftWords, rightWords, threshold, boilerplate) => {
          const text = (ws: number[]) => (boilerplate ? 'this agreement is made between the parties ' : '') + ws.map((w) => vocabulary[w]).join(' ');
          const left = leftWords.map((ws, i) => ({ item: `l${String(i).padStart(2, '0')}`, content: text(ws) }));
          const right = rightWords.map((ws, i) => ({ item: `r${String(i).padStart(2, '0')}`, content: text(ws) }));
          const near = findNearDuplicates(left, right, { threshold })
            .filter((p) => p.kind === 'near')
            .map((p) => ({ left: p.left, right: p.right, similarity: p.similarity }));
          expect(near).toEqual(bruteForce(left, right, threshold));
        },
      ),
      { numRuns: 300, seed: 20261201 },
    );
  });
});
