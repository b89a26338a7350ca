/** `composer-lab tasks micro`: generated micro packages → validated tasks → a store run (rl_task_pool, sft_corpus, holdout). */
import { Option, type Command } from "commander";
import { join, resolve } from "node:path";
import { publishTasks } from "../../env/index.js";
import { getSandbox, type SandboxChoice } from "../../sandbox/index.js";
import { HeldoutSplit, RunLayout, openStore } from "../../store/index.js";
import { buildMicroTasks } from "../../tasks/index.js";
import { jsonOpt, sandboxChoice } from "../options.js";
import { emit, log } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";

export function registerMicro(tasksCmd: Command): void {
  tasksCmd
    .command("micro")
    .description("generate small Python packages of short pure functions with pytest tests, build them into tasks with the real builder (Path B, scrub, four gates), and publish them to a store run: rl_task_pool + sft_corpus (golden bodies) for training tasks, holdout for the rest")
    .requiredOption("--out <dir>", "output folder: packages/, pool/ (the task pool) and store/ (unless --store)")
    .option("--n <n>", "functions to generate (tasks before the gates)", wholeNumber(1), 24)
    .option("--seed <s>", "generator seed", wholeNumber(-(2 ** 31)), 0)
    .option("--per-package <n>", "functions per generated package", wholeNumber(2, 12), 6)
    .option("--store <uri>", "store folder or s3://bucket/prefix (default <out>/store)")
    .option("--run-id <id>", "store run id (default micro-s<seed>)")
    .option("--holdout <f>", "share of tasks held out (by a hash of the task id)", realNumber(0, 1, { below: true }), 0.25)
    .option("--concurrency <n>", "candidates validated at once", wholeNumber(1), 2)
    .addOption(new Option("--variant <name>", "stated: the docstring states the constants; hidden_constants: it does not (the failing assertion or a passing body carries them)").choices(["stated", "hidden_constants"]).default("stated"))
    .addOption(sandboxChoice())
    .addOption(jsonOpt())
    .action(async (o: { out: string; n: number; seed: number; perPackage: number; store?: string; runId?: string; holdout: number; concurrency: number; variant: "stated" | "hidden_constants"; sandbox: SandboxChoice; json?: boolean }) => {
      const { seed, holdout: fraction } = o;
      const out = resolve(o.out);
      const sandbox = await getSandbox(o.sandbox);
      const built = await buildMicroTasks(out, sandbox, { n: o.n, seed, per_package: o.perPackage, concurrency: o.concurrency, variant: o.variant }, { log, quiet: !!o.json });
      const store = o.store ?? join(out, "store");
      const run_id = o.runId ?? `micro-s${seed}`;
      const run = new RunLayout(openStore(store), run_id, new HeldoutSplit(fraction, seed));
      const counts = await publishTasks(run, built.tasks, built.pool);
      const rejected = built.reports.reduce((a, r) => a + Object.values(r.rejected).reduce((x, y) => x + y, 0), 0);
      const errors = built.reports.flatMap((r) => r.errors);
      emit(!!o.json, { ok: true, out, pool: built.pool, store, run_id, variant: o.variant, packages: built.packages.length, tasks: built.tasks.length, rejected, errors, sections: counts, sandbox: sandbox.name }, () =>
        [
          `${built.tasks.length} tasks from ${built.packages.length} packages (${rejected} rejected by the gates, ${errors.length} errors) in ${built.pool}`,
          `store ${store} run ${run_id}: rl_task_pool ${counts.rl_task_pool}, sft_corpus ${counts.sft_corpus}, holdout ${counts.holdout}`,
        ].join("\n"),
      );
    });
}
