/**
 * PNG export: one shared Chromium per process (what lib/viz does) vs launching a browser per
 * figure (the naive approach). Same figures, same run, side by side.
 */
import { chromium } from "playwright-core";
import type { BenchResult } from "../lib/cli/index.js";
import { chromiumPath } from "../lib/core/index.js";
import { CHROMIUM_ARGS, closeRenderer, lineChart, plotlyScript, toPNG } from "../lib/viz/index.js";

const N = 5;

export async function run(): Promise<BenchResult> {
  const figs = Array.from({ length: N }, (_, i) => lineChart({ s: { x: [...Array(200).keys()], y: [...Array(200).keys()].map((x) => Math.sin(x / 10 + i)) } }, { title: `figure ${i}` }));

  await closeRenderer();
  let t0 = performance.now();
  for (const f of figs) await toPNG(f);
  const shared = (performance.now() - t0) / N;
  await closeRenderer();

  t0 = performance.now();
  for (const f of figs) {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    await page.setContent(`<script>${plotlyScript()}</script>`);
    await page.evaluate((fig) => (globalThis as any).Plotly.toImage(fig, { format: "png", width: 720, height: 400 }), f);
    await browser.close();
  }
  const fresh = (performance.now() - t0) / N;

  return {
    summary: `PNG export of ${N} figures: shared browser ${shared.toFixed(0)} ms/figure (first includes launch), browser per figure ${fresh.toFixed(0)} ms/figure → ${(fresh / shared).toFixed(1)}× faster shared`,
    rows: [
      { method: "shared browser (lib/viz)", ms_per_figure: Number(shared.toFixed(1)) },
      { method: "browser per figure", ms_per_figure: Number(fresh.toFixed(1)) },
    ],
    ratios: { fresh_over_shared: Number((fresh / shared).toFixed(2)) },
  };
}
