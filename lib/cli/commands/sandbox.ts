/** `composer-lab sandbox …` and `composer-lab grade`. */
import type { Command } from "commander";
import { progress, readTextGuarded } from "../../core/index.js";
import { gradeMany, poolCompletions, type ExecutorName } from "../../executor/index.js";
import { resolve } from "node:path";
import { gradeCompletion } from "../../env/index.js";
import { DEFAULT_IMAGE, buildBaseImage, checkSandboxes, dockerClient, ensureDockerd, getSandbox, type SandboxChoice } from "../../sandbox/index.js";
import { loadTask } from "../../tasks/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { withExecutor } from "../executor.js";
import { executorChoice, jsonOpt, sandboxChoice } from "../options.js";
import { emit, log } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";

export function registerSandbox(program: Command): void {
  const sandbox = program.command("sandbox").description("sandboxed execution: bubblewrap and Docker");
  sandbox
    .command("check")
    .description("which sandboxes work here, and why not")
    .addOption(jsonOpt())
    .action(async (o: { json?: boolean }) => {
      const r = await checkSandboxes();
      emit(!!o.json, { ok: r.bwrap.ok || r.docker.ok, ...r }, () => tableText(fromRows(Object.entries(r).map(([name, c]) => ({ sandbox: name, ok: c.ok, why: c.why ?? "", detail: JSON.stringify(c.detail ?? {}) })))));
    });
  sandbox
    .command("exec")
    .description("run a command in a sandbox: composer-lab sandbox exec --workdir DIR -- CMD ARGS...")
    .argument("<command...>", "the command and its arguments (after --)")
    .requiredOption("--workdir <dir>", "host directory bound writable at /work")
    .addOption(sandboxChoice())
    .option("--timeout <ms>", "wall-clock limit", wholeNumber(1), 60000)
    .option("--memory <mb>", "memory limit", wholeNumber(1), 1024)
    .option("--cpus <n>", "CPU limit", realNumber(0, Infinity, { above: true }), 1)
    .option("--pids <n>", "process limit", wholeNumber(1), 256)
    .addOption(jsonOpt())
    .action(async (command: string[], o: { workdir: string; sandbox: SandboxChoice; timeout: number; memory: number; cpus: number; pids: number; json?: boolean }) => {
      const sb = await getSandbox(o.sandbox);
      const r = await sb.run(command, { workdir: resolve(o.workdir), timeoutMs: o.timeout, memoryMb: o.memory, cpus: o.cpus, pids: o.pids });
      emit(!!o.json, { ok: r.exitCode === 0 && !r.timedOut, ...r }, () => {
        process.stderr.write(r.stderr);
        return r.stdout;
      });
      if (r.exitCode !== 0 || r.timedOut) process.exitCode = r.exitCode && r.exitCode > 0 ? r.exitCode : 1;
    });
  sandbox
    .command("dockerd")
    .description("start a Docker engine for the lab when none answers (no iptables changes, no bridge)")
    .addOption(jsonOpt())
    .action(async (o: { json?: boolean }) => {
      const d = await ensureDockerd({ log });
      emit(!!o.json, { ok: true, socket: d.socketPath, started: d.process !== null }, () => `Docker engine at ${d.socketPath}${d.process ? " (started; it keeps running)" : ""}`);
      d.process?.unref();
    });
  sandbox
    .command("image")
    .description("build the Docker base image without a registry (debootstrap + import; about 2 minutes)")
    .option("--image <name>", "image name", DEFAULT_IMAGE)
    .option("--force", "rebuild even when it exists")
    .addOption(jsonOpt())
    .action(async (o: { image: string; force?: boolean; json?: boolean }) => {
      const d = await ensureDockerd({ log });
      const r = await buildBaseImage(dockerClient(d.socketPath), { image: o.image, force: o.force, log });
      emit(!!o.json, { ok: true, ...r, socket: d.socketPath }, () => `${r.image} ${r.built ? `built in ${r.seconds.toFixed(0)} s` : "already present"} (engine at ${d.socketPath})`);
      d.process?.unref();
    });

  program
    .command("grade")
    .description("grade a patch (unified diff or action transcript) against a task of a pool, in the sandbox")
    .argument("<poolDir>", "task pool (index.jsonl, tasks/, golden/)")
    .option("--task <id>", "one task (default: every task of the pool that has a completion)")
    .option("--patch <file>", "with --task: the completion, a unified diff or a JSON action transcript")
    .option("--patches <dir>", "every task: <dir>/<task_id>.diff or .json")
    .option("--golden", "every task: its own golden diff (checks a pool, or an executor)")
    .addOption(sandboxChoice())
    .addOption(executorChoice())
    .option("--concurrency <n>", "jobs in flight at once (default: the executor's)", wholeNumber(1))
    .addOption(jsonOpt())
    .action(async (pool: string, o: { task?: string; patch?: string; patches?: string; golden?: boolean; sandbox: SandboxChoice; executor: ExecutorName; concurrency?: number; json?: boolean }) => {
      const { concurrency } = o;
      if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) throw new Error(`--concurrency: expected a positive integer, got "${o.concurrency}"`);
      if ([o.patch, o.patches, o.golden].filter(Boolean).length !== 1) throw new Error("pass exactly one of --patch FILE (with --task), --patches DIR, --golden");
      if (o.patch && !o.task) throw new Error("--patch needs --task");
      await withExecutor(o.executor, { sandbox: o.sandbox, concurrency }, async (executor) => {
        if (o.patch) {
          const task = loadTask(resolve(pool), o.task!);
          const completion = await readTextGuarded(o.patch, { maxBytes: 16 * 1024 * 1024 });
          if (completion === null) throw new Error(`${o.patch}: no such file`);
          const g = await gradeCompletion(task, completion, executor.asSandbox());
          if (g.error !== null) process.exitCode = 1; // a completion that cannot be graded is a failed command
          emit(!!o.json, { ok: g.error === null, task: task.task_id, executor: o.executor, ...g }, () =>
            [
              // a completion that could not be graded ran no test: say that, not "guard BROKEN"
              g.error ? `not graded (no test ran): ${g.error}` : `reward ${g.reward.toFixed(3)}  (frac ${g.frac.toFixed(3)}, guard ${g.guardOk ? "ok" : "BROKEN"}, ${g.hacked ? "HACKED" : "not hacked"})`,
              ...g.flags.map((f) => `  flag ${f.kind}: ${f.detail}`),
              "",
              tableText(fromRows(g.perTest.map((t) => ({ group: t.group, test: t.nodeid, outcome: t.outcome })))),
            ].join("\n"),
          );
          return;
        }
        const items = await poolCompletions(resolve(pool), o.golden ? { golden: true } : { dir: resolve(o.patches!) }, o.task ? [o.task] : undefined);
        const bar = progress(items.length, `grade (${o.executor})`);
        const t0 = performance.now();
        const grades = await gradeMany(items, executor, { onGrade: (g) => bar.tick(1, `${g.task_id} ${g.reward.toFixed(2)}`) });
        bar.stop();
        const seconds = (performance.now() - t0) / 1000;
        const errors = grades.filter((g) => g.error !== null).length;
        if (errors) process.exitCode = 1;
        const rows = grades.map((g) => ({ task: g.task_id, completion: g.label, reward: g.reward, frac: g.frac, guardOk: g.guardOk, hacked: g.hacked, flags: g.flags.map((f) => f.kind), error: g.error }));
        const meanReward = grades.reduce((a, g) => a + g.reward, 0) / grades.length;
        emit(!!o.json, { ok: errors === 0, executor: o.executor, n: grades.length, meanReward, seconds, grades: rows }, () =>
          `${tableText(fromRows(rows.map((r) => ({ ...r, flags: r.flags.join(","), error: r.error ?? "" }))))}\n\n${grades.length} graded on ${o.executor} in ${seconds.toFixed(1)} s, mean reward ${meanReward.toFixed(3)}${errors ? `, ${errors} could not be graded` : ""}`,
        );
      });
    });
}
