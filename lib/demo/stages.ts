/** The stages `composer-lab demo` runs, in pipeline order. Each issue that adds a stage adds it here. */
import { environmentStage } from "./environment.js";
import type { DemoStage } from "./stage.js";
import { tracesStage } from "../traces/index.js";
import { hintsStage } from "../hints/index.js";
import { gradingStage } from "../env/index.js";
import { tasksStage } from "../tasks/index.js";
import { storeStage } from "../store/index.js";
import { trainStage } from "../train/index.js";

export const STAGES: DemoStage[] = [environmentStage, tracesStage, hintsStage, tasksStage, gradingStage, trainStage, storeStage];

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
