/**
 * The environment interface the trainer depends on (verifiers / OpenEnv style, composed rather than
 * inherited): a task set split into train and held-out, the prompt (messages) for a task — with a
 * hint spliced in for the SDPO teacher —, grading a completion into a reward, the ErrorContext the
 * hint layers read, and a Rubric of weighted reward functions and multiplicative gates that turns
 * the grade's components into the reward. ToolCallEnvironment and FeatureDeletionEnvironment
 * implement it; lib/train never names either.
 */
import pLimit from "p-limit";
import { z } from "zod";
import type { Rng } from "../core/index.js";
import type { ErrorContext } from "../hints/index.js";

export const Message = z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() });
export type Message = z.infer<typeof Message>;

/** What every task carries: an id, and optionally a prior difficulty for the curriculum. */
export interface EnvTask {
  task_id: string;
  difficulty_prior?: number;
}

/** One weighted reward function of a rubric: it reads a named component of the grade. */
export const RubricFunc = z.object({ name: z.string().min(1), weight: z.number() });

/**
 * reward = (Σ weight · component) × Π gates: weighted functions (verifiers' Rubric(funcs, weights))
 * and gates that zero the reward (the guard tests, the hack monitor's mask).
 */
export const RubricSpec = z.object({ funcs: z.array(RubricFunc).min(1), gates: z.array(z.string()).default([]) });
export type RubricSpec = z.infer<typeof RubricSpec>;

export class Rubric {
  readonly spec: RubricSpec;
  constructor(spec: z.input<typeof RubricSpec>) {
    this.spec = RubricSpec.parse(spec);
  }

  /** The reward of a grade's components (a missing component reads as 0, a missing gate as closed). */
  score(components: Record<string, number>): number {
    const sum = this.spec.funcs.reduce((s, f) => s + f.weight * (components[f.name] ?? 0), 0);
    return this.spec.gates.every((g) => (components[g] ?? 0) > 0) ? sum : 0;
  }
}

/** A graded completion. */
export interface EnvGrade {
  reward: number;
  /** Every function and gate of the rubric, by name (the reward is rubric.score(components)). */
  components: Record<string, number>;
  /** Whether the completion had the expected form (a parseable call, an applicable body). */
  valid: boolean;
  /** A clean win: full reward with every gate open. */
  passed: boolean;
  /** What went wrong, for the hint layers (null on success). */
  error: ErrorContext | null;
}

/** The train / held-out split of an environment's tasks (held-out tasks are never trained on). */
export interface TaskSplit<T extends EnvTask> {
  train: T[];
  holdout: T[];
}

export interface Environment<T extends EnvTask = EnvTask> {
  readonly name: string;
  /** Sampling stops at this string (it ends a completion). */
  readonly stop: string;
  readonly rubric: Rubric;
  splits(): TaskSplit<T>;
  /** The prompt; with a hint, the teacher's privileged context (the hint spliced in). */
  prompt(task: T, hint?: string | null): Message[];
  grade(task: T, completion: string): Promise<EnvGrade>;
  /** A correct completion for SFT (a demonstration or a stored golden solution), or null; `hinted`:
   *  for a hint-conditioned prompt (an env may show some tasks only with a hint). */
  demonstration(task: T, hinted?: boolean): string | null;
  /** A plausible wrong completion (hint-conditioned SFT pairs its hint with the demonstration). */
  mistake?(task: T, rng: Rng): string;
  /** A subset label reported on its own in the held-out evaluation (e.g. "renamed"), or null. */
  tag?(task: T): string | null;
  close?(): Promise<void> | void;
}

/** Messages → the text a byte-level policy reads (contents joined by newlines; one message is its content). */
export function renderMessages(messages: Message[]): string {
  return messages.map((m) => m.content).join("\n");
}

/** Grades a list of (task, completion) with at most `concurrency` in flight, results in order. */
export function gradeAll<T extends EnvTask>(env: Environment<T>, items: { task: T; completion: string }[], concurrency: number): Promise<EnvGrade[]> {
  const limit = pLimit(Math.max(1, concurrency));
  return Promise.all(items.map((it) => limit(() => env.grade(it.task, it.completion))));
}
