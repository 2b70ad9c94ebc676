/**
 * src/rotation: benchmark versions that stay runnable. Fingerprints, a write-once
 * content-addressed archive (freeze / verify) safe for several writers and crashes, with a
 * hash chain over its history, leakage between dev and eval, saturation,
 * rotation plans, version diffs, and drift attribution (system vs test).
 */
export { sha256Hex, sha256File, HASH_CHUNK_BYTES, type FileDigest, type Sha256FileOptions } from './hash.js';
export { versionRecordDigest } from './record-digest.js';
export { VERSION_ID_PATTERN, checkVersionId } from './version-id.js';
export { MAX_ITEM_BYTES, benchmarkItemsFromManifest, type BenchmarkItem } from './content.js';
export { FINGERPRINT_FORMAT, benchmarkFingerprint, fingerprintText as benchmarkFingerprintText, type FingerprintItem } from './fingerprint.js';
export {
  VERSION_RECORD_FORMAT,
  VERSION_RECORD_FORMAT_V2,
  VERSION_RECORD_FORMAT_V1,
  HEAD_LOCK_WAIT_MS,
  HEAD_LOCK_PATH,
  versionLockPath,
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
  type ChainPlace,
} from './archive.js';
export { verifyArchive, type ArchiveProblem, type ArchiveLeftover, type VerifyResult } from './verify.js';
export { ARCHIVE_HEAD_FORMAT, ARCHIVE_HEAD_FILE, ArchiveHeadSchema, ChainLinkSchema, readArchiveHead, archiveHeadText, type ArchiveHead, type ChainLink, type HeadRead } from './head.js';
export { versionRecordIssues, assertVersionIntact, type RecordIssue } from './record-check.js';
export { assertVersionLinks, assertVersionSound } from './record-links.js';
export { processIsAlive, lockHost, readLock, describeLockOwner, tryLock, lockWithin, type LockOwner, type LockState, type HeldLock, type LockAttempt } from './lock.js';
export { temporaryFileWriter, TEMPORARY_FILE_FOLDERS, foreignWriterPids, isDeadWriter, removeDeadWritersTemporaryFiles } from './leftovers.js';
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
