/**
 * The loss-channel registry (lib/train/channels.ts): what derives from it (LossWeights, the train
 * config's channel sections, StepMetrics), which channels the RL step computes, the total's
 * arithmetic, and the SDPO weight's one name from the CLI (`compare --sdpo-weight`; `--alpha` refused).
 * The RL step itself runs through every channel in test/train.test.ts (SDPO, DPO and replayed rows).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend, tf } from "../lib/backend/index.js";
import {
  CHANNEL_NAMES, LOSS_CHANNELS, LossWeights, StepMetrics, composeLoss, enabledOrNot, idleChannelMetrics, parseTrainConfig, readMetrics, type ChannelName,
} from "../lib/train/index.js";
import { cli, oneJson, tmp } from "./helpers.js";

beforeAll(async () => {
  await initBackend("cpu");
});

describe("LOSS_CHANNELS", () => {
  it("each entry is named by its key, and the weights, the config sections and the step metrics derive from the entries", () => {
    expect(CHANNEL_NAMES).toEqual(["grpo", "sdpo", "dpo", "lm_ce"]);
    for (const [k, c] of Object.entries(LOSS_CHANNELS)) expect(c.name).toBe(k);
    // one weight per channel, its default the entry's, plus the policy/distillation blend
    const w = LossWeights.parse({});
    expect(Object.keys(w).sort()).toEqual([...CHANNEL_NAMES, "sdpo_blend"].sort());
    for (const c of Object.values(LOSS_CHANNELS)) expect(w[c.name as ChannelName]).toBe(c.weight);
    // every channel with a schema owns its section of the train config, defaulting to the schema's defaults
    const cfg = parseTrainConfig({}) as unknown as Record<string, unknown>;
    for (const c of Object.values(LOSS_CHANNELS)) if (c.config) expect(cfg[c.section]).toEqual((c.config as { parse(x: unknown): unknown }).parse({}));
    // StepMetrics holds loss_<name> for each channel and every channel's own metrics
    const shape = Object.keys(StepMetrics.shape);
    for (const c of Object.values(LOSS_CHANNELS)) {
      expect(shape).toContain(`loss_${c.name}`);
      for (const m of Object.keys(c.metrics)) expect(shape).toContain(m);
    }
    // an SFT line: the channels' idle values and loss_lm_ce parse as a step's metrics
    const sft = { step: 1, phase: "sft", rollouts: 0, reward_mean: null, reward_std: null, valid_rate: null, loss_total: 1, ...idleChannelMetrics(), loss_lm_ce: 1, hint_layers: {}, grad_norm: 1, tokens_per_s: 0, elapsed_s: 0 };
    expect(StepMetrics.parse(sft)).toEqual(sft);
    expect(() => StepMetrics.parse({ ...sft, loss_grpo: undefined })).toThrow(/loss_grpo/);
  });

  it("the RL step computes grpo always and the others when their weight is > 0; a misspelled weight is refused by name", () => {
    const on = (weights: Record<string, unknown>) => enabledOrNot(parseTrainConfig({ loss_weights: weights })).filter((x) => x.enabled).map((x) => x.ch.name);
    expect(on({})).toEqual(["grpo"]);
    expect(on({ grpo: 0, sdpo: 1 })).toEqual(["grpo", "sdpo"]); // convex w = 1: grpo still computed (its diagnostics), weighted 0
    expect(on({ sdpo: 0.5, dpo: 0.1, lm_ce: 0.2 })).toEqual(["grpo", "sdpo", "dpo", "lm_ce"]);
    expect(() => parseTrainConfig({ loss_weights: { sdpo_weight: 1 } })).toThrow(/sdpo_weight/);
    expect(() => parseTrainConfig({ loss_weights: { alpha: 1 } })).toThrow(/renamed: use loss_weights\.sdpo/);
  });

  it("composeLoss: blend(w_grpo·L_grpo, L_sdpo) + Σ w·L over the additive channels", () => {
    const v = (x: tf.Scalar) => x.dataSync()[0]!;
    const ch = { grpo: tf.scalar(2), sdpo: tf.scalar(3), dpo: tf.scalar(5), lm_ce: tf.scalar(7) };
    expect(v(composeLoss(ch, { grpo: 1, sdpo: 0.25, dpo: 0.5, lm_ce: 2 }))).toBeCloseTo(0.75 * 2 + 0.25 * 3 + 0.5 * 5 + 2 * 7, 5);
    expect(v(composeLoss(ch, { grpo: 2, sdpo: 1, sdpo_blend: "additive" }))).toBeCloseTo(2 * 2 + 3, 5);
    expect(v(composeLoss({ dpo: tf.scalar(5) }, { grpo: 1, dpo: 1 }))).toBe(5); // missing channels count 0
  });
});

describe("the SDPO weight's one name", () => {
  it("compare --alpha is refused, naming --sdpo-weight; --help lists --sdpo-weight", () => {
    const r = cli(["compare", "--alpha", "1", "--json"]);
    expect(r.code).not.toBe(0);
    const out = JSON.parse(r.stdout.trim()) as { ok: boolean; error: string };
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/renamed: use --sdpo-weight \(loss_weights\.sdpo/);
    const help = cli(["compare", "--help"]);
    expect(help.stdout).toMatch(/--sdpo-weight <w>/);
    expect(help.stdout).not.toMatch(/--alpha/);
  }, 60_000);

  it("compare --sdpo-weight W is loss_weights.sdpo of the grpo+sdpo arm, all the way to its loss", () => {
    const dir = tmp();
    const cfg = join(dir, "cfg.json");
    writeFileSync(cfg, JSON.stringify({
      model: { block_size: 128, n_layer: 1, n_head: 2, n_embd: 16 }, env: { n_tasks: 12 }, sft: { steps: 1, batch_size: 2 },
      rl: { steps: 1, prompts_per_step: 1, num_generations: 2, max_completion_length: 6 }, sdpo: { gap_check_tasks: 0 },
      heldout: { every: 0, n_tasks: 2 }, checkpoint: { every: 0, keep: 1 }, grade_concurrency: 1,
    }));
    const run = join(dir, "run");
    const r = cli(["compare", "--config", cfg, "--seeds", "1", "--sdpo-weight", "0.5", "--run-dir", run, "--backend", "cpu", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(oneJson(r.stdout).ok).toBe(true);
    const weights = (arm: string) => (JSON.parse(readFileSync(join(run, "seed-0", arm, "config.json"), "utf8")) as { loss_weights: Record<string, unknown> }).loss_weights;
    expect(weights("grpo+sdpo")).toMatchObject({ grpo: 1, sdpo: 0.5 });
    expect(weights("grpo")).toMatchObject({ grpo: 1, sdpo: 0 });
    const rl = (arm: string) => readMetrics(join(run, "seed-0", arm)).filter((m) => m.phase === "rl");
    expect(rl("grpo+sdpo").every((m) => m.loss_sdpo !== null)).toBe(true);
    expect(rl("grpo").every((m) => m.loss_sdpo === null)).toBe(true);
  }, 120_000);
});
