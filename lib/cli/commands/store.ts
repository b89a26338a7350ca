/** `composer-lab store …` and `composer-lab diloco`. */
import type { Command } from "commander";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { loadConfigFile, projectRoot, timestampSlug } from "../../core/index.js";
import { DilocoConfig, openStore, runWorker, summarizeRun } from "../../store/index.js";
import { jsonOpt } from "../options.js";
import { emit, log } from "../output.js";

export function registerStore(program: Command): void {
  const storeCmd = program.command("store").description("the run layout on disk or S3");
  storeCmd
    .command("ls")
    .description("list a store's objects (a local path or s3://bucket/prefix; S3 settings from the standard AWS configuration)")
    .argument("<uri>", "local path or s3://bucket/prefix")
    .option("--prefix <p>", "only keys under this prefix", "")
    .addOption(jsonOpt())
    .action(async (uri: string, o: { prefix: string; json?: boolean }) => {
      const st = openStore(uri);
      const keys = await st.list(o.prefix);
      emit(!!o.json, { ok: true, uri: st.uri, count: keys.length, keys }, () => (keys.length ? keys.join("\n") : `(empty: ${st.uri})`));
    });

  const dilocoConfig = (file?: string): Partial<DilocoConfig> => {
    // The toy preset: a few rounds in seconds (momentum 0.5 suits 4 inner steps; the paper uses 0.9 with H ≈ 500).
    if (!file) return { rounds: 8, inner_steps: 4, momentum: 0.5, timeout_s: 20 };
    return loadConfigFile(file, DilocoConfig.partial());
  };
  program
    .command("diloco")
    .description("DiLoCo across worker processes that meet only through a store (default: a tiny model on a toy objective, in seconds)")
    .requiredOption("--workers <n>", "worker processes")
    .requiredOption("--store <uri>", "local path or s3://bucket/prefix")
    .option("--config <file>", "DilocoConfig as JSON or YAML (rounds, inner_steps, inner_lr, outer_lr, momentum, timeout_s, ...)")
    .option("--run <id>", "run id (default: a timestamp); rerun with the same id to resume")
    .addOption(jsonOpt())
    .action(async (o: { workers: string; store: string; config?: string; run?: string; json?: boolean }) => {
      const workers = Number(o.workers);
      if (!Number.isInteger(workers) || workers < 1) throw new Error(`--workers ${o.workers}: a positive whole number`);
      const cfg = dilocoConfig(o.config);
      const prefix = `runs/${o.run ?? timestampSlug()}/diloco_rendezvous`;
      const t0 = performance.now();
      const bin = join(projectRoot(), "bin", "composer-lab.js");
      const results = await Promise.all(
        Array.from({ length: workers }, (_, rank) =>
          new Promise<{ rank: number; code: number | null; out: string }>((res) => {
            const args = [bin, "diloco-worker", "--rank", String(rank), "--workers", String(workers), "--store", o.store, "--prefix", prefix, "--json"];
            if (o.config) args.push("--config", o.config);
            const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
            let out = "";
            child.stdout.on("data", (d) => (out += d));
            child.stderr.on("data", (d) => process.stderr.write(`[rank ${rank}] ${d}`));
            child.on("close", (code) => res({ rank, code, out }));
          }),
        ),
      );
      const failed = results.filter((r) => r.code !== 0).map((r) => r.rank);
      const summary = await summarizeRun(openStore(o.store), prefix, workers);
      emit(!!o.json, { ok: failed.length === 0 || !failed.includes(0), ...summary, failedWorkers: failed, prefix, config: DilocoConfig.parse(cfg), seconds: (performance.now() - t0) / 1000 }, () =>
        [`${summary.rounds} rounds, ${workers} workers, final loss ${summary.loss.toFixed(5)}`, `loss by round: ${summary.lossHistory.map((l) => l.toFixed(4)).join(" ")}`, `dropped: ${summary.droppedRanks.map((d) => `r${d.round}:rank${d.rank}`).join(", ") || "none"}`, `rendezvous: ${o.store}/${prefix}`].join("\n"),
      );
      if (failed.includes(0)) process.exitCode = 1;
    });
  program
    .command("diloco-worker", { hidden: true })
    .description("one DiLoCo worker (started by `composer-lab diloco`)")
    .requiredOption("--rank <r>")
    .requiredOption("--workers <n>")
    .requiredOption("--store <uri>")
    .requiredOption("--prefix <p>")
    .option("--config <file>")
    .option("--inner-delay-ms <ms>", "pause in each inner phase (tests)")
    .addOption(jsonOpt())
    .action(async (o: { rank: string; workers: string; store: string; prefix: string; config?: string; innerDelayMs?: string; json?: boolean }) => {
      const r = await runWorker({ store: openStore(o.store), prefix: o.prefix, rank: Number(o.rank), workers: Number(o.workers), config: dilocoConfig(o.config), log, inner_delay_ms: o.innerDelayMs ? Number(o.innerDelayMs) : undefined });
      emit(!!o.json, { ok: true, ...r }, () => JSON.stringify(r));
    });
}
