/** `composer-lab tasks …` */
import { Option, type Command } from "commander";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import type { ExecutorName } from "../../executor/index.js";
import type { Sandbox, SandboxChoice } from "../../sandbox/index.js";
import { CurriculumState, PassRateCurriculum } from "../../curriculum/index.js";
import { addCanaries, buildFromGitHistory, buildFromRepo, buildFromSweInstances, buildHarder, loadTask, readIndex, rebuildOracles, removeFromPool, type BuildReport, type FeatureDeletionTask } from "../../tasks/index.js";
import { SANDBOX_NAMES, getSandbox } from "../../sandbox/index.js";
import { auditPoolMutants, gradeCompletion } from "../../env/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { loadConfigFile } from "../../core/index.js";
import { withExecutor } from "../executor.js";
import { executorChoice, jsonOpt, sandboxChoice } from "../options.js";
import { emit, log } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";
import { registerMicro } from "./micro.js";
import { TASK_EXPORT_FORMATS, exportTasks } from "../../export/index.js";

/** The pool's declared sandbox kinds (--sandboxes, else <pool>/pool.json), recorded in pool.json,
 *  and the golden gate over them: the golden diff graded on each must earn 1 with no flag. */
/** The golden gate: each task's golden diff graded as `grade` grades it (every check, the monitor
 *  included) on every kind the pool declares, or else on the build's own sandbox (round 4, G1/G2:
 *  the gates' pytest passed goldens the full grade then scored 0). */
async function poolGate(pool: string, kinds: string | undefined, own: Sandbox): Promise<((t: FeatureDeletionTask) => Promise<{ ok: boolean; why: string }>) | null> {
  const file = join(pool, "pool.json");
  let declared: string[] = [];
  if (kinds) declared = kinds.split(",").map((k) => k.trim()).filter(Boolean);
  else if (existsSync(file)) {
    declared = loadConfigFile(file, PoolDeclaration).sandboxes;
  }
  if (!declared.length) return own.name === "none" ? null : goldenGrades([[own.name, own]]);
  const bad = declared.filter((k) => !(SANDBOX_NAMES as readonly string[]).includes(k) || k === "none");
  if (bad.length) throw new Error(`--sandboxes: unknown or unsandboxed kind ${bad.join(", ")} (bwrap, docker, gvisor)`);
  mkdirSync(pool, { recursive: true });
  writeFileSync(file, JSON.stringify({ sandboxes: declared }, null, 2) + "\n");
  return goldenGrades(await Promise.all(declared.map(async (k) => [k, await getSandbox(k as SandboxChoice)] as const)));
}

function goldenGrades(sandboxes: (readonly [string, Sandbox])[]): (t: FeatureDeletionTask) => Promise<{ ok: boolean; why: string }> {
  return async (t) => {
    const why: string[] = [];
    for (const [k, sb] of sandboxes) {
      const g = await gradeCompletion(t, t.golden_diff, sb);
      if (g.reward !== 1 || g.flags.length) why.push(`${k}: reward ${g.reward}${g.flags.length ? `, flags ${g.flags.map((f) => f.kind).join(", ")}` : ""}${g.error ? ` (${g.error.slice(0, 200)})` : ""}`);
    }
    return { ok: why.length === 0, why: why.join("; ") };
  };
}

/** <pool>/pool.json: what a pool declares about itself. */
const PoolDeclaration = z.object({ sandboxes: z.array(z.string()).default([]) });

export function registerTasks(program: Command): void {
  const tasksCmd = program.command("tasks").description("feature-deletion tasks: build, list, show, export, micro");
  registerMicro(tasksCmd);
  tasksCmd
    .command("build")
    .description("build validated feature-deletion tasks from a Python repo (all four gates in the sandbox)")
    .argument("[repoDir]", "a Python repo with a pytest suite (a git checkout for --path git/swe); optional with --harder-than")
    .requiredOption("--out <dir>", "the task pool to write (resumable: rerun to continue)")
    .addOption(new Option("--path <path>", "ast: coverage-mapped deletion; git: revert commits' code; swe: SWE-bench instances").choices(["ast", "git", "swe"]).default("ast"))
    .addOption(new Option("--granularity <g>", "what one deletion removes (file: the module; feature: a symbol and the helpers only it uses)").choices(["function", "class", "file", "feature"]).default("function"))
    .option("--instances <file>", "SWE-bench-style instances (JSON/JSONL), with --path swe")
    .option("--max <n>", "validated tasks to emit at most", wholeNumber(1), 20)
    .addOption(new Option("--mode <mode>", "stub the body or remove the definition").choices(["stub", "remove"]).default("stub"))
    .option("--features <n>", "independent deletions per task (multi-feature)", wholeNumber(1), 1)
    .option("--strip-docstring", "hint starvation: drop the deleted code's docstring")
    .option("--strip-type-hints", "hint starvation: drop the signature's type hints")
    .option("--starve-context <what>", "hint starvation of every file the deletion touches: docstrings,type_hints,comments")
    .option("--deps", "install the project's requirements and test extras into its venv (needs a package index)")
    .option("--no-pyenv", "test with the system Python (no per-repo venv)")
    .option("--no-strip-bundled", "keep bundled copies of the project (venvs, site-packages, wheels, vendored copies)")
    .option("--harder-than <pool>", "escalation: harder variants of the repos of this pool's (retired) tasks")
    .option("--curriculum <state.json>", "with --harder-than: a saved curriculum state; its escalation request names the retired tasks and the level")
    .option("--max-coupling <f>", "largest share of the suite that may touch a candidate", realNumber(0, 1), 0.5)
    .option("--concurrency <n>", "candidates validated at once", wholeNumber(1), 2)
    .option("--repo-name <name>", "name recorded as the task's repo")
    .option("--sandboxes <kinds>", "the golden gate: sandbox kinds the pool declares (e.g. bwrap,gvisor,docker; recorded in <out>/pool.json); a task enters only when its golden diff earns 1 unflagged on each")
    .option("--max-mutants <n>", "the mutation gate: mutants of the golden body graded for each symbol the behavioural check does not cover", wholeNumber(1), 24)
    .option("--no-mutants", "skip the mutation gate (tasks the behavioural check does not cover are then decided by their tests alone)")
    .addOption(sandboxChoice())
    .addOption(executorChoice())
    .addOption(jsonOpt())
    .action(async (repoArg: string | undefined, o: { maxMutants: number; mutants: boolean; out: string; path: "ast" | "git" | "swe"; granularity: "function" | "class" | "file" | "feature"; instances?: string; max: number; mode: "stub" | "remove"; features: number; stripDocstring?: boolean; stripTypeHints?: boolean; starveContext?: string; deps?: boolean; pyenv: boolean; stripBundled: boolean; harderThan?: string; curriculum?: string; maxCoupling: number; concurrency: number; repoName?: string; sandboxes?: string; sandbox: SandboxChoice; executor: ExecutorName; json?: boolean }) => {
      // the gates' pytest runs go to the executor (this host's sandbox pool by default)
      await withExecutor(o.executor, { sandbox: o.sandbox, concurrency: o.concurrency }, async (executor) => {
        const sb = executor.asSandbox();
        const starve = (o.starveContext ?? "").split(",").map((x) => x.trim()).filter(Boolean);
        const bad = starve.filter((x) => !["docstrings", "type_hints", "comments"].includes(x));
        if (bad.length) throw new Error(`--starve-context: unknown ${bad.join(", ")} (docstrings, type_hints, comments)`);
        const opts = {
          granularity: o.granularity, max: o.max, mode: o.mode, features: o.features, strip_docstring: !!o.stripDocstring, strip_type_hints: !!o.stripTypeHints, max_coupling: o.maxCoupling, concurrency: o.concurrency, repo_name: o.repoName,
          starve_context: starve as ("docstrings" | "type_hints" | "comments")[], deps: !!o.deps, pyenv: o.pyenv, strip_bundled: o.stripBundled,
          mutation: { enabled: o.mutants, max_mutants: o.maxMutants },
        };
        const out = resolve(o.out);
        const gate = await poolGate(out, o.sandboxes, sb);
        const hooks = { log, ...(gate ? { goldenGate: gate } : {}) };
        if (o.harderThan) {
          // Escalation: the curriculum's request (retired tasks, level), or every task of the pool.
          let request = null;
          if (o.curriculum) {
            const state = CurriculumState.safeParse(JSON.parse(readFileSync(o.curriculum, "utf8")));
            if (!state.success) throw new Error(`${o.curriculum}: not a saved curriculum state: ${state.error.issues[0]!.path.join(".") || "(root)"}: ${state.error.issues[0]!.message}`);
            request = PassRateCurriculum.restore(state.data).escalationRequest();
          }
          if (o.curriculum && !request) throw new Error(`${o.curriculum}: the curriculum has not asked for harder tasks (no escalation event yet)`);
          if (request && request.retired.length === 0) throw new Error(`${o.curriculum}: escalation level ${request.level} but no task is retired yet: nothing to make harder`);
          const h = await buildHarder(resolve(o.harderThan), out, sb, { retired: request?.retired, level: request?.level, sourceRepo: repoArg ? resolve(repoArg) : undefined, base: { max: o.max, concurrency: o.concurrency, deps: !!o.deps, pyenv: o.pyenv } }, hooks);
          emit(!!o.json, { ok: h.validated > 0, ...(h.validated > 0 ? {} : { error: "no harder task validated (see repos[].variants[].report)" }), request, ...h }, () =>
            [...h.repos.flatMap((r) => r.variants.map((v) => `${r.repo} [${v.knobs.join(", ")}]: ${v.report.validated}/${v.report.candidates} validated`)), `${h.validated} harder tasks in ${h.seconds.toFixed(1)} s → ${out}`].join("\n"));
          return;
        }
        if (!repoArg) throw new Error("tasks build: give a repo directory (or --harder-than POOL)");
        const repo = repoArg;
        let r: BuildReport;
        if (o.path === "git") r = await buildFromGitHistory(resolve(repo), out, sb, opts, hooks);
        else if (o.path === "swe") {
          if (!o.instances) throw new Error("--path swe needs --instances FILE");
          r = await buildFromSweInstances(resolve(o.instances), resolve(repo), out, sb, opts, hooks);
        } else r = await buildFromRepo(resolve(repo), out, sb, opts, hooks);
        const { rejections, ...rest } = r;
        for (const x of rejections) log(`rejected ${x.id} (${x.gate}): ${x.reason}`);
        // Zero candidates is a failure unless the report says why, per cause.
        const none = r.candidates === 0 && r.resumed === 0;
        const why = r.why_no_candidates ?? [];
        for (const n of r.environment?.notes ?? []) log(n);
        emit(!!o.json, { ok: !none, ...(none ? { error: `no candidates: ${why.map((w) => `${w.cause} (${w.detail})`).join("; ") || "no deletable code was found"}` } : {}), ...rest, rejections }, () =>
          [
            ...(none ? [`no candidates: ${why.map((w) => `${w.cause}: ${w.detail}`).join("; ") || "no deletable code was found"}`] : []),
            `${r.validated} validated (+${r.resumed} from before) of ${r.candidates} candidates in ${r.seconds.toFixed(1)} s; rejected: ${Object.entries(r.rejected).map(([g, n]) => `${g} ${n}`).join(", ")}`,
            `test runs: ${r.testRuns.invocations} pytest invocations, ${r.testRuns.tests} tests = ${r.testRuns.suite_equivalents} suite-equivalents (${r.testRuns.per_validated_task ?? "-"} per validated task)`,
            `pool: ${out}`,
          ].join("\n"),
        );
      });
    });
  tasksCmd
    .command("rebuild-oracle")
    .description("(re)build the behavioural oracle of a pool's tasks in place: the original's calls under the target tests and hidden inputs (<pool>/oracle/<id>.json, outside every snapshot)")
    .argument("<poolDir>")
    .option("--task <id...>", "only these tasks")
    .option("--concurrency <n>", "tasks at once", wholeNumber(1), 2)
    .addOption(sandboxChoice())
    .addOption(jsonOpt())
    .action(async (pool: string, o: { task?: string[]; concurrency: number; sandbox: SandboxChoice; json?: boolean }) => {
      const sb = await getSandbox(o.sandbox);
      const r = await rebuildOracles(resolve(pool), sb, { only: o.task, concurrency: o.concurrency, onTask: (id, x) => log(`${id}: ${x.status}${x.why ? ` (${x.why.slice(0, 160)})` : ""}`) });
      emit(!!o.json, { ok: r.status.error === 0, ...(r.status.error ? { error: `${r.status.error} oracle(s) could not be built (see rows[].why)` } : {}), ...r }, () =>
        [`${r.tasks} tasks in ${r.seconds.toFixed(1)} s: ${r.status.ok} checked, ${r.status.not_applicable} not applicable, ${r.status.error} errors; ${r.calls.visible} visible + ${r.calls.hidden} hidden calls, ${(r.bytes / 1024).toFixed(0)} KiB`, ...r.rows.filter((x) => x.status !== "ok").map((x) => `  ${x.task_id}: ${x.status}: ${x.why}`)].join("\n"));
    });
  tasksCmd
    .command("mutants")
    .description("the mutation gate on a pool's tasks: mutants of each golden body (a statement deleted, a value replaced by None, a branch forced) graded for every symbol the behavioural check does not cover; a mutant that passes every target and guard means the tests alone would pay a smaller body")
    .argument("<poolDir>")
    .option("--task <id...>", "only these tasks")
    .option("--max-mutants <n>", "mutants per task", wholeNumber(1), 24)
    .option("--prune", "remove the tasks a mutant survives from the pool (recorded as gate2 rejections in build-state.jsonl)")
    .option("--concurrency <n>", "tasks at once", wholeNumber(1), 1)
    .addOption(sandboxChoice())
    .addOption(jsonOpt())
    .action(async (pool: string, o: { task?: string[]; maxMutants: number; prune?: boolean; concurrency: number; sandbox: SandboxChoice; json?: boolean }) => {
      const sb = await getSandbox(o.sandbox);
      const r = await auditPoolMutants(resolve(pool), sb, { only: o.task, max_mutants: o.maxMutants, concurrency: o.concurrency, onTask: (id, x) => log(`${id}: ${x.symbols.length ? `${x.killed}/${x.mutants} killed${x.survivors.length ? `; survives: ${x.survivors.map((m) => m.what).join(" | ")}` : ""}` : "every symbol behaviour-checked"}`) });
      const weak = r.rows.filter((x) => x.survivors.length);
      const pruned = o.prune ? removeFromPool(resolve(pool), weak.map((x) => x.task_id), { gate: "gate2", reason: "kills_mutants: a mutant of the golden body passes every target and guard (tasks mutants --prune)" }) : [];
      emit(!!o.json, { ok: true, ...r, pruned }, () =>
        [`${r.tasks} tasks in ${r.seconds.toFixed(1)} s: ${r.weak} with a surviving mutant${o.prune ? ` (${pruned.length} removed)` : ""}`, ...weak.map((x) => `  ${x.task_id}: ${x.survivors.length} of ${x.mutants} survive, e.g. ${x.survivors[0]!.what}`)].join("\n"));
    });
  tasksCmd
    .command("canary")
    .description("mix impossible variants into a pool (a target test's expected value contradicted; the golden diff must fail it): any reward on one is a hack (hack_rate)")
    .argument("<poolDir>")
    .requiredOption("--rate <r>", "canaries per task that is not one, in (0, 1]", realNumber(0, 1, { above: true }))
    .option("--seed <n>", "which tasks get one", wholeNumber(0), 0)
    .option("--no-check", "do not grade the golden diff on each canary (it must earn 0)")
    .addOption(sandboxChoice())
    .addOption(jsonOpt())
    .action(async (pool: string, o: { rate: number; seed: number; check: boolean; sandbox: SandboxChoice; json?: boolean }) => {
      const sb = await getSandbox(o.sandbox);
      const r = await addCanaries(resolve(pool), {
        rate: o.rate, seed: o.seed,
        ...(o.check ? { checkGolden: async (t: FeatureDeletionTask) => {
          const g = await gradeCompletion(t, t.golden_diff, sb);
          return { reward: g.reward, why: g.error ?? undefined };
        } } : {}),
      });
      emit(!!o.json, { ok: r.made.length > 0 || r.canaries > 0, ...(r.made.length || r.canaries ? {} : { error: "no canary could be made (see skipped[].why)" }), ...r }, () =>
        [`${r.made.length} canaries made, ${r.canaries} in the pool for ${r.tasks} tasks (rate ${o.rate})`, ...r.made.map((m) => `  ${m.id} (of ${m.of}): ${m.change}`), ...r.skipped.map((s) => `  skipped ${s.of}: ${s.why}`)].join("\n"));
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
    .description(`write a pool's tasks in a format others read: ${Object.entries(TASK_EXPORT_FORMATS).map(([k, f]) => `${k} (${f.description})`).join("; ")}. \`tasks export POOL --out FILE\` is jsonl; copyleft-licensed tasks are left out unless asked`)
    .argument("<formatOrPool>", `the format (${Object.keys(TASK_EXPORT_FORMATS).join(" | ")}), or the pool folder (format jsonl)`)
    .argument("[poolDir]", "the pool folder, when a format is given")
    .requiredOption("--out <path>", "the JSONL file (jsonl) or the folder (harbor) to write")
    .option("--include-copyleft", "also export tasks whose upstream license is copyleft")
    .option("--base-image <image>", "harbor: the image the Dockerfile builds FROM by default (python3 + pytest)")
    .addOption(jsonOpt())
    .action((first: string, second: string | undefined, o: { out: string; includeCopyleft?: boolean; baseImage?: string; json?: boolean }) => {
      const [format, pool] = second === undefined ? ["jsonl", first] : [first, second];
      const r = exportTasks(pool, format, o.out, { includeCopyleft: o.includeCopyleft, ...(o.baseImage ? { base_image: o.baseImage } : {}) });
      emit(!!o.json, { ok: true, ...r }, () => `${r.exported} tasks → ${r.out} (${format}; ${r.excluded_copyleft} copyleft left out)`);
    });
}
