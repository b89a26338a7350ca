/**
 * How turns become training text. Contexts use lib/traces' renderTurn (the rendering the hint layers
 * and lib/hints' teacherContext see); an assistant turn's own content is rendered the same way but
 * never clipped, since it is a training target.
 */
import { actionSignature, assistantBody, renderTurn, type Chain, type ErrorSite, type Session, type Turn } from "../traces/index.js";

export { assistantBody };


export interface Segment {
  text: string;
  /** True on assistant-response text (trained on). */
  loss: boolean;
}

/** A chain's conversation as segments: "role: ..." turns joined by blank lines, as stateExcerpt
 *  joins them; only assistant bodies carry loss (except turns in `noLoss`, kept as context). */
export function conversationSegments(turns: Turn[], noLoss: ReadonlySet<number> = new Set()): Segment[] {
  const out: Segment[] = [];
  for (const t of turns) {
    const body = t.role === "assistant" ? assistantBody(t) : null;
    if (body === "") continue; // an assistant turn with nothing to say (e.g. thinking only)
    if (out.length) out.push({ text: "\n\n", loss: false });
    if (body === null) out.push({ text: renderTurn(t), loss: false });
    else out.push({ text: "assistant: ", loss: false }, { text: body, loss: !noLoss.has(t.index) });
  }
  return out;
}

/** Sites that point at a failed action (repeated_failure duplicates its run's last site). */
const isActionError = (s: ErrorSite) => s.error_kind !== "repeated_failure";

/** The error-site kinds whose site turn is the offending action itself rather than a recovery. */
const SELF_SITE = new Set(["wasteful_action"]);

const sameAction = (sig: string, recorded: string) => sig === recorded || (recorded.endsWith("…") && sig.startsWith(recorded.slice(0, -1)));

/**
 * The assistant turn whose action the site is about: the nearest earlier turn in the site's chain
 * with a call matching erroring_action (clipped in the site), or the site turn for wasteful_action.
 */
export function erroringTurn(session: Session, site: ErrorSite): Turn | undefined {
  if (SELF_SITE.has(site.error_kind)) return session.turns[site.turn_index];
  if (!site.erroring_action) return undefined;
  const end = site.turn_index >= 0 ? site.turn_index : session.turns.length;
  for (let i = end - 1; i >= 0; i--) {
    const t = session.turns[i]!;
    if (t.chain === site.chain && t.role === "assistant" && t.toolCalls.some((c) => sameAction(actionSignature(c), site.erroring_action))) return t;
  }
  return undefined;
}

/** Indices of turns whose actions failed or were wasteful. */
export function failedTurns(session: Session, sites: ErrorSite[]): Set<number> {
  const out = new Set<number>();
  for (const s of sites.filter(isActionError)) {
    const t = erroringTurn(session, s);
    if (t) out.add(t.index);
  }
  return out;
}

export const chainTurns = (session: Session, chain: Chain, agentId?: string | null): Turn[] =>
  session.turns.filter((t) => t.chain === chain && (agentId === undefined || (t.agentId ?? null) === agentId));

/**
 * A chain's conversations: the main and branch chains are one each; the sidechain is one per
 * subagent transcript (a folded subagent's turns carry its agentId), so two subagents never read as
 * one conversation. Compaction agents and warm-ups are not the agent's work: left out.
 */
export function chainThreads(session: Session, chain: Chain): { agentId: string | null; turns: Turn[] }[] {
  const skip = new Set((session.subagents ?? []).filter((a) => a.kind !== "task").map((a) => a.agentId));
  const by = new Map<string | null, Turn[]>();
  for (const t of session.turns) {
    if (t.chain !== chain) continue;
    const a = t.agentId ?? null;
    if (a && skip.has(a)) continue;
    if (!by.has(a)) by.set(a, []);
    by.get(a)!.push(t);
  }
  return [...by].map(([agentId, turns]) => ({ agentId, turns }));
}

/**
 * A chain ends without an unrecovered error when every error in it was followed by an assistant
 * turn and its last action did not fail (a closing apology after a failed action is not a win).
 */
export function chainIsClean(session: Session, sites: ErrorSite[], chain: Chain, agentId?: string | null): boolean {
  const own = sites.filter((s) => s.chain === chain && (agentId === undefined || (s.agent_id ?? null) === agentId));
  if (own.some((s) => !s.has_recovery)) return false;
  const acting = chainTurns(session, chain, agentId).filter((t) => t.role === "assistant" && t.toolCalls.length > 0);
  const last = acting[acting.length - 1];
  return !last || !failedTurns(session, own.filter((s) => !SELF_SITE.has(s.error_kind))).has(last.index);
}
