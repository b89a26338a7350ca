/**
 * Chat messages and OpenAI tools → the text the lab's byte-level policy was trained to continue,
 * and its completion → an OpenAI tool call.
 *
 * Without tools (or with tool_choice "none") the prompt is lib/env's renderMessages: the messages'
 * contents joined by newlines, roles dropped — exactly what the trainer fed the policy
 * (renderMessages(env.prompt(task))), so an environment's prompt sent as one user message reaches
 * the policy byte for byte.
 *
 * With tools it is ToolCallEpisode's prompt (lib/env/toolcall.ts), which the tool-call checkpoints were
 * trained on:
 *   [system/developer contents\n]tools: NAME(arg:type,…) …\ntask: <the other messages>\ncall:
 * with argument types from the JSON-schema `properties` (string → str, integer → int, number → num,
 * anything else by its JSON type name), tools sorted by name as ToolCallEpisode lists them. The policy answers ` NAME {json args}` and a newline; the
 * newline is added to the stop sequences. tool_choice {function: NAME} appends ` NAME ` to the prompt
 * so the policy only writes the arguments.
 */
import { renderMessages } from "../env/index.js";
import type { ChatMessage, FunctionTool, ToolCall, ToolChoice } from "./schema.js";

/** Ends a call in the lab's tool format (ToolCallEpisode's STOP). */
export const CALL_STOP = "\n";

export interface RenderedPrompt {
  /** The text the policy continues. */
  text: string;
  /** Text already written on the completion's behalf (a forced tool name), prepended before parsing. */
  prefill: string;
  /** Stop sequences the format needs. */
  stop: string[];
  /** The tools a completion may call (empty: none are parsed). */
  tools: FunctionTool[];
}

const TYPE_NAMES: Record<string, string> = { string: "str", integer: "int", number: "num" };

/** `name(arg:type,…)`, as ToolCallEpisode lists a tool. */
export function toolSignature(t: FunctionTool): string {
  const props = (t.function.parameters?.properties ?? {}) as Record<string, { type?: unknown }>;
  const args = Object.entries(props).map(([k, s]) => {
    const type = typeof s?.type === "string" ? s.type : Array.isArray(s?.type) ? s.type.join("|") : "any";
    return `${k}:${TYPE_NAMES[type] ?? type}`;
  });
  return `${t.function.name}(${args.join(",")})`;
}

/** A call as the lab's policy writes it: ` NAME {json args}`. */
export function formatToolCall(call: ToolCall): string {
  return ` ${call.function.name} ${call.function.arguments}`;
}

function contentText(m: ChatMessage): string {
  const c = m.content;
  const text = c == null ? "" : typeof c === "string" ? c : c.map((p) => p.text).join("");
  const calls = m.role === "assistant" ? (m.tool_calls ?? []).map(formatToolCall).join(CALL_STOP) : "";
  return [text, calls].filter(Boolean).join(CALL_STOP);
}

/** renderMessages over every message kind (assistant tool calls in the lab's call format). */
function renderConversation(messages: ChatMessage[]): string {
  return renderMessages(messages.map((m) => ({ role: m.role === "assistant" ? "assistant" : m.role === "user" ? "user" : "system", content: contentText(m) })));
}

export function renderPrompt(messages: ChatMessage[], tools: FunctionTool[] = [], toolChoice: ToolChoice = "auto"): RenderedPrompt {
  if (tools.length === 0 || toolChoice === "none") return { text: renderConversation(messages), prefill: "", stop: [], tools: [] };
  const isSystem = (m: ChatMessage) => m.role === "system" || m.role === "developer";
  const system = messages.filter(isSystem);
  const rest = messages.filter((m) => !isSystem(m));
  const forced = typeof toolChoice === "object" ? toolChoice.function.name : null;
  const prefill = forced ? ` ${forced} ` : "";
  const head = system.length ? renderConversation(system) + "\n" : "";
  const listed = [...tools].sort((a, b) => (a.function.name < b.function.name ? -1 : a.function.name > b.function.name ? 1 : 0));
  const text = `${head}tools: ${listed.map(toolSignature).join(" ")}\ntask: ${renderConversation(rest)}\ncall:${prefill}`;
  return { text, prefill, stop: [CALL_STOP], tools: forced ? tools.filter((t) => t.function.name === forced) : tools };
}

/**
 * The completion (prefill included) as a call to one of `tools`, or null when it is not one: the
 * first line must be `NAME {…}` with NAME a declared tool and {…} a JSON object.
 */
export function parseToolCall(completion: string, tools: FunctionTool[]): { name: string; arguments: string } | null {
  const line = completion.split(CALL_STOP)[0]!.trim();
  const m = /^([A-Za-z_][\w.-]*)\s*(\{.*\})$/.exec(line);
  if (!m || !tools.some((t) => t.function.name === m[1])) return null;
  try {
    const args: unknown = JSON.parse(m[2]!);
    if (typeof args !== "object" || args === null || Array.isArray(args)) return null;
    return { name: m[1]!, arguments: JSON.stringify(args) };
  } catch {
    return null;
  }
}
