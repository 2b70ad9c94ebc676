import { createHash } from 'node:crypto';
import { canonicalJson } from '../data/canonical-json.js';


/**
 * Whether a promptfoo var takes part in a test's identity: runtime vars promptfoo or a
 * provider adds (`_conversation`, `__repeatIndex`, `__evalId`, …, and red-team `sessionId`)
 * differ between runs of the same test, so they are left out.
 */
export function isPromptfooIdentityVar(key: string): boolean {
  return !key.startsWith('_') && key !== 'sessionId';
}

/**
 * A stable id for a promptfoo test from its vars: `v:` and the first 12 hex digits of the
 * SHA-256 of the canonical JSON of the vars without `_*` and `sessionId` keys. The same test
 * gets the same id in every results file and on every repeat, whatever the order of its keys.
 * Cf. Python: `hashlib.sha256(json.dumps(v, sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False).encode()).hexdigest()[:12]`.
 * @param vars the test's vars (an object).
 * @returns the id, or undefined when no identity var is left.
 * @example promptfooVarsItemId({ question: 'What is 2+2?', _conversation: [] }) // => "v:" + 12 hex digits
 */
export function promptfooVarsItemId(vars: Record<string, unknown>): string | undefined {
  const kept: Record<string, unknown> = {};
  let count = 0;
  for (const key of Object.keys(vars)) {
    if (!isPromptfooIdentityVar(key) || vars[key] === undefined) continue;
    kept[key] = vars[key];
    count += 1;
  }
  if (count === 0) return undefined;
  return `v:${createHash('sha256').update(canonicalJson(kept), 'utf8').digest('hex').slice(0, 12)}`;
}
