/**
 * ToolCallEpisode behind the Environment interface: the toy tool-call tasks (and their renamed_args
 * variant), split into train / held-out by a seeded hash of the task id. Rubric: 0.5 · valid_call +
 * 0.5 · right_tool (1 for the asked tool with valid arguments, 0.5 for another available tool).
 */
import type { Rng } from "../core/index.js";
import { HeldoutSplit } from "../store/index.js";
import { Rubric, type EnvGrade, type Environment, type Message, type TaskSplit } from "./interface.js";
import { STOP, ToolCallEpisode, type ToolCallEnvConfig, type ToolCallTask } from "./toolcall.js";
import { taskVariant, type TaskVariant, type TaskVariantConfig } from "./variants.js";

export interface ToolCallEnvironmentOptions {
  env?: Partial<ToolCallEnvConfig>;
  variant?: Partial<TaskVariantConfig>;
  /** Share of tasks held out (by a hash of the task id and env.seed). */
  heldout_fraction?: number;
}

export class ToolCallEnvironment implements Environment<ToolCallTask> {
  readonly name: string;
  readonly stop = STOP;
  readonly rubric = new Rubric({ funcs: [{ name: "valid_call", weight: 0.5 }, { name: "right_tool", weight: 0.5 }] });
  readonly env: ToolCallEpisode;
  readonly variant: TaskVariant;
  private readonly split: TaskSplit<ToolCallTask>;
  /** renamed_args: unhinted demonstrations exist for v1 tasks only unless sft_renamed is "always". */
  private readonly sftRenamed: TaskVariantConfig["sft_renamed"];

  constructor(opts: ToolCallEnvironmentOptions = {}) {
    this.env = new ToolCallEpisode(opts.env ?? {});
    this.variant = taskVariant(opts.variant ?? {});
    this.name = this.variant.name;
    this.sftRenamed = opts.variant?.sft_renamed ?? "never";
    this.split = new HeldoutSplit(opts.heldout_fraction ?? 0.2, this.env.config.seed).split(this.env.tasks, (t) => t.task_id);
  }

  splits(): TaskSplit<ToolCallTask> {
    return this.split;
  }

  prompt(task: ToolCallTask, hint?: string | null): Message[] {
    return [{ role: "user", content: hint ? this.variant.teacherPrompt(task, hint) : this.variant.prompt(task) }];
  }

  async grade(task: ToolCallTask, completion: string): Promise<EnvGrade> {
    const g = this.variant.grade(task, completion);
    const components = { valid_call: g.valid_call ? 1 : 0, right_tool: g.right_tool ? 1 : 0 };
    return { reward: this.rubric.score(components), components, valid: g.valid_call, passed: g.right_tool, error: g.error };
  }

  /** renamed_args: a v2 task has a demonstration when sft_renamed is "always", or "hinted_only" and the prompt carries a hint. */
  demonstration(task: ToolCallTask, hinted = false): string | null {
    const shown = !this.variant.isRenamed(task) || this.sftRenamed === "always" || (hinted && this.sftRenamed === "hinted_only");
    return shown ? this.variant.demonstration(task) : null;
  }

  mistake(task: ToolCallTask, rng: Rng): string {
    return this.variant.corrupt(task, rng);
  }

  tag(task: ToolCallTask): string | null {
    return this.variant.isRenamed(task) ? "renamed" : null;
  }
}
