import { Option, type Command } from "commander";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { BackendChoice } from "../backend/index.js";
import { projectRoot } from "../core/index.js";
import { EXECUTOR_NAMES, type ExecutorName } from "../executor/index.js";
import { backendOption } from "./backend.js";
import { wholeNumber } from "./args.js";

/** Benchmarks are files bench/<name>.bench.ts exporting `run(): Promise<BenchResult>`. */
export function listBenchmarks(): string[] {
  return readdirSync(join(projectRoot(), "bench"))
    .filter((f) => f.endsWith(".bench.ts"))
    .map((f) => f.slice(0, -".bench.ts".length))
    .sort();
}

/** Options of `composer-lab bench` that benchmarks may read (each decides which apply to it). */
export interface BenchOptions {
  /** --backend / $COMPOSER_LAB_BACKEND: the TensorFlow.js backend (benches that run tfjs). */
  backend?: BackendChoice;
  /** --steps: how many timed steps/iterations (the bench's own default when absent). */
  steps?: number;
  /** --executor: where a bench that fans jobs out runs them (lib/executor; bench fanout). */
  executor?: ExecutorName;
}

let benchOpts: BenchOptions = {};

/** The options the current `bench` invocation was given (empty when a bench runs outside the CLI). */
export const benchOptions = (): BenchOptions => benchOpts;
/** For running a bench from code/tests with options. */
export const setBenchOptions = (o: BenchOptions): void => void (benchOpts = { ...o });

/** Adds --backend and --steps to the `bench` command and hands their values to benchmarks. */
export function registerBenchOptions(program: Command): void {
  const bench = program.commands.find((c) => c.name() === "bench");
  if (!bench) return;
  bench
    .addOption(backendOption())
    .addOption(new Option("--steps <n>", "timed steps/iterations, for benches that take it (bench default otherwise)").argParser(wholeNumber(1)))
    .addOption(new Option("--executor <name>", "where fan-out benches run their jobs (bench fanout: swarm | slurm, against the local pool)").choices([...EXECUTOR_NAMES]))
    .hook("preAction", (cmd) => {
      const o = cmd.opts<BenchOptions>();
      setBenchOptions({ backend: o.backend, steps: o.steps, executor: o.executor });
    });
}
