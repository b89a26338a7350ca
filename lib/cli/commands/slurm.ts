/** `composer-lab slurm-task`: the node side of the slurm executor (started by sbatch, not by hand). */
import type { Command } from "commander";
import { runSlurmTask, stopSandboxesOnTerm } from "../../executor/slurm.js";
import { jsonOpt } from "../options.js";
import { emit } from "../output.js";
import { wholeNumber } from "../args.js";

export function registerSlurm(program: Command): void {
  program
    .command("slurm-task", { hidden: true })
    .description("run one task of a slurm executor job array in the local sandbox (started by sbatch)")
    .argument("<dir>", "the array's folder (jobs.json, results/)")
    .argument("<task>", "the array task (SLURM_ARRAY_TASK_ID)", wholeNumber(0))
    .addOption(jsonOpt())
    .action(async (dir: string, t: number, o: { json?: boolean }) => {
      stopSandboxesOnTerm();
      const rs = await runSlurmTask(dir, t);
      const jobs = rs.map((r) => ({ index: r.index, node: r.node, exitCode: r.run?.exitCode ?? null, error: r.error }));
      emit(!!o.json, { ok: rs.every((r) => r.error === null), task: t, jobs }, () => jobs.map((j) => `job ${j.index} on ${j.node}: ${j.error ?? `exit ${j.exitCode}`}`).join("\n"));
    });
}
