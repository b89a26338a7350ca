/** The `composer-lab` command line. Each subcommand takes --json (one JSON object on stdout). */
import { Command, CommanderError, Option } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { progress, probeTools, projectRoot, timestampSlug } from "../core/index.js";
import { BACKENDS, initBackend, type BackendName } from "../backend/index.js";
import { runDemo, STAGES } from "../demo/index.js";
import { listTraceFiles, summarize, type FormatOption } from "../traces/index.js";
import { DEFAULT_IMAGE, SANDBOX_NAMES, buildBaseImage, checkSandboxes, dockerClient, ensureDockerd, getSandbox, type SandboxChoice } from "../sandbox/index.js";
import { buildFromGitHistory, buildFromRepo, buildFromSweInstances, isCopyleft, loadTask, readIndex, type BuildReport } from "../tasks/index.js";
import { gradeCompletion } from "../env/index.js";
import { DilocoConfig, openStore, runWorker, summarizeRun } from "../store/index.js";
import YAML from "yaml";
import { spawn } from "node:child_process";
import { buildFromConfig, contextsFromTraces, defaultLayered, hintCoverage, loadHintsConfig, type JudgeHintGenerator } from "../hints/index.js";
import { describeFailure, installKernel, ensureLibraryBuilt, runNotebooks } from "../notebooks/index.js";
import { closeRenderer, fromRows, parseFigure, tableText, toHTML, toPNG } from "../viz/index.js";
import { emit, log, routeConsoleToStderr } from "./output.js";
import { startRepl } from "./repl.js";

const jsonOpt = () => new Option("--json", "print one JSON object on stdout (logs go to stderr)");

export function buildProgram(): Command {
  const program = new Command("composer-lab")
    .description("composer-lab: a research lab for post-training coding agents (traces → hints → tasks → sandboxed grading → training → store)")
    .version(JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")).version)
    .showHelpAfterError()
    .exitOverride();

  program
    .command("demo")
    .description("run every pipeline stage on the bundled datasets; writes scratch/runs/<timestamp>/{metrics.json,report.html}")
    .addOption(jsonOpt())
    .option("--out <dir>", "write the run here instead of scratch/runs/<timestamp>/")
    .option("--stages <names>", `comma-separated subset of: ${STAGES.map((s) => s.name).join(", ")}`)
    .option("--seed <n>", "random seed", "0")
    .action(async (o: { json?: boolean; out?: string; stages?: string; seed: string }) => {
      const only = o.stages?.split(",").map((s) => s.trim()).filter(Boolean);
      const bar = progress(only?.length ?? STAGES.length, "demo");
      const r = await runDemo({ outDir: o.out ? resolve(o.out) : undefined, only, seed: Number(o.seed), onStage: (s) => bar.tick(1, `${s.name} ${s.status}`) });
      bar.stop();
      await closeRenderer();
      emit(!!o.json, { ok: r.metrics.ok, runDir: r.runDir, report: r.report, metrics: r.metricsPath, stages: r.metrics.stages.map(({ name, status, seconds }) => ({ name, status, seconds })) }, () =>
        [tableText(fromRows(r.metrics.stages.map(({ name, status, seconds, error }) => ({ stage: name, status, seconds: Number(seconds.toFixed(2)), error: error?.split("\n")[0] ?? "" })))), "", `report:  ${r.report}`, `metrics: ${r.metricsPath}`].join("\n"),
      );
      if (!r.metrics.ok) process.exitCode = 1;
    });

  program
    .command("notebooks")
    .description("execute notebooks headlessly on the tslab kernel; executed copies go to scratch/notebooks/")
    .argument("[paths...]", "notebooks or folders (default: notebooks/)")
    .addOption(jsonOpt())
    .option("--out <dir>", "folder for executed copies")
    .option("--cell-timeout <s>", "seconds per cell", "600")
    .action(async (paths: string[], o: { json?: boolean; out?: string; cellTimeout: string }) => {
      const r = await runNotebooks({ paths: paths.length ? paths : undefined, outDir: o.out, cellTimeoutS: Number(o.cellTimeout) });
      for (const nb of r.results) if (!nb.ok) log(describeFailure(nb));
      emit(!!o.json, { ok: r.failed === 0, passed: r.passed, failed: r.failed, notebooks: r.results }, () => `${r.passed} passed, ${r.failed} failed`);
      if (r.failed > 0) process.exitCode = 1;
    });

  const kernel = program.command("kernel").description("the project-local tslab Jupyter kernel");
  kernel
    .command("install")
    .description("register the tslab kernel under .jupyter/ (idempotent) and build the library for it")
    .addOption(jsonOpt())
    .action((o: { json?: boolean }) => {
      const built = ensureLibraryBuilt(log);
      const r = installKernel();
      emit(!!o.json, { ok: true, ...r, built, jupyterPath: join(projectRoot(), ".jupyter", "share", "jupyter") }, () =>
        `kernel "composer-lab" at ${r.kernelDir}${r.changed ? " (updated)" : ""}; use JUPYTER_PATH=${join(projectRoot(), ".jupyter", "share", "jupyter")}`,
      );
    });

  const traces = program.command("traces").description("agent traces: ingestion and error sites");
  traces
    .command("summarize")
    .description("ingest Claude Code JSONL / chat trajectories (files or folders, recursive) and count turns and error sites")
    .argument("<paths...>", "trace files or folders")
    .addOption(new Option("--format <format>", "input format").choices(["claude", "chat", "auto"]).default("auto"))
    .option("--strip-thinking", "drop thinking blocks")
    .option("--issues", "print every input issue (file:line: reason) on stderr")
    .addOption(jsonOpt())
    .action(async (paths: string[], o: { format: FormatOption; stripThinking?: boolean; issues?: boolean; json?: boolean }) => {
      const files = listTraceFiles(paths);
      const bar = progress(files.length, "traces");
      const sum = await summarize(files, {
        format: o.format, strip_thinking: !!o.stripThinking,
        onFile: (f) => bar.tick(1, f.split("/").pop()),
        onIssue: o.issues ? (i) => log(`${i.file}:${i.line}: ${i.reason}`) : undefined,
      });
      bar.stop();
      emit(!!o.json, { ok: true, ...sum }, () => {
        const { errorKinds, behaviorDims, issuesByReason, issueSamples, formats, ...counts } = sum;
        return [
          tableText(fromRows(Object.entries(counts).map(([k, v]) => ({ count: k, value: v })))),
          "",
          tableText(fromRows(Object.entries(errorKinds).sort((a, b) => b[1] - a[1]).map(([kind, n]) => ({ error_kind: kind, sites: n })))),
          "",
          tableText(fromRows(Object.entries(behaviorDims).map(([dim, n]) => ({ behavior_dim: dim, sites: n })))),
          ...(sum.issues ? ["", `${sum.issues} input issue(s) skipped (--issues lists them):`, ...Object.entries(issuesByReason).map(([r, n]) => `  ${n} × ${r}`)] : []),
        ].join("\n");
      });
    });

  const hints = program.command("hints").description("hint generation at error sites, and its evaluation");
  const hintOptions = (c: Command) =>
    c
      .argument("<traces...>", "trace files or folders")
      .option("--config <file>", "hints config (JSON or YAML): layers and their options")
      .option("--judge-url <url>", "OpenAI-compatible endpoint for the judge layer (default: OPENAI_BASE_URL)")
      .option("--judge-model <model>", "judge model name")
      .option("--no-judge", "leave the judge out even when an endpoint is configured")
      .option("--no-cache", "do not read or write the judge's on-disk cache")
      .option("--clean", "also offer flagged clean turns (style / communication / effort) to the judge")
      .addOption(jsonOpt());
  type HintCliOptions = { config?: string; judgeUrl?: string; judgeModel?: string; judge: boolean; cache: boolean; clean?: boolean; json?: boolean };
  const buildGenerator = (o: HintCliOptions) => {
    const cacheDir = o.cache ? undefined : (false as const);
    if (o.config) return buildFromConfig(loadHintsConfig(o.config), { judgeUrl: o.judgeUrl, judgeModel: o.judgeModel, cacheDir });
    const url = o.judgeUrl ?? process.env.OPENAI_BASE_URL;
    return defaultLayered({ judge: o.judge && url ? { baseURL: url, model: o.judgeModel, cache_dir: cacheDir } : undefined });
  };
  hintOptions(hints.command("coverage").description("per-layer coverage: which layer hinted each error site, by error_kind and behavior_dim")).action(
    async (paths: string[], o: HintCliOptions) => {
      const generator = buildGenerator(o);
      const contexts = await contextsFromTraces(paths, { clean: o.clean });
      const bar = progress(contexts.length, "hints");
      const cov = await hintCoverage(contexts, generator, { onSite: () => bar.tick() });
      bar.stop();
      const judge = generator.layer<JudgeHintGenerator>("judge");
      const { results, ...counts } = cov;
      emit(!!o.json, { ok: true, ...counts, judge: judge ? { model: judge.model, ...judge.stats } : null }, () =>
        [
          `${cov.hinted}/${cov.sites} sites hinted`,
          tableText(fromRows(Object.entries(cov.byLayer).map(([layer, n]) => ({ layer, sites: n })))),
          "",
          tableText(fromRows(Object.entries(cov.byKind).map(([kind, l]) => ({ error_kind: kind, ...l })))),
          ...(judge ? ["", `judge ${judge.model}: ${JSON.stringify(judge.stats)}`] : []),
        ].join("\n"),
      );
    },
  );
  hintOptions(hints.command("show").description("one error site, its hint and the layer that produced it"))
    .requiredOption("--site <n>", "site index (0-based, in ingestion order; `hints coverage` counts them)")
    .action(async (paths: string[], o: HintCliOptions & { site: string }) => {
      const contexts = await contextsFromTraces(paths, { clean: o.clean });
      const n = Number(o.site);
      const ctx = contexts[n];
      if (!Number.isInteger(n) || !ctx) throw new Error(`--site ${o.site}: there are ${contexts.length} sites (0..${contexts.length - 1})`);
      const r = await buildGenerator(o).generate(ctx);
      emit(!!o.json, { ok: true, index: n, site: ctx, hint: r?.hint ?? null, layer: r?.layer ?? "none" }, () =>
        [
          `site ${n}: ${ctx.error_kind} (${ctx.behavior_dim}) in ${ctx.session_id} at turn ${ctx.turn_index}`,
          `tool: ${ctx.tool_name ?? "-"}   action: ${ctx.erroring_action ?? ""}`,
          "---- error ----",
          (ctx.error_message ?? "").slice(0, 800),
          `---- hint (${r?.layer ?? "none"}) ----`,
          r?.hint ?? "(no layer produced a hint)",
        ].join("\n"),
      );
    });

  const sandbox = program.command("sandbox").description("sandboxed execution: bubblewrap and Docker");
  const sandboxChoice = () => new Option("--sandbox <name>", "bwrap | docker | none (none = unsandboxed, only when asked)").choices(["auto", ...SANDBOX_NAMES]).default("auto");
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

  const tasksCmd = program.command("tasks").description("feature-deletion tasks: build, list, show, export");
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
      let completion: string;
      try {
        completion = readFileSync(o.patch, "utf8");
      } catch (e) {
        throw new Error(`${o.patch}: ${(e as Error).message}`);
      }
      const g = await gradeCompletion(task, completion, await getSandbox(o.sandbox));
      emit(!!o.json, { ok: g.error === null, task: task.task_id, ...g }, () =>
        [
          `reward ${g.reward.toFixed(3)}  (frac ${g.frac.toFixed(3)}, guard ${g.guardOk ? "ok" : "BROKEN"}, ${g.hacked ? "HACKED" : "not hacked"})${g.error ? `  error: ${g.error}` : ""}`,
          ...g.flags.map((f) => `  flag ${f.kind}: ${f.detail}`),
          "",
          tableText(fromRows(g.perTest.map((t) => ({ group: t.group, test: t.nodeid, outcome: t.outcome })))),
        ].join("\n"),
      );
    });

  const storeCmd = program.command("store").description("the run layout on disk or S3");
  storeCmd
    .command("ls")
    .description("list a store's objects (a local path or s3://bucket/prefix; S3 settings from the standard AWS configuration)")
    .argument("<uri>", "local path or s3://bucket/prefix")
    .option("--prefix <p>", "only keys under this prefix", "")
    .addOption(jsonOpt())
    .action(async (uri: string, o: { prefix: string; json?: boolean }) => {
      const st = openStore(uri);
      const keys = await st.list(o.prefix);
      emit(!!o.json, { ok: true, uri: st.uri, count: keys.length, keys }, () => (keys.length ? keys.join("\n") : `(empty: ${st.uri})`));
    });

  const dilocoConfig = (file?: string): Partial<DilocoConfig> => {
    // The toy preset: a few rounds in seconds (momentum 0.5 suits 4 inner steps; the paper uses 0.9 with H ≈ 500).
    if (!file) return { rounds: 8, inner_steps: 4, momentum: 0.5, timeout_s: 20 };
    try {
      const raw = readFileSync(file, "utf8");
      return DilocoConfig.partial().parse(/\.json$/i.test(file) ? JSON.parse(raw) : YAML.parse(raw));
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`);
    }
  };
  program
    .command("diloco")
    .description("DiLoCo across worker processes that meet only through a store (default: a tiny model on a toy objective, in seconds)")
    .requiredOption("--workers <n>", "worker processes")
    .requiredOption("--store <uri>", "local path or s3://bucket/prefix")
    .option("--config <file>", "DilocoConfig as JSON or YAML (rounds, inner_steps, inner_lr, outer_lr, momentum, timeout_s, ...)")
    .option("--run <id>", "run id (default: a timestamp); rerun with the same id to resume")
    .addOption(jsonOpt())
    .action(async (o: { workers: string; store: string; config?: string; run?: string; json?: boolean }) => {
      const workers = Number(o.workers);
      if (!Number.isInteger(workers) || workers < 1) throw new Error(`--workers ${o.workers}: a positive whole number`);
      const cfg = dilocoConfig(o.config);
      const prefix = `runs/${o.run ?? timestampSlug()}/diloco_rendezvous`;
      const t0 = performance.now();
      const bin = join(projectRoot(), "bin", "composer-lab.js");
      const results = await Promise.all(
        Array.from({ length: workers }, (_, rank) =>
          new Promise<{ rank: number; code: number | null; out: string }>((res) => {
            const args = [bin, "diloco-worker", "--rank", String(rank), "--workers", String(workers), "--store", o.store, "--prefix", prefix, "--json"];
            if (o.config) args.push("--config", o.config);
            const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
            let out = "";
            child.stdout.on("data", (d) => (out += d));
            child.stderr.on("data", (d) => process.stderr.write(`[rank ${rank}] ${d}`));
            child.on("close", (code) => res({ rank, code, out }));
          }),
        ),
      );
      const failed = results.filter((r) => r.code !== 0).map((r) => r.rank);
      const summary = await summarizeRun(openStore(o.store), prefix, workers);
      emit(!!o.json, { ok: failed.length === 0 || !failed.includes(0), ...summary, failedWorkers: failed, prefix, config: DilocoConfig.parse(cfg), seconds: (performance.now() - t0) / 1000 }, () =>
        [`${summary.rounds} rounds, ${workers} workers, final loss ${summary.loss.toFixed(5)}`, `loss by round: ${summary.lossHistory.map((l) => l.toFixed(4)).join(" ")}`, `dropped: ${summary.droppedRanks.map((d) => `r${d.round}:rank${d.rank}`).join(", ") || "none"}`, `rendezvous: ${o.store}/${prefix}`].join("\n"),
      );
      if (failed.includes(0)) process.exitCode = 1;
    });
  program
    .command("diloco-worker", { hidden: true })
    .description("one DiLoCo worker (started by `composer-lab diloco`)")
    .requiredOption("--rank <r>")
    .requiredOption("--workers <n>")
    .requiredOption("--store <uri>")
    .requiredOption("--prefix <p>")
    .option("--config <file>")
    .option("--inner-delay-ms <ms>", "pause in each inner phase (tests)")
    .addOption(jsonOpt())
    .action(async (o: { rank: string; workers: string; store: string; prefix: string; config?: string; innerDelayMs?: string; json?: boolean }) => {
      const r = await runWorker({ store: openStore(o.store), prefix: o.prefix, rank: Number(o.rank), workers: Number(o.workers), config: dilocoConfig(o.config), log, inner_delay_ms: o.innerDelayMs ? Number(o.innerDelayMs) : undefined });
      emit(!!o.json, { ok: true, ...r }, () => JSON.stringify(r));
    });

  program
    .command("doctor")
    .description("what this machine offers the lab: tools and TensorFlow.js backends")
    .addOption(jsonOpt())
    .addOption(new Option("--backend <name>", "TensorFlow.js backend to try").choices([...BACKENDS]))
    .action(async (o: { json?: boolean; backend?: BackendName }) => {
      const tools = probeTools();
      let backend: Record<string, unknown>;
      try {
        backend = { ...(await initBackend(o.backend)) };
      } catch (e) {
        backend = { error: (e as Error).message };
      }
      emit(!!o.json, { ok: tools.every((t) => t.available || t.tool === "docker"), tools, backend }, () =>
        `${tableText(fromRows(tools))}\n\nTensorFlow.js backend: ${JSON.stringify(backend)}`,
      );
    });

  program
    .command("repl")
    .description("a Node REPL with the library preloaded (top-level await; tables print as aligned text)")
    .action(async () => {
      const server = await startRepl();
      await new Promise<void>((res) => server.on("exit", () => res()));
    });

  const viz = program.command("viz").description("figures");
  viz
    .command("export")
    .description("render a Plotly figure JSON file to PNG and/or self-contained HTML, offline")
    .argument("<figure.json>", "a file holding {data, layout}")
    .option("--png <file>", "write a PNG here")
    .option("--html <file>", "write a self-contained HTML page here")
    .option("--scale <n>", "PNG pixel scale", "1")
    .addOption(jsonOpt())
    .action(async (file: string, o: { png?: string; html?: string; scale: string; json?: boolean }) => {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, "utf8"));
      } catch (e) {
        throw new Error(`${file}: ${(e as Error).message}`);
      }
      const fig = (() => {
        try {
          return parseFigure(raw);
        } catch (e) {
          throw new Error(`${file}: ${(e as Error).message}`);
        }
      })();
      if (!o.png && !o.html) throw new Error("nothing to do: pass --png and/or --html");
      const written: Record<string, string> = {};
      if (o.png) {
        writeFileSync(o.png, await toPNG(fig, { scale: Number(o.scale) }));
        written.png = resolve(o.png);
      }
      if (o.html) {
        writeFileSync(o.html, toHTML(fig));
        written.html = resolve(o.html);
      }
      await closeRenderer();
      emit(!!o.json, { ok: true, ...written }, () => Object.values(written).join("\n"));
    });

  program
    .command("bench")
    .description("run a benchmark from bench/ (figures and ratios measured side by side in one run)")
    .argument("[name]", "benchmark name (omit to list them)")
    .addOption(jsonOpt())
    .action(async (name: string | undefined, o: { json?: boolean }) => {
      const { listBenchmarks } = await import("./bench.js");
      const all = listBenchmarks();
      if (!name) {
        emit(!!o.json, { ok: true, benchmarks: all }, () => all.join("\n"));
        return;
      }
      if (!all.includes(name)) throw new Error(`unknown benchmark "${name}" (known: ${all.join(", ") || "none"})`);
      const mod = (await import(pathToFileURL(join(projectRoot(), "bench", `${name}.bench.ts`)).href)) as { run: () => Promise<BenchResult> };
      const r = await mod.run();
      await closeRenderer();
      emit(!!o.json, { ok: true, name, ...r }, () => `${r.summary}\n\n${tableText(fromRows(r.rows))}`);
    });

  return program;
}

export interface BenchResult {
  summary: string;
  rows: Record<string, unknown>[];
  ratios: Record<string, number>;
}

export async function main(argv = process.argv): Promise<void> {
  const json = argv.includes("--json");
  if (json) routeConsoleToStderr();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version exit with code 0 and have printed already
      if (e.exitCode === 0) return;
      if (json) emit(true, { ok: false, error: e.message }, () => "");
      process.exitCode = e.exitCode || 2;
      return;
    }
    const err = e as Error;
    if (json) emit(true, { ok: false, error: err.message }, () => "");
    else log(`composer-lab: ${err.message}`);
    if (process.env.COMPOSER_LAB_DEBUG) log(err.stack ?? "");
    process.exitCode = 1;
    await closeRenderer();
  }
}
