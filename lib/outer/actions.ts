/**
 * A model's answer → FeatureDeletionEpisode actions. Three shapes, as lib/env reads completions:
 * OpenAI tool calls (function name = action type, arguments = the action's other fields), a
 * completion parseCompletion reads (a JSON action transcript or a unified diff), or — for a policy
 * that writes the deleted function — the function's body (spliced into the broken file the way
 * FeatureDeletionEnvironment grades it). A diff or a body is a whole answer: it becomes write_file
 * actions followed by submit. Anything else is malformed: recorded, never stepped.
 */
import { existsSync, readFileSync } from "node:fs";
import { applyPatch, parsePatch } from "diff";
import { Action, BODY_STOP, FeatureDeletionEpisode, TOOL_DESCRIPTIONS, parseCompletion, spliceBody } from "../env/index.js";
import { confinedPath, type FeatureDeletionTask } from "../tasks/index.js";
import type { ChatMessage, Completion, ToolDefinition } from "./models.js";

export type AnswerKind = "tool_calls" | "actions" | "diff" | "body";

export type MappedAnswer = { ok: true; kind: AnswerKind; actions: Action[] } | { ok: false; kind: "malformed" | "error"; why: string };

/** JSON-schema parameters of each action (the env's Action union, one tool per action type). */
const PARAMETERS: Record<Action["type"], { properties: Record<string, unknown>; required: string[] }> = {
  read_file: { properties: { path: { type: "string" } }, required: ["path"] },
  write_file: { properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
  edit: { properties: { path: { type: "string" }, search: { type: "string" }, replace: { type: "string" } }, required: ["path", "search", "replace"] },
  list_dir: { properties: { path: { type: "string" } }, required: [] },
  run_tests: { properties: { tests: { type: "array", items: { type: "string" } } }, required: [] },
  shell: { properties: { command: { type: "string" } }, required: ["command"] },
  submit: { properties: {}, required: [] },
};

/** The env's actions as OpenAI function tools. */
export const ENV_TOOLS: ToolDefinition[] = (Object.keys(PARAMETERS) as Action["type"][]).map((name) => ({
  type: "function",
  function: { name, description: TOOL_DESCRIPTIONS[name].split(" — ")[1] ?? name, parameters: { type: "object", ...PARAMETERS[name], additionalProperties: false } },
}));

/** An action as a tool call's name and arguments (the inverse of the tool-call mapping). */
export function actionCall(a: Action): { name: string; arguments: string } {
  const { type, ...args } = a;
  return { name: type, arguments: JSON.stringify(args) };
}

/** A canonical text of an action list: the key two proposals are "the same action" by (key order
 *  fixed, runs of whitespace collapsed in every string). */
export function actionKey(actions: Action[]): string {
  const norm = (v: unknown): unknown =>
    typeof v === "string" ? v.replace(/\s+/g, " ").trim()
    : Array.isArray(v) ? v.map(norm)
    : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, norm((v as Record<string, unknown>)[k])]))
    : v;
  return JSON.stringify(actions.map(norm));
}

/** Actions as the text DPO pairs and world-model tuples carry: one `name {args}` per line. */
export function actionText(actions: Action[]): string {
  return actions.map((a) => `${a.type} ${actionCall(a).arguments}`).join("\n");
}

/** write_file actions that turn the working tree's files into what `diff` makes of them. */
function diffToWrites(workdir: string, diff: string): Action[] {
  return parsePatch(diff).map((p) => {
    const strip = (f?: string) => (f && f !== "/dev/null" ? f.replace(/^[ab]\//, "") : null);
    const path = strip(p.newFileName) ?? strip(p.oldFileName);
    if (!path) throw new Error("a diff file without a name");
    const full = confinedPath(workdir, path);
    const before = existsSync(full) ? readFileSync(full, "utf8") : "";
    const after = applyPatch(before, p);
    if (after === false) throw new Error(`${path}: the diff does not apply`);
    return { type: "write_file", path, content: after } as Action;
  });
}

/** The broken file with `body` in place of the deleted function's stub, as a write_file. */
function bodyToWrite(task: FeatureDeletionTask, body: string): Action {
  const { file, diff } = spliceBody(task, body.split(BODY_STOP)[0]!);
  const broken = readFileSync(confinedPath(FeatureDeletionEpisode.snapshotDir(task), file), "utf8");
  const after = diff ? applyPatch(broken, diff) : broken;
  if (after === false) throw new Error(`${file}: the body does not splice`);
  return { type: "write_file", path: file, content: after };
}

/** Maps one completion to env actions at a state whose working tree is `workdir`. */
export function mapAnswer(c: Completion, task: FeatureDeletionTask, workdir: string): MappedAnswer {
  if (c.error) return { ok: false, kind: "error", why: c.error };
  if (c.tool_calls.length) {
    const actions: Action[] = [];
    for (const call of c.tool_calls) {
      let args: unknown;
      try {
        args = JSON.parse(call.arguments || "{}");
      } catch (e) {
        return { ok: false, kind: "malformed", why: `tool call ${call.name}: arguments are not JSON (${(e as Error).message})` };
      }
      if (!args || typeof args !== "object" || Array.isArray(args)) return { ok: false, kind: "malformed", why: `tool call ${call.name}: arguments are not a JSON object` };
      const r = Action.safeParse({ ...args, type: call.name });
      if (!r.success) return { ok: false, kind: "malformed", why: `tool call ${call.name}: ${r.error.issues.map((i) => `${i.path.join(".") || "name"}: ${i.message}`).join("; ")}` };
      actions.push(r.data);
    }
    return { ok: true, kind: "tool_calls", actions };
  }
  const text = c.content;
  if (!text.trim()) return { ok: false, kind: "malformed", why: "an empty answer (no content, no tool calls)" };
  const parsed = parseCompletion(text);
  try {
    if (parsed.kind === "actions") return { ok: true, kind: "actions", actions: parsed.actions };
    if (parsed.kind === "diff") return { ok: true, kind: "diff", actions: [...diffToWrites(workdir, parsed.diff), { type: "submit" }] };
    // Neither: the body of the deleted function (a single-symbol task), as the lab's policies write it.
    if (task.deleted_symbols.length !== 1) return { ok: false, kind: "malformed", why: parsed.why };
    return { ok: true, kind: "body", actions: [bodyToWrite(task, text), { type: "submit" }] };
  } catch (e) {
    return { ok: false, kind: "malformed", why: (e as Error).message };
  }
}

/** A state as one text (the world model's input): each message as "role: content", tool calls as "→ name args". */
export function renderState(messages: ChatMessage[]): string {
  return messages.map((m) => `${m.role}: ${[m.content, ...(m.tool_calls ?? []).map((c) => `→ ${c.function.name} ${c.function.arguments}`)].filter(Boolean).join("\n")}`).join("\n\n");
}
