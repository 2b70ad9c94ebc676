import { createHash } from 'node:crypto';
import { canonicalJson } from '../data/canonical-json.js';

/**
 * The content digest of an item: the first 16 hex digits of the SHA-256 of the canonical JSON
 * (sorted keys, no spaces) of what defines the item, so two runs that show the same id can be
 * checked to have shown the same item. Inspect: `{ input, target }` of the sample; promptfoo:
 * `{ vars }` of the test (vars without `_*` and `sessionId`: see isPromptfooIdentityVar).
 * The prompt template is left out on purpose: comparing two prompts on the same tests is what
 * promptfoo runs are for, so a changed prompt is a changed candidate, not a changed item.
 * Cf. Python: `hashlib.sha256(json.dumps(x, sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False).encode()).hexdigest()[:16]`.
 * @param content the item's defining content (any JSON value).
 * @returns 16 lowercase hex digits.
 * @example itemDigest({ input: 'What is 2+2?', target: '4' }) // => 'd9e468f6ad578aed' (the Python line above gives the same)
 */
export function itemDigest(content: unknown): string {
  let text: string;
  try {
    text = canonicalJson(content);
  } catch {
    // A NaN or Infinity read from Python's JSON: written as its name, as Python writes it.
    text = canonicalJson(JSON.parse(JSON.stringify(content, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v))));
  }
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

/**
 * lm-eval's `doc_hash` of a document: the SHA-256 of `json.dumps(doc, indent=2,
 * ensure_ascii=False)`, which is `JSON.stringify(doc, null, 2)` for documents of strings, whole
 * numbers, lists and dicts (a float written `1.0` by Python reads back as `1` and would differ).
 * Used for files that do not record doc_hash (lm-eval v0.4.0–v0.4.2), so they pair with newer ones.
 * Reference: lm_eval/utils.py hash_string; lm_eval/evaluator.py (the logged example's doc_hash).
 * @example lmEvalDocHash({ q: 'a' }) // => 'cf82500da083ef81a919adc6551ce1fc93a0df7de6b886e033c42ab05d05a908' (Python: hashlib.sha256(json.dumps({'q': 'a'}, indent=2, ensure_ascii=False).encode()).hexdigest())
 */
export function lmEvalDocHash(doc: unknown): string {
  return createHash('sha256').update(JSON.stringify(doc, null, 2), 'utf8').digest('hex');
}
