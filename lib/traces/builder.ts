/**
 * Turn assembly shared by the readers of event-style logs (Codex CLI, OpenHands, SWE-agent,
 * mini-swe-agent): each reader decides what an item of its format means, the builder lays the items
 * out as the lab's turns — an assistant turn gathers one model response (text, reasoning, its tool
 * calls), and consecutive tool results form one environment turn, as in the Claude Code reader.
 */
import type { ReadOptions } from "./claude.js";
import { TOOL_ERROR_TAG } from "./classify.js";
import type { IngestIssue, Session, SessionStats, ToolCall, ToolResult, TraceFormat, Turn } from "./schema.js";
import { textErrorMatcher, type TextErrorMatcher } from "./text-errors.js";

type Role = Turn["role"];

export class SessionBuilder {
  readonly turns: Turn[] = [];
  readonly calls = new Map<string, ToolCall>();
  readonly stats: SessionStats = {};
  availableTools: string[] = [];
  private open: Turn | null = null;
  private readonly textError: TextErrorMatcher | null;
  private anonymous = 0;

  constructor(
    readonly file: string,
    readonly format: TraceFormat,
    public id: string,
    readonly opts: ReadOptions,
    readonly issues: IngestIssue[],
    readonly line = 1,
  ) {
    this.textError = textErrorMatcher(file, format, opts.textErrors);
  }

  private push(role: Role, line: number, timestamp: string | null, text = ""): Turn {
    const t: Turn = { index: this.turns.length, role, chain: "main", uuids: [], parentUuid: null, messageId: null, text, thinking: null, toolCalls: [], toolResults: [], timestamp, line };
    this.turns.push(t);
    return t;
  }

  /** A user, system or summary turn (ends the open model response). */
  say(role: Exclude<Role, "assistant">, text: string, line: number, timestamp: string | null = null): Turn {
    this.open = null;
    return this.push(role, line, timestamp, text);
  }

  /** The model response being written: a new one unless one is open (or `messageId` differs). */
  response(line: number, timestamp: string | null = null, messageId: string | null = null): Turn {
    if (this.open && (messageId === null || this.open.messageId === null || this.open.messageId === messageId)) {
      if (messageId && !this.open.messageId) this.open.messageId = messageId;
      return this.open;
    }
    this.open = this.push("assistant", line, timestamp);
    this.open.messageId = messageId;
    return this.open;
  }

  /** Ends the model response: the next text or call starts another one. */
  endResponse(): void {
    this.open = null;
  }

  text(line: number, text: string, timestamp: string | null = null, messageId: string | null = null): Turn {
    const t = this.response(line, timestamp, messageId);
    if (text) t.text = t.text ? `${t.text}\n${text}` : text;
    return t;
  }

  thinking(line: number, text: string, timestamp: string | null = null): void {
    if (!text || this.opts.strip_thinking) return;
    const t = this.response(line, timestamp);
    t.thinking = t.thinking ? `${t.thinking}\n${text}` : text;
  }

  /** A tool call of the open response. Arguments given as text are parsed (JSON); when they do not
   *  parse the call keeps them raw with `argsError` (a malformed_args site). */
  call(line: number, c: { id?: string | null; name: string; input?: unknown; rawArgs?: string; argsError?: string }, timestamp: string | null = null, messageId: string | null = null): ToolCall | null {
    const id = c.id || `${this.format}:${line}:${++this.anonymous}`;
    if (this.calls.has(id)) return null; // written again (a resumed log repeats its history)
    const call: ToolCall = { id, name: c.name, input: c.input ?? null };
    if (c.rawArgs !== undefined) {
      call.rawArgs = c.rawArgs;
      if (c.input === undefined) {
        try {
          call.input = c.rawArgs.trim() === "" ? {} : JSON.parse(c.rawArgs);
        } catch (e) {
          call.argsError = (e as Error).message;
        }
      }
    }
    if (c.argsError !== undefined) call.argsError = c.argsError;
    this.response(line, timestamp, messageId).toolCalls.push(call);
    this.calls.set(id, call);
    return call;
  }

  /** A tool's result; `isError` is the format's structural flag (null: none, the text rules decide). */
  result(line: number, callId: string | null, content: string, isError: boolean | null, timestamp: string | null = null): ToolResult {
    this.open = null;
    const id = callId ?? "";
    const call = id ? this.calls.get(id) : undefined;
    if (!call) this.issues.push({ file: this.file, line, reason: `tool result without its tool call (id ${id || "missing"})` });
    const r: ToolResult = { toolUseId: id, content, isError, errorTag: content.includes(TOOL_ERROR_TAG), line };
    if (this.textError && isError === null && !r.errorTag && this.textError(content, call?.name)) r.errorText = true;
    const prev = this.turns[this.turns.length - 1];
    if (prev && prev.role === "user" && prev.text === "" && prev.toolResults.length > 0) prev.toolResults.push(r);
    else this.push("user", line, timestamp).toolResults.push(r);
    return r;
  }

  /** Token counts of the response being written (or of the last one). */
  usage(usage: { input_tokens?: number; output_tokens?: number }): void {
    const t = this.open ?? [...this.turns].reverse().find((x) => x.role === "assistant");
    if (t) t.usage = { ...(t.usage ?? {}), ...usage };
  }

  session(): Session | null {
    if (this.turns.length === 0) return null;
    const stats = Object.fromEntries(Object.entries(this.stats).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)));
    return { id: this.id, file: this.file, format: this.format, line: this.line, turns: this.turns, availableTools: this.availableTools, ...(Object.keys(stats).length ? { stats } : {}) };
  }
}

/** A number field, or undefined. */
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
export const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
