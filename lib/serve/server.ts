/**
 * The HTTP server: OpenAI-compatible routes over one ServedModel.
 *   POST /v1/chat/completions   (stream: true answers Server-Sent Events, sent once the generation is done)
 *   POST /v1/completions        (legacy: raw text prompts; echo + logprobs score a text under the model)
 *   GET  /v1/models, /v1/models/{id}, /health
 * Requests are validated by zod (a 400 in the OpenAI error shape names the field). Generations run
 * one batch at a time — the sampler is synchronous and the machine's cores are shared — through a
 * GenerationQueue (unseeded requests with the same settings share a batch, up to `max_batch` rows)
 * of at most `max_queue` waiting requests; past that a request gets 429. close() stops accepting,
 * answers what was accepted, then resolves.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { z } from "zod";
import { InFlightRequests, listenHttp, readJsonBody, sendJson as send } from "../core/index.js";
import { loadCheckpoint, Policy } from "../train/index.js";
import { ApiFailure } from "./errors.js";
import { ServedModel, type GenerationPlan } from "./model.js";
import { GenerationQueue } from "./queue.js";
import { ChatCompletionRequest, CompletionRequest, type Usage } from "./schema.js";
import { streamChunks } from "./stream.js";

export const ServeOptions = z
  .object({
    /** A checkpoint dir, or a run dir (its latest checkpoint). */
    checkpoint: z.string().min(1).optional(),
    /** A policy in memory (a notebook's), instead of a checkpoint. */
    policy: z
      // duck-typed: a notebook may hold a Policy from the other build (dist/ vs sources) of lib/train
      .custom<Policy>((p) => p instanceof Policy || (typeof p === "object" && p !== null && "forwardCached" in p && "config" in p), "policy must be a lib/train Policy")
      .optional(),
    /** The model id; default: the checkpoint's folder name (a run dir's, not ckpt_NNNNNN), else "policy". */
    name: z.string().min(1).optional(),
    host: z.string().default("127.0.0.1"),
    /** 0: any free port (the bound one is in the handle). */
    port: z.number().int().min(0).max(65535).default(0),
    /** Requests allowed to wait behind the running one before 429s. */
    max_queue: z.number().int().min(0).default(64),
    /** Rows (prompts × n) one batch of the sampler may hold when unseeded requests are batched together; 1: never batch requests. */
    max_batch: z.number().int().min(1).default(16),
    /** Stop sequences for requests that give none. */
    stop: z.array(z.string().min(1)).default([]),
    /** How requests' tools reach the policy: "lab" (ToolCallEpisode's format, calls parsed) or "ignore" (left out; see ServedModelInfo). */
    tool_prompt: z.enum(["lab", "ignore"]).default("lab"),
    /** Request bodies larger than this get 413. */
    max_body_bytes: z.number().int().positive().default(4 * 1024 * 1024),
    /** Where one line per request goes (default: nowhere). */
    log: z.function().args(z.string()).returns(z.void()).optional(),
  })
  .refine((o) => !!o.checkpoint !== !!o.policy, { message: "give exactly one of checkpoint and policy" });
export type ServeOptions = z.input<typeof ServeOptions>;

export interface ServerStats {
  requests: number;
  completions: number;
  completion_tokens: number;
  prompt_tokens: number;
  rejected_busy: number;
  errors: number;
}

export interface RunningServer {
  /** http://host:port (the OpenAI base_url is url + "/v1"). */
  url: string;
  baseURL: string;
  host: string;
  port: number;
  model: ServedModel;
  stats: ServerStats;
  /** Requests accepted and not yet answered (running or queued). */
  pending(): number;
  /** Stops accepting, answers every accepted request, closes the connections. */
  close(): Promise<void>;
}

const modelEntry = (m: ServedModel) => ({
  id: m.name, object: "model" as const, created: m.created, owned_by: "composer-lab",
  context_length: m.contextLength, tool_prompt: m.toolPrompt, default_stop: m.defaultStop, checkpoint: m.checkpoint, step: m.step, fingerprint: m.fingerprint, config: m.policy.config,
});

/** A checkpoint path's model name: the folder, or the run folder when it is a ckpt_NNNNNN. */
function nameOf(path: string): string {
  const parts = path.replace(/[\\/]+$/, "").split(/[\\/]/);
  const last = parts.at(-1) ?? "policy";
  return /^ckpt_\d+$/.test(last) && parts.length > 1 ? parts.at(-2)! : last;
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const o = ServeOptions.parse(options);
  const loaded = o.checkpoint ? await loadCheckpoint(o.checkpoint) : null;
  const model = new ServedModel({
    name: o.name ?? (o.checkpoint ? nameOf(o.checkpoint) : "policy"),
    policy: loaded?.policy ?? o.policy!,
    checkpoint: loaded?.path ?? null,
    step: loaded?.step ?? null,
    defaultStop: o.stop,
    toolPrompt: o.tool_prompt,
  });
  const log = o.log ?? (() => {});
  const stats: ServerStats = { requests: 0, completions: 0, completion_tokens: 0, prompt_tokens: 0, rejected_busy: 0, errors: 0 };
  const requests = new InFlightRequests();
  /** Connections and requests seen so far (see settleIo). */
  let ioEvents = 0;

  /**
   * Yields to the event loop until a turn brings no new connection or request. A generation blocks
   * the loop, and one turn of it accepts or reads only part of what queued up meanwhile; without
   * this the next generation would start before the waiting requests were even read (so they
   * would neither queue visibly nor meet max_queue).
   */
  async function settleIo(): Promise<void> {
    for (let quiet = 0, turns = 0; quiet < 2 && turns < 256; turns++) {
      const seen = ioEvents;
      await new Promise((r) => setImmediate(r));
      quiet = ioEvents === seen ? quiet + 1 : 0;
    }
  }

  const queue = new GenerationQueue(model, { maxBatchRows: o.max_batch, beforeBatch: settleIo, onBatch: (rows) => log(`generating a batch of ${rows} request(s)`) });

  /** Validates, queues and runs one generation request; the caller sends the answer. */
  async function generation<R extends { model: string }, A extends { choices: unknown[]; usage: Usage }>(
    req: IncomingMessage, path: string, schema: z.ZodType<R, z.ZodTypeDef, unknown>, plan: (r: R) => GenerationPlan<A>,
  ): Promise<{ request: R; answer: A }> {
    const parsed = schema.safeParse(await readJson(req, o.max_body_bytes));
    if (!parsed.success) throw ApiFailure.fromZod(parsed.error);
    const r = parsed.data;
    if (r.model !== model.name) throw new ApiFailure(404, `The model '${r.model}' does not exist (this server serves '${model.name}')`, "invalid_request_error", "model", "model_not_found");
    const p = plan(r); // a prompt that does not fit is a 400 before it queues
    if (queue.waiting >= o.max_queue + (queue.running ? 0 : 1)) {
      stats.rejected_busy++;
      throw new ApiFailure(429, `The server is busy: ${queue.running} request(s) generating and ${queue.waiting} waiting (max_queue ${o.max_queue}). Retry later.`, "rate_limit_error", null, "rate_limit_exceeded");
    }
    log(`POST ${path} accepted (${queue.running + queue.waiting} ahead)`);
    const t0 = performance.now();
    const answer = await queue.submit(p);
    stats.completions += answer.choices.length;
    stats.completion_tokens += answer.usage.completion_tokens;
    stats.prompt_tokens += answer.usage.prompt_tokens;
    log(`POST ${path} 200 n=${answer.choices.length} ${answer.usage.prompt_tokens}+${answer.usage.completion_tokens} tokens ${(performance.now() - t0).toFixed(0)} ms`);
    return { request: r, answer };
  }

  async function chatCompletions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { request: r, answer } = await generation(req, "/v1/chat/completions", ChatCompletionRequest, (x) => model.planChat(x));
    if (r.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...(requests.closing ? { connection: "close" } : {}) });
      for (const chunk of streamChunks(answer, { includeUsage: !!r.stream_options?.include_usage })) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end("data: [DONE]\n\n");
    } else reply(res, 200, answer);
  }

  /** Answers JSON; once closing, the connection closes after the answer. */
  function reply(res: ServerResponse, status: number, body: unknown): void {
    if (requests.closing) res.setHeader("connection", "close");
    send(res, status, body);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    if (requests.closing) throw new ApiFailure(503, "The server is shutting down", "server_error", null, "shutting_down");
    if (path === "/health") return reply(res, 200, { status: "ok", model: model.name, running: queue.running, waiting: queue.waiting, ...queue.counts });
    if (path === "/v1/models" && method === "GET") return reply(res, 200, { object: "list", data: [modelEntry(model)] });
    if (path.startsWith("/v1/models/") && method === "GET") {
      const id = decodeURIComponent(path.slice("/v1/models/".length));
      if (id !== model.name) throw new ApiFailure(404, `The model '${id}' does not exist`, "invalid_request_error", "model", "model_not_found");
      return reply(res, 200, modelEntry(model));
    }
    if (path === "/v1/chat/completions" || path === "/v1/completions") {
      if (method !== "POST") throw new ApiFailure(405, `${method} ${path}: use POST`, "invalid_request_error", null, "method_not_allowed");
      if (path === "/v1/chat/completions") return chatCompletions(req, res);
      return reply(res, 200, (await generation(req, path, CompletionRequest, (x) => model.planText(x))).answer);
    }
    throw new ApiFailure(404, `Unknown route ${method} ${path} (this server has POST /v1/chat/completions, POST /v1/completions, GET /v1/models, GET /health)`, "invalid_request_error", null, "unknown_url");
  }

  const server: Server = createServer((req, res) => {
    stats.requests++;
    ioEvents++;
    requests.begin();
    route(req, res)
      .catch((e: unknown) => {
        const f = e instanceof ApiFailure ? e : new ApiFailure(500, `Internal error: ${(e as Error).message}`);
        if (!(e instanceof ApiFailure)) log(`error: ${(e as Error).stack ?? e}`);
        stats.errors++;
        log(`${req.method} ${req.url} ${f.status} ${f.message}`);
        if (!res.headersSent) reply(res, f.status, f.body());
        else res.end();
      })
      .finally(() => requests.end());
  });
  requests.attach(server);
  // Generations block the event loop, so a client's kept-alive socket may sit idle for a while
  // between requests: listenHttp keeps them 65 s.
  const { port, url } = await listenHttp(server, o.port, o.host);
  server.on("connection", () => void ioEvents++);

  let closed: Promise<void> | null = null;
  return {
    url, baseURL: `${url}/v1`, host: o.host, port, model, stats,
    pending: () => requests.count,
    close: () => (closed ??= requests.close().closed),
  };
}

/** The request body as JSON; a bad one is a 413 / 400 in the OpenAI error shape. */
const readJson = (req: IncomingMessage, limit: number): Promise<unknown> =>
  readJsonBody(req, limit, (status, message, code) => new ApiFailure(status, message, "invalid_request_error", null, code));
