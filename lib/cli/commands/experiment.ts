/** `composer-lab experiment sdpo-control`: the SDPO positive and negative controls (lib/train control.ts). */
import type { Command } from "commander";
import { scratchDir, timestampSlug } from "../../core/index.js";
import { runSdpoControls } from "../../train/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { wholeNumber } from "../args.js";
import { jsonOpt } from "../options.js";
import { backendOption, resolveBackend } from "../backend.js";
import { emit, log } from "../output.js";
import type { BackendChoice } from "../../backend/index.js";

export function registerExperiment(program: Command): void {
  const exp = program.command("experiment").description("controlled experiments that check a training method can show its effect (sdpo-control: SDPO's positive and negative controls)");
  exp
    .command("sdpo-control")
    .description("SDPO's positive and negative controls on the hint_answer environment (the answer is only in the feedback): after hinted SFT, greedy unhinted pass on RL tasks SFT never showed, for GRPO alone, SDPO with the feedback as the teacher's hint (frozen base teacher, and TRL's EMA teacher), and SDPO with a same-length uninformative hint; every arm keeps an lm_ce anchor on the SFT tasks")
    .option("--run-dir <dir>", "run folder (default scratch/runs/sdpo-control-<timestamp>)")
    .option("--seed <s>", "seed (tasks, init, data order, sampling; default 1)", wholeNumber(-(2 ** 31)))
    .option("--seeds <list>", "several seeds, comma-separated (e.g. 1,2,3,4,5): each runs the controls in turn; overrides --seed")
    .option("--sft-steps <n>", "SFT's step cap (default: lib/train control.ts); SFT ends earlier once the hinted teacher passes held-out tasks (sft.until)", wholeNumber(1))
    .option("--no-sft-until", "train SFT for exactly --sft-steps (no convergence check)")
    .option("--rl-steps <n>", "RL steps per arm, 32 rollouts each (default: lib/train control.ts)", wholeNumber(1))
    .option("--sft-from <dir>", "reuse the SFT of an earlier control run folder (its seed-S/sft, checked to match this recipe), e.g. datasets/train/sdpo-control/run")
    .option("--no-ema", "skip the positive control with an EMA teacher (TRL's default teacher; run by default)")
    .option("--no-frozen", "skip the positive control with the frozen (base) teacher (run by default; not with --no-ema)")
    .addOption(backendOption())
    .addOption(jsonOpt())
    .action(async (o: { runDir?: string; seed?: number; seeds?: string; sftSteps?: number; sftUntil: boolean; rlSteps?: number; sftFrom?: string; ema: boolean; frozen: boolean; backend?: BackendChoice; json?: boolean }) => {
      await resolveBackend(o);
      const seeds = o.seeds !== undefined ? o.seeds.split(",").map((x, i) => {
        const n = Number(x.trim());
        if (!x.trim() || !Number.isInteger(n)) throw new Error(`--seeds ${o.seeds}: item ${i + 1} (${JSON.stringify(x)}) is not a whole number`);
        return n;
      }) : [o.seed ?? 1];
      const dir = o.runDir ?? scratchDir("runs", `sdpo-control-${timestampSlug()}`);
      const r = await runSdpoControls(dir, seeds, { ...(o.sftSteps ? { sft_steps: o.sftSteps } : {}), ...(o.rlSteps ? { rl_steps: o.rlSteps } : {}), ...(o.sftFrom ? { sft_from: o.sftFrom } : {}), sft_until: o.sftUntil, ema: o.ema, frozen: o.frozen }, o.json ? undefined : log);
      const perSeed = r.per_seed.map((s) => ({
        ok: s.positive_ok && s.negative_ok, seed: s.options.seed, run_dir: s.run_dir, options: s.options, sft_rl_tasks_pass: s.sft_rl_tasks_pass, sft_end: s.sft_end, sft_checks: s.sft_checks,
        pass_rates: Object.fromEntries(s.arms.map((a) => [a.arm, a.rl_tasks_pass])), rl_tasks_n: s.arms[0]?.rl_tasks_n ?? 0,
        positive_ok: s.positive_ok, negative_ok: s.negative_ok, arms: s.arms, wall_s: s.wall_s,
      }));
      const result = { ok: r.ok, run_dir: dir, seeds, summary: r.summary, per_seed: perSeed, wall_s: r.wall_s };
      emit(!!o.json, result, () => [
        tableText(fromRows(r.summary.map((a) => ({ arm: a.arm, n: a.n, mean: a.mean, sd: a.sd ?? "–", per_seed: a.per_seed.map((x) => x.toFixed(3)).join(", ") })))),
        ...perSeed.map((s) => `seed ${s.seed} (${s.rl_tasks_n} RL tasks): SFT ended at step ${s.sft_end?.step ?? "?"} (${s.sft_end?.reason ?? "?"}), unhinted pass ${s.sft_rl_tasks_pass}; positive control ${s.positive_ok ? "passed" : "FAILED"} (${[...(s.options.frozen ? ["sdpo"] : []), ...(s.options.ema ? ["sdpo-ema"] : [])].join(" and ")} ≥ 0.8, grpo ≤ 0.2); negative control ${s.negative_ok ? "passed" : "FAILED"} (uninformative hint ≤ SFT + 0.2)`),
        dir,
      ].join("\n"));
      if (!result.ok) process.exitCode = 1;
    });
}
