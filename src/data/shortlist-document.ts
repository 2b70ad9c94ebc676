import { z } from 'zod';
import { parseJsonDocument } from './json-document.js';
import { parseWith } from './validate.js';
import { readSmallText } from './yaml.js';

/** The part of a `shortlist --output` document a sign-off reads. */
const ShortlistDocumentSchema = z.looseObject({
  finalists: z.array(z.string()),
  best: z.string(),
  policy: z.looseObject({ sha256: z.string(), source: z.string() }).nullable().optional(),
  margin: z.number().optional(),
  confidenceLevel: z.number().optional(),
  perStratum: z.boolean().optional(),
  clustered: z.boolean().optional(),
  plan: z.looseObject({ id: z.string(), recordDigest: z.string() }).optional(),
  deviations: z.array(z.looseObject({ field: z.string(), plan: z.unknown(), used: z.unknown(), reason: z.string() })).optional(),
});
/** The finalists, the best model and the settings of a shortlist document. */
export type ShortlistDocument = z.infer<typeof ShortlistDocumentSchema>;

/**
 * Reads the finalists from a `benchplan shortlist -o` document (sign-off and review read it).
 * @throws {InputError} naming the file (and the line) when it is not such a document.
 * @example readShortlist('out/shortlist.json').finalists // => ['alpha', 'beta']
 */
export function readShortlist(path: string): ShortlistDocument {
  // readSmallText: a regular file only (a FIFO or folder is refused, not waited on), UTF-8, size-capped.
  const { data, lineOf } = parseJsonDocument(readSmallText(path), path, 'write it with benchplan shortlist -o FILE');
  return parseWith(ShortlistDocumentSchema, data, { file: path, lineOf });
}
