/**
 * The toy tool-calling environment, the HeldOutGuard and the trainer end to end (tiny model, real
 * tfjs on the default backend): metrics JSONL, SDPO rows from hint layers, checkpoints, resume
 * after SIGKILL, the guard stopping a run, and the CLI contract.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import { Rng } from "../lib/core/index.js";
import { ToolCallEpisode, ToolCallEnvironment, corruptCall, gradeToolCall, taskVariant } from "../lib/env/index.js";
import { defaultLayered } from "../lib/hints/index.js";
import {
  DpoConfig, HeldOutGuard, PolicyGradientConfig, RENAMED_FIELDS, SdpoConfig, StepMetrics, Trainer, bootstrapMeanCI, loadTrainConfig, parseTrainConfig, readMetrics, sampleStd,
  hintedPromptIds, summarizeComparison, trainingFigures, type RunRecord, type TrainConfigInput,
} from "../lib/train/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const TINY: TrainConfigInput = {
  model: { block_size: 256, n_layer: 1, n_head: 2, n_embd: 16 },
  env: { n_tasks: 40 },
  sft: { steps: 3, batch_size: 4 },
  rl: { steps: 2, prompts_per_step: 2, num_generations: 3, max_completion_length: 12 },
  loss_weights: { grpo: 1, sdpo: 1, dpo: 0.1 },
  heldout: { every: 1, n_tasks: 4 },
  checkpoint: { every: 1, keep: 2 },
};

beforeAll(async () => {
  await initBackend();
});

describe("ToolCallEpisode", () => {
  const env = new ToolCallEpisode({ seed: 3, n_tasks: 50 });
  const task = env.tasks[0]!;

  it("builds a deterministic pool of distinct tasks", () => {
    expect(env.tasks).toHaveLength(50);
    expect(new ToolCallEpisode({ seed: 3, n_tasks: 50 }).tasks).toEqual(env.tasks);
    expect(new Set(env.tasks.map((t) => `${t.tools.join(",")}|${t.request}`)).size).toBe(50);
    const p = ToolCallEpisode.prompt(task);
    for (const name of task.tools) expect(p).toContain(`${name}(`);
    expect(p).toContain(`task: ${task.request}`);
  });

  it("grades calls: right tool 1, another valid tool 0.5, errors 0 with their error kinds", () => {
    expect(gradeToolCall(task, ToolCallEpisode.demonstration(task))).toMatchObject({ reward: 1, valid_call: true, right_tool: true, error_kind: null });
    const other = task.tools.find((n) => n !== task.target)!;
    const wrong = gradeToolCall(task, ` ${other} {}`);
    expect(wrong.error_kind).toBe("schema_mismatch"); // {} lacks the other tool's fields
    expect(wrong.error?.bad_fields).toMatch(/missing/);
    expect(gradeToolCall(task, " launch_rocket {}")).toMatchObject({ reward: 0, error_kind: "tool_not_found" });
    expect(gradeToolCall(task, ` ${task.target} {'x': 1}`)).toMatchObject({ reward: 0, error_kind: "json_decode" });
    const extra = gradeToolCall(task, ` ${task.target} ${JSON.stringify({ ...task.args, zzz: 1 })}`);
    expect(extra).toMatchObject({ reward: 0, error_kind: "schema_mismatch" });
    expect(extra.error?.bad_fields).toContain("zzz (unexpected)");
  });

  it("gives wrong-but-valid calls half reward", () => {
    const t = env.tasks.find((x) => x.tools.includes("add") && x.target !== "add")!;
    expect(gradeToolCall(t, ' add {"a":1,"b":2}')).toMatchObject({ reward: 0.5, valid_call: true, right_tool: false, error_kind: "wrong_tool" });
  });

  it("reset/step: one call per episode; step before reset is an error", () => {
    const e = new ToolCallEpisode({ n_tasks: 5 });
    expect(() => e.step("x")).toThrow(/before reset/);
    const { observation, task: t } = e.reset(2);
    expect(observation).toBe(ToolCallEpisode.prompt(t));
    const r = e.step(ToolCallEpisode.demonstration(t));
    expect(r).toMatchObject({ reward: 1, done: true });
    expect(() => e.reset("nope")).toThrow(/no task/);
  });

  it("errors carry the slots the template layer needs, so templates hint every error kind", async () => {
    const gen = defaultLayered();
    const rng = new Rng(1);
    const kinds = new Map<string, string>();
    for (const t of env.tasks) {
      const g = gradeToolCall(t, corruptCall(t, rng));
      if (!g.error) continue;
      const h = await gen.generate(g.error);
      expect(h).not.toBeNull();
      kinds.set(g.error_kind!, h!.layer);
    }
    expect(kinds.get("tool_not_found")).toBe("template");
    expect(kinds.get("json_decode")).toBe("template");
    expect(kinds.get("schema_mismatch")).toBe("template");
    expect(kinds.get("wrong_tool")).toBe("raw_error");
    const g = gradeToolCall(task, " launch_rocket {}");
    expect((await gen.generate(g.error!))!.hint).toContain(`Available tools are: ${task.tools.join(", ")}`);
  });
});

describe("HeldOutGuard", () => {
  it("stops after `patience` consecutive checks over max_gap, and says why", () => {
    const g = new HeldOutGuard({ every: 5, max_gap: 0.2, patience: 2 });
    expect(g.due(5)).toBe(true);
    expect(g.due(6)).toBe(false);
    expect(g.check(5, 0.9, 0.5).stop).toBe(false);
    expect(g.check(10, 0.5, 0.45).strikes).toBe(0); // back under: the count resets
    expect(g.check(15, 0.9, 0.5).stop).toBe(false);
    const c = g.check(20, 0.95, 0.4);
    expect(c.stop).toBe(true);
    expect(c.reason).toMatch(/0\.550 > max_gap 0\.2 for 2 consecutive checks/);
  });
});

describe("Trainer", () => {
  it("runs SFT then RL with SDPO and DPO channels, writing metrics, checkpoints and plots", async () => {
    const dir = tmp();
    const r = await new Trainer(TINY, { run_dir: dir }).train();
    expect(r.steps).toBe(5);
    expect(r.stopped).toBeNull();
    const ms = readMetrics(dir);
    expect(ms.map((m) => m.phase)).toEqual(["sft", "sft", "sft", "rl", "rl"]);
    for (const m of ms) expect(StepMetrics.safeParse(m).success).toBe(true);
    const rl = ms.filter((m) => m.phase === "rl");
    expect(rl.at(-1)!.rollouts).toBe(12);
    for (const m of rl) {
      expect(m.loss_grpo).not.toBeNull();
      expect(Number.isFinite(m.loss_total)).toBe(true);
      expect(m.reward_mean).toBeGreaterThanOrEqual(0);
      // An untrained policy fails nearly every call: each failure with a hint becomes an SDPO row.
      expect(m.sdpo_rows).toBeGreaterThan(0);
      expect(Object.values(m.hint_layers).reduce((a, b) => a + b, 0)).toBe(m.sdpo_rows);
      expect(m.loss_sdpo).not.toBeNull();
      expect(m.shift_kl).toBeGreaterThan(0); // the hint changes the teacher's distribution
      expect(m.heldout).toBeDefined();
    }
    expect(readdirSync(join(dir, "checkpoints")).filter((f) => f.startsWith("ckpt_"))).toHaveLength(2);
    expect(existsSync(join(dir, "base"))).toBe(true); // KL/DPO reference saved once
    expect(readFileSync(join(dir, "training.html"), "utf8")).toContain("Reward");
    expect(JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")).steps).toBe(5);
  }, 240_000);

  it.each([
    { teacher: { teacher_model_kind: "ema" as const, teacher_update_rate: 0.5, teacher_sync_steps: 1 }, distillation_mode: "sampled_token" as const, loss_type: "dapo" as const },
    { teacher: { teacher_model_kind: "base" as const }, distillation_mode: "topk_logits" as const, loss_type: "dr_grpo" as const },
  ])("teacher $teacher.teacher_model_kind, SDPO $distillation_mode, $loss_type", async ({ teacher, distillation_mode, loss_type }) => {
    const dir = tmp();
    await new Trainer({ ...TINY, rl: { ...TINY.rl, loss_type, beta: 0.05 }, sdpo: { distillation_mode, ...teacher, distillation_topk: 5 }, heldout: { every: 0, n_tasks: 2 } }, { run_dir: dir }).train();
    const rl = readMetrics(dir).filter((m) => m.phase === "rl");
    expect(rl).toHaveLength(2);
    for (const m of rl) {
      expect(m.loss_sdpo).not.toBeNull();
      expect(m.kl).not.toBeNull(); // beta > 0: k3 KL to the post-SFT reference
      expect(Number.isFinite(m.loss_total)).toBe(true);
    }
    // A frozen base teacher sees the same weights as the policy at RL step 1: the hint is the only difference.
    expect(rl[0]!.shift_kl).toBeGreaterThan(0);
  }, 240_000);

  it("the held-out guard stops the run and records why", async () => {
    const dir = tmp();
    // A negative threshold makes any gap (even 0) a strike: the first check stops the run.
    const r = await new Trainer({ ...TINY, heldout: { every: 1, n_tasks: 2, max_gap: -1, patience: 1 } }, { run_dir: dir }).train();
    expect(r.stopped).toMatch(/held-out guard/);
    expect(r.steps).toBe(4);
    expect(readFileSync(join(dir, "STOPPED"), "utf8")).toMatch(/max_gap -1/);
  }, 240_000);

  it("a run killed mid-way resumes from its last checkpoint (CLI, SIGKILL)", async () => {
    const dir = tmp();
    const cfg = join(dir, "cfg.json");
    writeFileSync(cfg, JSON.stringify({ ...TINY, sft: { steps: 6, batch_size: 4 }, rl: { ...TINY.rl, steps: 2 } }));
    const run = join(dir, "run");
    const child = spawn(process.execPath, [join(ROOT, "bin", "composer-lab.js"), "train", "--config", cfg, "--run-dir", run, "--json"], { cwd: ROOT, stdio: "ignore" });
    // Kill as soon as the second checkpoint exists.
    await new Promise<void>((res, rej) => {
      const t = setInterval(() => {
        const ck = existsSync(join(run, "checkpoints")) ? readdirSync(join(run, "checkpoints")).filter((f) => f.startsWith("ckpt_")) : [];
        if (ck.length >= 2) {
          clearInterval(t);
          child.kill("SIGKILL");
          res();
        }
      }, 50);
      child.on("exit", () => {
        clearInterval(t);
        rej(new Error("the run finished before it could be killed"));
      });
    });
    await new Promise((r) => child.on("exit", r));
    const r = cli(["train", "--config", cfg, "--run-dir", run, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    // The kill lands after the second checkpoint's rename; the `latest` pointer may or may not have
    // moved yet, so the run resumes from step 1 or later — never from scratch.
    expect(out.resumed_from).toBeGreaterThanOrEqual(1);
    expect(out.steps).toBe(8);
    // One metrics line per step, no duplicates from the killed tail.
    expect(readMetrics(run).map((m) => m.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }, 240_000);
});

describe("trace replay: collate → train", () => {
  it("collate writes SDPO/DPO/SFT rows from traces, and the trainer replays them in their channels", async () => {
    const out = join(tmp(), "rows");
    const r = cli(["collate", join(ROOT, "datasets", "traces"), "--out", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const c = oneJson(r.stdout);
    // The counts follow the bundled traces and the hint layers (other stages): only their relations are fixed here.
    expect(c.ok).toBe(true);
    expect(c.sdpo_rows).toBeGreaterThan(0);
    expect(c.sdpo_rows).toBeLessThanOrEqual(c.sites);
    expect(c.dpo_pairs).toBeGreaterThan(0);
    expect(c.sft_rows).toBeGreaterThan(0);
    const dir = tmp();
    const res = await new Trainer(
      {
        ...TINY,
        sft: { steps: 2, batch_size: 2, data: c.files.sft },
        rl: { ...TINY.rl, steps: 1 },
        sdpo: { data: c.files.sdpo, rows_per_step: 2 },
        dpo: { data: c.files.dpo, pairs_per_step: 2 },
        heldout: { every: 0, n_tasks: 2 },
      },
      { run_dir: dir },
    ).train();
    expect(res.steps).toBe(3);
    const rl = readMetrics(dir).filter((m) => m.phase === "rl")[0]!;
    const replayed = Object.entries(rl.hint_layers).filter(([k]) => k.startsWith("replay:")).reduce((n, [, v]) => n + v, 0);
    expect(replayed).toBe(2);
    expect(rl.loss_sdpo).not.toBeNull();
    expect(rl.loss_dpo).not.toBeNull(); // the replayed pairs alone give the channel a value
  }, 240_000);

  it("rows from another tokenizer are refused, naming the file and row", async () => {
    const dir = tmp();
    const bad = join(dir, "sft.jsonl");
    writeFileSync(bad, JSON.stringify({ id: "x", source: "pairs", session_id: null, file: null, chain: null, window: 0, text: "", ids: [1, 99999], loss_mask: [0, 1] }) + "\n");
    await expect(new Trainer({ ...TINY, sft: { steps: 1, batch_size: 1, data: bad } }, { run_dir: join(dir, "run") }).train()).rejects.toThrow(/sft\.jsonl.*(row 1|:1)/);
  });
});

describe("TrainConfig: one config composed from the loss configs", () => {
  it("each loss option has one default: the train config's sections are the losses' own configs", () => {
    const c = parseTrainConfig({});
    const pg = PolicyGradientConfig.parse({});
    for (const k of ["epsilon", "beta", "loss_type"] as const) expect(c.rl[k], `rl.${k}`).toEqual(pg[k]);
    expect(c.rl.loss_type).toBe("dapo"); // TRL GRPOConfig / SelfDistillationConfig default
    const sd = SdpoConfig.parse({});
    for (const k of Object.keys(sd) as (keyof typeof sd)[]) expect(c.sdpo[k], `sdpo.${k}`).toEqual(sd[k]);
    expect(c.sdpo.distillation_mode).toBe("sampled_token");
    expect(c.sdpo.distillation_kl_clip).toBeNull();
    expect(c.dpo.beta).toBe(DpoConfig.parse({}).beta);
    // one `beta` per meaning: the KL coefficient (rl.beta) and DPO's (dpo.beta, the KL coefficient of the
    // objective DPO solves); the channel weights are named by channel
    expect(Object.keys(c.loss_weights).sort()).toEqual(["dpo", "grpo", "lm_ce", "sdpo", "sdpo_blend"]);
    // the teacher and its reprompting as TRL's SDPOConfig defaults them
    expect(c.sdpo).toMatchObject({
      teacher_model_kind: "ema", teacher_update_rate: 0.05, teacher_sync_steps: 1, use_successful_as_teacher: true, success_reward_threshold: 1,
      dont_reprompt_on_self_success: true, include_environment_feedback: false, environment_feedback_only_without_solution: false,
    });
    expect(c.loss_weights.sdpo_blend).toBe("convex"); // TRL: (1 − w)·policy + w·distillation
    expect(() => parseTrainConfig({ loss_weights: { sdpo: 2 } })).toThrow(/sdpo_blend convex .* needs 0 ≤ w ≤ 1/);
    expect(parseTrainConfig({ loss_weights: { sdpo: 2, sdpo_blend: "additive" } }).loss_weights.sdpo).toBe(2);
  });

  it.each(Object.entries(RENAMED_FIELDS))("an old config with %s fails naming the field and its new name", (old, now) => {
    const [section, key] = old.split(".") as [string, string];
    const file = join(tmp(), "old.yaml");
    writeFileSync(file, `${section}:\n  ${key}: ${key === "teacher" ? "{ kind: live }" : key === "mode" ? "jsd" : key === "token_clip_scope" ? "vocab" : "1"}\n`);
    expect(() => loadTrainConfig(file)).toThrow(`${file}:2: ${old}: renamed: use ${now}`);
  });

  it("SDPO option combinations the references refuse are refused at config load (sampled_token with a clip or alpha ≠ 1)", () => {
    expect(() => parseTrainConfig({ sdpo: { distillation_kl_clip: 0.05 } })).toThrow(/not defined for distillation_mode sampled_token/);
    expect(() => parseTrainConfig({ sdpo: { distillation_alpha: 0.5 } })).toThrow(/needs distillation_alpha 1/);
    expect(parseTrainConfig({ sdpo: { distillation_mode: "full_logits", distillation_alpha: 0.5, distillation_kl_clip: 0.05, distillation_kl_clip_scope: "vocab" } }).sdpo.distillation_kl_clip).toBe(0.05);
  });

  it("the committed configs load", () => {
    for (const f of ["toolcall.yaml", "toolcall-sft.yaml", "fd-micro.yaml", "fd-micro-compare.yaml", "fd-micro-hidden.yaml"]) expect(() => loadTrainConfig(join(ROOT, "datasets", "configs", f))).not.toThrow();
    // The comparison's larger task set, committed beside fd-micro.
    const compare = loadTrainConfig(join(ROOT, "datasets", "configs", "fd-micro-compare.yaml"));
    expect(compare.env).toMatchObject({ kind: "feature_deletion", store: join(ROOT, "datasets", "fd-micro-compare", "store"), pool: join(ROOT, "datasets", "fd-micro-compare", "pool") });
    expect(existsSync(join(ROOT, "datasets", "fd-micro-compare", "pool", "index.jsonl"))).toBe(true);
    const fd = loadTrainConfig(join(ROOT, "datasets", "configs", "fd-micro.yaml"));
    expect(fd.env).toMatchObject({ kind: "feature_deletion", store: join(ROOT, "datasets", "fd-micro", "store"), pool: join(ROOT, "datasets", "fd-micro", "pool") });
    expect(() => parseTrainConfig({ sdpo: { hint_layers: ["template"] } })).toThrow(/renamed: use sdpo.hints/);
  });
});

describe("the teacher's hinted context", () => {
  it("keeps the tool list, the task and the call prefix inside the block; only the hint's end is cut", async () => {
    const env = new ToolCallEnvironment({ env: { n_tasks: 40, seed: 1 } });
    const gen = defaultLayered();
    let shortened = 0;
    for (const task of env.splits().train) {
      const g = gradeToolCall(task, ` ${task.target} {}`); // schema_mismatch: the longest hints
      if (!g.error) continue;
      const hint = (await gen.generate(g.error))!.hint;
      const completion = 30;
      const ids = hintedPromptIds(env, task, hint, completion, 256);
      expect(ids.length + completion).toBeLessThanOrEqual(257);
      const text = Buffer.from(ids.slice(1)).toString("utf8");
      expect(text.startsWith(ToolCallEpisode.prompt(task).replace(/\ncall:$/, ""))).toBe(true);
      expect(text.endsWith("\ncall:")).toBe(true);
      const full = ToolCallEpisode.teacherPrompt(task, hint);
      if (text !== full) {
        shortened++;
        expect(text).toMatch(/\.\.\.\ncall:$/);
      }
    }
    expect(shortened).toBeGreaterThan(0); // the case the fix is for does occur
  });
});

describe("renamed_args task variant", () => {
  const env = new ToolCallEpisode({ seed: 1, n_tasks: 200 });
  const v = taskVariant({ name: "renamed_args" });
  const v2 = env.tasks.filter((t) => v.isRenamed(t));
  const v1 = env.tasks.filter((t) => !v.isRenamed(t));

  it("marks about renamed_fraction of the tasks v2; v1 tasks are the plain env", () => {
    expect(v2.length / env.tasks.length).toBeGreaterThan(0.35);
    expect(v2.length / env.tasks.length).toBeLessThan(0.65);
    for (const t of v1.slice(0, 20)) {
      expect(v.prompt(t)).toBe(ToolCallEpisode.prompt(t));
      expect(v.grade(t, ToolCallEpisode.demonstration(t))).toEqual(gradeToolCall(t, ToolCallEpisode.demonstration(t)));
    }
  });

  it("a v2 prompt lacks the v2 keys; the v1 call fails with a schema error whose hint states them; the v2 call scores 1", async () => {
    const gen = defaultLayered();
    for (const t of v2.slice(0, 30)) {
      const demo = v.demonstration(t);
      expect(v.grade(t, demo)).toMatchObject({ reward: 1, error_kind: null });
      const newKeys = Object.keys(JSON.parse(demo.trim().slice(t.target.length + 1)));
      for (const k of newKeys) expect(v.prompt(t)).not.toMatch(new RegExp(`[(,]${k}:`)); // not among the listed signatures
      expect(v.prompt(t)).toContain("api: v2");
      const g = v.grade(t, ToolCallEpisode.demonstration(t));
      expect(g).toMatchObject({ reward: 0, error_kind: "schema_mismatch" });
      const hint = await gen.generate(g.error!);
      expect(hint?.layer).toBe("template");
      for (const k of newKeys) expect(hint!.hint).toContain(`"${k}"`);
    }
  });

  it("sft_renamed hinted_only: v2 tasks appear in SFT only inside hint-conditioned batches", async () => {
    // SFT rows are windowed sequences (collate's promptCompletion): the prompt is the unmasked part.
    type Rows = { sftRows(env: unknown, tasks: unknown[], rng: Rng, blockSize: number): Promise<{ rows: { ids: number[]; mask: number[] }[] }> };
    const env = new ToolCallEnvironment({ env: { n_tasks: 60, seed: 1 }, variant: { name: "renamed_args", sft_renamed: "hinted_only" } });
    const rowsOf = async (hint_fraction: number) => {
      const tr = new Trainer({ ...TINY, env: { n_tasks: 60, seed: 1 }, sft: { steps: 1, batch_size: 64, hint_fraction }, variant: { name: "renamed_args", sft_renamed: "hinted_only" } }, { run_dir: tmp(), env });
      await (tr as unknown as { loadHints(): void }).loadHints();
      return (await (tr as unknown as Rows).sftRows(env, env.splits().train, new Rng(2), 256)).rows;
    };
    const text = (rows: { ids: number[]; mask: number[] }[]) => rows.map((r) => Buffer.from(r.ids.slice(1, r.mask.indexOf(1))).toString("utf8"));
    const hinted = text(await rowsOf(1));
    expect(hinted.every((p) => p.includes("\nhint: "))).toBe(true);
    expect(hinted.some((p) => p.includes("api: v2"))).toBe(true);
    const plain = text(await rowsOf(0));
    expect(plain.some((p) => p.includes("api: v2") || p.includes("\nhint: "))).toBe(false);
  });

  it("unhinted SFT draws v1 tasks only unless sft_renamed is always", () => {
    const env = new ToolCallEnvironment({ env: { n_tasks: 40, seed: 1 }, variant: { name: "renamed_args" } });
    const train = env.splits().train;
    const sft = train.filter((t) => env.demonstration(t) !== null);
    expect(sft.length).toBeGreaterThan(0);
    expect(sft.every((t) => env.tag(t) === null)).toBe(true);
    expect(train.some((t) => env.tag(t) === "renamed")).toBe(true);
    const all = new ToolCallEnvironment({ env: { n_tasks: 40, seed: 1 }, variant: { name: "renamed_args", sft_renamed: "always" } });
    expect(all.splits().train.filter((t) => all.demonstration(t) !== null)).toEqual(all.splits().train);
  });
});

describe("Trainer on micro feature-deletion tasks (real bwrap grades)", () => {
  it("SFT from the store's sft_corpus (hint-conditioned after the env's mistakes), then GRPO + SDPO on curriculum-drawn tasks, the guard on the store's holdout", async () => {
    const micro = join(ROOT, "datasets", "fd-micro");
    const dir = tmp();
    const res = await new Trainer({
      env: { kind: "feature_deletion", store: join(micro, "store"), run_id: "micro-s0", pool: join(micro, "pool"), sandbox: "bwrap" },
      model: { block_size: 192, n_layer: 1, n_head: 2, n_embd: 16 },
      sft: { steps: 2, batch_size: 4, hint_fraction: 1 },
      rl: { steps: 2, prompts_per_step: 2, num_generations: 2, max_completion_length: 12 },
      loss_weights: { grpo: 1, sdpo: 1, dpo: 0 },
      curriculum: { enabled: true },
      heldout: { every: 2, n_tasks: 2, max_gap: 1 },
      checkpoint: { every: 2, keep: 1 },
    }, { run_dir: dir }).train();
    const m = readMetrics(dir);
    expect(m.map((x) => x.phase)).toEqual(["sft", "sft", "rl", "rl"]);
    // hint_fraction 1: every demonstration follows one of the env's mistake() bodies, hinted from that
    // mistake's real grade (a mistake that happens to pass its tests — 1 in 194 here — gets no hint).
    const hinted = m.filter((y) => y.phase === "sft").map((x) => Object.values(x.hint_layers).reduce((a, b) => a + b, 0));
    expect(hinted.every((n) => n >= 3 && n <= 4)).toBe(true);
    const rl = m.filter((x) => x.phase === "rl");
    expect(rl.every((x) => x.grade_s! > 0 && x.curriculum !== undefined && x.reward_mean !== null)).toBe(true);
    // A random policy fails its tasks; each failure's real grade gives a hint (template or raw error).
    expect(rl.reduce((n, x) => n + x.sdpo_rows, 0)).toBeGreaterThan(0);
    expect(rl.at(-1)!.heldout).toBeDefined();
    expect(res.final.heldout_pass).toBeGreaterThanOrEqual(0);
    expect(existsSync(join(dir, "training.html"))).toBe(true);
  }, 600_000);
});

describe("training plots", () => {
  it("integer steps, held-out reward on the reward plot, coinciding lines told apart, gaps kept as gaps", () => {
    const m = (step: number, extra: Partial<StepMetrics> = {}): StepMetrics => ({
      step, phase: "rl", rollouts: step * 4, reward_mean: 1, reward_std: 0, valid_rate: 1, loss_total: 0.1, loss_lm_ce: null, loss_grpo: 0.1, loss_sdpo: 0.2,
      loss_dpo: null, sdpo_rows: 1, hint_layers: {}, shift_kl: 0.3, clipped_fraction: null, clip_ratio: 0, kl: null, entropy: 1, grad_norm: 1, tokens_per_s: 1, elapsed_s: step, ...extra,
    });
    const figs = trainingFigures([m(1), m(2, { loss_sdpo: null, shift_kl: null }), m(3, { heldout: { proxy: 0.5, heldout: 0.25, gap: 0.25 } })]);
    const reward = figs[1]!;
    const names = reward.data.map((d) => d.name);
    expect(names).toContain("held-out (greedy)");
    expect(reward.data.find((d) => d.name === "held-out (greedy)")!.y).toEqual([0.25]);
    // reward and valid rate are both 1 here: they differ in dash and marker
    const dashes = reward.data.map((d) => (d.line as { dash: string }).dash);
    expect(new Set(dashes).size).toBe(dashes.length);
    const sdpo = figs[2]!.data.find((d) => d.name === "sdpo")!;
    expect(sdpo.x).toEqual([1, 2, 3]);
    expect(sdpo.y).toEqual([0.2, null, 0.2]);
    expect(sdpo.connectgaps).toBe(false);
    expect((reward.layout.xaxis as { dtick?: number }).dtick).toBeGreaterThanOrEqual(1);
  });
});

describe("comparison statistics", () => {
  it("sampleStd is the ddof-1 estimator; null below two values", () => {
    expect(sampleStd([1, 2, 3, 4])).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(sampleStd([2])).toBeNull();
  });

  it("bootstrapMeanCI: a constant difference gives a zero-width interval at it; the interval brackets the mean and shrinks with n", () => {
    const flat = bootstrapMeanCI([0.1, 0.1, 0.1])!;
    expect(flat.n).toBe(3);
    for (const x of [flat.mean_diff, flat.lo, flat.hi]) expect(x).toBeCloseTo(0.1, 12);
    const few = bootstrapMeanCI([-0.2, 0.1, 0.3, 0.05, -0.1])!;
    expect(few.lo).toBeLessThan(few.mean_diff);
    expect(few.hi).toBeGreaterThan(few.mean_diff);
    const many = bootstrapMeanCI(Array.from({ length: 80 }, (_, i) => [-0.2, 0.1, 0.3, 0.05, -0.1][i % 5]!))!;
    expect(many.hi - many.lo).toBeLessThan(few.hi - few.lo);
    expect(bootstrapMeanCI([])).toBeNull();
  });

  it("summarizeComparison: stopped runs are listed apart, never averaged; differences are paired by seed over completed runs", () => {
    const dir = tmp();
    const rec = (variant: string, seed: number, heldout: number, stopped: string | null = null): RunRecord => ({
      variant, seed, overrides: {}, heldout, rollouts: stopped ? 320 : 640, stopped, curve: [],
      result: { run_dir: "", backend: "cpu", steps: 20, resumed_from: null, stopped, final: { train_reward: 0, heldout_reward: heldout, rl_reward_last: null }, guard: [], parameters: 1, wall_s: 1 },
    });
    const runs = [rec("grpo", 1, 0.5), rec("grpo", 2, 0.6), rec("grpo", 3, 0.9, "held-out guard: …"), rec("grpo+sdpo", 1, 0.6), rec("grpo+sdpo", 2, 0.8), rec("grpo+sdpo", 3, 0.1)];
    for (const r of runs) {
      mkdirSync(join(dir, "runs", r.variant), { recursive: true });
      writeFileSync(join(dir, "runs", r.variant, `seed-${r.seed}.json`), JSON.stringify(r));
    }
    const s = summarizeComparison(dir, {}, ["grpo", "grpo+sdpo"]);
    const grpo = s.summary.find((x) => x.variant === "grpo")!;
    const sdpo = s.summary.find((x) => x.variant === "grpo+sdpo")!;
    expect(grpo).toMatchObject({ seeds: 3, completed: 2, stopped: 1, heldout_mean: 0.55, rollouts: 640 });
    expect(grpo.heldout_std).toBeCloseTo(sampleStd([0.5, 0.6])!, 12);
    expect(grpo.stopped_runs).toEqual([{ seed: 3, rollouts: 320, heldout: 0.9, reason: "held-out guard: …" }]);
    expect(sdpo).toMatchObject({ completed: 3, stopped: 0 });
    expect(sdpo.heldout_mean).toBeCloseTo(0.5, 12);
    // seed 3 is out of the pairing (grpo stopped there): differences 0.1 and 0.2
    expect(sdpo.vs_baseline!.n).toBe(2);
    expect(sdpo.vs_baseline!.mean_diff).toBeCloseTo(0.15, 12);
    expect(JSON.parse(readFileSync(join(dir, "comparison.json"), "utf8")).summary).toHaveLength(2);
  });
});

describe("CLI", () => {
  it("train --config names the file and field of a bad config", () => {
    const dir = tmp();
    const cfg = join(dir, "bad.yaml");
    writeFileSync(cfg, "rl:\n  num_generations: 1\n");
    const r = cli(["train", "--config", cfg, "--json"]);
    expect(r.code).toBe(1);
    const out = oneJson(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.error).toContain(`${cfg}:2: rl.num_generations: Number must be greater than or equal to 2`);
  });

  it("rejects an unknown --backend", () => {
    const r = cli(["train", "--backend", "cuda", "--json"]);
    expect(r.code).not.toBe(0);
    expect(oneJson(r.stdout).error).toMatch(/unknown TensorFlow.js backend "cuda"/);
  });
});
