/**
 * Claude Code session files (~/.claude/projects/<project>/<session>.jsonl, and subagent files):
 * one JSON record per line. Records are threaded by uuid/parentUuid; the main chain is the path
 * from the session's last main-thread record back to its root (crossing compaction boundaries via
 * logicalParentUuid); sidechain records (subagents) are kept and marked; anything else is an
 * abandoned branch. Assistant records sharing one message.id (one per content block) merge.
 */
import { basename } from "node:path";
import { contentText, parseRecord, readLines } from "./lines.js";
import type { Chain, IngestIssue, Session, ToolCall, ToolResult, Turn } from "./schema.js";
import { TOOL_ERROR_TAG } from "./classify.js";

export interface ReadOptions {
  /** Drop thinking blocks (default false, as in the seed). */
  strip_thinking?: boolean;
}

/** Record types Claude Code writes that carry no conversation: tolerated silently. */
const IGNORED_TYPES = new Set(["file-history-snapshot", "queue-operation", "progress", "attachment", "x-meta"]);
const KEPT_TYPES = new Set(["user", "assistant", "system", "summary"]);

interface Rec {
  line: number;
  type: string;
  uuid: string | null;
  parentUuid: string | null;
  logicalParentUuid: string | null;
  isSidechain: boolean;
  sessionId: string | null;
  timestamp: string | null;
  raw: Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

export async function readClaudeSession(file: string, opts: ReadOptions = {}, issues: IngestIssue[] = []): Promise<Session | null> {
  const recs: Rec[] = [];
  for await (const { line, text } of readLines(file)) {
    if (text.trim() === "") continue;
    const p = parseRecord(text);
    if (!p.ok) {
      issues.push({ file, line, reason: p.reason });
      continue;
    }
    const r = p.value;
    const type = typeof r.type === "string" ? r.type : "";
    if (!KEPT_TYPES.has(type)) {
      if (!IGNORED_TYPES.has(type)) issues.push({ file, line, reason: type ? `unknown record type "${type}"` : "record has no type" });
      continue;
    }
    if ((type === "user" || type === "assistant") && (typeof r.message !== "object" || r.message === null)) {
      issues.push({ file, line, reason: `${type} record without a message object` });
      continue;
    }
    recs.push({
      line, type, raw: r,
      uuid: str(r.uuid), parentUuid: str(r.parentUuid), logicalParentUuid: str(r.logicalParentUuid),
      isSidechain: r.isSidechain === true, sessionId: str(r.sessionId), timestamp: str(r.timestamp),
    });
  }
  if (recs.length === 0) return null;

  // Threading: follow parents from the last main-thread record.
  const byUuid = new Map<string, Rec>();
  for (const r of recs) if (r.uuid) byUuid.set(r.uuid, r);
  for (const r of recs) {
    const parent = r.parentUuid ?? r.logicalParentUuid;
    if (parent && !byUuid.has(parent)) issues.push({ file, line: r.line, reason: `dangling parentUuid ${parent}` });
  }
  const main = new Set<Rec>();
  const last = [...recs].reverse().find((r) => r.uuid && !r.isSidechain);
  for (let r: Rec | undefined = last; r && !main.has(r); ) {
    main.add(r);
    const parent = r.parentUuid ?? r.logicalParentUuid;
    r = parent ? byUuid.get(parent) : undefined;
  }
  const chainOf = (r: Rec): Chain => (r.isSidechain ? "sidechain" : r.type === "summary" || !r.uuid || main.has(r) ? "main" : "branch");

  const turns: Turn[] = [];
  const calls = new Map<string, ToolCall>();
  for (const r of recs) {
    const chain = chainOf(r);
    const msg = (r.raw.message ?? {}) as Record<string, unknown>;
    if (r.type === "assistant") {
      const messageId = str(msg.id);
      const prev = turns[turns.length - 1];
      const turn: Turn =
        prev && prev.role === "assistant" && messageId && prev.messageId === messageId && prev.chain === chain
          ? prev
          : pushTurn(turns, { role: "assistant", chain, uuids: [], parentUuid: r.parentUuid, messageId, line: r.line, timestamp: r.timestamp });
      if (r.uuid) turn.uuids.push(r.uuid);
      const blocks = typeof msg.content === "string" ? [{ type: "text", text: msg.content }] : Array.isArray(msg.content) ? msg.content : [];
      for (const b of blocks as Record<string, unknown>[]) {
        if (!b || typeof b !== "object") continue;
        if (b.type === "text" && typeof b.text === "string") turn.text = turn.text ? `${turn.text}\n${b.text}` : b.text;
        else if (b.type === "thinking" && typeof b.thinking === "string" && !opts.strip_thinking) turn.thinking = turn.thinking ? `${turn.thinking}\n${b.thinking}` : b.thinking;
        else if (b.type === "tool_use") {
          const call: ToolCall = { id: String(b.id ?? `${r.line}:${turn.toolCalls.length}`), name: String(b.name ?? ""), input: b.input ?? null };
          turn.toolCalls.push(call);
          calls.set(call.id, call);
        }
      }
    } else if (r.type === "user") {
      const turn = pushTurn(turns, { role: "user", chain, uuids: r.uuid ? [r.uuid] : [], parentUuid: r.parentUuid, messageId: null, line: r.line, timestamp: r.timestamp });
      const blocks = Array.isArray(msg.content) ? (msg.content as Record<string, unknown>[]) : [];
      if (typeof msg.content === "string") turn.text = msg.content;
      const texts: string[] = [];
      for (const b of blocks) {
        if (!b || typeof b !== "object") continue;
        if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
        else if (b.type === "tool_result") {
          const id = String(b.tool_use_id ?? "");
          const content = contentText(b.content);
          const result: ToolResult = { toolUseId: id, content, isError: typeof b.is_error === "boolean" ? b.is_error : null, errorTag: content.includes(TOOL_ERROR_TAG) };
          if (!calls.has(id)) issues.push({ file, line: r.line, reason: `tool_result without its tool_use (id ${id || "missing"})` });
          turn.toolResults.push(result);
        }
      }
      if (texts.length) turn.text = texts.join("\n");
    } else if (r.type === "system") {
      pushTurn(turns, { role: "system", chain, uuids: r.uuid ? [r.uuid] : [], parentUuid: r.parentUuid, messageId: null, line: r.line, timestamp: r.timestamp, text: contentText(r.raw.content ?? msg.content) });
    } else {
      pushTurn(turns, { role: "summary", chain, uuids: [], parentUuid: null, messageId: null, line: r.line, timestamp: null, text: String(r.raw.summary ?? "") });
    }
  }
  const id = recs.find((r) => r.sessionId)?.sessionId ?? basename(file, ".jsonl");
  return { id, file, format: "claude", line: 1, turns, availableTools: [] };
}

function pushTurn(turns: Turn[], t: Pick<Turn, "role" | "chain" | "uuids" | "parentUuid" | "messageId" | "line" | "timestamp"> & { text?: string }): Turn {
  const turn: Turn = { index: turns.length, text: "", thinking: null, toolCalls: [], toolResults: [], ...t };
  turns.push(turn);
  return turn;
}
