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
      `const x: number = 1;`,
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
    expect(r.stderr).toContain("---- cell source ----");

    // executed copies land in --out; the sources stay untouched
    expect(readFileSync(bad, "utf8")).toBe(badSource);
    const executed = JSON.parse(readFileSync(join(out, "a-good.ipynb"), "utf8"));
    expect(JSON.stringify(executed.cells[1].outputs)).toContain("─");
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
