/**
 * `composer-lab diloco` and `diloco-worker`: DiLoCo ranks that meet only through a store, started
 * as local processes, as a Slurm job array (rank = SLURM_ARRAY_TASK_ID), or as Docker Swarm tasks.
 */
import type { Command } from "commander";
import { Option } from "commander";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile, projectRoot, scratchDir, tempDir, timestampSlug } from "../../core/index.js";
import { SANDBOX_WORKDIR } from "../../sandbox/index.js";
import { DilocoConfig, openStore, runWorker, summarizeRun } from "../../store/index.js";
import { jsonOpt } from "../options.js";
import { emit, log } from "../output.js";
import { wholeNumber } from "../args.js";

/** The config of a run: the file's, or the toy preset (a few rounds in seconds; momentum 0.5
 *  suits 4 inner steps; the paper uses 0.9 with H ≈ 500). */
export function dilocoConfig(file?: string): Partial<DilocoConfig> {
  if (!file) return { rounds: 8, inner_steps: 4, momentum: 0.5, timeout_s: 20 };
  return loadConfigFile(file, DilocoConfig.partial());
}

interface RankExit {
  rank: number;
  /** 0 = finished; anything else = the rank died, was cancelled or lost its node. */
  code: number | null;
  how: string;
}

/** Every rank as a local child process. */
async function localRanks(workers: number, argsOf: (rank: string) => string[]): Promise<RankExit[]> {
  const bin = join(projectRoot(), "bin", "composer-lab.js");
  return Promise.all(Array.from({ length: workers }, (_, rank) => new Promise<RankExit>((res) => {
    const child = spawn(process.execPath, [bin, ...argsOf(String(rank))], { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (d) => process.stderr.write(`[rank ${rank}] ${d}`));
    child.on("close", (code, signal) => res({ rank, code, how: signal ? `killed by ${signal}` : `exit ${code}` }));
  })));
}

/** Every rank as a task of one Slurm job array (the local cluster's, else $SLURM_CONF's). */
async function slurmRanks(workers: number, argsOf: (rank: string) => string[], run: string): Promise<RankExit[]> {
  const { runSlurmArray } = await import("../../executor/slurm.js");
  const { SlurmCluster } = await import("../../executor/slurm-cluster.js");
  const local = new SlurmCluster();
  const conf = (await local.status()) ? local.conf : process.env.SLURM_CONF;
  if (!conf && !existsSync("/etc/slurm/slurm.conf")) throw new Error(`--executor slurm: no Slurm cluster (none up in ${local.dir}, no SLURM_CONF, no /etc/slurm/slurm.conf): run \`composer-lab cluster up --engine slurm\` first`);
  const logDir = scratchDir("diloco-slurm", run);
  const r = await runSlurmArray({
    args: argsOf("$SLURM_ARRAY_TASK_ID"), count: workers, name: "composer-lab-diloco", conf, logDir,
    onSubmitted: (id) => log(`slurm array ${id}: ${workers} ranks (output in ${logDir})`),
  });
  return r.tasks.map((t) => ({ rank: t.index, code: t.state === "COMPLETED" ? 0 : 1, how: `${t.state}${t.node ? ` on ${t.node}` : ""}` }));
}

/** Every rank as a job of the swarm executor on the lab's engine (a manager: `cluster up --engine
 *  swarm`): rank given explicitly, the config in the job's read-only workdir, the store's AWS_*
 *  variables in the job's env (its root-only spec, not the service's), host networking (the only
 *  way to the store; grading jobs never get it), no retries (a lost rank is dropped, as locally). */
async function swarmRanks(workers: number, argsOf: (rank: string, config?: string) => string[], cfg: DilocoConfig, innerDelayMs: number): Promise<RankExit[]> {
  const { labCommandJob } = await import("../../executor/index.js");
  const { openSwarmExecutor } = await import("../../executor/swarm.js");
  const ex = await openSwarmExecutor({ concurrency: workers });
  const dir = tempDir("diloco-swarm-");
  try {
    const ready = await ex.check();
    if (!ready.ok) throw new Error(`--executor swarm: ${ready.why}`);
    const slots = ((ready.detail?.nodes ?? []) as { cpus: number }[]).reduce((n, node) => n + Math.floor(node.cpus), 0);
    if (slots < workers) log(`swarm: ${workers} ranks, ${slots} CPU slots on the ready nodes: ranks left waiting are dropped as stragglers`);
    chmodSync(dir.path, 0o755);
    writeFileSync(join(dir.path, "diloco.json"), JSON.stringify(cfg));
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith("AWS_") && e[1] !== undefined));
    // a safety net only: a rank ends by itself (its rounds done, or rank 0's round never committed in 3 × timeout_s)
    const timeoutMs = 300_000 + cfg.rounds * (3_000 * cfg.timeout_s + cfg.inner_steps * innerDelayMs);
    const jobs = Array.from({ length: workers }, (_, rank) => labCommandJob({
      id: `rank${rank}`, args: argsOf(String(rank), `${SANDBOX_WORKDIR}/diloco.json`), workdir: dir.path, env, network: "host",
      limits: { timeoutMs, memoryMb: 1024, cpus: 1 }, retries: 0,
    }));
    log(`swarm: ${workers} ranks as replicated-job services`);
    const rs = await ex.submit(jobs, {
      onResult: (r) => { if (r.run?.stderr) process.stderr.write(r.run.stderr.replace(/^(?=.)/gm, `[rank ${r.id.slice(4)}] `)); },
    }).results();
    return rs.map((r, rank) => ({
      rank,
      code: r.status === "done" ? r.run!.exitCode : null,
      how: `${r.status === "done" ? (r.run!.signal ? `killed by ${r.run!.signal}` : `exit ${r.run!.exitCode}`) : `${r.status}: ${r.error}`}${r.node ? ` on ${r.node}` : ""}`,
    }));
  } finally {
    await ex.close();
    dir.remove();
  }
}

export function registerDiloco(program: Command): void {
  program
    .command("diloco")
    .description("DiLoCo across worker processes that meet only through a store (default: a tiny model on a toy objective, in seconds)")
    .requiredOption("--workers <n>", "worker processes (ranks)", wholeNumber(1))
    .requiredOption("--store <uri>", "local path or s3://bucket/prefix (every rank must reach it)")
    .addOption(new Option("--executor <name>", "where ranks run: local processes, a Slurm job array (rank = SLURM_ARRAY_TASK_ID), or swarm jobs (host network)").choices(["local", "slurm", "swarm"]).default("local"))
    .option("--config <file>", "DilocoConfig as JSON or YAML (rounds, inner_steps, inner_lr, outer_lr, momentum, timeout_s, ...)")
    .option("--run <id>", "run id (default: a timestamp); rerun with the same id to resume")
    .addOption(new Option("--inner-delay-ms <ms>", "pause in each rank's inner phase (tests: time to kill a rank mid-round)").argParser(wholeNumber(0)).hideHelp())
    .addOption(jsonOpt())
    .action(async (o: { workers: number; store: string; executor: "local" | "slurm" | "swarm"; config?: string; run?: string; innerDelayMs?: number; json?: boolean }) => {
      const { workers } = o;
      const cfg = dilocoConfig(o.config);
      const run = o.run ?? timestampSlug();
      const prefix = `runs/${run}/diloco_rendezvous`;
      const t0 = performance.now();
      const argsOf = (rank: string, config = o.config) => [
        "diloco-worker", "--rank", rank, "--workers", String(workers), "--store", o.store, "--prefix", prefix, "--json",
        ...(config ? ["--config", config] : []), ...(o.innerDelayMs ? ["--inner-delay-ms", String(o.innerDelayMs)] : []),
      ];
      const exits = o.executor === "slurm" ? await slurmRanks(workers, argsOf, run)
        : o.executor === "swarm" ? await swarmRanks(workers, argsOf, DilocoConfig.parse(cfg), o.innerDelayMs ?? 0)
        : await localRanks(workers, argsOf);
      const failed = exits.filter((r) => r.code !== 0);
      const summary = await summarizeRun(openStore(o.store), prefix, workers);
      const leaderOk = !failed.some((f) => f.rank === 0);
      emit(!!o.json, { ok: leaderOk, executor: o.executor, ...summary, failedWorkers: failed.map((f) => f.rank), exits, prefix, config: DilocoConfig.parse(cfg), seconds: (performance.now() - t0) / 1000 }, () =>
        [
          `${summary.rounds} rounds, ${workers} workers (${o.executor}), final loss ${summary.loss.toFixed(5)}`,
          `loss by round: ${summary.lossHistory.map((l) => l.toFixed(4)).join(" ")}`,
          `dropped: ${summary.droppedRanks.map((d) => `r${d.round}:rank${d.rank}`).join(", ") || "none"}`,
          ...failed.map((f) => `rank ${f.rank}: ${f.how}`),
          `rendezvous: ${o.store}/${prefix}`,
        ].join("\n"),
      );
      if (!leaderOk) process.exitCode = 1;
    });
  program
    .command("diloco-worker", { hidden: true })
    .description("one DiLoCo worker (started by `composer-lab diloco`)")
    .requiredOption("--rank <r>", "this rank (on Slurm, SLURM_ARRAY_TASK_ID; on Kubernetes, JOB_COMPLETION_INDEX)", wholeNumber(0))
    .requiredOption("--workers <n>", "ranks in all", wholeNumber(1))
    .requiredOption("--store <uri>")
    .requiredOption("--prefix <p>")
    .option("--config <file>")
    .option("--inner-delay-ms <ms>", "pause in each inner phase (tests)", wholeNumber(0))
    .addOption(jsonOpt())
    .action(async (o: { rank: number; workers: number; store: string; prefix: string; config?: string; innerDelayMs?: number; json?: boolean }) => {
      const r = await runWorker({ store: openStore(o.store), prefix: o.prefix, rank: o.rank, workers: o.workers, config: dilocoConfig(o.config), log, inner_delay_ms: o.innerDelayMs || undefined });
      emit(!!o.json, { ok: true, ...r }, () => JSON.stringify(r));
    });
}
