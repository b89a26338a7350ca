/** `composer-lab world-model train|eval`: the world-model head (lib/train/world_model.ts) as an offline pass over a store's wm_tuples. */
import type { Command } from "commander";
import { Option } from "commander";
import { loadCheckpoint, loadWorldModel, readWmTuples, saveWorldModel, splitWmTuples, trainWorldModel, evaluateWorldModel, WorldModelConfig, type WorldModelEval } from "../../train/index.js";
import { realNumber, wholeNumber } from "../args.js";
import type { BackendChoice } from "../../backend/index.js";
import { jsonOpt } from "../options.js";
import { backendOption, resolveBackend } from "../backend.js";
import { emit } from "../output.js";

const evalText = (e: WorldModelEval | null): string =>
  e
    ? [
      `held-out: ${e.n} tuples, ${e.bytes} next-state bytes`,
      `next-state CE (nats/byte): head ${e.next_state.head_ce.toFixed(3)}, policy without the adapter ${e.next_state.policy_ce.toFixed(3)}`,
      `outcome: head Brier ${e.outcome.head.brier.toFixed(4)} acc ${e.outcome.head.accuracy.toFixed(3)} ECE ${e.outcome.head.ece.toFixed(3)}; prior (p=${e.outcome.prior.p.toFixed(3)}) Brier ${e.outcome.prior.brier.toFixed(4)} acc ${e.outcome.prior.accuracy.toFixed(3)}`,
    ].join("\n")
    : "no held-out tuples";

export function registerWorldModel(program: Command): void {
  const wm = program.command("world-model").description("the world-model head (SDPO's second mode): an adapter on a policy's trunk that predicts next_state and outcome from wm_tuples; train offline, evaluate");
  wm.command("train")
    .description("train a head on a store run's wm_tuples over a frozen checkpoint's trunk; writes DIR/head.json + DIR/trunk/ (outer run --gate-checkpoint DIR reads it)")
    .requiredOption("--store <uri>", "store with the wm_tuples: a folder or s3://bucket/prefix")
    .requiredOption("--run <id>", "run id in the store")
    .requiredOption("--checkpoint <dir>", "the trunk: a policy checkpoint folder")
    .requiredOption("--out <dir>", "where the head goes")
    .option("--steps <n>", "head steps (default 200)", wholeNumber(0))
    .option("--rank <r>", "adapter rank (default 4)", wholeNumber(1))
    .option("--lr <x>", "Adam learning rate (default 0.01)", realNumber(0, Infinity, { above: true }))
    .option("--outcome-weight <w>", "outcome BCE weight in the head's loss (default 1)", realNumber(0))
    .option("--holdout-fraction <f>", "share of the tuples' tasks held out for evaluation (default 0.25)", realNumber(0, 0.9))
    .option("--seed <s>", "seed of the head's init, its batches and the held-out split", wholeNumber(0))
    .addOption(backendOption())
    .addOption(jsonOpt())
    .action(async (o: { store: string; run: string; checkpoint: string; out: string; steps?: number; rank?: number; lr?: number; outcomeWeight?: number; holdoutFraction?: number; seed?: number; backend?: BackendChoice; json?: boolean }) => {
      const backend = await resolveBackend(o);
      const source = { store: o.store, run: o.run };
      const config = WorldModelConfig.parse({
        enabled: true, source, ...(o.steps !== undefined ? { steps: o.steps } : {}), ...(o.rank !== undefined ? { adapter_rank: o.rank } : {}), ...(o.lr !== undefined ? { lr: o.lr } : {}),
        ...(o.outcomeWeight !== undefined ? { outcome_weight: o.outcomeWeight } : {}), ...(o.holdoutFraction !== undefined ? { holdout_fraction: o.holdoutFraction } : {}), ...(o.seed !== undefined ? { seed: o.seed } : {}),
      });
      const ck = await loadCheckpoint(o.checkpoint);
      const r = trainWorldModel(ck.policy, await readWmTuples(source), config);
      await saveWorldModel(o.out, r.head, ck.policy, { prior: r.prior, step: ck.step, eval: r.eval });
      const last = r.history.at(-1) ?? null;
      emit(!!o.json, { ok: true, out: o.out, backend: backend.name, checkpoint: o.checkpoint, train: r.train, heldout: r.heldout, prior: r.prior, steps: config.steps, parameters: r.head.parameterCount(), last, seconds: r.seconds, eval: r.eval }, () =>
        [`head (${r.head.parameterCount()} parameters, rank ${config.adapter_rank}) trained ${config.steps} steps on ${r.train} tuples in ${r.seconds.toFixed(1)} s → ${o.out}`, evalText(r.eval)].join("\n"));
    });
  wm.command("eval")
    .description("a saved head on a store run's wm_tuples: next-state CE vs the policy without the adapter, outcome Brier / accuracy / ECE / reliability vs the prior")
    .requiredOption("--head <dir>", "a head folder (head.json + trunk/)")
    .requiredOption("--store <uri>", "store with the wm_tuples")
    .requiredOption("--run <id>", "run id in the store")
    .addOption(new Option("--split <which>", "heldout: the head's held-out split of these tuples (its own holdout_fraction and seed); all: every tuple (another run's tuples)").choices(["heldout", "all"]).default("all"))
    .addOption(backendOption())
    .addOption(jsonOpt())
    .action(async (o: { head: string; store: string; run: string; split: "heldout" | "all"; backend?: BackendChoice; json?: boolean }) => {
      await resolveBackend(o);
      const { head, policy, file } = await loadWorldModel(o.head);
      const tuples = await readWmTuples({ store: o.store, run: o.run });
      const use = o.split === "all" ? tuples : splitWmTuples(tuples, file.config.holdout_fraction, file.config.seed).heldout;
      if (!use.length) throw new Error(`--split ${o.split}: no tuples`);
      const e = evaluateWorldModel(policy, head, use, file.prior);
      emit(!!o.json, { ok: true, head: o.head, split: o.split, eval: e }, () => evalText(e));
    });
}
