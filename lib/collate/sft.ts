/**
 * SFT rows (systems-framing's sft_corpus): the rendered conversation with loss on assistant-response
 * tokens only. From traces, optionally only chains that end without an unrecovered error (clean
 * winning trajectories); from prompt/response pairs for simple data (the toy environment's warm start).
 */
import type { Chain, IngestedSession } from "../traces/index.js";
import { promptCompletion } from "./batch.js";
import { SftRow, type Seq, type Tokenizer } from "./schema.js";
import { chainIsClean, chainThreads, conversationSegments, failedTurns } from "./turns.js";

export interface SftOptions {
  /** Only chains that end without an unrecovered error (see chainIsClean). */
  onlyClean?: boolean;
  /** Windows of at most maxLen tokens (default: one row per chain). */
  maxLen?: number;
  /**
   * Chains to render (default main only: a session's subagent sidechains share one label and would
   * interleave, and branches were abandoned).
   */
  chains?: Chain[];
  /** Keep assistant turns whose action failed or was wasteful as context only (loss 0): a winning
   *  trajectory's mistakes are not worth imitating. */
  excludeFailed?: boolean;
}

/** Tokenizes segment by segment so the mask matches token boundaries exactly. */
function tokenize(segments: { text: string; loss: boolean }[], tok: Tokenizer): Seq {
  const seq: Seq = { ids: [], mask: [] };
  for (const s of segments) {
    // One push per id: spreading a long session's ids as arguments would overflow the stack.
    for (const id of tok.encode(s.text)) {
      seq.ids.push(id);
      seq.mask.push(s.loss ? 1 : 0);
    }
  }
  return seq;
}

/**
 * Windows over a long sequence: each ends `stride` = half a window after the previous one and is
 * trained only on its new positions, so every assistant token is trained once, with at least half
 * a window of context. Windows without new assistant tokens are dropped.
 */
function windows(seq: Seq, maxLen: number, bos: number | null): Seq[] {
  const width = maxLen - (bos === null ? 0 : 1);
  if (width < 2) throw new RangeError(`maxLen ${maxLen} leaves no room for a window`);
  const head = (s: Seq): Seq => (bos === null ? s : { ids: [bos, ...s.ids], mask: [0, ...s.mask] });
  if (seq.ids.length <= width) return [head(seq)];
  const out: Seq[] = [];
  const stride = Math.ceil(width / 2);
  for (let prev = 0, end = width; prev < seq.ids.length; prev = end, end = Math.min(end + stride, seq.ids.length)) {
    const start = end - width;
    const mask = seq.mask.slice(start, end).map((m, i) => (start + i >= prev ? m : 0));
    if (mask.includes(1)) out.push(head({ ids: seq.ids.slice(start, end), mask }));
  }
  return out;
}

function row(seq: Seq, tok: Tokenizer, fields: Omit<SftRow, "ids" | "loss_mask" | "text">): SftRow {
  return SftRow.parse({ ...fields, ids: seq.ids, loss_mask: seq.mask, text: tok.decode(seq.ids) });
}

export function sftRows(sessions: Iterable<IngestedSession>, tokenizer: Tokenizer, opts: SftOptions = {}): SftRow[] {
  const out: SftRow[] = [];
  const bos = tokenizer.bos ?? null;
  for (const { session, sites } of sessions) {
    for (const chain of opts.chains ?? ["main"]) {
      for (const { agentId, turns } of chainThreads(session, chain)) {
        if (!turns.some((t) => t.role === "assistant")) continue;
        if (opts.onlyClean && !chainIsClean(session, sites, chain, agentId)) continue;
        const noLoss = opts.excludeFailed ? failedTurns(session, sites) : undefined;
        const seq = tokenize(conversationSegments(turns, noLoss), tokenizer);
        if (!seq.mask.includes(1)) continue;
        const parts = opts.maxLen === undefined ? [bos === null ? seq : { ids: [bos, ...seq.ids], mask: [0, ...seq.mask] }] : windows(seq, opts.maxLen, bos);
        const id = `${session.id}:${chain}${agentId ? `:${agentId}` : ""}`;
        parts.forEach((w, i) => out.push(row(w, tokenizer, { id: `${id}:${i}`, source: "trace", session_id: session.id, file: session.file, chain, window: i })));
      }
    }
  }
  return out;
}

/** prompt + response, loss on the response; past maxLen the prompt is left-truncated first. */
export function sftRowsFromPairs(pairs: { prompt: string; response: string }[], tokenizer: Tokenizer, opts: { maxLen?: number } = {}): SftRow[] {
  const bos = tokenizer.bos ?? null;
  return pairs.map((p, i) => {
    const prompt = tokenizer.encode(p.prompt);
    const seq = promptCompletion(bos === null ? prompt : [bos, ...prompt], tokenizer.encode(p.response), opts.maxLen, bos);
    return row(seq, tokenizer, { id: `pair:${i}`, source: "pairs", session_id: null, file: null, chain: null, window: 0 });
  });
}
