/**
 * `composer-lab serve`: a checkpoint behind the OpenAI-compatible API of lib/serve. With --json it
 * prints ONE JSON object ({url, base_url, model, checkpoint, pid, …}) once listening, then keeps
 * serving; SIGINT/SIGTERM stop accepting, answer what was accepted, and exit 0.
 */
import { Option, type Command } from "commander";
import type { BackendChoice } from "../../backend/index.js";
import { serve } from "../../serve/index.js";
import { jsonOpt } from "../options.js";
import { backendOption, resolveBackend } from "../backend.js";
import { emit, log } from "../output.js";
import { wholeNumber } from "../args.js";

type ServeCli = { checkpoint: string; port: number; host: string; name?: string; maxQueue: number; maxBatch: number; stop: string[]; toolPrompt: "lab" | "ignore"; backend?: BackendChoice; json?: boolean; quiet?: boolean };


export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("serve a checkpoint behind an OpenAI-compatible API (/v1/chat/completions with tools and logprobs, /v1/models, /health) until SIGINT/SIGTERM")
    .requiredOption("--checkpoint <dir>", "a checkpoint dir (ckpt_NNNNNN) or a run dir (its latest checkpoint)")
    .addOption(new Option("--port <n>", "port (0: a free one, reported once listening)").argParser(wholeNumber(0, 65535)).default(8000))
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .option("--name <id>", "the model id clients pass (default: the checkpoint's folder name)")
    .addOption(new Option("--max-queue <n>", "requests that may wait behind the running one before 429").argParser(wholeNumber(0, 1_000_000)).default(64))
    .addOption(new Option("--max-batch <n>", "rows (prompts × n) one sampler batch may hold when unseeded requests with the same settings run together; 1: one request at a time").argParser(wholeNumber(1, 4096)).default(16))
    .addOption(new Option("--stop <s...>", "stop sequences for requests that give none (e.g. an environment's stop; \\n is a newline)").argParser((v: string, prev: string[] = []) => [...prev, v.replace(/\\n/g, "\n").replace(/\\t/g, "\t")]).default([]))
    .addOption(new Option("--tool-prompt <how>", "requests' tools: lab = rendered in the toy tool-call format and calls parsed into tool_calls; ignore = left out of the prompt (a policy trained without them)").choices(["lab", "ignore"]).default("lab"))
    .option("--quiet", "no per-request log lines on stderr")
    .addOption(backendOption())
    .addOption(jsonOpt())
    .action(async (o: ServeCli) => {
      const backend = await resolveBackend({ backend: o.backend });
      const server = await serve({ checkpoint: o.checkpoint, port: o.port, host: o.host, name: o.name, max_queue: o.maxQueue, max_batch: o.maxBatch, stop: o.stop, tool_prompt: o.toolPrompt, log: o.quiet ? undefined : log });
      const m = server.model;
      emit(!!o.json, {
        ok: true, url: server.url, base_url: server.baseURL, model: m.name, checkpoint: m.checkpoint, step: m.step, fingerprint: m.fingerprint,
        context_length: m.contextLength, tool_prompt: m.toolPrompt, default_stop: m.defaultStop, host: server.host, port: server.port, pid: process.pid, backend: backend.name,
        note: "the process keeps serving; SIGINT or SIGTERM stops it (in-flight requests are answered first)",
      }, () => `serving ${m.name} (${m.checkpoint}, step ${m.step}) at ${server.url} — OpenAI base_url ${server.baseURL}; Ctrl-C stops`);
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          log(`${signal}: no new requests; answering ${server.pending()} accepted request(s), then exiting`);
          void server.close().then(resolve);
        };
        process.once("SIGINT", () => stop("SIGINT"));
        process.once("SIGTERM", () => stop("SIGTERM"));
      });
      log(`stopped: ${server.stats.requests} requests, ${server.stats.completions} completions, ${server.stats.completion_tokens} completion tokens`);
      // The backend's threads would keep the process alive.
      process.exit(0);
    });
}
