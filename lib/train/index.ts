/**
 * lib/train: the TensorFlow.js policy (a byte-level decoder-only transformer with cached attention,
 * sampling and atomic checkpoints), the losses (GRPO / Dr.GRPO / DAPO, SDPO, DPO, SFT), and the
 * loss channels (channels.ts: one registry entry per channel — GRPO, SDPO, DPO, lm_ce), the
 * trainer (SFT-first, then Σ loss_weights[c]·L_c over the enabled channels; HeldOutGuard) on any
 * lib/env Environment, the rollout path (graded groups → SDPO rows and DPO pairs via lib/collate), the
 * policy adapters lib/hints uses, and the seeded comparison of arms.
 */
export { Policy, PolicyConfig, scoreContinuation, disposeCache, selectCacheRows, type ContinuationScore, type KVCache } from "./model.js";
export { sample, generate, SamplingConfig, type Completion } from "./sample.js";
export {
  saveCheckpoint, loadCheckpoint, loadLatestCheckpoint, latestCheckpoint, verifyCheckpoint, restoreOptimizer, checkpointName, CheckpointManifest,
  type CheckpointInput, type LoadedCheckpoint, type NamedTensor,
} from "./checkpoint.js";
export { encode, decode, BOS, VOCAB_SIZE } from "./tokenizer.js";
export * from "./losses.js";
export {
  loadRun, loadRuns, runFigures, findRunFiles, readEventFile, readTfRecords, readTrainerState, crc32c, maskedCrc32c, TrainerState, LogHistoryEntry, DEFAULT_METRIC_NAMES,
  type RunRow, type RunSource, type LoadRunOptions, type EventScalar, type EventFileScalars,
} from "./external.js";
export { HeldOutGuard, HeldOutGuardConfig, type GuardCheck } from "./guard.js";
export {
  TrainConfig, TrainConfigChecked, RENAMED_FIELDS, StepMetrics, parseTrainConfig, readMetrics, loadTrainConfig,
  type TrainConfigInput, type TrainResult,
} from "./config.js";
export {
  LOSS_CHANNELS, CHANNEL_NAMES, defineChannel, LossWeights, RlConfig, SdpoChannelConfig, DpoChannelConfig, composeLoss, enabledOrNot, channelSections, channelMetricFields, idleChannelMetrics,
  repromptOptions, sdpoTeacher, type ChannelName, type LossChannel, type LossChannels, type ChannelContext, type ChannelBatch, type ChannelLoss, type AnyChannel, type StepPolicies,
} from "./channels.js";
export { Trainer, sftRlTasks, type TrainerOptions } from "./trainer.js";
export { runSdpoControl, runSdpoControls, type SdpoControlSeedsResult, type SdpoControlArmSummary, controlBaseConfig, controlArms, SdpoControlOptions, type SdpoControlResult, type SdpoControlArm } from "./control.js";
export {
  byteTokenizer, hintedPromptIds, sampleGroups, sdpoSites, teacherHint, solutionHint, feedbackOf, groupPairs, toSeq, sdpoSeqs, dpoSeqs, completionIds,
  type Rollout, type SdpoSite, type RepromptOptions, type RepromptCounts,
} from "./rollout.js";
export { gapCheck, tokenShifts, tokenShiftHtml, teacherWorseSites, type TeacherWorseSite, type GapCheck, type GapSource, type GapCheckOptions, type TokenShift } from "./gap.js";
export { policySelfCritique, policyLogprobModel, buildHints } from "./adapters.js";
export {
  compareVariants, summarizeComparison, DEFAULT_VARIANTS, PrimaryMetric, type CompareOptions, type CompareResult, type VariantSummary, type RunRecord, type StoppedRun,
} from "./compare.js";
export { sampleStd, bootstrapMeanCI, type BootstrapCI } from "./stats.js";
export { trainingFigures, comparisonFigures, primaryMetricFigures, gapCheckFigures } from "./plots.js";
export { PolicyDilocoModel, syncPolicyTraining, demonstrationShards, type PolicyDilocoOptions } from "./diloco.js";
export {
  WorldModelConfig, WorldModelSource, WorldModelHead, WorldModelHeadFile, WorldModelStepper, WorldModelEval, ReliabilityBin, OutcomeScores,
  worldModelLoss, wmRow, readWmTuples, splitWmTuples, trainWorldModel, evaluateWorldModel, outcomeScores, saveWorldModel, loadWorldModel, worldModelScorer, reliabilityFigure,
  type WorldModelConfigInput, type Transition, type WmRow, type WorldModelLoss, type WorldModelTrainResult,
} from "./world_model.js";
