/**
 * ToolCallEpisode: a toy verifiable environment that a tiny model learns in minutes on 2 CPU cores and
 * that fails the way coding agents fail at tool use. The prompt lists the tools available for this
 * episode and a task; the completion is one call, `NAME {json args}`. Reward:
 *   1    the tool the task asks for, arguments valid against its schema
 *   0.5  another available tool, arguments valid against its schema
 *   0    an unknown tool (tool_not_found), unparseable arguments (json_decode), or arguments that
 *        violate the schema (schema_mismatch)
 * Each failure carries an ErrorContext with the slots the template hint layer needs (available
 * tools, the tool's schema, the bad fields), so hints reach the teacher exactly as they do from
 * real traces.
 */
import { z } from "zod";
import { Rng } from "../core/index.js";
import type { ErrorContext } from "../hints/index.js";
import type { StepResult } from "./env.js";

type ArgType = "str" | "int" | "num";

export interface ToolSpec {
  name: string;
  args: Record<string, ArgType>;
  /** Task phrasings; {arg} slots are filled from `values`. */
  phrasings: string[];
  values: Record<string, (string | number)[]>;
}

/** The tool pool. Small on purpose: the model has to learn names, schemas and which task wants which. */
export const TOOL_POOL: ToolSpec[] = [
  { name: "get_weather", args: { city: "str" }, phrasings: ["weather in {city}", "is it raining in {city}"], values: { city: ["Paris", "Oslo", "Lima", "Rome", "Cairo", "Tokyo"] } },
  { name: "add", args: { a: "int", b: "int" }, phrasings: ["add {a} and {b}", "sum of {a} and {b}"], values: { a: [1, 2, 3, 7, 12, 40], b: [4, 5, 9, 11, 30] } },
  { name: "send_email", args: { to: "str", body: "str" }, phrasings: ["email {to}: {body}", "tell {to} by mail: {body}"], values: { to: ["bob", "ana", "li"], body: ["hi", "late", "done"] } },
  { name: "get_time", args: { zone: "str" }, phrasings: ["time in {zone}", "clock for {zone}"], values: { zone: ["UTC", "CET", "JST", "PST"] } },
  { name: "search", args: { query: "str" }, phrasings: ["search for {query}", "look up {query}"], values: { query: ["cats", "rust", "tea", "jazz"] } },
  { name: "set_timer", args: { minutes: "int" }, phrasings: ["timer for {minutes} minutes", "wake me in {minutes} minutes"], values: { minutes: [1, 5, 10, 25] } },
  { name: "read_file", args: { path: "str" }, phrasings: ["read {path}", "show the file {path}"], values: { path: ["a.txt", "main.py", "README"] } },
  { name: "convert", args: { amount: "num", unit: "str" }, phrasings: ["convert {amount} {unit}", "{amount} {unit} in metric"], values: { amount: [2, 3.5, 10], unit: ["miles", "feet", "pounds"] } },
];

export const ToolCallEnvConfig = z.object({
  seed: z.number().int().default(0),
  /** Distinct tasks in the pool (prompt = tool subset + task). */
  n_tasks: z.number().int().positive().default(400),
  tools_per_prompt: z.number().int().min(1).max(TOOL_POOL.length).default(3),
});
export type ToolCallEnvConfig = z.infer<typeof ToolCallEnvConfig>;

export const ToolCallTask = z.object({
  task_id: z.string(),
  tools: z.array(z.string()),
  target: z.string(),
  request: z.string(),
  /** The arguments the request spells out (the demonstration uses them). */
  args: z.record(z.union([z.string(), z.number()])),
});
export type ToolCallTask = z.infer<typeof ToolCallTask>;

export interface ToolCallGrade {
  reward: number;
  valid_call: boolean;
  right_tool: boolean;
  tool_name: string | null;
  /** null on success; else the error kind lib/traces would classify the failure as. */
  error_kind: "tool_not_found" | "json_decode" | "schema_mismatch" | "wrong_tool" | null;
  error_message: string | null;
  /** ErrorContext for the hint generator (null on a full-reward call). */
  error: ErrorContext | null;
}

const spec = (name: string): ToolSpec | undefined => TOOL_POOL.find((t) => t.name === name);
const signature = (t: ToolSpec): string => `${t.name}(${Object.entries(t.args).map(([k, v]) => `${k}:${v}`).join(",")})`;
const jsonType: Record<ArgType, string> = { str: "string", int: "integer", num: "number" };

export const STOP = "\n";

/**
 * The toy tool-call tasks as a single-turn episode: the seeded task pool, reset(task) → the prompt,
 * step(completion) → the graded call. The trainer-facing side — the train / held-out split, the rubric,
 * demonstrations and mistakes, the renamed_args variant — is ToolCallEnvironment (toolcall_environment.ts).
 */
export class ToolCallEpisode {
  readonly config: ToolCallEnvConfig;
  readonly tasks: ToolCallTask[];
  private current: ToolCallTask | null = null;

  constructor(config: Partial<ToolCallEnvConfig> = {}) {
    const c = (this.config = ToolCallEnvConfig.parse(config));
    const rng = new Rng(c.seed);
    const seen = new Set<string>();
    this.tasks = [];
    // Distinct (tools, request) pairs; bounded attempts so a tiny pool cannot loop forever.
    for (let attempt = 0; this.tasks.length < c.n_tasks && attempt < c.n_tasks * 50; attempt++) {
      const tools = [...TOOL_POOL].sort(() => rng.next() - 0.5).slice(0, c.tools_per_prompt);
      const target = rng.pick(tools);
      const args = Object.fromEntries(Object.keys(target.args).map((k) => [k, rng.pick(target.values[k]!)]));
      const request = rng.pick(target.phrasings).replace(/\{(\w+)\}/g, (_, k: string) => String(args[k]));
      const names = tools.map((t) => t.name).sort();
      const key = `${names.join(",")}|${request}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.tasks.push({ task_id: `tc-${String(this.tasks.length).padStart(4, "0")}`, tools: names, target: target.name, request, args });
    }
  }

  /** The prompt the policy sees: available tools with their argument types, then the task. */
  static prompt(task: ToolCallTask): string {
    return `tools: ${task.tools.map((n) => signature(spec(n)!)).join(" ")}\ntask: ${task.request}\ncall:`;
  }

  /** The prompt with a hint spliced in right before the call (the teacher's privileged context). */
  static teacherPrompt(task: ToolCallTask, hint: string): string {
    return `tools: ${task.tools.map((n) => signature(spec(n)!)).join(" ")}\ntask: ${task.request}\nhint: ${hint.replace(/\s+/g, " ").trim()}\ncall:`;
  }

  /** A correct completion (the SFT warm start's demonstrations). */
  static demonstration(task: ToolCallTask): string {
    return ` ${task.target} ${JSON.stringify(task.args)}${STOP}`;
  }

  reset(task?: ToolCallTask | string | number): { observation: string; task: ToolCallTask } {
    const t = typeof task === "object" ? task : typeof task === "string" ? this.tasks.find((x) => x.task_id === task) : this.tasks[task ?? 0];
    if (!t) throw new Error(`no task ${JSON.stringify(task)} (pool has ${this.tasks.length})`);
    this.current = t;
    return { observation: ToolCallEpisode.prompt(t), task: t };
  }

  /** One call ends the episode. */
  step(completion: string): StepResult & { grade: ToolCallGrade } {
    if (!this.current) throw new Error("step() before reset()");
    const grade = gradeToolCall(this.current, completion);
    this.current = null;
    return { observation: grade.error_message ?? "ok", reward: grade.reward, done: true, info: { ...grade, error: undefined }, grade };
  }
}

/** Grades one completion against a task (pure: the env and the reward_fn both call this). */
export function gradeToolCall(task: ToolCallTask, completion: string): ToolCallGrade {
  const line = completion.split(STOP)[0]!.trim();
  const m = line.match(/^([A-Za-z_][\w.-]*)\s*(.*)$/);
  const name = m?.[1] ?? null;
  const base = { tool_name: name, valid_call: false, right_tool: false, reward: 0 };
  const available = task.tools;
  const fail = (error_kind: NonNullable<ToolCallGrade["error_kind"]>, error_message: string, extra: Partial<ErrorContext> = {}): ToolCallGrade => ({
    ...base,
    error_kind,
    error_message,
    error: {
      error_kind, behavior_dim: "tool_use", error_message, available_tools: available, tool_name: name,
      erroring_action: line.slice(0, 200), state_excerpt: ToolCallEpisode.prompt(task), ...extra,
    },
  });
  if (!name || !available.includes(name)) {
    return fail("tool_not_found", `Error: No such tool available: ${name ?? JSON.stringify(line.slice(0, 40))}`);
  }
  const tool = spec(name)!;
  const schema = { type: "object", properties: Object.fromEntries(Object.entries(tool.args).map(([k, v]) => [k, { type: jsonType[v] }])), required: Object.keys(tool.args) };
  let args: unknown;
  try {
    args = JSON.parse(m![2]!);
  } catch (e) {
    return fail("json_decode", `JSONDecodeError: could not parse arguments for ${name}: ${(e as Error).message}`, { tool_schema: schema });
  }
  const bad = badFields(tool, args);
  if (bad.length) {
    return fail("schema_mismatch", `InputValidationError: ${name} arguments do not match its schema: ${bad.join(", ")}`, { tool_schema: schema, bad_fields: bad.join(", ") });
  }
  if (name !== task.target) {
    return { ...fail("wrong_tool", `${name} ran, but the task (${task.request}) needs a different tool`), valid_call: true, reward: 0.5 };
  }
  return { ...base, valid_call: true, right_tool: true, reward: 1, error_kind: null, error_message: null, error: null };
}

function badFields(tool: ToolSpec, args: unknown): string[] {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return ["arguments (expected a JSON object)"];
  const a = args as Record<string, unknown>;
  const bad: string[] = [];
  for (const [k, t] of Object.entries(tool.args)) {
    const v = a[k];
    if (v === undefined) bad.push(`${k} (missing)`);
    else if (t === "str" ? typeof v !== "string" : t === "int" ? !Number.isInteger(v) : typeof v !== "number") bad.push(`${k} (expected ${jsonType[t]})`);
  }
  for (const k of Object.keys(a)) if (!(k in tool.args)) bad.push(`${k} (unexpected)`);
  return bad;
}

/**
 * A plausible mistaken call for `task` (unknown tool, broken JSON, schema violation or the wrong
 * tool): the SFT warm start pairs its hint with the correct call so the model learns to read
 * hints, as a pretrained LLM already can.
 */
export function corruptCall(task: ToolCallTask, rng: Rng): string {
  const json = JSON.stringify(task.args);
  const r = rng.next();
  if (r < 0.3) {
    const unknown = TOOL_POOL.map((t) => t.name).filter((n) => !task.tools.includes(n));
    const name = unknown.length && rng.next() < 0.5 ? unknown[Math.floor(rng.next() * unknown.length)]! : task.target.replace(/_/g, "") + "s";
    return ` ${name} ${json}${STOP}`;
  }
  if (r < 0.55) return ` ${task.target} ${json.replace(/"/g, "'")}${STOP}`;
  if (r < 0.8) {
    const keys = Object.keys(task.args);
    const drop = keys[Math.floor(rng.next() * keys.length)]!;
    return ` ${task.target} ${JSON.stringify(Object.fromEntries(Object.entries(task.args).filter(([k]) => k !== drop)))}${STOP}`;
  }
  const other = task.tools.find((n) => n !== task.target);
  return other ? ` ${other} ${JSON.stringify(Object.fromEntries(Object.keys(spec(other)!.args).map((k) => [k, spec(other)!.values[k]![0]!])))}${STOP}` : ` ${task.target}${STOP}`;
}
