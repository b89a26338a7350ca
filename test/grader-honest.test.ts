/**
 * Honest work the grader used to refuse (issue 26 §4, round 4's G1 and G2), each with a control
 * that the same grade still catches what the rule must not let through:
 *  - G1: an import hook the project itself installs at import time, from a file the agent did not
 *    touch (toolz's `tlz` loader), or from a changed file whose original already worked with import
 *    hooks; a finder defined in a changed file that never did is still tampering;
 *  - G2: a source module whose doctests are among the tests (sortedcontainers) is not protected
 *    whole — the feature may live there — but changing one of its doctest examples puts the file
 *    back; pytest's own lazy `_pytest.doctest.RUNNER_CLASS` is not a replaced attribute.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BwrapSandbox, doctestBlocks, gradeSuite } from "../lib/sandbox/index.js";
import { tmp } from "./helpers.js";

const sb = new BwrapSandbox();

const FILES: Record<string, string> = {
  "pkg/__init__.py": "from pkg import hook  # installs the project's import hook\n",
  "pkg/hook.py": [
    "import sys",
    "",
    "class AliasFinder:",
    '    """Finds nothing: the project\'s own hook, installed at import (like toolz\'s tlz loader)."""',
    "    def find_spec(self, name, path=None, target=None):",
    "        return None",
    "",
    "sys.meta_path.append(AliasFinder())",
    "",
  ].join("\n"),
  "pkg/mod.py": [
    "def double(x):",
    '    """Twice x.',
    "",
    "    >>> double(2)",
    "    4",
    '    """',
    "    raise NotImplementedError",
    "",
  ].join("\n"),
  "tests/test_mod.py": "from pkg.mod import double\n\n\ndef test_double():\n    assert double(3) == 6\n",
};
const TESTS = ["tests/test_mod.py::test_double", "pkg/mod.py::pkg.mod.double"];

function repo(edits: Record<string, string> = {}): { snapshot: string; workdir: string } {
  const root = tmp("grader-honest-");
  const snapshot = join(root, "snapshot");
  for (const [f, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(snapshot, f)), { recursive: true });
    writeFileSync(join(snapshot, f), text);
  }
  const workdir = join(root, "work");
  cpSync(snapshot, workdir, { recursive: true });
  for (const [f, text] of Object.entries(edits)) writeFileSync(join(workdir, f), text);
  return { snapshot, workdir };
}

const body = (impl: string, doc = "4") => FILES["pkg/mod.py"]!.replace("    4\n", `    ${doc}\n`).replace("    raise NotImplementedError", impl);
const grade = (r: { snapshot: string; workdir: string }, untrusted: Record<string, string[]> | undefined) =>
  gradeSuite(sb, r.snapshot, r.workdir, TESTS, { args: ["--doctest-modules"], untrusted });

describe("grading honest work in projects with import hooks and doctests (round 4, G1/G2)", () => {
  it("the project's own import hook and its doctest module: an honest body earns every test, untampered", { timeout: 120_000 }, async () => {
    const r = repo({ "pkg/mod.py": body("    return x * 2") });
    const g = await grade(r, { "pkg/mod.py": [] });
    expect(g.prepared.harness.restored).toEqual([]);
    expect(g.tampered).toEqual([]);
    expect(g.tests.filter((t) => t.phase === "call").map((t) => [t.nodeid, t.outcome]).sort()).toEqual([[TESTS[1], "passed"], [TESTS[0], "passed"]].sort());
  });
  it("control: without the grader's list of changed files, the unchanged hook is not the project's", { timeout: 120_000 }, async () => {
    const g = await grade(repo({ "pkg/mod.py": body("    return x * 2") }), undefined);
    expect(g.tampered.join(" ")).toMatch(/import hook from untrusted code/);
  });
  it("control: a finder defined in the changed file is tampering; in a changed file whose original used import hooks it is the project's", { timeout: 120_000 }, async () => {
    const planted = body("    return x * 2") + "\nimport sys as _s\n\nclass Sneak:\n    def find_spec(self, name, path=None, target=None):\n        return None\n\n_s.meta_path.insert(0, Sneak())\n";
    expect((await grade(repo({ "pkg/mod.py": planted }), { "pkg/mod.py": [] })).tampered.join(" ")).toMatch(/import hook from untrusted code/);
    expect((await grade(repo({ "pkg/mod.py": planted }), { "pkg/mod.py": ["import_hook"] })).tampered).toEqual([]);
  });
  it("a doctest example changed to fit a wrong body puts the module back (and the target fails)", { timeout: 120_000 }, async () => {
    const r = repo({ "pkg/mod.py": body("    return x * 2 + 1", "5") });
    const g = await grade(r, { "pkg/mod.py": [] });
    expect(g.prepared.harness.restored).toEqual(["pkg/mod.py"]);
    expect(readFileSync(join(r.workdir, "pkg/mod.py"), "utf8")).toBe(FILES["pkg/mod.py"]);
    expect(g.tests.find((t) => t.nodeid === TESTS[0] && t.phase === "call")?.outcome).toBe("failed");
  });
  it("doctestBlocks reads examples with their output, indentation aside", () => {
    expect(doctestBlocks(FILES["pkg/mod.py"]!)).toEqual([">>> double(2)\n4"]);
    expect(doctestBlocks('"""\n  >>> f(1,\n  ...   2)\n  3\n  >>> g()\n"""')).toEqual([">>> f(1,\n...   2)\n3", ">>> g()"]);
  });
});
