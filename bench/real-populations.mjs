// The real populations of the real-data study (bench/real-data-study.txt): CALAMITA COMET and BLEU
// (lm-eval, en→it vs it→en), Inspect popularity (three model pairs) and lm-eval bias/stereotype
// classification (two prompts), imported with the project's importers from dist/. Shared by
// bench/real-data-study.mjs and bench/real-data-gate.mjs.
import { readdirSync } from 'node:fs';
import { importResults } from '../dist/import/index.js';

function importOne(format, file, options = {}) {
  return importResults(format, [file], options).rows;
}
/** Pair two row lists on the item id (after the task prefix, for lm-eval's two directions). */
function pairRows(ra, rb, key = (r) => r.item) {
  const mb = new Map(rb.map((r) => [key(r), r.score]));
  const a = [];
  const b = [];
  for (const r of ra) {
    if (!mb.has(key(r))) continue;
    a.push(r.score);
    b.push(mb.get(key(r)));
  }
  return { a: Float64Array.from(a), b: Float64Array.from(b) };
}
/** CALAMITA (lm-eval, Llama-3-8B-Instruct) en→it and it→en scores of one metric, paired by sentence: { a: en→it, b: it→en }. */
export function calamitaPair(logs, metric) {
  const cal = `${logs}/lm-eval/tests_calamita_meta-llama__Meta-Llama-3-8B-Instruct`;
  const enIt = `${cal}/samples_MT_CALAMITA_en_it_public_2024-11-13T02-20-05.221387.jsonl`;
  const itEn = `${cal}/samples_MT_CALAMITA_it_en_public_2024-11-13T03-09-01.700058.jsonl`;
  return pairRows(importOne('lm-eval', enIt, { metric }), importOne('lm-eval', itEn, { metric }), (r) => r.item.split('/').pop());
}
/**
 * The real-data study's populations from the shared corpus under `logs`: { name, kind, a, b, why }, and
 * oneSidedOnly for the mirrored rows. Throws when a file is missing (callers check the folder first).
 */
export function loadRealPopulations(logs) {
  const LOGS = logs;
  const pops = [];
  for (const [metric, why] of [
    ['comet_score', 'continuous, bounded, strongly left-skewed differences (a few translations fail badly in one direction): small samples that miss the tail look symmetric, which is where a shape screen conditions coverage away'],
    ['bleu_score', 'continuous with ties at 0 (9% of items score 0 both ways) and a wide spread: near-symmetric but lumpy, the case where a skewness correction could only add noise'],
  ]) {
    const p = calamitaPair(LOGS, metric);
    pops.push({ name: `CALAMITA ${metric.replace('_score', '').toUpperCase()}, en→it − it→en`, kind: 'continuous', ...p, why });
    pops.push({ name: `CALAMITA ${metric.replace('_score', '').toUpperCase()}, it→en − en→it`, kind: 'continuous', oneSidedOnly: true, a: p.b, b: p.a, why: 'the mirror (one-sided bounds only: its two-sided intervals are the mirror images of the row above): the skewed tail on the other side, so a one-sided lower bound sees the favourable tail (its error goes the other way)' });
  }
  const ins = `${LOGS}/inspect`;
  const pop = (part) => `${ins}/${readdirSync(ins).find((f) => f.includes(part))}`;
  const inspectPairs = [
    ['L8g2GLGDDf', 'LthYhadZHu', 'two strong models (gpt-5, claude-sonnet-4) that agree on most items: few discordant items, a 0/1 difference concentrated on a handful of values'],
    ['eF3BogZE3j', 'A2Ld8PcXe7', 'a strong and a light model (gemini-2.5-pro, gemini-2.5-flash-lite): more discordance, both signs'],
    ['DN2wbX2ZvA', 'TrR56PVX4f', 'two models from different vendors (gpt-4o-mini, gemini-2.5-flash) on the same 100 items'],
  ];
  for (const [x, y, why] of inspectPairs) {
    const rx = importOne('inspect', pop(x));
    const ry = importOne('inspect', pop(y));
    const p = pairRows(rx, ry);
    pops.push({ name: `Inspect popularity, ${rx[0].model} − ${ry[0].model}`, kind: '0/1', ...p, why });
  }
  for (const [dir, task, why] of [
    ['lm_eval_tasks_bias_classification_results_meta-llama__Meta-Llama-3-8B', 'bias_classification', 'one model, two prompts, 609 items near 50% accuracy: agreeing items split between both-right and both-wrong (the mixed concordance that broke Newcombe)'],
    ['lm_eval_tasks_stereotype_classification_results_meta-llama__Meta-Llama-3-8B', 'stereotype_classification', 'one model, two prompts that differ by 13 points: a large real effect with many discordant items'],
  ]) {
    const files = readdirSync(`${LOGS}/lm-eval/${dir}`).filter((f) => f.startsWith('samples')).sort();
    const p = pairRows(importOne('lm-eval', `${LOGS}/lm-eval/${dir}/${files[1]}`, { metric: 'acc' }), importOne('lm-eval', `${LOGS}/lm-eval/${dir}/${files[0]}`, { metric: 'acc' }));
    pops.push({ name: `lm-eval ${task} (acc), prompt 2 − prompt 1`, kind: '0/1', ...p, why });
  }
  return pops;
}
