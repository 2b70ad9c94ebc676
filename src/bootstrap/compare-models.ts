import type { AlignedScores } from '../data/pairing.js';
import type { CompareModelsOptions, CompareModelsResult, ParallelCompareModelsOptions } from './types.js';

/** Every pair of models (stub). */
export function compareModels(aligned: AlignedScores, options: CompareModelsOptions = {}): CompareModelsResult {
  void aligned;
  void options;
  throw new Error('compareModels: not implemented yet');
}

/** Threaded compareModels (stub). */
export async function compareModelsParallel(aligned: AlignedScores, options: ParallelCompareModelsOptions = {}): Promise<CompareModelsResult> {
  void aligned;
  void options;
  throw new Error('compareModelsParallel: not implemented yet');
}
