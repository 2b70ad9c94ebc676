// The exact 0/1 studies' enumeration of paired outcome tables, shared by the scripts that need it:
// Binomial pmfs with negligible tails cut, and every (b, c) of a trinomial with its probability.
// b = items only A gets right, c = items only B gets right, the rest concordant.

/** Mass cut from each tail of a binomial (the studies' kept mass is at least 1 − 4·TAIL per table). */
export const TAIL = 1e-12;

// log k! for k = 0 … (grown on demand; each entry is the running sum of log i, as every study computed it)
const LF = [0];
function logFactorial(k) {
  for (let i = LF.length; i <= k; i++) LF[i] = LF[i - 1] + Math.log(i);
  return LF[k];
}

/** log 0!, log 1!, …, log (size − 1)! as a table, each the running sum of log i (for scripts that sum trinomial terms directly). */
export function logFactorialTable(size) {
  logFactorial(size - 1);
  return Float64Array.from(LF.slice(0, size));
}

/**
 * Binomial(N, p) pmf over [lo, hi]: the first k whose left-cumulative mass reaches `tail`, and
 * likewise from the right. p ≤ 0 gives all mass at 0, p ≥ 1 at N.
 */
export function binomialRange(N, p, tail = TAIL) {
  if (p <= 0) return { lo: 0, hi: 0, pmf: [1] };
  if (p >= 1) return { lo: N, hi: N, pmf: [1] };
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const lfN = logFactorial(N);
  const all = new Float64Array(N + 1);
  for (let k = 0; k <= N; k++) all[k] = Math.exp(lfN - LF[k] - LF[N - k] + k * lp + (N - k) * lq);
  let lo = 0;
  let acc = 0;
  while (lo < N && acc + all[lo] < tail) acc += all[lo++];
  let hi = N;
  acc = 0;
  while (hi > lo && acc + all[hi] < tail) acc += all[hi--];
  return { lo, hi, pmf: Array.from(all.subarray(lo, hi + 1)) };
}

/**
 * Visits every (b, c) with its trinomial probability: b ~ Bin(n, p10), c | b ~ Bin(n − b, p01 / (1 − p10)).
 * Returns the mass kept.
 */
export function enumerateTables(n, p10, p01, visit, tail = TAIL) {
  let mass = 0;
  const B = binomialRange(n, p10, tail);
  for (let i = 0; i < B.pmf.length; i++) {
    const b = B.lo + i;
    const C = binomialRange(n - b, p10 < 1 ? p01 / (1 - p10) : 0, tail);
    for (let j = 0; j < C.pmf.length; j++) {
      const p = B.pmf[i] * C.pmf[j];
      visit(b, C.lo + j, p);
      mass += p;
    }
  }
  return mass;
}
