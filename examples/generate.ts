/**
 * Generates the bundled example data. All of it is SYNTHETIC: made-up documents, scores and
 * labels, drawn from a seeded generator so `npm run examples` regenerates the same bytes.
 *
 *   pilot.csv          80-item pilot, 4 strata, 2 candidates, scores in points (0–100)
 *   scores.csv         400-item benchmark, 3 candidates, documents (clusters), strata, outcomes
 *   strata.yaml        traffic shares and quotas of the 4 strata (the seed chapter's table)
 *   policy.yaml        a cost policy with an owner and a sweep band
 *   annotations.csv    3 annotators' labels on 60 items of 3 clause types
 *   manifest.yaml      a 100-item benchmark manifest (80 eval, 20 dev) with inline text
 *   incidents.jsonl    an incidents log: candidate replacements for the next rotation
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng, type Xoshiro128 } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 'benchplan-examples-v1';

const STRATA = ['routine', 'rare_clause', 'past_failure', 'negative_control'] as const;
type StratumName = (typeof STRATA)[number];

function csv(header: string[], rows: Array<Array<string | number>>): string {
  const cell = (v: string | number) => {
    const s = String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\n') + '\n';
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function pick<T>(rng: Xoshiro128, values: readonly T[]): T {
  return values[rng.nextInt(values.length)];
}

// ---------------------------------------------------------------- pilot
// Per stratum: the candidates' mean score and how far they come apart. Routine items score the
// same for both (they cancel); rare clauses and past failures are where the two differ.
function pilot(): string {
  const rng = createRng(SEED, 'pilot');
  const profile: Record<StratumName, { base: number; gain: number; shared: number; own: number }> = {
    routine: { base: 94, gain: 0, shared: 4, own: 2.5 },
    rare_clause: { base: 58, gain: 9, shared: 22, own: 17 },
    past_failure: { base: 62, gain: 6, shared: 20, own: 14 },
    negative_control: { base: 86, gain: -2, shared: 10, own: 8 },
  };
  const rows: Array<Array<string | number>> = [];
  let k = 0;
  for (const stratum of STRATA) {
    const p = profile[stratum];
    for (let j = 0; j < 20; j++) {
      k += 1;
      const item = `p${String(k).padStart(3, '0')}`;
      const level = p.base + p.shared * rng.nextNormal();
      const baseline = Math.round(clamp(level + p.own * rng.nextNormal(), 0, 100));
      const candidate = Math.round(clamp(level + p.gain + p.own * rng.nextNormal(), 0, 100));
      rows.push([item, 'baseline', stratum, baseline]);
      rows.push([item, 'candidate', stratum, candidate]);
    }
  }
  return csv(['item', 'model', 'stratum', 'score'], rows);
}

// ---------------------------------------------------------------- benchmark scores
// 400 clause slots in 160 documents. Present-clause strata give hit / miss / wrong_span; the
// negative controls (clause absent) give correct_absent / fabrication. alpha finds more and
// invents more; beta is conservative; gamma is behind both. At the policy's costs the
// alpha/beta ranking flips inside the accepted band, which is the point of the sweep demo.
function benchmark(): string {
  const rng = createRng(SEED, 'benchmark');
  const quota: Record<StratumName, number> = { routine: 80, rare_clause: 120, past_failure: 100, negative_control: 100 };
  // P(miss), P(wrong_span) on present slots; P(fabrication) on absent slots.
  const rates: Record<string, Record<StratumName, [number, number]>> = {
    alpha: { routine: [0.02, 0.02], rare_clause: [0.14, 0.09], past_failure: [0.12, 0.08], negative_control: [0.12, 0] },
    beta: { routine: [0.04, 0.02], rare_clause: [0.42, 0.08], past_failure: [0.36, 0.08], negative_control: [0.04, 0] },
    gamma: { routine: [0.05, 0.04], rare_clause: [0.38, 0.14], past_failure: [0.34, 0.12], negative_control: [0.16, 0] },
  };
  const rows: Array<Array<string | number>> = [];
  let doc = 0;
  for (const stratum of STRATA) {
    let left = quota[stratum];
    while (left > 0) {
      doc += 1;
      const slots = Math.min(left, 2 + rng.nextInt(2)); // 2 or 3 clause slots a document
      left -= slots;
      const cluster = `doc${String(doc).padStart(3, '0')}`;
      const docHardness = rng.nextFloat(); // slots of one document share some of its difficulty
      for (let s = 1; s <= slots; s++) {
        const item = `${cluster}-s${s}`;
        // Mixtures of uniforms stay uniform, so the rates below are the real error rates while
        // models still fail on the same hard slots (that shared failure is what cancels).
        const slotHardness = rng.nextFloat() < 0.5 ? docHardness : rng.nextFloat();
        for (const model of ['alpha', 'beta', 'gamma']) {
          // A model errs on the hardest slots; its own noise decides the rest.
          const u = rng.nextFloat() < 0.7 ? slotHardness : rng.nextFloat();
          const [first, second] = rates[model][stratum];
          let outcome: string;
          if (stratum === 'negative_control') outcome = u > 1 - first ? 'fabrication' : 'correct_absent';
          else if (u > 1 - first) outcome = 'miss';
          else if (u > 1 - first - second) outcome = 'wrong_span';
          else outcome = 'hit';
          const score = outcome === 'hit' || outcome === 'correct_absent' ? 1 : 0;
          rows.push([item, model, stratum, cluster, outcome, score]);
        }
      }
    }
  }
  return csv(['item', 'model', 'stratum', 'cluster', 'outcome', 'score'], rows);
}

// ---------------------------------------------------------------- annotations
// Two readers agree most on payment terms and least on change of control (the seed chapter's
// 0.94 and 0.61); a third reader adjudicates. Labels say which reading of the clause was marked.
function annotations(): string {
  const rng = createRng(SEED, 'annotations');
  const types: Array<[string, number]> = [
    ['payment_terms', 0.94],
    ['indemnity', 0.8],
    ['change_of_control', 0.61],
  ];
  const labels = ['operative_sentence', 'with_definitions', 'absent'];
  const rows: Array<Array<string | number>> = [];
  let k = 0;
  for (const [type, agreement] of types) {
    for (let j = 0; j < 20; j++) {
      k += 1;
      const item = `a${String(k).padStart(3, '0')}`;
      const truth = rng.nextFloat() < 0.55 ? labels[0] : rng.nextFloat() < 0.6 ? labels[1] : labels[2];
      for (const annotator of ['ana', 'ben', 'chloe']) {
        // Each reader writes the truth with probability √agreement, so two readers agree about
        // `agreement` of the time; otherwise another defensible reading.
        const label = rng.nextFloat() < Math.sqrt(agreement) ? truth : pick(rng, labels.filter((l) => l !== truth));
        rows.push([item, annotator, type, label]);
      }
    }
  }
  return csv(['item', 'annotator', 'type', 'label'], rows);
}

// ---------------------------------------------------------------- manifest and incidents
const PARTIES = ['Supplier', 'Customer', 'Licensor', 'Licensee', 'Contractor', 'Client', 'Vendor', 'Purchaser'];
const CLAUSES: Record<StratumName, string[]> = {
  routine: [
    'The {a} shall pay each invoice within {n} days of receipt.',
    'Payment is due in full within {n} days after the invoice date.',
    'Invoices not paid within {n} days accrue interest at {p} percent per annum.',
  ],
  rare_clause: [
    'Upon a change of control of the {a}, the {b} may terminate this Agreement on {n} days notice.',
    'The {a} shall indemnify the {b} against all losses arising from third-party claims, save as set out in Schedule {n}.',
    'Any assignment by the {a} following a merger requires the prior written consent of the {b}, not to be withheld beyond {n} days.',
  ],
  past_failure: [
    'Notwithstanding clause {n}, the liability of the {a} for indirect loss is capped at {p} percent of the fees.',
    'The {a} may suspend performance if the {b} fails to remedy a breach within {n} business days.',
    'Except as provided in Schedule {n}, neither the {a} nor the {b} shall be liable for delay caused by events beyond its control.',
  ],
  negative_control: [
    'This Agreement is governed by the laws of England and Wales; the courts of London have jurisdiction.',
    'Notices shall be in writing and delivered to the address of the {a} set out above.',
    'This Agreement may be executed in {n} counterparts, each of which is an original.',
  ],
};

function clauseText(rng: Xoshiro128, stratum: StratumName): string {
  const a = pick(rng, PARTIES);
  const b = pick(rng, PARTIES.filter((p) => p !== a));
  return pick(rng, CLAUSES[stratum])
    .replace('{a}', a)
    .replace('{b}', b)
    .replace('{n}', String(2 + rng.nextInt(88)))
    .replace('{p}', String(1 + rng.nextInt(20)));
}

function yamlString(s: string): string {
  return JSON.stringify(s);
}

function manifest(): string {
  const rng = createRng(SEED, 'manifest');
  const lines = ['# SYNTHETIC benchmark manifest: 80 eval items (20 a stratum), 20 dev items.', 'guideline: "2026.2"', 'items:'];
  const evalTexts: string[] = [];
  let k = 0;
  const quarters = ['2025Q4', '2026Q1', '2026Q2', '2026Q3'];
  for (const split of ['eval', 'dev'] as const) {
    for (const stratum of STRATA) {
      const count = split === 'eval' ? 20 : 5;
      for (let j = 0; j < count; j++) {
        k += 1;
        let text = clauseText(rng, stratum);
        // Two dev items leak eval content: one verbatim, one lightly edited (a near duplicate).
        if (split === 'dev' && stratum === 'rare_clause' && j === 0) text = evalTexts[25];
        if (split === 'dev' && stratum === 'past_failure' && j === 0) text = `${evalTexts[45].replace(/\.$/, '')}, as amended.`;
        if (split === 'eval') evalTexts.push(text);
        const label = stratum === 'negative_control' ? 'absent' : 'present';
        const source = stratum === 'past_failure' ? 'incident' : 'template';
        lines.push(`  - item: ${split === 'eval' ? 'e' : 'd'}${String(k).padStart(3, '0')}`);
        lines.push(`    stratum: ${stratum}`);
        lines.push(`    split: ${split}`);
        lines.push(`    text: ${yamlString(text)}`);
        lines.push(`    label: ${label}`);
        lines.push(`    added: "${quarters[rng.nextInt(quarters.length)]}"`);
        lines.push(`    source: ${source}`);
      }
    }
  }
  return lines.join('\n') + '\n';
}

function incidents(): string {
  const rng = createRng(SEED, 'incidents');
  const mix: Array<[StratumName, number]> = [
    ['routine', 5],
    ['rare_clause', 10],
    ['past_failure', 10],
    ['negative_control', 5],
  ];
  const out: string[] = [];
  let k = 0;
  for (const [stratum, count] of mix) {
    for (let j = 0; j < count; j++) {
      k += 1;
      out.push(
        JSON.stringify({
          item: `i${String(k).padStart(3, '0')}`,
          stratum,
          text: clauseText(rng, stratum),
          label: stratum === 'negative_control' ? 'absent' : 'present',
          added: '2026Q4',
          source: 'incident',
        }),
      );
    }
  }
  return out.join('\n') + '\n';
}

const STRATA_YAML = `# SYNTHETIC strata: traffic shares and quotas from the seed chapter's allocation table.
strata:
  routine:          { traffic: 0.72, quota: 0.20 }
  rare_clause:      { traffic: 0.05, quota: 0.30 }
  past_failure:     { traffic: 0.03, quota: 0.25 }
  negative_control: { traffic: 0.20, quota: 0.25 }
`;

const POLICY_YAML = `# SYNTHETIC cost policy: the exchange rate between errors is a policy input with an owner.
owner: "Head of Regulatory Risk"
decided: 2026-10-01
costs: { hit: 0, miss: 1, fabrication: 8, wrong_span: 2, correct_absent: 0 }
sweep: { vary: fabrication, band: [4, 20] }   # the accepted band for that cost
`;

const files: Record<string, string> = {
  'pilot.csv': pilot(),
  'scores.csv': benchmark(),
  'strata.yaml': STRATA_YAML,
  'policy.yaml': POLICY_YAML,
  'annotations.csv': annotations(),
  'manifest.yaml': manifest(),
  'incidents.jsonl': incidents(),
};
for (const [name, content] of Object.entries(files)) {
  writeFileSync(join(here, name), content);
  console.log(`wrote examples/${name}`);
}
