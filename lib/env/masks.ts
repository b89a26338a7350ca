/**
 * The masks of a task's runs (issue 26 §3; lib/sandbox/mask.ts): installed copies of the task's
 * project, found by a scan inside the sandbox kind that runs it, named by what the task recorded
 * (FeatureDeletionTask.mask) or else its snapshot's layout — never by the agent's tree. The agent's
 * shell hides every copy; test runs leave what pytest itself imports (the plan's harness_needs).
 */
import { DockerSandbox, masksFor, projectNames, repoLayout, scanMasks, type MaskPlan, type MaskSpec, type Sandbox } from "../sandbox/index.js";
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

/**
 * The sandbox a task runs in (issue 26 §4): Docker gets an image that carries the task's runtime
 * dependencies (DockerSandbox.withDeps: what the base image lacks, layered from this machine's
 * installed copies); a dependency neither has means the task cannot run there, and that is an
 * error naming it (a grade fails closed on it). Other kinds run as they are.
 */
export async function sandboxForTask(task: FeatureDeletionTask, sandbox: Sandbox): Promise<Sandbox> {
  if (!sandbox.withTaskDeps || task.broken.kind !== "dir") return sandbox;
  let reqs: string[] = [];
  try {
    reqs = repoLayout(task.broken.path).deps.requirements;
  } catch {
    return sandbox;
  }
  const r = await sandbox.withTaskDeps(reqs);
  if (r.missing.length) throw new Error(`${task.task_id} cannot run on ${sandbox.name}${sandbox instanceof DockerSandbox ? ` image ${sandbox.image}` : ""}: it needs ${r.missing.join(", ")}, which neither the image nor this machine has installed`);
  return r.sandbox;
}
