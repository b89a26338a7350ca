/** The stages `composer-lab demo` runs, in pipeline order. Each issue that adds a stage adds it here. */
import { environmentStage } from "./environment.js";
import type { DemoStage } from "./stage.js";
import { tracesStage } from "../traces/index.js";
import { hintsStage } from "../hints/index.js";
import { gradingStage } from "../env/index.js";
import { tasksStage } from "../tasks/index.js";

export const STAGES: DemoStage[] = [environmentStage, tracesStage, hintsStage, tasksStage, gradingStage];

/** The six pipeline stages of the lab and whether each is implemented yet (notebooks show this). */
export const PIPELINE = [
  { stage: "traces", folder: "lib/traces", what: "ingest agent traces, find and classify error sites" },
  { stage: "hints", folder: "lib/hints", what: "layered hint generation at error sites, hint evaluation" },
  { stage: "tasks", folder: "lib/tasks", what: "feature-deletion tasks from Python repos, validation gates, curriculum" },
  { stage: "sandbox/env", folder: "lib/sandbox, lib/env", what: "sandboxed grading, reward_fn, reward-hacking monitor" },
  { stage: "train", folder: "lib/train", what: "GRPO / SDPO / DPO / SFT on a TensorFlow.js policy" },
  { stage: "store", folder: "lib/store", what: "outer→inner data layout on disk or S3, DiLoCo" },
] as const;

/** The pipeline catalog with each stage's status in this checkout. */
export function pipelineStatus(): { stage: string; folder: string; what: string; in_demo: boolean }[] {
  return PIPELINE.map((p) => ({ ...p, in_demo: STAGES.some((s) => p.stage.split("/").includes(s.name)) }));
}
