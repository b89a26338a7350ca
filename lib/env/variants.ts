/**
 * Task variants the trainer runs on. "toolcall" is lib/env's ToolCallEpisode as is. "renamed_args" is the
 * harder variant of issue 13: in the toy env every fact a hint states (tool names, argument names and
 * types) is already in the prompt, and the SFT warm start nearly solves it, so a hint can only repeat
 * what the student sees. In "renamed_args" a share of the tasks (marked `api: v2` in the prompt)
 * take renamed argument keys (city → location, a → x, …, fixed per tool); the prompt still lists the
 * v1 signatures, the SFT warm start never saw a v2 call, and the only place the v2 keys appear is the
 * schema_mismatch error — hence the template hint, i.e. the teacher's context. GRPO alone has to
 * sample the new keys byte by byte to see a reward on v2 tasks; SDPO gets them from the hint.
 */
import { z } from "zod";
import { Rng } from "../core/index.js";
import { ToolCallEpisode, TOOL_POOL, corruptCall, gradeToolCall, STOP, type ToolCallGrade, type ToolCallTask } from "./toolcall.js";

export const TaskVariantConfig = z.object({
  name: z.enum(["toolcall", "renamed_args"]).default("toolcall"),
  /** renamed_args: share of tasks that are v2 (renamed keys), drawn per task from its id. */
  renamed_fraction: z.number().min(0).max(1).default(0.5),
  /**
   * Which SFT demonstrations may be v2 tasks: "never" (the warm start sees no v2 key), "hinted_only"
   * (v2 tasks only in hint-conditioned batches, whose hint states the v2 schema: the model learns to
   * read the keys off the hint, never to produce them unhinted — the teacher can, the student cannot),
   * "always".
   */
  sft_renamed: z.enum(["never", "hinted_only", "always"]).default("never"),
});
export type TaskVariantConfig = z.infer<typeof TaskVariantConfig>;

/** The v2 key of each v1 argument, per tool (every TOOL_POOL argument has one). */
export const RENAMED_KEYS: Record<string, Record<string, string>> = {
  get_weather: { city: "location" },
  add: { a: "x", b: "y" },
  send_email: { to: "recipient", body: "text" },
  get_time: { zone: "tz" },
  search: { query: "q" },
  set_timer: { minutes: "duration" },
  read_file: { path: "filename" },
  convert: { amount: "value", unit: "from_unit" },
};

/** What the trainer needs from a task set: prompts (student and hinted teacher), demonstrations, grading, synthetic mistakes. */
export interface TaskVariant {
  readonly name: string;
  prompt(task: ToolCallTask): string;
  teacherPrompt(task: ToolCallTask, hint: string): string;
  demonstration(task: ToolCallTask): string;
  grade(task: ToolCallTask, completion: string): ToolCallGrade;
  corrupt(task: ToolCallTask, rng: Rng): string;
  /** Whether the task is a renamed (v2) one. */
  isRenamed(task: ToolCallTask): boolean;
}

const plain: TaskVariant = {
  name: "toolcall",
  prompt: (t) => ToolCallEpisode.prompt(t),
  teacherPrompt: (t, h) => ToolCallEpisode.teacherPrompt(t, h),
  demonstration: (t) => ToolCallEpisode.demonstration(t),
  grade: (t, c) => gradeToolCall(t, c),
  corrupt: (t, rng) => corruptCall(t, rng),
  isRenamed: () => false,
};

/** FNV-1a of a string → [0, 1): a per-task draw that does not depend on any RNG stream. */
function unitHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

const rename = (tool: string, args: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(args).map(([k, v]) => [RENAMED_KEYS[tool]?.[k] ?? k, v]));

export function taskVariant(config: Partial<TaskVariantConfig> = {}): TaskVariant {
  const c = TaskVariantConfig.parse(config);
  if (c.name === "toolcall") return plain;
  const isRenamed = (t: ToolCallTask) => unitHash(`renamed:${t.task_id}:${t.request}`) < c.renamed_fraction;
  const v2Prompt = (p: string) => p.replace(/\ntask: /, "\napi: v2\ntask: ");
  return {
    name: "renamed_args",
    isRenamed,
    prompt: (t) => (isRenamed(t) ? v2Prompt(ToolCallEpisode.prompt(t)) : ToolCallEpisode.prompt(t)),
    teacherPrompt: (t, h) => (isRenamed(t) ? v2Prompt(ToolCallEpisode.teacherPrompt(t, h)) : ToolCallEpisode.teacherPrompt(t, h)),
    demonstration: (t) => (isRenamed(t) ? ` ${t.target} ${JSON.stringify(rename(t.target, t.args))}${STOP}` : ToolCallEpisode.demonstration(t)),
    corrupt: (t, rng) => corruptCall(t, rng),
    grade(t, completion) {
      if (!isRenamed(t)) return gradeToolCall(t, completion);
      // A v2 task: grade against the renamed schemas by translating the call's keys back to v1, and
      // report schema errors in v2 terms (the hint then quotes the v2 schema).
      const line = completion.split(STOP)[0]!.trim();
      const m = line.match(/^([A-Za-z_][\w.-]*)\s*(.*)$/);
      const name = m?.[1] ?? null;
      const spec = name ? TOOL_POOL.find((x) => x.name === name) : undefined;
      if (!name || !spec || !t.tools.includes(name)) return gradeToolCall(t, completion);
      let args: unknown;
      try {
        args = JSON.parse(m![2]!);
      } catch {
        return withV2Schema(gradeToolCall(t, completion), name);
      }
      if (typeof args !== "object" || args === null || Array.isArray(args)) return withV2Schema(gradeToolCall(t, completion), name);
      const back = Object.fromEntries(Object.entries(RENAMED_KEYS[name]!).map(([v1, v2]) => [v2, v1]));
      const v1Keys = new Set(Object.keys(spec.args));
      // Keys: a v2 key maps to its v1 key; a v1 key (the old name) is unexpected in v2.
      const unexpectedOld = Object.keys(args).filter((k) => v1Keys.has(k) && !(k in back));
      const translated = Object.fromEntries(Object.entries(args).filter(([k]) => !unexpectedOld.includes(k)).map(([k, v]) => [back[k] ?? k, v]));
      const g = gradeToolCall(t, ` ${name} ${JSON.stringify(translated)}`);
      if (!unexpectedOld.length && g.error_kind !== "schema_mismatch") return g;
      // Re-state the schema error in v2 keys (missing / mistyped / unexpected).
      const fields = [
        ...(g.error?.bad_fields ? g.error.bad_fields.split(", ").map((f) => f.replace(/^(\w+)/, (k) => RENAMED_KEYS[name]![k] ?? k)) : []),
        ...unexpectedOld.map((k) => `${k} (unexpected)`),
      ];
      const message = `InputValidationError: ${name} arguments do not match its schema: ${fields.join(", ")}`;
      return {
        tool_name: name, valid_call: false, right_tool: false, reward: 0, error_kind: "schema_mismatch", error_message: message,
        error: {
          error_kind: "schema_mismatch", behavior_dim: "tool_use", error_message: message, available_tools: t.tools, tool_name: name,
          erroring_action: line.slice(0, 200), state_excerpt: v2Prompt(ToolCallEpisode.prompt(t)), tool_schema: v2Schema(name), bad_fields: fields.join(", "),
        },
      };
    },
  };
}

const jsonType = { str: "string", int: "integer", num: "number" } as const;

function v2Schema(name: string): Record<string, unknown> {
  const spec = TOOL_POOL.find((x) => x.name === name)!;
  const keys = Object.keys(spec.args).map((k) => RENAMED_KEYS[name]![k]!);
  return { type: "object", properties: Object.fromEntries(Object.entries(spec.args).map(([k, ty]) => [RENAMED_KEYS[name]![k]!, { type: jsonType[ty] }])), required: keys };
}

function withV2Schema(g: ToolCallGrade, name: string): ToolCallGrade {
  return g.error ? { ...g, error: { ...g.error, tool_schema: v2Schema(name) } } : g;
}
