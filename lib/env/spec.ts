/**
 * EnvSpec: which environment a training config names, and openEnvironment, the one place that
 * turns a spec into an Environment (the trainer calls it and never names a concrete env).
 */
import { z } from "zod";
import { SANDBOX_NAMES, getSandbox, type Sandbox } from "../sandbox/index.js";
import { FeatureDeletionEnvironment } from "./feature_deletion_environment.js";
import { HintAnswerConfig, HintAnswerEnvironment } from "./hint_answer_environment.js";
import type { EnvTask, Environment } from "./interface.js";
import { ToolCallEnvConfig } from "./toolcall.js";
import { ToolCallEnvironment } from "./toolcall_environment.js";
import type { TaskVariantConfig } from "./variants.js";

export const ToolCallEnvSpec = ToolCallEnvConfig.partial().extend({ kind: z.literal("toolcall") });

export const FeatureDeletionEnvSpec = z.object({
  kind: z.literal("feature_deletion"),
  /** Store URI (a folder, or s3://bucket/prefix) and run id holding rl_task_pool, holdout and sft_corpus. */
  store: z.string().min(1),
  run_id: z.string().min(1),
  /** The task pool folder (default: each store entry's own `pool`). */
  pool: z.string().optional(),
  completion: z.enum(["body", "diff"]).default("body"),
  sandbox: z.enum([...SANDBOX_NAMES, "auto"]).default("auto"),
  timeout_ms: z.number().int().positive().default(60_000),
}).strict();

/** The SDPO control: the answer is only in the feedback (lib/env/hint_answer_environment.ts). */
export const HintAnswerEnvSpec = HintAnswerConfig.extend({ kind: z.literal("hint_answer") }).strict();

/** A spec without `kind` is a toolcall spec (the configs written before feature-deletion training). */
export const EnvSpec = z.preprocess(
  (v) => (v && typeof v === "object" && !("kind" in v) ? { ...v, kind: "toolcall" } : v),
  z.discriminatedUnion("kind", [ToolCallEnvSpec, FeatureDeletionEnvSpec, HintAnswerEnvSpec]),
);
export type EnvSpec = z.infer<typeof EnvSpec>;

/** What the trainer adds to a spec: its seed (a toolcall pool without env.seed follows it), variant and held-out share. */
export interface EnvContext {
  seed: number;
  variant?: Partial<TaskVariantConfig>;
  heldout_fraction?: number;
  /** Where a sandboxed env grades, in place of the spec's `sandbox` (an executor's Sandbox face:
   *  `train --executor swarm|slurm` grades on a cluster). */
  sandbox?: Sandbox;
  /** A file that keeps the env's grade cache across processes (feature deletion: a resumed run does
   *  not grade again; two runs' caches compare grade by grade). */
  grade_cache_file?: string;
}

/** One environment kind: its spec (with `kind`) and how a spec opens it. Add a kind here (and in EnvSpec's union). */
export interface EnvironmentKind<S extends z.ZodTypeAny> {
  spec: S;
  open(spec: z.infer<S>, ctx: EnvContext): Promise<Environment<EnvTask>> | Environment<EnvTask>;
}
const kind = <S extends z.ZodTypeAny>(k: EnvironmentKind<S>): EnvironmentKind<S> => k;

export const ENVIRONMENTS = {
  toolcall: kind({
    spec: ToolCallEnvSpec,
    open: ({ kind: _kind, ...env }, ctx) => new ToolCallEnvironment({ env: { seed: ctx.seed, ...env }, variant: ctx.variant, heldout_fraction: ctx.heldout_fraction }) as unknown as Environment<EnvTask>,
  }),
  feature_deletion: kind({
    spec: FeatureDeletionEnvSpec,
    open: async (spec, ctx) => {
      const sandbox = ctx.sandbox ?? (await getSandbox(spec.sandbox));
      return (await FeatureDeletionEnvironment.open({
        sandbox, store: spec.store, run_id: spec.run_id, pool: spec.pool, completion: spec.completion, timeoutMs: spec.timeout_ms, gradeCacheFile: ctx.grade_cache_file,
      })) as unknown as Environment<EnvTask>;
    },
  }),
  hint_answer: kind({
    spec: HintAnswerEnvSpec,
    open: ({ kind: _kind, ...c }) => new HintAnswerEnvironment(c) as unknown as Environment<EnvTask>,
  }),
};

/** The one place a spec becomes an Environment: its kind's entry opens it. */
export async function openEnvironment(spec: EnvSpec, ctx: EnvContext): Promise<Environment<EnvTask>> {
  const entry = ENVIRONMENTS[spec.kind] as EnvironmentKind<z.ZodTypeAny>;
  return entry.open(spec, ctx);
}
