// The corpus of tests/paired/speed-identical.test.ts (issue 29: the 0/1 paths made faster must give the
// same bytes): random 0/1 and continuous paired samples with the options that reach every branch the
// speed-up touched (the 0/1 pre-pass, the tango / newcombe results, the McNemar tails, the gate's exact
// test) and the branches around it. make.mjs runs it through a build and writes outputs.json; the test
// runs it through src/ and compares. Plain JS so both can import it.

/** A small seeded generator (mulberry32): the corpus only, never the library's streams. */
function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A paired 0/1 sample: cells in the given shares (both, onlyA, onlyB; the rest neither). */
function binary(u, n, both, onlyA, onlyB) {
  const a = [];
  const b = [];
  for (let i = 0; i < n; i++) {
    const x = u();
    a.push(x < both + onlyA ? 1 : 0);
    b.push(x < both || (x >= both + onlyA && x < both + onlyA + onlyB) ? 1 : 0);
  }
  return { a, b };
}

/** A paired continuous sample on [0, 1] (clipped, so with ties at 0 and 1) or unbounded. */
function continuous(u, n, shift, bounded) {
  const a = [];
  const b = [];
  const normal = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  for (let i = 0; i < n; i++) {
    const q = 0.3 + 0.4 * u();
    const x = q + shift + 0.15 * normal();
    const y = q + 0.15 * normal();
    a.push(bounded ? Math.min(1, Math.max(0, x)) : x * 10);
    b.push(bounded ? Math.min(1, Math.max(0, y)) : y * 10);
  }
  return { a, b };
}

const BINARY_SIZES = [1, 2, 3, 5, 10, 24, 60, 100, 250, 1000, 4000, 10000];
const SHARES = [
  [0.6, 0.1, 0.08],
  [0.5, 0.0, 0.0],
  [0.3, 0.25, 0.25],
  [0.7, 0.02, 0.12],
  [0.0, 0.5, 0.5],
  [0.45, 0.15, 0.02],
];

/**
 * The cases: { id, kind: 'auto' | 'compare' | 'gate', a, b, (c), options, float }. `float`: pass the
 * scores as Float64Array (the bench's form) rather than plain arrays.
 */
export function corpus() {
  const u = mulberry32(20261202);
  const cases = [];
  let id = 0;
  const push = (c) => cases.push({ id: `${c.kind}-${id++}`, ...c });
  const autoOptions = [
    {},
    { alternative: 'greater' },
    { alternative: 'less', confidenceLevel: 0.9 },
    { midP: true },
    { exactPValues: false },
    { exactPValues: false, alternative: 'greater' },
    { midP: true, alternative: 'less' },
    { scoreRange: [0, 1] },
    { scoreRange: [-1, 2], alternative: 'greater' },
  ];
  for (const n of BINARY_SIZES) {
    SHARES.forEach((shares, s) => {
      const { a, b } = binary(u, n, ...shares);
      const options = autoOptions[(s + n) % autoOptions.length];
      push({ kind: 'auto', a, b, options, float: s % 2 === 0 });
      if (n <= 1000) push({ kind: 'auto', a, b, options: autoOptions[(s + n + 4) % autoOptions.length], float: s % 2 === 1 });
    });
  }
  // 0/1 with strata (still tango), with clusters (CR2 on 0/1 differences), -0 among the zeros, empty
  {
    const { a, b } = binary(u, 80, 0.5, 0.2, 0.1);
    push({ kind: 'auto', a, b, options: { strata: Array.from({ length: 80 }, (_, i) => i % 3) }, float: true });
    push({ kind: 'auto', a, b, options: { cluster: Array.from({ length: 80 }, (_, i) => Math.floor(i / 4)) }, float: true });
    push({ kind: 'auto', a: a.map((x, i) => (x === 0 && i % 2 ? -0 : x)), b: b.map((x, i) => (x === 0 && i % 3 ? -0 : x)), options: {}, float: false });
    push({ kind: 'auto', a: [], b: [], options: {}, float: false });
  }
  // continuous, bounded and not, and a sample that is 0/1 but for one value (last, first)
  for (const n of [3, 12, 40, 150]) {
    for (const bounded of [true, false]) {
      const { a, b } = continuous(u, n, 0.03, bounded);
      push({ kind: 'auto', a, b, options: { nResamples: 199, seed: `c${n}` }, float: n % 2 === 0 });
      push({ kind: 'auto', a, b, options: { alternative: 'greater', nResamples: 199 }, float: true });
    }
  }
  {
    const { a, b } = binary(u, 200, 0.6, 0.1, 0.08);
    push({ kind: 'auto', a, b: [...b.slice(0, 199), 0.5], options: { nResamples: 199 }, float: true });
    push({ kind: 'auto', a: [0.5, ...a.slice(1)], b, options: { nResamples: 199 }, float: false });
    push({ kind: 'auto', a: a.map((x) => x * 2), b: b.map((x) => x * 2), options: { nResamples: 199 }, float: true });
  }
  // bad input: the errors must read the same
  push({ kind: 'auto', a: [1, 0, 1], b: [1, 0], options: {}, float: false });
  push({ kind: 'auto', a: [1, 0, NaN], b: [1, 0, 1], options: {}, float: false });
  push({ kind: 'auto', a: [1, 0, 1], b: [1, Infinity, 1], options: {}, float: false });
  push({ kind: 'auto', a: [1, 0, '1'], b: [1, 0, 1], options: {}, float: false });
  push({ kind: 'auto', a: [1, 0, true], b: [1, 0, 1], options: {}, float: false });
  push({ kind: 'auto', a: [1, 0, 1], b: [1, 0, 2], options: { scoreRange: [0, 1] }, float: false });
  push({ kind: 'auto', a: null, b: [1, 0, 1], options: {}, float: false });
  push({ kind: 'auto', a: [1, 0, 1], b: [1, 0, 1], options: { confidenceLevel: 2 }, float: false });
  // compareModels, method auto, three models
  for (const n of [30, 500, 10000]) {
    const x = binary(u, n, 0.6, 0.1, 0.08);
    const y = binary(u, n, 0.5, 0.2, 0.1);
    push({ kind: 'compare', a: x.a, b: x.b, c: y.a, options: { method: 'auto' }, float: true });
    const z = continuous(u, n, 0.02, true);
    if (n <= 500) push({ kind: 'compare', a: z.a, b: z.b, c: x.a, options: { method: 'auto', nResamples: 99, nPermutations: 99 }, float: true });
  }
  // the gate: 0/1 at sizes where the exact score test runs (few discordant items), and past its shortcut
  for (const n of [20, 40, 60, 100, 150, 300, 1000, 10000]) {
    for (const [margin, shares] of [
      [0.05, [0.6, 0.1, 0.08]],
      [0.1, [0.7, 0.05, 0.03]],
      [0.02, [0.8, 0.04, 0.01]],
      [0.05, [0.5, 0.0, 0.0]],
    ]) {
      const { a, b } = binary(u, n, ...shares);
      push({ kind: 'gate', a, b, options: { margin }, float: n % 3 === 0 });
    }
  }
  for (const n of [12, 100]) {
    const { a, b } = continuous(u, n, 0.02, true);
    push({ kind: 'gate', a, b, options: { margin: 0.05, nResamples: 199 }, float: true });
    const wide = continuous(u, n, 0.02, false);
    push({ kind: 'gate', a: wide.a, b: wide.b, options: { margin: 0.5, nResamples: 199 }, float: true });
  }
  // the gate on 0/1 scores with a declared range, per stratum, and stratified
  for (const n of [60, 400]) {
    const { a, b } = binary(u, n, 0.6, 0.12, 0.04);
    const stratum = Array.from({ length: n }, (_, i) => i % 2);
    push({ kind: 'gate', a, b, options: { margin: 0.1, scoreRange: [-1, 2] }, float: true });
    push({ kind: 'gate', a, b, options: { margin: 0.1, perStratum: true }, stratum, float: false });
    push({ kind: 'gate', a, b, options: { margin: 0.1 }, stratum, stratified: true, float: true });
  }
  // The continuous gate (the one-walk summary of the differences, issue 29's second speed-up: references
  // from the build of 6e69123, before it): bounded scores passing, failing and undecided, skewed losses
  // (betting), unbounded scores skewed toward losses (lossSkew), a declared range, one score outside
  // [0, 1], no spread, strata, clusters, the non-auto methods' blind spot, bad input.
  for (const n of [5, 30, 200, 10000]) {
    for (const shift of [0.03, 0, -0.12]) {
      const { a, b } = continuous(u, n, shift, true);
      push({ kind: 'gate', a, b, options: { margin: 0.05, nResamples: 199 }, float: n % 2 === 0 });
    }
  }
  for (const n of [30, 60, 400]) {
    const { a, b } = continuous(u, n, 0.02, true);
    // rare large losses: a few items where the candidate falls far
    const lossy = a.map((x, i) => (i % 17 === 3 ? Math.max(0, x - 0.8) : x));
    push({ kind: 'gate', a: lossy, b, options: { margin: 0.05, nResamples: 199 }, float: true });
    push({ kind: 'gate', a: lossy.map((x) => 10 * x), b: b.map((x) => 10 * x), options: { margin: 0.5, nResamples: 199 }, float: true });
    push({ kind: 'gate', a: lossy.map((x) => 10 * x), b: b.map((x) => 10 * x), options: { margin: 0.5, nResamples: 199, scoreRange: [0, 10] }, float: false });
    push({ kind: 'gate', a: lossy.map((x, i) => (i === 1 ? 1.5 : x)), b, options: { margin: 0.05, nResamples: 199 }, float: true });
  }
  {
    const { a, b } = continuous(u, 120, 0.02, true);
    const stratum = Array.from({ length: 120 }, (_, i) => i % 3);
    const cluster = Array.from({ length: 120 }, (_, i) => Math.floor(i / 6));
    push({ kind: 'gate', a, b, options: { margin: 0.05, nResamples: 199 }, stratum, stratified: true, float: true });
    push({ kind: 'gate', a, b, options: { margin: 0.05, nResamples: 199, perStratum: true }, stratum, float: false });
    push({ kind: 'gate', a, b, options: { margin: 0.05 }, cluster, float: true });
    for (const method of ['t', 'bca', 'percentile']) push({ kind: 'gate', a, b, options: { margin: 0.05, method, nResamples: 199 }, float: true });
    push({ kind: 'gate', a: b.map((x) => x + 0.01), b, options: { margin: 0.05 }, float: true });
    push({ kind: 'gate', a: b.map((x) => 10 * x + 0.01), b: b.map((x) => 10 * x), options: { margin: 0.05, method: 't' }, float: false });
    push({ kind: 'gate', a: [...a.slice(0, 119), NaN], b, options: { margin: 0.05 }, float: true });
    push({ kind: 'gate', a, b: [...b.slice(0, 119), -Infinity], options: { margin: 0.05 }, float: false });
    push({ kind: 'gate', a, b: b.slice(1), options: { margin: 0.05 }, float: true });
  }
  // a clear pass on fewer items than rule out the blind spot (n < 59 at margin 0.05): on [0, 1], with one
  // score outside it (no blind spot: unbounded), on a declared [0, 2], and through method t
  {
    const { a, b } = continuous(u, 40, 0.15, true);
    push({ kind: 'gate', a, b, options: { margin: 0.05 }, float: true });
    push({ kind: 'gate', a: a.map((x, i) => (i === 7 ? 1.2 : x)), b, options: { margin: 0.05 }, float: false });
    push({ kind: 'gate', a, b, options: { margin: 0.05, scoreRange: [0, 2] }, float: true });
    push({ kind: 'gate', a, b, options: { margin: 0.05, method: 't' }, float: true });
  }
  return cases;
}

/** JSON of a value, or of the error it threw ({ error: name, message }). */
export function outcome(run) {
  try {
    return JSON.stringify(run());
  } catch (e) {
    return JSON.stringify({ error: e?.constructor?.name, message: String(e?.message) });
  }
}

/** Runs one case through the given library functions. */
export function runCase(c, lib) {
  const form = (x) => (c.float && Array.isArray(x) ? Float64Array.from(x) : x);
  const options = { ...c.options };
  if (options.strata) options.strata = Int32Array.from(options.strata);
  if (options.cluster) options.cluster = Int32Array.from(options.cluster);
  if (c.kind === 'auto') return outcome(() => lib.autoPairedInterval(form(c.a), form(c.b), options));
  if (c.kind === 'compare') {
    const scores = [c.a, c.b, c.c].map((x) => Float64Array.from(x));
    const aligned = { models: ['A', 'B', 'C'], items: c.a.map((_, i) => `i${i}`), scores, cluster: null, stratum: null, clusters: [], strata: [] };
    return outcome(() => lib.compareModels(aligned, options));
  }
  const design = { ...(c.stratum ? { stratum: Int32Array.from(c.stratum), stratified: c.stratified ?? false } : {}), ...(c.cluster ? { cluster: Int32Array.from(c.cluster) } : {}) };
  return outcome(() => lib.nonInferiorityFromScores({ candidate: form(c.a), baseline: form(c.b), ...design }, options));
}
