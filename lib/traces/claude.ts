/**
 * Claude Code session files (~/.claude/projects/<project>/<session>.jsonl, and subagent files):
 * one JSON record per line. Records are threaded by uuid/parentUuid over EVERY record kind that
 * carries a uuid (progress records, attachments and the like sit in the chain: dropping them would
 * cut it). The main chain is the path from the session's last main-thread record back to its root
 * (crossing compaction boundaries via logicalParentUuid); sidechain records (subagents) are kept
 * and marked; anything else is an abandoned branch.
 *
 * One assistant turn per API message: Claude Code 2.x writes a message with parallel tool calls as
 * assistant (call 1) → user (result 1) → assistant (call 2, same message.id) → user (result 2), so
 * records merge by message.id wherever they sit, and the results of one message gather into one
 * environment turn.
 */
import { basename } from "node:path";
import { contentText, readRecords } from "./lines.js";
import type { IngestIssue, Session, ToolCall, ToolResult, Turn } from "./schema.js";
import { TOOL_ERROR_TAG } from "./classify.js";
import { textErrorMatcher, type TextErrorConfig } from "./text-errors.js";

export interface ReadOptions {
  /** Drop thinking blocks (default false, as in the seed). */
  strip_thinking?: boolean;
  /** Error detection from result text where a result has no structural flag (see text-errors.ts). */
  textErrors?: TextErrorConfig;
}

/** Record types Claude Code writes that carry no conversation: threaded, otherwise tolerated silently. */
const IGNORED_TYPES = new Set(["file-history-snapshot", "queue-operation", "progress", "attachment", "x-meta", "custom-title", "tag"]);
const KEPT_TYPES = new Set(["user", "assistant", "system", "summary"]);

interface Rec {
  line: number;
  uuid: string | null;
  parentUuid: string | null;
  logicalParentUuid: string | null;
  isSidechain: boolean;
  agentId: string | null;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
const blocksOf = (content: unknown): Record<string, unknown>[] =>
  (typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : []).filter((b): b is Record<string, unknown> => !!b && typeof b === "object");

/**
 * Reads one session file in a single streaming pass: turns are built as records arrive (only small
 * threading metadata is kept per record), then each turn's chain is decided once the whole thread
 * is known.
 */
export async function readClaudeSession(file: string, opts: ReadOptions = {}, issues: IngestIssue[] = [], found?: ClaudeLinks, known?: Set<string>): Promise<Session | null> {
  return claudeSession(file, readRecords(file, issues, progressShortcut), opts, issues, found, known);
}

/** What a parent session says about its subagents: the agent id each Task/Agent result names, the
 *  call each agent_progress record belongs to, and the subagent messages those records carry. */
export interface ClaudeLinks {
  /** agent id → the tool_use id of the call whose result names it */
  resultAgent: Map<string, string>;
  /** agent id → parentToolUseID of its agent_progress records */
  progressParent: Map<string, string>;
  /** agent id → the subagent's own records, as agent_progress carried them (in order, once each) */
  progressRecords: Map<string, { line: number; value: Record<string, unknown> }[]>;
  /** uuids of the records in progressRecords (each kept once) */
  progressSeen: Set<string>;
  /** the session's record uuids (a subagent's first record may point at one of them) */
  uuids: Set<string>;
}
export const emptyLinks = (): ClaudeLinks => ({ resultAgent: new Map(), progressParent: new Map(), progressRecords: new Map(), progressSeen: new Set(), uuids: new Set() });

type Parsed = { line: number; value: Record<string, unknown> };

/**
 * The threading fields of a bash/hook progress record, read without parsing it. Real sessions are
 * mostly such records (each repeats the command's whole output so far), and all the reader needs of
 * them is where they sit in the parentUuid chain. Claude Code writes the record's own fields before
 * `data` and its `uuid` after it; a JSON string cannot hold an unescaped quote, so `"uuid":"` is
 * structural wherever it occurs. Anything else (an agent_progress record, another key order) is
 * parsed in full.
 */
export function progressStub(text: string): Record<string, unknown> | null {
  const t = text.indexOf('"type":"');
  if (t < 0 || !text.startsWith('"type":"progress"', t)) return null;
  const d = text.indexOf('"data":{"type":"', t);
  if (d < 0) return null;
  const kind = text.slice(d + 16, text.indexOf('"', d + 16));
  if (kind === "agent_progress" || !kind.endsWith("_progress")) return null;
  const u = text.lastIndexOf('"uuid":"');
  const head = text.slice(0, d);
  if (u < d || head.includes('"uuid":"') || head.includes('"logicalParentUuid"')) return null;
  const uuid = text.slice(u + 8, text.indexOf('"', u + 8));
  const parent = /"parentUuid":(?:null|"([^"]*)")/.exec(head);
  if (!parent) return null;
  return { type: "progress", uuid, parentUuid: parent[1] ?? null, isSidechain: head.includes('"isSidechain":true'), data: { type: kind } };
}

/** Long lines only: a short progress record costs less to parse than to look at. */
const progressShortcut = (text: string) => (text.length > 512 ? progressStub(text) : null);

/** "agentId: a1b2c3 (for resuming …)" at the end of a Task/Agent result's text. */
const AGENT_ID_IN_TEXT = /\bagentId: ([\w-]+)/;

/** `found` collects what the session says of its subagents; `known` are uuids of the session a
 *  subagent transcript belongs to (its records may point at them). */
export async function claudeSession(file: string, records: AsyncIterable<Parsed> | Iterable<Parsed>, opts: ReadOptions = {}, issues: IngestIssue[] = [], found?: ClaudeLinks, known?: Set<string>): Promise<Session | null> {
  const recs: Rec[] = [];
  const turns: Turn[] = [];
  /** The records each turn was built from (a turn is main when any of them is on the main chain). */
  const turnRecs: Rec[][] = [];
  /** Assistant turn by sidechain flag + message.id. */
  const byMessage = new Map<string, Turn>();
  /** Each tool call and the assistant turn (API message) that made it. */
  const calls = new Map<string, { call: ToolCall; turn: Turn }>();
  const results: { id: string; line: number }[] = [];
  const textError = textErrorMatcher(file, "claude", opts.textErrors);
  let sessionId: string | null = null;
  let conversation = 0;
  const push = (rec: Rec, t: Pick<Turn, "role" | "parentUuid" | "messageId" | "timestamp"> & { text?: string }): Turn => {
    const turn: Turn = { index: turns.length, chain: "main", uuids: rec.uuid ? [rec.uuid] : [], line: rec.line, text: "", thinking: null, toolCalls: [], toolResults: [], ...t };
    if (rec.isSidechain && rec.agentId) turn.agentId = rec.agentId;
    turns.push(turn);
    turnRecs.push([rec]);
    return turn;
  };
  const join = (a: string | null, b: string): string => (a ? `${a}\n${b}` : b);

  let summaries = 0;
  for await (const { line, value: r } of records) {
    const type = typeof r.type === "string" ? r.type : "";
    const rec: Rec = { line, uuid: str(r.uuid), parentUuid: str(r.parentUuid), logicalParentUuid: str(r.logicalParentUuid), isSidechain: r.isSidechain === true, agentId: str(r.agentId) };
    if (type === "progress" && found) {
      const data = r.data as Record<string, unknown> | undefined;
      if (data && data.type === "agent_progress" && typeof data.agentId === "string") {
        const parent = str(r.parentToolUseID);
        if (parent && !found.progressParent.has(data.agentId)) found.progressParent.set(data.agentId, parent);
        const m = data.message as Record<string, unknown> | undefined;
        if (m && typeof m === "object") {
          let list = found.progressRecords.get(data.agentId);
          if (!list) found.progressRecords.set(data.agentId, (list = []));
          const id = str(m.uuid);
          if (!id || !found.progressSeen.has(id)) list.push({ line, value: { ...m, isSidechain: true } });
          if (id) found.progressSeen.add(id);
        }
      }
    }
    if (!KEPT_TYPES.has(type)) {
      if (!IGNORED_TYPES.has(type)) issues.push({ file, line, reason: type ? `unknown record type "${type}"` : "record has no type" });
      if (rec.uuid) recs.push(rec);
      continue;
    }
    const msg = r.message as Record<string, unknown> | undefined;
    if ((type === "user" || type === "assistant") && (typeof msg !== "object" || msg === null)) {
      issues.push({ file, line, reason: `${type} record without a message object` });
      if (rec.uuid) recs.push(rec);
      continue;
    }
    recs.push(rec);
    conversation++;
    sessionId ??= str(r.sessionId);
    const timestamp = str(r.timestamp);

    if (type === "assistant") {
      const messageId = str(msg!.id);
      const key = messageId ? `${rec.isSidechain}:${messageId}` : null;
      let turn = key ? byMessage.get(key) : undefined;
      if (turn) {
        if (rec.uuid) turn.uuids.push(rec.uuid);
        turnRecs[turn.index]!.push(rec);
      } else {
        turn = push(rec, { role: "assistant", parentUuid: rec.parentUuid, messageId, timestamp });
        if (key) byMessage.set(key, turn);
        const u = msg!.usage as Record<string, unknown> | undefined;
        if (u && typeof u === "object" && (typeof u.input_tokens === "number" || typeof u.output_tokens === "number")) {
          turn.usage = { input_tokens: Number(u.input_tokens ?? 0) + Number(u.cache_read_input_tokens ?? 0) + Number(u.cache_creation_input_tokens ?? 0), output_tokens: Number(u.output_tokens ?? 0) };
        }
      }
      for (const b of blocksOf(msg!.content)) {
        if (b.type === "text" && typeof b.text === "string") turn.text = join(turn.text, b.text);
        else if (b.type === "thinking" && typeof b.thinking === "string" && !opts.strip_thinking) turn.thinking = join(turn.thinking, b.thinking);
        else if (b.type === "tool_use") {
          const id = String(b.id ?? `${line}:${turn.toolCalls.length}`);
          if (calls.has(id)) continue; // the same block written again (a resumed session repeats its history)
          const call: ToolCall = { id, name: String(b.name ?? ""), input: b.input ?? null };
          turn.toolCalls.push(call);
          calls.set(id, { call, turn });
        }
      }
    } else if (type === "user") {
      const content = msg!.content;
      const texts: string[] = [];
      const toolResults: ToolResult[] = [];
      for (const b of blocksOf(content)) {
        if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
        else if (b.type === "tool_result") {
          const id = String(b.tool_use_id ?? "");
          const out = contentText(b.content);
          const result: ToolResult = { toolUseId: id, content: out, isError: typeof b.is_error === "boolean" ? b.is_error : null, errorTag: out.includes(TOOL_ERROR_TAG), line };
          if (textError && result.isError === null && !result.errorTag && textError(out, calls.get(id)?.call.name)) result.errorText = true;
          results.push({ id, line });
          toolResults.push(result);
          if (found) {
            const tur = r.toolUseResult as Record<string, unknown> | undefined;
            const agentId = (tur && typeof tur === "object" && str(tur.agentId)) || (calls.get(id) && /^(?:Task|Agent)$/.test(calls.get(id)!.call.name) ? AGENT_ID_IN_TEXT.exec(out.slice(-400))?.[1] : undefined);
            if (agentId && !found.resultAgent.has(agentId)) found.resultAgent.set(agentId, id);
          }
        }
      }
      const prev = turns[turns.length - 1];
      // The results of one API message's parallel calls form one environment turn, however the
      // assistant records between them were written.
      const sameMessage = (): boolean => {
        const asked = calls.get(prev!.toolResults[0]!.toolUseId)?.turn;
        return !!asked && [...prev!.toolResults, ...toolResults].every((x) => calls.get(x.toolUseId)?.turn === asked);
      };
      if (texts.length === 0 && toolResults.length > 0 && prev && prev.role === "user" && prev.text === "" && prev.toolResults.length > 0 && sameMessage()) {
        prev.toolResults.push(...toolResults);
        if (rec.uuid) prev.uuids.push(rec.uuid);
        turnRecs[prev.index]!.push(rec);
      } else {
        const turn = push(rec, { role: "user", parentUuid: rec.parentUuid, messageId: null, timestamp });
        turn.text = texts.join("\n");
        turn.toolResults = toolResults;
      }
    } else if (type === "system") {
      push(rec, { role: "system", parentUuid: rec.parentUuid, messageId: null, timestamp, text: contentText(r.content ?? msg?.content) });
    } else {
      summaries++;
      push(rec, { role: "summary", parentUuid: null, messageId: null, timestamp: null, text: String(r.summary ?? "") });
    }
  }
  if (conversation === summaries) {
    issues.push({ file, line: 0, reason: summaries ? "summary-only file (no conversation records)" : "no conversation records" });
    return null;
  }

  // Threading: the main chain is the path from the last main-thread record back to the root.
  const byUuid = new Map<string, Rec>();
  for (const r of recs) if (r.uuid) byUuid.set(r.uuid, r);
  if (found) for (const u of byUuid.keys()) found.uuids.add(u);
  for (const r of recs) {
    const parent = r.parentUuid ?? r.logicalParentUuid;
    if (parent && !byUuid.has(parent) && !known?.has(parent)) issues.push({ file, line: r.line, reason: `dangling parentUuid ${parent}` });
  }
  for (const o of results) if (!calls.has(o.id)) issues.push({ file, line: o.line, reason: `tool_result without its tool_use (id ${o.id || "missing"})` });
  const main = new Set<Rec>();
  let last: Rec | undefined;
  for (let i = recs.length - 1; i >= 0 && !last; i--) if (recs[i]!.uuid && !recs[i]!.isSidechain) last = recs[i];
  for (let r: Rec | undefined = last; r && !main.has(r); ) {
    main.add(r);
    const parent = r.parentUuid ?? r.logicalParentUuid;
    r = parent ? byUuid.get(parent) : undefined;
  }
  turns.forEach((t, i) => {
    const rs = turnRecs[i]!;
    t.chain = rs[0]!.isSidechain ? "sidechain" : t.role === "summary" || rs.some((r) => !r.uuid || main.has(r)) ? "main" : "branch";
  });
  return { id: sessionId ?? basename(file, ".jsonl"), file, format: "claude", line: 1, turns, availableTools: [] };
}
