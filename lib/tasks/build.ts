/**
 * Building one feature-deletion task from a passing Python repo and chosen symbols, with the four
 * validation gates of the seed's §5c run in the sandbox:
 *   1. the full suite passes on the original repo;
 *   2. the deletion makes the target tests fail (FAIL_TO_PASS, non-empty);
 *   3. the rest still passes and collection works (PASS_TO_PASS);
 *   4. the golden diff restores green.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPytest, type Sandbox } from "../sandbox/index.js";
import { deleteSymbol, type DeleteOptions } from "./delete.js";
import { applyUnifiedDiff, fileDiff } from "./diffs.js";
import { addToPool, taskRepoDir } from "./pool.js";
import { FeatureDeletionTask } from "./schema.js";
import { scrub } from "./scrub.js";

export interface BuildSpec extends DeleteOptions {
  task_id: string;
  /** A name for the upstream repo (e.g. "owner/name"). */
  repo: string;
  base_commit?: string;
  /** What to delete: file (relative) and qualified name. */
  deletions: { file: string; qualname: string }[];
  upstream_license?: string;
  description?: string;
}

export type GateName = "baseline" | "breaks_target" | "keeps_rest" | "solvable";

export class GateFailure extends Error {
  constructor(readonly gate: GateName, message: string) {
    super(`gate ${gate}: ${message}`);
  }
}

export async function buildDeletionTask(sourceRepo: string, pool: string, spec: BuildSpec, sandbox: Sandbox, opts: { timeoutMs?: number } = {}): Promise<FeatureDeletionTask> {
  const work = mkdtempSync(join(tmpdir(), "composer-lab-build-"));
  try {
    const original = join(work, "original");
    cpSync(sourceRepo, original, { recursive: true });
    scrub(original);
    // Gate 1: baseline.
    const base = await runPytest(sandbox, original, { timeoutMs: opts.timeoutMs });
    const baseFailing = base.tests.filter((t) => t.outcome === "failed" || t.outcome === "error").map((t) => t.nodeid);
    if (base.tests.length === 0 || baseFailing.length || base.collectionErrors.length) throw new GateFailure("baseline", `the original suite does not pass (${baseFailing.length} failing, ${base.collectionErrors.length} collection errors, ${base.tests.length} tests)`);

    const broken = join(work, "broken");
    cpSync(original, broken, { recursive: true });
    const diffs: string[] = [];
    for (const d of spec.deletions) {
      const path = join(broken, d.file);
      const before = readFileSync(path, "utf8");
      const after = deleteSymbol(before, d.qualname, spec, d.file);
      writeFileSync(path, after);
      diffs.push(fileDiff(d.file, after, readFileSync(join(original, d.file), "utf8")));
    }
    const golden = diffs.join("");
    // Gates 2 and 3.
    const res = await runPytest(sandbox, broken, { timeoutMs: opts.timeoutMs });
    const passedBefore = new Set(base.tests.filter((t) => t.outcome === "passed").map((t) => t.nodeid));
    const fail_to_pass = res.tests.filter((t) => passedBefore.has(t.nodeid) && (t.outcome === "failed" || t.outcome === "error")).map((t) => t.nodeid).sort();
    const pass_to_pass = res.tests.filter((t) => passedBefore.has(t.nodeid) && t.outcome === "passed").map((t) => t.nodeid).sort();
    if (fail_to_pass.length === 0) throw new GateFailure("breaks_target", "no test fails after the deletion");
    if (res.collectionErrors.length) throw new GateFailure("keeps_rest", `collection breaks: ${res.collectionErrors.map((c) => c.nodeid).join(", ")}`);
    const lost = [...passedBefore].filter((id) => !res.tests.some((t) => t.nodeid === id));
    if (lost.length) throw new GateFailure("keeps_rest", `${lost.length} tests no longer run`);
    // Gate 4: the golden diff restores green.
    const solved = join(work, "solved");
    cpSync(broken, solved, { recursive: true });
    applyUnifiedDiff(solved, golden);
    const fixed = await runPytest(sandbox, solved, { tests: [...fail_to_pass, ...pass_to_pass], timeoutMs: opts.timeoutMs });
    const stillFailing = fixed.tests.filter((t) => t.outcome !== "passed").map((t) => t.nodeid);
    if (stillFailing.length || fixed.tests.length !== fail_to_pass.length + pass_to_pass.length) throw new GateFailure("solvable", `the golden diff leaves ${stillFailing.length} tests failing`);

    const task = FeatureDeletionTask.parse({
      task_id: spec.task_id, repo: spec.repo, base_commit: spec.base_commit ?? "working-tree", broken: { kind: "dir", path: taskRepoDir(pool, spec.task_id) },
      fail_to_pass, pass_to_pass, golden_diff: golden, granularity: "function", deleted_symbols: spec.deletions,
      upstream_license: spec.upstream_license ?? "unknown", description: spec.description ?? "",
    });
    // Only a validated task reaches the pool, and only whole: snapshot in place, then the index line.
    scrub(broken);
    const dest = taskRepoDir(pool, spec.task_id);
    rmSync(dest, { recursive: true, force: true });
    rmSync(dest + ".tmp", { recursive: true, force: true });
    mkdirSync(join(dest, ".."), { recursive: true });
    cpSync(broken, dest + ".tmp", { recursive: true });
    renameSync(dest + ".tmp", dest);
    addToPool(pool, task);
    return task;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
