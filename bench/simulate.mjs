// What the coverage studies share (bench/coverage.mjs and the side studies that regenerate its data):
// the seeded generator (xoshiro128** from a 32-bit seed, uniform and normal draws), FNV-1a of a
// replicate's label, and the stratified design. The simulated data only; the library's own streams
// seed the resampling.

export function generator(seed) {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 + seed * 7919;
  let c = 0xb7e15162;
  let d = 0x85a308d3 ^ (seed >>> 3);
  const next = () => {
    // xoshiro128**
    const r = Math.imul(rotl(Math.imul(b, 5), 7), 9);
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return (r >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  let spare = null;
  const normal = () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    let u = 0;
    while (u === 0) u = next();
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  return { uniform: next, normal };
}
function rotl(x, k) {
  return (x << k) | (x >>> (32 - k));
}


/** FNV-1a of text: replicate r of a cell is generator(hash(`family|design|size|r`)). */
export function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * A paired design with strata of fixed shares of n (each at least 2 items): B's score is normal, A's
 * is B's plus the stratum mean plus spread(h, z) for a fresh normal z. The truth is the size-weighted
 * mean of the stratum means (the estimand of a stratified, fixed-size design).
 */
export function stratifiedDesign(shares, means, spread) {
  return (n, g) => {
    const sizes = shares.map((s) => Math.max(2, Math.round(s * n)));
    const a = [];
    const b = [];
    const strata = [];
    let truthSum = 0;
    let total = 0;
    sizes.forEach((m, h) => {
      for (let i = 0; i < m; i++) {
        const base = g.normal();
        b.push(base);
        a.push(base + means[h] + spread(h, g.normal()));
        strata.push(h);
      }
      truthSum += m * means[h];
      total += m;
    });
    return { a: Float64Array.from(a), b: Float64Array.from(b), strata: Int32Array.from(strata), truth: truthSum / total, sizes };
  };
}

/**
 * The grid's skewed [0, 1] partial-credit pair (bench/coverage.mjs; bench/limits-study.mjs reuses it):
 * B scores a uniform on 15% of items and 0 elsewhere; A gains full credit on 5%, scores 0 on 1%, and
 * equals B otherwise. Differences in [−1, 1] with skewness about 4.
 */
export function skewedPartialCredit(n, g) {
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    b[i] = g.uniform() < 0.15 ? g.uniform() : 0;
    const u = g.uniform();
    a[i] = u < 0.05 ? 1 : u < 0.06 ? 0 : b[i];
  }
  // E[b] = 0.15 · 0.5 = 0.075; E[a] = 0.94 · 0.075 + 0.05; truth = E[a] − E[b]
  return { a, b, truth: 0.94 * 0.075 + 0.05 - 0.075 };
}

/**
 * n paired items drawn from a population { a, b } (arrays of equal length), with replacement or
 * without (a partial Fisher–Yates shuffle), by the generator g: the real-data studies' resampling.
 */
export function drawPaired(pop, n, replace, g) {
  const N = pop.a.length;
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  if (replace) {
    for (let i = 0; i < n; i++) {
      const j = Math.floor(g.uniform() * N);
      a[i] = pop.a[j];
      b[i] = pop.b[j];
    }
  } else {
    const idx = Int32Array.from({ length: N }, (_, i) => i);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(g.uniform() * (N - i));
      const t = idx[i];
      idx[i] = idx[j];
      idx[j] = t;
      a[i] = pop.a[idx[i]];
      b[i] = pop.b[idx[i]];
    }
  }
  return { a, b };
}
