import { describe, expect, it } from 'vitest';
import { binomialHalfLowerTails, mcnemarFromCounts } from '../../src/paired/mcnemar.js';
import { pairedProportionInterval } from '../../src/paired/paired-proportion.js';

// The block-wise exact sum (binomialHalfLowerTails) against the sum one term at a time (the code it
// replaced, kept here as the oracle): the same integers, so the same doubles, bit for bit, at every
// block size (n decides it: 8 terms a block at small n, 3 at 20,000) and for k at both ends, the
// middle and block boundaries. And the exact and mid-p values of pairedProportionInterval, which
// now sum each tail once, against their definitions on the oracle.

function oracle(n: number, k: number): number {
  if (k >= n) return 1;
  let term = 1n;
  let sum = 1n;
  const big = BigInt(n);
  for (let i = 0n; i < BigInt(k); i++) {
    term = (term * (big - i)) / (i + 1n);
    sum += term;
  }
  const bits = sum.toString(2).length;
  const drop = Math.max(0, bits - 62);
  const exponent = drop - n;
  return Number(sum >> BigInt(drop)) * 2 ** Math.max(exponent, -1000) * 2 ** Math.min(0, exponent + 1000);
}

const sizes = [1, 2, 3, 4, 5, 8, 9, 17, 33, 100, 149, 150, 151, 500, 501, 1999, 2000, 2001, 5000, 20000];

/** halfPowerRatio of every partial sum S_0 … S_(last) of C(n, i) (last = n − 1 by default), one term at a time in BigInt (the oracle, all k at once). */
function oracleAll(n: number, last = n - 1): number[] {
  const out: number[] = [];
  let term = 1n;
  let sum = 1n;
  const big = BigInt(n);
  for (let k = 0; k <= last; k++) {
    if (k > 0) {
      term = (term * (big - BigInt(k - 1))) / BigInt(k);
      sum += term;
    }
    const bits = sum.toString(2).length;
    const drop = Math.max(0, bits - 62);
    const exponent = drop - n;
    out.push(Number(sum >> BigInt(drop)) * 2 ** Math.max(exponent, -1000) * 2 ** Math.min(0, exponent + 1000));
  }
  return out;
}

describe('binomialHalfLowerTails in double-double (the sum proved to the last of its 62 bits, else summed exactly)', () => {
  it('every k < n for every n ≤ 400: bit for bit the exact sum', () => {
    for (let n = 1; n <= 400; n++) {
      const exact = oracleAll(n);
      for (let k = 0; k < n; k++) {
        const { atMost, below } = binomialHalfLowerTails(n, k);
        if (atMost !== exact[k] || below !== (k >= 1 ? exact[k - 1] : 0)) expect({ n, k, atMost, below }).toEqual({ n, k, atMost: exact[k], below: k >= 1 ? exact[k - 1] : 0 });
      }
    }
  }, 600_000);

  it('a seeded sample of 40 sizes up to 20,000, a third of the k ≤ n/2 (those McNemar tests ask): bit for bit', () => {
    let state = 20261202;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    for (let t = 0; t < 40; t++) {
      const n = 401 + Math.floor(next() * (t < 34 ? 4000 : 19600));
      const exact = oracleAll(n, Math.floor(n / 2));
      for (let k = 0; k <= n / 2; k += 1 + Math.floor(next() * 5)) {
        const { atMost, below } = binomialHalfLowerTails(n, k);
        if (atMost !== exact[k] || below !== (k >= 1 ? exact[k - 1] : 0)) expect({ n, k, atMost, below }).toEqual({ n, k, atMost: exact[k], below: k >= 1 ? exact[k - 1] : 0 });
      }
    }
  }, 600_000);
});

describe('binomialHalfLowerTails', () => {
  it('gives the one-term-at-a-time exact sum bit for bit, and its neighbour k − 1', () => {
    for (const n of sizes) {
      const ks = new Set([0, 1, 2, 3, 7, 8, 9, 16, 25, Math.floor(n / 3), Math.floor(n / 2) - 1, Math.floor(n / 2), Math.ceil(n / 2), n - 2, n - 1, n, n + 1]);
      for (const k of ks) {
        if (k < 0 || (n > 2500 && k > 1100 && k < n - 1)) continue; // the oracle is slow at large n, k
        const { atMost, below } = binomialHalfLowerTails(n, k);
        expect(atMost, `n ${n} k ${k}`).toBe(oracle(n, k));
        expect(below, `n ${n} k ${k} − 1`).toBe(k >= 1 ? oracle(n, k - 1) : 0);
      }
    }
  });

  it('is exact on small cases', () => {
    expect(binomialHalfLowerTails(3, 0)).toEqual({ atMost: 0.125, below: 0 });
    expect(binomialHalfLowerTails(20, 5).atMost).toBe(21700 / 2 ** 20);
  });
});

describe('pairedProportionInterval’s exact and mid-p values from one tail sum', () => {
  it('match McNemar’s exact p and the mid-p definition on the oracle', () => {
    const cdf = (m: number, k: number): number => (k < 0 ? 0 : k >= m ? 1 : 2 * k < m ? Math.min(1, 2 * oracle(m, k)) / 2 : 1 - cdf(m, m - k - 1));
    const pmf = (m: number, k: number): number => (k < 0 || k > m ? 0 : 2 * k > m ? pmf(m, m - k) : cdf(m, k) - cdf(m, k - 1));
    for (const m of [1, 2, 5, 10, 11, 40, 151, 600, 1800]) {
      for (const b of new Set([0, 1, Math.floor(m / 2), Math.ceil(m / 2), Math.floor((2 * m) / 3), m])) {
        const c = m - b;
        const counts = { both: 4, onlyA: b, onlyB: c, neither: 5 };
        const two = pairedProportionInterval(counts);
        const k = Math.min(b, c);
        expect(two.exactPValue).toBe(mcnemarFromCounts(b, c).exactPValue);
        expect(two.exactPValue).toBe(Math.min(1, 2 * oracle(m, k)));
        expect(two.midPValue).toBe(Math.min(1, 2 * cdf(m, k) - pmf(m, k)));
        for (const alternative of ['greater', 'less'] as const) {
          const one = pairedProportionInterval(counts, { alternative });
          const kk = alternative === 'greater' ? c : b;
          expect(one.exactPValue).toBe(cdf(m, kk));
          expect(one.midPValue).toBe(cdf(m, kk) - pmf(m, kk) / 2);
        }
      }
    }
  });
});

describe('exactPValues: false', () => {
  it('leaves only the McNemar p-values out: the interval and the score test are the same', async () => {
    const { autoPairedInterval } = await import('../../src/paired/auto-interval.js');
    for (const counts of [
      { both: 40, onlyA: 9, onlyB: 4, neither: 7 },
      { both: 10, onlyA: 0, onlyB: 0, neither: 3 },
      { both: 5000, onlyA: 1000, onlyB: 800, neither: 3200 },
    ]) {
      for (const alternative of ['two-sided', 'greater', 'less'] as const) {
        const full = pairedProportionInterval(counts, { alternative });
        const lean = pairedProportionInterval(counts, { alternative, exactPValues: false });
        const discordant = counts.onlyA + counts.onlyB > 0;
        expect(lean).toStrictEqual({ ...full, exactPValue: discordant ? NaN : 1, midPValue: discordant ? NaN : 1 });
      }
    }
    const a = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1];
    const b = [1, 0, 0, 1, 1, 0, 0, 1, 0, 1];
    // midP needs them: computed whatever exactPValues says
    expect(autoPairedInterval(a, b, { midP: true, exactPValues: false }).pValue).toBe(autoPairedInterval(a, b, { midP: true }).pValue);
    expect(autoPairedInterval(a, b, { exactPValues: false }).confidenceInterval).toStrictEqual(autoPairedInterval(a, b).confidenceInterval);
  });
});
