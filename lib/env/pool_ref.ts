/**
 * How a store run's rl_task_pool / holdout entry names its task pool (see publish.ts): relative to
 * the root of a store that is a local folder, absolute otherwise, and back to a folder when read.
 */
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { LocalStore, type RunLayout } from "../store/index.js";

/** How an entry of `run` names the pool folder `pool`: relative to a local store's root, else absolute. */
export function poolRef(run: RunLayout, pool: string): string {
  const abs = resolve(pool);
  return run.store instanceof LocalStore ? relative(run.store.root, abs).split(sep).join("/") || "." : abs;
}

/**
 * The pool folder an entry names (its `pool` as written by poolRef, or an older absolute path).
 * Throws, naming the entry, the section and the run, when the folder is not there.
 */
export function resolvePoolRef(run: RunLayout, ref: string, entry: { section: string; id: string }): string {
  const where = `${run.store.uri} run ${run.run_id}, ${entry.section} entry ${entry.id}`;
  let dir: string;
  if (isAbsolute(ref)) dir = ref;
  else if (run.store instanceof LocalStore) dir = resolve(run.store.root, ref);
  else throw new Error(`${where}: pool "${ref}" is relative, and an S3 store has no folder to resolve it against (set env.pool)`);
  if (!existsSync(dir)) {
    const how = isAbsolute(ref) ? "an absolute path written where the store was published" : `relative to the store root ${(run.store as LocalStore).root}`;
    throw new Error(`${where}: task pool "${ref}" (${how}) is not at ${dir}; move the pool together with the store, or set env.pool`);
  }
  return dir;
}
