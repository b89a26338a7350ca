/**
 * `tasks export`'s formats, one registry entry each: jsonl (the lab's own task records, for sharing)
 * and harbor (Harbor task folders, lib/export/harbor.ts). Copyleft upstreams are left out unless
 * asked, whatever the format.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isCopyleft, loadTask, readIndex, type FeatureDeletionTask } from "../tasks/index.js";
import { exportHarborTask, type HarborExportOptions } from "./harbor.js";

export interface TaskExportResult {
  format: string;
  out: string;
  exported: number;
  excluded_copyleft: number;
  /** Per task: where it went (harbor: its folder). */
  tasks: { task_id: string; path: string }[];
}

export interface TaskExportFormat {
  description: string;
  /** `out`: a file (jsonl) or a folder (harbor). */
  write(tasks: FeatureDeletionTask[], out: string, options: HarborExportOptions): { task_id: string; path: string }[];
}

export const TASK_EXPORT_FORMATS = {
  jsonl: {
    description: "one JSON task record per line (golden diff included), for sharing between labs",
    write(tasks, out) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, tasks.map((t) => JSON.stringify(t)).join("\n") + (tasks.length ? "\n" : ""));
      return tasks.map((t) => ({ task_id: t.task_id, path: out }));
    },
  },
  harbor: {
    description: "one Harbor task folder per task (instruction.md, task.toml, environment/Dockerfile, tests/test.sh → /logs/verifier/reward.txt, solution/solve.sh)",
    write(tasks, out, options) {
      mkdirSync(out, { recursive: true });
      return tasks.map((t) => ({ task_id: t.task_id, path: exportHarborTask(t, out, options).dir }));
    },
  },
} satisfies Record<string, TaskExportFormat>;
export type TaskExportFormatName = keyof typeof TASK_EXPORT_FORMATS;

/** Exports a pool's tasks in one of TASK_EXPORT_FORMATS. */
export function exportTasks(pool: string, format: string, out: string, opts: { includeCopyleft?: boolean } & HarborExportOptions = {}): TaskExportResult {
  if (!Object.hasOwn(TASK_EXPORT_FORMATS, format)) throw new Error(`unknown export format '${format}' (one of ${Object.keys(TASK_EXPORT_FORMATS).join(", ")})`);
  const fmt: TaskExportFormat = TASK_EXPORT_FORMATS[format as TaskExportFormatName];
  const all = readIndex(resolve(pool)).map((e) => loadTask(resolve(pool), e.task_id));
  const kept = all.filter((t) => opts.includeCopyleft || !isCopyleft(t.upstream_license));
  const { includeCopyleft: _, ...options } = opts;
  const tasks = fmt.write(kept, resolve(out), options);
  return { format, out: resolve(out), exported: kept.length, excluded_copyleft: all.length - kept.length, tasks };
}
