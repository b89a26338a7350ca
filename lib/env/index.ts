/** lib/env: the FeatureDeletionEnv (reset/step), its TRL reward_fn face, and the hack monitor. */
export { Action, TrajectoryStep, TOOL_DESCRIPTIONS } from "./actions.js";
export { FeatureDeletionEnv, gradeWorkdir, type Grade, type StepResult, type EnvOptions } from "./env.js";
export { HackMonitor, HACK_FLAG_KINDS, similarity, type HackFlag, type MonitorInput } from "./monitor.js";
export { makeRewardFn, gradeCompletion, parseCompletion, type ParsedCompletion, type GradeCompletionResult, type RewardFnOptions } from "./reward.js";
export { gradingStage, exampleAttempts, graderAttacks, DEMO_TASK } from "./demo.js";
export { ToolCallEnv, ToolCallEnvConfig, ToolCallTask, TOOL_POOL, STOP, gradeToolCall, corruptCall, type ToolCallGrade, type ToolSpec } from "./toolcall.js";
