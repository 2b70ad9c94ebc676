/**
 * src/gate: the non-inferiority gate (candidate − baseline against a margin) and its three verdicts.
 */
export { nonInferiorityFromScores, nonInferiorityGate, reasonNumber, GATE_METHODS, type GateMethod, type NonInferiorityOptions, type NonInferiorityData, type NonInferiorityCheck, type NonInferiorityResult, type NonInferiorityGateOptions } from './gate.js';
export { gateVerdict, combineVerdicts, verdictExitCode, GATE_VERDICTS, VERDICT_EXIT_CODES, type GateVerdict, type VerdictBounds } from './verdict.js';
