/** `composer-lab sandbox …` and `composer-lab grade`. */
import type { Command } from "commander";
import { readTextGuarded } from "../../core/index.js";
import { resolve } from "node:path";
import { gradeCompletion } from "../../env/index.js";
import { DEFAULT_IMAGE, buildBaseImage, checkSandboxes, dockerClient, ensureDockerd, getSandbox, type SandboxChoice } from "../../sandbox/index.js";
import { loadTask } from "../../tasks/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { jsonOpt, sandboxChoice } from "../options.js";
import { emit, log } from "../output.js";

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
    .option("--timeout <ms>", "wall-clock limit", "60000")
    .option("--memory <mb>", "memory limit", "1024")
    .option("--cpus <n>", "CPU limit", "1")
    .option("--pids <n>", "process limit", "256")
    .addOption(jsonOpt())
    .action(async (command: string[], o: { workdir: string; sandbox: SandboxChoice; timeout: string; memory: string; cpus: string; pids: string; json?: boolean }) => {
      const sb = await getSandbox(o.sandbox);
      const r = await sb.run(command, { workdir: resolve(o.workdir), timeoutMs: Number(o.timeout), memoryMb: Number(o.memory), cpus: Number(o.cpus), pids: Number(o.pids) });
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
    .requiredOption("--task <id>", "task id")
    .requiredOption("--patch <file>", "the completion: a unified diff, or a JSON action transcript")
    .addOption(sandboxChoice())
    .addOption(jsonOpt())
    .action(async (pool: string, o: { task: string; patch: string; sandbox: SandboxChoice; json?: boolean }) => {
      const task = loadTask(resolve(pool), o.task);
      const completion = await readTextGuarded(o.patch, { maxBytes: 16 * 1024 * 1024 });
      if (completion === null) throw new Error(`${o.patch}: no such file`);
      const g = await gradeCompletion(task, completion, await getSandbox(o.sandbox));
      if (g.error !== null) process.exitCode = 1; // a completion that cannot be graded is a failed command
      emit(!!o.json, { ok: g.error === null, task: task.task_id, ...g }, () =>
        [
          `reward ${g.reward.toFixed(3)}  (frac ${g.frac.toFixed(3)}, guard ${g.guardOk ? "ok" : "BROKEN"}, ${g.hacked ? "HACKED" : "not hacked"})${g.error ? `  error: ${g.error}` : ""}`,
          ...g.flags.map((f) => `  flag ${f.kind}: ${f.detail}`),
          "",
          tableText(fromRows(g.perTest.map((t) => ({ group: t.group, test: t.nodeid, outcome: t.outcome })))),
        ].join("\n"),
      );
    });
}
