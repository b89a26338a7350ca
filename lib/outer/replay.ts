/**
 * Teacher replay (systems-framing.md: teacher_replay.py's replay_trace + extract_dpo_pairs, a flat
 * star hung off a frozen trace): for each error site lib/traces finds, the state is the trace's
 * messages before the assistant turn that made the erroring call; N teachers answer that state, and
 * extractDpoPairs pairs the teachers' consensus (chosen) against the trace's own action (rejected)
 * → dpo_pairs with the full state messages.
 */
import { createHash } from "node:crypto";
import pLimit from "p-limit";
import { collect, actionSignature, type ErrorSite, type Session, type Turn } from "../traces/index.js";
import { HeldoutViolation, RunLayout, type Store } from "../store/index.js";
import { ENV_TOOLS } from "./actions.js";
import type { ChatMessage, Completion, ModelClient } from "./models.js";
import { DedupWriter } from "./routing.js";

/** An answer as DPO compares it: its text, then each tool call as `→ name(args)` (lib/traces' signature). */
export function answerText(content: string, calls: { name: string; arguments: string }[]): string {
  const sig = (c: { name: string; arguments: string }) => {
    let input: unknown = null;
    try {
      input = JSON.parse(c.arguments);
    } catch {
      /* kept raw */
    }
    return actionSignature({ id: "", name: c.name, input, ...(input === null ? { rawArgs: c.arguments } : {}) });
  };
  return [content.trim(), ...calls.map((c) => `→ ${sig(c)}`)].filter(Boolean).join("\n");
}

/** A session's turns (before `end`) as chat messages: assistant turns with their tool calls, their results as tool messages. */
export function sessionMessages(turns: Turn[], end: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const t of turns.slice(0, end)) {
    if (t.role === "assistant") {
      const calls = t.toolCalls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.input ?? {}) } }));
      out.push({ role: "assistant", content: t.text, ...(calls.length ? { tool_calls: calls } : {}) });
    } else if (t.role === "user" || t.role === "system") {
      if (t.text.trim()) out.push({ role: t.role, content: t.text });
    }
    for (const r of t.toolResults) out.push({ role: "tool", tool_call_id: r.toolUseId, content: r.content, ...(r.isError ? { is_error: true } : {}) });
  }
  return out;
}

/** The state and the trace's own action at an error site: the assistant turn that made the erroring call. */
export function siteState(s: Session, site: ErrorSite): { messages: ChatMessage[]; action: string; turn: number } | null {
  const turns = s.turns.filter((t) => t.chain === site.chain);
  const recovery = turns.findIndex((t) => t.index === site.turn_index);
  const upto = recovery < 0 ? turns.length : recovery;
  let at = -1;
  for (let i = upto - 1; i >= 0 && at < 0; i--) {
    const t = turns[i]!;
    if (t.role === "assistant" && (t.toolCalls.some((c) => site.erroring_action.startsWith(actionSignature(c).slice(0, 200))) || (!site.erroring_action && t.toolCalls.length))) at = i;
  }
  if (at < 0) return null;
  const t = turns[at]!;
  const action = answerText(t.text, t.toolCalls.map((c) => ({ name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.input ?? {}) })));
  return { messages: sessionMessages(turns, at), action, turn: t.index };
}

export interface TeacherAnswer {
  model: string;
  text: string | null;
  error: string | null;
}

export interface ReplayDpoPair {
  id: string;
  state_messages: ChatMessage[];
  chosen: string;
  rejected: string;
  chosen_models: string[];
  support: number;
  answered: number;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Teacher consensus vs the trace's action: the answer most teachers gave (normalized: whitespace
 * collapsed), when at least half of those that answered gave it and it is not the trace's own
 * action, is `chosen`; the trace's action is `rejected`. No consensus, no pair.
 */
export function extractDpoPairs(site: { id: string; state_messages: ChatMessage[]; rejected: string }, answers: TeacherAnswer[], opts: { minSupport?: number } = {}): ReplayDpoPair[] {
  const ok = answers.filter((a): a is TeacherAnswer & { text: string } => a.text !== null && a.text.trim() !== "");
  if (!ok.length) return [];
  const groups = new Map<string, { text: string; models: string[] }>();
  for (const a of ok) {
    const g = groups.get(squash(a.text)) ?? { text: a.text, models: [] };
    g.models.push(a.model);
    groups.set(squash(a.text), g);
  }
  const ranked = [...groups.entries()].sort((a, b) => b[1].models.length - a[1].models.length);
  const [key, top] = ranked[0]!;
  const tie = ranked[1] && ranked[1][1].models.length === top.models.length;
  const need = Math.max(opts.minSupport ?? 1, Math.ceil(ok.length / 2));
  if (tie || top.models.length < need || key === squash(site.rejected)) return [];
  return [{ id: `${site.id}:replay`, state_messages: site.state_messages, chosen: top.text, rejected: site.rejected, chosen_models: top.models, support: top.models.length, answered: ok.length }];
}

export interface ReplaySummary {
  sessions: number;
  sites: number;
  replayed: number;
  pairs: number;
  written: number;
  duplicates_skipped: number;
  holdout_skipped: number;
  teacher_errors: number;
  seconds: number;
}

/** Replays every error site of the traces under `paths` with the teachers; pairs → dpo_pairs. */
export async function teacherReplay(opts: { paths: string[]; models: ModelClient[]; store: Store; run_id: string; round?: number; concurrency?: number; limit?: number }): Promise<ReplaySummary> {
  const t0 = performance.now();
  const run = new RunLayout(opts.store, opts.run_id);
  const w = await DedupWriter.open(run);
  await Promise.all(opts.models.map((m) => m.init()));
  const { sessions } = await collect(opts.paths);
  const jobs = sessions.flatMap(({ session, sites }) => sites.map((site) => ({ session, site }))).slice(0, opts.limit ?? Infinity);
  const sum: ReplaySummary = { sessions: sessions.length, sites: jobs.length, replayed: 0, pairs: 0, written: 0, duplicates_skipped: 0, holdout_skipped: 0, teacher_errors: 0, seconds: 0 };
  const limit = pLimit(opts.concurrency ?? 4);
  await Promise.all(jobs.map(({ session, site }) => limit(async () => {
    const st = siteState(session, site);
    if (!st || !st.messages.length) return;
    const id = createHash("sha256").update(`${session.file}\0${session.id}\0${st.turn}`).digest("hex").slice(0, 16);
    if (w.has("dpo_pairs", `${id}:replay`)) {
      sum.duplicates_skipped++;
      return;
    }
    const answers: Completion[] = await Promise.all(opts.models.map((m) => m.complete(st.messages, ENV_TOOLS)));
    sum.replayed++;
    sum.teacher_errors += answers.filter((a) => a.error).length;
    const pairs = extractDpoPairs({ id, state_messages: st.messages, rejected: st.action }, answers.map((a) => ({ model: a.model, error: a.error, text: a.error ? null : answerText(a.content, a.tool_calls) })));
    for (const p of pairs) {
      sum.pairs++;
      try {
        if (await w.add("dpo_pairs", { id: p.id, task_id: session.id, source: "teacher_replay", round: opts.round ?? 0, state_messages: p.state_messages, chosen: p.chosen, rejected: p.rejected, chosen_models: p.chosen_models })) sum.written++;
      } catch (e) {
        if (!(e instanceof HeldoutViolation)) throw e;
        sum.holdout_skipped++; // a session the run's split holds out is never fed back
      }
    }
  })));
  await w.flush();
  sum.seconds = (performance.now() - t0) / 1000;
  return sum;
}
