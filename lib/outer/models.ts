/**
 * The OUTER loop's policies: any OpenAI-compatible chat endpoint (a lab checkpoint behind
 * `composer-lab serve`, vLLM, a hosted API). One ModelClient per endpoint: its own concurrency
 * limit (p-limit), retries with exponential backoff and a per-request timeout (the `openai`
 * client's own), token and cost accounting from `usage`. A failed request is recorded in the
 * Completion it returns, never thrown: one endpoint down must not stop a tree.
 */
import OpenAI from "openai";
import pLimit, { type LimitFunction } from "p-limit";
import { z } from "zod";

/** A chat message as the endpoints and chat-format traces carry it (tool calls in the OpenAI shape). */
export const ChatToolCall = z.object({
  id: z.string(),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ChatToolCall = z.infer<typeof ChatToolCall>;
export const ChatMessage = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  tool_calls: z.array(ChatToolCall).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
  /** A tool result that failed (chat-format traces carry it; never sent to an endpoint). */
  is_error: z.boolean().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ModelEndpoint = z.object({
  /** Base URL of the OpenAI-compatible API (".../v1"; a bare host gets "/v1"). */
  url: z.string().url(),
  /** Model name sent in requests; default: the first id /v1/models lists. */
  model: z.string().optional(),
  /** Label in records and counts (default: model@host:port). */
  label: z.string().optional(),
  api_key: z.string().optional(),
  /** Requests in flight at once to this endpoint. */
  concurrency: z.number().int().positive().default(2),
  /** Retries after a connection error, 408/409/429 or 5xx, with exponential backoff (the openai client's). */
  retries: z.number().int().min(0).default(2),
  timeout_ms: z.number().int().positive().default(60_000),
  temperature: z.number().min(0).default(0),
  max_tokens: z.number().int().positive().default(256),
  /** Ask for token log-probs (endpoints that do not support them may ignore or refuse it; a refusal retries without). */
  logprobs: z.boolean().default(true),
  /** US$ per million tokens, for the cost figures. */
  price_prompt: z.number().min(0).default(0),
  price_completion: z.number().min(0).default(0),
});
export type ModelEndpoint = z.infer<typeof ModelEndpoint>;

/** "URL[#model][,URL[#model]…]" (the CLI's --models) → endpoints with `defaults`. */
export function parseModelList(spec: string, defaults: Partial<ModelEndpoint> = {}): ModelEndpoint[] {
  const parts = spec.split(",").map((s) => s.trim()).filter(Boolean);
  if (!parts.length) throw new Error("--models: give at least one endpoint URL");
  return parts.map((p, i) => {
    const [url, model] = p.split("#");
    const r = ModelEndpoint.safeParse({ ...defaults, url, ...(model ? { model } : {}) });
    if (!r.success) throw new Error(`--models item ${i + 1} (${p}): ${r.error.issues.map((x) => `${x.path.join(".") || "url"}: ${x.message}`).join("; ")}`);
    return r.data;
  });
}

/** One endpoint's answer to one state; `error` set (and nothing else) when the request failed. */
export interface Completion {
  model: string;
  error: string | null;
  content: string;
  tool_calls: { id: string; name: string; arguments: string }[];
  /** Asked in the compact view (the full state did not fit the endpoint's context). */
  compact?: boolean;
  /** Mean token log-prob of the answer, when the endpoint returned logprobs. */
  logprob: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  ms: number;
}

export interface ModelStats {
  model: string;
  url: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  seconds: number;
}

/** The openai tool definitions a request carries (OpenAI's function-tool shape). */
export type ToolDefinition = OpenAI.Chat.Completions.ChatCompletionTool;

const baseUrl = (url: string): string => {
  const u = new URL(url);
  return u.pathname === "/" || u.pathname === "" ? `${u.origin}/v1` : url.replace(/\/$/, "");
};

/** A message as the API takes it (only the fields OpenAI defines). */
function wireMessage(m: ChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  const { role, content, tool_calls, tool_call_id } = m;
  if (role === "tool") return { role, content, tool_call_id: tool_call_id ?? "" };
  if (role === "assistant") return tool_calls?.length ? { role, content, tool_calls: tool_calls.map((c) => ({ id: c.id, type: "function", function: c.function })) } : { role, content };
  return { role, content };
}

export class ModelClient {
  readonly endpoint: ModelEndpoint;
  private readonly client: OpenAI;
  private readonly limit: LimitFunction;
  private model: Promise<string> | null = null;
  /** The endpoint's context length, when /v1/models says (context_length, or vLLM's max_model_len). */
  private context: number | null = null;
  private logprobsOk: boolean;
  readonly stats: ModelStats;

  constructor(endpoint: z.input<typeof ModelEndpoint>) {
    this.endpoint = ModelEndpoint.parse(endpoint);
    const e = this.endpoint;
    this.client = new OpenAI({ baseURL: baseUrl(e.url), apiKey: e.api_key ?? process.env.OPENAI_API_KEY ?? "none", timeout: e.timeout_ms, maxRetries: e.retries });
    this.limit = pLimit(e.concurrency);
    this.logprobsOk = e.logprobs;
    const host = new URL(e.url).host;
    this.stats = { model: e.label ?? (e.model ? `${e.model}@${host}` : host), url: e.url, requests: 0, errors: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, seconds: 0 };
  }

  /** The label records carry. */
  get label(): string {
    return this.stats.model;
  }

  /** The model name requests use (asked of /v1/models once when not configured). */
  private modelName(): Promise<string> {
    this.model ??= this.client.models.list().then((page) => {
      const entry = (this.endpoint.model ? page.data.find((m) => m.id === this.endpoint.model) : page.data[0]) as (OpenAI.Models.Model & { context_length?: unknown; max_model_len?: unknown }) | undefined;
      if (!entry) {
        if (this.endpoint.model) return this.endpoint.model; // a hosted API need not list every model
        throw new Error(`${this.endpoint.url}: /v1/models lists no model`);
      }
      const ctx = Number(entry.context_length ?? entry.max_model_len);
      if (Number.isFinite(ctx) && ctx > 0) this.context = ctx;
      return entry.id;
    }, (e) => {
      if (this.endpoint.model) return this.endpoint.model; // no /v1/models: the configured name
      throw e;
    });
    // a failure is not cached: the next request asks again
    this.model.catch(() => (this.model = null));
    return this.model;
  }

  /** Asks the endpoint its model name now (when not configured), so records carry "model@host"
   *  from the first request; an endpoint that does not answer keeps its host as its label. */
  async init(): Promise<this> {
    try {
      const id = await this.modelName();
      if (!this.endpoint.label) this.stats.model = `${id}@${new URL(this.endpoint.url).host}`;
    } catch {
      /* recorded when a request fails */
    }
    return this;
  }

  /** One answer to `messages`; failures come back as `error`, never thrown. With `compact` (a
   *  short view of the same state, e.g. the deleted function's stub, sent without tools), a state
   *  longer than the endpoint's context (its /v1/models context_length or max_model_len, or a 400
   *  that says so) is asked in the compact view instead: the lab's byte-level policies read 256 bytes. */
  async complete(messages: ChatMessage[], tools: ToolDefinition[] = [], opts: { signal?: AbortSignal; compact?: { messages: ChatMessage[]; stop?: string[] } } = {}): Promise<Completion> {
    const c = opts.compact;
    const size = JSON.stringify(messages).length + (tools.length ? JSON.stringify(tools).length : 0);
    const compactly = async (): Promise<Completion> => {
      // the answer must fit beside the prompt (bytes over-count tokens for any tokenizer but a byte one)
      const room = this.context === null ? this.endpoint.max_tokens : this.context - Buffer.byteLength(c!.messages.map((m) => m.content).join("\n")) - 8;
      return { ...(await this.completeOnce(c!.messages, [], c!.stop, Math.max(8, Math.min(this.endpoint.max_tokens, room)), opts)), compact: true };
    };
    if (c && this.context !== null && size > this.context) return compactly();
    const full = await this.completeOnce(messages, tools, undefined, this.endpoint.max_tokens, opts);
    if (c && full.error && /\b400\b/.test(full.error) && /context|too long|maximum/i.test(full.error)) {
      const said = /context length is (\d+)/i.exec(full.error);
      if (said) this.context = Number(said[1]);
      this.stats.errors--; // answered in the compact view below: not a failed request
      return compactly();
    }
    return full;
  }

  private completeOnce(messages: ChatMessage[], tools: ToolDefinition[], stop: string[] | undefined, maxTokens: number, opts: { signal?: AbortSignal } = {}): Promise<Completion> {
    return this.limit(async () => {
      const t0 = performance.now();
      this.stats.requests++;
      const empty = { content: "", tool_calls: [], logprob: null, prompt_tokens: 0, completion_tokens: 0 };
      try {
        const model = await this.modelName();
        const ask = (logprobs: boolean) =>
          this.client.chat.completions.create(
            {
              model, messages: messages.map(wireMessage), temperature: this.endpoint.temperature, max_tokens: maxTokens,
              ...(tools.length ? { tools } : {}), ...(logprobs ? { logprobs: true } : {}), ...(stop?.length ? { stop } : {}),
            },
            { signal: opts.signal },
          );
        let res: OpenAI.Chat.Completions.ChatCompletion;
        try {
          res = await ask(this.logprobsOk);
        } catch (e) {
          // an endpoint that refuses logprobs (400) is asked again without, and from then on
          if (!(this.logprobsOk && e instanceof OpenAI.BadRequestError && /logprob/i.test(e.message))) throw e;
          this.logprobsOk = false;
          res = await ask(false);
        }
        const choice = res.choices?.[0];
        if (!choice) throw new Error("the response has no choices");
        const calls = (choice.message.tool_calls ?? []).map((c, i) => {
          const fn = (c as { function?: { name?: unknown; arguments?: unknown } }).function ?? {};
          return { id: String(c.id ?? `call_${i}`), name: String(fn.name ?? ""), arguments: typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? null) };
        });
        const lp = choice.logprobs?.content?.map((t) => t.logprob).filter((x) => Number.isFinite(x)) ?? [];
        const prompt_tokens = res.usage?.prompt_tokens ?? 0;
        const completion_tokens = res.usage?.completion_tokens ?? 0;
        this.stats.prompt_tokens += prompt_tokens;
        this.stats.completion_tokens += completion_tokens;
        this.stats.cost_usd += (prompt_tokens * this.endpoint.price_prompt + completion_tokens * this.endpoint.price_completion) / 1e6;
        return { model: this.label, error: null, content: choice.message.content ?? "", tool_calls: calls, logprob: lp.length ? lp.reduce((a, b) => a + b, 0) / lp.length : null, prompt_tokens, completion_tokens, ms: performance.now() - t0 };
      } catch (e) {
        this.stats.errors++;
        const err = e as Error & { status?: number };
        return { model: this.label, error: `${err.constructor?.name ?? "Error"}${err.status ? ` ${err.status}` : ""}: ${err.message}`.slice(0, 500), ...empty, ms: performance.now() - t0 };
      } finally {
        this.stats.seconds += (performance.now() - t0) / 1000;
      }
    });
  }
}
