import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { barChart, binCounts, binEdges, bundleFor, checkPage, closeRenderer, figureDiv, fromRows, histogram, lineChart, parseFigure, sharedBrowser, tableHTML, tableText, toHTML, toPNG } from "../lib/viz/index.js";
import { tmp } from "./helpers.js";

const require = createRequire(import.meta.url);
afterAll(() => closeRenderer());

const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

describe("figures", () => {
  it("rejects malformed figures naming the field", () => {
    expect(() => parseFigure({ data: [] })).toThrow(/at data: a figure needs at least one trace/);
    expect(() => parseFigure({ data: [1] })).toThrow(/at data\.0:/);
    expect(() => parseFigure(null)).toThrow(/invalid figure at \(root\)/);
  });

  it("builders produce valid Plotly traces", () => {
    expect(lineChart({ a: { x: [1, 2], y: [3, 4] } }).data[0]).toMatchObject({ type: "scatter", name: "a", x: [1, 2] });
    // any number of series: no two share colour, marker and dash; the legend keeps their order
    const many = lineChart(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`arm${i}`, { x: [0, 1], y: [i, i] }])));
    const looks = many.data.map((t) => JSON.stringify([(t.line as { color: string; dash: string }).color, (t.marker as { symbol: string }).symbol, (t.line as { dash: string }).dash]));
    expect(new Set(looks).size).toBe(25);
    expect(many.data.map((t) => t.name)).toEqual(Array.from({ length: 25 }, (_, i) => `arm${i}`));
    expect(many.layout.legend).toMatchObject({ traceorder: "normal" });
    expect(barChart(["x", "y"], { s: [1, 2] }).layout.barmode).toBe("group");
    // binned here (bars), so pages need only plotly.js's basic build
    expect(histogram([1, 2, 2, 3], { bins: 3 }).data[0]).toMatchObject({ type: "bar", x: [1, 2, 3], y: [1, 2, 1] });
  });

  it("integer steps get whole-number ticks; fractional x does not", () => {
    expect(lineChart({ a: { x: [0, 1, 2, 3, 4], y: [1, 2, 3, 4, 5] } }).layout.xaxis).toMatchObject({ tick0: 0, dtick: 1 });
    expect(lineChart({ a: { x: [0, 100, 440], y: [1, 2, 3] } }).layout.xaxis).toMatchObject({ dtick: 100 });
    expect((lineChart({ a: { x: [0.5, 1.5], y: [1, 2] } }).layout.xaxis as Record<string, unknown>).dtick).toBeUndefined();
  });

  it("missing values stay gaps; log axes on request", () => {
    const f = lineChart({ a: { x: [1, 2, 3], y: [1, null, 3] } }, { logY: true });
    expect(f.data[0]).toMatchObject({ y: [1, null, 3], connectgaps: false });
    expect(f.layout.yaxis).toMatchObject({ type: "log" });
  });

  it("bins: whole-number values one per bin when the range allows; edges inclusive at the top", () => {
    expect(binEdges([1, 2, 3], 20)).toEqual([0.5, 1.5, 2.5, 3.5]);
    expect(binEdges([0, 0.5, 1], 2)).toEqual([0, 0.5, 1]);
    expect(binCounts([0, 0.25, 0.5, 1], [0, 0.5, 1])).toEqual([2, 2]);
    expect(binEdges([0.2], 4, [0, 1])).toEqual([0, 0.25, 0.5, 0.75, 1]);
    const two = histogram({ a: [1, 1, 2], b: [2, 3] });
    expect(two.data.map((t) => t.y)).toEqual([[2, 1, 0], [0, 1, 1]]);
  });

  it("pages get the smallest plotly.js build that draws their traces", () => {
    expect(bundleFor([barChart(["a"], { s: [1] }), histogram([1, 2])])).toBe("basic");
    expect(bundleFor([parseFigure({ data: [{ type: "heatmap", z: [[1]] }] })])).toBe("full");
  });

  it("tables round numbers for reading in HTML as in text", () => {
    const html = tableHTML(fromRows([{ x: 2 / 3, n: 3 }]));
    expect(html).toContain("0.6667");
    expect(html).not.toContain("0.666666");
  });

  it("exports PNG offline at the requested size, reusing one browser", async () => {
    const fig = lineChart({ loss: { x: [1, 2, 3], y: [3, 2, 1] } }, { title: "loss", width: 400, height: 250 });
    const a = await toPNG(fig);
    expect(a.subarray(1, 4).toString()).toBe("PNG");
    expect(pngSize(a)).toEqual({ width: 400, height: 250 });
    const b = await toPNG(fig, { scale: 2 });
    expect(pngSize(b)).toEqual({ width: 800, height: 500 });
  });

  it("writes self-contained HTML that renders without errors and fetches nothing", async () => {
    const html = toHTML([barChart(["a"], { s: [1] }), histogram([1, 2, 3])], "two figures");
    expect(html).not.toMatch(/<script[^>]+src=/);
    const file = join(tmp(), "figs.html");
    writeFileSync(file, html);
    const page = await checkPage(file);
    expect(page.consoleErrors).toEqual([]);
    expect(page.pageErrors).toEqual([]);
    expect(page.plots).toBe(2);
    expect(page.figures).toBe(2);
    expect(page.title).toBe("two figures");
  });

  it("a figure div placed before plotly.js arrives draws once it loads (as in a notebook)", async () => {
    const html = `<!doctype html><html><body>${figureDiv(barChart(["a"], { s: [1] }), "late")}<script>${readFileSync(require.resolve("plotly.js-basic-dist-min/plotly-basic.min.js"), "utf8")}</script></body></html>`;
    const file = join(tmp(), "late.html");
    writeFileSync(file, html);
    const page = await checkPage(file);
    expect(page.pageErrors).toEqual([]);
    expect(page.plots).toBe(1);
  });
  it("a figure's PNG sits in its div: shown where scripts do not run (untrusted notebook), replaced by the plot where they do", async () => {
    const fig = barChart(["a", "b"], { s: [1, 2] });
    const png = (await toPNG(fig)).toString("base64");
    const html = `<!doctype html><html><body>${figureDiv(fig, "still", { png })}<script>${readFileSync(require.resolve("plotly.js-basic-dist-min/plotly-basic.min.js"), "utf8")}</script></body></html>`;
    const file = join(tmp(), "still.html");
    writeFileSync(file, html);
    const drawn = await checkPage(file);
    expect(drawn.pageErrors).toEqual([]);
    expect(drawn.plots).toBe(1);
    const ctx = await (await sharedBrowser()).newContext({ javaScriptEnabled: false });
    try {
      const p = await ctx.newPage();
      await p.goto(pathToFileURL(file).href);
      // the decoded image has the PNG's real size: the still figure is what an untrusted viewer sees
      expect(await p.locator("#still img").evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100);
    } finally {
      await ctx.close();
    }
  });
});

describe("tables", () => {
  it("prints aligned text: numbers right-aligned, long cells cut, rows limited", () => {
    const t = fromRows([
      { name: "a", n: 1, x: 0.5 },
      { name: "bbbbbb", n: 100, x: 12.25 },
      { name: "c".repeat(80), n: 3, x: null },
    ]);
    const lines = tableText(t, { maxWidth: 10 }).split("\n");
    expect(lines[0]).toBe("name          n      x");
    expect(lines[2]).toBe("a             1    0.5");
    expect(lines[3]).toBe("bbbbbb      100  12.25");
    expect(lines[4]!.startsWith("ccccccccc… ")).toBe(true);
    expect(tableText(t, { limit: 1 }).split("\n").pop()).toBe("… 2 more rows (3 in all)");
  });
});
