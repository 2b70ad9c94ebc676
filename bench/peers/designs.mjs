// The designs of the peers study (bench/peers.txt): each cell's replicates are generated here once,
// from seeded streams, and fed to benchplan (in this Node process) and to every peer (one Python
// process each, through a JSON file), so every tool sees the same samples.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generator, hash } from '../simulate.mjs';
import { importResults } from '../../dist/import/index.js';

export const REAL_LOGS = '/work/shared/real-logs';

/** Paired 0/1: P(A right, B wrong) = p10, P(A wrong, B right) = p01, both right at rate `both`, both wrong otherwise. */
function binaryPair(n, p10, p01, both, g) {
  const a = new Array(n).fill(0);
  const b = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    const u = g.uniform();
    if (u < p10) a[i] = 1;
    else if (u < p10 + p01) b[i] = 1;
    else if (u < p10 + p01 + both) a[i] = b[i] = 1;
  }
  return { a, b, truth: p10 - p01 };
}

const binomial4 = (q, g) => {
  let k = 0;
  for (let j = 0; j < 4; j++) if (g.uniform() < q) k += 1;
  return k / 4;
};

/** Quarter-point partial credit: item difficulty q ~ U(0.2, 0.9), A's success rate q + shift (shift ∈ [−0.1, 0.05] keeps it in [0, 1]): truth = shift. */
function partialCredit(n, shift, g) {
  const a = new Array(n);
  const b = new Array(n);
  for (let i = 0; i < n; i++) {
    const q = 0.2 + 0.7 * g.uniform();
    a[i] = binomial4(q + shift, g);
    b[i] = binomial4(q, g);
  }
  return { a, b, truth: shift };
}

/**
 * Continuous scores in G documents of unequal size (1 + ⌊e^{N(1, 0.6)}⌋ items, mean ≈ 4), a document
 * effect u_g ~ N(0, 0.6²) on A − B and item noise N(0, 0.9²) (intraclass correlation ≈ 0.3); B's own
 * score N(0.5, 0.2²); truth 0.1 (u is independent of the size).
 */
function clustered(G, g) {
  const a = [];
  const b = [];
  const cluster = [];
  for (let c = 0; c < G; c++) {
    const size = 1 + Math.floor(Math.exp(1 + 0.6 * g.normal()));
    const u = 0.6 * g.normal();
    for (let i = 0; i < size; i++) {
      const base = 0.5 + 0.2 * g.normal();
      b.push(base);
      a.push(base + 0.1 + u + 0.9 * g.normal());
      cluster.push(c);
    }
  }
  return { a, b, cluster, truth: 0.1 };
}

/** n labelled items, N = 10 n unlabelled: human label Y ~ Bernoulli(0.6), judge f = Y + σ ε with corr(Y, f) = ρ; `biased`: two equal strata, +0.2 on the judge in the second. */
function judged(n, rho, biased, g) {
  const sigma = Math.sqrt(0.24 * (1 / (rho * rho) - 1));
  const one = () => {
    const y = g.uniform() < 0.6 ? 1 : 0;
    const f = y + sigma * g.normal() + (biased && g.uniform() < 0.5 ? 0.2 : 0);
    return [y, f];
  };
  const labels = [];
  const predictions = [];
  for (let i = 0; i < n; i++) {
    const [y, f] = one();
    labels.push(y);
    predictions.push(f);
  }
  const unlabelled = [];
  for (let j = 0; j < 10 * n; j++) unlabelled.push(one()[1]);
  return { labels, predictions, unlabelled, truth: 0.6 };
}

/** Paired 0/1 items streamed one at a time: item difficulty q ~ U(0.1, 0.9), B right with chance q, A with q + truth (≤ 1 for truth ≤ 0.1): E[A − B] = truth exactly. */
function streamed(length, truth, g) {
  const a = new Array(length);
  const b = new Array(length);
  for (let i = 0; i < length; i++) {
    const q = 0.1 + 0.8 * g.uniform();
    b[i] = g.uniform() < q ? 1 : 0;
    a[i] = g.uniform() < Math.min(1, q + truth) ? 1 : 0;
  }
  return { a, b, truth };
}

/**
 * Real paired populations from lm-eval samples files of the same task run twice (two settings of
 * Llama-3-8B), paired by doc_id: [label, file A, file B, field, scale]. Only 0/1 pairs: the corpus
 * holds no two runs of one task with a per-item continuous score (truthfulqa's second run has 20 items).
 */
const BIAS = 'lm-eval/lm_eval_tasks_bias_classification_results_meta-llama__Meta-Llama-3-8B';
const STEREO = 'lm-eval/lm_eval_tasks_stereotype_classification_results_meta-llama__Meta-Llama-3-8B';
const REAL = [
  ['lm-eval bias_classification acc, two runs', `${BIAS}/samples_bias_classification_2024-06-17T12-20-26.826621.json`, `${BIAS}/samples_bias_classification_2024-06-17T15-44-37.867068.json`, 'acc', 1],
  ['lm-eval stereotype_classification acc, two runs', `${STEREO}/samples_stereotype_classification_2024-06-17T16-12-47.023639.json`, `${STEREO}/samples_stereotype_classification_2024-06-17T16-14-38.892052.json`, 'acc', 1],
];

function readSamples(file) {
  const text = readFileSync(file, 'utf8').trim();
  if (text.startsWith('[')) return JSON.parse(text);
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** The real populations: { label, a, b, truth } (truth = the population's mean difference), or a reason each is skipped. */
export function realPopulations() {
  const out = [];
  for (const [label, fa, fb, field, scale] of REAL) {
    const pa = join(REAL_LOGS, fa);
    const pb = join(REAL_LOGS, fb);
    if (!existsSync(pa) || !existsSync(pb)) {
      out.push({ label, skipped: `${REAL_LOGS} absent (a user's clone does not have it)` });
      continue;
    }
    const byDoc = new Map(readSamples(pb).map((s) => [s.doc_id, s]));
    const a = [];
    const b = [];
    for (const s of readSamples(pa)) {
      const t = byDoc.get(s.doc_id);
      if (t === undefined || typeof s[field] !== 'number' || typeof t[field] !== 'number') continue;
      a.push(s[field] / scale);
      b.push(t[field] / scale);
    }
    let d = 0;
    for (let i = 0; i < a.length; i++) d += a[i] - b[i];
    out.push({ label, a, b, truth: d / a.length, size: a.length, discordant: a.filter((x, i) => x !== b[i]).length });
  }
  return out;
}

/**
 * The CALAMITA machine-translation run (lm-eval, Meta-Llama-3-8B-Instruct): en→it and it→en samples
 * files scored per sentence, paired by doc id (as bench/comet-gate-rules.mjs and
 * bench/real-data-study.mjs pair them), N = 1,011. Per metric: { metric, label, a (en→it), b (it→en),
 * truth, sd } with truth the population mean of a − b, or { metric, skipped } when the logs are absent.
 * The scores are in [0, 1] and are not shifted (bench/peers/real-gate-cells.txt).
 */
const CALAMITA = 'lm-eval/tests_calamita_meta-llama__Meta-Llama-3-8B-Instruct';
const CALAMITA_EN_IT = 'samples_MT_CALAMITA_en_it_public_2024-11-13T02-20-05.221387.jsonl';
const CALAMITA_IT_EN = 'samples_MT_CALAMITA_it_en_public_2024-11-13T03-09-01.700058.jsonl';
export function translationPopulations() {
  const out = [];
  for (const [metric, name] of [['comet_score', 'COMET'], ['bleu_score', 'BLEU']]) {
    const fa = join(REAL_LOGS, CALAMITA, CALAMITA_EN_IT);
    const fb = join(REAL_LOGS, CALAMITA, CALAMITA_IT_EN);
    if (!existsSync(fa) || !existsSync(fb)) {
      out.push({ metric, name, skipped: `${REAL_LOGS} absent (a user's clone does not have it)` });
      continue;
    }
    const rows = (f) => importResults('lm-eval', [f], { metric }).rows;
    const doc = (r) => r.item.split('/').pop();
    const byDoc = new Map(rows(fb).map((r) => [doc(r), r.score]));
    const a = [];
    const b = [];
    for (const r of rows(fa)) {
      if (!byDoc.has(doc(r))) continue;
      a.push(r.score);
      b.push(byDoc.get(doc(r)));
    }
    let m = 0;
    for (let i = 0; i < a.length; i++) m += a[i] - b[i];
    m /= a.length;
    let ss = 0;
    for (let i = 0; i < a.length; i++) ss += (a[i] - b[i] - m) ** 2;
    out.push({ metric, name, label: `CALAMITA ${name} en→it − it→en`, a, b, truth: m, sd: Math.sqrt(ss / (a.length - 1)), size: a.length });
  }
  return out;
}

/** n items drawn without replacement from a population (partial Fisher–Yates). */
function subsample(pop, n, g) {
  const index = Array.from({ length: pop.a.length }, (_, i) => i);
  const a = [];
  const b = [];
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(g.uniform() * (index.length - i));
    [index[i], index[j]] = [index[j], index[i]];
    a.push(pop.a[index[i]]);
    b.push(pop.b[index[i]]);
  }
  return { a, b, truth: pop.truth };
}

/**
 * The cells of the study. kind: 'interval' (two-sided 95% of mean(A − B)), 'gate' (one-sided 95%,
 * at the cell's `margin`: 0.05 on the synthetic cells, set per real cell; `role` 'false-pass' when the
 * truth is −margin, 'power' otherwise; `scoreType` '0/1' or 'bounded' for the size rule of
 * summary.mjs), 'judge' (PPI of a mean), 'monitor' (streamed).
 */
export function cells({ quick }) {
  const sizes = quick ? [20, 200] : [20, 50, 200];
  const out = [];
  const add = (kind, family, design, size, make) => {
    const cell = { kind, family, design, size, make };
    out.push(cell);
    return cell;
  };
  const gate = (family, design, size, make, { margin = 0.05, role, scoreType }) => Object.assign(add('gate', family, design, size, make), { margin, role, scoreType });
  for (const n of sizes) {
    add('interval', 'binary-5', '0/1, discordance 5% (2.5% each way)', n, (g) => binaryPair(n, 0.025, 0.025, 0.7, g));
    add('interval', 'binary-20', '0/1, discordance 20% (12% / 8%)', n, (g) => binaryPair(n, 0.12, 0.08, 0.6, g));
    add('interval', 'binary-mixed', '0/1, concordant half right / half wrong, 10% each way', n, (g) => binaryPair(n, 0.1, 0.1, 0.4, g));
    add('interval', 'partial', '[0, 1] quarter points, shift 0.05', n, (g) => partialCredit(n, 0.05, g));
  }
  for (const G of quick ? [4, 40] : [4, 10, 40]) add('interval', 'clustered', 'continuous, documents of ~4 items, ICC ≈ 0.3', G, (g) => clustered(G, g));
  const pops = realPopulations();
  for (const pop of pops) {
    for (const n of sizes) {
      if (pop.skipped) add('interval', 'real', pop.label, n, null).skipped = pop.skipped;
      else add('interval', 'real', pop.label, n, (g) => subsample(pop, n, g));
    }
  }
  for (const n of quick ? [50] : [50, 200]) {
    gate('gate-binary-drop', '0/1, 10% discordance, truth −0.05 (= −margin)', n, (g) => binaryPair(n, 0.025, 0.075, 0.6, g), { role: 'false-pass', scoreType: '0/1' });
    gate('gate-binary-zero', '0/1, 10% discordance, truth 0', n, (g) => binaryPair(n, 0.05, 0.05, 0.6, g), { role: 'power', scoreType: '0/1' });
    gate('gate-partial-drop', '[0, 1] quarter points, truth −0.05', n, (g) => partialCredit(n, -0.05, g), { role: 'false-pass', scoreType: 'bounded' });
    gate('gate-partial-zero', '[0, 1] quarter points, truth 0', n, (g) => partialCredit(n, 0, g), { role: 'power', scoreType: 'bounded' });
  }
  for (const n of quick ? [50] : [50, 200]) {
    add('judge', 'judge-0.5', 'judge corr 0.5, N = 10 n', n, (g) => judged(n, 0.5, false, g));
    add('judge', 'judge-0.8', 'judge corr 0.8, N = 10 n', n, (g) => judged(n, 0.8, false, g));
    add('judge', 'judge-biased', 'judge corr 0.8, +0.2 in one stratum', n, (g) => judged(n, 0.8, true, g));
  }
  add('monitor', 'monitor-0.1', '0/1 stream, truth 0.1, up to 2,000 items', 2000, (g) => streamed(2000, 0.1, g));
  add('monitor', 'monitor-0', '0/1 stream, truth 0, up to 2,000 items', 2000, (g) => streamed(2000, 0, g));
  // Real gate cells (bench/peers/real-gate-cells.txt), after every earlier cell (the monitors too), so
  // the earlier cells keep their ids (c0, c1, … in run.mjs): COMET and BLEU en→it − it→en at margin
  // −truth (false pass: the truth is exactly −margin) and at margin σ/2 − truth (power: a true
  // difference of 0 at margin σ/2 for a translation-equivariant bound), n items without replacement.
  const translation = translationPopulations();
  for (const pop of translation) {
    const key = pop.name.toLowerCase();
    for (const n of quick ? [50] : [20, 50, 200]) {
      if (pop.skipped) {
        for (const role of ['drop', 'zero']) gate(`gate-${key}-${role}`, `CALAMITA ${pop.name} en→it − it→en`, n, null, { margin: NaN, role: role === 'drop' ? 'false-pass' : 'power', scoreType: 'bounded' }).skipped = pop.skipped;
        continue;
      }
      const drop = -pop.truth;
      const zero = pop.sd / 2 - pop.truth;
      const signed = (x) => x.toFixed(4).replace('-', '−');
      gate(`gate-${key}-drop`, `${pop.label}, truth ${signed(pop.truth)}, margin ${signed(drop)} (= −truth)`, n, (g) => subsample(pop, n, g), { margin: drop, role: 'false-pass', scoreType: 'bounded' });
      gate(`gate-${key}-zero`, `${pop.label}, margin σ/2 − truth = ${signed(zero)} (≡ truth 0 at margin σ/2)`, n, (g) => subsample(pop, n, g), { margin: zero, role: 'power', scoreType: 'bounded' });
    }
  }
  return { cells: out, populations: [...pops, ...translation.map((p) => (p.skipped ? { label: `CALAMITA ${p.name} en→it − it→en`, skipped: p.skipped } : p))] };
}

/**
 * Replicate r of a cell: a fresh stream seeded by the cell's label and r. With a `seedTag` (run.mjs
 * --seed-tag, a confirmation on fresh samples) the stream is seeded by "peers|TAG|label|r" instead,
 * so none of the untagged run's samples recurs; without it the streams are the main run's.
 */
export function replicate(cell, r, seedTag = null) {
  const tag = seedTag === null ? '' : `${seedTag}|`;
  return cell.make(generator(hash(`peers|${tag}${cell.family}|${cell.design}|${cell.size}|${r}`)));
}
