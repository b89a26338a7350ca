/**
 * Serving throughput: `composer-lab serve` (the real CLI in a child process, on loopback) called with
 * the `openai` client at concurrency 1 and 4, side by side with lib/train's sampler called directly
 * in this process on the same checkpoint (datasets/train/toolcall-sft) and the same requests:
 *   direct            sample() once per request, one after another
 *   direct batched×4  sample() on 4 requests' prompts as one batch (what batching requests would give)
 *   http c=1 / c=4    chat completions, 1 or 4 requests in flight (seeded: the server runs each alone)
 *   http c=4 unseeded the same without seeds: the server batches waiting requests into one sampler call
 *   http n=4          one request with n=4 per 4 requests' worth of samples (the n samples are one batch)
 * Every request: a ToolCallEpisode task with its tools as OpenAI tools, temperature 1, seed = its index,
 * max_tokens 32, and the server's stop for a tool prompt (a newline) — the direct arm samples with the
 * same seed and stop, so it does the same work (its token count must equal http c=1's). Rounds interleave
 * the arms (default 5 rounds of 16 requests; `--steps N` sets the requests per round) so load on the
 * shared machine hits them alike; figures are the median round, with the min–max across rounds.
 * overhead ratio = direct tokens/s ÷ http c=1 tokens/s (1.0: HTTP, JSON and the queue cost nothing).
 *
 *   npm run bench -- serve [--steps N] [--backend B] [--json]
 */
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { initBackend } from "../lib/backend/index.js";
import { benchOptions } from "../lib/cli/bench.js";
import type { BenchResult } from "../lib/cli/index.js";
import { log } from "../lib/cli/output.js";
import { datasetsDir, projectRoot } from "../lib/core/index.js";
import { TOOL_POOL, ToolCallEpisode } from "../lib/env/index.js";
import { renderPrompt, type FunctionTool } from "../lib/serve/index.js";
import { encode, loadCheckpoint, sample } from "../lib/train/index.js";

const MAX_TOKENS = 32;
const ROUNDS = 5;
const CHECKPOINT = datasetsDir("train", "toolcall-sft");

type Arm = "direct" | "direct batched×4" | "http c=1" | "http c=4" | "http c=4 unseeded" | "http n=4";
const ARMS: Arm[] = ["direct", "direct batched×4", "http c=1", "http c=4", "http c=4 unseeded", "http n=4"];

const JSON_TYPE = { str: "string", int: "integer", num: "number" } as const;
const toolsFor = (names: string[]): FunctionTool[] =>
  names.map((n) => ({
    type: "function",
    function: { name: n, parameters: { type: "object", properties: Object.fromEntries(Object.entries(TOOL_POOL.find((t) => t.name === n)!.args).map(([k, v]) => [k, { type: JSON_TYPE[v] }])) } },
  }));

async function startServer(backend: string | undefined): Promise<{ baseURL: string; model: string; stop: () => Promise<void> }> {
  const args = [join(projectRoot(), "bin", "composer-lab.js"), "serve", "--checkpoint", CHECKPOINT, "--port", "0", "--json", "--quiet", ...(backend ? ["--backend", backend] : [])];
  const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const info = await new Promise<{ base_url: string; model: string }>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d: Buffer) => ((out += d), out.includes("\n") && resolve(JSON.parse(out.split("\n")[0]!))));
    proc.on("exit", (c) => reject(new Error(`serve exited (${c}) before listening`)));
  });
  return { baseURL: info.base_url, model: info.model, stop: () => new Promise((r) => (proc.once("exit", () => r()), proc.kill("SIGTERM"))) };
}

export async function run(): Promise<BenchResult> {
  const { backend, steps } = benchOptions();
  const perRound = Math.max(4, Math.ceil((steps ?? 16) / 4) * 4);
  const info = await initBackend(backend);
  const policy = (await loadCheckpoint(CHECKPOINT)).policy;
  const server = await startServer(backend);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: "unused", maxRetries: 0 });
  const tasks = new ToolCallEpisode({}).tasks.slice(0, perRound);
  const requests = tasks.map((t, i) => ({ messages: [{ role: "user" as const, content: t.request }], tools: toolsFor(t.tools), seed: i }));
  const rendered = requests.map((r) => renderPrompt(r.messages, r.tools));
  const prompts = rendered.map((p) => encode(p.text, { bos: true }));
  const stop = rendered[0]!.stop; // the server's own stop for a tool prompt (the call ends at a newline)
  const create = (r: (typeof requests)[number], n = 1, seeded = true) =>
    client.chat.completions.create({ model: server.model, ...r, ...(seeded ? {} : { seed: undefined }), n, temperature: 1, max_tokens: MAX_TOKENS }).then((c) => c.usage!.completion_tokens);
  /** `requests` with 4 in flight at a time. */
  const concurrently = async (seeded: boolean) => {
    let next = 0;
    const worker = async () => {
      let n = 0;
      while (next < requests.length) n += await create(requests[next++]!, 1, seeded);
      return n;
    };
    return (await Promise.all([worker(), worker(), worker(), worker()])).reduce((a, b) => a + b, 0);
  };

  /** Completion tokens produced by one arm over the round's requests. */
  const arms: Record<Arm, () => Promise<number>> = {
    direct: async () => prompts.reduce((n, p, i) => n + sample(policy, [p], { max_new_tokens: MAX_TOKENS, temperature: 1, seed: i, stop })[0]!.ids.length, 0),
    "direct batched×4": async () => {
      let n = 0;
      for (let i = 0; i < prompts.length; i += 4) n += sample(policy, prompts.slice(i, i + 4), { max_new_tokens: MAX_TOKENS, temperature: 1, seed: i, stop }).reduce((s, o) => s + o.ids.length, 0);
      return n;
    },
    "http c=1": async () => {
      let n = 0;
      for (const r of requests) n += await create(r);
      return n;
    },
    "http c=4": () => concurrently(true),
    "http c=4 unseeded": () => concurrently(false),
    "http n=4": async () => {
      let n = 0;
      for (let i = 0; i < requests.length; i += 4) n += await create(requests[i]!, 4);
      return n;
    },
  };

  const samples: Record<Arm, { seconds: number; tokens: number }[]> = Object.fromEntries(ARMS.map((a) => [a, []])) as never;
  try {
    await create(requests[0]!); // warm-up: the server's first request loads kernels
    sample(policy, [prompts[0]!], { max_new_tokens: MAX_TOKENS });
    for (let round = 0; round < ROUNDS; round++) {
      for (const arm of ARMS) {
        const t0 = performance.now();
        const tokens = await arms[arm]();
        const seconds = (performance.now() - t0) / 1000;
        samples[arm].push({ seconds, tokens });
        log(`bench serve: round ${round + 1}/${ROUNDS} ${arm}: ${perRound} requests, ${tokens} tokens in ${seconds.toFixed(2)} s`);
      }
    }
  } finally {
    await server.stop();
    policy.dispose();
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const round3 = (x: number) => Number(x.toFixed(3));
  const rows = ARMS.map((arm) => {
    const rps = samples[arm].map((s) => perRound / s.seconds);
    const tps = samples[arm].map((s) => s.tokens / s.seconds);
    return {
      arm, requests_per_round: perRound, rounds: ROUNDS,
      requests_per_s: round3(median(rps)), requests_per_s_range: `${Math.min(...rps).toFixed(2)}–${Math.max(...rps).toFixed(2)}`,
      tokens_per_s: round3(median(tps)), tokens_per_s_range: `${Math.min(...tps).toFixed(0)}–${Math.max(...tps).toFixed(0)}`,
      ms_per_request: round3((1000 * median(samples[arm].map((s) => s.seconds))) / perRound),
    };
  });
  const tokensOf = (arm: Arm) => samples[arm][0]!.tokens;
  if (tokensOf("direct") !== tokensOf("http c=1")) throw new Error(`direct and http c=1 did different work: ${tokensOf("direct")} vs ${tokensOf("http c=1")} tokens`);
  const tps = (arm: Arm) => rows.find((r) => r.arm === arm)!.tokens_per_s;
  const ratios = {
    http_overhead_c1: round3(tps("direct") / tps("http c=1")),
    http_overhead_c4: round3(tps("direct") / tps("http c=4")),
    batching_gain_direct_x4: round3(tps("direct batched×4") / tps("direct")),
    n4_gain_http: round3(tps("http n=4") / tps("http c=1")),
    batching_gain_http_c4: round3(tps("http c=4 unseeded") / tps("http c=4")),
  };
  return {
    summary:
      `serve on ${info.name} (toolcall-sft, ≤ ${MAX_TOKENS}-byte completions, median of ${ROUNDS} rounds × ${perRound} requests, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores): ` +
      `direct ${tps("direct").toFixed(0)} tok/s, http c=1 ${tps("http c=1").toFixed(0)} tok/s, c=4 ${tps("http c=4").toFixed(0)} tok/s — HTTP overhead ×${ratios.http_overhead_c1} (c=1), ×${ratios.http_overhead_c4} (c=4); ` +
      `batching 4 prompts in one sample() ×${ratios.batching_gain_direct_x4}, unseeded c=4 requests batched by the server ×${ratios.batching_gain_http_c4} over seeded ones (run alone), n=4 in one request ×${ratios.n4_gain_http}`,
    rows,
    ratios,
  };
}
