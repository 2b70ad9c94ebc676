import { partlyLabelledClusters } from '../selection/design-difference.js';
import { loadDesign, type DesignFile } from './design-file.js';
import { checkListMatchesDesign } from './design-pair.js';
import { InputError } from './errors.js';
import { alignModels } from './pairing.js';
import { listIds, loadScores } from './scores.js';

/**
 * Loads a design file and the labelled list for it: A − B (design.a − design.b) per labelled
 * item, refusing labels on items the design did not choose, with a warning for chosen items left
 * unlabelled. Shared by compare --design and gate --design.
 */
export function readDesignLabels(
  scoresPath: string,
  designPath: string,
): { design: DesignFile; difference: Map<string, number>; scores: Map<string, { a: number; b: number }>; chosenUnlabelled: DesignFile['rows']; warnings: string[] } {
  const design = loadDesign(designPath);
  checkListMatchesDesign(scoresPath, designPath);
  let table: ReturnType<typeof loadScores>;
  try {
    table = loadScores(scoresPath);
  } catch (error) {
    // The list select writes leaves score empty for the annotators: a row still empty is the
    // commonest slip, so say what to do about it.
    if (error instanceof InputError && error.value === '' && error.message.includes('score must be a finite number')) {
      throw new InputError('score: a row of the annotation list has no score yet: fill in every row of an item you labelled, and delete the rows of items not labelled yet (they then count as missing at random in their cell)', { file: error.file, line: error.line, value: '' });
    }
    throw error;
  }
  const aligned = alignModels(table, [design.a, design.b]);
  const difference = new Map<string, number>();
  const scores = new Map<string, { a: number; b: number }>();
  aligned.items.forEach((item, k) => {
    difference.set(item, aligned.scores[0][k] - aligned.scores[1][k]);
    scores.set(item, { a: aligned.scores[0][k], b: aligned.scores[1][k] });
  });
  const rowOf = new Map(design.rows.map((r) => [r.item, r]));
  const notInPool = aligned.items.filter((i) => !rowOf.has(i));
  if (notInPool.length > 0) {
    throw new InputError(
      `${notInPool.length} labelled item${notInPool.length === 1 ? ' is' : 's are'} not in the design's pool ${design.pool} (${listIds(notInPool)}): ${notInPool.length === 1 ? 'it has' : 'they have'} no inclusion probability, so the labels cannot be weighted; is this the list for ${designPath}?`,
      { file: scoresPath, line: firstLine(table, notInPool[0]), field: 'item', value: notInPool[0] },
    );
  }
  const unknown = aligned.items.filter((i) => !rowOf.get(i)?.selected);
  if (unknown.length > 0) {
    throw new InputError(
      `${unknown.length} labelled item${unknown.length === 1 ? ' was' : 's were'} not chosen by the design (${listIds(unknown)}): ${unknown.length === 1 ? 'its inclusion probability is unknown, so it cannot' : 'their inclusion probabilities are unknown, so they cannot'} be weighted; label only the list select wrote`,
      { file: scoresPath, line: firstLine(table, unknown[0]), field: 'item', value: unknown[0] },
    );
  }
  if (design.sampling === 'cluster') {
    const partial = partlyLabelledClusters(design, (item) => difference.has(item));
    const missingOf = (cluster: string) => design.rows.filter((r) => r.cluster === cluster && !difference.has(r.item)).map((r) => r.item);
    if (partial.length > 0) {
      throw new InputError(
        `${partial.length} chosen cluster${partial.length === 1 ? ' is' : 's are'} labelled only in part (${listIds(partial)}; in the first, ${listIds(missingOf(partial[0]))} ${missingOf(partial[0]).length === 1 ? 'has' : 'have'} no label): a cluster design needs every item of a chosen cluster labelled (or none of it), since it adds up whole clusters`,
        { file: scoresPath, line: firstLine(table, design.rows.find((r) => r.cluster === partial[0] && difference.has(r.item))?.item ?? ''), field: 'cluster', value: partial[0] },
      );
    }
  }
  const chosenUnlabelled = design.rows.filter((r) => r.selected && !difference.has(r.item));
  const warnings: string[] = [];
  if (chosenUnlabelled.length > 0) {
    warnings.push(`${chosenUnlabelled.length} chosen item${chosenUnlabelled.length === 1 ? ' has' : 's have'} no label (${listIds(chosenUnlabelled.map((r) => r.item))}); the estimate treats ${chosenUnlabelled.length === 1 ? 'it' : 'them'} as missing at random within ${chosenUnlabelled.length === 1 ? 'its' : 'their'} cell`);
  }
  return { design, difference, scores, chosenUnlabelled, warnings };
}

/** The source line of an item's first row in a scores table (for messages). */
function firstLine(table: ReturnType<typeof loadScores>, item: string): number | undefined {
  const k = table.items.indexOf(item);
  for (let r = 0; r < table.rowCount; r++) if (table.item[r] === k) return table.line[r] || undefined;
  return undefined;
}
