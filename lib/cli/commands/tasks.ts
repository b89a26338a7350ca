/** `composer-lab tasks …` */
import { Option, type Command } from "commander";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { getSandbox, type SandboxChoice } from "../../sandbox/index.js";
import { buildFromGitHistory, buildFromRepo, buildFromSweInstances, isCopyleft, loadTask, readIndex, type BuildReport } from "../../tasks/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { jsonOpt, sandboxChoice } from "../options.js";
import { emit, log } from "../output.js";
import { registerMicro } from "./micro.js";

export function registerTasks(program: Command): void {
  const tasksCmd = program.command("tasks").description("feature-deletion tasks: build, list, show, export, micro");
  registerMicro(tasksCmd);
  tasksCmd
    .command("build")
    .description("build validated feature-deletion tasks from a Python repo (all four gates in the sandbox)")
    .argument("<repoDir>", "a Python repo with a pytest suite (a git checkout for --path git/swe)")
    .requiredOption("--out <dir>", "the task pool to write (resumable: rerun to continue)")
    .addOption(new Option("--path <path>", "ast: coverage-mapped deletion; git: revert commits' code; swe: SWE-bench instances").choices(["ast", "git", "swe"]).default("ast"))
    .addOption(new Option("--granularity <g>", "what one deletion removes").choices(["function", "class", "file"]).default("function"))
    .option("--instances <file>", "SWE-bench-style instances (JSON/JSONL), with --path swe")
    .option("--max <n>", "validated tasks to emit at most", "20")
    .addOption(new Option("--mode <mode>", "stub the body or remove the definition").choices(["stub", "remove"]).default("stub"))
    .option("--features <n>", "independent deletions per task (multi-feature)", "1")
    .option("--strip-docstring", "hint starvation: drop the deleted code's docstring")
    .option("--strip-type-hints", "hint starvation: drop the signature's type hints")
    .option("--max-coupling <f>", "largest share of the suite that may touch a candidate", "0.5")
    .option("--concurrency <n>", "candidates validated at once", "2")
    .option("--repo-name <name>", "name recorded as the task's repo")
    .addOption(sandboxChoice())
    .addOption(jsonOpt())
    .action(async (repo: string, o: { out: string; path: "ast" | "git" | "swe"; granularity: "function" | "class" | "file"; instances?: string; max: string; mode: "stub" | "remove"; features: string; stripDocstring?: boolean; stripTypeHints?: boolean; maxCoupling: string; concurrency: string; repoName?: string; sandbox: SandboxChoice; json?: boolean }) => {
      const sb = await getSandbox(o.sandbox);
      const opts = { granularity: o.granularity, max: Number(o.max), mode: o.mode, features: Number(o.features), strip_docstring: !!o.stripDocstring, strip_type_hints: !!o.stripTypeHints, max_coupling: Number(o.maxCoupling), concurrency: Number(o.concurrency), repo_name: o.repoName };
      const hooks = { log };
      const out = resolve(o.out);
      let r: BuildReport;
      if (o.path === "git") r = await buildFromGitHistory(resolve(repo), out, sb, opts, hooks);
      else if (o.path === "swe") {
        if (!o.instances) throw new Error("--path swe needs --instances FILE");
        r = await buildFromSweInstances(resolve(o.instances), resolve(repo), out, sb, opts, hooks);
      } else r = await buildFromRepo(resolve(repo), out, sb, opts, hooks);
      const { rejections, ...rest } = r;
      for (const x of rejections) log(`rejected ${x.id} (${x.gate}): ${x.reason}`);
      emit(!!o.json, { ok: true, ...rest, rejections }, () =>
        [
          `${r.validated} validated (+${r.resumed} from before) of ${r.candidates} candidates in ${r.seconds.toFixed(1)} s; rejected: ${Object.entries(r.rejected).map(([g, n]) => `${g} ${n}`).join(", ")}`,
          `test runs: ${r.testRuns.invocations} pytest invocations, ${r.testRuns.tests} tests = ${r.testRuns.suite_equivalents} suite-equivalents (${r.testRuns.per_validated_task ?? "-"} per validated task)`,
          `pool: ${out}`,
        ].join("\n"),
      );
    });
  tasksCmd
    .command("list")
    .description("the tasks of a pool (never their golden diffs)")
    .argument("<poolDir>")
    .addOption(jsonOpt())
    .action((pool: string, o: { json?: boolean }) => {
      const tasks = readIndex(resolve(pool)).map(({ golden_diff_path: _g, deleted_symbols: _d, ...t }) => t);
      emit(!!o.json, { ok: true, tasks }, () => tableText(fromRows(tasks.map((t) => ({ task_id: t.task_id, granularity: t.granularity, fail_to_pass: t.fail_to_pass.length, pass_to_pass: t.pass_to_pass.length, license: t.upstream_license })))));
    });
  tasksCmd
    .command("show")
    .description("one task: its deletion (golden) diff and failing tests — for researchers, never shown to an agent")
    .argument("<poolDir>")
    .requiredOption("--task <id>", "task id")
    .addOption(jsonOpt())
    .action((pool: string, o: { task: string; json?: boolean }) => {
      const t = loadTask(resolve(pool), o.task);
      emit(!!o.json, { ok: true, ...t }, () => [`${t.task_id} (${t.granularity}, ${t.upstream_license}): ${t.description}`, "FAIL_TO_PASS:", ...t.fail_to_pass.map((x) => `  ${x}`), `PASS_TO_PASS: ${t.pass_to_pass.length} tests`, "---- golden diff (held out) ----", t.golden_diff].join("\n"));
    });
  tasksCmd
    .command("export")
    .description("write a pool's tasks as JSONL for sharing; copyleft-licensed tasks are left out unless asked")
    .argument("<poolDir>")
    .requiredOption("--out <file>", "JSONL file to write")
    .option("--include-copyleft", "also export tasks whose upstream license is copyleft")
    .addOption(jsonOpt())
    .action((pool: string, o: { out: string; includeCopyleft?: boolean; json?: boolean }) => {
      const all = readIndex(resolve(pool)).map((e) => loadTask(resolve(pool), e.task_id));
      const kept = all.filter((t) => o.includeCopyleft || !isCopyleft(t.upstream_license));
      writeFileSync(o.out, kept.map((t) => JSON.stringify(t)).join("\n") + (kept.length ? "\n" : ""));
      emit(!!o.json, { ok: true, exported: kept.length, excluded_copyleft: all.length - kept.length, out: resolve(o.out) }, () => `${kept.length} tasks → ${o.out} (${all.length - kept.length} copyleft left out)`);
    });
}
