import { InputError } from './errors.js';

/**
 * Characters that print as nothing: Unicode format characters (Cf: zero-width space U+200B,
 * joiners, direction marks and overrides, word joiner, BOM U+FEFF, soft hyphen U+00AD, …), plus the
 * combining grapheme joiner, Mongolian vowel separator and the Hangul fillers.
 */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u180e\u3164\uffa0]/gu;

/**
 * A name as it looks: its invisible characters removed.
 * @example visibleName('alpha\u200b') // => 'alpha'
 */
export function visibleName(name: string): string {
  return name.replace(INVISIBLE, '');
}

/** The code points of a name's invisible characters, as `U+200B`. */
function invisibleCodes(name: string): string {
  return [...new Set(name.match(INVISIBLE) ?? [])].map((c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`).join(', ');
}

/** A name with its invisible characters written as `\u200b`, so a message shows them. */
function shown(name: string): string {
  return name.replace(INVISIBLE, (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`);
}

/**
 * Refuses two names that look the same but are different strings because one carries an
 * invisible character (`alpha` and `alpha` + U+200B): read as two candidates, they would split one
 * model's rows or pair a model with its own double, and print as one name. Cost: one regular
 * expression pass per distinct name.
 * @param names the distinct names (models) of one file.
 * @param where the file and field, and the line where a name first appears (for the message).
 * @throws {InputError} `FILE:LINE: FIELD: "alpha\u200b" and "alpha" differ only by an invisible character (U+200B) …`.
 * @example assertNoLookalikeNames(['alpha', 'beta'], { file: 's.csv', field: 'model' }) // => undefined
 */
export function assertNoLookalikeNames(names: readonly string[], where: { file: string; field: string; lineOf?: (name: string) => number | undefined }): void {
  const seen = new Map<string, string>();
  for (const name of names) {
    const visible = visibleName(name);
    if (visible === name && !seen.has(visible)) {
      seen.set(visible, name);
      continue;
    }
    const other = seen.get(visible);
    if (other !== undefined && other !== name) {
      // Name the spelling with the invisible character, at its own line, written so it can be seen.
      const odd = visible === name ? other : name;
      const plain = odd === name ? other : name;
      const line = where.lineOf?.(odd);
      throw new InputError(`"${shown(odd)}" and "${shown(plain)}" differ only by an invisible character (${invisibleCodes(odd)}): they would be read as two ${where.field}s that print alike; spell the ${where.field} one way`, {
        file: where.file,
        ...(line === undefined ? {} : { line }),
        field: where.field,
        value: odd,
      });
    }
    seen.set(visible, name);
  }
}
