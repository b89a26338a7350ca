/**
 * FeatureDeletionEpisode over HTTP, in the OpenEnv style (meta-pytorch/OpenEnv's HTTP server: POST
 * /reset → {observation, reward, done}, POST /step {action} → {observation, reward, done}, GET
 * /state → {episode_id, step_count}, GET /health → {status: "healthy"}; a bad body is a 422 whose
 * `detail` lists each issue with its `loc`), plus what a trainer needs beyond one episode:
 *   POST /reset  {task_id?, seed?, episode_id?}       a new episode (a session id: episode_id)
 *   POST /step   {episode_id, action}                 one tool; submit (or max_turns) grades
 *   GET  /state?episode_id=ID                         one episode's state; without an id, all of them
 *   POST /close  {episode_id}                         end an episode now (its working copy is removed)
 *   POST /reward {prompts?, completions, task_id, …}  TRL reward_funcs: one grade per completion
 *   GET  /tasks, GET /health
 * Episodes are sessions: each holds its own env and working copy; one left idle past
 * `idle_timeout_s` is reaped (its temp folder removed). close() stops accepting (503), answers
 * every accepted request, then releases every episode.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { z, type ZodError } from "zod";
import { InFlightRequests, listenHttp, readJsonBody, sendJson } from "../core/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { loadTask, readIndex, type FeatureDeletionTask } from "../tasks/index.js";
import { Action } from "./actions.js";
import { FeatureDeletionEpisode, type Grade } from "./env.js";
import { makeGradeFn, type GradeCompletionResult } from "./reward.js";

export const EnvServerOptions = z.object({
  /** The task pool (a `tasks build` output folder). */
  pool: z.string().min(1),
  sandbox: z.custom<Sandbox>((s) => typeof s === "object" && s !== null && "run" in s && "name" in s, "sandbox must be a lib/sandbox Sandbox"),
  host: z.string().default("127.0.0.1"),
  /** 0: any free port (the bound one is in the handle). */
  port: z.number().int().min(0).max(65535).default(0),
  /** An episode with no request for this long is reaped (its working copy removed). */
  idle_timeout_s: z.number().positive().default(600),
  /** Episodes held at once; past that /reset answers 429. */
  max_sessions: z.number().int().min(1).default(64),
  /** Steps an episode may take before it is graded as if submitted. */
  max_turns: z.number().int().min(1).default(40),
  /** Completions /reward grades at once. */
  reward_concurrency: z.number().int().min(1).default(2),
  max_body_bytes: z.number().int().positive().default(16 * 1024 * 1024),
  log: z.function().args(z.string()).returns(z.void()).optional(),
});
export type EnvServerOptions = z.input<typeof EnvServerOptions>;

/** POST /reset: a task by id, else the pool's task at `seed` (mod the pool size), else a random one. */
export const ResetRequest = z.object({
  task_id: z.string().min(1).optional(),
  seed: z.number().int().min(0).optional(),
  /** A custom id (an existing episode with it is reset onto the new task). */
  episode_id: z.string().min(1).max(255).regex(/^[\w.:-]+$/, "letters, digits, '.', ':', '_' and '-'").optional(),
}).strict();
export type ResetRequest = z.infer<typeof ResetRequest>;

export const StepRequest = z.object({
  episode_id: z.string().min(1),
  action: Action,
  request_id: z.string().max(255).optional(),
}).strict();
export type StepRequest = z.infer<typeof StepRequest>;

export const CloseRequest = z.object({ episode_id: z.string().min(1) }).strict();

/** A completion as TRL passes it: text, or a conversation (the assistant turns' text is graded). */
const Completion = z.union([z.string(), z.array(z.object({ role: z.string(), content: z.string() }).passthrough())]);

/** POST /reward: TRL's reward_funcs call (dataset columns as keyword lists; other columns ignored). */
export const RewardRequest = z.object({
  prompts: z.array(z.unknown()).optional(),
  completions: z.array(Completion).min(1),
  task_id: z.union([z.string().min(1), z.array(z.string().min(1))]),
}).passthrough();
export type RewardRequest = z.infer<typeof RewardRequest>;

/** One test's outcome in a step's grade. */
const perTestView = (g: Grade) => g.perTest.map((t) => ({ nodeid: t.nodeid, outcome: t.outcome, group: t.group }));

/** What an answer shows of a grade. */
export const gradeView = (g: Grade | GradeCompletionResult) => ({
  reward: g.reward, frac: g.frac, guard_ok: g.guardOk, hacked: g.hacked, flags: g.flags, per_test: perTestView(g), wall_ms: Math.round(g.wallMs),
  ...("kind" in g ? { kind: g.kind, error: g.error } : {}),
});

/** A failure answered with a status; `field` names the offending body field (or query parameter). */
export class EnvHttpError extends Error {
  constructor(readonly status: number, message: string, readonly field: string | null = null, readonly code: string | null = null, readonly detail: { loc: (string | number)[]; msg: string; type: string }[] | null = null) {
    super(message);
  }

  body() {
    return { error: { message: this.message, field: this.field, code: this.code }, detail: this.detail ?? this.message };
  }

  /** A 422 naming the first offending field (`action.path`), with every issue in `detail` (OpenEnv/FastAPI's shape). */
  static fromZod(e: ZodError, where = "body"): EnvHttpError {
    const dotted = (p: (string | number)[]) => p.map((k, i) => (typeof k === "number" ? `[${k}]` : i ? `.${k}` : k)).join("");
    const fieldOf = (i: ZodError["issues"][number]) => (i.code === "unrecognized_keys" ? dotted([...i.path, i.keys[0]!]) : dotted(i.path)) || "(body)";
    const issues = e.issues.map((i) => `${fieldOf(i)}: ${i.code === "unrecognized_keys" ? `unknown field(s) ${i.keys.join(", ")}` : i.message}`);
    const first = e.issues[0];
    return new EnvHttpError(422, `Invalid request: ${issues.join("; ")}`, first ? fieldOf(first) : null, "invalid_value", e.issues.map((i) => ({ loc: [where, ...i.path], msg: i.message, type: i.code })));
  }
}

interface Episode {
  id: string;
  env: FeatureDeletionEpisode;
  task_id: string;
  created_at: number;
  last_activity_at: number;
  /** A step is running (the reaper skips it; a second step answers 409). */
  busy: boolean;
  reward: number | null;
}

export interface EnvServerStats {
  requests: number;
  episodes_started: number;
  episodes_reaped: number;
  episodes_closed: number;
  steps: number;
  graded_completions: number;
  errors: number;
}

export interface RunningEnvServer {
  url: string;
  host: string;
  port: number;
  stats: EnvServerStats;
  /** Episodes held now. */
  sessions(): number;
  /** Requests accepted and not yet answered. */
  pending(): number;
  /** Reaps episodes idle past the timeout now (also runs on a timer); returns how many. */
  reap(): number;
  /** Stops accepting, answers every accepted request, releases every episode. */
  close(): Promise<void>;
}

export async function serveEnv(options: EnvServerOptions): Promise<RunningEnvServer> {
  const o = EnvServerOptions.parse(options);
  const log = o.log ?? (() => {});
  const index = readIndex(o.pool);
  if (!index.length) throw new Error(`${o.pool}: the pool holds no tasks (index.jsonl is empty or missing)`);
  const taskIds = index.map((t) => t.task_id);
  const known = new Set(taskIds);
  const taskCache = new Map<string, FeatureDeletionTask>();
  const task = (id: string) => taskCache.get(id) ?? (taskCache.set(id, loadTask(o.pool, id)), taskCache.get(id)!);
  const gradeFn = makeGradeFn({ pool: o.pool, sandbox: o.sandbox, concurrency: o.reward_concurrency });
  const episodes = new Map<string, Episode>();
  const stats: EnvServerStats = { requests: 0, episodes_started: 0, episodes_reaped: 0, episodes_closed: 0, steps: 0, graded_completions: 0, errors: 0 };
  const requests = new InFlightRequests();

  const parse = async <T>(req: IncomingMessage, schema: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<T> => {
    const body = await readJsonBody(req, o.max_body_bytes, (status, message, code) => new EnvHttpError(status, message, null, code));
    const r = schema.safeParse(body ?? {});
    if (!r.success) throw EnvHttpError.fromZod(r.error);
    return r.data;
  };
  const episodeOf = (id: string, field = "episode_id"): Episode => {
    const ep = episodes.get(id);
    if (!ep) throw new EnvHttpError(404, `${field}: no episode '${id}' (never started, closed, or reaped after ${o.idle_timeout_s} s idle); POST /reset starts one`, field, "unknown_episode");
    return ep;
  };
  const release = (ep: Episode, why: "reaped" | "closed") => {
    ep.env.close();
    episodes.delete(ep.id);
    stats[why === "reaped" ? "episodes_reaped" : "episodes_closed"]++;
  };
  const stateOf = (ep: Episode) => ({
    episode_id: ep.id, step_count: ep.env.turns, task_id: ep.task_id, done: ep.env.done, reward: ep.reward, busy: ep.busy,
    created_at: ep.created_at / 1000, last_activity_at: ep.last_activity_at / 1000, max_turns: ep.env.max_turns,
  });

  async function reset(req: IncomingMessage) {
    const r = await parse(req, ResetRequest);
    if (r.task_id !== undefined && !known.has(r.task_id)) throw new EnvHttpError(422, `task_id: '${r.task_id}' is not in the pool (${taskIds.length} tasks; GET /tasks lists them)`, "task_id", "unknown_task");
    const id = r.task_id ?? taskIds[r.seed !== undefined ? r.seed % taskIds.length : Math.floor(Math.random() * taskIds.length)]!;
    let ep = r.episode_id !== undefined ? episodes.get(r.episode_id) : undefined;
    if (ep?.busy) throw new EnvHttpError(409, `episode_id: episode '${ep.id}' has a step running; reset it once that step is answered`, "episode_id", "episode_busy");
    if (!ep && episodes.size >= o.max_sessions) throw new EnvHttpError(429, `${episodes.size} episodes held (max_sessions ${o.max_sessions}): close one (POST /close) or wait for idle ones to be reaped`, null, "too_many_sessions");
    const now = Date.now();
    if (!ep) {
      ep = { id: r.episode_id ?? randomUUID(), env: new FeatureDeletionEpisode({ sandbox: o.sandbox, max_turns: o.max_turns }), task_id: id, created_at: now, last_activity_at: now, busy: false, reward: null };
      episodes.set(ep.id, ep);
    }
    const prompt = ep.env.reset(task(id)); // closes the episode's previous working copy
    Object.assign(ep, { task_id: id, last_activity_at: now, reward: null });
    stats.episodes_started++;
    log(`reset ${ep.id} → ${id}`);
    return { episode_id: ep.id, observation: { prompt, task_id: id, step_count: 0 }, reward: null, done: false };
  }

  async function step(req: IncomingMessage) {
    const r = await parse(req, StepRequest);
    const ep = episodeOf(r.episode_id);
    if (ep.busy) throw new EnvHttpError(409, `episode_id: episode '${ep.id}' already has a step running (one step at a time per episode)`, "episode_id", "episode_busy");
    if (ep.env.done) throw new EnvHttpError(409, `episode_id: episode '${ep.id}' is over (reward ${ep.reward}); POST /reset starts a new one`, "episode_id", "episode_done");
    ep.busy = true;
    try {
      const s = await ep.env.step(r.action);
      stats.steps++;
      ep.reward = s.done ? s.reward : null;
      const grade = s.done ? gradeView(s.info as unknown as Grade) : null;
      // a finished episode keeps its record for GET /state until closed or reaped; its working copy goes now
      if (s.done) ep.env.close();
      return {
        episode_id: ep.id,
        observation: { text: s.observation, step_count: ep.env.turns, ok: s.info.ok ?? null, refused: s.info.refused ?? null, grade },
        reward: s.done ? s.reward : null, done: s.done, ...(r.request_id !== undefined ? { request_id: r.request_id } : {}),
      };
    } finally {
      ep.busy = false;
      ep.last_activity_at = Date.now();
    }
  }

  async function reward(req: IncomingMessage) {
    const r = await parse(req, RewardRequest);
    const ids = Array.isArray(r.task_id) ? r.task_id : r.completions.map(() => r.task_id as string);
    if (ids.length !== r.completions.length) throw new EnvHttpError(422, `task_id: ${ids.length} task ids for ${r.completions.length} completions (give one per completion, or one for all)`, "task_id", "length_mismatch");
    const bad = ids.findIndex((t) => !known.has(t));
    if (bad >= 0) throw new EnvHttpError(422, `task_id[${bad}]: '${ids[bad]}' is not in the pool (GET /tasks lists them)`, `task_id[${bad}]`, "unknown_task");
    const texts = r.completions.map((c) => (typeof c === "string" ? c : c.filter((m) => m.role === "assistant").map((m) => m.content).join("\n")));
    const grades = await gradeFn([], texts, { task_id: ids });
    stats.graded_completions += grades.length;
    return { rewards: grades.map((g) => g.reward), results: grades.map((g, i) => ({ task_id: ids[i]!, ...gradeView(g) })) };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    if (requests.closing) throw new EnvHttpError(503, "The server is shutting down", null, "shutting_down");
    const reply = (body: unknown) => {
      if (requests.closing) res.setHeader("connection", "close");
      sendJson(res, 200, body);
    };
    const routes: Record<string, { method: "GET" | "POST"; run: () => unknown }> = {
      "/health": { method: "GET", run: () => ({ status: "healthy", sessions: episodes.size, max_sessions: o.max_sessions, tasks: taskIds.length, idle_timeout_s: o.idle_timeout_s, sandbox: o.sandbox.name }) },
      "/tasks": { method: "GET", run: () => ({ tasks: index.map((t) => ({ task_id: t.task_id, fail_to_pass: t.fail_to_pass.length, pass_to_pass: t.pass_to_pass.length, description: t.description })) }) },
      "/state": {
        method: "GET",
        run: () => {
          const id = url.searchParams.get("episode_id");
          return id !== null ? stateOf(episodeOf(id)) : { sessions: episodes.size, episodes: [...episodes.values()].map(stateOf) };
        },
      },
      "/reset": { method: "POST", run: () => reset(req) },
      "/step": { method: "POST", run: () => step(req) },
      "/close": { method: "POST", run: async () => (release(episodeOf((await parse(req, CloseRequest)).episode_id), "closed"), { closed: true }) },
      "/reward": { method: "POST", run: () => reward(req) },
    };
    const r = routes[path];
    if (!r) throw new EnvHttpError(404, `Unknown route ${method} ${path} (this server has ${Object.entries(routes).map(([p, x]) => `${x.method} ${p}`).join(", ")})`, null, "unknown_url");
    if (method !== r.method) throw new EnvHttpError(405, `${method} ${path}: use ${r.method}`, null, "method_not_allowed");
    reply(await r.run());
  }

  const reapIdle = (): number => {
    const cutoff = Date.now() - o.idle_timeout_s * 1000;
    let n = 0;
    for (const ep of [...episodes.values()]) if (!ep.busy && ep.last_activity_at <= cutoff) (release(ep, "reaped"), n++);
    if (n) log(`reaped ${n} idle episode(s)`);
    return n;
  };
  const reaper = setInterval(reapIdle, Math.min(30_000, Math.max(50, (o.idle_timeout_s * 1000) / 4)));
  reaper.unref();

  const server: Server = createServer((req, res) => {
    stats.requests++;
    requests.begin();
    route(req, res)
      .catch((e: unknown) => {
        const f = e instanceof EnvHttpError ? e : new EnvHttpError(500, `Internal error: ${(e as Error).message}`, null, "internal_error");
        if (!(e instanceof EnvHttpError)) log(`error: ${(e as Error).stack ?? e}`);
        stats.errors++;
        log(`${req.method} ${req.url} ${f.status} ${f.message}`);
        if (!res.headersSent) {
          if (requests.closing) res.setHeader("connection", "close");
          sendJson(res, f.status, f.body());
        } else res.end();
      })
      .finally(() => requests.end());
  });
  requests.attach(server);
  // a step that runs the tests keeps a client's connection quiet for a while: listenHttp keeps it 65 s
  const { port, url } = await listenHttp(server, o.port, o.host);

  let closed: Promise<void> | null = null;
  return {
    url, host: o.host, port, stats,
    sessions: () => episodes.size,
    pending: () => requests.count,
    reap: reapIdle,
    close: () =>
      (closed ??= (async () => {
        clearInterval(reaper);
        const { answered, closed: listenerClosed } = requests.close();
        await answered;
        for (const ep of [...episodes.values()]) release(ep, "closed");
        await listenerClosed;
      })()),
  };
}
