/**
 * Offline figure export: PNG through headless Chromium (playwright-core + Debian's chromium,
 * one browser reused per process: launching costs seconds) and self-contained HTML with
 * plotly.js inlined (opens with no network).
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { chromiumPath } from "../core/index.js";
import { parseFigure, type Figure } from "./figure.js";

const require = createRequire(import.meta.url);

/**
 * Two installed builds of plotly.js: "basic" (scatter, bar, pie; 1.2 MB) keeps a page that
 * embeds it small; "full" (4.8 MB) draws every trace type.
 */
export type PlotlyBundle = "basic" | "full";
const BUNDLE_FILES: Record<PlotlyBundle, string> = {
  basic: "plotly.js-basic-dist-min/plotly-basic.min.js",
  full: "plotly.js-dist-min",
};
/** Trace types the basic build draws (error bars and fills come with scatter and bar). */
export const BASIC_TRACE_TYPES: ReadonlySet<string> = new Set(["scatter", "bar", "pie"]);
const sources = new Map<PlotlyBundle, string>();

/** The plotly.js build as text (read once per process). */
export function plotlyScript(bundle: PlotlyBundle = "full"): string {
  let s = sources.get(bundle);
  if (s === undefined) sources.set(bundle, (s = readFileSync(require.resolve(BUNDLE_FILES[bundle]), "utf8")));
  return s;
}

/** The smallest installed plotly.js build that draws every trace of these figures. */
export function bundleFor(figs: readonly Figure[]): PlotlyBundle {
  const basic = figs.every((f) => f.data.every((t) => BASIC_TRACE_TYPES.has(typeof t.type === "string" ? t.type : "scatter")));
  return basic ? "basic" : "full";
}

/** Flags that keep Chromium off the network and quiet on a machine with no internet. */
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

let browser: Promise<Browser> | undefined;
let idleTimer: NodeJS.Timeout | undefined;
const IDLE_CLOSE_MS = 60_000;

/** The process-wide headless browser (launched on first use). */
export function sharedBrowser(): Promise<Browser> {
  // playwright-core loads in ≈ 0.8 s of CPU: only when a figure is drawn, never at a command's start
  browser ??= import("playwright-core").then(({ chromium }) => chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })).catch((e: Error) => {
    browser = undefined;
    throw new Error(`cannot start Chromium at ${chromiumPath()} for PNG export (install Debian's chromium, or set COMPOSER_LAB_CHROMIUM): ${e.message.split("\n")[0]}`);
  });
  return browser;
}

/** Generous: loading plotly.js into a page takes seconds on a loaded machine (30 s was seen to run out). */
const PAGE_LOAD_TIMEOUT_MS = 180_000;
const pages = new Map<PlotlyBundle, Promise<Page>>();

/** A page with this plotly.js build loaded (one per build, reused; a failed load is retried next time). */
function plotlyPage(bundle: PlotlyBundle): Promise<Page> {
  let page = pages.get(bundle);
  if (!page) {
    page = (async () => {
      const p = await (await sharedBrowser()).newPage();
      await p.setContent(`<!doctype html><html><body><script>${plotlyScript(bundle)}</script></body></html>`, { timeout: PAGE_LOAD_TIMEOUT_MS });
      return p;
    })();
    page.catch(() => pages.delete(bundle));
    pages.set(bundle, page);
  }
  return page;
}

/** Closes the shared browser; the next export starts a new one. CLI commands call this on exit. */
export async function closeRenderer(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  const b = browser;
  browser = undefined;
  pages.clear();
  if (b) await (await b.catch(() => undefined))?.close();
}

export interface PngOptions {
  width?: number;
  height?: number;
  scale?: number;
}

/** Renders a figure to PNG bytes. */
export async function toPNG(fig: Figure, opts: PngOptions = {}): Promise<Buffer> {
  const f = parseFigure(fig);
  inFlight++;
  if (idleTimer) clearTimeout(idleTimer);
  try {
    return await renderPNG(f, opts);
  } finally {
    // A long-lived kernel should not keep an idle Chromium around forever (never closed mid-render).
    if (--inFlight === 0) {
      idleTimer = setTimeout(() => void closeRenderer(), IDLE_CLOSE_MS);
      idleTimer.unref();
    }
  }
}

let inFlight = 0;

async function renderPNG(f: Figure, opts: PngOptions): Promise<Buffer> {
  const p = await plotlyPage(bundleFor([f]));
  const dataUrl = await p.evaluate(
    async ({ f, o }) => {
      const Plotly = (globalThis as any).Plotly;
      return (await Plotly.toImage({ data: f.data, layout: f.layout }, { format: "png", ...o })) as string;
    },
    {
      f,
      o: {
        width: opts.width ?? (f.layout.width as number | undefined) ?? 720,
        height: opts.height ?? (f.layout.height as number | undefined) ?? 400,
        scale: opts.scale ?? 1,
      },
    },
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** JSON safe to embed inside a <script> element. */
export const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, "\\u003c");

/**
 * The markup for one figure: a div and a script that draws it once plotly.js is on the page. It
 * waits for plotly.js (in a notebook the build arrives as an earlier output) and says so in the
 * div if it never comes.
 */
/**
 * A div that plotly.js draws into. `png` (base64) is a still placeholder inside it: a front end that
 * does not run the script (a notebook opened untrusted) shows the PNG instead of a blank area; the
 * script swaps it for the interactive plot.
 */
export function figureDiv(fig: Figure, id: string, opts: { png?: string } = {}): string {
  const f = parseFigure(fig);
  const config = { responsive: true, displaylogo: false, ...f.config };
  const still = opts.png ? `<img class="composer-lab-figure-png" alt="${escapeHtml(plotTitle(f) ?? "figure")}" src="data:image/png;base64,${opts.png}">` : "";
  return `<div class="figure composer-lab-figure" id="${escapeHtml(id)}">${still}</div>
<script>(function draw(tries) {
  var el = document.getElementById(${scriptJson(id)});
  if (!el) return;
  if (!window.Plotly) {
    if (tries < 200) return setTimeout(function () { draw(tries + 1); }, 50);
    el.insertAdjacentText("beforeend", "plotly.js is not loaded on this page: restart the kernel and run all cells (it loads with the first figure).");
    return;
  }
  el.replaceChildren();
  window.Plotly.newPlot(el, ${scriptJson(f.data)}, ${scriptJson(f.layout)}, ${scriptJson(config)});
})(0);</script>`;
}

/** The figure's title text, if it has one. */
export function plotTitle(f: Figure): string | undefined {
  const t = f.layout.title as string | { text?: string } | undefined;
  return typeof t === "string" ? t : t?.text;
}

/** A self-contained HTML page (plotly.js inlined once, the smallest build that fits) showing figures. */
export function toHTML(figs: Figure | Figure[], title = "composer-lab figure"): string {
  const list = (Array.isArray(figs) ? figs : [figs]).map((f) => parseFigure(f));
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<script>${plotlyScript(bundleFor(list))}</script></head>
<body>
${list.map((f, i) => figureDiv(f, `fig-${i}`)).join("\n")}
</body></html>
`;
}

export { escapeHtml };

export interface PageCheck {
  consoleErrors: string[];
  pageErrors: string[];
  /** Number of rendered Plotly plots on the page. */
  plots: number;
  /** Figure divs our markup placed (drawn or not): `plots < figures` means some never drew. */
  figures: number;
  /** Requests that tried to leave the file (blocked; nbconvert's templates ask CDNs for require.js and MathJax). */
  blocked: string[];
  title: string;
}

/** Opens an HTML file in the shared headless browser and reports errors and rendered plots
 *  (how we prove report.html and exported notebooks work offline). Requests that leave the file are
 *  blocked and listed; the console errors they cause are not counted as page errors. */
export async function checkPage(file: string): Promise<PageCheck> {
  const b = await sharedBrowser();
  const ctx = await b.newContext();
  try {
    const p = await ctx.newPage();
    const consoleErrors: string[] = [];
    const pageErrors: string[] = [];
    const blocked: string[] = [];
    p.on("console", (m) => m.type() === "error" && !/^Failed to load resource/.test(m.text()) && consoleErrors.push(m.text()));
    p.on("pageerror", (e) => pageErrors.push(e.message));
    await p.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file://") || url.startsWith("data:")) return route.continue();
      blocked.push(url);
      return route.abort();
    });
    // a local file; the generous limit is for a machine whose cores are all busy (CI, a shared box)
    await p.goto(pathToFileURL(file).href, { waitUntil: "load", timeout: 180_000 });
    const figures = await p.locator(".composer-lab-figure").count();
    // Figures draw as soon as plotly.js is there; give a large page a moment, no more than 10 s.
    await p.waitForFunction(`document.querySelectorAll(".js-plotly-plot").length >= ${figures}`, undefined, { timeout: 10_000 }).catch(() => undefined);
    const plots = await p.locator(".js-plotly-plot").count();
    return { consoleErrors, pageErrors, plots, figures, blocked, title: await p.title() };
  } finally {
    await ctx.close();
  }
}
