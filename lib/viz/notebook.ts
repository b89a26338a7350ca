/**
 * Rich display inside a tslab kernel. tslab's public `display` emits one MIME type per output;
 * a plot must be ONE output carrying both the Plotly bundle and a PNG fallback (so it renders in
 * JupyterLab, in classic notebooks, on GitHub and in nbconvert), so we call the kernel's
 * display hook directly. Outside a kernel these functions return false and print nothing.
 */
import { createRequire } from "node:module";
import { parseFigure, type Figure } from "./figure.js";
import { toPNG } from "./render.js";
import { tableHTML, tableText, type Table } from "./table.js";

type DisplayHook = (content: { data: Record<string, unknown>; metadata: Record<string, unknown>; transient: Record<string, unknown> }, update: boolean) => void;

function kernelDisplay(): DisplayHook | undefined {
  try {
    // Resolves to the kernel's own module instance (same file → same CJS cache entry).
    const jupyter = createRequire(import.meta.url)("tslab/dist/jupyter.js") as { lastWriteDisplayData?: DisplayHook | null };
    return jupyter.lastWriteDisplayData ?? undefined;
  } catch {
    return undefined;
  }
}

/** True inside a running tslab kernel. */
export const inNotebook = (): boolean => kernelDisplay() !== undefined;

/** Sends one display_data output with several representations of the same thing. */
export function displayBundle(data: Record<string, unknown>): boolean {
  const hook = kernelDisplay();
  if (!hook) return false;
  hook({ data, metadata: {}, transient: {} }, false);
  return true;
}

/** Shows a figure: interactive Plotly where the front end supports it, PNG everywhere else. */
export async function show(fig: Figure, opts: { png?: boolean } = {}): Promise<void> {
  const f = parseFigure(fig);
  const data: Record<string, unknown> = {
    "application/vnd.plotly.v1+json": { data: f.data, layout: f.layout, config: f.config ?? {} },
    "text/plain": `<Figure: ${f.data.length} trace(s)${(f.layout.title as { text?: string } | undefined)?.text ? ` — ${(f.layout.title as { text: string }).text}` : ""}>`,
  };
  if (opts.png !== false) {
    try {
      data["image/png"] = (await toPNG(f)).toString("base64");
    } catch (e) {
      process.stderr.write(`viz.show: PNG fallback skipped: ${(e as Error).message}\n`);
    }
  }
  if (!displayBundle(data)) process.stderr.write("viz.show: not inside a tslab kernel; use viz.toPNG / viz.toHTML to export\n");
}

/** Shows a table as HTML (with an aligned-text fallback). */
export function showTable(t: Table, opts: { limit?: number } = {}): void {
  if (!displayBundle({ "text/html": tableHTML(t, opts), "text/plain": tableText(t, opts) })) process.stderr.write(tableText(t, opts) + "\n");
}
