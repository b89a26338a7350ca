/**
 * Chat-format trajectories (JSONL, one trajectory per line) as open agent-trajectory datasets ship
 * them: {id?, tools?, messages: [{role, content, tool_calls?, tool_call_id?}]}. Assistant
 * tool_calls carry arguments as JSON text; role "tool" messages carry the results.
 */
import { contentText, readRecords } from "./lines.js";
import type { IngestIssue, Session, ToolCall, ToolResult, Turn } from "./schema.js";
import { TOOL_ERROR_TAG } from "./classify.js";
import type { ReadOptions } from "./claude.js";
import { textErrorMatcher } from "./text-errors.js";

const ID_FIELDS = ["id", "trajectory_id", "instance_id", "session_id", "traj_id"];
const MESSAGE_FIELDS = ["messages", "conversation", "trajectory"];

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools
    .map((t) => (t && typeof t === "object" ? ((t as { function?: { name?: unknown } }).function?.name ?? (t as { name?: unknown }).name) : t))
    .filter((n): n is string => typeof n === "string");
}

/** The structural error flag a tool message may carry, or null when it has none. */
function structuralError(m: Record<string, unknown>): boolean | null {
  if (typeof m.is_error === "boolean") return m.is_error;
  if (typeof m.error === "boolean") return m.error;
  if (typeof m.status === "string") return m.status === "error";
  return null;
}

export async function* readChatSessions(file: string, opts: ReadOptions = {}, issues: IngestIssue[] = []): AsyncGenerator<Session> {
  yield* readChatRecords(file, readRecords(file, issues), opts, issues);
}

/** Trajectories already parsed (JSON lines, or the elements of one JSON document). */
export async function* readChatRecords(file: string, records: AsyncIterable<{ line: number; value: Record<string, unknown> }> | Iterable<{ line: number; value: Record<string, unknown> }>, opts: ReadOptions = {}, issues: IngestIssue[] = []): AsyncGenerator<Session> {
  const textError = textErrorMatcher(file, "chat", opts.textErrors);
  for await (const { line, value: r } of records) {
    if (!r || typeof r !== "object" || Array.isArray(r)) {
      issues.push({ file, line, reason: "trajectory is not a JSON object" });
      continue;
    }
    const field = MESSAGE_FIELDS.find((f) => Array.isArray(r[f]));
    if (!field) {
      issues.push({ file, line, reason: "trajectory has no messages[] array" });
      continue;
    }
    const idField = ID_FIELDS.find((f) => typeof r[f] === "string" || typeof r[f] === "number");
    const session: Session = { id: idField ? String(r[idField]) : `${file}:${line}`, file, format: "chat", line, turns: [], availableTools: toolNames(r.tools) };
    const pending: ToolCall[] = [];
    (r[field] as unknown[]).forEach((m, mi) => {
      if (!m || typeof m !== "object") {
        issues.push({ file, line, reason: `${field}[${mi}] is not an object` });
        return;
      }
      const msg = m as Record<string, unknown>;
      const role = msg.role;
      const base = { index: session.turns.length, chain: "main" as const, uuids: [], parentUuid: null, messageId: null, thinking: null, toolCalls: [], toolResults: [], timestamp: null, line };
      if (role === "assistant") {
        const turn: Turn = { ...base, role: "assistant", text: contentText(msg.content) };
        const reasoning = msg.reasoning_content ?? msg.reasoning ?? msg.thinking;
        if (typeof reasoning === "string" && !opts.strip_thinking) turn.thinking = reasoning;
        for (const [ci, c] of (Array.isArray(msg.tool_calls) ? msg.tool_calls : []).entries()) {
          const fn = (c?.function ?? c ?? {}) as Record<string, unknown>;
          const call: ToolCall = { id: String(c?.id ?? `${mi}:${ci}`), name: String(fn.name ?? ""), input: null };
          if (typeof fn.arguments === "string") {
            call.rawArgs = fn.arguments;
            try {
              call.input = JSON.parse(fn.arguments);
            } catch (e) {
              call.argsError = (e as Error).message;
            }
          } else call.input = fn.arguments ?? null;
          turn.toolCalls.push(call);
          pending.push(call);
        }
        session.turns.push(turn);
      } else if (role === "tool" || role === "function" || role === "ipython") {
        const content = contentText(msg.content);
        let id = typeof msg.tool_call_id === "string" ? msg.tool_call_id : undefined;
        // Without an id, a result answers the oldest call still waiting for one.
        if (id === undefined) id = pending[0]?.id;
        const idx = pending.findIndex((c) => c.id === id);
        const call = idx >= 0 ? pending.splice(idx, 1)[0] : undefined;
        if (!call) issues.push({ file, line, reason: `${field}[${mi}]: tool result without its tool call (id ${id ?? "missing"})` });
        const result: ToolResult = { toolUseId: id ?? "", content, isError: structuralError(msg), errorTag: content.includes(TOOL_ERROR_TAG), line };
        if (textError && result.isError === null && !result.errorTag && textError(content, call?.name ?? (typeof msg.name === "string" ? msg.name : undefined))) result.errorText = true;
        // Consecutive tool messages belong to one environment turn.
        const prev = session.turns[session.turns.length - 1];
        if (prev && prev.role === "user" && prev.toolResults.length > 0 && prev.text === "") prev.toolResults.push(result);
        else session.turns.push({ ...base, role: "user", text: "", toolResults: [result] });
      } else if (role === "user" || role === "system") {
        session.turns.push({ ...base, role, text: contentText(msg.content) });
      } else issues.push({ file, line, reason: `${field}[${mi}]: unknown role ${JSON.stringify(role)}` });
    });
    yield session;
  }
}
