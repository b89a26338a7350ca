/**
 * SFT alone vs SFT → GRPO vs SFT → GRPO + SDPO on the micro feature-deletion tasks
 * (datasets/configs/fd-micro.yaml), over seeds, at equal rollouts. Per seed: SFT on the store's
 * sft_corpus once (a share of it hint-conditioned after the env's mistake()), then each arm continues
 * from that checkpoint (compareVariants). Every run shares one environment, so one grade cache (kept in
 * RUN_DIR/grade-cache.jsonl as well).
 * Held-out = the store's holdout tasks, greedy, graded in bwrap.
 *
 * Writes datasets/train/fd-micro-compare/results.json: per seed and arm the held-out pass rate and
 * reward and each held-out task's greedy pass (the final checkpoint re-evaluated; it must equal the
 * run's own summary), mean ± sample std per arm, paired differences (per seed, with a percentile
 * bootstrap CI over seeds; per (seed, task), with a sign test on the discordant pairs), the SDPO arm's
 * KL(teacher ‖ student) at hinted tokens, rollouts per arm, wall times and the grade cache's hit rate.
 * Rerun with the same RUN_DIR to continue.
 *
 * With --arms issue27 (issue 27 §5): GRPO, the null arm (GRPO, another RL sampling seed) and three GRPO + SDPO arms;
 * results.json then also pairs each arm with GRPO on the RL tasks' pass rate (sft.task_fraction < 1).
 *
 *   npx tsx scripts/run-fd-micro-compare.ts [RUN_DIR] [--seeds 1,2,3] [--config FILE] [--arms default|issue27] [--rl-steps N] [--sdpo-weight W] [--out DIR] [--summarize | --sft-only]
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, relative } from "node:path";
import { datasetsDir, mean, projectRoot, scratchDir } from "../lib/core/index.js";
import { FeatureDeletionEnvironment, openEnvironment } from "../lib/env/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { Trainer, bootstrapMeanCI, compareVariants, summarizeComparison, loadLatestCheckpoint, loadTrainConfig, readMetrics, sampleStd, type TrainConfigInput, type TrainResult } from "../lib/train/index.js";

const args = process.argv.slice(2);
const opt = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const seeds = (opt("--seeds") ?? "1,2,3").split(",").map(Number);
const configFile = opt("--config") ?? datasetsDir("configs", "fd-micro.yaml");
const runDir = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")) ?? scratchDir("runs", "fd-micro-compare");
const outDir = opt("--out") ?? datasetsDir("train", "fd-micro-compare");
mkdirSync(outDir, { recursive: true });
mkdirSync(runDir, { recursive: true });
const loaded = loadTrainConfig(configFile);
// --rl-steps N: the config's recipe with N RL steps per arm (e.g. a longer run from the same SFT checkpoints, copied into a new RUN_DIR).
const base = opt("--rl-steps") ? { ...loaded, rl: { ...loaded.rl, steps: Number(opt("--rl-steps")) } } : loaded;
// --sdpo-weight W: loss_weights.sdpo of the grpo+sdpo arm (default 1). To sweep it from the same SFT
// checkpoints, copy a finished RUN_DIR without its grpo+sdpo runs: only those run again.
if (args.includes("--alpha")) throw new Error("--alpha: renamed --sdpo-weight (loss_weights.sdpo); \"alpha\" elsewhere is sdpo.distillation_alpha");
const sdpoWeight = opt("--sdpo-weight") === undefined ? 1 : Number(opt("--sdpo-weight"));
if (!(sdpoWeight > 0)) throw new Error(`--sdpo-weight ${opt("--sdpo-weight")}: a positive number`);
// --arms issue27: the arms of issue 27 §5 from the same SFT checkpoints (equal rollouts): GRPO; GRPO with another
// RL sampling seed (the null arm: what two runs of one recipe differ by); GRPO + SDPO (convex blend, loss_weights.sdpo
// --sdpo-weight, default 0.5 here) with (a) the references' defaults: EMA teacher, a successful sibling as the teacher's
// context, no lab hint layers; (b) the environment's feedback too; (c) (b) with full_logits forward KL (α = 0).
const preset = opt("--arms") ?? "default";
if (!["default", "issue27"].includes(preset)) throw new Error(`--arms ${preset}: default | issue27`);
const w27 = opt("--sdpo-weight") === undefined ? 0.5 : sdpoWeight;
const sdpo27 = { teacher_model_kind: "ema", use_successful_as_teacher: true, hints: null };
const arms: Record<string, Partial<TrainConfigInput>> = preset === "issue27"
  ? {
    grpo: { loss_weights: { grpo: 1, sdpo: 0, dpo: 0 } },
    "grpo-null": { loss_weights: { grpo: 1, sdpo: 0, dpo: 0 }, rl: { ...base.rl, sampling_seed_offset: 1000 } },
    "sdpo-ref": { loss_weights: { grpo: 1, sdpo: w27, dpo: 0, sdpo_blend: "convex" }, sdpo: { ...base.sdpo, ...sdpo27, include_environment_feedback: false } },
    "sdpo-feedback": { loss_weights: { grpo: 1, sdpo: w27, dpo: 0, sdpo_blend: "convex" }, sdpo: { ...base.sdpo, ...sdpo27, include_environment_feedback: true } },
    "sdpo-fkl": { loss_weights: { grpo: 1, sdpo: w27, dpo: 0, sdpo_blend: "convex" }, sdpo: { ...base.sdpo, ...sdpo27, include_environment_feedback: true, distillation_mode: "full_logits", distillation_alpha: 0 } },
  } as Record<string, Partial<TrainConfigInput>>
  : { grpo: { loss_weights: { grpo: 1, sdpo: 0, dpo: 0 } }, "grpo+sdpo": { loss_weights: { grpo: 1, sdpo: sdpoWeight, dpo: 0 } } };
const ARMS = ["sft", ...Object.keys(arms)];
const TREATMENTS = Object.keys(arms).filter((a) => a !== "grpo");
const started = Date.now();
// The machine is shared: the 1-minute load average, sampled every 30 s over this process's life, goes into results.json.
const loads: number[] = [loadavg()[0]!];
const loadTimer = setInterval(() => loads.push(loadavg()[0]!), 30_000);
loadTimer.unref();
const log = (l: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${l}\n`);

// Feature deletion: the grade cache also lives in RUN_DIR/grade-cache.jsonl, so a rerun that resumes does not grade again.
const spec = base.env;
const env = spec.kind === "feature_deletion"
  ? await FeatureDeletionEnvironment.open({ sandbox: await getSandbox(spec.sandbox), store: spec.store, run_id: spec.run_id, pool: spec.pool, completion: spec.completion, timeoutMs: spec.timeout_ms, gradeCacheFile: join(runDir, "grade-cache.jsonl") })
  : await openEnvironment(spec, { seed: base.seed });
const fd = env instanceof FeatureDeletionEnvironment ? env : null;
const heldout = env.splits().holdout.slice(0, base.heldout.n_tasks);
const armDir = (seed: number, arm: string) => join(runDir, `seed-${seed}`, arm.replace(/[^\w+.=-]/g, "_"));
const read = (f: string): TrainResult | null => (existsSync(f) ? (JSON.parse(readFileSync(f, "utf8")) as TrainResult) : null);

/** Each held-out task's greedy pass (0/1) under a run's final checkpoint, cached in per_task.json. */
const perTask = new Map<string, number[]>();
async function heldoutPasses(seed: number, arm: string): Promise<number[] | null> {
  const dir = armDir(seed, arm);
  const key = `${seed}/${arm}`;
  if (perTask.has(key)) return perTask.get(key)!;
  const summary = read(join(dir, "summary.json"));
  if (!summary) return null;
  const file = join(dir, "per_task.json");
  let passes: number[];
  if (existsSync(file)) passes = JSON.parse(readFileSync(file, "utf8")) as number[];
  else {
    const ck = await loadLatestCheckpoint(join(dir, "checkpoints"));
    if (!ck) return null;
    const rewards = await new Trainer(base, { run_dir: dir, env }).evaluate(env, ck.policy, heldout);
    ck.policy.dispose();
    passes = rewards.map((r) => (r >= 1 ? 1 : 0));
    // Greedy decoding and the same grader: this must reproduce the run's own held-out pass rate.
    if (Math.abs(mean(passes) - (summary.final.heldout_pass ?? -1)) > 1e-9) throw new Error(`${dir}: re-evaluated held-out pass ${mean(passes)} ≠ the run's ${summary.final.heldout_pass}`);
    writeFileSync(file, JSON.stringify(passes));
  }
  perTask.set(key, passes);
  return passes;
}

/** Exact two-sided sign test on discordant pairs (b wins of one arm, c of the other). */
function signTest(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let p = 0;
  for (let i = 0; i <= k; i++) {
    let lc = 0;
    for (let j = 1; j <= i; j++) lc += Math.log(n - i + j) - Math.log(j);
    p += Math.exp(lc - n * Math.log(2));
  }
  return Math.min(1, 2 * p);
}

const stat = (xs: number[]) => ({ n: xs.length, mean: xs.length ? mean(xs) : null, sample_std: sampleStd(xs), values: xs });

async function publish(): Promise<void> {
  const perSeed: Record<string, unknown>[] = [];
  const passes: Record<string, Map<number, number[]>> = Object.fromEntries(ARMS.map((a) => [a, new Map()]));
  for (const seed of seeds) {
    const row: Record<string, unknown> = { seed };
    for (const arm of ARMS) {
      const r = read(join(armDir(seed, arm), "summary.json"));
      if (!r) continue;
      const p = await heldoutPasses(seed, arm);
      if (p) passes[arm]!.set(seed, p);
      const rl = existsSync(join(armDir(seed, arm), "metrics.jsonl")) ? readMetrics(armDir(seed, arm)).filter((m) => m.phase === "rl") : [];
      const kls = rl.map((m) => m.shift_kl).filter((x): x is number => x !== null);
      Object.assign(row, {
        [`${arm}_heldout_pass`]: r.final.heldout_pass ?? null, [`${arm}_heldout_reward`]: r.final.heldout_reward, [`${arm}_train_reward`]: r.final.train_reward,
        ...(r.final.rl_tasks_pass !== undefined ? { [`${arm}_rl_tasks_pass`]: r.final.rl_tasks_pass, [`${arm}_rl_tasks_n`]: r.final.rl_tasks_n } : {}),
        ...(r.gap_check ? { [`${arm}_gap_check`]: r.gap_check } : {}),
        ...(rl.length && rl.some((m) => m.sdpo_rows > 0) ? {
          [`${arm}_sdpo_rows`]: rl.reduce((n, m) => n + m.sdpo_rows, 0),
          [`${arm}_sdpo_sources`]: rl.reduce<Record<string, number>>((acc, m) => { for (const [k, v] of Object.entries(m.hint_layers)) acc[k] = (acc[k] ?? 0) + v; return acc; }, {}),
          [`${arm}_reprompt_sample_fraction`]: mean(rl.map((m) => m.reprompt_sample_fraction ?? 0)),
          [`${arm}_teacher_student_gap_first`]: rl.find((m) => m.teacher_student_gap != null)?.teacher_student_gap ?? null,
        } : {}),
        [`${arm}_stopped`]: r.stopped, [`${arm}_rollouts`]: rl.at(-1)?.rollouts ?? 0, [`${arm}_wall_s`]: r.wall_s,
        ...(kls.length ? { [`${arm}_shift_kl_first`]: kls[0], [`${arm}_shift_kl_mean`]: mean(kls) } : {}),
        ...(rl.length ? { [`${arm}_rl_reward_first`]: rl[0]!.reward_mean, [`${arm}_rl_reward_last4`]: mean(rl.slice(-4).map((m) => m.reward_mean ?? 0)) } : {}),
      });
    }
    perSeed.push(row);
  }
  const values = (key: string) => perSeed.map((r) => r[key]).filter((x): x is number => typeof x === "number");
  const summary = Object.fromEntries(ARMS.flatMap((a) => [[`${a}_heldout_pass`, stat(values(`${a}_heldout_pass`))], [`${a}_heldout_reward`, stat(values(`${a}_heldout_reward`))], [`${a}_rl_tasks_pass`, stat(values(`${a}_rl_tasks_pass`))]]));
  // Per seed, arm − grpo on a per-seed metric, with the bootstrap CI over seeds; the null arm's row is the spread
  // two runs of one recipe (GRPO, other rollouts) show, to read the others beside.
  const pairedOn = (key: string) => Object.fromEntries(TREATMENTS.map((t) => {
    const both = perSeed.filter((r) => typeof r[`${t}_${key}`] === "number" && typeof r[`grpo_${key}`] === "number");
    const diffs = both.map((r) => (r[`${t}_${key}`] as number) - (r[`grpo_${key}`] as number));
    return [`${t}-grpo`, { seeds: both.map((r) => r.seed), per_seed: diffs, mean: diffs.length ? mean(diffs) : null, sample_std: sampleStd(diffs), bootstrap_over_seeds: bootstrapMeanCI(diffs) }];
  }));
  const paired = (treat: string, baseArm: string) => {
    const both = seeds.filter((s) => passes[treat]!.has(s) && passes[baseArm]!.has(s));
    const diffs = both.map((s) => mean(passes[treat]!.get(s)!) - mean(passes[baseArm]!.get(s)!));
    let b = 0;
    let c = 0;
    for (const s of both) passes[treat]!.get(s)!.forEach((x, i) => { const y = passes[baseArm]!.get(s)![i]!; if (x > y) b++; else if (y > x) c++; });
    return {
      seeds: both, per_seed: diffs, mean: diffs.length ? mean(diffs) : null, sample_std: sampleStd(diffs), bootstrap_over_seeds: bootstrapMeanCI(diffs),
      tasks: { pairs: both.length * heldout.length, [`${treat}_only`]: b, [`${baseArm}_only`]: c, sign_test_p: signTest(b, c) },
    };
  };
  const rollouts = base.rl.steps * base.rl.prompts_per_step * base.rl.num_generations;
  writeFileSync(join(outDir, "results.json"), JSON.stringify({
    config: relative(projectRoot(), configFile), seeds, arms: ARMS, arm_preset: preset, sdpo_weight: preset === "issue27" ? w27 : sdpoWeight, rollouts_per_arm: rollouts, heldout_tasks: heldout.length,
    rl: { steps: base.rl.steps, prompts_per_step: base.rl.prompts_per_step, num_generations: base.rl.num_generations }, sft: { steps: base.sft.steps, hint_fraction: base.sft.hint_fraction },
    summary,
    paired: Object.fromEntries([["grpo-sft", paired("grpo", "sft")], ...TREATMENTS.flatMap((t) => [[`${t}-grpo`, paired(t, "grpo")], [`${t}-sft`, paired(t, "sft")]])]),
    paired_rl_tasks_pass: pairedOn("rl_tasks_pass"),
    arm_overrides: arms,
    shift_kl: Object.fromEntries(TREATMENTS.map((t) => [t, { first_step: stat(values(`${t}_shift_kl_first`)), run_mean: stat(values(`${t}_shift_kl_mean`)) }])),
    // This process's grades and wall time; --summarize only reads finished runs (their own wall times are per seed and arm).
    grade_cache: fd && fd.gradeCache.hits + fd.gradeCache.misses > 0 ? { ...fd.gradeCache, hit_rate: fd.gradeCache.hits / (fd.gradeCache.hits + fd.gradeCache.misses) } : null,
    wall_s: args.includes("--summarize") ? null : (Date.now() - started) / 1000,
    load_average_1m: { samples: loads.length, mean: mean(loads), min: Math.min(...loads), max: Math.max(...loads), cores: availableParallelism() },
    per_seed: perSeed,
    per_task: Object.fromEntries(ARMS.map((a) => [a, Object.fromEntries(passes[a]!)])),
    heldout_task_ids: heldout.map((t) => t.task_id),
  }, null, 1));
  // The RL arms' curves and paired summary (lib/train's comparison.json), from whatever runs exist so far.
  if (existsSync(join(runDir, "runs"))) {
    summarizeComparison(runDir, preset === "issue27" && base.sft.task_fraction < 1 ? { metric: "rl_tasks_greedy_pass", baseline: "grpo", treatment: "sdpo-ref" } : {}, Object.keys(arms));
    copyFileSync(join(runDir, "comparison.json"), join(outDir, "comparison.json"));
  }
}

let publishing = Promise.resolve();
// --sft-only: only each seed's SFT stage, as compareVariants runs it (into the same folder, so a later
// full run starts its arms from these checkpoints): to measure SFT's held-out competence first.
if (args.includes("--sft-only")) {
  for (const seed of seeds) {
    const dir = armDir(seed, "sft");
    if (existsSync(join(dir, "summary.json"))) continue;
    log(`seed ${seed}: SFT (${base.sft.steps} steps)`);
    await new Trainer({ ...base, seed, rl: { ...base.rl, steps: 0 } }, { run_dir: dir, log, env }).train();
    await publish();
  }
} else if (!args.includes("--summarize")) await compareVariants(base, {
  run_dir: runDir, seeds, variants: arms, env, by_seed: preset === "issue27",
  ...(preset === "issue27" && base.sft.task_fraction < 1 ? { primary: { metric: "rl_tasks_greedy_pass", baseline: "grpo", treatment: "sdpo-ref", declared: "issue 27 §5, before the runs: greedy unhinted pass on the RL tasks SFT never showed, each arm − grpo paired by seed, beside the null arm" } } : {}),
  log: (l) => {
    log(`${l}${fd ? ` [grade cache ${fd.gradeCache.hits}/${fd.gradeCache.hits + fd.gradeCache.misses} hits]` : ""}`);
    if (/^seed \d+: /.test(l)) publishing = publishing.then(publish);
  },
});
await publishing;
await publish();
log(`results: ${join(outDir, "results.json")}`);
await (env as { close?: () => unknown }).close?.();
