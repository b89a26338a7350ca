/**
 * Evaluating hints independently of training (the seed's §7, last item):
 *  - coverage: the share of error sites each layer hinted, by error_kind and behavior_dim;
 *  - shift: how far a hint moves the teacher (context + hint) away from the student (context)
 *    over the recovery turn's tokens. A hint that does not move the teacher is a no-op to prune.
 */
import { openaiClient } from "./openai.js";
import { collect, type IngestOptions } from "../traces/index.js";
import { cleanTurnContexts, contextFromSite, type ErrorContext } from "./context.js";
import type { Hint, LayeredHintGenerator } from "./layered.js";
import { LAYERS, type LayerName } from "./protocol.js";

export type LayerOrNone = LayerName | "none";

/** Contexts for every error site under `paths` (and, with `clean`, flagged clean turns). */
export async function contextsFromTraces(paths: string[], opts: IngestOptions & { clean?: boolean } = {}): Promise<ErrorContext[]> {
  const { sessions } = await collect(paths, opts);
  return sessions.flatMap(({ session, sites }) => [
    ...sites.map((s) => contextFromSite(s, session)),
    ...(opts.clean ? cleanTurnContexts(session, sites) : []),
  ]);
}

export interface HintedSite {
  ctx: ErrorContext;
  result: Hint | null;
}

export interface Coverage {
  sites: number;
  hinted: number;
  byLayer: Record<LayerOrNone, number>;
  byKind: Record<string, Record<LayerOrNone, number>>;
  byDim: Record<string, Record<LayerOrNone, number>>;
  /** Every site with its hint (null = declined by every layer). */
  results: HintedSite[];
}

const emptyLayers = (): Record<LayerOrNone, number> => Object.fromEntries([...LAYERS, "none"].map((l) => [l, 0])) as Record<LayerOrNone, number>;

/** Runs the generator over every context (in parallel: the judge layer limits its own requests). */
export async function hintCoverage(contexts: ErrorContext[], generator: LayeredHintGenerator, opts: { onSite?: (done: number, total: number) => void } = {}): Promise<Coverage> {
  let done = 0;
  const results = await Promise.all(
    contexts.map(async (ctx) => {
      const result = await generator.generate(ctx);
      opts.onSite?.(++done, contexts.length);
      return { ctx, result };
    }),
  );
  const cov: Coverage = { sites: contexts.length, hinted: 0, byLayer: emptyLayers(), byKind: {}, byDim: {}, results };
  for (const { ctx, result } of results) {
    const layer: LayerOrNone = result?.layer ?? "none";
    if (result) cov.hinted++;
    cov.byLayer[layer]++;
    (cov.byKind[ctx.error_kind] ??= emptyLayers())[layer]++;
    (cov.byDim[ctx.behavior_dim] ??= emptyLayers())[layer]++;
  }
  return cov;
}

/** Log-probabilities of a continuation after a context (lib/train's scoreContinuation returns one). */
export interface ContinuationScore {
  /** log p(token) for each continuation token actually scored. */
  tokenLogprobs: number[];
  /** Full next-token log-distributions at those positions (for exact KL), when the model has them. */
  logDists?: Float32Array[];
  /** Continuation tokens left out because the window is full. */
  truncated: number;
}

/** A model that returns log-probabilities of a continuation after a context (lib/train's
 *  policyLogprobModel adapts the lab's tfjs policy; hints never imports train). */
export interface LogprobModel {
  readonly name: string;
  score(context: string, continuation: string): Promise<ContinuationScore>;
}

/**
 * An OpenAI-compatible completions endpoint that echoes prompt log-probabilities
 * (`echo: true, logprobs`), as vLLM and similar servers do. Only the chosen tokens' log-probs come
 * back, so shift is the log-prob shift (no exact KL).
 */
export function openAILogprobModel(opts: { baseURL?: string; model: string; apiKey?: string; timeout_ms?: number }): LogprobModel {
  const client = openaiClient({ baseURL: opts.baseURL, apiKey: opts.apiKey, timeout_ms: opts.timeout_ms ?? 60_000, maxRetries: 2 });
  return {
    name: opts.model,
    async score(context, continuation) {
      const r = await client.completions.create({ model: opts.model, prompt: context + continuation, max_tokens: 1, echo: true, logprobs: 1, temperature: 0 });
      const lp = r.choices[0]?.logprobs;
      if (!lp?.token_logprobs || !lp.text_offset) throw new Error(`${opts.model}: the endpoint returned no echoed logprobs`);
      // A token belongs to the continuation when it ends inside it (BPE tokens carry their leading
      // space, so the first one may start inside the context); the generated token is past `end`.
      const end = context.length + continuation.length;
      const tokenLogprobs: number[] = [];
      lp.text_offset.forEach((off, i) => {
        const v = lp.token_logprobs![i];
        const tokenEnd = off + (lp.tokens?.[i]?.length ?? 1);
        if (tokenEnd > context.length && off < end && typeof v === "number") tokenLogprobs.push(v);
      });
      return { tokenLogprobs, truncated: 0 };
    },
  };
}

/** How the teacher sees the hint: spliced into the local context right before the recovery turn. */
export function teacherContext(ctx: ErrorContext, hint: string | null): string {
  return `${ctx.state_excerpt ?? ""}\n\n${hint ? `${hint}\n\n` : ""}assistant: `;
}

export interface ShiftRow {
  /** "template:failing_test", "raw_error", "judge", ... */
  source: string;
  sites: number;
  tokens: number;
  /** Mean over tokens of log p_teacher − log p_student. */
  mean_logprob_shift: number;
  /** Mean over tokens of KL(teacher ‖ student), when the model gives full distributions. */
  mean_kl: number | null;
  no_op: boolean;
}

/** Per-token KL(p ‖ q) from log-distributions. */
export function klFromLogDists(p: Float32Array, q: Float32Array): number {
  let kl = 0;
  for (let i = 0; i < p.length; i++) kl += Math.exp(p[i]!) * (p[i]! - q[i]!);
  return kl;
}

/**
 * Teacher-vs-student shift at hinted sites, per hint source (template kind or layer); sources
 * whose shift is under `threshold` (nats/token, on KL when available, else |log-prob shift|) are
 * flagged as no-ops.
 */
export async function hintShift(hinted: HintedSite[], model: LogprobModel, opts: { threshold?: number; maxSites?: number } = {}): Promise<ShiftRow[]> {
  const acc = new Map<string, { sites: number; tokens: number; shift: number; kl: number; hasKl: boolean }>();
  const usable = hinted.filter((h) => h.result && h.ctx.recovery?.trim()).slice(0, opts.maxSites ?? Infinity);
  for (const { ctx, result } of usable) {
    const source = result!.layer === "template" ? `template:${ctx.error_kind}` : result!.layer;
    const t = await model.score(teacherContext(ctx, result!.hint), ctx.recovery!);
    const s = await model.score(teacherContext(ctx, null), ctx.recovery!);
    const n = Math.min(t.tokenLogprobs.length, s.tokenLogprobs.length);
    if (n === 0) continue;
    const a = acc.get(source) ?? { sites: 0, tokens: 0, shift: 0, kl: 0, hasKl: true };
    a.sites++;
    for (let i = 0; i < n; i++) {
      a.tokens++;
      a.shift += t.tokenLogprobs[i]! - s.tokenLogprobs[i]!;
      if (t.logDists && s.logDists) a.kl += klFromLogDists(t.logDists[i]!, s.logDists[i]!);
      else a.hasKl = false;
    }
    acc.set(source, a);
  }
  const threshold = opts.threshold ?? 1e-3;
  return [...acc.entries()]
    .map(([source, a]) => {
      const mean_kl = a.hasKl ? a.kl / a.tokens : null;
      const mean_logprob_shift = a.shift / a.tokens;
      return { source, sites: a.sites, tokens: a.tokens, mean_logprob_shift, mean_kl, no_op: (mean_kl ?? Math.abs(mean_logprob_shift)) < threshold };
    })
    .sort((x, y) => x.source.localeCompare(y.source));
}
