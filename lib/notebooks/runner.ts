import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import pLimit from "p-limit";
import { z } from "zod";
import { jupyterPython, progress, projectRoot, scratchDir } from "../core/index.js";
import { checkPage, closeRenderer } from "../viz/index.js";
import { codeFrame, splitFramed, userFacingError } from "./codeframe.js";
import { ensureLibraryBuilt, installKernel, jupyterPathDir, KERNEL_NAME } from "./kernel.js";

export const FailedCell = z.object({
  index: z.number(),
  code_cell: z.number(),
  source: z.string(),
  stderr: z.string(),
  error: z.string(),
});

export const NotebookResult = z.object({
  notebook: z.string(),
  output: z.string(),
  ok: z.boolean(),
  cells: z.number(),
  executed: z.number(),
  seconds: z.number(),
  failed: FailedCell.nullable(),
  /** Figures the notebook showed (outputs carrying the Plotly bundle) and how many carry their PNG. */
  figures: z.number(),
  pngs: z.number(),
  /** The nbconvert HTML export, and the interactive plots Chromium drew from it (null: not exported). */
  html: z.string().nullable(),
  interactive_plots: z.number().nullable(),
  /** Why the notebook counts as failed although every cell ran (figures that never drew, missing PNGs). */
  problems: z.array(z.string()),
});
export type NotebookResult = z.infer<typeof NotebookResult>;

export interface RunNotebooksOptions {
  /** Notebooks or folders of notebooks (default notebooks/). */
  paths?: string[];
  /** Where executed copies go (default scratch/notebooks/). */
  outDir?: string;
  /** Per-cell timeout. */
  cellTimeoutS?: number;
  log?: (m: string) => void;
  quiet?: boolean;
  /** Export each executed notebook to HTML with nbconvert and count the plots Chromium draws (default true). */
  html?: boolean;
  /** Notebooks run at once, each on its own kernel (default 2; on 2 cores the eight took 240 s,
   *  239–297 s one at a time: they are CPU-bound there). Results keep the input order. */
  jobs?: number;
}

function collect(paths: string[]): string[] {
  const files: string[] = [];
  for (const p of paths) {
    const abs = resolve(p);
    if (!existsSync(abs)) throw new Error(`no such notebook or folder: ${p}`);
    if (abs.endsWith(".ipynb")) files.push(abs);
    else files.push(...readdirSync(abs).filter((f) => f.endsWith(".ipynb")).sort().map((f) => join(abs, f)));
  }
  return files;
}

const ExecutorResult = NotebookResult.pick({ ok: true, cells: true, executed: true, seconds: true, failed: true }).extend({ flush_stderr: z.string().optional() });
type ExecutorResult = z.infer<typeof ExecutorResult>;

function python(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res, rej) => {
    const child = spawn(jupyterPython(), args, { cwd: projectRoot(), env: { ...process.env, JUPYTER_PATH: jupyterPathDir() }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => rej(new Error(`cannot run ${jupyterPython()} (install Jupyter: npm run setup): ${e.message}`)));
    child.on("close", (code) => res({ code, out, err }));
  });
}

async function executeOne(src: string, dst: string, timeoutS: number): Promise<ExecutorResult> {
  const root = projectRoot();
  const r = await python([join(root, "lib", "notebooks", "execute_notebook.py"), src, dst, KERNEL_NAME, String(timeoutS), root]);
  const last = r.out.trim().split("\n").pop() ?? "";
  try {
    return ExecutorResult.parse(JSON.parse(last));
  } catch {
    throw new Error(`notebook executor exited ${r.code} without a result for ${src}:\n${r.err.trim().split("\n").slice(-15).join("\n")}`);
  }
}

const PLOTLY_MIME = "application/vnd.plotly.v1+json";
const ExecutedNotebook = z.object({ cells: z.array(z.object({ outputs: z.array(z.object({ data: z.record(z.unknown()).optional() })).optional() })) });

/** Figures in an executed notebook, and how many of them carry a PNG for static viewers. */
function countFigures(file: string): { figures: number; pngs: number } {
  const nb = ExecutedNotebook.parse(JSON.parse(readFileSync(file, "utf8")));
  const outs = nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.data && PLOTLY_MIME in o.data);
  return { figures: outs.length, pngs: outs.filter((o) => "image/png" in o.data!).length };
}

/** nbconvert's HTML of an executed notebook, opened offline in Chromium: how many plots it draws. */
async function exportAndCount(executed: string): Promise<{ html: string; plots: number; pageErrors: string[] }> {
  const r = await python(["-m", "nbconvert", "--to", "html", "--log-level", "ERROR", executed]);
  const html = executed.replace(/\.ipynb$/, ".html");
  if (r.code !== 0 || !existsSync(html)) throw new Error(`nbconvert --to html failed for ${executed}:\n${r.err.trim().split("\n").slice(-10).join("\n")}`);
  const page = await checkPage(html);
  return { html, plots: page.plots, pageErrors: [...page.pageErrors, ...page.consoleErrors] };
}

async function checkOne(src: string, dst: string, opts: RunNotebooksOptions): Promise<NotebookResult> {
  const run = await executeOne(src, dst, opts.cellTimeoutS ?? 600);
  const { figures, pngs } = existsSync(dst) ? countFigures(dst) : { figures: 0, pngs: 0 };
  const problems: string[] = [];
  let html: string | null = null;
  let plots: number | null = null;
  if (run.ok && opts.html !== false) {
    const page = await exportAndCount(dst);
    html = page.html;
    plots = page.plots;
    if (plots !== figures) problems.push(`${figures} figure(s) shown but ${plots} drawn interactively in the HTML export ${html}`);
    problems.push(...page.pageErrors.map((e) => `HTML export: ${e}`));
  }
  if (run.ok && pngs !== figures) problems.push(`${figures - pngs} of ${figures} figure(s) carry no PNG fallback${run.flush_stderr?.trim() ? `: ${run.flush_stderr.trim()}` : ""}`);
  const { flush_stderr: _, ...executed } = run;
  return NotebookResult.parse({ notebook: src, output: dst, ...executed, ok: run.ok && problems.length === 0, figures, pngs, html, interactive_plots: plots, problems });
}

/**
 * Executes notebooks headlessly on the project's tslab kernel, each stopping at its first failing
 * cell; writes executed copies under `outDir` (never over the sources).
 */
export async function runNotebooks(opts: RunNotebooksOptions = {}): Promise<{ passed: number; failed: number; results: NotebookResult[] }> {
  const log = opts.log ?? ((m: string) => process.stderr.write(m + "\n"));
  const files = collect(opts.paths ?? [join(projectRoot(), "notebooks")]);
  const outDir = resolve(opts.outDir ?? scratchDir("notebooks"));
  mkdirSync(outDir, { recursive: true });
  ensureLibraryBuilt(log);
  installKernel();
  let results: NotebookResult[] = [];
  const bar = progress(files.length, "notebooks", { quiet: opts.quiet });
  for (const src of files) if (join(outDir, basename(src)) === src) throw new Error(`refusing to overwrite the source notebook ${src}: choose another output folder`);
  const limit = pLimit(Math.max(1, Math.floor(opts.jobs ?? 2)));
  try {
    results = await Promise.all(files.map((src) => limit(async () => {
      const r = await checkOne(src, join(outDir, basename(src)), opts);
      bar.tick(1, `${basename(src)} ${r.ok ? "ok" : "FAILED"}${r.interactive_plots === null ? "" : ` (${r.interactive_plots}/${r.figures} interactive plots)`}`);
      return r;
    })));
  } finally {
    bar.stop();
    await closeRenderer();
  }
  return { passed: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length, results };
}

/** Human-readable failure block: a code frame of the failing cell and the error without kernel internals. */
export function describeFailure(r: NotebookResult): string {
  if (r.ok) return "";
  if (!r.failed) return [`✗ ${r.notebook} — every cell ran, but:`, ...r.problems.map((p) => `  - ${p}`)].join("\n");
  const f = r.failed;
  // A notebook that imported the library had its error framed by the kernel already.
  const framed = splitFramed(f.stderr);
  return [
    `✗ ${r.notebook} — failed at cell ${f.index} (code cell ${f.code_cell}); executed copy: ${r.output}`,
    "---- cell source ----",
    framed?.frame ?? codeFrame(f.source, f.stderr),
    "---- error ----",
    (framed ? framed.error : userFacingError(f.stderr)) || f.error || "(no message)",
  ].join("\n");
}
