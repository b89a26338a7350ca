/**
 * The env's TRL face: reward_fn(prompts, completions, {task_id}) → number[] (TRL's reward-function
 * convention: dataset columns arrive as keyword lists). A completion is a unified diff or an action
 * transcript (a JSON array of actions, {"actions": [...]}, or one JSON action per line). Graded in
 * parallel under a concurrency limit.
 */
import { cpSync } from "node:fs";
import pLimit from "p-limit";
import { transientDir } from "../core/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { applyUnifiedDiff, loadTask, type FeatureDeletionTask } from "../tasks/index.js";
import { Action } from "./actions.js";
import { FeatureDeletionEpisode, gradeWorkdir, type Grade } from "./env.js";
import { HackMonitor } from "./monitor.js";
import type { BehaviourConfigInput } from "./behaviour.js";

export type ParsedCompletion = { kind: "diff"; diff: string } | { kind: "actions"; actions: Action[] } | { kind: "invalid"; why: string };

/** Tells a diff from an action transcript. */
export function parseCompletion(text: string): ParsedCompletion {
  const t = text.trim();
  const tryActions = (v: unknown): Action[] | null => {
    const list = Array.isArray(v) ? v : v && typeof v === "object" && Array.isArray((v as { actions?: unknown }).actions) ? (v as { actions: unknown[] }).actions : null;
    if (!list) return null;
    const parsed = list.map((a) => Action.safeParse(a));
    return parsed.every((p) => p.success) ? parsed.map((p) => p.data!) : null;
  };
  if (t.startsWith("[") || t.startsWith("{")) {
    try {
      const actions = tryActions(JSON.parse(t));
      if (actions) return { kind: "actions", actions };
    } catch {
      // maybe JSON lines
      const lines = t.split("\n").filter((l) => l.trim());
      try {
        const actions = tryActions(lines.map((l) => JSON.parse(l)));
        if (actions) return { kind: "actions", actions };
      } catch {
        /* not JSONL either */
      }
    }
  }
  const fenced = t.match(/```(?:diff|patch)?\n([\s\S]*?)```/);
  const body = fenced ? fenced[1]! : t;
  const start = body.search(/^--- /m);
  if (start >= 0 && /^\+\+\+ /m.test(body) && /^@@ /m.test(body)) return { kind: "diff", diff: body.slice(start) };
  return { kind: "invalid", why: "neither a unified diff nor a JSON action transcript" };
}

export interface GradeCompletionResult extends Grade {
  kind: ParsedCompletion["kind"];
  error: string | null;
}

const zeroGrade = (kind: ParsedCompletion["kind"], error: string): GradeCompletionResult => ({ reward: 0, frac: 0, guardOk: false, hacked: false, flags: [], perTest: [], wallMs: 0, kind, error });

type GradeCompletionOptions = { monitor?: HackMonitor; max_turns?: number; limits?: { timeoutMs?: number; behaviour?: BehaviourConfigInput } };

/** Grades one completion against a task. Never throws: a bad completion scores 0, and so does a
 *  grade whose analysis or grader failed on it (fails closed, issue 26 §4: reward 0 and a
 *  `grader_error` flag, never a rejected batch). */
export async function gradeCompletion(task: FeatureDeletionTask, completion: string, sandbox: Sandbox, opts: GradeCompletionOptions = {}): Promise<GradeCompletionResult> {
  try {
    return await gradeCompletionOnce(task, completion, sandbox, opts);
  } catch (e) {
    const why = `the grader failed on this completion: ${(e as Error)?.message ?? String(e)}`.slice(0, 2000);
    return { ...zeroGrade(parseCompletion(completion).kind, why), hacked: true, flags: [{ kind: "grader_error", detail: why }] };
  }
}

async function gradeCompletionOnce(task: FeatureDeletionTask, completion: string, sandbox: Sandbox, opts: GradeCompletionOptions): Promise<GradeCompletionResult> {
  const parsed = parseCompletion(completion);
  if (parsed.kind === "invalid") return zeroGrade("invalid", parsed.why);
  if (parsed.kind === "diff") {
    const tmp = transientDir(`grade-${task.task_id}-`);
    const dir = tmp.path;
    try {
      cpSync(FeatureDeletionEpisode.snapshotDir(task), dir, { recursive: true });
      try {
        applyUnifiedDiff(dir, parsed.diff);
      } catch (e) {
        return zeroGrade("diff", (e as Error).message);
      }
      return { ...(await gradeWorkdir(task, dir, [], sandbox, opts.monitor, opts.limits)), kind: "diff", error: null };
    } finally {
      tmp.remove();
    }
  }
  const env = new FeatureDeletionEpisode({ sandbox, monitor: opts.monitor, timeoutMs: opts.limits?.timeoutMs, behaviour: opts.limits?.behaviour, max_turns: opts.max_turns ?? Math.max(parsed.actions.length + 1, 40) });
  try {
    env.reset(task);
    let last = null;
    for (const a of parsed.actions) {
      last = await env.step(a);
      if (last.done) break;
    }
    if (!last?.done) last = await env.step({ type: "submit" });
    const info = last.info as unknown as Grade;
    return { reward: last.reward, frac: info.frac, guardOk: info.guardOk, hacked: info.hacked, flags: info.flags, perTest: info.perTest, wallMs: info.wallMs, checks: info.checks, kind: "actions", error: null };
  } finally {
    env.close();
  }
}

export interface RewardFnOptions {
  /** The task pool holding the tasks named by `task_id`. */
  pool: string;
  sandbox: Sandbox;
  /** Completions graded at once (default 2). */
  concurrency?: number;
  monitor?: HackMonitor;
  /** Receives each grade (for logging). */
  onGrade?: (taskId: string, grade: GradeCompletionResult) => void;
  /** An online curriculum fed with each batch (e.g. lib/curriculum's PassRateCurriculum). */
  curriculum?: { observeBatch(task_ids: string[], rewards: number[]): unknown };
  /** The behavioural check's configuration (default: on; lib/env/behaviour.ts). */
  behaviour?: BehaviourConfigInput;
}

/** The reward function's grades: one GradeCompletionResult per completion, in order (what the
 *  env server's POST /reward answers; makeRewardFn keeps the rewards). */
export function makeGradeFn(opts: RewardFnOptions) {
  const limit = pLimit(opts.concurrency ?? 2);
  const tasks = new Map<string, FeatureDeletionTask>();
  const task = (id: string) => {
    if (!tasks.has(id)) tasks.set(id, loadTask(opts.pool, id));
    return tasks.get(id)!;
  };
  return async function grade_fn(prompts: string[], completions: string[], kwargs: { task_id: string[] | string; [k: string]: unknown }): Promise<GradeCompletionResult[]> {
    const ids = Array.isArray(kwargs.task_id) ? kwargs.task_id : completions.map(() => kwargs.task_id as string);
    if (ids.length !== completions.length) throw new Error(`reward_fn: ${completions.length} completions but ${ids.length} task ids`);
    void prompts;
    const grades = await Promise.all(
      completions.map((c, i) =>
        limit(async () => {
          const g = await gradeCompletion(task(ids[i]!), c, opts.sandbox, { monitor: opts.monitor, limits: { behaviour: opts.behaviour } });
          opts.onGrade?.(ids[i]!, g);
          return g;
        }),
      ),
    );
    opts.curriculum?.observeBatch(ids, grades.map((g) => g.reward));
    return grades;
  };
}

/** A TRL-style reward function over a task pool. */
export function makeRewardFn(opts: RewardFnOptions) {
  const grade = makeGradeFn(opts);
  return async function reward_fn(prompts: string[], completions: string[], kwargs: { task_id: string[] | string; [k: string]: unknown }): Promise<number[]> {
    return (await grade(prompts, completions, kwargs)).map((g) => g.reward);
  };
}
