/**
 * Layer (c): an LLM judge writes a ≤2-sentence corrective hint (the seed's §4.1 prompt) through the
 * `openai` client against any OpenAI-compatible endpoint. Gated (template miss, or a seeded sample
 * of clean turns flagged for style / communication / effort), cached on disk, rate-limited, retried
 * with backoff; a call that still fails declines the site and never ends the run.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiClient, openaiSdk, type OpenAIClient } from "./openai.js";
import pLimit from "p-limit";
import { z } from "zod";
import { scratchDir } from "../core/index.js";
import type { ErrorContext } from "./context.js";
import { firstSentences, type HintGenerator } from "./protocol.js";
import { TemplateRegistry } from "./templates.js";

export const JUDGE_SYSTEM = `You write a single, short corrective hint for a coding agent that just made a
mistake. The hint will be inserted into the agent's context so it can retry the
SAME turn. Output ONE hint of AT MOST 2 sentences. Be concrete and actionable.
Do NOT solve the task, do NOT write code, do NOT explain your reasoning. If the
action was actually fine, output exactly: NO_HINT.`;

/** The §4.1 user prompt. */
export function judgePrompt(ctx: ErrorContext, k = 3): string {
  return `## Conversation state (last ${k} turns)
${ctx.state_excerpt ?? ""}

## The action that went wrong
${ctx.erroring_action ?? ""}

## What the environment returned
${ctx.error_message ?? ""}

## Behavior dimension to correct (one of: tool_use | style | communication | effort)
${ctx.behavior_dim}

Write the hint now (≤2 sentences, or NO_HINT):`;
}

/** The judge's tunables with their defaults, in one place: the judge layer's config (config.ts) spreads
 *  this shape, and the generator reads its options through it. */
export const JudgeSettings = z.object({
  /** Share of flagged clean turns sent to the judge. */
  sample_rate: z.number().min(0).max(1).default(0.15),
  seed: z.number().int().default(0),
  /** Parallel requests at most. */
  concurrency: z.number().int().positive().default(4),
  /** Retries after the first try on 429, 5xx, timeouts and connection errors. */
  max_retries: z.number().int().min(0).default(3),
  timeout_ms: z.number().int().positive().default(30_000),
  /** Base of the exponential backoff (ms). */
  backoff_ms: z.number().int().min(0).default(500),
});
export type JudgeSettings = z.output<typeof JudgeSettings>;

export interface JudgeOptions extends z.input<typeof JudgeSettings> {
  /** OpenAI-compatible base URL (default: OPENAI_BASE_URL). */
  baseURL?: string;
  /** Model name (default: COMPOSER_LAB_JUDGE_MODEL, else "gpt-4o-mini"). */
  model?: string;
  /** API key (default: OPENAI_API_KEY; local servers often need none). */
  apiKey?: string;
  max_tokens?: number;
  /** Where hints are cached (default scratch/cache/judge/); false disables the cache. */
  cache_dir?: string | false;
  /** US$ per million tokens, for cost accounting. */
  prices?: { input_per_mtok: number; output_per_mtok: number };
  /** Used to decide "template miss" (the gate). */
  templates?: TemplateRegistry;
}

export interface JudgeStats {
  calls: number;
  cache_hits: number;
  retries: number;
  failures: number;
  no_hint: number;
  gated_out: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  last_error: string | null;
}

/** A stable hash of (erroring_action, error_message, behavior_dim): the cache key. */
export function judgeCacheKey(ctx: ErrorContext): string {
  return createHash("sha256").update(JSON.stringify([ctx.erroring_action ?? "", ctx.error_message ?? "", ctx.behavior_dim])).digest("hex");
}

/** Deterministic sampling: the same (seed, site) is always in or out. */
export function sampled(ctx: ErrorContext, rate: number, seed = 0): boolean {
  const h = createHash("sha256").update(`${seed}:${ctx.session_id ?? ""}:${ctx.turn_index ?? ""}:${ctx.erroring_action ?? ""}`).digest();
  return h.readUInt32BE(0) / 2 ** 32 < rate;
}

const RETRYABLE = (e: unknown): boolean => {
  const { APIConnectionError, APIError } = openaiSdk();
  return e instanceof APIConnectionError || // includes timeouts
    (e instanceof APIError && (e.status === 429 || (e.status !== undefined && e.status >= 500)));
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class JudgeHintGenerator implements HintGenerator {
  readonly layer = "judge" as const;
  readonly stats: JudgeStats = { calls: 0, cache_hits: 0, retries: 0, failures: 0, no_hint: 0, gated_out: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, last_error: null };
  readonly model: string;
  private readonly client: OpenAIClient;
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly cacheDir: string | null;
  private readonly templates: TemplateRegistry;
  private readonly settings: JudgeSettings;

  constructor(readonly opts: JudgeOptions = {}) {
    this.settings = JudgeSettings.parse(opts);
    const baseURL = opts.baseURL ?? process.env.OPENAI_BASE_URL;
    if (!baseURL) throw new Error("judge: no endpoint (pass baseURL / --judge-url, or set OPENAI_BASE_URL)");
    this.model = opts.model ?? process.env.COMPOSER_LAB_JUDGE_MODEL ?? "gpt-4o-mini";
    this.client = openaiClient({ baseURL, apiKey: opts.apiKey, maxRetries: 0, timeout_ms: this.settings.timeout_ms });
    this.limit = pLimit(this.settings.concurrency);
    this.cacheDir = opts.cache_dir === false ? null : join(opts.cache_dir ?? scratchDir("cache", "judge"), this.model.replace(/[^\w.-]/g, "_"));
    if (this.cacheDir) mkdirSync(this.cacheDir, { recursive: true });
    this.templates = opts.templates ?? new TemplateRegistry();
  }

  /** The gate: a template miss at an error site, or a sampled clean turn flagged for style /
   *  communication / effort. */
  shouldFire(ctx: ErrorContext): boolean {
    if (ctx.clean) return ctx.behavior_dim !== "tool_use" && sampled(ctx, this.settings.sample_rate, this.settings.seed);
    return this.templates.dispatch(ctx.error_kind, ctx) === null;
  }

  private readCache(key: string): { hint: string | null } | undefined {
    if (!this.cacheDir) return undefined;
    try {
      return JSON.parse(readFileSync(join(this.cacheDir, `${key}.json`), "utf8"));
    } catch {
      return undefined;
    }
  }

  private writeCache(key: string, hint: string | null): void {
    if (!this.cacheDir) return;
    // temp file + rename: concurrent writers never leave a torn entry; the last one wins.
    const tmp = join(this.cacheDir, `.${key}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    writeFileSync(tmp, JSON.stringify({ hint, model: this.model, created: new Date().toISOString() }));
    renameSync(tmp, join(this.cacheDir, `${key}.json`));
  }

  async generate(ctx: ErrorContext): Promise<string | null> {
    if (!this.shouldFire(ctx)) {
      this.stats.gated_out++;
      return null;
    }
    const key = judgeCacheKey(ctx);
    const cached = this.readCache(key);
    if (cached) {
      this.stats.cache_hits++;
      return cached.hint;
    }
    const text = await this.limit(() => this.call(ctx));
    if (text === undefined) return null; // failed after retries: decline, do not cache
    const hint = text.trim() === "NO_HINT" || text.trim() === "" ? null : firstSentences(text, 2);
    if (hint === null) this.stats.no_hint++;
    this.writeCache(key, hint);
    return hint;
  }

  private async call(ctx: ErrorContext): Promise<string | undefined> {
    const retries = this.settings.max_retries;
    for (let attempt = 0; ; attempt++) {
      try {
        this.stats.calls++;
        const r = await this.client.chat.completions.create({
          model: this.model,
          temperature: 0,
          max_tokens: this.opts.max_tokens ?? 120,
          messages: [
            { role: "system", content: JUDGE_SYSTEM },
            { role: "user", content: judgePrompt(ctx) },
          ],
        });
        const u = r.usage;
        if (u) {
          this.stats.prompt_tokens += u.prompt_tokens;
          this.stats.completion_tokens += u.completion_tokens;
          const p = this.opts.prices;
          if (p) this.stats.cost_usd += (u.prompt_tokens * p.input_per_mtok + u.completion_tokens * p.output_per_mtok) / 1e6;
        }
        return r.choices[0]?.message?.content ?? "";
      } catch (e) {
        this.stats.last_error = (e as Error).message;
        if (!RETRYABLE(e) || attempt >= retries) {
          this.stats.failures++;
          return undefined;
        }
        this.stats.retries++;
        const retryAfter = e instanceof openaiSdk().APIError ? Number(e.headers?.get?.("retry-after")) : NaN;
        const base = this.settings.backoff_ms;
        await sleep(Number.isFinite(retryAfter) ? Math.min(retryAfter * 1000, 30_000) : base * 2 ** attempt * (0.5 + Math.random() / 2));
      }
    }
  }
}
