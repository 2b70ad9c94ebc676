/**
 * src/label: the labelling loop — propose items for a human to label where the decision is made,
 * fold the answers into an anytime-valid confidence sequence, and stop when the gate's question
 * at the margin is settled or the label budget is spent.
 */
export {
  startLabelLoop,
  proposeLabelBatch,
  recordLabelAnswers,
  labelLoopStatus,
  runLabelLoop,
  type LabelPoolItem,
  type LabelLoopOptions,
  type LabelDraw,
  type LabelAnswer,
  type LabelLoopState,
  type LabelStatus,
  type PendingLabelBatch,
  type ResolvedLabelLoopOptions,
} from './loop.js';
export { labelSamplingProbabilities, labelContribution, type SamplingItem, type SamplingSettings } from './sampling.js';
export { newLabelSequence, pushContribution, sequenceBounds, type LabelSequenceState, type LabelSequenceSettings } from './sequence.js';
export {
  startLabelSession,
  recordLabelSession,
  readLabelLog,
  replayLabelLog,
  labelSessionRecords,
  labelLineDigest,
  LABEL_LOG_FILE,
  LABEL_LOCK_FILE,
  LABEL_LOG_FORMAT,
  type LabelHeader,
  type LabelProposalRecord,
  type LabelAnswersRecord,
  type LabelStatusRecord,
  type LabelRecord,
  type LabelLogLine,
  type LabelLog,
  type LabelSessionState,
  type LoggedLabelStatus,
} from './session.js';
