/**
 * The trainer: a config object plus one loop that reads top to bottom, on any lib/env Environment.
 *
 *   SFT-first (lm_ce on the env's demonstrations — a store's sft_corpus for feature deletion —, some
 *   of them hint-conditioned)  →  RL:
 *   for each step: draw tasks (uniformly, or by the PassRateCurriculum) → G rollouts each → grade
 *     (in parallel) → group advantages → rollout.ts turns the graded groups into SDPO rows (teacher =
 *     the same prompt with the hint spliced in) and DPO pairs (lib/collate's rules) →
 *     total = grpo + α·sdpo + β·dpo → one Adam step
 *   every N steps: HeldOutGuard (proxy vs held-out), checkpoint (atomic, resumable).
 *
 * Metrics go to <run>/metrics.jsonl one line per step; plots and summary.json at the end.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { initBackend, tf, type BackendInfo } from "../backend/index.js";
import { DpoPair, SdpoRow, SftRow, readRows, type Seq } from "../collate/index.js";
import { Rng, mean, std } from "../core/index.js";
import { PassRateCurriculum, type CurriculumEvent } from "../curriculum/index.js";
import { gradeAll, hackRateOf, openEnvironment, renderMessages, type EnvGrade, type EnvTask, type Environment } from "../env/index.js";
import type { LayeredHintGenerator } from "../hints/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { toHTML } from "../viz/index.js";
import { buildHints } from "./adapters.js";
import { loadCheckpoint, loadLatestCheckpoint, restoreOptimizer, saveCheckpoint, type LoadedCheckpoint } from "./checkpoint.js";
import { StepMetrics, parseTrainConfig, readMetrics, type TrainConfig, type TrainConfigInput, type TrainResult } from "./config.js";
import { HeldOutGuard, type GuardCheck } from "./guard.js";
import { SdpoConfig, composeLoss, dpoLoss, entropy, groupAdvantages, policyGradientLoss, sdpoLoss, sftLoss, stopGradient, temperatureScaled, tokenLogprobs } from "./losses.js";
import { gapCheck, type GapCheck } from "./gap.js";
import { Policy } from "./model.js";
import { gapCheckFigures, trainingFigures } from "./plots.js";
import { completionIds, dpoSeqs, feedbackOf, groupPairs, hintedPromptIds, repromptMetrics, sampleGroups, sdpoSeqs, sdpoSites, solutionHint, toSeq, type RepromptCounts, type RepromptOptions, type SdpoSite } from "./rollout.js";
import { sample } from "./sample.js";
import { encode } from "./tokenizer.js";
import { WorldModelStepper, saveWorldModel } from "./world_model.js";
import { completionLogits, disposePacked, packRows, type Packed } from "./pack.js";

/** One step's metrics, and the tokens it processed (the loop turns them into tokens/s). */
interface StepResult {
  metrics: StepMetrics;
  tokens: number;
}


/** to ← (1 − rate)·to + rate·from, weight by weight (rate 1: a copy). The EMA teacher's update (teacher_update_rate). */
export function copyWeights(from: Policy, to: Policy, rate = 1): void {
  const src = from.variables();
  to.variables().forEach((v, i) => v.assign(tf.tidy(() => (rate === 1 ? src[i]!.clone() : v.mul(1 - rate).add(src[i]!.mul(rate))))));
}

function clonePolicy(p: Policy): Policy {
  const q = new Policy(p.config);
  copyWeights(p, q);
  return q;
}

/** FNV-1a of a string → [0, 1): a per-task draw that does not depend on any RNG stream. */
function unitHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  // murmur3's finaliser: FNV alone leaves short ids that differ in their last byte close together.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/**
 * The training tasks SFT draws from and those RL draws from: all of them for both, or — with
 * sft.task_fraction < 1 — a share by a hash of the task id for SFT and the rest for RL (tasks SFT
 * never showed, so what RL teaches on them is measurable).
 */
export function sftRlTasks<T extends EnvTask>(train: T[], taskFraction: number): { sft: T[]; rl: T[] } {
  if (taskFraction >= 1) return { sft: train, rl: train };
  const inSft = (t: T) => unitHash(`sft:${t.task_id}`) < taskFraction;
  return { sft: train.filter(inSft), rl: train.filter((t) => !inSft(t)) };
}

/** The reprompting fields of the SDPO channel (rollout.ts teacherHint). */
const repromptOptions = (c: TrainConfig): RepromptOptions => ({
  use_successful_as_teacher: c.sdpo.use_successful_as_teacher, success_reward_threshold: c.sdpo.success_reward_threshold,
  dont_reprompt_on_self_success: c.sdpo.dont_reprompt_on_self_success, include_environment_feedback: c.sdpo.include_environment_feedback,
  environment_feedback_only_without_solution: c.sdpo.environment_feedback_only_without_solution,
  max_reprompt_len: c.sdpo.max_reprompt_len,
});

/** Global-norm gradient clipping (returns the pre-clip norm). */
function clipGrads(grads: tf.NamedTensorMap, maxNorm: number | null): number {
  const norm = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))).dataSync()[0]!);
  if (maxNorm !== null && norm > maxNorm) {
    for (const k of Object.keys(grads)) {
      const g = grads[k]!;
      grads[k] = g.mul(maxNorm / (norm + 1e-6));
      g.dispose();
    }
  }
  return norm;
}

export interface TrainerOptions {
  run_dir: string;
  /** Called after each step (live plots in notebooks). */
  onStep?: (m: StepMetrics) => void;
  /** Called with each warning the run raises (the gap check's: the teacher is not better than the student). */
  onWarning?: (message: string) => void;
  log?: (line: string) => void;
  /** An environment already opened (default: openEnvironment(config.env)). */
  env?: Environment<EnvTask>;
  /** Where the opened environment grades, in place of its spec's sandbox: an executor's Sandbox
   *  face (`train --executor`), and the executor's name, which config.json and summary.json record. */
  grading?: { executor: string; sandbox: Sandbox };
}

export class Trainer {
  readonly config: TrainConfig;
  private envPromise: Promise<Environment<EnvTask>> | null = null;
  private hints: LayeredHintGenerator | null = null;
  private curriculum: PassRateCurriculum | null = null;
  private sftData: Seq[] | null = null;
  private sdpoData: SdpoRow[] | null = null;
  private dpoData: DpoPair[] | null = null;

  constructor(config: TrainConfigInput, readonly opts: TrainerOptions) {
    this.config = parseTrainConfig(config);
  }

  /** The environment (opened once; its task pool follows env.seed, default the run seed, so runs
   *  with different seeds can share one environment and one SFT start). Its grades are cached in
   *  the run folder (grade-cache.jsonl): a resumed run does not grade again. */
  environment(): Promise<Environment<EnvTask>> {
    if (!this.opts.env) mkdirSync(this.opts.run_dir, { recursive: true });
    this.envPromise ??= this.opts.env
      ? Promise.resolve(this.opts.env)
      : openEnvironment(this.config.env, {
        seed: this.config.seed, variant: this.config.variant, heldout_fraction: this.config.heldout_fraction,
        sandbox: this.opts.grading?.sandbox, grade_cache_file: join(this.opts.run_dir, "grade-cache.jsonl"),
      });
    return this.envPromise;
  }

  /** The executor that grades (`local` unless options.grading names one). */
  get executor(): string {
    return this.opts.grading?.executor ?? "local";
  }

  /** The hint layers of sdpo.hints (an introspection layer critiques with `policy`, the one being trained). */
  private loadHints(policy?: Policy): void {
    this.hints = this.config.sdpo.hints ? buildHints(this.config.sdpo.hints, policy) : null;
  }

  private get gradeConcurrency(): number {
    return this.config.grade_concurrency ?? availableParallelism();
  }

  async train(): Promise<TrainResult> {
    const c = this.config;
    const started = Date.now();
    const env = await this.environment();
    const { train: trainTasks, holdout: heldoutTasks } = env.splits();
    if (trainTasks.length === 0) throw new Error(`${env.name}: no training tasks (raise env.n_tasks, lower heldout_fraction, or fill the store's rl_task_pool)`);
    const { sft: sftTasks, rl: rlTasks } = sftRlTasks(trainTasks, c.sft.task_fraction);
    if (!sftTasks.length || !rlTasks.length) throw new Error(`sft.task_fraction ${c.sft.task_fraction}: ${sftTasks.length} SFT and ${rlTasks.length} RL tasks of ${trainTasks.length}`);
    if (c.sft.until && !heldoutTasks.length) throw new Error(`sft.until: ${env.name} has no held-out tasks to check SFT on`);
    const log = this.opts.log ?? (() => {});
    const backend: BackendInfo = await initBackend(c.backend);
    log(`backend: ${backend.name} (${backend.provider})`);
    const dir = this.opts.run_dir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ ...c, backend_used: backend.name, executor: this.executor }, null, 2));
    const metricsPath = join(dir, "metrics.jsonl");
    const ckptDir = join(dir, "checkpoints");
    // SFT ends at sft.steps, or earlier where sft.until's criterion is met (then the checkpoint records it).
    let sftEnd = c.sft.steps;
    let sftEndReason: "converged" | "cap" | "steps" = c.sft.until ? "cap" : "steps";
    let sftChecks = 0;
    let sftMet = 0;
    const totalSteps = () => sftEnd + c.rl.steps;

    // Resume from the last complete checkpoint, else start fresh.
    let policy: Policy;
    let step = 0;
    let rng = new Rng(c.seed);
    const guard = new HeldOutGuard(c.heldout);
    const ck = await loadLatestCheckpoint(ckptDir);
    let resumedFrom: number | null = null;
    let saved: LoadedCheckpoint | null = null;
    let savedPhase: string | null = null;
    let rollouts = 0;
    if (ck) {
      policy = ck.policy;
      step = ck.step;
      rng.state = ck.rngState;
      saved = ck;
      const extra = ck.extra as { phase?: string; guard_state?: { strikes: number; history: GuardCheck[] }; rollouts?: number; sft_converged_at?: number } | undefined;
      savedPhase = extra?.phase ?? null;
      if (typeof extra?.sft_converged_at === "number" && extra.sft_converged_at <= c.sft.steps) {
        sftEnd = extra.sft_converged_at;
        sftEndReason = "converged";
      }
      if (extra?.guard_state) guard.restore(extra.guard_state);
      const cur = (ck.extra as { curriculum?: unknown } | undefined)?.curriculum;
      if (cur) this.curriculum = PassRateCurriculum.restore(cur);
      rollouts = extra?.rollouts ?? 0;
      resumedFrom = step;
      log(`resumed from ${ck.path} (step ${step})`);
      // Metrics lines past the checkpoint belong to the lost tail of the killed run.
      if (existsSync(metricsPath)) {
        const kept = readFileSync(metricsPath, "utf8").split("\n").filter((l) => l.trim() && (JSON.parse(l) as StepMetrics).step <= step);
        writeFileSync(metricsPath, kept.map((l) => l + "\n").join(""));
      }
    } else if (c.init_from) {
      const init = (await loadLatestCheckpoint(c.init_from)) ?? (await loadLatestCheckpoint(join(c.init_from, "checkpoints"))) ?? (await loadCheckpoint(c.init_from));
      policy = init.policy;
      log(`initialised from ${init.path}`);
      writeFileSync(metricsPath, "");
    } else {
      policy = new Policy({ ...c.model, seed: c.seed });
      writeFileSync(metricsPath, "");
    }

    await this.loadData(policy.config.vocab_size);
    this.loadHints(policy);
    // The world-model head (off by default): restored from the run's world_model/ on resume.
    const wm = c.world_model.enabled ? await WorldModelStepper.open(c.world_model, policy, join(dir, "world_model")) : null;
    if (c.curriculum.enabled && !this.curriculum) {
      const { enabled: _on, ...cc } = c.curriculum;
      this.curriculum = new PassRateCurriculum({ seed: c.seed, ...cc }, rlTasks);
    }

    // The post-SFT policy is the KL reference and the "base" teacher; saved once so resumes agree.
    const baseDir = join(dir, "base");
    let base: Policy | null = null;
    const needBase = c.rl.beta > 0 || c.sdpo.teacher_model_kind !== "live" || c.loss_weights.dpo > 0;
    const ensureBase = async () => {
      if (base || !needBase) return;
      const savedBase = await loadLatestCheckpoint(baseDir);
      if (savedBase) base = savedBase.policy;
      else {
        base = clonePolicy(policy);
        await saveCheckpoint(baseDir, { policy: base, step, rngState: rng.state, keep: 1 });
      }
    };
    // The ema teacher (live uses the policy, base uses `base`). It is not checkpointed: after a
    // resume it restarts from the current weights.
    let teacher: Policy | null = null;
    let gap: GapCheck | null = existsSync(join(dir, "gap_check.json")) ? (JSON.parse(readFileSync(join(dir, "gap_check.json"), "utf8")) as GapCheck) : null;

    let phase: "sft" | "rl" | null = null;
    let optimizer: tf.Optimizer | null = null;
    let stopped: string | null = null;
    let lastRl: number | null = null;

    while (step < totalSteps() && !stopped) {
      const nextPhase = step < sftEnd ? "sft" : "rl";
      if (nextPhase !== phase) {
        phase = nextPhase;
        optimizer?.dispose();
        optimizer = tf.train.adam(phase === "sft" ? c.sft.lr : c.rl.lr);
        // Each phase has its own Adam; only a checkpoint from this same phase restores its moments.
        if (saved && savedPhase === phase) await restoreOptimizer(optimizer, saved);
        saved = null;
        if (phase === "rl") {
          // RL draws from its own stream of the run seed (an SFT checkpoint shared by several
          // seeds still gives each its own rollouts); a resumed RL checkpoint keeps its saved state.
          if (savedPhase !== "rl") rng = new Rng(((c.seed + c.rl.sampling_seed_offset) * 0x9e3779b1 + 0x7f4a7c15) | 0);
          await ensureBase();
          if (c.sdpo.teacher_model_kind === "ema") teacher = clonePolicy(policy);
          // The pre-flight gap check, once, before the first RL step (a run resumed inside RL has had it).
          if (savedPhase !== "rl" && c.loss_weights.sdpo > 0 && c.sdpo.gap_check_tasks > 0) {
            const tp = c.sdpo.teacher_model_kind === "live" ? policy : c.sdpo.teacher_model_kind === "ema" ? teacher! : base!;
            const sampleRng = new Rng(c.seed + 4242);
            const pool = [...rlTasks].sort(() => sampleRng.next() - 0.5).slice(0, c.sdpo.gap_check_tasks);
            gap = await gapCheck(env, policy, tp, pool, { max_new_tokens: c.rl.max_completion_length, block_size: policy.config.block_size, reprompt: repromptOptions(c), hints: this.hints, concurrency: this.gradeConcurrency });
            writeFileSync(join(dir, "gap_check.json"), JSON.stringify(gap, null, 1));
            log(`gap check (${gap.tasks} tasks, student pass ${gap.student_pass.toFixed(2)}): ${gap.by_source.map((g) => `${g.source} n=${g.n} pass ${g.student_pass.toFixed(2)}→${g.teacher_pass.toFixed(2)} golden logp/token ${g.student_logp.toFixed(2)}→${g.teacher_logp.toFixed(2)}`).join("; ")}`);
            if (gap.warning) {
              log(`WARNING: ${gap.warning}`);
              this.opts.onWarning?.(gap.warning);
            }
          }
        }
      }
      const t0 = Date.now();
      const { metrics: m, tokens } = phase === "sft" ? await this.sftStep(env, sftTasks, policy, optimizer!, rng, step) : await this.rlStep(env, rlTasks, policy, optimizer!, rng, step, base, teacher, sftTasks);
      if (wm) {
        // the head's own step on the trunk as it is now: its gradient reaches only its parameters
        m.loss_wm = wm.step(policy).loss;
        m.loss_total += m.loss_wm;
        if (c.checkpoint.every > 0 && (step + 1) % c.checkpoint.every === 0) await saveWorldModel(join(dir, "world_model"), wm.head, policy, { prior: wm.prior, step: step + 1 });
      }
      if (phase === "rl") {
        rollouts += c.rl.prompts_per_step * c.rl.num_generations;
        lastRl = m.reward_mean;
        if (teacher && (step + 1) % c.sdpo.teacher_sync_steps === 0) copyWeights(policy, teacher, c.sdpo.teacher_update_rate);
      }
      step++;
      m.step = step;
      m.rollouts = rollouts;
      m.elapsed_s = (Date.now() - started) / 1000;
      m.tokens_per_s = tokens / Math.max(1e-3, (Date.now() - t0) / 1000);
      if (phase === "sft" && c.sft.until && (step % c.sft.until.every === 0 || step === sftEnd) && step <= sftEnd) {
        const u = c.sft.until;
        const check = await gapCheck(env, policy, policy, heldoutTasks.slice(0, u.tasks), {
          max_new_tokens: c.rl.max_completion_length, block_size: policy.config.block_size, hints: this.hints, concurrency: this.gradeConcurrency,
          reprompt: { ...repromptOptions(c), use_successful_as_teacher: c.sft.sibling_fraction > 0 },
        });
        const bySource = check.by_source.filter((b) => b.source === "sibling" ? c.sft.sibling_fraction > 0 : c.sft.sibling_fraction < 1);
        // recall: greedy unhinted pass on SFT tasks shown unhinted (the demonstrations SFT fits without a hint)
        const recallTasks = sftTasks.filter((t) => !this.hintOnly(t)).slice(0, u.tasks);
        const sftPass = u.sft_pass === null ? null : recallTasks.length ? mean((await this.evaluate(env, policy, recallTasks)).map((r) => (r >= 1 ? 1 : 0))) : 0;
        const met = bySource.length > 0 && bySource.every((b) => b.teacher_pass >= u.hinted_pass && (u.golden_logp === null || b.teacher_logp >= u.golden_logp)) && (sftPass === null || sftPass >= u.sft_pass!);
        sftChecks++;
        sftMet = met ? sftMet + 1 : 0;
        m.sft_check = { tasks: check.tasks, ...(sftPass !== null ? { sft_pass: sftPass } : {}), by_source: bySource.map((b) => ({ source: b.source, n: b.n, student_pass: b.student_pass, teacher_pass: b.teacher_pass, teacher_logp: b.teacher_logp })), met };
        log(`sft check at step ${step} (${check.tasks} held-out tasks): ${bySource.map((b) => `${b.source} hinted pass ${b.teacher_pass.toFixed(2)}, golden logp/token ${b.teacher_logp.toFixed(2)}`).join("; ") || "no hint source"}${sftPass !== null ? `; unhinted pass on SFT tasks ${sftPass.toFixed(2)}` : ""}${met ? ` — met (${sftMet}/${u.patience})` : ""}`);
        if (sftMet >= u.patience) {
          sftEnd = step;
          sftEndReason = "converged";
          log(`SFT converged at step ${step} (cap ${c.sft.steps})`);
        }
      }
      const rlStep = step - sftEnd;
      if (phase === "rl" && guard.due(rlStep)) {
        const proxy = mean(await this.evaluate(env, policy, trainTasks.slice(0, c.heldout.proxy_tasks ?? c.heldout.n_tasks)));
        const held = mean(await this.evaluate(env, policy, heldoutTasks.slice(0, c.heldout.n_tasks)));
        const check = guard.check(step, proxy, held);
        m.heldout = { proxy, heldout: held, gap: check.gap };
        if (check.stop) stopped = check.reason!;
      }
      appendFileSync(metricsPath, JSON.stringify(StepMetrics.parse(m)) + "\n");
      this.opts.onStep?.(m);
      if (step % 10 === 0 || step === totalSteps()) {
        log(`step ${step}/${totalSteps()} ${phase} loss ${m.loss_total.toFixed(3)}${m.reward_mean !== null ? ` reward ${m.reward_mean.toFixed(3)}` : ""}`);
      }
      if (stopped || step === totalSteps() || (c.checkpoint.every > 0 && step % c.checkpoint.every === 0)) {
        await saveCheckpoint(ckptDir, { policy, optimizer: optimizer!, rngState: rng.state, step, keep: c.checkpoint.keep, extra: { phase, rollouts, guard_state: guard.state, ...(sftEndReason === "converged" ? { sft_converged_at: sftEnd } : {}), ...(this.curriculum ? { curriculum: this.curriculum.save() } : {}) } });
      }
    }
    if (stopped) {
      writeFileSync(join(dir, "STOPPED"), stopped + "\n");
      log(stopped);
    }

    // The guard may have just evaluated these same weights on these same tasks (greedy): reuse it.
    const last = guard.history.at(-1);
    const atEnd = last?.step === step ? last : null;
    const heldEval = heldoutTasks.slice(0, c.heldout.n_tasks);
    const heldRewards = await this.evaluate(env, policy, heldEval);
    const byTag: Record<string, { reward: number; n: number }> = {};
    if (env.tag) {
      const tags = new Map<string, number[]>();
      heldEval.forEach((t, i) => {
        const tag = env.tag!(t);
        if (tag) tags.set(tag, [...(tags.get(tag) ?? []), heldRewards[i]!]);
      });
      for (const [tag, rs] of tags) byTag[tag] = { reward: mean(rs), n: rs.length };
    }
    const rlEval = c.sft.task_fraction < 1 ? rlTasks.slice(0, c.heldout.n_tasks) : [];
    const rlRewards = await this.evaluate(env, policy, rlEval);
    const final: TrainResult["final"] = {
      train_reward: atEnd?.proxy ?? mean(await this.evaluate(env, policy, trainTasks.slice(0, c.heldout.proxy_tasks ?? c.heldout.n_tasks))),
      heldout_reward: heldRewards.length ? mean(heldRewards) : 0,
      rl_reward_last: lastRl,
      heldout_pass: heldRewards.length ? mean(heldRewards.map((r) => (r >= 1 ? 1 : 0))) : 0,
      ...(rlEval.length ? { rl_tasks_pass: mean(rlRewards.map((r) => (r >= 1 ? 1 : 0))), rl_tasks_n: rlEval.length } : {}),
      ...(Object.keys(byTag).length ? { heldout_by_tag: byTag } : {}),
      // renamed_args: the v2 subset under the name the comparison's primary metric reads.
      ...(env.name === "renamed_args" ? { heldout_renamed_reward: byTag.renamed?.reward ?? 0, heldout_renamed_n: byTag.renamed?.n ?? 0 } : {}),
      hack_rate: ((rates) => (rates.length ? mean(rates) : null))(readMetrics(dir).flatMap((m) => (m.phase === "rl" && typeof m.hack_rate === "number" ? [m.hack_rate] : []))),
    };
    const result: TrainResult = {
      run_dir: dir, backend: backend.name, executor: this.executor, steps: step, resumed_from: resumedFrom, stopped, final,
      guard: guard.history, ...(gap ? { gap_check: gap } : {}), sft_end: { step: Math.min(sftEnd, step), reason: sftEndReason, checks: sftChecks }, parameters: policy.parameterCount(), wall_s: (Date.now() - started) / 1000,
    };
    if (wm) {
      result.world_model = wm.evaluate(policy);
      await saveWorldModel(join(dir, "world_model"), wm.head, policy, { prior: wm.prior, step, eval: result.world_model });
    }
    writeFileSync(join(dir, "summary.json"), JSON.stringify(result, null, 2));
    writeFileSync(join(dir, "training.html"), toHTML([...trainingFigures(readMetrics(dir)), ...(gap ? gapCheckFigures(gap) : [])], "composer-lab training run"));
    optimizer?.dispose();
    for (const p of new Set([policy, base, teacher])) p?.dispose();
    wm?.dispose();
    return result;
  }

  /** Offline rows from lib/collate JSONL files (errors name the file and line). */
  private async loadData(vocab: number): Promise<void> {
    const c = this.config;
    const check = (file: string, rows: number[][][]) => {
      rows.forEach((seqs, i) => {
        for (const ids of seqs) if (ids.some((t) => t < 0 || t >= vocab)) throw new Error(`${file}: row ${i + 1}: token ids outside the policy's vocabulary (0..${vocab - 1}); collate with the byte tokenizer`);
      });
    };
    if (c.sft.data) {
      const rows = await readRows(c.sft.data, SftRow);
      if (!rows.length) throw new Error(`${c.sft.data}: no SFT rows`);
      check(c.sft.data, rows.map((r) => [r.ids]));
      this.sftData = rows.map((r) => ({ ids: r.ids, mask: r.loss_mask }));
    }
    if (c.sdpo.data) {
      this.sdpoData = await readRows(c.sdpo.data, SdpoRow);
      check(c.sdpo.data, this.sdpoData.map((r) => [r.student_prompt_ids, r.teacher_prompt_ids, r.completion_ids]));
    }
    if (c.dpo.data) {
      this.dpoData = await readRows(c.dpo.data, DpoPair);
      check(c.dpo.data, this.dpoData.map((r) => [r.prompt_ids, r.chosen_ids, r.rejected_ids]));
    }
  }

  /** Greedy rewards on a task list (the guard's and the final evaluation), graded in parallel. */
  async evaluate(env: Environment<EnvTask>, policy: Policy, tasks: EnvTask[]): Promise<number[]> {
    if (tasks.length === 0) return [];
    const outs = sample(policy, tasks.map((t) => renderMessages(env.prompt(t))), { max_new_tokens: this.config.rl.max_completion_length, temperature: 0, stop: [env.stop] });
    const grades = await gradeAll(env, outs.map((o, i) => ({ task: tasks[i]!, completion: o.text })), this.gradeConcurrency);
    return grades.map((g) => g.reward);
  }

  /**
   * A demonstration batch. With probability hint_fraction (envs that can make a mistake) the whole
   * batch is hint-conditioned: each prompt carries the hint for a synthetic mistake's real grade
   * (the step's hint_layers count them by layer).
   * Hinted prompts are ~2× longer, and mixing them into every batch would pad every batch to their length.
   */
  private async sftRows(env: Environment<EnvTask>, trainTasks: EnvTask[], rng: Rng, blockSize: number): Promise<{ rows: Seq[]; layers: Record<string, number> }> {
    const c = this.config.sft;
    const data = this.sftData;
    const layers: Record<string, number> = {};
    if (data) return { rows: Array.from({ length: c.batch_size }, () => data[Math.floor(rng.next() * data.length)]!), layers };
    const hinted = rng.next() < c.hint_fraction && !!env.mistake;
    const pool = trainTasks.filter((t) => (hinted || !this.hintOnly(t)) && env.demonstration(t, hinted) !== null);
    if (!pool.length) throw new Error(`${env.name}: no training task has a demonstration (SFT needs the env's demonstrations, e.g. the store's sft_corpus, or sft.data)`);
    // Draws one row at a time (task, then its mistake), so the batch is the same for a given rng state;
    // the mistakes are then graded together (the env may answer repeats from its grade cache).
    const drawn = Array.from({ length: c.batch_size }, () => {
      const task = pool[Math.floor(rng.next() * pool.length)]!;
      return { task, completion: hinted ? env.mistake!(task, rng) : "" };
    });
    const grades = hinted ? await gradeAll(env, drawn, this.gradeConcurrency) : [];
    const rows: Seq[] = [];
    for (const [i, { task }] of drawn.entries()) {
      const demo = env.demonstration(task, hinted)!;
      const completion = encode(demo);
      let prompt = encode(renderMessages(env.prompt(task)), { bos: true });
      const hint = hinted ? await this.sftHint(grades[i]!, demo.split(env.stop)[0]!, rng) : null;
      if (hint) {
        prompt = hintedPromptIds(env, task, hint.hint, completion.length, blockSize);
        layers[hint.layer] = (layers[hint.layer] ?? 0) + 1;
      }
      rows.push(toSeq(prompt, completion, blockSize));
    }
    return { rows, layers };
  }

  /** sft.hint_only_fraction: this task's demonstrations come only hint-conditioned (its answer cannot be recalled, only read). */
  private hintOnly(t: EnvTask): boolean {
    const f = this.config.sft.hint_only_fraction;
    return f > 0 && unitHash(`hint-only:${t.task_id}`) < f;
  }

  /**
   * The hint of a hint-conditioned SFT row, from the same sources the RL teacher reads: with
   * probability sft.sibling_fraction the demonstration shown as a passing sibling's solution, else the
   * mistake's feedback (include_environment_feedback) or the lab's hint layers on its grade.
   */
  private async sftHint(grade: EnvGrade, demonstration: string, rng: Rng): Promise<{ hint: string; layer: string } | null> {
    const c = this.config;
    if (c.sft.sibling_fraction > 0 && rng.next() < c.sft.sibling_fraction) return { hint: solutionHint(demonstration), layer: "sibling" };
    const feedback = feedbackOf(grade);
    if (c.sdpo.include_environment_feedback && feedback) return { hint: feedback, layer: "feedback" };
    return grade.error && this.hints ? await this.hints.generate(grade.error) : null;
  }

  private async sftStep(env: Environment<EnvTask>, trainTasks: EnvTask[], policy: Policy, optimizer: tf.Optimizer, rng: Rng, step: number): Promise<StepResult> {
    const { rows, layers } = await this.sftRows(env, trainTasks, rng, policy.config.block_size);
    const packed = packRows(rows, policy.config.block_size);
    const { value, grads } = tf.variableGrads(() => sftLoss(completionLogits(policy, packed), packed.targets, packed.mask), policy.variables());
    const grad_norm = clipGrads(grads, this.config.grad_clip);
    optimizer.applyGradients(grads);
    const loss = value.dataSync()[0]!;
    tf.dispose([value, ...Object.values(grads)]);
    const tokens = packed.tokens;
    disposePacked(packed);
    const metrics: StepMetrics = {
      step, phase: "sft", rollouts: 0, reward_mean: null, reward_std: null, valid_rate: null, loss_total: loss, loss_lm_ce: loss,
      loss_grpo: null, loss_sdpo: null, loss_dpo: null, sdpo_rows: 0, hint_layers: layers, shift_kl: null, clipped_fraction: null,
      clip_ratio: null, kl: null, entropy: null, grad_norm, tokens_per_s: 0, elapsed_s: 0,
    };
    return { metrics, tokens };
  }

  /** This step's tasks: drawn by the curriculum when it is on (uniformly once every task has left it), else uniformly. */
  private drawTasks(trainTasks: EnvTask[], rng: Rng, n: number): EnvTask[] {
    const byId = new Map(trainTasks.map((t) => [t.task_id, t]));
    const ids = this.curriculum?.sample(n) ?? [];
    if (ids.length) return ids.map((id) => byId.get(id)!);
    return Array.from({ length: n }, () => trainTasks[Math.floor(rng.next() * trainTasks.length)]!);
  }

  /** Rollouts and their rows come from rollout.ts (sampleGroups, sdpoSites, groupPairs); here: the forward passes and the losses. */
  private async rlStep(env: Environment<EnvTask>, trainTasks: EnvTask[], policy: Policy, optimizer: tf.Optimizer, rng: Rng, step: number, base: Policy | null, emaTeacher: Policy | null, sftTasks: EnvTask[]): Promise<StepResult> {
    const c = this.config;
    const G = c.rl.num_generations;
    const w = c.loss_weights;
    const bs = policy.config.block_size;
    const tasks = this.drawTasks(trainTasks, rng, c.rl.prompts_per_step);
    const { groups, grade_s } = await sampleGroups(env, policy, tasks, {
      num_generations: G, max_new_tokens: c.rl.max_completion_length, temperature: c.rl.temperature, top_k: c.rl.top_k, top_p: c.rl.top_p, rng, concurrency: this.gradeConcurrency,
    });
    const grades = groups.flat().map((r) => r.grade);
    const rewards = grades.map((g) => g.reward);
    const events: CurriculumEvent[] = this.curriculum ? this.curriculum.observeBatch(tasks.flatMap((t) => Array<string>(G).fill(t.task_id)), rewards) : [];

    // Rows for each channel, online and replayed alike.
    const draw = <T>(xs: T[] | null, n: number): T[] => (xs?.length ? Array.from({ length: n }, () => xs[Math.floor(rng.next() * xs.length)]!) : []);
    const layers: Record<string, number> = {};
    const sites: SdpoSite[] = [];
    const counts: RepromptCounts = { rollouts: 0, success_groups: 0, with_solution: 0, feedback_available: 0, feedback_used: 0, reprompted: 0 };
    if (w.sdpo > 0) {
      for (const group of groups) {
        const r = await sdpoSites(env, group, this.hints, bs, repromptOptions(c));
        sites.push(...r.sites);
        for (const [l, n] of Object.entries(r.layers)) layers[l] = (layers[l] ?? 0) + n;
        for (const k of Object.keys(counts) as (keyof RepromptCounts)[]) counts[k] += r.counts[k];
      }
      for (const row of draw(this.sdpoData, c.sdpo.rows_per_step)) {
        layers[`replay:${row.layer}`] = (layers[`replay:${row.layer}`] ?? 0) + 1;
        sites.push({ ...row, layer: `replay:${row.layer}` });
      }
    }
    const pairs: Pick<DpoPair, "prompt_ids" | "chosen_ids" | "rejected_ids">[] = w.dpo > 0
      ? [...groups.flatMap((g, k) => groupPairs(g, { group_id: `step-${step}-task-${k}` })), ...draw(this.dpoData, c.dpo.pairs_per_step)]
      : [];

    const packed = packRows(groups.flat().map((r) => toSeq(r.prompt_ids, completionIds(r.completion), bs)), bs);
    const sdpoRows = sites.map((s) => sdpoSeqs(s, bs));
    const sStudent = sites.length ? packRows(sdpoRows.map((r) => r.student), bs) : null;
    const sTeacher = sites.length ? packRows(sdpoRows.map((r) => r.teacher), bs) : null;
    const dpoRows = pairs.map((p) => dpoSeqs(p, bs));
    const dChosen = pairs.length ? packRows(dpoRows.map((r) => r.chosen), bs) : null;
    const dRejected = pairs.length ? packRows(dpoRows.map((r) => r.rejected), bs) : null;
    // The lm_ce channel during RL (loss_weights.lm_ce > 0): a demonstration batch drawn as SFT draws it,
    // from the SFT tasks (hint-conditioned with sft.hint_fraction), added to the total.
    const lm = w.lm_ce > 0 ? packRows((await this.sftRows(env, sftTasks, rng, bs)).rows, bs) : null;

    const advantages = groupAdvantages(rewards, G, { scale_rewards: c.rl.scale_rewards });
    // Everything the teacher and reference contribute is computed outside the gradient tape.
    const reference = base ?? policy;
    // Logits of the RL step are divided by the sampling temperature (TRL): log-probs of the distribution sampled from.
    const tau = c.rl.temperature;
    const logitsOf = (pol: Policy, pk: Packed) => temperatureScaled(completionLogits(pol, pk), tau);
    const refLogp = c.rl.beta > 0 ? tf.tidy(() => tokenLogprobs(logitsOf(reference, packed), packed.targets)) : null;
    const teacherPolicy = c.sdpo.teacher_model_kind === "live" ? policy : c.sdpo.teacher_model_kind === "ema" ? emaTeacher! : base!;
    const teacherLogits = sTeacher ? tf.tidy(() => logitsOf(teacherPolicy, sTeacher)) : null;
    const seqLogps = (pol: Policy, pk: Packed) => tokenLogprobs(completionLogits(pol, pk), pk.targets).mul(pk.mask).sum(1) as tf.Tensor1D;
    const refPairs = dChosen && dRejected ? [tf.tidy(() => seqLogps(reference, dChosen)), tf.tidy(() => seqLogps(reference, dRejected))] as const : null;

    const sdpoOptions = SdpoConfig.parse(c.sdpo); // the loss's own fields of the channel config
    const channels: Record<string, number | null> = { grpo: null, sdpo: null, dpo: null, lm_ce: null };
    let clipRatio: number | null = null;
    let kl: number | null = null;
    let clippedFraction: number | null = null;
    let ent: number | null = null;
    let shift: number | null = null;
    let gapMetric: number | null = null;
    const { value, grads } = tf.variableGrads(() => {
      const logits = logitsOf(policy, packed);
      const logp = tokenLogprobs(logits, packed.targets);
      // Diagnostics read off the same forward (values only; they are not part of the loss).
      ent = entropy(logits).mul(packed.mask).sum().div(packed.mask.sum().maximum(1)).dataSync()[0]!;
      const pg = policyGradientLoss({
        logp, oldLogp: stopGradient(logp), advantages, mask: packed.mask, ...(refLogp ? { refLogp } : {}),
        epsilon: c.rl.epsilon, ...(c.rl.epsilon_high !== undefined ? { epsilon_high: c.rl.epsilon_high } : {}),
        beta: c.rl.beta, loss_type: c.rl.loss_type, max_completion_length: c.rl.max_completion_length,
      });
      channels.grpo = pg.loss.dataSync()[0]!;
      clipRatio = pg.clip_ratio.dataSync()[0]!;
      if (pg.kl) kl = pg.kl.dataSync()[0]!;
      let sdpo: tf.Scalar | undefined;
      if (sStudent && sTeacher && teacherLogits) {
        const student = logitsOf(policy, sStudent);
        const r = sdpoLoss({ studentLogits: student, teacherLogits, sampledIds: sTeacher.targets, mask: sTeacher.mask, ...sdpoOptions });
        sdpo = r.loss;
        channels.sdpo = r.loss.dataSync()[0]!;
        const lt = tf.logSoftmax(teacherLogits);
        const nTok = sTeacher.mask.sum().maximum(1);
        shift = tf.exp(lt).mul(lt.sub(tf.logSoftmax(student))).sum(-1).mul(sTeacher.mask).sum().div(nTok).dataSync()[0]!;
        gapMetric = tokenLogprobs(teacherLogits, sTeacher.targets).sub(tokenLogprobs(student, sTeacher.targets)).mul(sTeacher.mask).sum().div(nTok).dataSync()[0]!;
        clippedFraction = r.clipped_fraction.dataSync()[0]!;
      }
      let dpo: tf.Scalar | undefined;
      if (dChosen && dRejected && refPairs) {
        const r = dpoLoss({ policyChosenLogps: seqLogps(policy, dChosen), policyRejectedLogps: seqLogps(policy, dRejected), refChosenLogps: refPairs[0], refRejectedLogps: refPairs[1], beta: c.dpo.beta });
        dpo = r.loss;
        channels.dpo = r.loss.dataSync()[0]!;
      }
      let lmCe: tf.Scalar | undefined;
      if (lm) {
        lmCe = sftLoss(completionLogits(policy, lm), lm.targets, lm.mask);
        channels.lm_ce = lmCe.dataSync()[0]!;
      }
      return composeLoss({ grpo: pg.loss, ...(sdpo ? { sdpo } : {}), ...(dpo ? { dpo } : {}), ...(lmCe ? { lm_ce: lmCe } : {}) }, w);
    }, policy.variables());
    const grad_norm = clipGrads(grads, c.grad_clip);
    optimizer.applyGradients(grads);

    const total = value.dataSync()[0]!;
    const tokens = packed.tokens + (lm?.tokens ?? 0) + (sStudent?.tokens ?? 0) + (sTeacher?.tokens ?? 0) + (dChosen?.tokens ?? 0) + (dRejected?.tokens ?? 0) + groups.flat().reduce((n, r) => n + r.completion.ids.length, 0);
    tf.dispose([value, ...Object.values(grads), advantages, ...(refLogp ? [refLogp] : []), ...(teacherLogits ? [teacherLogits] : []), ...(refPairs ?? [])]);
    for (const pk of [packed, sStudent, sTeacher, dChosen, dRejected, lm]) disposePacked(pk);
    const metrics: StepMetrics = {
      step, phase: "rl", rollouts: 0, reward_mean: mean(rewards), reward_std: std(rewards), valid_rate: mean(grades.map((g) => (g.valid ? 1 : 0))), hack_rate: hackRateOf(grades),
      loss_total: total, loss_lm_ce: channels.lm_ce ?? null, loss_grpo: channels.grpo ?? null, loss_sdpo: channels.sdpo ?? null, loss_dpo: channels.dpo ?? null,
      sdpo_rows: sites.length, hint_layers: layers, shift_kl: shift, teacher_student_gap: gapMetric,
      ...(w.sdpo > 0 && counts.rollouts > 0 ? repromptMetrics(counts, groups.length) : {}),
      clipped_fraction: clippedFraction, clip_ratio: clipRatio, kl,
      entropy: ent, grad_norm, tokens_per_s: 0, elapsed_s: 0, grade_s,
      ...(this.curriculum ? { curriculum: { ...this.curriculum.summary(), events: events.map(({ step: _s, ...e }) => e) } } : {}),
    };
    return { metrics, tokens };
  }
}
