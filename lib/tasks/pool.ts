/**
 * The task pool on disk:
 *   <pool>/index.jsonl            one TaskIndexEntry per line (no golden diff)
 *   <pool>/tasks/<id>/repo/       the scrubbed broken snapshot
 *   <pool>/golden/<id>.diff       the held-out golden diff, stored apart
 * Writes are atomic (temp + rename); a task appears in the index only when whole.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { FeatureDeletionTask, TaskIndexEntry } from "./schema.js";

export function readIndex(pool: string): TaskIndexEntry[] {
  const file = join(pool, "index.jsonl");
  if (!existsSync(file)) throw new Error(`${pool}: not a task pool (no index.jsonl)`);
  return readFileSync(file, "utf8").split("\n").flatMap((line, i) => {
    if (!line.trim()) return [];
    const r = TaskIndexEntry.safeParse((() => {
      try {
        return JSON.parse(line);
      } catch (e) {
        throw new Error(`${file}:${i + 1}: ${(e as Error).message}`);
      }
    })());
    if (!r.success) throw new Error(`${file}:${i + 1}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
    return [r.data];
  });
}

/** A whole task (golden diff included: for grading and monitoring, never for prompts). */
export function loadTask(pool: string, taskId: string): FeatureDeletionTask {
  const entry = readIndex(pool).find((t) => t.task_id === taskId);
  if (!entry) throw new Error(`${pool}: no task ${taskId}`);
  const { golden_diff_path, ...rest } = entry;
  const broken = rest.broken.kind === "dir" && !isAbsolute(rest.broken.path) ? { ...rest.broken, path: join(pool, rest.broken.path) } : rest.broken;
  // the behavioural oracle lives beside golden/ (oracle.ts), found by convention
  const oracle = join(pool, "oracle", `${taskId}.json`);
  return FeatureDeletionTask.parse({ ...rest, broken, golden_diff: readFileSync(join(pool, golden_diff_path), "utf8"), oracle_path: existsSync(oracle) ? oracle : undefined });
}

export const taskRepoDir = (pool: string, taskId: string): string => join(pool, "tasks", taskId, "repo");

/** Records a task whose snapshot is already at taskRepoDir(pool, id): golden diff first, index last. */
export function addToPool(pool: string, task: FeatureDeletionTask): TaskIndexEntry {
  mkdirSync(join(pool, "golden"), { recursive: true });
  const goldenPath = join("golden", `${task.task_id}.diff`);
  writeFileSync(join(pool, goldenPath + ".tmp"), task.golden_diff);
  renameSync(join(pool, goldenPath + ".tmp"), join(pool, goldenPath));
  const { golden_diff: _g, oracle_path: _o, ...rest } = task;
  const entry = TaskIndexEntry.parse({ ...rest, broken: { kind: "dir", path: join("tasks", task.task_id, "repo") }, golden_diff_path: goldenPath });
  appendFileSync(join(pool, "index.jsonl"), JSON.stringify(entry) + "\n");
  return entry;
}

/**
 * Takes tasks out of a pool: the index first (temp + rename, so a reader never sees a task half
 * gone), then each one's snapshot, golden diff and oracle. With a reason, a rejection line goes to
 * build-state.jsonl, so a resumed build does not validate the task again. Returns the ids removed.
 */
export function removeFromPool(pool: string, ids: string[], rejected?: { gate: string; reason: string }): string[] {
  const drop = new Set(ids);
  const file = join(pool, "index.jsonl");
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
  const idOf = (l: string) => (JSON.parse(l) as { task_id: string }).task_id;
  const kept = lines.filter((l) => !drop.has(idOf(l)));
  const removed = lines.map(idOf).filter((id) => drop.has(id));
  writeFileSync(file + ".tmp", kept.map((l) => l + "\n").join(""));
  renameSync(file + ".tmp", file);
  for (const id of removed) {
    rmSync(join(pool, "tasks", id), { recursive: true, force: true });
    rmSync(join(pool, "golden", `${id}.diff`), { force: true });
    rmSync(join(pool, "oracle", `${id}.json`), { force: true });
    if (rejected) appendFileSync(join(pool, "build-state.jsonl"), JSON.stringify({ id, status: "rejected", ...rejected }) + "\n");
  }
  return removed;
}
