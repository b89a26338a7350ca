import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { GateFailure, applyUnifiedDiff, buildDeletionTask, deleteSymbol, fileDiff, loadTask, publicView, readIndex, scrub } from "../lib/tasks/index.js";
import { ROOT, tmp } from "./helpers.js";

const SRC = `import os


class Store:
    """A store."""

    def get(self, key):
        """Return a value."""
        value = self._d[key]  # keep this comment
        return value

    def put(self, key, value):
        self._d[key] = value


def helper(x: int) -> int:
    return x * 2
`;

describe("AST deletion", () => {
  it("stubs a method, keeping its signature, docstring and the rest of the file byte for byte", () => {
    const out = deleteSymbol(SRC, "Store.get");
    expect(out).toBe(SRC.replace('        value = self._d[key]  # keep this comment\n        return value', "        raise NotImplementedError"));
    expect(deleteSymbol(SRC, "Store.get", { strip_docstring: true })).not.toContain("Return a value.");
    expect(deleteSymbol(SRC, "helper", { mode: "remove" })).not.toContain("def helper");
    expect(() => deleteSymbol(SRC, "nope")).toThrow(/no function or class named nope/);
  });
});

describe("scrubbing", () => {
  it("removes every leak source of §3a and .git", () => {
    const d = tmp();
    const leaks = ["pkg/__pycache__/m.cpython-311.pyc", ".mypy_cache/3.11/pkg/m.data.json", ".git/HEAD", "build/lib/m.py", "pkg/m.pyi", "tags", ".pytest_cache/v/x", "dist/pkg.whl", "pkg.egg-info/PKG-INFO", "x.class"];
    for (const f of [...leaks, "pkg/m.py", "tests/test_m.py"]) {
      mkdirSync(join(d, f, ".."), { recursive: true });
      writeFileSync(join(d, f), "x");
    }
    scrub(d);
    for (const f of leaks) expect(existsSync(join(d, f)), f).toBe(false);
    expect(existsSync(join(d, "pkg/m.py"))).toBe(true);
    expect(existsSync(join(d, "tests/test_m.py"))).toBe(true);
  });
});

describe("applying diffs", () => {
  it("applies, and refuses paths that leave the tree or pass through symlinks", () => {
    const d = tmp();
    writeFileSync(join(d, "a.py"), "x = 1\n");
    applyUnifiedDiff(d, fileDiff("a.py", "x = 1\n", "x = 2\n"));
    expect(readFileSync(join(d, "a.py"), "utf8")).toBe("x = 2\n");
    expect(() => applyUnifiedDiff(d, fileDiff("../evil.py", "", "boom\n"))).toThrow(/leaves the repository/);
    symlinkSync("/etc", join(d, "etc"));
    expect(() => applyUnifiedDiff(d, fileDiff("etc/evil", "", "boom\n"))).toThrow(/symbolic link/);
    expect(() => applyUnifiedDiff(d, fileDiff("a.py", "nothing like it\n", "y\n"))).toThrow(/does not apply to a.py/);
  });
});

describe("the bundled pool", () => {
  it("holds validated tasks whose golden diff is stored apart and never in the public view", () => {
    const pool = join(ROOT, "datasets", "tasks");
    const index = readIndex(pool);
    expect(index.map((t) => t.task_id)).toEqual(["inventory-reserve", "inventory-totals", "inventory-sniff"]);
    expect(readFileSync(join(pool, "index.jsonl"), "utf8")).not.toContain("@@");
    const t = loadTask(pool, "inventory-sniff");
    expect(t.golden_diff).toContain("def sniff_delimiter");
    expect(Object.keys(publicView(t))).not.toContain("golden_diff");
    expect(Object.keys(publicView(t))).not.toContain("deleted_symbols");
  });
});

describe("validation gates (in the sandbox)", () => {
  it("builds a task through all four gates, and rejects a deletion that breaks no test", async () => {
    const repo = join(ROOT, "datasets", "repos", "inventory");
    const pool = tmp();
    const sb = new BwrapSandbox();
    const t = await buildDeletionTask(repo, pool, { task_id: "t-render", repo: "x/inventory", deletions: [{ file: "inventory/report.py", qualname: "render" }] }, sb);
    expect(t.fail_to_pass).toEqual(["tests/test_report.py::test_render_aligns"]);
    expect(t.pass_to_pass).toHaveLength(21);
    expect(readIndex(pool).map((e) => e.task_id)).toEqual(["t-render"]);
    await expect(buildDeletionTask(repo, pool, { task_id: "t-release", repo: "x/inventory", deletions: [{ file: "inventory/stock.py", qualname: "Inventory.items" }], mode: "stub" }, sb)).resolves.toBeTruthy();
    const err = await buildDeletionTask(repo, pool, { task_id: "t-noop", repo: "x", deletions: [{ file: "inventory/errors.py", qualname: "UnknownSku.__str__" }] }, sb).catch((e) => e);
    expect(err).toBeInstanceOf(GateFailure);
    expect((err as GateFailure).gate).toBe("breaks_target");
    expect(readIndex(pool).map((e) => e.task_id)).toEqual(["t-render", "t-release"]);
  });
});
