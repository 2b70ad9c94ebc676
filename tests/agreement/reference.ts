import { readFileSync } from 'node:fs';

/** Reads a JSON file from tests/reference/agreement/ (made by reference.py and psych.R there). */
export function agreementReference<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../reference/agreement/${name}`, import.meta.url), 'utf8')) as T;
}

type Label = string | null;
export interface Inputs {
  krippendorff2011: { observers: Array<Array<number | null>>; published: Record<string, number> };
  krippendorffWikipedia: { observers: Array<Array<number | null>>; published: Record<string, number> };
  fleissWikipedia: { counts: number[][]; published: number };
  cohenWikipedia: { a: Label[]; b: Label[]; published: number };
  cohenMissing: { a: Label[]; b: Label[] };
  examples: Record<string, { items: string[]; annotators: string[]; labels: Label[][] }>;
}

export interface CohenReference {
  kappa: number;
  standardError: number;
  standardErrorNull?: number;
  interval?: [number, number];
  n: number;
}

export interface AlphaReference {
  alpha: number;
  observedDisagreement: number;
  expectedDisagreement: number;
  pairableValues: number;
}

export interface StatsmodelsReference {
  source: string;
  cohen: { wikipedia: CohenReference; missing: CohenReference; examples: Record<string, CohenReference & { pair: string[] }> };
  fleiss: { wikipedia: number; examples: Record<string, { kappa: number; items: number }> };
  krippendorff: Record<'krippendorff2011' | 'krippendorffWikipedia' | 'examples', Record<string, AlphaReference>>;
  rawAgreement: Record<string, number>;
}

export interface PsychReference {
  source: string;
  wikipedia: CohenReference;
  missing: CohenReference;
  examples: Record<string, CohenReference>;
}

export const inputs = agreementReference<Inputs>('inputs.json');
export const statsmodels = agreementReference<StatsmodelsReference>('statsmodels.json');
export const psych = agreementReference<PsychReference>('psych.json');

/** Krippendorff's observers × units matrix turned into units × observers. */
export function unitsOf(observers: Array<Array<number | null>>): Array<Array<number | null>> {
  return observers[0].map((_, u) => observers.map((row) => row[u]));
}
