/**
 * Rich display inside a tslab kernel. tslab's public `display` emits one MIME type per output;
 * a plot must be ONE output carrying every representation of the figure, so we call the kernel's
 * display hook directly:
 * - `application/vnd.plotly.v1+json` for JupyterLab and VS Code (their own Plotly renderers);
 * - `text/html`, a small div drawn by plotly.js, for the classic Notebook and nbconvert HTML, which
 *   have no Plotly renderer. plotly.js itself (from the installed package, offline) goes out once
 *   per kernel as its own output before the first figure;
 * - `image/png` for GitHub and other static viewers, rendered in the background and added to the
 *   same output by display id, so `show` returns at once. The same PNG then sits inside the div as
 *   a placeholder, so a notebook opened untrusted (its scripts do not run) shows the still figure.
 * Outside a kernel these functions return false and print nothing.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { parseFigure, type Figure } from "./figure.js";
import { bundleFor, figureDiv, plotlyScript, plotTitle, toPNG, type PlotlyBundle } from "./render.js";
import { tableHTML, tableText, type Table } from "./table.js";

interface DisplayContent {
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  transient: Record<string, unknown>;
}
type DisplayHook = (content: DisplayContent, update: boolean) => void;

function kernelDisplay(): DisplayHook | undefined {
  try {
    // Resolves to the kernel's own module instance (same file → same CJS cache entry). The hook
    // belongs to the cell running now: updates sent through it reach a headless runner too, which
    // listens only to the running cell's messages.
    const jupyter = createRequire(import.meta.url)("tslab/dist/jupyter.js") as { lastWriteDisplayData?: DisplayHook | null };
    return jupyter.lastWriteDisplayData ?? undefined;
  } catch {
    return undefined;
  }
}

/** True inside a running tslab kernel. */
export const inNotebook = (): boolean => kernelDisplay() !== undefined;

/** Sends one display_data output with several representations of the same thing. */
export function displayBundle(data: Record<string, unknown>, displayId?: string, update = false): boolean {
  const hook = kernelDisplay();
  if (!hook) return false;
  hook({ data, metadata: {}, transient: displayId ? { display_id: displayId } : {} }, update);
  return true;
}

/** The plotly.js builds this kernel has sent to the front end (the full one draws everything). */
const sentBundles = new Set<PlotlyBundle>();

function ensurePlotlyLoaded(bundle: PlotlyBundle): boolean {
  if (sentBundles.has("full") || sentBundles.has(bundle)) return true;
  const version = (plotlyScript(bundle).match(/plotly\.js [^\n]*?v(\d[\d.]*)/) ?? [])[1] ?? "?";
  const ok = displayBundle({
    "text/html": `<script>${plotlyScript(bundle)}</script>`,
    "text/plain": `(plotly.js ${version}, ${bundle} build, loaded for the interactive figures below)`,
  });
  if (ok) sentBundles.add(bundle);
  return ok;
}

/** PNG renders still running; the notebook runner awaits them before saving the notebook. */
const pendingPngs = new Set<Promise<void>>();
/** Each figure's bundle with its PNG, as last sent (the most recent FLUSH_KEPT): an update goes out
 *  with the header of the cell that ran last, so one sent between two cells belongs to a cell a
 *  headless runner no longer reads, and is lost there (4 of 5 figures of a notebook, under load). */
const updatedBundles = new Map<string, Record<string, unknown>>();
const FLUSH_KEPT = 256;

/** Waits until every figure shown so far carries its PNG, and sends each PNG again from the cell
 *  running now (the runner's flush cell), where it is read. */
export async function flushFigures(): Promise<void> {
  while (pendingPngs.size) await Promise.all([...pendingPngs]);
  for (const [id, bundle] of updatedBundles) displayBundle(bundle, id, true);
  updatedBundles.clear();
}
// The headless runner calls this by name after the last cell (it cannot import the library).
(globalThis as Record<symbol, unknown>)[Symbol.for("composer-lab.viz.flushFigures")] = flushFigures;

const plainText = (f: Figure): string => {
  const title = plotTitle(f);
  return `<Figure: ${f.data.length} trace(s)${title ? ` — ${title}` : ""}>`;
};

/**
 * Shows a figure: interactive in every Jupyter front end, a PNG (added in the background) for
 * static viewers. Returns at once; `opts.png: false` skips the PNG.
 */
export async function show(fig: Figure, opts: { png?: boolean } = {}): Promise<void> {
  const f = parseFigure(fig);
  if (!ensurePlotlyLoaded(bundleFor([f]))) {
    process.stderr.write("viz.show: not inside a tslab kernel; use viz.toPNG / viz.toHTML to export\n");
    return;
  }
  const id = `composer-lab-figure-${randomUUID()}`;
  const data: Record<string, unknown> = {
    "application/vnd.plotly.v1+json": { data: f.data, layout: f.layout, config: f.config ?? {} },
    "text/html": figureDiv(f, id),
    "text/plain": plainText(f),
  };
  displayBundle(data, id);
  if (opts.png === false) return;
  const job = toPNG(f)
    .then((png) => {
      const b64 = png.toString("base64");
      // The PNG also goes inside the div: an untrusted notebook does not run its script (see figureDiv).
      const bundle = { ...data, "text/html": figureDiv(f, id, { png: b64 }), "image/png": b64 };
      updatedBundles.set(id, bundle);
      if (updatedBundles.size > FLUSH_KEPT) updatedBundles.delete(updatedBundles.keys().next().value!);
      displayBundle(bundle, id, true);
    })
    .catch((e: Error) => void process.stderr.write(`viz.show: PNG fallback skipped: ${e.message}\n`))
    .finally(() => pendingPngs.delete(job));
  pendingPngs.add(job);
}

/** Shows a table as HTML (with an aligned-text fallback). */
export function showTable(t: Table, opts: { limit?: number } = {}): void {
  if (!displayBundle({ "text/html": tableHTML(t, opts), "text/plain": tableText(t, opts) })) process.stderr.write(tableText(t, opts) + "\n");
}
