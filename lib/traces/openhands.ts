/**
 * OpenHands event streams. The layouts that occur: a conversation's file store
 * (`sessions/<id>/events/<n>.json`, one event a file), a trajectory export (a JSON array of events,
 * or `{history: [...]}`), and evaluation output (`output.jsonl`, one instance a line with
 * `instance_id`, `history`, `metrics`). Events are the legacy CodeAct shapes —
 * `{id, source, action, args, tool_call_metadata}` actions and `{id, cause, observation, content,
 * extras}` observations — or the V1 SDK's `{kind: "ActionEvent" | "ObservationEvent" |
 * "MessageEvent" | "AgentErrorEvent" | ...}`.
 *
 * An action is a tool call of the agent's response (actions of one model response, by
 * tool_call_metadata.model_response.id, form one turn); its observation (by `cause`, or by tool
 * call id) is the result. Errors: an `error` observation, `success: false`, a non-zero exit code
 * (extras.metadata.exit_code, or extras.exit_code in older streams), AgentErrorEvent, a user's
 * rejection; else the format's text rules.
 */
import { SessionBuilder, num, obj, str } from "./builder.js";
import type { ReadOptions } from "./claude.js";
import { contentText } from "./lines.js";
import type { IngestIssue, Session } from "./schema.js";

type Ev = Record<string, unknown>;

/** Whether a JSON value is an OpenHands event. */
export function isOpenHandsEvent(v: unknown): boolean {
  const e = obj(v);
  if (!e) return false;
  if (typeof e.kind === "string" && /^(?:Action|Observation|Message|AgentError|SystemPrompt|UserReject|Condensation\w*|ConversationStateUpdate|Pause)Event$|^UserRejectObservation$/.test(e.kind)) return true;
  return typeof e.id === "number" && (typeof e.action === "string" || typeof e.observation === "string") && ("source" in e || "timestamp" in e || "cause" in e);
}

/** Whether a JSON document (array or object) holds an OpenHands event list. */
export function openHandsEvents(doc: unknown): Ev[] | null {
  const list = Array.isArray(doc) ? doc : Array.isArray(obj(doc)?.history) ? (obj(doc)!.history as unknown[]) : null;
  if (!list || list.length === 0) return null;
  return list.slice(0, 20).some(isOpenHandsEvent) ? (list as Ev[]) : null;
}

/** Actions that are not tool calls: what the agent or the system says, or bookkeeping. */
const SAYING = new Set(["message", "system", "think", "finish", "recall", "condensation", "condensation_request", "change_agent_state", "null", "pause", "resume", "reject"]);
/** Observations that answer no call. */
const BOOKKEEPING = new Set(["agent_state_changed", "recall", "null", "condense", "agent_condensation", "success"]);

const text1 = (v: unknown): string => (Array.isArray(v) ? contentText(v) : typeof v === "string" ? v : v == null ? "" : contentText(v));

/** Reads one event list as one session. `lines` gives each event's source line (or file index). */
export function readOpenHandsEvents(file: string, id: string, events: Ev[], opts: ReadOptions, issues: IngestIssue[], lines?: number[], at = 1): Session | null {
  const b = new SessionBuilder(file, "openhands", id, opts, issues, at);
  /** call id of each action event id */
  const callOfAction = new Map<number, string>();
  events.forEach((e, i) => {
    const line = lines?.[i] ?? at;
    if (!obj(e)) {
      issues.push({ file, line, reason: `event ${i} is not an object` });
      return;
    }
    const ts = str(e.timestamp);
    const metrics = obj(e.llm_metrics) ?? obj(obj(e.metrics));
    if (metrics) {
      b.stats.cost_usd = num(metrics.accumulated_cost) ?? b.stats.cost_usd;
      const usage = obj(metrics.accumulated_token_usage);
      if (usage) {
        b.stats.input_tokens = num(usage.prompt_tokens) ?? b.stats.input_tokens;
        b.stats.output_tokens = num(usage.completion_tokens) ?? b.stats.output_tokens;
      }
    }
    if (typeof e.kind === "string") return v1Event(b, e, line, ts);
    const action = str(e.action);
    const observation = str(e.observation);
    const args = obj(e.args) ?? {};
    if (action) {
      const meta = obj(e.tool_call_metadata);
      const responseId = str(obj(meta?.model_response)?.id);
      if (action === "system") b.say("system", text1(args.content ?? e.message), line, ts);
      else if (action === "message") {
        const body = text1(args.content ?? e.message);
        if (e.source === "user") b.say("user", body, line, ts);
        else {
          b.endResponse();
          b.text(line, body, ts, responseId);
          b.endResponse();
        }
      } else if (action === "think") b.text(line, text1(args.thought ?? e.message), ts, responseId);
      else if (action === "finish") b.text(line, text1(args.final_thought ?? args.thought ?? args.outputs ?? e.message), ts, responseId);
      else if (!SAYING.has(action)) {
        if (typeof args.thought === "string" && args.thought) b.text(line, args.thought, ts, responseId);
        const { thought: _thought, ...input } = args;
        void _thought;
        const call = b.call(line, { id: str(meta?.tool_call_id) ?? `openhands:${String(e.id)}`, name: str(meta?.function_name) ?? action, input }, ts, responseId);
        if (call && typeof e.id === "number") callOfAction.set(e.id, call.id);
      }
      return;
    }
    if (observation) {
      if (BOOKKEEPING.has(observation)) return;
      const cause = num(e.cause);
      const callId = (cause !== undefined ? callOfAction.get(cause) : undefined) ?? str(obj(e.tool_call_metadata)?.tool_call_id);
      const extras = obj(e.extras) ?? {};
      const exit = num(obj(extras.metadata)?.exit_code) ?? num(extras.exit_code);
      let isError: boolean | null = null;
      if (observation === "error" || observation === "user_rejected" || e.success === false) isError = true;
      else if (exit !== undefined && exit >= 0) isError = exit !== 0;
      else if (e.success === true) isError = false;
      const body = text1(e.content ?? e.message);
      if (!callId && observation !== "error") {
        issues.push({ file, line, reason: `observation "${observation}" answers no action (cause ${cause ?? "missing"})` });
        return;
      }
      if (!callId) b.say("system", body, line, ts); // an error the runtime raised outside any call
      else b.result(line, callId, observation === "user_rejected" ? `The user rejected this action. ${body}`.trim() : body, isError, ts);
      return;
    }
    issues.push({ file, line, reason: `event ${String(e.id ?? i)} is neither an action nor an observation` });
  });
  return b.session();
}

/** The V1 SDK's events. */
function v1Event(b: SessionBuilder, e: Ev, line: number, ts: string | null): void {
  const kind = e.kind as string;
  if (kind === "SystemPromptEvent") b.say("system", text1(obj(e.system_prompt)?.text ?? e.system_prompt), line, ts);
  else if (kind === "MessageEvent") {
    const m = obj(e.llm_message) ?? {};
    const body = text1(m.content);
    if (e.source === "user" || m.role === "user") b.say("user", body, line, ts);
    else {
      b.endResponse();
      b.text(line, body, ts);
      b.endResponse();
    }
  } else if (kind === "ActionEvent") {
    const responseId = str(e.llm_response_id);
    const thought = text1(e.thought);
    if (thought) b.text(line, thought, ts, responseId);
    if (typeof e.reasoning_content === "string") b.thinking(line, e.reasoning_content, ts);
    const action = obj(e.action);
    const { kind: _k, ...input } = action ?? {};
    void _k;
    b.call(line, { id: str(e.tool_call_id) ?? str(e.id), name: str(e.tool_name) ?? str(action?.kind) ?? "", input }, ts, responseId);
  } else if (kind === "ObservationEvent") {
    const o = obj(e.observation) ?? {};
    const exit = num(o.exit_code) ?? num(obj(o.metadata)?.exit_code);
    const isError = o.is_error === true || o.error === true || (typeof o.error === "string" && o.error !== "") ? true : exit !== undefined && exit >= 0 ? exit !== 0 : o.is_error === false ? false : null;
    b.result(line, str(e.tool_call_id), text1(o.content ?? o.output ?? o.text), isError, ts);
  } else if (kind === "AgentErrorEvent") {
    const id = str(e.tool_call_id);
    if (id) b.result(line, id, text1(e.error), true, ts);
    else b.say("system", `error: ${text1(e.error)}`, line, ts);
  } else if (kind === "CondensationSummaryEvent") b.say("summary", text1(e.summary), line, ts);
  else if (kind === "UserRejectObservation") b.result(line, str(e.tool_call_id), `The user rejected this action. ${text1(e.rejection_reason)}`.trim(), true, ts);
}
