import { SIGNOFF_FOLDER, readSignoff, type SignoffIssue, type SignoffRecord } from './signoff-record.js';
import { readSignoffHead, SIGNOFF_HEAD_FILE, type SignoffLink } from './signoff-head.js';
import { pendingSignoff } from './signoff-recovery.js';

/** What walking the sign-off chain found. */
export interface SignoffChainCheck {
  /** A missing, replaced or re-ordered sign-off, a chained one outside the chain, a missing or broken head. */
  problems: SignoffIssue[];
  /** Sign-offs written before the chain existed (no `previous`): checked alone, their deletion is not detectable. */
  notes: string[];
  /** The newest sign-off, as signoffs/head.json names it (null when there is no head). */
  head: (SignoffLink & { sequence: number }) | null;
  /** The chained sign-offs, newest first, as the walk met them. */
  chain: string[];
  /**
   * A sign-off whose commit was interrupted after the head named it: its record, still under its
   * dead writer's temporary name, walked as the newest link; the next `signoff` links it into place.
   */
  interrupted: { path: string; id: string; pid: number } | null;
}

/**
 * Walks the archive's sign-off chain from `signoffs/head.json` back to the first sign-off: each
 * link (id, record digest) must lead to a stored sign-off of that id whose record digest is the
 * one the link holds, and whose `sequence` is one less than the one after it; the walk then
 * follows that record's `previous`. So a deleted sign-off is missing, a replaced one (even with
 * a freshly computed digest) no longer has the digest the next link holds, and a re-ordered
 * series breaks the links or the sequence. A stored sign-off with a `previous` field that the
 * walk never reached is a problem (inserted, or the sign-off after it was replaced), and chained
 * sign-offs without a head is one (head.json deleted). Sign-offs without `previous` (written
 * before the chain) are notes. A head whose record a dead writer wrote but never linked
 * (pendingSignoff) is walked through that record and reported as `interrupted`, not as a
 * problem. The same idea as the archive's version chain (verifyArchive).
 * Like any hash chain this catches edits, not forgery by someone who rewrites the whole series
 * and the head: keep the head's record digest elsewhere.
 * Cost: O(number of sign-offs) reads.
 * @param ids the sign-off ids stored in `signoffs/` (the file names without `.json`).
 * @returns problems, notes, the head and the chain walked.
 * @example verifySignoffChain('out/archive', ['q4-pick', 'q1-pick']).problems // => [] (intact)
 */
export function verifySignoffChain(archiveDir: string, ids: readonly string[]): SignoffChainCheck {
  const out: SignoffChainCheck = { problems: [], notes: [], head: null, chain: [], interrupted: null };
  const records = new Map<string, SignoffRecord>();
  for (const id of ids) {
    const r = readSignoff(archiveDir, id);
    if (r !== null && r.id === id) records.set(id, r);
  }
  // The record of a commit interrupted after the head named it (pendingSignoff): walked as the
  // newest link; the next sign-off links it into place, so it is a leftover, not a problem.
  const pending = pendingSignoff(archiveDir);
  if (pending !== null && !records.has(pending.record.id)) {
    records.set(pending.record.id, pending.record);
    out.interrupted = { path: pending.temporary, id: pending.record.id, pid: pending.pid };
  }
  const chained = [...records.values()].filter((r) => r.previous !== undefined);
  const headRel = `${SIGNOFF_FOLDER}/${SIGNOFF_HEAD_FILE}`;
  const read = readSignoffHead(archiveDir);
  let link: SignoffLink | null = null;
  let sequence = 0;
  let after = headRel;
  if ('problem' in read) out.problems.push({ kind: 'changed', path: headRel, detail: read.problem });
  else if ('absent' in read) {
    if (chained.length > 0) out.problems.push({ kind: 'missing', path: headRel, detail: `names the newest sign-off of the sign-off chain (${chained.length} chained sign-off${chained.length === 1 ? '' : 's'})` });
  } else {
    const h = read.head;
    out.head = { id: h.id, recordDigest: h.recordDigest, sequence: h.sequence };
    link = { id: h.id, recordDigest: h.recordDigest };
    sequence = h.sequence;
  }
  const visited = new Set<string>();
  while (link !== null) {
    const rel = `${SIGNOFF_FOLDER}/${link.id}.json`;
    if (visited.has(link.id)) {
      out.problems.push({ kind: 'changed', path: rel, detail: `the sign-off chain loops back to it (from ${after})` });
      break;
    }
    const r = records.get(link.id);
    if (r === undefined) {
      // Unreadable records are verifySignoff's to report; a missing one is the chain's.
      if (!ids.includes(link.id)) out.problems.push({ kind: 'missing', path: rel, detail: `${after} names it as the sign-off before (sequence ${sequence}): deleted?` });
      break;
    }
    visited.add(link.id);
    out.chain.push(link.id);
    if (r.recordDigest !== link.recordDigest) out.problems.push({ kind: 'changed', path: rel, detail: `not the sign-off the chain holds: ${after} links it with record digest ${link.recordDigest.slice(0, 12)}…, the file has ${r.recordDigest.slice(0, 12)}… (replaced or re-ordered)` });
    if (r.previous === undefined) {
      out.problems.push({ kind: 'changed', path: rel, detail: `${after} links it into the sign-off chain, but it has no place in a chain (no previous field)` });
      break;
    }
    if (r.sequence !== sequence) out.problems.push({ kind: 'changed', path: rel, detail: `its place in the sign-off chain is ${r.sequence ?? 'absent'}, but ${after} makes it ${sequence} (re-ordered?)` });
    after = rel;
    link = r.previous;
    sequence -= 1;
    if (link === null && sequence !== 0) out.problems.push({ kind: 'changed', path: rel, detail: `the chain ends here at place ${sequence + 1}, not 1 (sign-offs before it removed or re-ordered?)` });
  }
  for (const r of chained) {
    if (!visited.has(r.id)) out.problems.push({ kind: 'changed', path: `${SIGNOFF_FOLDER}/${r.id}.json`, detail: `not in the sign-off chain: neither ${headRel} nor a later sign-off leads to it (sequence ${r.sequence ?? 'absent'}); it was inserted, or the sign-off after it replaced or removed` });
  }
  for (const r of records.values()) {
    if (r.previous === undefined && !visited.has(r.id)) out.notes.push(`${SIGNOFF_FOLDER}/${r.id}.json: written before sign-offs were chained (no previous field): its own digest is checked, but its deletion would not be detected`);
  }
  return out;
}
