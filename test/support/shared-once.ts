/**
 * A result computed once per `vitest run` and shared by every test file that asks for it under the
 * same name (test files run in separate processes, up to two at once): the first to ask computes it
 * in a folder of its own under the run's shared folder (test/support/global-shared.ts), the others
 * wait for its result. A computation that failed is not shared: each file that asks runs it itself
 * (its own failure is what that file reports). Without the global setup (another config) each
 * file computes it alone.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { tmp } from "../helpers.js";

export async function sharedOnce<T>(name: string, compute: (dir: string) => Promise<T>, waitMs = 600_000): Promise<T> {
  const safe = name.replace(/[^\w.-]/g, "_");
  const shared = inject("sharedDir") as string | undefined;
  if (!shared) return compute(tmp(`${safe}-`)); // a run without the global setup: nothing to share
  const root = join(shared, safe);
  const result = join(root, "result.json");
  const failed = join(root, "failed");
  try {
    mkdirSync(root); // atomic: one file wins
  } catch {
    for (const t0 = Date.now(); Date.now() - t0 < waitMs; await new Promise((r) => setTimeout(r, 250))) {
      if (existsSync(result)) return JSON.parse(readFileSync(result, "utf8")) as T;
      if (existsSync(failed)) break;
    }
    const own = join(root, `retry-${process.pid}`);
    mkdirSync(own, { recursive: true });
    return compute(own);
  }
  const work = join(root, "work");
  mkdirSync(work);
  try {
    const value = await compute(work);
    writeFileSync(result, JSON.stringify(value));
    return value;
  } catch (e) {
    writeFileSync(failed, String(e));
    throw e;
  }
}
