/**
 * Issue 32 item 3 (notebook 01): bars with a colour (and past ten a pattern) per series and the legend
 * in the order given, horizontal bars sorted as given; hint coverage stacked by layer per error kind;
 * compareCoverage on the bundled traces before and after a template for file_not_found.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { TemplateRegistry, compareCoverage, compareCoverageFigure, contextsFromTraces, coverageFigure, defaultLayered, hintCoverage, type Coverage, type ErrorContext } from "../lib/hints/index.js";
import { barChart } from "../lib/viz/index.js";
import { ROOT } from "./helpers.js";

describe("barChart", () => {
  it("any number of series: no two look alike; the legend in the order given", () => {
    const many = barChart(["a", "b"], Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`arm${i}`, [i, i + 1]])));
    const looks = many.data.map((t) => JSON.stringify(t.marker));
    expect(new Set(looks).size).toBe(25);
    expect(many.data.map((t) => t.name)).toEqual(Array.from({ length: 25 }, (_, i) => `arm${i}`));
    expect(many.layout.legend).toMatchObject({ traceorder: "normal" });
  });
  it("horizontal: categories down y in the order given, values along x, axis titles, height by rows", () => {
    const cats = Array.from({ length: 22 }, (_, i) => `kind${i}`);
    const f = barChart(cats, { sites: cats.map((_, i) => 22 - i) }, { horizontal: true, xTitle: "sites", yTitle: "error kind" });
    expect(f.data[0]).toMatchObject({ type: "bar", orientation: "h", y: cats, x: cats.map((_, i) => 22 - i) });
    expect(f.layout.yaxis).toMatchObject({ autorange: "reversed", title: { text: "error kind" } });
    expect(f.layout.xaxis).toMatchObject({ title: { text: "sites" } });
    expect(f.layout.height as number).toBeGreaterThanOrEqual(22 * 24);
  });
});

describe("hint coverage before and after a template change", () => {
  let contexts: ErrorContext[] = [];
  let before: Coverage;
  let after: Coverage;
  beforeAll(async () => {
    contexts = await contextsFromTraces([join(ROOT, "datasets", "traces")]);
    before = await hintCoverage(contexts, defaultLayered());
    const templates = new TemplateRegistry();
    templates.register("file_not_found", "Reminder: {error_excerpt}. List the directory first.");
    after = await hintCoverage(contexts, defaultLayered({ templates }));
  });

  it("compareCoverage: the file_not_found sites move from raw_error to template, and nothing else", () => {
    const moved = before.byKind.file_not_found!.raw_error;
    expect(moved).toBeGreaterThan(0);
    const cmp = compareCoverage(before, after);
    expect(cmp.sites).toBe(contexts.length);
    expect(cmp.moves).toEqual({ "raw_error → template": moved });
    expect(cmp.changed).toHaveLength(moved);
    for (const c of cmp.changed) {
      expect(c).toMatchObject({ error_kind: "file_not_found", before: "raw_error", after: "template" });
      expect(c.hint_after).toMatch(/^Reminder: .*List the directory first\.$/);
      expect(c.site).toMatch(/#\d+/);
    }
    expect(cmp.byLayer.template).toEqual({ before: before.byLayer.template, after: before.byLayer.template + moved });
    expect(cmp.byLayer.raw_error.after).toBe(before.byLayer.raw_error - moved);
    expect(Object.keys(cmp.byKind)).toEqual(["file_not_found"]);
    expect(cmp.byKind.file_not_found).toEqual({ before: { raw_error: moved }, after: { template: moved } });
    // a comparison with itself changes nothing
    expect(compareCoverage(before, before)).toMatchObject({ moves: {}, changed: [] });
  });

  it("coverages over different sites are refused, naming them", async () => {
    const part = await hintCoverage(contexts.slice(0, contexts.length - 2), defaultLayered());
    expect(() => compareCoverage(before, part)).toThrow(/different sites \(2 only before: [^;]+#\d+, [^;]+#\d+; 0 only after\)/);
  });

  it("coverageFigure: stacked horizontal bars by kind, most sites on top, one series per layer used", () => {
    const f = coverageFigure(after);
    expect(f.layout).toMatchObject({ barmode: "stack", xaxis: { title: { text: "error sites" } }, yaxis: { title: { text: "error kind" }, autorange: "reversed" } });
    const kinds = f.data[0]!.y as string[];
    const total = (k: string) => f.data.reduce((n, t) => n + (t.x as number[])[kinds.indexOf(k)]!, 0);
    expect(kinds.map(total)).toEqual([...kinds.map(total)].sort((a, b) => b - a));
    expect(kinds.map(total).reduce((a, b) => a + b, 0)).toBe(after.sites);
    expect(f.data.map((t) => t.name)).toEqual(["template", "raw_error", "none"].filter((l) => after.byLayer[l as "template"] > 0));
    const g = compareCoverageFigure(compareCoverage(before, after), { before: "default", after: "+ file_not_found template" });
    expect(g.data.map((t) => t.name)).toEqual(["default", "+ file_not_found template"]);
    expect(g.data[1]!.y).toEqual((g.data[0]!.x as string[]).map((l) => after.byLayer[l as "template"]));
  });
});
