/**
 * `composer-lab serve` as users run it: the real CLI as a child process on a free loopback port,
 * called with the `openai` npm client and with plain fetch. The weights are the committed tool-call
 * SFT checkpoint and a second, different checkpoint written here (a fresh policy of another seed).
 * The prompt the server renders for OpenAI tools is checked against lib/env's own ToolCallEpisode.prompt.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import { TOOL_POOL, ToolCallEpisode } from "../lib/env/index.js";
import { CALL_STOP, parseToolCall, renderPrompt, type FunctionTool } from "../lib/serve/index.js";
import { openAILogprobModel } from "../lib/hints/index.js";
import { Policy, PolicyConfig, loadCheckpoint, saveCheckpoint, scoreContinuation, verifyCheckpoint } from "../lib/train/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const SFT = join(ROOT, "datasets", "train", "toolcall-sft");

interface Served {
  info: Record<string, any>;
  proc: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
  client: OpenAI;
}

const running: Served[] = [];

/** Starts `composer-lab serve … --port 0 --json` and waits for its one JSON line. */
async function startServer(args: string[]): Promise<Served> {
  const proc = spawn(process.execPath, [join(ROOT, "bin", "composer-lab.js"), "serve", "--port", "0", "--json", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((res) => proc.on("exit", (code) => res(code)));
  const info = await new Promise<Record<string, any>>((resolve, reject) => {
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${err}`)));
  });
  const s: Served = { info, proc, stderr: () => err, exited, client: new OpenAI({ baseURL: info.base_url, apiKey: "unused", maxRetries: 0 }) };
  running.push(s);
  return s;
}

/** Resolves once `pred` holds for the server's stderr (polled). */
async function stderrShows(s: Served, pred: (err: string) => boolean): Promise<void> {
  while (!pred(s.stderr())) await new Promise((r) => setTimeout(r, 20));
}

/** OpenAI function tools for ToolCallEpisode's tools (JSON-schema types from the pool's arg types). */
function toolsFor(names: string[]): FunctionTool[] {
  const type = { str: "string", int: "integer", num: "number" } as const;
  return names.map((n) => {
    const spec = TOOL_POOL.find((t) => t.name === n)!;
    return { type: "function", function: { name: n, parameters: { type: "object", properties: Object.fromEntries(Object.entries(spec.args).map(([k, v]) => [k, { type: type[v] }])) } } };
  });
}

const env = new ToolCallEpisode({});
const task = env.tasks.find((t) => t.target === "get_weather")!;

let a: Served;
let b: Served;
let otherCkpt: string;

beforeAll(async () => {
  // A second checkpoint: the SFT checkpoint's shape, fresh weights of another seed.
  await initBackend();
  const config = PolicyConfig.parse({ ...verifyCheckpoint(join(SFT, "ckpt_000600")).config, seed: 7 });
  const policy = new Policy(config);
  otherCkpt = join(tmp("serve-"), "fresh-seed7");
  await saveCheckpoint(otherCkpt, { policy, rngState: 0, step: 0 });
  policy.dispose();
  [a, b] = await Promise.all([startServer(["--checkpoint", SFT]), startServer(["--checkpoint", otherCkpt, "--name", "fresh"])]);
});

afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null) s.proc.kill("SIGKILL");
});

describe("prompt format", () => {
  it("renders OpenAI tools exactly as ToolCallEpisode prompts its policy (any tool order)", () => {
    for (const t of env.tasks.slice(0, 30)) {
      const p = renderPrompt([{ role: "user", content: t.request }], toolsFor([...t.tools].reverse()));
      expect(p.text).toBe(ToolCallEpisode.prompt(t));
      expect(p.stop).toEqual([CALL_STOP]);
    }
  });

  it("without tools is renderMessages (contents joined by newlines)", () => {
    const p = renderPrompt([{ role: "system", content: "s" }, { role: "user", content: [{ type: "text", text: "u" }] }]);
    expect(p.text).toBe("s\nu");
  });

  it("parses the lab's call format into a call of a declared tool only", () => {
    const tools = toolsFor(["get_weather", "add"]);
    expect(parseToolCall(` get_weather {"city": "Oslo"}`, tools)).toEqual({ name: "get_weather", arguments: `{"city":"Oslo"}` });
    expect(parseToolCall(` send_email {"to":"bob"}`, tools)).toBeNull();
    expect(parseToolCall(` add {"a":1,`, tools)).toBeNull();
    expect(parseToolCall(` add [1, 2]`, tools)).toBeNull();
  });
});

describe("composer-lab serve", () => {
  it("reports where it listens, and lists its model", async () => {
    expect(a.info).toMatchObject({ ok: true, model: "toolcall-sft", step: 600, context_length: 256, pid: a.proc.pid, host: "127.0.0.1" });
    expect(a.info.port).toBeGreaterThan(0);
    const models = await a.client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["toolcall-sft"]);
    expect((await b.client.models.list()).data[0]!.id).toBe("fresh");
    const health = await (await fetch(`${a.info.url}/health`)).json();
    expect(health).toMatchObject({ status: "ok", model: "toolcall-sft" });
  });

  it("answers a tool call in the OpenAI shape (the SFT policy, greedy, on a training task)", async () => {
    const r = await a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: task.request }], tools: toolsFor(task.tools), temperature: 0 });
    const c = r.choices[0]!;
    expect(c.finish_reason).toBe("tool_calls");
    expect(c.message.content).toBeNull();
    const call = c.message.tool_calls![0]!;
    expect(call).toMatchObject({ type: "function", function: { name: "get_weather" } });
    expect(call.id).toMatch(/^call_/);
    expect(typeof JSON.parse((call as { function: { arguments: string } }).function.arguments)).toBe("object");
    expect(r.usage).toMatchObject({ prompt_tokens: Buffer.byteLength(ToolCallEpisode.prompt(task)) + 1 });
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
  });

  it("n samples, logprobs with top alternatives, and seeds that repeat", async () => {
    const req = { model: "toolcall-sft", messages: [{ role: "user" as const, content: ToolCallEpisode.prompt(task) }], n: 3, temperature: 1, max_tokens: 12, seed: 5, logprobs: true, top_logprobs: 3 };
    const [r1, r2] = [await a.client.chat.completions.create(req), await a.client.chat.completions.create(req)];
    expect(r1.choices).toHaveLength(3);
    expect(r1.choices.map((c) => c.message.content)).toEqual(r2.choices.map((c) => c.message.content));
    expect(new Set(r1.choices.map((c) => c.message.content)).size).toBeGreaterThan(1);
    for (const c of r1.choices) {
      const lp = c.logprobs!.content!;
      expect(lp.map((t) => Buffer.from(t.bytes!).toString("latin1")).join("")).toBe(Buffer.from(c.message.content!).toString("latin1"));
      for (const t of lp) {
        expect(t.logprob).toBeLessThanOrEqual(0);
        expect(t.top_logprobs).toHaveLength(3);
        // the alternatives are sorted, and the drawn byte's logprob is ≤ the best one
        expect(t.top_logprobs[0]!.logprob).toBeGreaterThanOrEqual(t.top_logprobs[2]!.logprob);
        expect(t.logprob).toBeLessThanOrEqual(t.top_logprobs[0]!.logprob + 1e-4);
        const same = t.top_logprobs.find((x) => x.token === t.token);
        if (same) expect(same.logprob).toBeCloseTo(t.logprob, 3);
      }
    }
    const other = await a.client.chat.completions.create({ ...req, seed: 6 });
    expect(other.choices.map((c) => c.message.content)).not.toEqual(r1.choices.map((c) => c.message.content));
  });

  it("stops at a stop sequence (not included) and at max_tokens", async () => {
    const messages = [{ role: "user" as const, content: ToolCallEpisode.prompt(task) }];
    const full = (await a.client.chat.completions.create({ model: "toolcall-sft", messages, temperature: 0, max_tokens: 40 })).choices[0]!.message.content!;
    expect(full).toContain("{");
    const r = await a.client.chat.completions.create({ model: "toolcall-sft", messages, temperature: 0, stop: ["{"], max_tokens: 40 });
    expect(r.choices[0]!).toMatchObject({ finish_reason: "stop", message: { content: full.slice(0, full.indexOf("{")) } });
    const cut = await a.client.chat.completions.create({ model: "toolcall-sft", messages, temperature: 0, max_completion_tokens: 4 });
    expect(cut.choices[0]!).toMatchObject({ finish_reason: "length", message: { content: full.slice(0, 4) } });
    expect(cut.usage!.completion_tokens).toBe(4);
  });

  it("two checkpoints are two models: different log-probabilities for the same bytes", async () => {
    const messages = [{ role: "user" as const, content: ToolCallEpisode.prompt(task) }];
    const ra = await a.client.chat.completions.create({ model: "toolcall-sft", messages, temperature: 0, max_tokens: 6, logprobs: true, top_logprobs: 5 });
    const rb = await b.client.chat.completions.create({ model: "fresh", messages, temperature: 0, max_tokens: 6, logprobs: true, top_logprobs: 5 });
    expect(ra.system_fingerprint).not.toBe(rb.system_fingerprint);
    const first = (r: typeof ra) => r.choices[0]!.logprobs!.content![0]!.top_logprobs;
    // The SFT policy is sure of its first byte; a fresh policy spreads its mass near uniformly (ln 257 ≈ 5.55).
    expect(first(ra)[0]!.logprob).toBeGreaterThan(-0.5);
    expect(first(rb)[0]!.logprob).toBeLessThan(-4.5);
    expect(await a.client.models.list().then((l) => (l.data[0] as unknown as { fingerprint: string }).fingerprint)).toBe(ra.system_fingerprint);
  });

  it("answers concurrent requests, all of them", async () => {
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: env.tasks[i]!.request }], tools: toolsFor(env.tasks[i]!.tools), temperature: 0, max_tokens: 40 })),
    );
    expect(rs.map((r) => r.choices.length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(new Set(rs.map((r) => r.id)).size).toBe(6);
    // unseeded, same settings: they shared batches of the sampler, and each got its own answer
    const health = (await (await fetch(`${a.info.url}/health`)).json()) as { merged_batches: number };
    expect(health.merged_batches).toBeGreaterThan(0);
    const alone = await a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: env.tasks[3]!.request }], tools: toolsFor(env.tasks[3]!.tools), temperature: 0, max_tokens: 40 });
    const withoutIds = (m: (typeof alone)["choices"][number]["message"]) => ({ ...m, tool_calls: m.tool_calls?.map(({ id: _, ...call }) => call) });
    expect(withoutIds(rs[3]!.choices[0]!.message)).toEqual(withoutIds(alone.choices[0]!.message)); // greedy: the same answer batched or alone
  });

  it("streams Server-Sent Events the openai client reassembles", async () => {
    const full = await a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: ToolCallEpisode.prompt(task) }], temperature: 0, max_tokens: 20 });
    const stream = await a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: ToolCallEpisode.prompt(task) }], temperature: 0, max_tokens: 20, stream: true, stream_options: { include_usage: true } });
    let text = "";
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const ch of stream) {
      text += ch.choices[0]?.delta.content ?? "";
      finish = ch.choices[0]?.finish_reason ?? finish;
      usage = ch.usage ?? usage;
    }
    expect(text).toBe(full.choices[0]!.message.content);
    expect(finish).toBe(full.choices[0]!.finish_reason);
    expect(usage).toEqual(full.usage);
  });
});

describe("tool_choice, and serving in process", () => {
  it("tool_choice naming a function writes its name for the policy; 'none' leaves the tools out", async () => {
    const tools = toolsFor(task.tools);
    const forced = task.tools.find((n) => n !== task.target)!;
    const r = await a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: task.request }], tools, tool_choice: { type: "function", function: { name: forced } }, temperature: 0, max_tokens: 40 });
    const m = r.choices[0]!.message;
    expect(m.tool_calls?.[0]?.type === "function" ? m.tool_calls[0].function.name : m.content?.trim().split(/[\s{]/)[0]).toBe(forced);
    const none = await a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: task.request }], tools, tool_choice: "none", temperature: 0, max_tokens: 8, logprobs: true });
    expect(none.usage!.prompt_tokens).toBe(Buffer.byteLength(task.request) + 1);
    expect(none.choices[0]!.message.tool_calls).toBeUndefined();
  });

  it("serve() in process, from a Policy in memory; --tool-prompt ignore keeps tools out of the prompt", async () => {
    const { serve } = await import("../lib/serve/index.js");
    const policy = new Policy({ block_size: 64, n_layer: 1, n_head: 2, n_embd: 16, seed: 3 });
    const s = await serve({ policy, name: "mem", tool_prompt: "ignore", stop: ["\n\n"] });
    try {
      const client = new OpenAI({ baseURL: s.baseURL, apiKey: "unused", maxRetries: 0 });
      const r = await client.chat.completions.create({ model: "mem", messages: [{ role: "user", content: "def f():" }], tools: toolsFor(["add"]), max_tokens: 5, seed: 1 });
      expect(r.usage!.prompt_tokens).toBe(Buffer.byteLength("def f():") + 1);
      expect(r.choices[0]!.message.content).toEqual(expect.any(String));
      expect((await client.models.retrieve("mem")) as unknown).toMatchObject({ id: "mem", tool_prompt: "ignore", default_stop: ["\n\n"], context_length: 64, checkpoint: null });
      expect(s.stats.completions).toBe(1);
    } finally {
      await s.close();
      policy.dispose();
    }
  });
});

describe("legacy /v1/completions", () => {
  it("echo + logprobs score a text as the policy in process does (lib/hints' openAILogprobModel through the server)", async () => {
    const context = ToolCallEpisode.prompt(task);
    const continuation = ToolCallEpisode.demonstration(task);
    const served = await openAILogprobModel({ baseURL: a.info.base_url, model: "toolcall-sft", apiKey: "unused" }).score(context, continuation);
    const ck = await loadCheckpoint(SFT);
    try {
      const local = scoreContinuation(ck.policy, context, continuation);
      expect(served.tokenLogprobs).toHaveLength(Buffer.byteLength(continuation));
      served.tokenLogprobs.forEach((lp, i) => expect(lp).toBeCloseTo(local.tokenLogprobs[i]!, 3));
    } finally {
      ck.policy.dispose();
    }
  });

  it("samples raw-text prompts (n, seed, stop) in the legacy shape, text offsets included", async () => {
    const req = { model: "toolcall-sft", prompt: [ToolCallEpisode.prompt(task), "é"], n: 2, max_tokens: 12, seed: 3, logprobs: 2, stop: "\n" };
    const r = await a.client.completions.create(req);
    expect(r.object).toBe("text_completion");
    expect(r.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect((await a.client.completions.create(req)).choices.map((c) => c.text)).toEqual(r.choices.map((c) => c.text));
    const echoed = await a.client.completions.create({ model: "toolcall-sft", prompt: "aé", max_tokens: 0, echo: true, logprobs: 1 });
    expect(echoed.choices[0]).toMatchObject({ text: "aé", logprobs: { tokens: ["a", "bytes:\\xc3", "bytes:\\xa9"], text_offset: [0, 1, 1] } });
    expect(echoed.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 0 });
    const bad = await fetch(`${a.info.base_url}/completions`, { method: "POST", body: JSON.stringify({ model: "toolcall-sft", prompt: [1, 2, 3] }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { param: "prompt" } });
  });
});

describe("bad requests (OpenAI error shape, naming the field)", () => {
  const post = (body: unknown) => fetch(`${a.info.base_url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const ok = { model: "toolcall-sft", messages: [{ role: "user", content: "hi" }], max_tokens: 2 };

  it("plain fetch works as a client", async () => {
    const r = await post(ok);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ object: "chat.completion", choices: [{ index: 0, message: { role: "assistant" } }] });
  });

  it.each([
    ["a wrong role", { ...ok, messages: [{ role: "robot", content: "x" }] }, "messages[0].role"],
    ["no messages", { ...ok, messages: [] }, "messages"],
    ["temperature out of range", { ...ok, temperature: 3 }, "temperature"],
    ["an unknown field", { ...ok, temprature: 0.5 }, "temprature"],
    ["top_logprobs without logprobs", { ...ok, top_logprobs: 2 }, "top_logprobs"],
    ["a penalty the sampler lacks", { ...ok, frequency_penalty: 0.5 }, "frequency_penalty"],
    ["tool_choice naming an undeclared tool", { ...ok, tools: toolsFor(["add"]), tool_choice: { type: "function", function: { name: "search" } } }, "tool_choice"],
  ])("400 for %s", async (_, body, param) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    const e = (await r.json()) as { error: Record<string, unknown> };
    expect(e.error).toMatchObject({ type: "invalid_request_error", param });
    expect(e.error.message).toContain(param.split(/[.[]/)[0]);
  });

  it("400 for a body that is not JSON; 404 for an unknown model or route; 405 for GET", async () => {
    expect((await post("{not json")).status).toBe(400);
    const unknown = await post({ ...ok, model: "gpt-4o" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: "model_not_found", param: "model" } });
    expect((await fetch(`${a.info.base_url}/embeddings`, { method: "POST", body: "{}" })).status).toBe(404);
    expect((await fetch(`${a.info.base_url}/chat/completions`)).status).toBe(405);
  });

  it("400 naming the context length for a prompt that does not fit", async () => {
    const r = await a.client.chat.completions.create({ model: "toolcall-sft", messages: [{ role: "user", content: "x".repeat(300) }] }).catch((e: unknown) => e);
    expect(r).toBeInstanceOf(OpenAI.BadRequestError);
    const err = r as InstanceType<typeof OpenAI.BadRequestError>;
    expect(err.code).toBe("context_length_exceeded");
    expect(err.message).toMatch(/maximum context length is 256 tokens/);
    const long = await post({ ...ok, max_tokens: 255 });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: { param: "max_tokens", code: "context_length_exceeded" } });
  });
});

describe("queue and shutdown", () => {
  it("a checkpoint that is not there: --json prints {ok: false, error} naming it, exit 1", () => {
    const missing = join(tmp("serve-"), "no-such-run");
    const r = cli(["serve", "--checkpoint", missing, "--port", "0", "--json"]);
    expect(r.code).toBe(1);
    expect(oneJson(r.stdout)).toMatchObject({ ok: false, error: expect.stringContaining(missing) });
  });


  it("answers 429 in the OpenAI shape once the queue is full", async () => {
    const s = await startServer(["--checkpoint", SFT, "--name", "busy", "--max-queue", "0"]);
    const body = JSON.stringify({ model: "busy", messages: [{ role: "user", content: "x" }], max_tokens: 200, seed: 2 });
    // The first request holds the generator (the event loop with it) once its batch has begun (not
    // while the queue still lets requests in to join it). Three more are written whole on their own
    // connections after that, so the server reads them together once it is free: one takes the free
    // slot, the others find the queue full.
    const first = s.client.chat.completions.create(JSON.parse(body));
    await stderrShows(s, (e) => e.includes("generating a batch"));
    const raw = () =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const sock = connect(s.info.port, "127.0.0.1");
        let data = "";
        sock.on("data", (d) => (data += d));
        sock.on("error", reject);
        sock.on("end", () => resolve({ status: Number(data.split(" ")[1]), body: JSON.parse(data.slice(data.indexOf("\r\n\r\n") + 4)) }));
        sock.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      });
    const rest = await Promise.all([raw(), raw(), raw()]);
    expect((await first).choices).toHaveLength(1);
    const statuses = rest.map((r) => r.status).sort();
    expect(statuses, s.stderr()).toEqual([200, 429, 429]);
    expect(rest.find((r) => r.status === 429)!.body).toMatchObject({ error: { type: "rate_limit_error", code: "rate_limit_exceeded", message: expect.stringMatching(/busy/) } });
    s.proc.kill("SIGINT");
    expect(await s.exited).toBe(0);
  });

  it("SIGTERM with requests in flight answers them, refuses new connections, and exits 0", async () => {
    const s = await startServer(["--checkpoint", SFT, "--name", "draining"]);
    const long = { model: "draining", messages: [{ role: "user" as const, content: "x" }], max_tokens: 200, temperature: 1, seed: 1 };
    const inFlight = [s.client.chat.completions.create(long), s.client.chat.completions.create(long)];
    await stderrShows(s, (e) => (e.match(/accepted/g) ?? []).length === 2);
    s.proc.kill("SIGTERM");
    const answered = await Promise.all(inFlight);
    for (const r of answered) expect(r.choices[0]!.message.content!.length).toBeGreaterThan(0);
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toMatch(/SIGTERM: no new requests/);
    await expect(fetch(`${s.info.url}/health`)).rejects.toThrow();
  });
});
