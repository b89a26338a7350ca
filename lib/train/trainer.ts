/**
 * The trainer: a config object plus one loop that reads top to bottom, on any lib/env Environment.
 *
 *   train()          resume() → the phase loop (enterPhase when SFT turns into RL; trainStep) → finalEvaluation()
 *   SFT step         lm_ce on the env's demonstrations (a store's sft_corpus for feature deletion), some
 *                    of them hint-conditioned
 *   RL step          draw tasks (uniformly, or by the PassRateCurriculum) → G rollouts each → grade (in
 *                    parallel) → each enabled loss channel's rows (channels.ts LOSS_CHANNELS: grpo on the
 *                    rollouts, SDPO rows with the hint spliced into the teacher's prompt, DPO pairs, lm_ce
 *                    demonstrations) → one tape over their losses, total = composeLoss → one Adam step
 *   after a step     the world-model head's own step, the EMA teacher, sft.until's check, HeldOutGuard
 *                    (proxy vs held-out), the metrics line, checkpoint (atomic, resumable).
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
import { sftLoss, temperatureScaled } from "./losses.js";
import { composeLoss, enabledOrNot, idleChannelMetrics, repromptOptions, sdpoTeacher, type AnyChannel, type ChannelBatch, type ChannelContext, type ChannelName, type LossChannels } from "./channels.js";
import { gapCheck, type GapCheck } from "./gap.js";
import { Policy } from "./model.js";
import { fusedAdam } from "./ops.js";
import { gapCheckFigures, trainingFigures } from "./plots.js";
import { feedbackOf, hintedPromptIds, sampleGroups, solutionHint, toSeq } from "./rollout.js";
import { sample } from "./sample.js";
import { encode } from "./tokenizer.js";
import { WorldModelStepper, saveWorldModel } from "./world_model.js";
import { completionLogits, disposePacked, packRows } from "./pack.js";

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

  private get log(): (line: string) => void {
    return this.opts.log ?? (() => {});
  }

  private get gradeConcurrency(): number {
    return this.config.grade_concurrency ?? availableParallelism();
  }

  /**
   * SFT then RL, one step at a time, and the final evaluation:
   *
   *   resume()            the environment and its splits, then the last checkpoint (or init_from, or a fresh policy)
   *   the phase loop      each step: enterPhase() when SFT turns into RL, then trainStep()
   *   finalEvaluation()   greedy rewards on the held-out (and train-proxy, RL) tasks; summary.json, plots
   */
  async train(): Promise<TrainResult> {
    const run = await this.resume();
    while (run.step < totalSteps(run) && !run.stopped) {
      const phase = run.step < run.sft.end ? "sft" : "rl";
      if (phase !== run.phase) await this.enterPhase(run, phase);
      await this.trainStep(run);
    }
    return this.finalEvaluation(run);
  }

  /** Opens the environment, writes config.json, and restores the last complete checkpoint (or starts fresh). */
  private async resume(): Promise<RunState> {
    const c = this.config;
    const started = Date.now();
    const env = await this.environment();
    const { train, holdout: heldout } = env.splits();
    if (train.length === 0) throw new Error(`${env.name}: no training tasks (raise env.n_tasks, lower heldout_fraction, or fill the store's rl_task_pool)`);
    const { sft, rl } = sftRlTasks(train, c.sft.task_fraction);
    if (!sft.length || !rl.length) throw new Error(`sft.task_fraction ${c.sft.task_fraction}: ${sft.length} SFT and ${rl.length} RL tasks of ${train.length}`);
    if (c.sft.until && !heldout.length) throw new Error(`sft.until: ${env.name} has no held-out tasks to check SFT on`);
    const log = this.log;
    const backend: BackendInfo = await initBackend(c.backend);
    log(`backend: ${backend.name} (${backend.provider})`);
    const dir = this.opts.run_dir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ ...c, backend_used: backend.name, executor: this.executor }, null, 2));
    const metricsPath = join(dir, "metrics.jsonl");
    const ckptDir = join(dir, "checkpoints");
    const run: RunState = {
      env, tasks: { train, heldout, sft, rl }, backend, dir, metricsPath, ckptDir, started,
      // SFT ends at sft.steps, or earlier where sft.until's criterion is met (then the checkpoint records it).
      sft: { end: c.sft.steps, reason: c.sft.until ? "cap" : "steps", checks: 0, met: 0 },
      policy: null as unknown as Policy, step: 0, rng: new Rng(c.seed), guard: new HeldOutGuard(c.heldout), rollouts: 0, resumedFrom: null, saved: null, savedPhase: null,
      base: null, ema: null, gap: null, wm: null, phase: null, optimizer: null, stopped: null, lastRl: null, rlSteps: c.rl.steps,
    };

    // Resume from the last complete checkpoint, else start fresh.
    const ck = await loadLatestCheckpoint(ckptDir);
    if (ck) {
      run.policy = ck.policy;
      run.step = ck.step;
      run.rng.state = ck.rngState;
      run.saved = ck;
      const extra = ck.extra as { phase?: string; guard_state?: { strikes: number; history: GuardCheck[] }; rollouts?: number; sft_converged_at?: number } | undefined;
      run.savedPhase = extra?.phase ?? null;
      if (typeof extra?.sft_converged_at === "number" && extra.sft_converged_at <= c.sft.steps) {
        run.sft.end = extra.sft_converged_at;
        run.sft.reason = "converged";
      }
      if (extra?.guard_state) run.guard.restore(extra.guard_state);
      const cur = (ck.extra as { curriculum?: unknown } | undefined)?.curriculum;
      if (cur) this.curriculum = PassRateCurriculum.restore(cur);
      run.rollouts = extra?.rollouts ?? 0;
      run.resumedFrom = run.step;
      log(`resumed from ${ck.path} (step ${run.step})`);
      // Metrics lines past the checkpoint belong to the lost tail of the killed run.
      if (existsSync(metricsPath)) {
        const kept = readFileSync(metricsPath, "utf8").split("\n").filter((l) => l.trim() && (JSON.parse(l) as StepMetrics).step <= run.step);
        writeFileSync(metricsPath, kept.map((l) => l + "\n").join(""));
      }
    } else if (c.init_from) {
      const init = (await loadLatestCheckpoint(c.init_from)) ?? (await loadLatestCheckpoint(join(c.init_from, "checkpoints"))) ?? (await loadCheckpoint(c.init_from));
      run.policy = init.policy;
      log(`initialised from ${init.path}`);
      writeFileSync(metricsPath, "");
    } else {
      run.policy = new Policy({ ...c.model, seed: c.seed });
      writeFileSync(metricsPath, "");
    }

    await this.loadData(run.policy.config.vocab_size);
    this.loadHints(run.policy);
    // The world-model head (off by default): restored from the run's world_model/ on resume.
    run.wm = c.world_model.enabled ? await WorldModelStepper.open(c.world_model, run.policy, join(dir, "world_model")) : null;
    if (c.curriculum.enabled && !this.curriculum) {
      const { enabled: _on, ...cc } = c.curriculum;
      this.curriculum = new PassRateCurriculum({ seed: c.seed, ...cc }, rl);
    }
    run.gap = existsSync(join(dir, "gap_check.json")) ? (JSON.parse(readFileSync(join(dir, "gap_check.json"), "utf8")) as GapCheck) : null;
    return run;
  }

  /**
   * A new phase: its own Adam (only a checkpoint from this same phase restores its moments). Entering
   * RL also starts the RL sampling stream, keeps the post-SFT reference, copies the EMA teacher and runs
   * the pre-flight gap check.
   */
  private async enterPhase(run: RunState, phase: "sft" | "rl"): Promise<void> {
    const c = this.config;
    run.phase = phase;
    run.optimizer?.dispose();
    run.optimizer = fusedAdam(phase === "sft" ? c.sft.lr : c.rl.lr);
    if (run.saved && run.savedPhase === phase) await restoreOptimizer(run.optimizer, run.saved);
    run.saved = null;
    if (phase !== "rl") return;
    // RL draws from its own stream of the run seed (an SFT checkpoint shared by several
    // seeds still gives each its own rollouts); a resumed RL checkpoint keeps its saved state.
    if (run.savedPhase !== "rl") run.rng = new Rng(((c.seed + c.rl.sampling_seed_offset) * 0x9e3779b1 + 0x7f4a7c15) | 0);
    await this.ensureBase(run);
    // The ema teacher (live uses the policy, base uses `base`). It is not checkpointed: after a
    // resume it restarts from the current weights.
    if (c.sdpo.teacher_model_kind === "ema") run.ema = clonePolicy(run.policy);
    // The pre-flight gap check, once, before the first RL step (a run resumed inside RL has had it).
    if (run.savedPhase !== "rl" && c.loss_weights.sdpo > 0 && c.sdpo.gap_check_tasks > 0) {
      const sampleRng = new Rng(c.seed + 4242);
      const pool = [...run.tasks.rl].sort(() => sampleRng.next() - 0.5).slice(0, c.sdpo.gap_check_tasks);
      const gap = await gapCheck(run.env, run.policy, sdpoTeacher(c.sdpo, run), pool, { max_new_tokens: c.rl.max_completion_length, block_size: run.policy.config.block_size, reprompt: repromptOptions(c.sdpo), hints: this.hints, concurrency: this.gradeConcurrency });
      run.gap = gap;
      writeFileSync(join(run.dir, "gap_check.json"), JSON.stringify(gap, null, 1));
      this.log(`gap check (${gap.tasks} tasks, student pass ${gap.student_pass.toFixed(2)}): ${gap.by_source.map((g) => `${g.source} n=${g.n} pass ${g.student_pass.toFixed(2)}→${g.teacher_pass.toFixed(2)} golden logp/token ${g.student_logp.toFixed(2)}→${g.teacher_logp.toFixed(2)}`).join("; ")}`);
      if (gap.warning) {
        this.log(`WARNING: ${gap.warning}`);
        this.opts.onWarning?.(gap.warning);
      }
    }
  }

  /** The post-SFT policy: the KL / DPO reference and the "base" teacher, kept when a channel reads it (saved once, so resumes agree). */
  private async ensureBase(run: RunState): Promise<void> {
    const c = this.config;
    const needed = enabledOrNot(c).some(({ ch, cfg, weight }) => ch.needsBase?.(cfg, weight) ?? false);
    if (run.base || !needed) return;
    const baseDir = join(run.dir, "base");
    const savedBase = await loadLatestCheckpoint(baseDir);
    if (savedBase) run.base = savedBase.policy;
    else {
      run.base = clonePolicy(run.policy);
      await saveCheckpoint(baseDir, { policy: run.base, step: run.step, rngState: run.rng.state, keep: 1 });
    }
  }

  /** One step of the current phase, then what follows it: the world-model head's step, the EMA update, sft.until's check, the guard, the metrics line and the checkpoint. */
  private async trainStep(run: RunState): Promise<void> {
    const c = this.config;
    const t0 = Date.now();
    const { metrics: m, tokens } = run.phase === "sft" ? await this.sftStep(run) : await this.rlStep(run);
    if (run.wm) {
      // the head's own step on the trunk as it is now: its gradient reaches only its parameters
      m.loss_wm = run.wm.step(run.policy).loss;
      m.loss_total += m.loss_wm;
      if (c.checkpoint.every > 0 && (run.step + 1) % c.checkpoint.every === 0) await saveWorldModel(join(run.dir, "world_model"), run.wm.head, run.policy, { prior: run.wm.prior, step: run.step + 1 });
    }
    if (run.phase === "rl") {
      run.rollouts += c.rl.prompts_per_step * c.rl.num_generations;
      run.lastRl = m.reward_mean;
      if (run.ema && (run.step + 1) % c.sdpo.teacher_sync_steps === 0) copyWeights(run.policy, run.ema, c.sdpo.teacher_update_rate);
    }
    run.step++;
    const step = run.step;
    m.step = step;
    m.rollouts = run.rollouts;
    m.elapsed_s = (Date.now() - run.started) / 1000;
    m.tokens_per_s = tokens / Math.max(1e-3, (Date.now() - t0) / 1000);
    if (run.phase === "sft" && c.sft.until && (step % c.sft.until.every === 0 || step === run.sft.end) && step <= run.sft.end) await this.sftUntilCheck(run, m);
    if (run.phase === "rl" && run.guard.due(step - run.sft.end)) {
      const proxy = mean(await this.evaluate(run.env, run.policy, run.tasks.train.slice(0, c.heldout.proxy_tasks ?? c.heldout.n_tasks)));
      const held = mean(await this.evaluate(run.env, run.policy, run.tasks.heldout.slice(0, c.heldout.n_tasks)));
      const check = run.guard.check(step, proxy, held);
      m.heldout = { proxy, heldout: held, gap: check.gap };
      if (check.stop) run.stopped = check.reason!;
    }
    appendFileSync(run.metricsPath, JSON.stringify(StepMetrics.parse(m)) + "\n");
    this.opts.onStep?.(m);
    if (step % 10 === 0 || step === totalSteps(run)) {
      this.log(`step ${step}/${totalSteps(run)} ${run.phase} loss ${m.loss_total.toFixed(3)}${m.reward_mean !== null ? ` reward ${m.reward_mean.toFixed(3)}` : ""}`);
    }
    if (run.stopped || step === totalSteps(run) || (c.checkpoint.every > 0 && step % c.checkpoint.every === 0)) {
      await saveCheckpoint(run.ckptDir, {
        policy: run.policy, optimizer: run.optimizer!, rngState: run.rng.state, step, keep: c.checkpoint.keep,
        extra: { phase: run.phase, rollouts: run.rollouts, guard_state: run.guard.state, ...(run.sft.reason === "converged" ? { sft_converged_at: run.sft.end } : {}), ...(this.curriculum ? { curriculum: this.curriculum.save() } : {}) },
      });
    }
  }

  /** sft.until: the policy as student and hinted teacher on held-out tasks (and, with sft_pass, unhinted on its SFT tasks); SFT ends after `patience` met checks. */
  private async sftUntilCheck(run: RunState, m: StepMetrics): Promise<void> {
    const c = this.config;
    const u = c.sft.until!;
    const check = await gapCheck(run.env, run.policy, run.policy, run.tasks.heldout.slice(0, u.tasks), {
      max_new_tokens: c.rl.max_completion_length, block_size: run.policy.config.block_size, hints: this.hints, concurrency: this.gradeConcurrency,
      reprompt: { ...repromptOptions(c.sdpo), use_successful_as_teacher: c.sft.sibling_fraction > 0 },
    });
    const bySource = check.by_source.filter((b) => b.source === "sibling" ? c.sft.sibling_fraction > 0 : c.sft.sibling_fraction < 1);
    // recall: greedy unhinted pass on SFT tasks shown unhinted (the demonstrations SFT fits without a hint)
    const recallTasks = run.tasks.sft.filter((t) => !this.hintOnly(t)).slice(0, u.tasks);
    const sftPass = u.sft_pass === null ? null : recallTasks.length ? mean((await this.evaluate(run.env, run.policy, recallTasks)).map((r) => (r >= 1 ? 1 : 0))) : 0;
    const met = bySource.length > 0 && bySource.every((b) => b.teacher_pass >= u.hinted_pass && (u.golden_logp === null || b.teacher_logp >= u.golden_logp)) && (sftPass === null || sftPass >= u.sft_pass!);
    run.sft.checks++;
    run.sft.met = met ? run.sft.met + 1 : 0;
    m.sft_check = { tasks: check.tasks, ...(sftPass !== null ? { sft_pass: sftPass } : {}), by_source: bySource.map((b) => ({ source: b.source, n: b.n, student_pass: b.student_pass, teacher_pass: b.teacher_pass, teacher_logp: b.teacher_logp })), met };
    this.log(`sft check at step ${run.step} (${check.tasks} held-out tasks): ${bySource.map((b) => `${b.source} hinted pass ${b.teacher_pass.toFixed(2)}, golden logp/token ${b.teacher_logp.toFixed(2)}`).join("; ") || "no hint source"}${sftPass !== null ? `; unhinted pass on SFT tasks ${sftPass.toFixed(2)}` : ""}${met ? ` — met (${run.sft.met}/${u.patience})` : ""}`);
    if (run.sft.met >= u.patience) {
      run.sft.end = run.step;
      run.sft.reason = "converged";
      this.log(`SFT converged at step ${run.step} (cap ${c.sft.steps})`);
    }
  }

  /** Greedy rewards on the held-out tasks (by tag), the train proxy and the RL tasks; summary.json and training.html. */
  private async finalEvaluation(run: RunState): Promise<TrainResult> {
    const c = this.config;
    const { env, policy, dir, step, stopped } = run;
    if (stopped) {
      writeFileSync(join(dir, "STOPPED"), stopped + "\n");
      this.log(stopped);
    }
    // The guard may have just evaluated these same weights on these same tasks (greedy): reuse it.
    const last = run.guard.history.at(-1);
    const atEnd = last?.step === step ? last : null;
    const heldEval = run.tasks.heldout.slice(0, c.heldout.n_tasks);
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
    const rlEval = c.sft.task_fraction < 1 ? run.tasks.rl.slice(0, c.heldout.n_tasks) : [];
    const rlRewards = await this.evaluate(env, policy, rlEval);
    const final: TrainResult["final"] = {
      train_reward: atEnd?.proxy ?? mean(await this.evaluate(env, policy, run.tasks.train.slice(0, c.heldout.proxy_tasks ?? c.heldout.n_tasks))),
      heldout_reward: heldRewards.length ? mean(heldRewards) : 0,
      rl_reward_last: run.lastRl,
      heldout_pass: heldRewards.length ? mean(heldRewards.map((r) => (r >= 1 ? 1 : 0))) : 0,
      ...(rlEval.length ? { rl_tasks_pass: mean(rlRewards.map((r) => (r >= 1 ? 1 : 0))), rl_tasks_n: rlEval.length } : {}),
      ...(Object.keys(byTag).length ? { heldout_by_tag: byTag } : {}),
      // renamed_args: the v2 subset under the name the comparison's primary metric reads.
      ...(env.name === "renamed_args" ? { heldout_renamed_reward: byTag.renamed?.reward ?? 0, heldout_renamed_n: byTag.renamed?.n ?? 0 } : {}),
      hack_rate: ((rates) => (rates.length ? mean(rates) : null))(readMetrics(dir).flatMap((m) => (m.phase === "rl" && typeof m.hack_rate === "number" ? [m.hack_rate] : []))),
    };
    const result: TrainResult = {
      run_dir: dir, backend: run.backend.name, executor: this.executor, steps: step, resumed_from: run.resumedFrom, stopped, final,
      guard: run.guard.history, ...(run.gap ? { gap_check: run.gap } : {}), sft_end: { step: Math.min(run.sft.end, step), reason: run.sft.reason, checks: run.sft.checks }, parameters: policy.parameterCount(), wall_s: (Date.now() - run.started) / 1000,
    };
    if (run.wm) {
      result.world_model = run.wm.evaluate(policy);
      await saveWorldModel(join(dir, "world_model"), run.wm.head, policy, { prior: run.wm.prior, step, eval: result.world_model });
    }
    writeFileSync(join(dir, "summary.json"), JSON.stringify(result, null, 2));
    writeFileSync(join(dir, "training.html"), toHTML([...trainingFigures(readMetrics(dir)), ...(run.gap ? gapCheckFigures(run.gap) : [])], "composer-lab training run"));
    run.optimizer?.dispose();
    for (const p of new Set([policy, run.base, run.ema])) p?.dispose();
    run.wm?.dispose();
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

  private async sftStep(run: RunState): Promise<StepResult> {
    const { policy } = run;
    const { rows, layers } = await this.sftRows(run.env, run.tasks.sft, run.rng, policy.config.block_size);
    const packed = packRows(rows, policy.config.block_size);
    // The SFT phase is the lm_ce channel alone, at weight 1 (channels.ts).
    const { value, grads } = tf.variableGrads(() => sftLoss(completionLogits(policy, packed), packed.targets, packed.mask), policy.variables());
    const grad_norm = clipGrads(grads, this.config.grad_clip);
    run.optimizer!.applyGradients(grads);
    const loss = value.dataSync()[0]!;
    tf.dispose([value, ...Object.values(grads)]);
    const tokens = packed.tokens;
    disposePacked(packed);
    const metrics: StepMetrics = {
      step: run.step, phase: "sft", rollouts: 0, reward_mean: null, reward_std: null, valid_rate: null, loss_total: loss,
      ...idleChannelMetrics(), loss_lm_ce: loss, hint_layers: layers, grad_norm, tokens_per_s: 0, elapsed_s: 0,
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

  /**
   * One RL step: rollouts → each enabled channel's rows (channels.ts, in registry order) → one
   * gradient tape over every channel's loss, total = composeLoss → one Adam step.
   */
  private async rlStep(run: RunState): Promise<StepResult> {
    const c = this.config;
    const { env, policy, rng } = run;
    const G = c.rl.num_generations;
    const bs = policy.config.block_size;

    // 1. Rollouts: G completions of each drawn task, graded (rollout.ts sampleGroups).
    const tasks = this.drawTasks(run.tasks.rl, rng, c.rl.prompts_per_step);
    const { groups, grade_s } = await sampleGroups(env, policy, tasks, {
      num_generations: G, max_new_tokens: c.rl.max_completion_length, temperature: c.rl.temperature, top_k: c.rl.top_k, top_p: c.rl.top_p, rng, concurrency: this.gradeConcurrency,
    });
    const grades = groups.flat().map((r) => r.grade);
    const rewards = grades.map((g) => g.reward);
    const events: CurriculumEvent[] = this.curriculum ? this.curriculum.observeBatch(tasks.flatMap((t) => Array<string>(G).fill(t.task_id)), rewards) : [];

    // 2. Each enabled channel's rows, online and replayed, with its constants (reference, teacher) off the tape.
    const tau = c.rl.temperature;
    const ctx: ChannelContext = {
      env, policy, base: run.base, ema: run.ema, groups, step: run.step, rng, block_size: bs, hints: this.hints,
      logits: (pol, pk) => temperatureScaled(completionLogits(pol, pk), tau),
      replay: { sdpo: this.sdpoData, dpo: this.dpoData },
      demonstrations: async () => (await this.sftRows(env, run.tasks.sft, rng, bs)).rows,
    };
    const active: { ch: AnyChannel; cfg: unknown; batch: ChannelBatch<unknown> }[] = [];
    for (const { ch, cfg } of enabledOrNot(c).filter((x) => x.enabled)) active.push({ ch, cfg, batch: await ch.rows(ctx, cfg) });

    // 3. One tape over every channel's loss; the total is composeLoss (the sdpo_blend of grpo and sdpo, plus the others).
    const losses: Record<string, number | null> = {};
    const channelMetrics: Record<string, number | null> = {};
    const { value, grads } = tf.variableGrads(() => {
      const terms: LossChannels = {};
      for (const { ch, cfg, batch } of active) {
        const r = ch.loss(ctx, batch, cfg);
        if (r.loss) terms[ch.name as ChannelName] = r.loss;
        losses[`loss_${ch.name}`] = r.loss ? r.loss.dataSync()[0]! : null;
        Object.assign(channelMetrics, r.metrics);
      }
      return composeLoss(terms, c.loss_weights);
    }, policy.variables());
    const grad_norm = clipGrads(grads, c.grad_clip);
    run.optimizer!.applyGradients(grads);
    const total = value.dataSync()[0]!;
    tf.dispose([value, ...Object.values(grads)]);
    for (const { batch } of active) batch.dispose();

    // 4. The step's metrics: the channels' (idle where not computed), the rollouts', the curriculum's.
    const hintLayers: Record<string, number> = {};
    for (const { batch } of active) for (const [l, n] of Object.entries(batch.hint_layers ?? {})) hintLayers[l] = (hintLayers[l] ?? 0) + n;
    const metrics: StepMetrics = {
      step: run.step, phase: "rl", rollouts: 0, reward_mean: mean(rewards), reward_std: std(rewards), valid_rate: mean(grades.map((g) => (g.valid ? 1 : 0))), hack_rate: hackRateOf(grades),
      loss_total: total, ...idleChannelMetrics(), ...Object.assign({}, ...active.map(({ batch }) => batch.metrics)), ...channelMetrics, ...losses,
      hint_layers: hintLayers, grad_norm, tokens_per_s: 0, elapsed_s: 0, grade_s,
      ...(this.curriculum ? { curriculum: { ...this.curriculum.summary(), events: events.map(({ step: _s, ...e }) => e) } } : {}),
    };
    const tokens = active.reduce((n, { batch }) => n + batch.tokens, 0);
    return { metrics, tokens };
  }
}

/** A run's state across the phase loop: what resume() restores, the loop advances and finalEvaluation() reads. */
interface RunState {
  env: Environment<EnvTask>;
  tasks: { train: EnvTask[]; heldout: EnvTask[]; sft: EnvTask[]; rl: EnvTask[] };
  backend: BackendInfo;
  dir: string;
  metricsPath: string;
  ckptDir: string;
  started: number;
  policy: Policy;
  step: number;
  rng: Rng;
  guard: HeldOutGuard;
  rollouts: number;
  resumedFrom: number | null;
  /** The checkpoint resumed from and its phase: its Adam moments restore that phase's optimizer. */
  saved: LoadedCheckpoint | null;
  savedPhase: string | null;
  /** Where SFT ends (sft.steps, or sft.until's step) and why; sft.until's checks so far and met in a row. */
  sft: { end: number; reason: "converged" | "cap" | "steps"; checks: number; met: number };
  /** The post-SFT reference (when a channel reads it) and the EMA teacher (teacher_model_kind ema). */
  base: Policy | null;
  ema: Policy | null;
  gap: GapCheck | null;
  wm: WorldModelStepper | null;
  phase: "sft" | "rl" | null;
  optimizer: tf.Optimizer | null;
  stopped: string | null;
  lastRl: number | null;
  rlSteps: number;
}

const totalSteps = (run: RunState): number => run.sft.end + run.rlSteps;
