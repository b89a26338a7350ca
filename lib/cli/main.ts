/**
 * The `composer-lab` command line. Each subcommand takes --json (one JSON object on stdout).
 *
 * Start-up time: a command's module (and the stages it pulls in: TensorFlow.js, the AWS SDK,
 * Playwright…) is imported only when that command runs. `--help` lists every command from
 * COMMANDS without importing any of them (test/cli.test.ts checks COMMANDS against the modules).
 */
import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../core/index.js";
import { emit, log, routeConsoleToStderr } from "./output.js";

export type { BenchResult } from "./commands/lab.js";

type Register = (program: Command) => void;

/** The module that registers each group of top-level commands. */
const MODULES = {
  lab: async (): Promise<Register> => {
    const [{ registerLab }, { registerBenchOptions }] = await Promise.all([import("./commands/lab.js"), import("./bench.js")]);
    // --backend / --steps on `bench`, read by benches via benchOptions()
    return (p) => (registerLab(p), registerBenchOptions(p));
  },
  traces: async (): Promise<Register> => (await import("./commands/traces.js")).registerTraces,
  hints: async (): Promise<Register> => (await import("./commands/hints.js")).registerHints,
  tasks: async (): Promise<Register> => (await import("./commands/tasks.js")).registerTasks,
  sandbox: async (): Promise<Register> => (await import("./commands/sandbox.js")).registerSandbox,
  cluster: async (): Promise<Register> => (await import("./commands/cluster.js")).registerCluster,
  store: async (): Promise<Register> => (await import("./commands/store.js")).registerStore,
  diloco: async (): Promise<Register> => (await import("./commands/diloco.js")).registerDiloco,
  k8s: async (): Promise<Register> => (await import("./commands/k8s.js")).registerK8s,
  slurm: async (): Promise<Register> => (await import("./commands/slurm.js")).registerSlurm,
  collate: async (): Promise<Register> => (await import("./commands/collate.js")).registerCollate,
  train: async (): Promise<Register> => (await import("./commands/train.js")).registerTrain,
  outer: async (): Promise<Register> => (await import("./commands/outer.js")).registerOuter,
  serve: async (): Promise<Register> => (await import("./commands/serve.js")).registerServe,
  export: async (): Promise<Register> => (await import("./commands/export.js")).registerExport,
  env: async (): Promise<Register> => (await import("./commands/env.js")).registerEnv,
  experiment: async (): Promise<Register> => (await import("./commands/experiment.js")).registerExperiment,
  world_model: async (): Promise<Register> => (await import("./commands/world_model.js")).registerWorldModel,
  runs: async (): Promise<Register> => (await import("./commands/runs.js")).registerRuns,
} satisfies Record<string, () => Promise<Register>>;
type ModuleName = keyof typeof MODULES;

/** Every top-level command, in help order: the module that registers it and its description. */
export const COMMANDS: Readonly<Record<string, { module: ModuleName; description: string }>> = {
  demo: { module: "lab", description: "run every pipeline stage on the bundled datasets; writes scratch/runs/<timestamp>/{metrics.json,report.html}" },
  notebooks: { module: "lab", description: "execute notebooks headlessly on the tslab kernel; executed copies go to scratch/notebooks/" },
  kernel: { module: "lab", description: "the project-local tslab Jupyter kernel" },
  doctor: { module: "lab", description: "what this machine offers the lab: tools and TensorFlow.js backends" },
  repl: { module: "lab", description: "a Node REPL with the library preloaded (top-level await; tables print as aligned text)" },
  viz: { module: "lab", description: "figures" },
  bench: { module: "lab", description: "run a benchmark from bench/ (figures and ratios measured side by side in one run)" },
  traces: { module: "traces", description: "agent traces: ingestion and error sites" },
  hints: { module: "hints", description: "hint generation at error sites, and its evaluation" },
  tasks: { module: "tasks", description: "feature-deletion tasks: build, list, show, export, micro" },
  sandbox: { module: "sandbox", description: "sandboxed execution: bubblewrap and Docker" },
  grade: { module: "sandbox", description: "grade a patch (unified diff or action transcript) against a task of a pool, in the sandbox" },
  cluster: { module: "cluster", description: "a local cluster of N nodes on 127.0.0.x (Docker Swarm or Slurm) for the swarm/slurm executors" },
  store: { module: "store", description: "the run layout on disk or S3" },
  diloco: { module: "diloco", description: "DiLoCo across worker processes that meet only through a store (default: a tiny model on a toy objective, in seconds)" },
  "diloco-worker": { module: "diloco", description: "one DiLoCo worker (started by `composer-lab diloco`)" },
  k8s: { module: "k8s", description: "Kubernetes Indexed Job manifests for pool grading and DiLoCo (written and checked offline)" },
  "k8s-task": { module: "k8s", description: "a grading pod's command: grade task JOB_COMPLETION_INDEX of the list, the pod being the sandbox; the grade goes to the store" },
  "slurm-task": { module: "slurm", description: "run one task of a slurm executor job array in the local sandbox (started by sbatch)" },
  collate: { module: "collate", description: "trace files → sdpo.jsonl (hint-conditioned teacher rows), dpo.jsonl (failed action vs recovery) and sft.jsonl (assistant-masked) for `train` (sft.data / dpo.data)" },
  train: { module: "train", description: "SFT warm start then GRPO (+ SDPO hints, DPO replay) on the environment the config names (the toy tool-calling env, or feature-deletion tasks graded in the sandbox); metrics JSONL, checkpoints and plots in the run folder (rerun with the same --run-dir to resume)" },
  compare: { module: "train", description: "GRPO alone vs GRPO+SDPO(hints) at an equal number of rollouts over several seeds (same SFT start per seed)" },
  outer: { module: "outer", description: "the OUTER loop: a divergence-gated multi-model tree over feature-deletion tasks, routed into the store's six prefixes; teacher replay over traces" },
  serve: { module: "serve", description: "serve a checkpoint behind an OpenAI-compatible API (/v1/chat/completions with tools and logprobs, /v1/models, /health) until SIGINT/SIGTERM" },
  export: { module: "export", description: "the lab's data in the formats other trainers read: TRL datasets (JSONL + Parquet, a dataset card)" },
  env: { module: "env", description: "the feature-deletion environment as an OpenEnv-style HTTP server (reset / step / state / health) with a TRL reward endpoint" },
  experiment: { module: "experiment", description: "controlled experiments that check a training method can show its effect (sdpo-control: SDPO's positive and negative controls)" },
  "world-model": { module: "world_model", description: "the world-model head (SDPO's second mode): an adapter on a policy's trunk that predicts next_state and outcome from wm_tuples; train offline, evaluate" },
  runs: { module: "runs", description: "read training runs (TRL / transformers trainer_state.json, TensorBoard event files, the lab's metrics.jsonl) into one table: what each holds, the rows of chosen metrics, a page of plots" },
};

function baseProgram(): Command {
  return new Command("composer-lab")
    .description("composer-lab: a research lab for post-training coding agents (traces → hints → tasks → sandboxed grading → training → store)")
    .version(JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")).version)
    .showHelpAfterError()
    .exitOverride();
}

/** The whole command line, every command module loaded. */
export async function buildProgram(): Promise<Command> {
  const program = baseProgram();
  for (const load of Object.values(MODULES)) (await load())(program);
  return program;
}

/**
 * The command line for one invocation: the module of the command named in argv only; for help,
 * the version or an unknown command, stubs that carry each command's name and description.
 */
export async function programFor(argv: string[]): Promise<Command> {
  const program = baseProgram();
  const words = argv.slice(2).filter((a) => !a.startsWith("-"));
  // `composer-lab help <command>` needs that command's module too
  const name = words[0] === "help" ? words[1] : words[0];
  const entry = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry) {
    (await MODULES[entry.module]())(program);
    return program;
  }
  for (const [n, c] of Object.entries(COMMANDS)) program.command(n).description(c.description).allowUnknownOption().allowExcessArguments();
  return program;
}

export async function main(argv = process.argv): Promise<void> {
  const json = argv.includes("--json");
  if (json) routeConsoleToStderr();
  try {
    const program = await programFor(argv);
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
    // a command that drew figures may have left the browser running
    const { closeRenderer } = await import("../viz/index.js");
    await closeRenderer();
  }
}
