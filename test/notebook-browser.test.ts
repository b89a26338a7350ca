/**
 * The notebooks as a researcher opens them: Debian's classic Notebook started with
 * `scripts/jupyter.sh` (what `npm run jupyter` runs, here as root) on loopback, each notebook
 * opened in headless Chromium, Run All, and the interactive Plotly plots on the page counted.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeRenderer, sharedBrowser } from "../lib/viz/index.js";
import { ROOT, tmp } from "./helpers.js";

const freePort = () =>
  new Promise<number>((res, rej) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on("error", rej);
  });

/** A notebook of our own: three figures of the three builders, a table, and a figure shown twice. */
const FIXTURE = {
  cells: [
    `import { viz } from "composer-lab";`,
    `await viz.show(viz.lineChart({ loss: { x: [1, 2, 3, 4], y: [3, 2, null, 1] } }, { title: "line with a gap" }));`,
    `viz.showTable(viz.fromRows([{ a: 1, b: "x" }]));\nawait viz.show(viz.barChart(["a", "b"], { n: [1, 10] }, { logY: true }));`,
    `const h = viz.histogram({ first: [1, 2, 2, 3], second: [2, 3, 3, 4] }, { title: "two overlaid" });\nawait viz.show(h);\nawait viz.show(h);`,
  ].map((source) => ({ cell_type: "code", metadata: {}, source, outputs: [], execution_count: null })),
  metadata: { kernelspec: { name: "composer-lab", display_name: "TypeScript (composer-lab)", language: "typescript" } },
  nbformat: 4,
  nbformat_minor: 5,
};

/** Figures a notebook shows: one per `viz.show(` call in its code cells (none sits in a loop). */
function showsIn(file: string): number {
  const nb = JSON.parse(readFileSync(file, "utf8")) as { cells: { cell_type: string; source: string | string[] }[] };
  return nb.cells.filter((c) => c.cell_type === "code").reduce((n, c) => n + ([c.source].flat().join("").match(/viz\.show\(/g) ?? []).length, 0);
}

let server: ChildProcess | undefined;
let base = "";
const dir = tmp("browser-nb-");

beforeAll(async () => {
  const port = await freePort();
  const token = Math.random().toString(36).slice(2);
  // scripts/jupyter.sh adds --allow-root as root; later flags override its --notebook-dir.
  server = spawn("bash", [join(ROOT, "scripts", "jupyter.sh"), "--no-browser", "--ip=127.0.0.1", `--port=${port}`, "--port-retries=0", `--NotebookApp.token=${token}`, `--notebook-dir=${dir}`], {
    cwd: ROOT,
    env: { ...process.env, COMPOSER_LAB_SKIP_SETUP: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  server.stderr!.on("data", (d) => (log += d));
  server.stdout!.on("data", (d) => (log += d));
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/api/status?token=${token}`).then((r) => r.ok, () => false);
    if (ok) break;
    if (server.exitCode !== null || i > 120) throw new Error(`the Notebook server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  base = `${base}/notebooks/%NAME%?token=${token}`;
}, 120_000);

afterAll(async () => {
  await closeRenderer();
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
});

interface RunAll {
  prompts: (number | string | null)[];
  figures: number;
  plots: number;
  errors: string[];
}

async function runAll(page: Page): Promise<RunAll> {
  await page.waitForFunction(() => {
    const J = (globalThis as any).Jupyter;
    return J?.notebook?.kernel?.is_connected?.() && !!J.notebook.kernel.info_reply?.protocol_version;
  }, undefined, { timeout: 120_000 });
  await page.evaluate(() => (globalThis as any).Jupyter.notebook.execute_all_cells());
  // Done when no code cell waits or runs ("*") and the kernel is idle.
  await page.waitForFunction(() => {
    const J = (globalThis as any).Jupyter;
    const code = J.notebook.get_cells().filter((c: any) => c.cell_type === "code");
    return code.every((c: any) => c.input_prompt_number !== "*") && !J.notebook.kernel_busy && (globalThis as any).document.querySelector("#kernel_indicator_icon.kernel_idle_icon");
  }, undefined, { timeout: 240_000, polling: 500 });
  return page.evaluate(() => {
    const J = (globalThis as any).Jupyter;
    const doc = (globalThis as any).document;
    return {
      prompts: J.notebook.get_cells().filter((c: any) => c.cell_type === "code").map((c: any) => c.input_prompt_number ?? null),
      figures: doc.querySelectorAll(".composer-lab-figure").length,
      plots: doc.querySelectorAll(".composer-lab-figure.js-plotly-plot").length,
      errors: [...doc.querySelectorAll(".output_stderr")].map((e: any) => e.textContent as string),
    };
  });
}

async function open(name: string): Promise<RunAll> {
  const ctx = await (await sharedBrowser()).newContext();
  try {
    const page = await ctx.newPage();
    // Offline: only the local server is reachable.
    await page.route("**/*", (r) => (r.request().url().startsWith("http://127.0.0.1") ? r.continue() : r.abort()));
    await page.goto(base.replace("%NAME%", encodeURIComponent(name)));
    return await runAll(page);
  } finally {
    await ctx.close();
  }
}

describe("classic Notebook in headless Chromium: Run All draws every figure interactively", () => {
  it("a notebook of the viz builders: 4 figures, all interactive", async () => {
    writeFileSync(join(dir, "fixture.ipynb"), JSON.stringify(FIXTURE));
    const r = await open("fixture.ipynb");
    expect(r.errors).toEqual([]);
    expect(r.prompts).toEqual([1, 2, 3, 4]);
    expect(r.figures).toBe(4);
    expect(r.plots).toBe(4);
  }, 300_000);

  for (const nb of ["00-welcome.ipynb", "06-curriculum.ipynb"]) {
    it(`${nb}: every figure it shows is interactive`, async () => {
      copyFileSync(join(ROOT, "notebooks", nb), join(dir, nb));
      const expected = showsIn(join(ROOT, "notebooks", nb));
      const r = await open(nb);
      expect(r.errors).toEqual([]);
      expect(r.prompts.every((p) => typeof p === "number")).toBe(true);
      expect(r.figures).toBe(expected);
      expect(r.plots).toBe(expected);
      console.log(`${nb}: ${r.plots}/${expected} interactive plots after Run All`);
    }, 300_000);
  }
});
