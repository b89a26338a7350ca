import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, oneJson, tmp } from "./helpers.js";

function notebook(cells: string[]): string {
  return JSON.stringify({
    cells: cells.map((source) => ({ cell_type: "code", metadata: {}, source, outputs: [], execution_count: null })),
    metadata: { kernelspec: { name: "composer-lab", display_name: "TypeScript (composer-lab)", language: "typescript" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

describe("headless notebook runner (real Jupyter + tslab kernel)", () => {
  it("runs passing notebooks, stops a failing one at its first failing cell, and reports it", () => {
    const dir = tmp();
    const marker = join(dir, "after-failure");
    const good = join(dir, "a-good.ipynb");
    const bad = join(dir, "b-bad.ipynb");
    writeFileSync(good, notebook([`import { viz } from "composer-lab";`, `viz.tableText(viz.fromRows([{ a: 1 }]))`]));
    const badSource = notebook([
      `import { viz } from "composer-lab";\nconst x: number = 1;`,
      `throw new Error("cell two is broken");`,
      `import { writeFileSync } from "fs"; writeFileSync(${JSON.stringify(marker)}, "ran");`,
    ]);
    writeFileSync(bad, badSource);
    const out = join(dir, "executed");

    const r = cli(["notebooks", dir, "--out", out, "--json"]);
    expect(r.code).toBe(1);
    const res = oneJson(r.stdout);
    expect(res).toMatchObject({ ok: false, passed: 1, failed: 1 });
    const failed = res.notebooks.find((n: { notebook: string }) => n.notebook === bad);
    expect(failed.failed.index).toBe(1);
    expect(failed.failed.source).toContain("cell two is broken");
    expect(failed.failed.stderr).toContain("cell two is broken");
    expect(existsSync(marker)).toBe(false); // later cells never ran
    // a code frame of the cell, the failing line marked; no tslab internals
    expect(r.stderr).toContain("---- cell source ----");
    expect(r.stderr).toContain(`> 1 | throw new Error("cell two is broken");`);
    expect(r.stderr).toMatch(/---- error ----\nError: cell two is broken/);
    expect(r.stderr).not.toContain("node_modules/tslab");
    // the same frame inside the notebook itself (the kernel formats errors once the library is imported)
    const executedBad = JSON.parse(readFileSync(join(out, "b-bad.ipynb"), "utf8"));
    const shown = executedBad.cells[1].outputs.map((o: { text?: string | string[] }) => [o.text ?? ""].flat().join("")).join("");
    expect(shown).toContain(`> 1 | throw new Error("cell two is broken");`);
    expect(shown).not.toContain("node_modules/tslab");

    // executed copies land in --out; the sources stay untouched
    expect(readFileSync(bad, "utf8")).toBe(badSource);
    const executed = JSON.parse(readFileSync(join(out, "a-good.ipynb"), "utf8"));
    expect(JSON.stringify(executed.cells[1].outputs)).toContain("─");
  });

  it("executed copies carry execution counts and every figure's PNG; the HTML export draws every figure", () => {
    const dir = tmp();
    writeFileSync(join(dir, "figs.ipynb"), notebook([
      `import { viz } from "composer-lab";`,
      `await viz.show(viz.lineChart({ a: { x: [1, 2, 3], y: [1, null, 2] } }));`,
      `await viz.show(viz.histogram([1, 2, 2, 3]));\nawait viz.show(viz.barChart(["a", "b"], { n: [1, 2] }));`,
    ]));
    const out = join(dir, "out");
    const r = cli(["notebooks", dir, "--out", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const nb = oneJson(r.stdout).notebooks[0];
    expect(nb).toMatchObject({ ok: true, figures: 3, pngs: 3, interactive_plots: 3, problems: [] });
    const executed = JSON.parse(readFileSync(join(out, "figs.ipynb"), "utf8"));
    expect(executed.cells.map((c: { execution_count: number }) => c.execution_count)).toEqual([1, 2, 3]);
    expect(executed.cells).toHaveLength(3); // the runner's flush cell is not saved
    const html = readFileSync(nb.html, "utf8");
    expect(html.match(/window\.Plotly = Plotly/g)).toHaveLength(1); // plotly.js once per notebook
  });

  it("a line number in a type error points the code frame at the cell's line", () => {
    const dir = tmp();
    writeFileSync(join(dir, "t.ipynb"), notebook([`const a: number = 1;\nconst b: string = a;`]));
    const r = cli(["notebooks", dir, "--out", join(dir, "out")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("> 2 | const b: string = a;");
    expect(r.stderr).toMatch(/\n +\| +\^/);
  });

  it("ends human output with the line `N passed, N failed`", () => {
    const dir = tmp();
    writeFileSync(join(dir, "ok.ipynb"), notebook([`1 + 1`]));
    const r = cli(["notebooks", dir, "--out", join(dir, "out")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n").pop()).toBe("1 passed, 0 failed");
  });

  it("names a missing path", () => {
    const r = cli(["notebooks", "/no/such/dir", "--json"]);
    expect(r.code).toBe(1);
    expect(oneJson(r.stdout).error).toBe("no such notebook or folder: /no/such/dir");
  });
});
