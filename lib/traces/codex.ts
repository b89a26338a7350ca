/**
 * Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl): one JSON line per
 * item, `{timestamp, type, payload}` with type session_meta | response_item | event_msg |
 * turn_context | compacted. Older rollouts (before the wrapper) start with a bare
 * `{id, timestamp, instructions}` line and write response items unwrapped, with `record_type`
 * state lines between them. Both are read.
 *
 * response_item payloads: message (role user / assistant / developer; content parts input_text /
 * output_text), reasoning (summary parts; content when not encrypted), function_call (name,
 * arguments as JSON text, call_id) and function_call_output (call_id, output: text, or JSON text
 * `{output, metadata: {exit_code}}`), custom_tool_call / custom_tool_call_output (apply_patch's
 * freeform input), local_shell_call, web_search_call, compaction (encrypted: a summary turn that says
 * so), ghost_snapshot (the harness's git snapshot: skipped). An output is a string or a list of
 * input_text / input_image items (codex-rs/protocol models.rs). event_msg carries token_count, turn_aborted,
 * exec_command_end (the exit code of a call), patch_apply_end, error. A file may hold a resumed
 * session (a second session_meta with another id): one session, its ids in stats.other_ids, items
 * repeated from the earlier session read once (by call id).
 *
 * Errors: the structural exit code (metadata.exit_code, exec_command_end, "Exit code: N" /
 * "Process exited with code N" headers Codex itself writes), else the format's text rules.
 */
import { basename } from "node:path";
import type { ReadOptions } from "./claude.js";
import { SessionBuilder, num, obj, str } from "./builder.js";
import { contentText, parseRecord, readRecords } from "./lines.js";
import type { IngestIssue, Session } from "./schema.js";

const WRAPPED = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);
const ITEM_TYPES = new Set(["message", "reasoning", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "local_shell_call", "web_search_call", "ghost_snapshot", "compaction", "compaction_summary"]);

/** Whether a parsed line is a Codex rollout record (wrapped, or an early rollout's bare item / header). */
export function isCodexRecord(r: Record<string, unknown>): boolean {
  if (typeof r.type === "string" && WRAPPED.has(r.type) && obj(r.payload)) return true;
  if (typeof r.record_type === "string") return true;
  if (typeof r.type === "string" && ITEM_TYPES.has(r.type) && !("uuid" in r) && !("sessionId" in r)) {
    if (r.type === "message") return Array.isArray(r.content) && (r.content as unknown[]).some((c) => /^(?:input|output)_text$/.test(String(obj(c)?.type)));
    return "call_id" in r || r.type === "reasoning";
  }
  return false;
}

/** Codex's own header on a shell call's output: "Exit code: 1" (shell) or "Process exited with code 1" (exec_command). */
const EXIT_HEADER = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m;

/** A call output's text and its structural exit status, from the shapes Codex has written. */
function callOutput(output: unknown): { text: string; exit: number | null; success: boolean | null } {
  let text: string;
  let exit: number | null = null;
  let success: boolean | null = null;
  const o = obj(output);
  if (typeof output === "string") {
    text = output;
    if (output.startsWith("{")) {
      const p = parseRecord(output);
      if (p.ok && ("output" in p.value || "metadata" in p.value)) {
        text = contentText(p.value.output);
        exit = num(obj(p.value.metadata)?.exit_code) ?? null;
      }
    }
  } else if (o) {
    text = contentText(o.content ?? o.output);
    if (typeof o.success === "boolean") success = o.success;
  } else text = contentText(output);
  if (exit === null) {
    const m = EXIT_HEADER.exec(text.slice(0, 400));
    if (m) exit = Number(m[1]);
  }
  return { text, exit, success };
}

export async function* readCodexRollout(file: string, opts: ReadOptions = {}, issues: IngestIssue[] = []): AsyncGenerator<Session> {
  const b = new SessionBuilder(file, "codex", basename(file, ".jsonl").replace(/^rollout-/, ""), opts, issues);
  const ids: string[] = [];
  /** exit codes reported by exec_command_end / patch_apply_end, by call id */
  const exitOf = new Map<string, number>();
  const seenOutputs = new Set<string>();
  let any = false;
  for await (const { line, value: r } of readRecords(file, issues)) {
    const ts = str(r.timestamp);
    let type = str(r.type);
    let payload = obj(r.payload);
    if (!(type && WRAPPED.has(type) && payload)) {
      // an early rollout: header line, state lines, bare items
      if (typeof r.record_type === "string") continue;
      if (!type && typeof r.id === "string") {
        type = "session_meta";
        payload = r;
      } else {
        payload = r;
        type = type && ITEM_TYPES.has(type) ? "response_item" : type;
      }
    }
    any = true;
    if (type === "session_meta") {
      const id = str(payload!.id) ?? str(obj(payload!.meta)?.id);
      if (id && !ids.includes(id)) ids.push(id);
      const instructions = str(payload!.instructions) ?? str(obj(payload!.base_instructions)?.text);
      if (instructions && ids.length === 1) b.say("system", instructions, line, ts);
      continue;
    }
    if (type === "turn_context") {
      b.stats.model ??= str(payload!.model) ?? undefined;
      continue;
    }
    if (type === "compacted") {
      b.say("summary", contentText(payload!.message ?? payload!.summary ?? ""), line, ts);
      continue;
    }
    if (type === "event_msg") {
      const e = payload!;
      const et = str(e.type);
      if (et === "token_count") {
        const total = obj(obj(e.info)?.total_token_usage);
        const last = obj(obj(e.info)?.last_token_usage);
        if (total) {
          b.stats.input_tokens = num(total.input_tokens);
          b.stats.output_tokens = num(total.output_tokens);
        }
        if (last) b.usage({ input_tokens: num(last.input_tokens), output_tokens: num(last.output_tokens) });
      } else if (et === "turn_aborted") b.say("system", `turn aborted: ${str(e.reason) ?? "unknown reason"}`, line, ts);
      else if (et === "exec_command_end" || et === "patch_apply_end") {
        const id = str(e.call_id);
        const code = et === "exec_command_end" ? num(e.exit_code) : typeof e.success === "boolean" ? (e.success ? 0 : 1) : undefined;
        if (id && code !== undefined) exitOf.set(id, code);
      } else if (et === "error" || et === "stream_error") b.say("system", `error: ${str(e.message) ?? ""}`, line, ts);
      continue;
    }
    if (type !== "response_item") {
      issues.push({ file, line, reason: `unknown record type "${type ?? ""}"` });
      continue;
    }
    const it = payload!;
    const itype = str(it.type);
    if (itype === "message") {
      const role = str(it.role);
      const body = contentText(it.content);
      if (role === "assistant") b.text(line, body, ts, str(it.id));
      else if (role === "user") {
        // Codex injects its context as user messages: that is the harness speaking, not the user
        const injected = /^\s*<(?:environment_context|user_instructions|INSTRUCTIONS)>|^# AGENTS\.md instructions/.test(body);
        b.say(injected ? "system" : "user", body, line, ts);
      } else b.say("system", body, line, ts);
    } else if (itype === "reasoning") {
      const parts = [...(Array.isArray(it.summary) ? it.summary : []), ...(Array.isArray(it.content) ? it.content : [])];
      b.thinking(line, contentText(parts), ts);
    } else if (itype === "function_call") {
      const name = str(it.name) ?? "";
      const args = it.arguments;
      b.call(line, typeof args === "string" ? { id: str(it.call_id), name, rawArgs: args } : { id: str(it.call_id), name, input: args ?? null }, ts, str(it.id));
    } else if (itype === "custom_tool_call") {
      b.call(line, { id: str(it.call_id), name: str(it.name) ?? "", input: typeof it.input === "string" ? { input: it.input } : (it.input ?? null) }, ts, str(it.id));
    } else if (itype === "local_shell_call") {
      b.call(line, { id: str(it.call_id) ?? str(it.id), name: "local_shell", input: it.action ?? null }, ts);
    } else if (itype === "web_search_call") {
      b.call(line, { id: str(it.id), name: "web_search", input: it.action ?? null }, ts);
    } else if (itype === "function_call_output" || itype === "custom_tool_call_output") {
      const id = str(it.call_id);
      if (id && seenOutputs.has(id)) continue; // a resumed session's replayed history
      if (id) seenOutputs.add(id);
      const out = callOutput(it.output);
      const exit = out.exit ?? (id ? (exitOf.get(id) ?? null) : null);
      const isError = exit !== null ? exit !== 0 : out.success !== null ? !out.success : null;
      b.result(line, id, out.text, isError, ts);
    } else if (itype === "compaction" || itype === "compaction_summary") {
      b.say("summary", "(the conversation so far, compacted by the model: encrypted)", line, ts);
    } else if (itype === "ghost_snapshot" || itype === "other") {
      // the harness's own bookkeeping (a git snapshot), not conversation
    } else issues.push({ file, line, reason: `unknown response item "${itype ?? ""}"` });
  }
  if (!any) return;
  if (ids.length) b.id = ids[0]!;
  if (ids.length > 1) b.stats.other_ids = ids.slice(1);
  const s = b.session();
  if (s) yield s;
}
