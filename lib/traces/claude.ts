/**
 * Claude Code session files (~/.claude/projects/<project>/<session>.jsonl, and subagent files):
 * one JSON record per line. Records are threaded by uuid/parentUuid; the main chain is the path
 * from the session's last main-thread record back to its root (crossing compaction boundaries via
 * logicalParentUuid); sidechain records (subagents) are kept and marked; anything else is an
 * abandoned branch. Assistant records sharing one message.id (one per content block) merge.
 */
import { basename } from "node:path";
import { contentText, parseRecord, readLines } from "./lines.js";
import type { IngestIssue, Session, ToolCall, ToolResult, Turn } from "./schema.js";
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
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/**
 * Reads one session file in a single streaming pass: turns are built as records arrive (only small
 * threading metadata is kept per record), then each turn's chain is decided once the whole thread
 * is known.
 */
export async function readClaudeSession(file: string, opts: ReadOptions = {}, issues: IngestIssue[] = []): Promise<Session | null> {
  const recs: Rec[] = [];
  const turns: Turn[] = [];
  /** The record each turn started from (decides its chain). */
  const turnRec: Rec[] = [];
  const calls = new Set<string>();
  const orphanResults: { id: string; line: number }[] = [];
  let sessionId: string | null = null;
  const push = (rec: Rec, t: Pick<Turn, "role" | "parentUuid" | "messageId" | "timestamp"> & { text?: string }): Turn => {
    const turn: Turn = { index: turns.length, chain: "main", uuids: rec.uuid ? [rec.uuid] : [], line: rec.line, text: "", thinking: null, toolCalls: [], toolResults: [], ...t };
    turns.push(turn);
    turnRec.push(rec);
    return turn;
  };

  for await (const { line, text } of readLines(file)) {
    if (text.length === 0 || /^\s*$/.test(text)) continue;
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
    const msg = r.message as Record<string, unknown> | undefined;
    if ((type === "user" || type === "assistant") && (typeof msg !== "object" || msg === null)) {
      issues.push({ file, line, reason: `${type} record without a message object` });
      continue;
    }
    const rec: Rec = { line, type, uuid: str(r.uuid), parentUuid: str(r.parentUuid), logicalParentUuid: str(r.logicalParentUuid), isSidechain: r.isSidechain === true };
    recs.push(rec);
    sessionId ??= str(r.sessionId);
    const timestamp = str(r.timestamp);

    if (type === "assistant") {
      const messageId = str(msg!.id);
      const prev = turns[turns.length - 1];
      const prevRec = turnRec[turnRec.length - 1];
      let turn: Turn;
      if (prev && prev.role === "assistant" && messageId && prev.messageId === messageId && prevRec!.isSidechain === rec.isSidechain) {
        turn = prev;
        if (rec.uuid) turn.uuids.push(rec.uuid);
      } else turn = push(rec, { role: "assistant", parentUuid: rec.parentUuid, messageId, timestamp });
      const content = msg!.content;
      const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
      for (const b of blocks as Record<string, unknown>[]) {
        if (!b || typeof b !== "object") continue;
        if (b.type === "text" && typeof b.text === "string") turn.text = turn.text ? `${turn.text}\n${b.text}` : b.text;
        else if (b.type === "thinking" && typeof b.thinking === "string" && !opts.strip_thinking) turn.thinking = turn.thinking ? `${turn.thinking}\n${b.thinking}` : b.thinking;
        else if (b.type === "tool_use") {
          const call: ToolCall = { id: String(b.id ?? `${line}:${turn.toolCalls.length}`), name: String(b.name ?? ""), input: b.input ?? null };
          turn.toolCalls.push(call);
          calls.add(call.id);
        }
      }
    } else if (type === "user") {
      const turn = push(rec, { role: "user", parentUuid: rec.parentUuid, messageId: null, timestamp });
      const content = msg!.content;
      if (typeof content === "string") turn.text = content;
      else if (Array.isArray(content)) {
        const texts: string[] = [];
        for (const b of content as Record<string, unknown>[]) {
          if (!b || typeof b !== "object") continue;
          if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
          else if (b.type === "tool_result") {
            const id = String(b.tool_use_id ?? "");
            const out = contentText(b.content);
            const result: ToolResult = { toolUseId: id, content: out, isError: typeof b.is_error === "boolean" ? b.is_error : null, errorTag: out.includes(TOOL_ERROR_TAG) };
            if (!calls.has(id)) orphanResults.push({ id, line });
            turn.toolResults.push(result);
          }
        }
        if (texts.length) turn.text = texts.join("\n");
      }
    } else if (type === "system") {
      push(rec, { role: "system", parentUuid: rec.parentUuid, messageId: null, timestamp, text: contentText(r.content ?? msg?.content) });
    } else {
      push(rec, { role: "summary", parentUuid: null, messageId: null, timestamp: null, text: String(r.summary ?? "") });
    }
  }
  if (recs.length === 0) return null;

  // Threading: the main chain is the path from the last main-thread record back to the root.
  const byUuid = new Map<string, Rec>();
  for (const r of recs) if (r.uuid) byUuid.set(r.uuid, r);
  for (const r of recs) {
    const parent = r.parentUuid ?? r.logicalParentUuid;
    if (parent && !byUuid.has(parent)) issues.push({ file, line: r.line, reason: `dangling parentUuid ${parent}` });
  }
  for (const o of orphanResults) issues.push({ file, line: o.line, reason: `tool_result without its tool_use (id ${o.id || "missing"})` });
  const main = new Set<Rec>();
  let last: Rec | undefined;
  for (let i = recs.length - 1; i >= 0 && !last; i--) if (recs[i]!.uuid && !recs[i]!.isSidechain) last = recs[i];
  for (let r: Rec | undefined = last; r && !main.has(r); ) {
    main.add(r);
    const parent = r.parentUuid ?? r.logicalParentUuid;
    r = parent ? byUuid.get(parent) : undefined;
  }
  turns.forEach((t, i) => {
    const r = turnRec[i]!;
    t.chain = r.isSidechain ? "sidechain" : r.type === "summary" || !r.uuid || main.has(r) ? "main" : "branch";
  });
  return { id: sessionId ?? basename(file, ".jsonl"), file, format: "claude", line: 1, turns, availableTools: [] };
}
