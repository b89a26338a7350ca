import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { barChart, checkPage, closeRenderer, fromRows, histogram, lineChart, parseFigure, tableText, toHTML, toPNG } from "../lib/viz/index.js";
import { tmp } from "./helpers.js";

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
    expect(barChart(["x", "y"], { s: [1, 2] }).layout.barmode).toBe("group");
    expect(histogram([1, 2, 2, 3], { bins: 3 }).data[0]).toMatchObject({ type: "histogram", nbinsx: 3 });
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
    expect(page.title).toBe("two figures");
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
