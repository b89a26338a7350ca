/**
 * SDPO rows from error sites (the seed's §1 and §5): a row is minted only when the generator gives a
 * hint AND the recovery turn has content. The prompts come from lib/hints' teacherContext, so the
 * teacher trained on is the teacher hint evaluation (hintShift) measures.
 */
import pLimit from "p-limit";
import { contextFromSite, teacherContext, type ErrorContext, type Hint, type HintGenerator, type LayerName, type LayeredHintGenerator } from "../hints/index.js";
import { stateExcerpt, type ErrorSite, type IngestedSession, type Session } from "../traces/index.js";
import { completionBudget, leftTruncate } from "./batch.js";
import { SdpoRow, type Seq, type Tokenizer } from "./schema.js";
import { assistantBody, chainTurns } from "./turns.js";

/** A single layer (returns a string) or the layered generator (returns {hint, layer}). */
export type HintSource = HintGenerator | LayeredHintGenerator;

/** no_recovery / empty_recovery: nothing to train toward; no_hint / generator_error: the generator
 *  gave none; cascade: a call cancelled because a parallel sibling failed (not its fault, so no
 *  hint is asked for); duplicate: another site of the same kind already makes this recovery's row
 *  (parallel calls failing alike share one recovery turn, and one splice point). */
export const SKIP_REASONS = ["no_recovery", "empty_recovery", "no_hint", "generator_error", "cascade", "duplicate"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SdpoOptions {
  /** Hint requests in flight at once (default 8; the judge layer also limits its own). */
  concurrency?: number;
  /**
   * Re-render the context as the last k turns before the recovery turn within `stateTokens`
   * (Infinity for the whole chain). By default the site's own state_excerpt is used: the context
   * the hint layers and hint evaluation saw.
   */
  k?: number;
  stateTokens?: number;
  /** More context for the generator (e.g. sibling_rollouts for the sibling layer). */
  extra?: (site: ErrorSite, session: Session) => Partial<ErrorContext>;
}

export interface SdpoResult {
  rows: SdpoRow[];
  sites: number;
  skipped: Record<SkipReason, number>;
  byLayer: Partial<Record<LayerName, number>>;
  /** Generator failures (the site is skipped, the run goes on). */
  errors: { session_id: string; turn_index: number; message: string }[];
}

async function hintFor(gen: HintSource, ctx: ErrorContext): Promise<Hint | null> {
  const r = await gen.generate(ctx);
  if (r === null) return null;
  const hint = typeof r === "string" ? { hint: r, layer: (gen as HintGenerator).layer } : r;
  return hint.hint.trim() ? hint : null;
}

type SiteOutcome = { row: SdpoRow } | { skip: SkipReason; message?: string };

async function collateSite(site: ErrorSite, session: Session, gen: HintSource, tok: Tokenizer, opts: SdpoOptions): Promise<SiteOutcome> {
  const recovery = site.turn_index >= 0 ? session.turns[site.turn_index] : undefined;
  if (!recovery) return { skip: "no_recovery" };
  const completion = assistantBody(recovery);
  // Checked before asking for a hint: a paid judge call at a site that cannot mint a row is waste.
  if (!completion.trim()) return { skip: "empty_recovery" };
  const override: Partial<ErrorContext> = { ...opts.extra?.(site, session), recovery: completion };
  if (opts.k !== undefined || opts.stateTokens !== undefined) {
    const turns = chainTurns(session, site.chain);
    override.state_excerpt = stateExcerpt(turns, turns.indexOf(recovery), opts.k ?? 3, opts.stateTokens ?? 1500);
  }
  const ctx = contextFromSite(site, session, override);
  let hint: Hint | null;
  try {
    hint = await hintFor(gen, ctx);
  } catch (e) {
    return { skip: "generator_error", message: (e as Error).message };
  }
  if (!hint) return { skip: "no_hint" };
  const bos = tok.bos ?? null;
  const withBos = (ids: number[]) => (bos === null ? ids : [bos, ...ids]);
  const student_prompt = teacherContext(ctx, null);
  const teacher_prompt = teacherContext(ctx, hint.hint);
  return {
    row: SdpoRow.parse({
      id: `${site.session_id}:${site.turn_index}:${site.error_kind}`,
      session_id: site.session_id, file: site.file, chain: site.chain, turn_index: site.turn_index,
      error_kind: site.error_kind, behavior_dim: site.behavior_dim, layer: hint.layer, hint: hint.hint,
      student_prompt, teacher_prompt, completion, bos,
      student_prompt_ids: withBos(tok.encode(student_prompt)),
      teacher_prompt_ids: withBos(tok.encode(teacher_prompt)),
      completion_ids: tok.encode(completion),
    }),
  };
}

/**
 * One SDPO row per error site that has a hint and a recovery, in site order. Sessions come from
 * lib/traces' collect() (an array) or ingest() (streamed).
 */
export async function collateSdpo(
  sessions: Iterable<IngestedSession> | AsyncIterable<IngestedSession>,
  generator: HintSource,
  tokenizer: Tokenizer,
  opts: SdpoOptions = {},
): Promise<SdpoResult> {
  const limit = pLimit(opts.concurrency ?? 8);
  const pending: { site: ErrorSite; outcome: Promise<SiteOutcome> }[] = [];
  const ids = new Set<string>();
  for await (const { session, sites } of sessions) {
    for (const site of sites) {
      const id = `${site.session_id}:${site.turn_index}:${site.error_kind}`;
      let outcome: Promise<SiteOutcome>;
      if (site.error_kind === "sibling_cascade") outcome = Promise.resolve({ skip: "cascade" });
      else if (ids.has(id)) outcome = Promise.resolve({ skip: "duplicate" });
      else outcome = limit(() => collateSite(site, session, generator, tokenizer, opts));
      ids.add(id);
      pending.push({ site, outcome });
    }
  }
  const result: SdpoResult = {
    rows: [], sites: pending.length, byLayer: {}, errors: [],
    skipped: Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>,
  };
  for (const { site, outcome } of pending) {
    const o = await outcome;
    if ("row" in o) {
      result.rows.push(o.row);
      result.byLayer[o.row.layer] = (result.byLayer[o.row.layer] ?? 0) + 1;
    } else {
      result.skipped[o.skip]++;
      if (o.message !== undefined) result.errors.push({ session_id: site.session_id, turn_index: site.turn_index, message: o.message });
    }
  }
  return result;
}

/**
 * Student and teacher sequences for one row within maxLen tokens: prompts are left-truncated
 * (keeping BOS), the completion is kept whole when it fits and cut to no less than maxLen/2
 * otherwise — the same cut in both, so the masks mark the same completion tokens in the same order.
 * mask[i] = 1 where ids[i] is a completion token (its logits sit at i - 1).
 */
export function sdpoSequences(row: Pick<SdpoRow, "student_prompt_ids" | "teacher_prompt_ids" | "completion_ids" | "bos">, maxLen: number): { student: Seq; teacher: Seq } {
  const longest = Math.max(row.student_prompt_ids.length, row.teacher_prompt_ids.length);
  const completion = row.completion_ids.slice(0, completionBudget(longest, row.completion_ids.length, maxLen));
  const seq = (prompt: number[]): Seq => {
    const p = leftTruncate(prompt, maxLen - completion.length, row.bos);
    return { ids: [...p, ...completion], mask: [...p.map(() => 0), ...completion.map(() => 1)] };
  };
  return { student: seq(row.student_prompt_ids), teacher: seq(row.teacher_prompt_ids) };
}
