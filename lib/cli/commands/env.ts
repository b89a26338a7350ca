/**
 * `composer-lab env serve`: FeatureDeletionEpisode over HTTP (lib/env/server.ts: OpenEnv-style /reset,
 * /step, /state, /health, and a TRL /reward batch endpoint). With --json it prints ONE JSON object
 * ({url, pool, tasks, pid, …}) once listening, then keeps serving; SIGINT/SIGTERM stop accepting,
 * answer what was accepted, release every episode (working copies removed) and exit 0.
 */
import { Option, type Command } from "commander";
import { resolve } from "node:path";
import { serveEnv } from "../../env/index.js";
import { getSandbox, type SandboxChoice } from "../../sandbox/index.js";
import { jsonOpt, sandboxChoice } from "../options.js";
import { emit, log } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";

type EnvServeCli = { pool: string; port: number; host: string; sandbox: SandboxChoice; idleTimeout: number; maxSessions: number; maxTurns: number; concurrency: number; quiet?: boolean; json?: boolean };

export function registerEnv(program: Command): void {
  const env = program.command("env").description("the feature-deletion environment as an OpenEnv-style HTTP server (reset / step / state / health) with a TRL reward endpoint");
  env.command("serve")
    .description("serve a task pool's FeatureDeletionEpisode over HTTP (POST /reset, POST /step, GET /state, GET /health, POST /close, POST /reward, GET /tasks) until SIGINT/SIGTERM")
    .requiredOption("--pool <dir>", "task pool (a `tasks build` output folder)")
    .addOption(new Option("--port <n>", "port (0: a free one, reported once listening)").argParser(wholeNumber(0, 65535)).default(8010))
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .addOption(sandboxChoice())
    .addOption(new Option("--idle-timeout <s>", "seconds an episode may sit idle before it is reaped (its working copy removed)").argParser(realNumber(0, 7 * 86400, { above: true })).default(600))
    .addOption(new Option("--max-sessions <n>", "episodes held at once (past that /reset answers 429)").argParser(wholeNumber(1, 100_000)).default(64))
    .addOption(new Option("--max-turns <n>", "steps per episode before it is graded as submitted").argParser(wholeNumber(1, 100_000)).default(40))
    .addOption(new Option("--concurrency <n>", "completions POST /reward grades at once").argParser(wholeNumber(1, 1024)).default(2))
    .option("--quiet", "no per-request log lines on stderr")
    .addOption(jsonOpt())
    .action(async (o: EnvServeCli) => {
      const sandbox = await getSandbox(o.sandbox);
      const server = await serveEnv({
        pool: resolve(o.pool), sandbox, host: o.host, port: o.port, idle_timeout_s: o.idleTimeout, max_sessions: o.maxSessions, max_turns: o.maxTurns,
        reward_concurrency: o.concurrency, log: o.quiet ? undefined : log,
      });
      emit(!!o.json, {
        ok: true, url: server.url, host: server.host, port: server.port, pool: resolve(o.pool), sandbox: sandbox.name, idle_timeout_s: o.idleTimeout, max_sessions: o.maxSessions, pid: process.pid,
        routes: ["POST /reset", "POST /step", "GET /state", "GET /health", "POST /close", "POST /reward", "GET /tasks"],
        note: "the process keeps serving; SIGINT or SIGTERM stops it (in-flight requests are answered, every episode released)",
      }, () => `serving ${resolve(o.pool)} (${sandbox.name}) at ${server.url}; Ctrl-C stops`);
      await new Promise<void>((done) => {
        const stop = (signal: string) => {
          log(`${signal}: no new requests; answering ${server.pending()} accepted request(s), releasing ${server.sessions()} episode(s), then exiting`);
          void server.close().then(done);
        };
        // `on`, not `once`: a handler stays registered while draining, so lib/core's temp-folder hook
        // leaves the episodes' folders to their release (and to the exit hook)
        let stopping = false;
        for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => (stopping ? log(`${sig}: already stopping`) : ((stopping = true), stop(sig))));
      });
      const s = server.stats;
      log(`stopped: ${s.requests} requests, ${s.episodes_started} episodes, ${s.steps} steps, ${s.graded_completions} graded completions, ${s.episodes_reaped} reaped`);
      process.exit(0);
    });
}
