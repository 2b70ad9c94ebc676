export { importResults } from './import-results.js';
export { IMPORT_FORMATS, EPOCH_REDUCERS, type ImportFormat, type ImportOptions, type ImportResult, type ImportedRow, type ImportedFile } from './types.js';
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
export { loadResults, type LoadResultsOptions, type LoadResultsResult, type LoadedSource } from './load-results.js';
export { detectSource, detectFileFormat, RESULT_FORMATS, type ResultFormat, type DetectedSource } from './detect.js';
export { itemDigest, lmEvalDocHash } from './item-digest.js';
export { parseEpochReducer, reduceEpochs, type EpochReducer, type EpochValue } from './epoch-reducer.js';
export { parsePythonJson } from './python-json.js';
export { lmEvalSampleRecords } from './lm-eval.js';
export { promptfooTestDigest } from './promptfoo.js';
export { ImportIdSpellings } from './id-spellings.js';
