/**
 * DPO pairs, two ways (systems-framing: chosen = sibling winner, rejected = loser; a loser is only
 * ever a contrastive `rejected`, never a raw negative):
 *  - from one rollout group: each failing sibling against a winning one;
 *  - from traces: at an error site, the erroring action against the recovery that then worked.
 */
import { teacherContext } from "../hints/index.js";
import { stateExcerpt, type ErrorKind, type IngestedSession } from "../traces/index.js";
import { DpoPair, type Tokenizer } from "./schema.js";
import { assistantBody, chainTurns, erroringTurn, failedTurns } from "./turns.js";

export interface GroupOptions {
  /** A winner needs the group's top reward and at least this much (default 0.5). */
  threshold?: number;
  /** A loser's reward is at most the winner's minus this (default 0: any lower reward). */
  margin?: number;
  /** Pairs per group at most (default 4), worst losers first. */
  maxPairs?: number;
  /** Recorded as session_id and in the pair ids. */
  group_id?: string;
}

const withBos = (tok: Tokenizer, ids: number[]) => (tok.bos === undefined ? ids : [tok.bos, ...ids]);

export function dpoPairsFromGroup(prompt: string, completions: { text: string; reward: number }[], tokenizer: Tokenizer, opts: GroupOptions = {}): DpoPair[] {
  const threshold = opts.threshold ?? 0.5;
  const margin = opts.margin ?? 0;
  const indexed = completions.map((c, i) => ({ ...c, i }));
  const best = Math.max(...indexed.map((c) => c.reward));
  if (!(best >= threshold)) return [];
  const winners = indexed.filter((c) => c.reward === best);
  // Worst first (the clearest contrast), ties in input order: the same group gives the same pairs.
  const losers = indexed.filter((c) => c.reward <= best - margin && c.reward < best).sort((a, b) => a.reward - b.reward || a.i - b.i);
  const group = opts.group_id ?? "group";
  const prompt_ids = withBos(tokenizer, tokenizer.encode(prompt));
  const pairs: DpoPair[] = [];
  for (const loser of losers) {
    if (pairs.length >= (opts.maxPairs ?? 4)) break;
    // Spread losers over the winners in turn; skip a pair with nothing to prefer.
    const winner = winners[pairs.length % winners.length]!;
    if (winner.text === loser.text || !winner.text || !loser.text) continue;
    pairs.push(DpoPair.parse({
      id: `${group}:${winner.i}>${loser.i}`, source: "group", prompt, chosen: winner.text, rejected: loser.text,
      bos: tokenizer.bos ?? null, prompt_ids, chosen_ids: tokenizer.encode(winner.text), rejected_ids: tokenizer.encode(loser.text),
      chosen_reward: winner.reward, rejected_reward: loser.reward,
      session_id: opts.group_id ?? null, file: null, turn_index: null, recovery_turn_index: null, error_kind: null, behavior_dim: null,
    }));
  }
  return pairs;
}

/**
 * Error kinds where the failed call is itself the mistake, so the recovery is a better action in the
 * same state. For outcome errors (a failing test, a lint finding, a runtime error) the erroring call
 * is usually the right check and the mistake lies in earlier code; the recovery then answers output
 * the prompt does not contain, so it would be a false preference.
 */
export const ACTION_ERROR_KINDS: readonly ErrorKind[] = [
  "tool_not_found", "schema_mismatch", "malformed_args", "command_not_found", "file_not_found", "permission_denied",
  // Claude Code refusing the call itself: an Edit before a Read, an old_string that does not match,
  // a whole-file Read of a huge file, a call outside the permitted scope.
  "file_not_read", "edit_no_match", "file_too_large", "tool_denied",
];

export interface TracePairOptions {
  /** Error kinds that make pairs (default ACTION_ERROR_KINDS). */
  kinds?: readonly ErrorKind[];
  /** The prompt: the last k turns before the erroring turn within stateTokens, as error sites
   *  render their state (defaults 3 and 1500; Infinity for the whole chain). */
  k?: number;
  stateTokens?: number;
}

/**
 * At each error site (of `kinds`) whose recovery succeeded — a turn that acted, and whose action
 * neither failed nor was wasteful: rejected = the erroring assistant turn, chosen = the recovery
 * turn, prompt = the context before the erroring turn. repeated_failure and wasteful_action sites
 * have no separate recovery to prefer and never pair.
 */
export function dpoPairsFromTraces(sessions: Iterable<IngestedSession>, tokenizer: Tokenizer, opts: TracePairOptions = {}): DpoPair[] {
  const pairs: DpoPair[] = [];
  const seen = new Set<string>();
  const kinds = new Set(opts.kinds ?? ACTION_ERROR_KINDS);
  for (const { session, sites } of sessions) {
    const failed = failedTurns(session, sites);
    for (const site of sites) {
      if (!kinds.has(site.error_kind) || site.error_kind === "repeated_failure" || site.error_kind === "wasteful_action") continue;
      const bad = erroringTurn(session, site);
      const good = site.turn_index >= 0 ? session.turns[site.turn_index] : undefined;
      if (!bad || !good || good.toolCalls.length === 0 || failed.has(good.index)) continue;
      const chosen = assistantBody(good);
      const rejected = assistantBody(bad);
      // Two errors from one turn recovered by the same turn make one pair.
      const id = `${site.file}:${bad.index}>${good.index}`;
      if (chosen === rejected || seen.has(id)) continue;
      seen.add(id);
      const turns = chainTurns(session, site.chain);
      const state = stateExcerpt(turns, turns.indexOf(bad), opts.k ?? 3, opts.stateTokens ?? 1500);
      // The same "…\n\nassistant: " layout as the SDPO student prompt.
      const prompt = teacherContext({ error_kind: site.error_kind, behavior_dim: site.behavior_dim, state_excerpt: state }, null);
      pairs.push(DpoPair.parse({
        id: `${site.session_id}:${bad.index}>${good.index}`, source: "trace", prompt, chosen, rejected,
        bos: tokenizer.bos ?? null, prompt_ids: withBos(tokenizer, tokenizer.encode(prompt)),
        chosen_ids: tokenizer.encode(chosen), rejected_ids: tokenizer.encode(rejected), chosen_reward: null, rejected_reward: null,
        session_id: site.session_id, file: site.file, turn_index: bad.index, recovery_turn_index: good.index,
        error_kind: site.error_kind, behavior_dim: site.behavior_dim,
      }));
    }
  }
  return pairs;
}
