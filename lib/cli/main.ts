/** The `composer-lab` command line. Each subcommand takes --json (one JSON object on stdout). */
import { Command, CommanderError, Option } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { progress, probeTools, projectRoot } from "../core/index.js";
import { BACKENDS, initBackend, type BackendName } from "../backend/index.js";
import { runDemo, STAGES } from "../demo/index.js";
import { listTraceFiles, summarize, type FormatOption } from "../traces/index.js";
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
