// The RL and OUTER loops graded on a cluster executor (`train` / `outer run --executor swarm|slurm`)
// against the local run of the same seed: a tiny FD-micro run (≈ 15 grades) must give the same grade
// for every completion, and `outer run` the same trees, with every sandbox run on one of the
// cluster's nodes. Shared by test/executor-swarm.test.ts and test/executor-slurm.test.ts, which
// share the local runs too (made once per vitest run: test/support/shared-once.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { serveReference } from "../../lib/outer/index.js";
import { readMetrics } from "../../lib/train/index.js";
import { ROOT, cliAsync, oneJson } from "../helpers.js";
import { sharedOnce } from "./shared-once.js";

export const MICRO = join(ROOT, "datasets", "fd-micro");

/** A tiny FD-micro run: one hint-conditioned SFT step (its mistakes graded), one RL step, the greedy held-out and proxy evaluation. */
export function tinyTrainConfig(dir: string): string {
  const file = join(dir, "fd-tiny.json");
  writeFileSync(file, JSON.stringify({
    env: { kind: "feature_deletion", store: join(MICRO, "store"), run_id: "micro-s0", pool: join(MICRO, "pool"), sandbox: "bwrap" },
    seed: 5, backend: "wasm", model: { block_size: 192, n_layer: 1, n_head: 2, n_embd: 16 }, grade_concurrency: 4,
    sft: { steps: 1, batch_size: 2, hint_fraction: 1 },
    rl: { steps: 1, prompts_per_step: 2, num_generations: 2, max_completion_length: 12 },
    loss_weights: { grpo: 1, sdpo: 1, dpo: 0 },
    heldout: { every: 0, n_tasks: 1, proxy_tasks: 1, max_gap: 1 },
    checkpoint: { every: 0, keep: 1 },
  }));
  return file;
}

/** The run's grade cache: grade by key (the key hashes the task and the completion text). */
const gradesOf = (runDir: string): Record<string, unknown> =>
  Object.fromEntries(readFileSync(join(runDir, "grade-cache.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => [JSON.parse(l).key, JSON.parse(l).grade]));

const onNodes = (tally: { nodes: Record<string, number> }, nodes: string[]): void =>
  expect(Object.keys(tally.nodes).filter((n) => !nodes.includes(n)), `sandbox runs off the cluster's nodes ${nodes.join(", ")}`).toEqual([]);

/**
 * `train` of the tiny config locally, then on `executor`: the same grade (reward, components,
 * error, failing test) for every completion, the same RL metrics and final figures, every sandbox
 * run on one of `nodes`, and summary.json / config.json naming the executor.
 */
export async function expectTrainLikeLocal(executor: "swarm" | "slurm", nodes: string[], scratch: () => string): Promise<void> {
  const train = async (name: string, dir: string): Promise<{ out: Record<string, any>; dir: string; s: number }> => {
    const runDir = join(dir, `run-${name}`);
    const t0 = performance.now();
    const r = await cliAsync(["train", "--config", tinyTrainConfig(dir), "--run-dir", runDir, "--executor", name, "--json"]);
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    return { out: oneJson(r.stdout), dir: runDir, s: (performance.now() - t0) / 1000 };
  };
  // the local reference is the same run for the swarm and slurm files: made once per vitest run
  const local = await sharedOnce("train-local", (dir) => train("local", dir));
  const remote = await train(executor, scratch());
  expect(local.out).toMatchObject({ executor: "local", grading: { executor: "local", nodes: { local: local.out.grading.jobs } } });
  expect(remote.out).toMatchObject({ executor, grading: { executor, failed: 0, cancelled: 0 } });
  expect(JSON.parse(readFileSync(join(remote.dir, "summary.json"), "utf8")).executor).toBe(executor);
  expect(JSON.parse(readFileSync(join(remote.dir, "config.json"), "utf8")).executor).toBe(executor);
  onNodes(remote.out.grading, nodes);
  const [gl, gr] = [gradesOf(local.dir), gradesOf(remote.dir)];
  sameJobsButTheScans(remote.out.grading.jobs, local.out.grading.jobs, tasksOf(gl));
  expect(Object.keys(gl).length).toBeGreaterThanOrEqual(6);
  expect(gr).toEqual(gl);
  const rl = (dir: string) => readMetrics(dir).filter((m) => m.phase === "rl").map((m) => [m.reward_mean, m.reward_std, m.valid_rate]);
  expect(rl(remote.dir)).toEqual(rl(local.dir));
  expect(remote.out.final).toEqual(local.out.final);
  console.error(`train 1 SFT + 1 RL step: ${Object.keys(gl).length} grades, ${local.out.grading.jobs} sandbox runs; local ${local.s.toFixed(1)} s, ${executor} ${remote.s.toFixed(1)} s (nodes ${JSON.stringify(remote.out.grading.nodes)})`);
}

/** The same sandbox runs on both sides, but for the masks' scans (lib/sandbox/mask.ts): one walk of a
 *  sandbox root per process (rootIndex) and one scan per task, each skipped while its on-disk copy is
 *  fresh (an image's root, the swarm's, never is); which side finds them fresh depends on what ran
 *  before in the vitest run (the baseline of 2026-12-03: 38 locally, 50 and 51 on the clusters), so
 *  either side may hold one run more per task, and one for the index. */
function sameJobsButTheScans(remote: number, local: number, tasks: number): void {
  expect(Math.abs(remote - local), `sandbox runs: ${remote} there, ${local} locally (${tasks} tasks)`).toBeLessThanOrEqual(tasks + 1);
}

/** The tasks a run's grade cache holds (its keys name them). */
const tasksOf = (grades: Record<string, unknown>): number => new Set(Object.keys(grades).map((k) => k.split(":")[1])).size;

/** `outer run` (2 tasks, 4 nodes a tree, the reference model) locally, then on `executor`: the same trees, every sandbox run on one of `nodes`. */
export async function expectOuterLikeLocal(executor: "swarm" | "slurm", nodes: string[], scratch: () => string): Promise<void> {
  const reference = await serveReference(join(MICRO, "pool"));
  try {
    const run = async (name: string) => {
      const t0 = performance.now();
      const r = await cliAsync(["outer", "run", "--pool", join(MICRO, "pool"), "--models", reference.url, "--store", scratch(), "--run", "o1", "--limit", "2", "--budget", "depth=3,width=1,nodes=4", "--executor", name, "--json"]);
      expect(r.code, `${r.stderr.slice(-3000)}\n${r.stdout.slice(-3000)}`).toBe(0);
      return { out: oneJson(r.stdout), s: (performance.now() - t0) / 1000 };
    };
    // the local reference is the same run for the swarm and slurm files: made once per vitest run
    const local = await sharedOnce("outer-local", () => run("local"));
    const remote = await run(executor);
    expect(remote.out).toMatchObject({ executor, grading: { executor, failed: 0, cancelled: 0 } });
    expect(remote.out.graded).toBeGreaterThan(0);
    expect(remote.out.passed).toBeGreaterThan(0); // the reference writes golden bodies
    expect(remote.out.grading.jobs).toBeGreaterThanOrEqual(remote.out.graded);
    onNodes(remote.out.grading, nodes);
    const trees = (o: Record<string, any>) => ({ tasks: o.tasks, nodes: o.nodes, graded: o.graded, passed: o.passed, counts: o.counts });
    expect(trees(remote.out)).toEqual(trees(local.out));
    sameJobsButTheScans(remote.out.grading.jobs, local.out.grading.jobs, 2); // (--limit 2)
    console.error(`outer run: ${remote.out.graded} graded leaves, ${remote.out.grading.jobs} sandbox runs; local ${local.s.toFixed(1)} s, ${executor} ${remote.s.toFixed(1)} s`);
  } finally {
    await reference.close();
  }
}
