/** `composer-lab experiment sdpo-control`: the SDPO positive and negative controls (lib/train control.ts). */
import type { Command } from "commander";
import { scratchDir, timestampSlug } from "../../core/index.js";
import { runSdpoControl } from "../../train/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { wholeNumber } from "../args.js";
import { backendOption, jsonOpt, resolveBackend } from "../options.js";
import { emit, log } from "../output.js";
import type { BackendChoice } from "../../backend/index.js";

export function registerExperiment(program: Command): void {
  const exp = program.command("experiment").description("controlled experiments that check a training method can show its effect (sdpo-control: SDPO's positive and negative controls)");
  exp
    .command("sdpo-control")
    .description("SDPO's positive and negative controls on the hint_answer environment (the answer is only in the feedback): after hinted SFT, greedy unhinted pass on RL tasks SFT never showed, for GRPO alone, SDPO with the feedback as the teacher's hint (frozen base teacher), and SDPO with a same-length uninformative hint")
    .option("--run-dir <dir>", "run folder (default scratch/runs/sdpo-control-<timestamp>)")
    .option("--seed <s>", "seed (tasks, init, data order, sampling; default 1)", wholeNumber(-(2 ** 31)))
    .option("--sft-steps <n>", "SFT steps (default: lib/train control.ts)", wholeNumber(1))
    .option("--rl-steps <n>", "RL steps per arm, 32 rollouts each (default: lib/train control.ts)", wholeNumber(1))
    .option("--ema", "also run the positive control with an EMA teacher (TRL's default teacher)")
    .addOption(backendOption())
    .addOption(jsonOpt())
    .action(async (o: { runDir?: string; seed?: number; sftSteps?: number; rlSteps?: number; ema?: boolean; backend?: BackendChoice; json?: boolean }) => {
      await resolveBackend(o);
      const dir = o.runDir ?? scratchDir("runs", `sdpo-control-${timestampSlug()}`);
      const r = await runSdpoControl(dir, { ...(o.seed !== undefined ? { seed: o.seed } : {}), ...(o.sftSteps ? { sft_steps: o.sftSteps } : {}), ...(o.rlSteps ? { rl_steps: o.rlSteps } : {}), ema: !!o.ema }, o.json ? undefined : log);
      const result = {
        ok: r.positive_ok && r.negative_ok, run_dir: r.run_dir, options: r.options, sft_rl_tasks_pass: r.sft_rl_tasks_pass,
        pass_rates: Object.fromEntries(r.arms.map((a) => [a.arm, a.rl_tasks_pass])), rl_tasks_n: r.arms[0]?.rl_tasks_n ?? 0,
        positive_ok: r.positive_ok, negative_ok: r.negative_ok, arms: r.arms, wall_s: r.wall_s,
      };
      emit(!!o.json, result, () => [
        tableText(fromRows(r.arms.map((a) => ({ arm: a.arm, rl_tasks_pass: a.rl_tasks_pass, n: a.rl_tasks_n, rollouts: a.rollouts, sdpo_rows: a.sdpo_rows, wall_s: a.wall_s })))),
        `after SFT: ${r.sft_rl_tasks_pass}; positive control ${r.positive_ok ? "passed" : "FAILED"} (sdpo ≥ 0.8, grpo ≤ 0.2); negative control ${r.negative_ok ? "passed" : "FAILED"} (uninformative hint ≤ SFT + 0.2); ${r.run_dir}`,
      ].join("\n"));
      if (!result.ok) process.exitCode = 1;
    });
}
