/**
 * lib/train: the TensorFlow.js policy (a byte-level decoder-only transformer with cached attention,
 * sampling and atomic checkpoints), the losses (GRPO / Dr.GRPO / DAPO, SDPO, DPO, SFT), and the
 * trainer (SFT-first, then GRPO + α·SDPO + β·DPO, HeldOutGuard) on the toy tool-calling env.
 */
export { Policy, PolicyConfig, scoreContinuation, disposeCache, selectCacheRows, type ContinuationScore, type KVCache } from "./model.js";
export { sample, generate, SamplingConfig, type Completion } from "./sample.js";
export {
  saveCheckpoint, loadCheckpoint, loadLatestCheckpoint, latestCheckpoint, verifyCheckpoint, restoreOptimizer, checkpointName, CheckpointManifest,
  type CheckpointInput, type LoadedCheckpoint, type NamedTensor,
} from "./checkpoint.js";
export { encode, decode, BOS, VOCAB_SIZE } from "./tokenizer.js";
export * from "./losses.js";
export { HeldOutGuard, HeldOutGuardConfig, type GuardCheck } from "./guard.js";
export { Trainer, TrainConfig, StepMetrics, readMetrics, loadTrainConfig, type TrainConfigInput, type TrainResult, type TrainerOptions } from "./trainer.js";
export { compareVariants, DEFAULT_VARIANTS, type CompareOptions, type CompareResult, type VariantSummary } from "./compare.js";
export { trainingFigures, comparisonFigures } from "./plots.js";
export { trainStage, DEMO_TRAIN_CONFIG, WARM_START } from "./demo.js";
