/**
 * src/sequential: anytime-valid confidence sequences for bounded paired differences, monitoring a
 * comparison as labels arrive, a sequential CI gate, and sizing by simulation.
 */
export { EmpiricalBernsteinSequence, betSize, psiE, SEQUENCE_BOUNDS, type SequenceBound, type EmpiricalBernsteinOptions, type EmpiricalBernsteinState } from './empirical-bernstein.js';
export { confidenceSequence, type ConfidenceSequenceOptions, type ConfidenceSequenceResult } from './confidence-sequence.js';
export { unitsStillNeeded, unitsStillNeededByRate, PROJECTION_LIMIT } from './units-still-needed.js';
export { sequentialVerdict, decisionHalfWidth, type SequentialVerdict } from './verdict.js';
export { scoreRangeOf } from './score-range.js';
export { monitorUnits, type Arrival, type MonitorUnits } from './units.js';
export { shuffledUnits } from './shuffled-units.js';
export { monitorComparison, autoSequenceMethod, type MonitorOptions, type MonitorResult, type MonitorLook, type SequenceLook, type MonitorDecision } from './monitor.js';
export { lookAlpha, alphaSpent } from './alpha-spending.js';
export { GateStateSchema, GateLookSchema, parseGateState, type GateState, type GateLook } from './gate-state.js';
export { sequentialGate, type SequentialGateOptions, type SequentialGateResult } from './sequential-gate.js';
export { tiltToMean, type DiscreteDistribution } from './tilt.js';
export { expectedItemsToDecision, type ExpectedItemsOptions, type ExpectedItemsRow, type ExpectedItemsResult } from './expected-items.js';
export { HedgedBettingSequence, type BettingOptions } from './betting.js';
export { createSequence, SEQUENCE_METHODS, type SequenceMethod, type SequenceOptions, type AnytimeSequence } from './sequence.js';
export { AgrapaBettingSequence, type AgrapaOptions } from './agrapa.js';
