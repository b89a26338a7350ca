/** `composer-lab outer run|replay`: the OUTER loop over OpenAI-compatible endpoints. */
import type { Command } from "commander";
import { availableParallelism } from "node:os";
import { timestampSlug } from "../../core/index.js";
import { ModelClient, parseBudget, parseModelList, runOuter, teacherReplay } from "../../outer/index.js";
import type { SandboxChoice } from "../../sandbox/index.js";
import { openStore } from "../../store/index.js";
import { tallyText, withExecutor } from "../executor.js";
import { executorChoice, jsonOpt, sandboxChoice } from "../options.js";
import { emit } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";

type ModelCli = { modelConcurrency?: number; timeoutS?: number; retries?: number; maxTokens?: number };

function clients(spec: string, o: ModelCli): ModelClient[] {
  const endpoints = parseModelList(spec, {
    ...(o.modelConcurrency !== undefined ? { concurrency: o.modelConcurrency } : {}),
    ...(o.timeoutS !== undefined ? { timeout_ms: o.timeoutS * 1000 } : {}),
    ...(o.retries !== undefined ? { retries: o.retries } : {}),
    ...(o.maxTokens !== undefined ? { max_tokens: o.maxTokens } : {}),
  });
  return endpoints.map((e) => new ModelClient(e));
}

const modelOptions = (c: Command): Command =>
  c
    .requiredOption("--models <urls>", "OpenAI-compatible endpoints, comma-separated: URL[#model] (e.g. http://127.0.0.1:8001/v1)")
    .option("--model-concurrency <n>", "requests in flight per endpoint (default 2)", wholeNumber(1))
    .option("--timeout-s <s>", "per-request timeout (default 60)", realNumber(0, Infinity, { above: true }))
    .option("--retries <n>", "retries after a connection error, 429 or 5xx (default 2)", wholeNumber(0))
    .option("--max-tokens <n>", "max_tokens per answer (default 256)", wholeNumber(1));

export function registerOuter(program: Command): void {
  const outer = program.command("outer").description("the OUTER loop: a divergence-gated multi-model tree over feature-deletion tasks, routed into the store's six prefixes; teacher replay over traces");
  modelOptions(
    outer
      .command("run")
      .description("grow a tree per task of a pool (held-out tasks are recorded, never expanded); rerun with the same --run to resume")
      .requiredOption("--pool <dir>", "task pool folder (index.jsonl, e.g. datasets/fd-micro/pool)")
      .requiredOption("--store <uri>", "store: a folder or s3://bucket/prefix"),
  )
    .option("--run <id>", "run id (default: a timestamp); the same id resumes")
    .option("--budget <spec>", "depth=N,width=N,nodes=N (per task tree),seconds=S (the whole run); default depth=4,width=3,nodes=24,seconds=600")
    .option("--round <k>", "the flywheel round written on every record", wholeNumber(0), 0)
    .option("--threshold <d>", "branch where the divergence exceeds this (0 ≤ d < 1)", realNumber(0, 1, { below: true }), 0)
    .option("--limit <n>", "at most this many tasks of the pool", wholeNumber(1))
    .option("--task-concurrency <n>", "trees grown at once", wholeNumber(1), 2)
    .option("--step-concurrency <n>", "env steps and grades at once (default: cores)", wholeNumber(1))
    .option("--holdout-fraction <f>", "share of the pool held out (by a seeded hash of the task id; 0 ≤ f < 1)", realNumber(0, 1, { below: true }), 0.1)
    .option("--holdout-seed <s>", "seed of the held-out split", wholeNumber(0), 0)
    .addOption(sandboxChoice())
    .addOption(executorChoice())
    .addOption(jsonOpt())
    .action(async (o: ModelCli & { pool: string; store: string; models: string; run?: string; budget?: string; round: number; threshold: number; limit?: number; taskConcurrency: number; stepConcurrency?: number; holdoutFraction: number; holdoutSeed: number; sandbox: SandboxChoice; executor: string; json?: boolean }) => {
      const stepConcurrency = o.stepConcurrency ?? availableParallelism();
      const { summary, grading } = await withExecutor(o.executor, { sandbox: o.sandbox, concurrency: stepConcurrency }, async (ex) => ({
        summary: await runOuter({
          pool: o.pool, models: clients(o.models, o), store: openStore(o.store), run_id: o.run ?? timestampSlug(), sandbox: ex.asSandbox(), executor: ex.name,
          budget: parseBudget(o.budget), round: o.round, threshold: o.threshold, limit: o.limit, taskConcurrency: o.taskConcurrency, stepConcurrency,
          holdout: { fraction: o.holdoutFraction, seed: o.holdoutSeed },
        }),
        grading: ex.tally(),
      }));
      emit(!!o.json, { ok: true, ...summary, grading }, () =>
        [
          `run ${summary.run_id} round ${summary.round}: ${summary.tasks} tasks (${summary.resumed_tasks} resumed, ${summary.skipped_tasks} left by the time budget), ${summary.holdout_tasks} held out`,
          `graded on ${tallyText(grading)}`,
          `${summary.nodes} nodes, ${summary.forks} forks (${summary.branches} branches), ${summary.graded} graded leaves, ${summary.passed} passed, hack rate ${summary.hack_rate === null ? "-" : summary.hack_rate.toFixed(1)} per 100; ${summary.nodes_per_s.toFixed(2)} nodes/s, ${summary.graded_per_s.toFixed(2)} graded/s in ${summary.seconds.toFixed(1)} s`,
          `prefixes: ${Object.entries(summary.counts).map(([k, v]) => `${k} ${v}`).join(", ")}`,
          `divergence: ${summary.divergence_histogram.counts.map((c, i) => `[${summary.divergence_histogram.edges[i]},${summary.divergence_histogram.edges[i + 1]}) ${c}`).join("  ")}`,
          ...summary.models.map((m) => `  ${m.model}: ${m.requests} requests, ${m.errors} failed, ${m.malformed} malformed, ${m.prompt_tokens}+${m.completion_tokens} tokens, $${m.cost_usd.toFixed(4)}`),
          `traces: ${summary.traces}`,
        ].join("\n"),
      );
    });
  modelOptions(
    outer
      .command("replay")
      .description("teacher replay: N teachers answer the state at each error site of frozen traces; teacher consensus vs the trace's action → dpo_pairs")
      .argument("<traces...>", "trace files or folders (Claude Code JSONL or chat format)")
      .requiredOption("--store <uri>", "store: a folder or s3://bucket/prefix"),
  )
    .option("--run <id>", "run id (default: a timestamp)")
    .option("--round <k>", "the flywheel round written on every record", wholeNumber(0), 0)
    .option("--limit <n>", "at most this many error sites", wholeNumber(1))
    .addOption(jsonOpt())
    .action(async (traces: string[], o: ModelCli & { store: string; models: string; run?: string; round: number; limit?: number; json?: boolean }) => {
      const models = clients(o.models, o);
      const run_id = o.run ?? timestampSlug();
      const summary = await teacherReplay({ paths: traces, models, store: openStore(o.store), run_id, round: o.round, limit: o.limit });
      emit(!!o.json, { ok: true, run_id, ...summary, models: models.map((m) => m.stats) }, () =>
        `${summary.sites} error sites in ${summary.sessions} sessions; ${summary.replayed} replayed, ${summary.pairs} consensus pairs, ${summary.written} written to ${o.store} run ${run_id} dpo_pairs (${summary.duplicates_skipped} already there, ${summary.holdout_skipped} held out); ${summary.teacher_errors} failed teacher requests; ${summary.seconds.toFixed(1)} s`,
      );
    });
}
