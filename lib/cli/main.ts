/** The `composer-lab` command line. Each subcommand takes --json (one JSON object on stdout). */
import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../core/index.js";
import { closeRenderer } from "../viz/index.js";
import { registerBenchOptions } from "./bench.js";
import { registerCollate } from "./commands/collate.js";
import { registerHints } from "./commands/hints.js";
import { registerLab } from "./commands/lab.js";
import { registerSandbox } from "./commands/sandbox.js";
import { registerStore } from "./commands/store.js";
import { registerTasks } from "./commands/tasks.js";
import { registerTraces } from "./commands/traces.js";
import { registerTrain } from "./commands/train.js";
import { emit, log, routeConsoleToStderr } from "./output.js";

export type { BenchResult } from "./commands/lab.js";

export function buildProgram(): Command {
  const program = new Command("composer-lab")
    .description("composer-lab: a research lab for post-training coding agents (traces → hints → tasks → sandboxed grading → training → store)")
    .version(JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")).version)
    .showHelpAfterError()
    .exitOverride();
  registerLab(program);
  registerBenchOptions(program); // --backend / --steps on `bench`, read by benches via benchOptions()
  registerTraces(program);
  registerHints(program);
  registerTasks(program);
  registerSandbox(program);
  registerStore(program);
  registerCollate(program);
  registerTrain(program);
  return program;
}

export async function main(argv = process.argv): Promise<void> {
  const json = argv.includes("--json");
  if (json) routeConsoleToStderr();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version exit with code 0 and have printed already
      if (e.exitCode === 0) return;
      if (json) emit(true, { ok: false, error: e.message }, () => "");
      process.exitCode = e.exitCode || 2;
      return;
    }
    const err = e as Error;
    if (json) emit(true, { ok: false, error: err.message }, () => "");
    else log(`composer-lab: ${err.message}`);
    if (process.env.COMPOSER_LAB_DEBUG) log(err.stack ?? "");
    process.exitCode = 1;
    await closeRenderer();
  }
}
