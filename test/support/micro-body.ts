// Bodies written for fd-micro's tasks, and one-module packages for the runner: the set-ups the
// latent-path, history and clock-jump tests share.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FeatureDeletionEpisode } from "../../lib/env/index.js";
import { fileDiff, loadTask, readIndex, spliceStub, type FeatureDeletionTask } from "../../lib/tasks/index.js";
import { ROOT, tmp } from "../helpers.js";

export const MICRO = join(ROOT, "datasets", "fd-micro", "pool");

/** fd-micro's task for the function `name`. */
export const microTask = (name: string): FeatureDeletionTask => loadTask(MICRO, readIndex(MICRO).find((e) => e.deleted_symbols[0]!.qualname === name)!.task_id);

/** That task and a diff that writes `body` over its stub, with `header` lines above it. */
export function microCompletion(name: string, header: string[], body: string[]): { t: FeatureDeletionTask; diff: string } {
  const t = microTask(name);
  const file = t.deleted_symbols[0]!.file;
  const text = readFileSync(join(FeatureDeletionEpisode.snapshotDir(t), file), "utf8");
  return { t, diff: fileDiff(file, text, [...header, spliceStub(text, name, body)].join("\n")) };
}

/** A folder holding a package `pkg` whose module `m` is `source`. */
export function packageDir(prefix: string, source: string): string {
  const dir = tmp(prefix);
  mkdirSync(join(dir, "pkg"));
  writeFileSync(join(dir, "pkg", "__init__.py"), "");
  writeFileSync(join(dir, "pkg", "m.py"), source);
  return dir;
}
