/**
 * lib/env: the Environment interface the trainer depends on (tasks, prompt messages, grading into a
 * reward and an ErrorContext, a Rubric), its two implementations (the toy tool-call env and
 * feature-deletion tasks graded in the sandbox), the FeatureDeletionEpisode (reset/step), its TRL
 * reward_fn face, and the hack monitor.
 */
export { Message, Rubric, RubricSpec, RubricFunc, renderMessages, gradeAll, type Environment, type EnvTask, type EnvGrade, type TaskSplit } from "./interface.js";
export { EnvSpec, ToolCallEnvSpec, FeatureDeletionEnvSpec, HintAnswerEnvSpec, openEnvironment, ENVIRONMENTS, type EnvironmentKind, type EnvContext } from "./spec.js";
export { ToolCallEnvironment, type ToolCallEnvironmentOptions } from "./toolcall_environment.js";
export { HintAnswerEnvironment, HintAnswerConfig, HINT_ANSWER_STOP, type HintAnswerTask } from "./hint_answer_environment.js";
export { FeatureDeletionEnvironment, bodyPrompt, goldenBody, spliceBody, bodyMistakes, BODY_STOP, type BodyMistake, type FeatureDeletionEnvironmentOptions, type GradeCacheStats } from "./feature_deletion_environment.js";
export { taskVariant, TaskVariantConfig, RENAMED_KEYS, type TaskVariant } from "./variants.js";
export { Action, TrajectoryStep, TOOL_DESCRIPTIONS } from "./actions.js";
export { FeatureDeletionEpisode, gradeWorkdir, type Grade, type GradeChecks, type StepResult, type EnvOptions } from "./env.js";
export { BehaviourConfig, behaviourMasks, checkBehaviour, describeBehaviour, type BehaviourCheck, type BehaviourConfigInput } from "./behaviour.js";
export { drawClockJump, type ClockJump, type LatentCheck } from "./latent.js";
export { chainStep, cleanTwins, inPlaceChains, CHAIN_HOLDS, judgeChains, spliceCalls, type Chain, type ChainPlan, type ChainStep } from "./inplace.js";
export { judgeKin, kinAsks, KIN_OF, type KinAsk, type KinPlan } from "./kin.js";
export { judgeTruth, keptTruths, truthCalls, KinTruth, TRUTH } from "./kin_truth.js";
export { originalRun, OriginalRun, OriginalPace } from "./original.js";
export { editedContents, editRefills, judgeRefills, refillRecord, refillTwins, type JudgedRefill, type RefillPlan } from "./refills.js";
export { touchedFiles, allFiles, isSourceFile, treeDigest, type TouchedFiles } from "./untrusted.js";
export { HackMonitor, HACK_FLAG_KINDS, MONITOR_PARTS, MonitorChecks, MonitorPart, monitorParts, similarity, type HackFlag, type MonitorInput } from "./monitor.js";
export { makeRewardFn, makeGradeFn, gradeCompletion, parseCompletion, type ParsedCompletion, type GradeCompletionResult, type RewardFnOptions } from "./reward.js";
export { exampleAttempts, graderAttacks, DEMO_TASK } from "./examples.js";
export { ToolCallEpisode, ToolCallEnvConfig, ToolCallTask, TOOL_POOL, STOP, gradeToolCall, corruptCall, type ToolCallGrade, type ToolSpec } from "./toolcall.js";
export { publishTasks, type PublishCounts } from "./publish.js";
export { poolRef, resolvePoolRef } from "./pool_ref.js";
export { gradeIsHack, hackRateOf } from "./hack_rate.js";
export { taskMasks, taskMaskPlan } from "./masks.js";
export { auditTaskMutants, auditPoolMutants, type MutantAuditReport } from "./mutants.js";
export { serveEnv, EnvServerOptions, ResetRequest, StepRequest, RewardRequest, EnvHttpError, type RunningEnvServer, type EnvServerStats } from "./server.js";
