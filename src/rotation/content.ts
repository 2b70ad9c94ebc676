import { realpathSync } from 'node:fs';
import { dirname, relative, isAbsolute, sep } from 'node:path';
import { InputError } from '../data/errors.js';
import { resolveInside, type Manifest } from '../data/manifest.js';
import { readInputBytes } from '../data/read.js';

/** An item's content may not be larger than this (a benchmark item is a document, not a data set). */
export const MAX_ITEM_BYTES = 64 * 1024 * 1024;

/** One benchmark item with its content in hand: what the archive stores. */
export interface BenchmarkItem {
  item: string;
  stratum: string;
  split: 'dev' | 'eval';
  label?: string | number | boolean;
  /** The version or date the item was added; sorts as text (use one format: `2026Q3` or `2026-07-01`). */
  added?: string;
  source?: string;
  /** The content's bytes: inline `text` as UTF-8, or the bytes of the item's file. */
  content: Uint8Array;
}

/**
 * Reads every item's content from a loaded manifest (or incidents log): inline `text` becomes
 * its UTF-8 bytes, a `path` is read from inside the manifest's folder. A symbolic link is
 * followed only while its target stays inside that folder, so a manifest cannot make benchplan
 * read (and archive) files from elsewhere.
 * @param manifest from `loadManifest(path)` or `loadManifest(path, { incidents: true })`.
 * @returns the items in manifest order.
 * @throws {InputError} naming the manifest, line and path of a file that is missing, not a
 *   regular file, outside the folder, unreadable (with the error code) or larger than
 *   MAX_ITEM_BYTES, or of an inline text larger than MAX_ITEM_BYTES. `benchplan validate
 *   --kind manifest` runs this same check.
 */
export function benchmarkItemsFromManifest(manifest: Manifest): BenchmarkItem[] {
  let folder: string | undefined;
  return manifest.items.map((entry) => {
    let content: Uint8Array;
    if (entry.text !== undefined) {
      content = Buffer.from(entry.text, 'utf8');
      if (content.byteLength > MAX_ITEM_BYTES) throw new InputError(`the item's text is larger than ${MAX_ITEM_BYTES} bytes`, { file: manifest.source, line: entry.line, field: 'text' });
    } else {
      const where = { file: manifest.source, line: entry.line, field: 'path', value: entry.path };
      const target = resolveInside(manifest.source, entry.path as string, entry.line);
      let real: string;
      try {
        real = realpathSync(target);
        folder ??= realpathSync(dirname(manifest.source));
      } catch (error) {
        throw new InputError(`cannot read the item's file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, where);
      }
      const rel = relative(folder, real);
      if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
        throw new InputError("path must be a file inside the manifest's folder (it is a link to a file outside)", where);
      }
      // One open of the resolved file, checked on its descriptor and read within the limit:
      // a FIFO, device or folder is refused without blocking, a file that grows is cut off.
      content = readInputBytes(real, {
        maxBytes: MAX_ITEM_BYTES,
        place: where,
        tooLarge: () => `the item's file is larger than ${MAX_ITEM_BYTES} bytes`,
      });
    }
    const out: BenchmarkItem = { item: entry.item, stratum: entry.stratum, split: entry.split, content };
    if (entry.label !== undefined) out.label = entry.label;
    if (entry.added !== undefined) out.added = entry.added;
    if (entry.source !== undefined) out.source = entry.source;
    return out;
  });
}

/** An item's content as text (UTF-8, invalid bytes replaced), for near-duplicate checks. */
export function contentText(content: Uint8Array): string {
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
}
