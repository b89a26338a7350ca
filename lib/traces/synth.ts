/**
 * Writers for trace files in both formats, used to author datasets/traces/ (scripts/make-trace-
 * datasets.ts) and to grow large corpora for benchmarks. Deterministic: ids come from a counter.
 */
export type Block = Record<string, unknown>;

/** Builds a Claude Code session file record by record, threading parentUuid like Claude Code. */
export class ClaudeSessionWriter {
  readonly lines: string[] = [];
  private n = 0;
  private msg = 0;
  private tool = 0;
  private last: string | null = null;
  private clock: number;
  sidechain = false;

  constructor(readonly sessionId: string, readonly cwd = "/home/dev/project", start = Date.UTC(2026, 9, 1, 9, 0, 0), readonly version = "2.0.14") {
    this.clock = start;
  }

  private uuid(): string {
    const h = (this.sessionId + ":" + ++this.n).split("").reduce((a, c) => (Math.imul(a ^ c.charCodeAt(0), 16777619) >>> 0), 2166136261).toString(16).padStart(8, "0");
    const c = this.n.toString(16).padStart(12, "0");
    return `${h}-${c.slice(0, 4)}-4${c.slice(4, 7)}-8${c.slice(7, 10)}-${c.padStart(12, "0")}`;
  }

  private rec(type: string, extra: Record<string, unknown>, parent: string | null = this.last): string {
    const uuid = this.uuid();
    this.clock += 1500;
    this.lines.push(JSON.stringify({ parentUuid: parent, isSidechain: this.sidechain, userType: "external", cwd: this.cwd, sessionId: this.sessionId, version: this.version, gitBranch: "main", type, uuid, timestamp: new Date(this.clock).toISOString(), ...extra }));
    this.last = uuid;
    return uuid;
  }

  /** The uuid of the last record (to branch from it later). */
  get head(): string | null {
    return this.last;
  }
  set head(u: string | null) {
    this.last = u;
  }

  user(text: string): this {
    this.rec("user", { message: { role: "user", content: text } });
    return this;
  }

  /** One assistant message; Claude Code writes one record per content block, sharing message.id. */
  assistant(parts: { thinking?: string; text?: string; tools?: { name: string; input: unknown }[] }): string[] {
    const id = `msg_01${(++this.msg).toString().padStart(20, "0")}`;
    const blocks: Block[] = [];
    if (parts.thinking) blocks.push({ type: "thinking", thinking: parts.thinking, signature: "sig" });
    if (parts.text) blocks.push({ type: "text", text: parts.text });
    const ids: string[] = [];
    for (const t of parts.tools ?? []) {
      const tid = `toolu_01${(++this.tool).toString().padStart(20, "0")}`;
      ids.push(tid);
      blocks.push({ type: "tool_use", id: tid, name: t.name, input: t.input });
    }
    for (const b of blocks) {
      this.rec("assistant", { requestId: `req_${this.msg}`, message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [b], stop_reason: b.type === "tool_use" ? "tool_use" : null, usage: { input_tokens: 1200, output_tokens: 80 } } });
    }
    return ids;
  }

  /**
   * One API message with parallel tool calls, written as Claude Code 2.x writes it: a record per
   * content block, each tool call followed by its progress records and its result before the next
   * call's record (all sharing message.id, each record's parent the one before). Returns the ids.
   */
  message(parts: { thinking?: string; text?: string; tools: { name: string; input: unknown; output: string; isError?: boolean; progress?: Record<string, unknown>[] }[] }): string[] {
    const id = `msg_01${(++this.msg).toString().padStart(20, "0")}`;
    const write = (b: Block) =>
      this.rec("assistant", { requestId: `req_${this.msg}`, message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [b], stop_reason: b.type === "tool_use" ? "tool_use" : null, usage: { input_tokens: 1200, output_tokens: 80 } } });
    if (parts.thinking) write({ type: "thinking", thinking: parts.thinking, signature: "sig" });
    if (parts.text) write({ type: "text", text: parts.text });
    const ids: string[] = [];
    for (const t of parts.tools) {
      const tid = `toolu_01${(++this.tool).toString().padStart(20, "0")}`;
      ids.push(tid);
      write({ type: "tool_use", id: tid, name: t.name, input: t.input });
      for (const data of t.progress ?? []) this.progress(tid, data);
      this.result(tid, t.output, t.isError ?? false);
    }
    return ids;
  }

  /** A progress record (bash output so far, a hook running): it sits in the parentUuid chain. */
  progress(toolUseId: string, data: Record<string, unknown>): this {
    this.rec("progress", { data, toolUseID: toolUseId, parentToolUseID: toolUseId });
    return this;
  }

  result(toolUseId: string, content: string, isError = false): this {
    this.rec("user", { message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) }] }, toolUseResult: isError ? `Error: ${content.slice(0, 80)}` : { stdout: content.slice(0, 80) } });
    return this;
  }

  /** A call and its result in one go; returns the tool id. */
  act(name: string, input: unknown, output: string, isError = false, text?: string): string {
    const [id] = this.assistant({ text, tools: [{ name, input }] });
    this.result(id!, output, isError);
    return id!;
  }

  /** A compaction: Claude Code writes a summary record and restarts the chain at a boundary. */
  compact(summary: string): this {
    this.lines.push(JSON.stringify({ type: "summary", summary, leafUuid: this.last }));
    const prev = this.last;
    this.rec("system", { subtype: "compact_boundary", content: "Conversation compacted", logicalParentUuid: prev, level: "info" }, null);
    return this;
  }

  snapshot(): this {
    this.lines.push(JSON.stringify({ type: "file-history-snapshot", messageId: this.uuid(), snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false }));
    return this;
  }

  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

/** Builds chat-format trajectories (OpenAI-style messages with tool_calls). */
export class ChatTrajectoryWriter {
  readonly messages: Record<string, unknown>[] = [];
  private calls = 0;
  constructor(readonly id: string, readonly tools: string[], system = "You are a coding agent working in a Python repository. Use the tools to inspect and change files.") {
    this.messages.push({ role: "system", content: system });
  }
  user(content: string): this {
    this.messages.push({ role: "user", content });
    return this;
  }
  say(content: string): this {
    this.messages.push({ role: "assistant", content });
    return this;
  }
  /** An assistant tool call (args as JSON text, or a raw string that may not parse) and its result. */
  call(name: string, args: unknown, output: string, opts: { isError?: boolean; text?: string; rawArgs?: string } = {}): this {
    const id = `call_${this.id}_${++this.calls}`;
    this.messages.push({ role: "assistant", content: opts.text ?? "", tool_calls: [{ id, type: "function", function: { name, arguments: opts.rawArgs ?? JSON.stringify(args) } }] });
    this.messages.push({ role: "tool", tool_call_id: id, name, content: output, ...(opts.isError !== undefined ? { is_error: opts.isError } : {}) });
    return this;
  }
  line(): string {
    return JSON.stringify({ id: this.id, tools: this.tools.map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } })), messages: this.messages });
  }
}
