/** `composer-lab outer run|replay`: the OUTER loop over OpenAI-compatible endpoints. */
import type { Command } from "commander";
import { availableParallelism } from "node:os";
import { timestampSlug } from "../../core/index.js";
import { Option } from "commander";
import { GATES, GateKind, ModelClient, compareGates, parseBudget, parseModelList, runOuter, teacherReplay, type OutcomeScorer } from "../../outer/index.js";
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

type GateCli = { gate: GateKind; gateCheckpoint?: string; gateUncertainty?: number };

/** --gate-checkpoint DIR → the student's world-model head as the confidence gate's scorer (lib/train, in process). */
async function gateScorer(o: Omit<GateCli, "gate">, kinds: GateKind[]): Promise<OutcomeScorer | undefined> {
  if (!o.gateCheckpoint) {
    const need = kinds.filter((k) => GATES[k].needs_scorer);
    if (need.length) throw new Error(`--gate ${need.join(",")}: needs --gate-checkpoint DIR (a world-model head folder: composer-lab world-model train --out DIR)`);
    return undefined;
  }
  const [{ initBackend }, { loadWorldModel, worldModelScorer }] = await Promise.all([import("../../backend/index.js"), import("../../train/index.js")]);
  await initBackend();
  const { head, policy } = await loadWorldModel(o.gateCheckpoint);
  return worldModelScorer(policy, head, `world-model@${o.gateCheckpoint}`);
}

const gateOptions = (c: Command): Command =>
  c
    .option("--gate-checkpoint <dir>", "the student's world-model head (head.json + trunk/, from `composer-lab world-model train` or a train run's world_model/): the confidence gate's scorer, recorded on every node with any gate")
    .option("--gate-uncertainty <bits>", "the confidence gate fires where the followed action's outcome entropy exceeds this (0 ≤ u < 1; default 0.5)", realNumber(0, 1, { below: true }));

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
    .addOption(new Option("--gate <kind>", `the branch gate: ${Object.entries(GATES).map(([k, g]) => `${k} (${g.doc})`).join("; ")}`).choices(GateKind.options).default("divergence"))
    .option("--gate-checkpoint <dir>", "the student's world-model head (head.json + trunk/, from `composer-lab world-model train` or a train run's world_model/): the confidence gate's scorer, recorded on every node with any gate")
    .option("--gate-uncertainty <bits>", "the confidence gate fires where the followed action's outcome entropy exceeds this (0 ≤ u < 1; default 0.5)", realNumber(0, 1, { below: true }))
    .option("--limit <n>", "at most this many tasks of the pool", wholeNumber(1))
    .option("--task-concurrency <n>", "trees grown at once", wholeNumber(1), 2)
    .option("--step-concurrency <n>", "env steps and grades at once (default: cores)", wholeNumber(1))
    .option("--holdout-fraction <f>", "share of the pool held out (by a seeded hash of the task id; 0 ≤ f < 1)", realNumber(0, 1, { below: true }), 0.1)
    .option("--holdout-seed <s>", "seed of the held-out split", wholeNumber(0), 0)
    .addOption(sandboxChoice())
    .addOption(executorChoice())
    .addOption(jsonOpt())
    .action(async (o: ModelCli & GateCli & { pool: string; store: string; models: string; run?: string; budget?: string; round: number; threshold: number; limit?: number; taskConcurrency: number; stepConcurrency?: number; holdoutFraction: number; holdoutSeed: number; sandbox: SandboxChoice; executor: string; json?: boolean }) => {
      const stepConcurrency = o.stepConcurrency ?? availableParallelism();
      const scorer = await gateScorer(o, [o.gate]);
      const gate = { kind: o.gate, threshold: o.threshold, ...(o.gateUncertainty !== undefined ? { uncertainty: o.gateUncertainty } : {}) };
      const { summary, grading } = await withExecutor(o.executor, { sandbox: o.sandbox, concurrency: stepConcurrency }, async (ex) => ({
        summary: await runOuter({
          pool: o.pool, models: clients(o.models, o), store: openStore(o.store), run_id: o.run ?? timestampSlug(), sandbox: ex.asSandbox(), executor: ex.name,
          budget: parseBudget(o.budget), round: o.round, threshold: o.threshold, gate, scorer, limit: o.limit, taskConcurrency: o.taskConcurrency, stepConcurrency,
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
          `gate ${summary.gate.kind}${summary.gate.scorer ? ` (scorer ${summary.gate.scorer})` : ""}: ${summary.gate.states} states, divergence fired ${summary.gate.divergence_fires}, confidence fired ${summary.gate.confidence_fires ?? "-"}, branched ${summary.gate.branched}`,
          `divergence: ${summary.divergence_histogram.counts.map((c, i) => `[${summary.divergence_histogram.edges[i]},${summary.divergence_histogram.edges[i + 1]}) ${c}`).join("  ")}`,
          ...summary.models.map((m) => `  ${m.model}: ${m.requests} requests, ${m.errors} failed, ${m.malformed} malformed, ${m.prompt_tokens}+${m.completion_tokens} tokens, $${m.cost_usd.toFixed(4)}`),
          `traces: ${summary.traces}`,
        ].join("\n"),
      );
    });
  gateOptions(modelOptions(
    outer
      .command("gates")
      .description("compare branch gates on the same pool, models and node budget: one round per gate (runs PREFIX-<gate> of one store) → graded leaves, winners, distinct DPO pairs per node, seconds")
      .requiredOption("--pool <dir>", "task pool folder")
      .requiredOption("--store <uri>", "store: a folder or s3://bucket/prefix"),
  ))
    .option("--gates <kinds>", `comma-separated, run in this order (${GateKind.options.join(", ")})`, "divergence,confidence,both")
    .option("--run-prefix <id>", "run ids are PREFIX-<gate> (default: a timestamp)")
    .option("--budget <spec>", "depth=N,width=N,nodes=N,seconds=S per round")
    .option("--threshold <d>", "the divergence threshold (0 ≤ d < 1)", realNumber(0, 1, { below: true }), 0)
    .option("--limit <n>", "at most this many tasks of the pool", wholeNumber(1))
    .option("--holdout-fraction <f>", "share of the pool held out", realNumber(0, 1, { below: true }), 0.1)
    .addOption(sandboxChoice())
    .addOption(jsonOpt())
    .action(async (o: ModelCli & Omit<GateCli, "gate"> & { pool: string; store: string; models: string; gates: string; runPrefix?: string; budget?: string; threshold: number; limit?: number; holdoutFraction: number; sandbox: SandboxChoice; json?: boolean }) => {
      const kinds = o.gates.split(",").map((k, i) => {
        const r = GateKind.safeParse(k.trim());
        if (!r.success) throw new Error(`--gates item ${i + 1} (${k}): one of ${GateKind.options.join(", ")}`);
        return r.data;
      });
      const scorer = await gateScorer(o, kinds);
      const { getSandbox } = await import("../../sandbox/index.js");
      const rows = await compareGates({
        pool: o.pool, models: clients(o.models, o), sandbox: await getSandbox(o.sandbox), store: openStore(o.store), run_prefix: o.runPrefix ?? timestampSlug(), scorer,
        gates: kinds.map((kind) => ({ kind, threshold: o.threshold, ...(o.gateUncertainty !== undefined ? { uncertainty: o.gateUncertainty } : {}) })),
        budget: parseBudget(o.budget), limit: o.limit, holdout: { fraction: o.holdoutFraction, seed: 0 },
      });
      emit(!!o.json, { ok: true, rows }, () => rows.map((r) => `${r.gate.padEnd(10)} ${r.nodes} nodes, ${r.graded} graded, ${r.winners} winners (${r.tasks_won}/${r.tasks} tasks), ${r.distinct_dpo_pairs} distinct DPO pairs (${r.distinct_dpo_per_node.toFixed(3)}/node), branched ${r.branched}/${r.states}, ${r.seconds.toFixed(1)} s`).join("\n"));
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
