/**
 * Error-site detection over an ingested session (the seed's §5): an error tool result marks the
 * first assistant turn after it (in the same chain) that is not part of the erroring message with
 * tool_error = error_kind. Detection: the structural flag (is_error) first; the
 * "[TOOL_RESULT (ERROR)]" tag or a source's text rules only where a result has no flag; plus
 * structural call failures (unparseable arguments, a tool not among the declared ones). Trace-level
 * detectors add repeated_failure (same kind ≥3 in a row) and wasteful_action (an action repeated
 * with nothing changed in between).
 */
import { BEHAVIOR_DIM, READ_ONLY_TOOL, REFUSED_KINDS, classifyError } from "./classify.js";
import { headTail } from "./excerpt.js";
import { resultErrored } from "./text-errors.js";
import type { Chain, ErrorKind, ErrorSite, Session, ToolCall, ToolResult, TraceExample, Turn } from "./schema.js";

export interface SiteOptions {
  /** Turns in state_excerpt (default 3). */
  k?: number;
  /** Token budget of state_excerpt, ~4 characters a token (default 1500). */
  stateTokens?: number;
  /** Same-kind run length that makes a repeated_failure site (default 3). */
  repeatThreshold?: number;
}

const clip = (s: string, n: number): string => (s.length > n ? s.slice(0, n - 1) + "…" : s);

/** A tool call as text: its name and arguments (as written; a model repeats its own key order). */
export function actionSignature(call: ToolCall): string {
  return `${call.name}(${call.input === null && call.rawArgs !== undefined ? call.rawArgs : JSON.stringify(call.input)})`;
}

/** An assistant turn's own response (text and tool calls, as renderTurn lays them out, never
 *  clipped): the recovery text hint evaluation scores and the completion the collator trains on. */
export function assistantBody(t: Turn): string {
  return [t.text, ...t.toolCalls.map((c) => `→ ${actionSignature(c)}`)].filter(Boolean).join("\n");
}

/** Each errored result's kind, classified once (availableTools and findErrorSites both ask). */
const kindOf = new WeakMap<ToolResult, ErrorKind>();
function resultKind(r: ToolResult): ErrorKind {
  let k = kindOf.get(r);
  if (k === undefined) kindOf.set(r, (k = classifyError(r.content)));
  return k;
}

export function renderTurn(t: Turn): string {
  const parts = [t.text];
  for (const c of t.toolCalls) parts.push(`→ ${clip(actionSignature(c), 400)}`);
  for (const r of t.toolResults) parts.push(`← ${r.isError ? "[error] " : ""}${clip(r.content, 400)}`);
  return `${t.role}: ${parts.filter(Boolean).join("\n")}`;
}

/** The last k turns before `end` (exclusive), newest kept first when the budget binds. */
export function stateExcerpt(turns: Turn[], end: number, k = 3, tokens = 1500): string {
  const budget = tokens * 4;
  const out: string[] = [];
  let used = 0;
  for (let i = end - 1; i >= 0 && out.length < k; i--) {
    const r = renderTurn(turns[i]!);
    if (used + r.length > budget) {
      if (out.length === 0) out.push(clip(r.slice(r.length - budget), budget));
      break;
    }
    out.unshift(r);
    used += r.length;
  }
  return out.join("\n\n");
}

/** Tools this session shows it has: declared ones, else those it called without tool_not_found. */
export function availableTools(s: Session): string[] {
  if (s.availableTools.length) return s.availableTools;
  const bad = new Set<string>();
  const used = new Set<string>();
  const callsById = new Map<string, ToolCall>();
  for (const t of s.turns) for (const c of t.toolCalls) callsById.set(c.id, c);
  for (const t of s.turns)
    for (const r of t.toolResults) {
      const c = callsById.get(r.toolUseId);
      if (!c) continue;
      if (resultErrored(r) && resultKind(r) === "tool_not_found") bad.add(c.name);
      else used.add(c.name);
    }
  return [...used].filter((n) => !bad.has(n)).sort();
}

/** A cheap stand-in for a call's arguments: a hash of their shape, lengths and a few sampled
 *  characters of each string (no text built). Calls whose stand-ins differ cannot have equal
 *  signatures, so most never need one. */
function argKey(v: unknown, h = 7): number {
  if (typeof v === "string") {
    h = (Math.imul(h, 31) + v.length) | 0;
    for (let i = 0, step = Math.max(1, v.length >> 3); i < v.length; i += step) h = (Math.imul(h, 31) + v.charCodeAt(i)) | 0;
    return h;
  }
  if (v === null || typeof v !== "object") return (Math.imul(h, 31) + String(v).length + (typeof v === "number" ? v : 0)) | 0;
  if (Array.isArray(v)) {
    for (const x of v) h = argKey(x, (Math.imul(h, 17) + 1) | 0);
    return h;
  }
  for (const k in v as Record<string, unknown>) h = argKey((v as Record<string, unknown>)[k], argKey(k, h));
  return h;
}

/** The latest sighting of each action (by signature), computing a signature (JSON text of the
 *  arguments, which for a Write is the whole file) only when another call of that tool and size exists. */
class SeenActions {
  private readonly by = new Map<string, { call: ToolCall; sig: string | null; seen: Seen }[]>();
  private static pre(call: ToolCall): string {
    return `${call.name}\u0000${call.input === null && call.rawArgs !== undefined ? argKey(call.rawArgs) : argKey(call.input)}`;
  }
  private find(call: ToolCall): { list: { call: ToolCall; sig: string | null; seen: Seen }[]; at: number } {
    const list = this.by.get(SeenActions.pre(call)) ?? [];
    if (list.length === 0) return { list, at: -1 };
    const sig = actionSignature(call);
    return { list, at: list.findIndex((e) => (e.sig ??= actionSignature(e.call)) === sig) };
  }
  get(call: ToolCall): Seen | undefined {
    const { list, at } = this.find(call);
    return at >= 0 ? list[at]!.seen : undefined;
  }
  set(call: ToolCall, seen: Seen): void {
    const key = SeenActions.pre(call);
    const { list, at } = this.find(call);
    if (at >= 0) list[at] = { call, sig: list[at]!.sig, seen };
    else if (list.length) list.push({ call, sig: actionSignature(call), seen });
    else this.by.set(key, [{ call, sig: null, seen }]);
  }
  /** Drops the action's sighting if it is still `seen` (a cancelled call never ran). */
  forget(call: ToolCall, seen: Seen): void {
    const { list, at } = this.find(call);
    if (at >= 0 && list[at]!.seen === seen) list.splice(at, 1);
  }
}

/** What the session looked like when a call was made, to tell a repeat with nothing changed. */
interface Seen {
  turn: Turn;
  /** Workspace changes so far (calls that could change files or processes and were not refused). */
  changes: number;
  /** Successful results so far (anything the agent could have learned from). */
  learned: number;
  failed: boolean;
}

export function findErrorSites(s: Session, opts: SiteOptions = {}): ErrorSite[] {
  const k = opts.k ?? 3;
  const stateTokens = opts.stateTokens ?? 1500;
  const threshold = opts.repeatThreshold ?? 3;
  let tools: string[] | undefined; // worked out at the first site
  const declared = new Set(s.availableTools);
  const sites: ErrorSite[] = [];
  const chains: Chain[] = ["main", "sidechain", "branch"];
  const linkOf = new Map((s.subagents ?? []).map((a) => [a.agentId, a]));
  // Each chain is read on its own, and each subagent's transcript within it on its own: a
  // subagent's recovery, repeats and waste are its own, never another agent's.
  const threads: { chain: Chain; agentId: string | null; turns: Turn[] }[] = [];
  for (const chain of chains) {
    const byAgent = new Map<string | null, Turn[]>();
    for (const t of s.turns) {
      if (t.chain !== chain) continue;
      const a = t.agentId ?? null;
      if (!byAgent.has(a)) byAgent.set(a, []);
      byAgent.get(a)!.push(t);
    }
    for (const [agentId, turns] of byAgent) threads.push({ chain, agentId, turns });
  }
  for (const { chain, agentId, turns } of threads) {
    const link = agentId ? linkOf.get(agentId) : undefined;
    const file = link?.file ?? s.file;
    const agentFields = agentId ? { agent_id: agentId, parent_call_id: link?.parentCallId ?? null } : {};
    const callsById = new Map<string, { call: ToolCall; turn: Turn; seen: Seen }>();
    let run: { kind: ErrorKind; n: number; last: ErrorSite } | null = null;
    const seen = new SeenActions();
    let changes = 0;
    let learned = 0;
    /** The first assistant turn after position `from` that is not the erroring message itself. */
    const recoveryAfter = (from: number, erroring: Turn | undefined): Turn | undefined => {
      for (let i = from + 1; i < turns.length; i++) if (turns[i]!.role === "assistant" && turns[i] !== erroring) return turns[i];
      return undefined;
    };
    const base = (turnPos: number, recovery: Turn | undefined, line: number) => ({
      session_id: s.id, file, line, chain, ...agentFields, error_turn_index: turns[turnPos]!.index, available_tools: (tools ??= availableTools(s)),
      turn_index: recovery?.index ?? -1,
      has_recovery: !!recovery && (recovery.text.trim() !== "" || recovery.toolCalls.length > 0),
      state_excerpt: stateExcerpt(turns, turnPos + 1, k, stateTokens),
    });
    const closeRun = () => {
      if (run && run.n >= threshold) {
        sites.push({ ...run.last, error_kind: "repeated_failure", behavior_dim: BEHAVIOR_DIM.repeated_failure, repeat_count: run.n, error_message: `${run.kind} ${run.n} times in a row: ${clip(run.last.error_message, 300)}` });
      }
      run = null;
    };
    turns.forEach((turn, pos) => {
      for (const call of turn.toolCalls) {
        // wasteful_action: the same action again with nothing changed since. After a success that
        // means no workspace change; after a failure, not even a successful call to learn from (a
        // Read between a refused Edit and the same Edit is the fix, not waste).
        const prior = seen.get(call);
        if (prior && prior.changes === changes && (!prior.failed || prior.learned === learned)) {
          sites.push({
            ...base(pos, turn, turn.line), turn_index: turn.index, has_recovery: true,
            error_kind: "wasteful_action", behavior_dim: BEHAVIOR_DIM.wasteful_action,
            error_message: `repeats turn ${prior.turn.index}: ${clip(actionSignature(call), 300)}`, tool_name: call.name,
            erroring_action: clip(actionSignature(call), 1000), repeat_count: 2, source_excerpt: clip(actionSignature(call), 200),
            state_excerpt: stateExcerpt(turns, pos, k, stateTokens),
          });
        }
        const entry: Seen = { turn, changes, learned, failed: false };
        seen.set(call, entry);
        callsById.set(call.id, { call, turn, seen: entry });
      }
      for (const result of turn.toolResults) {
        const found = callsById.get(result.toolUseId);
        const call = found?.call;
        let kind: ErrorKind | null = null;
        if (call?.argsError !== undefined) kind = "malformed_args";
        else if (call && declared.size > 0 && call.name && !declared.has(call.name)) kind = "tool_not_found";
        else if (resultErrored(result)) kind = resultKind(result);
        if (found && kind === "sibling_cascade") {
          // The call never ran: issuing it again later is not a repeat.
          seen.forget(found.call, found.seen);
        } else if (found) {
          // What this result did to the session, as of right after it.
          if (!kind) learned++;
          if (!READ_ONLY_TOOL.test(found.call.name) && !(kind && REFUSED_KINDS.has(kind))) changes++;
          // "not read yet" / "modified since read": the file changed outside the agent's view (or its
          // read expired), so reading it again is the fix, not a repeat
          if (kind === "file_not_read") changes++;
          Object.assign(found.seen, { changes, learned, failed: kind !== null });
        }
        // Runs count consecutive ERRORS: a success in between (e.g. an edit) does not reset them,
        // an error of another kind does. A cascade is not an error of its own.
        if (!kind) continue;
        const message = call?.argsError !== undefined ? `${call.argsError}${result.content ? `\n${result.content}` : ""}` : result.content;
        const site: ErrorSite = {
          ...base(pos, recoveryAfter(pos, found?.turn), result.line ?? turn.line),
          error_kind: kind, behavior_dim: BEHAVIOR_DIM[kind], error_message: message,
          tool_name: call?.name ?? null, erroring_action: call ? clip(actionSignature(call), 1000) : "",
          repeat_count: 1, source_excerpt: headTail(message, 200),
        };
        sites.push(site);
        if (kind === "sibling_cascade") continue;
        if (run && run.kind === kind) run.n++;
        else {
          closeRun();
          run = { kind, n: 1, last: site };
        }
        site.repeat_count = run!.n;
        run!.last = site;
      }
    });
    closeRun();
  }
  return sites;
}

/** One node per assistant turn, with tool_error set on turns that follow an errored result. */
export function traceExamples(s: Session, sites: ErrorSite[] = findErrorSites(s)): TraceExample[] {
  const errorAt = new Map<number, ErrorSite>();
  // A cascade only marks a turn when nothing else errored before it.
  for (const site of sites) if (site.error_kind !== "wasteful_action" && site.error_kind !== "repeated_failure" && site.error_kind !== "sibling_cascade" && !errorAt.has(site.turn_index)) errorAt.set(site.turn_index, site);
  for (const site of sites) if (site.error_kind === "sibling_cascade" && !errorAt.has(site.turn_index)) errorAt.set(site.turn_index, site);
  return s.turns
    .filter((t) => t.role === "assistant")
    .map((t) => ({
      session_id: s.id, turn_index: t.index, chain: t.chain, text: t.text, thinking: t.thinking, tool_calls: t.toolCalls,
      tool_error: errorAt.get(t.index)?.error_kind ?? null, behavior_dim: errorAt.get(t.index)?.behavior_dim ?? null,
    }));
}

/**
 * A site's session and the turns around it, in one call (for the REPL and notebooks): the k turns
 * before the errored result, that turn, and the recovery, within the site's own chain and agent.
 */
export function siteTurns(sessions: (Session | { session: Session })[], site: ErrorSite, k = 3): { session: Session; turns: Turn[] } {
  const all = sessions.map((x) => ("session" in x ? x.session : x));
  const session = all.find((x) => x.id === site.session_id && (x.file === site.file || (x.subagents ?? []).some((a) => a.file === site.file))) ?? all.find((x) => x.id === site.session_id);
  if (!session) throw new Error(`no session ${site.session_id} among the ${all.length} given`);
  const thread = session.turns.filter((t) => t.chain === site.chain && (t.agentId ?? null) === (site.agent_id ?? null));
  const at = thread.findIndex((t) => t.index === (site.error_turn_index ?? site.turn_index));
  const end = Math.max(at, thread.findIndex((t) => t.index === site.turn_index));
  return { session, turns: at < 0 ? [] : thread.slice(Math.max(0, at - k), end + 1) };
}
