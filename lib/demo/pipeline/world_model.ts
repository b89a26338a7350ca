/**
 * The world-model stage of `composer-lab demo`: a short offline pass of the world-model head (SDPO's
 * second mode, lib/train/world_model.ts) over the bundled fixture store's wm_tuples (one real OUTER
 * round) on the fd-micro SFT student's frozen trunk, and its held-out evaluation against the outcome
 * prior and the policy without the adapter.
 */
import { join } from "node:path";
import { initBackend } from "../../backend/index.js";
import { datasetsDir } from "../../core/index.js";
import { loadCheckpoint, readWmTuples, reliabilityFigure, trainWorldModel } from "../../train/index.js";
import { fromRows } from "../../viz/index.js";
import type { DemoStage } from "../stage.js";

export const worldModelStage: DemoStage = {
  name: "world_model",
  title: "World model: the head that predicts each step's observation and outcome",
  description: "Trains the parameter-isolated world-model head (a <deliberate> slot and a low-rank adapter on the student's trunk) for a few steps on the fixture store's wm_tuples and scores it on held-out tasks: next-state CE against the policy without the adapter, outcome Brier / accuracy / calibration against the prior.",
  async run(ctx) {
    await initBackend();
    const ck = await loadCheckpoint(join(datasetsDir("train", "fd-micro-sft"), "ckpt_000150"));
    const tuples = await readWmTuples({ store: datasetsDir("fd-micro", "wm-store"), run: "wm-r0" });
    const r = trainWorldModel(ck.policy, tuples, { steps: 40, seed: ctx.seed || 1 });
    const e = r.eval!;
    const parameters = r.head.parameterCount();
    ck.policy.dispose();
    r.head.dispose();
    const o = e.outcome;
    return {
      summary: `Head (${parameters} parameters) trained 40 steps on ${r.train} tuples in ${r.seconds.toFixed(1)} s. Held out (${e.n} tuples): next-state CE ${e.next_state.head_ce.toFixed(2)} nats/byte vs ${e.next_state.policy_ce.toFixed(2)} for the policy without the adapter; outcome Brier ${o.head.brier.toFixed(3)} vs ${o.prior.brier.toFixed(3)} for the prior (p = ${o.prior.p.toFixed(2)}), accuracy ${o.head.accuracy.toFixed(2)} vs ${o.prior.accuracy.toFixed(2)}.`,
      metrics: {
        wm_train_tuples: r.train, wm_heldout_tuples: e.n, wm_seconds: Number(r.seconds.toFixed(2)),
        wm_next_state_ce_head: Number(e.next_state.head_ce.toFixed(4)), wm_next_state_ce_policy: Number(e.next_state.policy_ce.toFixed(4)),
        wm_brier_head: Number(o.head.brier.toFixed(4)), wm_brier_prior: Number(o.prior.brier.toFixed(4)), wm_accuracy_head: Number(o.head.accuracy.toFixed(4)), wm_accuracy_prior: Number(o.prior.accuracy.toFixed(4)), wm_ece_head: Number(o.head.ece.toFixed(4)),
      },
      tables: [{ title: "World-model head vs its baselines (held-out tasks)", table: fromRows([
        { predictor: "head", next_state_ce: e.next_state.head_ce, brier: o.head.brier, accuracy: o.head.accuracy, ece: o.head.ece, log_loss: o.head.log_loss },
        { predictor: "policy without the adapter", next_state_ce: e.next_state.policy_ce, brier: null, accuracy: null, ece: null, log_loss: null },
        { predictor: `outcome prior (p = ${o.prior.p.toFixed(3)})`, next_state_ce: null, brier: o.prior.brier, accuracy: o.prior.accuracy, ece: o.prior.ece, log_loss: o.prior.log_loss },
      ]) }],
      figures: [{ title: "Outcome calibration (reliability diagram)", figure: reliabilityFigure({ head: e }) }],
    };
  },
};
