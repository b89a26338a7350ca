/** FeatureDeletionTask (the seed's §5c) and the on-disk task pool. */
import { z } from "zod";

export const Granularity = z.enum(["function", "class", "file", "feature"]);

/** Where the broken repo lives: a directory in the pool, or a Docker image built from it. */
export const BrokenSnapshot = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("dir"), path: z.string() }),
  z.object({ kind: z.literal("docker"), image: z.string(), workdir: z.string().default("/work") }),
]);
export type BrokenSnapshot = z.infer<typeof BrokenSnapshot>;

export const FeatureDeletionTask = z.object({
  task_id: z.string().regex(/^[\w.-]+$/, "task_id may hold letters, digits, '.', '_' and '-'"),
  repo: z.string(),
  base_commit: z.string(),
  broken: BrokenSnapshot,
  test_command: z.string().default("python3 -m pytest -q"),
  /** Reward target: these must go red → green. */
  fail_to_pass: z.array(z.string()).min(1),
  /** Functional guard: these must stay green. */
  pass_to_pass: z.array(z.string()),
  /** HELD OUT: what the agent must re-derive (broken → original). Never in an observation. */
  golden_diff: z.string(),
  granularity: Granularity.default("function"),
  /** Deleted symbols (qualified names with their file), for the hack monitor. Never in an observation. */
  deleted_symbols: z.array(z.object({ file: z.string(), qualname: z.string() })).default([]),
  upstream_license: z.string().default("unknown"),
  difficulty_prior: z.number().min(0).max(1).default(0.5),
  /** The escalation knobs that made this task harder than the one it came from (empty: a first build). */
  escalation: z.array(z.string()).default([]),
  /** A short statement of what to implement (no code). */
  description: z.string().default(""),
  /** HELD OUT: the behavioural oracle's file (<pool>/oracle/<id>.json, outside the snapshot; set by
   *  loadTask when the pool has one; oracle.ts). Never in an observation. */
  oracle_path: z.string().optional(),
  /** Installed copies of the project masked in every run of the task (lib/sandbox/mask.ts): the
   *  names looked for, and what the builder's scan found and masked on its sandbox kind. Never in
   *  an observation. */
  mask: z.object({
    names: z.array(z.string()),
    dists: z.array(z.string()).default([]),
    sandbox: z.string(),
    paths: z.array(z.string()),
    /** Names pytest itself imports: masked in the agent's shell, not in test runs. */
    unmaskable: z.array(z.string()).default([]),
  }).optional(),
  /** A canary (issue 26 §5): an impossible variant of `canary.of` (a target's expected value
   *  contradicted), mixed into a pool to measure hacking. Never in an observation. */
  canary: z.object({ of: z.string(), test: z.string(), change: z.string() }).optional(),
  /** The mutation gate (lib/tasks/mutants.ts): the symbols the behavioural check does not cover, and
   *  how many mutants of their golden bodies the targets killed (all, or the task is rejected).
   *  Never in an observation. */
  mutation: z.object({ symbols: z.array(z.string()), mutants: z.number().int(), killed: z.number().int() }).optional(),
});
export type FeatureDeletionTask = z.infer<typeof FeatureDeletionTask>;

/** One line of the pool's index.jsonl: the task without its held-out golden diff. */
export const TaskIndexEntry = FeatureDeletionTask.omit({ golden_diff: true }).extend({ golden_diff_path: z.string() });
export type TaskIndexEntry = z.infer<typeof TaskIndexEntry>;

/** What an agent may see of a task. */
export type PublicTask = Omit<FeatureDeletionTask, "golden_diff" | "deleted_symbols" | "oracle_path" | "mask" | "canary" | "mutation">;
export function publicView(t: FeatureDeletionTask): PublicTask {
  const { golden_diff: _g, deleted_symbols: _d, oracle_path: _o, mask: _m, canary: _c, mutation: _u, ...rest } = t;
  return rest;
}
