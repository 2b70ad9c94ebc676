import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interner, plainDecimalAt, toFiniteNumber } from '../../src/data/columns.js';

describe('Interner', () => {
  it('numbers strings densely in order of first appearance, as a Map would (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 2000 }), (words) => {
        const interner = new Interner();
        const reference = new Map<string, number>();
        for (const w of words) {
          if (!reference.has(w)) reference.set(w, reference.size);
          if (interner.id(w) !== reference.get(w)) return false;
        }
        return interner.names.length === reference.size && [...reference].every(([w, k]) => interner.names[k] === w && interner.get(w) === k) && interner.get('\u0000absent') === undefined;
      }),
      { seed: 19, numRuns: 300 },
    );
  });

  it('keeps its numbering through many ids (the table grows) and ids that all share one slot', () => {
    // Two-unit strings [a, b] whose FNV-1a hashes agree in their low 16 bits: b is chosen so that
    // (h0 ^ a) · p ^ b has fixed low bits (multiplying by the odd p keeps low bits apart), so every
    // one falls in the same slot of any table up to 65,536 slots and the probes run long.
    const h0 = 0x811c9dc5 | 0;
    const colliding = Array.from({ length: 3000 }, (_, a) => String.fromCharCode(a + 1, (Math.imul(h0 ^ (a + 1), 16777619) & 0xffff) ^ 0x1234));
    const plain = Array.from({ length: 50000 }, (_, k) => `item-${k}`);
    for (const ids of [plain, colliding, [...plain.slice(0, 100), ...colliding]]) {
      const interner = new Interner();
      ids.forEach((id, k) => expect(interner.id(id)).toBe(k));
      // again, out of order: the same numbers, no new names
      for (let k = ids.length - 1; k >= 0; k -= 7) expect(interner.id(ids[k])).toBe(k);
      for (let k = 0; k < ids.length; k += 13) expect(interner.get(ids[k])).toBe(k);
      expect(interner.names).toEqual(ids);
    }
  });
});

describe('plainDecimalAt', () => {
  it('reads a cell inside a line as Number(cell) would, or leaves it to the general path', () => {
    const line = 'x,0.25,-3,1.,.5,1e3,007.50,,-,12345678901234567';
    const cells = line.split(',');
    let from = 0;
    for (const cell of cells) {
      const got = plainDecimalAt(line, from, from + cell.length);
      // undefined is allowed only where toFiniteNumber's general path decides
      if (got === undefined) expect(['x', '1.', '.5', '1e3', '', '-', '12345678901234567']).toContain(cell);
      else expect(Object.is(got, toFiniteNumber(cell))).toBe(true);
      from += cell.length + 1;
    }
    expect(plainDecimalAt('a,0.25,b', 2, 6)).toBe(0.25); // the JSDoc example
    expect(plainDecimalAt(line, 2, 6)).toBe(0.25);
    expect(plainDecimalAt(line, 7, 9)).toBe(-3);
  });
});
