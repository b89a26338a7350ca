/** Lab-wide commands: demo, notebooks, kernel, doctor, repl, viz, bench. */
import type { Command } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { initBackend, probeBackends, type BackendChoice } from "../../backend/index.js";
import { progress, probeTools, projectRoot } from "../../core/index.js";
import { runDemo, STAGES } from "../../demo/index.js";
import { BwrapSandbox, gradingPath } from "../../sandbox/index.js";
import { describeFailure, ensureLibraryBuilt, installKernel, runNotebooks } from "../../notebooks/index.js";
import { closeRenderer, fromRows, parseFigure, tableText, toHTML, toPNG } from "../../viz/index.js";
import { listBenchmarks } from "../bench.js";
import { jsonOpt } from "../options.js";
import { backendOption } from "../backend.js";
import { emit, log } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";
import { startRepl } from "../repl.js";

export interface BenchResult {
  summary: string;
  rows: Record<string, unknown>[];
  ratios: Record<string, number>;
}

export function registerLab(program: Command): void {
  program
    .command("demo")
    .description("run every pipeline stage on the bundled datasets; writes scratch/runs/<timestamp>/{metrics.json,report.html}")
    .addOption(jsonOpt())
    .option("--out <dir>", "write the run here instead of scratch/runs/<timestamp>/")
    .option("--stages <names>", `comma-separated subset of: ${STAGES.map((s) => s.name).join(", ")}`)
    .option("--seed <n>", "random seed", wholeNumber(0), 0)
    .action(async (o: { json?: boolean; out?: string; stages?: string; seed: number }) => {
      const only = o.stages?.split(",").map((s) => s.trim()).filter(Boolean);
      const bar = progress(only?.length ?? STAGES.length, "demo");
      const r = await runDemo({ outDir: o.out ? resolve(o.out) : undefined, only, seed: o.seed, onStage: (s) => bar.tick(1, `${s.name} ${s.status}`) });
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
    .option("--cell-timeout <s>", "seconds per cell", realNumber(0, Infinity, { above: true }), 600)
    .option("--jobs <n>", "notebooks run at once, each on its own kernel", wholeNumber(1), 2)
    .action(async (paths: string[], o: { json?: boolean; out?: string; cellTimeout: number; jobs: number }) => {
      const r = await runNotebooks({ paths: paths.length ? paths : undefined, outDir: o.out, cellTimeoutS: o.cellTimeout, jobs: o.jobs });
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

  program
    .command("doctor")
    .description("what this machine offers the lab: tools and TensorFlow.js backends")
    .addOption(jsonOpt())
    .addOption(backendOption())
    .action(async (o: { json?: boolean; backend?: BackendChoice }) => {
      const tools = probeTools();
      let backend: Record<string, unknown>;
      try {
        backend = { ...(await initBackend(o.backend)) };
      } catch (e) {
        backend = { error: (e as Error).message };
      }
      const backends = await probeBackends(); // each backend in the default order: usable, or why not
      // Which path a grade takes here (the warm grader, or one bwrap per grade) and why.
      const bw = new BwrapSandbox();
      const grading = (await bw.check()).ok ? await gradingPath(bw) : { path: "none", why: "bubblewrap does not work here" };
      emit(!!o.json, { ok: tools.every((t) => t.available || t.tool === "docker"), tools, backend, backends, grading }, () =>
        `${tableText(fromRows(tools))}\n\nTensorFlow.js backends (default order):\n${tableText(fromRows(backends.map((b) => ({ backend: b.name, usable: b.usable, provider_or_why: b.provider ?? b.why }))))}\n\nchosen: ${JSON.stringify(backend)}\ngrading: ${grading.path}${grading.why ? ` (${grading.why})` : ""}${"sleep_shim" in grading ? `\nsleep shim: ${grading.sleep_shim}` : ""}`,
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
    .option("--scale <n>", "PNG pixel scale", realNumber(0, Infinity, { above: true }), 1)
    .addOption(jsonOpt())
    .action(async (file: string, o: { png?: string; html?: string; scale: number; json?: boolean }) => {
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
        writeFileSync(o.png, await toPNG(fig, { scale: o.scale }));
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
}
