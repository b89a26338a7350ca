/**
 * Offline figure export: PNG through headless Chromium (playwright-core + Debian's chromium,
 * one browser reused per process: launching costs seconds) and self-contained HTML with
 * plotly.js inlined (opens with no network).
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import { chromiumPath } from "../core/index.js";
import { parseFigure, type Figure } from "./figure.js";

const require = createRequire(import.meta.url);
let plotlySource: string | undefined;

/** The plotly.js bundle as text (read once). */
export function plotlyScript(): string {
  plotlySource ??= readFileSync(require.resolve("plotly.js-dist-min"), "utf8");
  return plotlySource;
}

/** Flags that keep Chromium off the network and quiet on a machine with no internet. */
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

let browser: Promise<Browser> | undefined;
let page: Promise<Page> | undefined;
let idleTimer: NodeJS.Timeout | undefined;
const IDLE_CLOSE_MS = 60_000;

/** The process-wide headless browser (launched on first use). */
export function sharedBrowser(): Promise<Browser> {
  browser ??= chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS }).catch((e: Error) => {
    browser = undefined;
    throw new Error(`cannot start Chromium at ${chromiumPath()} for PNG export (install Debian's chromium, or set COMPOSER_LAB_CHROMIUM): ${e.message.split("\n")[0]}`);
  });
  return browser;
}

async function plotlyPage(): Promise<Page> {
  page ??= (async () => {
    const p = await (await sharedBrowser()).newPage();
    await p.setContent(`<!doctype html><html><body><script>${plotlyScript()}</script></body></html>`);
    return p;
  })();
  return page;
}

/** Closes the shared browser; the next export starts a new one. CLI commands call this on exit. */
export async function closeRenderer(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  const b = browser;
  browser = undefined;
  page = undefined;
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
  const p = await plotlyPage();
  if (idleTimer) clearTimeout(idleTimer);
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
  // A long-lived kernel should not keep an idle Chromium around forever.
  idleTimer = setTimeout(() => void closeRenderer(), IDLE_CLOSE_MS);
  idleTimer.unref();
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** JSON safe to embed inside a <script> element. */
export const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, "\\u003c");

/** The markup for one figure inside a page that already loaded plotly.js. */
export function figureDiv(fig: Figure, id: string): string {
  const f = parseFigure(fig);
  return `<div class="figure" id="${escapeHtml(id)}"></div>
<script>Plotly.newPlot(${scriptJson(id)}, ${scriptJson(f.data)}, ${scriptJson(f.layout)}, ${scriptJson({ responsive: true, displaylogo: false, ...f.config })});</script>`;
}

/** A self-contained HTML page (plotly.js inlined) showing one or more figures. */
export function toHTML(figs: Figure | Figure[], title = "composer-lab figure"): string {
  const list = Array.isArray(figs) ? figs : [figs];
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<script>${plotlyScript()}</script></head>
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
  title: string;
}

/** Opens an HTML file in the shared headless browser and reports errors and rendered plots
 *  (how we prove report.html works offline). Requests that leave the file are blocked. */
export async function checkPage(file: string): Promise<PageCheck> {
  const b = await sharedBrowser();
  const ctx = await b.newContext();
  try {
    const p = await ctx.newPage();
    const consoleErrors: string[] = [];
    const pageErrors: string[] = [];
    p.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    p.on("pageerror", (e) => pageErrors.push(e.message));
    await p.route("**/*", (route) => (route.request().url().startsWith("file://") ? route.continue() : route.abort()));
    await p.goto(pathToFileURL(file).href, { waitUntil: "load" });
    await p.waitForTimeout(200);
    const plots = await p.locator(".js-plotly-plot").count();
    return { consoleErrors, pageErrors, plots, title: await p.title() };
  } finally {
    await ctx.close();
  }
}
