export { importResults } from './import-results.js';
export { IMPORT_FORMATS, type ImportFormat, type ImportOptions, type ImportResult, type ImportedRow, type ImportedFile } from './types.js';
export { readPromptfoo } from './promptfoo.js';
export { readInspect, INSPECT_LETTER_OUTCOMES } from './inspect.js';
export { readLmEval, lmEvalModelName, lmEvalSamplesName } from './lm-eval.js';
export { formatImportedScores, writeImportedScores, importedScoresFormatOf } from './write.js';
export { promptfooVarsItemId, isPromptfooIdentityVar } from './vars-hash.js';
export {
  ZipArchive,
  zipCrc32,
  DEFAULT_ZIP_MAX_ENTRY_BYTES,
  DEFAULT_ZIP_MAX_TOTAL_BYTES,
  DEFAULT_ZIP_MAX_JSON_BYTES,
  DEFAULT_ZIP_MAX_EXPANSION_RATIO,
  ZIP_EXPANSION_RATIO_FLOOR,
  type ZipEntry,
  type ZipLimits,
} from './zip.js';
export { ImportByteBudget, DEFAULT_IMPORT_MAX_TOTAL_BYTES } from './budget.js';
export { forEachJsonArrayElement, type JsonArrayRead } from './json-array.js';
