/**
 * The masks of a task's runs (issue 26 §3; lib/sandbox/mask.ts): installed copies of the task's
 * project, found by a scan inside the sandbox kind that runs it, named by what the task recorded
 * (FeatureDeletionTask.mask) or else its snapshot's layout — never by the agent's tree. The agent's
 * shell hides every copy; test runs leave what pytest itself imports (the plan's harness_needs).
 */
import { masksFor, projectNames, scanMasks, type MaskPlan, type MaskSpec, type Sandbox } from "../sandbox/index.js";
import type { FeatureDeletionTask } from "../tasks/index.js";

/** The scan of this task's project in this sandbox (cached per sandbox kind, image and names). */
export function taskMaskPlan(task: FeatureDeletionTask, sandbox: Sandbox): Promise<MaskPlan> {
  if (task.broken.kind !== "dir") return Promise.resolve({ sandbox: sandbox.name, names: [], dists: [], entries: [], harness_needs: [], why: "an image snapshot: its image is built without the project installed" });
  const snapshot = task.broken.path;
  return scanMasks(sandbox, snapshot, projectNames(snapshot, task.mask ?? null));
}

/** The masks one kind of run of this task gets. */
export async function taskMasks(task: FeatureDeletionTask, sandbox: Sandbox, use: "pytest" | "shell"): Promise<MaskSpec[]> {
  return masksFor(await taskMaskPlan(task, sandbox), use);
}
