/** The stages `composer-lab demo` runs, in pipeline order. Each stage's demo lives in ./pipeline/ and uses
 *  only its stage's public surface (index.ts), so no stage imports lib/demo. */
import { environmentStage } from "./environment.js";
import type { DemoStage } from "./stage.js";
import { executorStage } from "./pipeline/executor.js";
import { gradingStage } from "./pipeline/grading.js";
import { hintsStage } from "./pipeline/hints.js";
import { outerStage } from "./pipeline/outer.js";
import { storeStage } from "./pipeline/store.js";
import { tasksStage } from "./pipeline/tasks.js";
import { tracesStage } from "./pipeline/traces.js";
import { trainStage } from "./pipeline/train.js";
import { worldModelStage } from "./pipeline/world_model.js";

export const STAGES: DemoStage[] = [environmentStage, tracesStage, hintsStage, tasksStage, gradingStage, executorStage, trainStage, storeStage, outerStage, worldModelStage];

/** The six pipeline stages of the lab and whether each is implemented yet (notebooks show this). */
export const PIPELINE = [
  { stage: "traces", folder: "lib/traces", what: "ingest agent traces, find and classify error sites", demo: "traces" },
  { stage: "hints", folder: "lib/hints", what: "layered hint generation at error sites, hint evaluation", demo: "hints" },
  { stage: "tasks", folder: "lib/tasks, lib/curriculum", what: "feature-deletion tasks from Python repos, validation gates, online curriculum", demo: "tasks" },
  { stage: "sandbox/env", folder: "lib/sandbox, lib/env", what: "sandboxed grading, reward_fn, reward-hacking monitor", demo: "grading" },
  { stage: "train", folder: "lib/train", what: "GRPO / SDPO / DPO / SFT on a TensorFlow.js policy", demo: "train" },
  { stage: "store", folder: "lib/store", what: "outer→inner data layout on disk or S3, DiLoCo", demo: "store" },
] as const;

/** The pipeline catalog with each stage's status in this checkout. */
export function pipelineStatus(): { stage: string; folder: string; what: string; in_demo: boolean }[] {
  return PIPELINE.map(({ demo, ...p }) => ({ ...p, in_demo: STAGES.some((s) => s.name === demo) }));
}
