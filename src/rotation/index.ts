/**
 * src/rotation: benchmark versions that stay runnable. Fingerprints, a write-once
 * content-addressed archive (freeze / verify), leakage between dev and eval, saturation,
 * rotation plans, version diffs, and drift attribution (system vs test).
 */
export { sha256Hex, sha256File, HASH_CHUNK_BYTES, type FileDigest, type Sha256FileOptions } from './hash.js';
export { versionRecordDigest } from './record-digest.js';
export { VERSION_ID_PATTERN, checkVersionId } from './version-id.js';
export { MAX_ITEM_BYTES, benchmarkItemsFromManifest, type BenchmarkItem } from './content.js';
export { FINGERPRINT_FORMAT, benchmarkFingerprint, fingerprintText as benchmarkFingerprintText, type FingerprintItem } from './fingerprint.js';
export {
  VERSION_RECORD_FORMAT,
  VERSION_RECORD_FORMAT_V1,
  MAX_RECORD_BYTES,
  VersionItemSchema,
  VersionRecordSchema,
  VersionStratumCountSchema,
  buildVersionRecord,
  versionStratumCounts,
  versionCounts,
  versionRecordText,
  readVersionRecordText,
  freezeVersion,
  archiveFolders,
  listArchiveVersions,
  readArchiveVersion,
  parseVersionRecord,
  readArchiveObject,
  readVersionItems,
  type VersionItem,
  type VersionRecord,
  type VersionStratumCount,
  type FreezeOptions,
  type FreezeResult,
} from './archive.js';
export { verifyArchive, type ArchiveProblem, type VerifyResult } from './verify.js';
export {
  normalisedWords,
  wordShingles,
  jaccardSimilarity,
  findNearDuplicates,
  findLeakage,
  type LeakageInput,
  type NearDuplicateOptions,
  type DuplicatePair,
  type LeakPair,
  type LeakageResult,
} from './leakage.js';
export {
  measureSaturation,
  saturationTrend,
  type SaturationOptions,
  type StratumSaturation,
  type SaturationResult,
  type SaturationPoint,
  type SaturationTrendLine,
  type SaturationTrend,
} from './saturation.js';
export { planRotation, type RetireReason, type RotationCandidate, type RotationOptions, type RotationStratum, type RotationPlan } from './plan.js';
export { prepareRotation, applyRotation, type PrepareRotationOptions, type PreparedRotation, type ApplyRotationOptions } from './rotate.js';
export { diffVersions, type DiffItem, type ChangedItem, type StratumDiff, type VersionDiff } from './diff.js';
export {
  attributeDrift,
  driftScoresFromTable,
  type DriftScores,
  type DriftOptions,
  type DriftEstimate,
  type StratumDrift,
  type DriftResult,
} from './drift.js';
