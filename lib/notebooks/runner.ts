import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { jupyterPython, progress, projectRoot, scratchDir } from "../core/index.js";
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

function executeOne(src: string, dst: string, timeoutS: number): Promise<NotebookResult> {
  const root = projectRoot();
  const script = join(root, "lib", "notebooks", "execute_notebook.py");
  return new Promise((res, rej) => {
    const child = spawn(jupyterPython(), [script, src, dst, KERNEL_NAME, String(timeoutS), root], {
      cwd: root,
      env: { ...process.env, JUPYTER_PATH: jupyterPathDir() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => rej(new Error(`cannot run ${jupyterPython()} (install Jupyter: npm run setup): ${e.message}`)));
    child.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      try {
        res(NotebookResult.parse({ notebook: src, output: dst, ...JSON.parse(last) }));
      } catch {
        rej(new Error(`notebook executor exited ${code} without a result for ${src}:\n${err.trim().split("\n").slice(-15).join("\n")}`));
      }
    });
  });
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
  const results: NotebookResult[] = [];
  const bar = progress(files.length, "notebooks", { quiet: opts.quiet });
  for (const src of files) {
    const dst = join(outDir, basename(src));
    if (dst === src) throw new Error(`refusing to overwrite the source notebook ${src}: choose another output folder`);
    const r = await executeOne(src, dst, opts.cellTimeoutS ?? 600);
    results.push(r);
    bar.tick(1, `${basename(src)} ${r.ok ? "ok" : "FAILED"}`);
  }
  bar.stop();
  return { passed: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length, results };
}

/** Human-readable failure block: the cell's source and its stderr. */
export function describeFailure(r: NotebookResult): string {
  if (!r.failed) return "";
  const f = r.failed;
  return [
    `✗ ${r.notebook} — failed at cell ${f.index} (code cell ${f.code_cell}); executed copy: ${r.output}`,
    "---- cell source ----",
    f.source,
    "---- stderr ----",
    f.stderr.trim() || "(empty)",
    ...(f.error ? ["---- error ----", f.error] : []),
  ].join("\n");
}
