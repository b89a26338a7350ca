/**
 * Task building on real-shaped projects (issue 20): the repo's own code under test whatever its
 * layout, shadows named, the per-repo environment, the project's pytest config honoured or
 * overridden, file / feature granularity, context starvation, bundled copies stripped, zero
 * candidates explained, and escalation from the curriculum.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PassRateCurriculum } from "../lib/curriculum/index.js";
import { BwrapSandbox, PyEnv, SYSTEM_PYTHON, ensurePyEnv, pytestCompat, repoLayout, runPytest } from "../lib/sandbox/index.js";
import { buildFromRepo, buildHarder, featureClosure, loadTask, pythonFacts, readIndex, starveSources, stripBundledDeps } from "../lib/tasks/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const SHELFKIT = join(ROOT, "datasets", "repos", "shelfkit");
const SHADOW = join(ROOT, "datasets", "repos", "shelfkit-installed", "shelfkit");
const TEXTKIT = join(ROOT, "datasets", "repos", "textkit");
const sb = new BwrapSandbox();

const write = (root: string, files: Record<string, string>) => {
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), text);
  }
};

/** A venv (system site-packages visible) holding the installed 1.0.0 copy of shelfkit: the shadow. */
function shadowEnv(): PyEnv {
  const dir = join(tmp("shadow-env-"), "venv");
  execFileSync(SYSTEM_PYTHON, ["-m", "venv", "--system-site-packages", "--without-pip", dir]);
  const site = execFileSync(join(dir, "bin", "python"), ["-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { encoding: "utf8" }).trim();
  cpSync(SHADOW, join(site, "shelfkit"), { recursive: true });
  // the sandbox user reads it through a bind
  for (let d = dir; d !== "/" && d.startsWith("/tmp/"); d = join(d, "..")) chmodSync(d, 0o755);
  return { dir, key: "shadow", install: "path", install_error: null, deps: { asked: false, requirements: [], pinned: [], error: null }, created_s: 0 };
}

describe("layout detection", () => {
  it("finds src/, configured, flat and namespace layouts", () => {
    expect(repoLayout(SHELFKIT)).toMatchObject({ kind: "configured", roots: ["src"], packages: [{ name: "shelfkit", path: "src/shelfkit", namespace: false }] });
    expect(repoLayout(TEXTKIT)).toMatchObject({ kind: "flat", roots: ["."], packages: [{ name: "textkit", path: "textkit" }] });
    const d = tmp();
    write(join(d, "s"), { "src/alpha/__init__.py": "", "src/beta.py": "", "tests/test_a.py": "" });
    expect(repoLayout(join(d, "s"))).toMatchObject({ kind: "src", roots: ["src"], packages: [{ name: "alpha" }, { name: "beta", path: "src/beta.py" }] });
    write(join(d, "n"), { "acme/widgets/__init__.py": "", "acme/widgets/core.py": "", "tests/test_w.py": "", "docs/conf.py": "" });
    expect(repoLayout(join(d, "n"))).toMatchObject({ kind: "namespace", roots: ["."], packages: [{ name: "acme", path: "acme", namespace: true }] });
    write(join(d, "c"), { "setup.cfg": "[options]\npackage_dir =\n    = lib\npackages = find:\n\n[options.extras_require]\ntest = pytest-mock\n", "lib/gamma/__init__.py": "" });
    expect(repoLayout(join(d, "c"))).toMatchObject({ kind: "configured", roots: ["lib"], packages: [{ name: "gamma", path: "lib/gamma" }], source: "setup.cfg [options] package_dir", deps: { requirements: ["pytest-mock"] } });
  });
});

describe("the repo's own code under test", () => {
  it("puts src/ before an installed copy; without it the shadow is named with where it came from", { timeout: 600_000 }, async () => {
    const env = shadowEnv();
    const own = await runPytest(sb, SHELFKIT, { pyenv: env });
    expect(own.counts.passed).toBe(13);
    expect(own.shadowed).toEqual([]);
    // what the old runner did: only the repo root on sys.path → the installed 1.0.0 answers
    const wrongRoots = { ...repoLayout(SHELFKIT), roots: ["."] };
    const shadowed = await runPytest(sb, SHELFKIT, { pyenv: env, layout: wrongRoots });
    expect(shadowed.counts.failed).toBeGreaterThan(0);
    expect(shadowed.shadowed.map((s) => s.module)).toContain("shelfkit");
    expect(shadowed.shadowed.find((s) => s.module === "shelfkit")!.file).toMatch(/site-packages\/shelfkit\/__init__\.py$/);
    // the builder refuses to measure the shadow, naming the module and the file
    const err = await buildFromRepo(SHELFKIT, tmp(), sb, { pyenv: env, layout: wrongRoots, max: 1 }, { quiet: true }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/imported the project module shelfkit\S* from \S*site-packages\/shelfkit\/\S+\.py, not from the repo/);
  });

  it("honours the project's config (strict markers, testpaths) with the lab's coverage rcfile; the fixture's coverage option breaks plain pytest-cov", async () => {
    // the reference: Debian's coverage turns the unknown [tool.coverage.run] option into an error
    const plain = tmp();
    cpSync(SHELFKIT, plain, { recursive: true });
    const ref = spawnSync(SYSTEM_PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "pytest_cov", "--cov=src/shelfkit"], { cwd: plain, env: { PATH: process.env.PATH!, PYTHONPATH: "src", PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" }, encoding: "utf8" });
    expect(ref.status).not.toBe(0);
    expect(ref.stdout + ref.stderr).toMatch(/Unrecognized option '\[tool\.coverage\.run\] core='/);
    const r = await runPytest(sb, SHELFKIT, { coverage: { source: ["src/shelfkit"] }, pyenv: null });
    expect(r.counts.passed).toBe(13); // the `slow` marker is registered by the project's config (--strict-markers)
    expect(Object.keys(r.coverage!).sort()).toEqual(["src/shelfkit/__init__.py", "src/shelfkit/codes.py", "src/shelfkit/shelves.py"]);
    expect(r.coverage!["src/shelfkit/codes.py"]![19]).toContain("tests/test_codes.py::test_checksum_known");
  });

  it("reports a minversion the installed pytest cannot meet, with the fix, and runs with it overridden", async () => {
    const repo = tmp();
    cpSync(SHELFKIT, repo, { recursive: true });
    const text = readFileSync(join(repo, "pyproject.toml"), "utf8").replace('testpaths = ["tests"]', 'minversion = "99.0"\ntestpaths = ["tests"]');
    writeFileSync(join(repo, "pyproject.toml"), text);
    expect(pytestCompat(text, "pyproject.toml", "99.0").notes).toEqual([]);
    const r = await runPytest(sb, repo, { pyenv: null });
    expect(r.counts.passed).toBe(13);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toMatch(/pyproject\.toml: minversion 99\.0 is above the installed pytest 7\.\d+\.\d+.*fix: `tasks build --deps`/);
  });

  it("makes a per-repo venv with the repo installed editable offline, reused, and used at grade time", { timeout: 600_000 }, async () => {
    const env = await ensurePyEnv(SHELFKIT, sb);
    expect(env.install).toBe("editable");
    expect(existsSync(join(env.dir, "pyvenv.cfg"))).toBe(true);
    expect(readFileSync(join(env.dir, "pyvenv.cfg"), "utf8")).toMatch(/include-system-site-packages = true/);
    // the editable install points where the repo is mounted in the sandbox, and leaves no copy of the code
    const site = readdirSync(join(env.dir, "lib"))[0]!;
    const pkgs = readdirSync(join(env.dir, "lib", site, "site-packages"));
    expect(pkgs.some((f) => /^shelfkit-1\.2\.0\.dist-info$/.test(f))).toBe(true);
    expect(pkgs).not.toContain("shelfkit");
    expect((await ensurePyEnv(SHELFKIT, sb)).created_s).toBe(env.created_s); // cached
    // found again by its packaging files (as the grader's runPytest does): the project's own metadata answers
    const r = await runPytest(sb, SHELFKIT, { tests: ["tests/test_codes.py::test_checksum_known"], args: [] });
    expect(r.counts.passed).toBe(1);
  });
});

describe("builder on a src-layout repo shadowed by an installed copy", () => {
  it("builds function tasks from the repo's code (the shadow never answers) and reports its environment", { timeout: 600_000 }, async () => {
    const pool = tmp();
    const r = await buildFromRepo(SHELFKIT, pool, sb, { pyenv: shadowEnv(), max: 3 }, { quiet: true });
    expect(r.validated).toBe(3);
    expect(r.environment!.layout.roots).toEqual(["src"]);
    for (const id of r.tasks) expect(loadTask(pool, id).deleted_symbols[0]!.file).toMatch(/^src\/shelfkit\//);
  });
});

describe("seed granularities", () => {
  it("file: the module is gone from the snapshot, its imports elsewhere too; the golden diff brings both back", { timeout: 600_000 }, async () => {
    const pool = tmp();
    const r = await buildFromRepo(SHELFKIT, pool, sb, { granularity: "file", max: 2, pyenv: false }, { quiet: true });
    expect(r.validated).toBeGreaterThanOrEqual(1);
    const t = loadTask(pool, r.tasks[0]!);
    const file = t.deleted_symbols[0]!.file;
    const snap = join(pool, "tasks", t.task_id, "repo");
    expect(existsSync(join(snap, file))).toBe(false);
    const mod = file.split("/").pop()!.replace(/\.py$/, "");
    expect(readFileSync(join(snap, "src/shelfkit/__init__.py"), "utf8")).not.toContain(`from .${mod} import`);
    expect(t.golden_diff).toContain("--- /dev/null");
    expect(t.golden_diff).toContain(`+from .${mod} import`);
    expect(t.fail_to_pass.every((id) => id.startsWith(`tests/test_${mod}.py::`))).toBe(true);
  });

  it("feature: a symbol and the helpers only it uses; helpers used elsewhere stay", () => {
    const repo = SHELFKIT;
    const files = ["src/shelfkit/codes.py", "src/shelfkit/shelves.py", "src/shelfkit/__init__.py", "tests/test_codes.py", "tests/test_shelves.py"];
    const texts = Object.fromEntries(files.map((f) => [f, readFileSync(join(repo, f), "utf8")]));
    const facts = pythonFacts(Object.fromEntries(files.filter((f) => f.startsWith("src/")).map((f) => [f, texts[f]!])));
    const sym = (f: string, q: string) => facts[f]!.symbols.find((s) => s.qualname === q)!;
    const names = (f: string, q: string) => featureClosure(f, sym(f, q), texts, facts, ["src"]).map((c) => c.symbol.qualname).sort();
    expect(names("src/shelfkit/codes.py", "checksum")).toEqual(["_digits", "_weighted_sum", "checksum"]);
    // shelf_width is public and used by Shelf and fits: not part of fits' feature; _gaps only shelf_width uses
    expect(names("src/shelfkit/shelves.py", "shelf_width")).toEqual(["_gaps", "shelf_width"]);
    expect(names("src/shelfkit/shelves.py", "fits")).toEqual(["fits"]);
  });

  it("feature tasks remove the closure's helpers and pass the four gates", { timeout: 600_000 }, async () => {
    const pool = tmp();
    const r = await buildFromRepo(SHELFKIT, pool, sb, { granularity: "feature", max: 2, pyenv: false }, { quiet: true });
    expect(r.validated).toBeGreaterThanOrEqual(1);
    const t = loadTask(pool, r.tasks.find((id) => id.endsWith("checksum")) ?? r.tasks[0]!);
    expect(t.granularity).toBe("feature");
    expect(t.deleted_symbols.length).toBeGreaterThanOrEqual(2);
    const text = readFileSync(join(pool, "tasks", t.task_id, "repo", t.deleted_symbols[1]!.file), "utf8");
    expect(text).not.toContain(`def ${t.deleted_symbols[1]!.qualname}(`);
    expect(t.golden_diff).toContain(`+def ${t.deleted_symbols[1]!.qualname}(`);
  });

  it("context starvation strips docstrings, hints and comments of the whole touched file", { timeout: 600_000 }, async () => {
    const src = readFileSync(join(SHELFKIT, "src/shelfkit/codes.py"), "utf8");
    const out = starveSources({ f: src }, { docstrings: true, type_hints: true, comments: true }).f!;
    expect(out).not.toMatch(/"""|#|-> |: str/);
    expect(out).toContain("def call_number(klass, subclass, serial):");
    const pool = tmp();
    const r = await buildFromRepo(SHELFKIT, pool, sb, { max: 1, pyenv: false, starve_context: ["docstrings", "comments"] }, { quiet: true });
    expect(r.validated).toBe(1);
    const t = loadTask(pool, r.tasks[0]!);
    const snap = readFileSync(join(pool, "tasks", t.task_id, "repo", t.deleted_symbols[0]!.file), "utf8");
    expect(snap).not.toMatch(/"""|^\s*#/m);
    // the golden diff restores the deleted code only, not the starved context
    expect(t.golden_diff).not.toContain('+    """');
  });
});

describe("scrub: strip bundled deps", () => {
  it("removes venvs, site-packages, wheels and vendored copies of the project, keeping the real package and test data", () => {
    const d = tmp();
    write(d, {
      "src/shelfkit/__init__.py": "", ".venv/pyvenv.cfg": "", "env2/pyvenv.cfg": "", "vendor/shelfkit/__init__.py": "", "lib/python3/site-packages/x.py": "",
      "dist2/shelfkit-1.0-py3-none-any.whl": "", "tests/data/shelfkit/x.txt": "", "tools/other.py": "",
    });
    const removed = stripBundledDeps(d, [{ name: "shelfkit", path: "src/shelfkit" }]);
    expect(removed.sort()).toEqual([".venv", "dist2/shelfkit-1.0-py3-none-any.whl", "env2", "lib/python3/site-packages", "vendor/shelfkit"]);
    expect(existsSync(join(d, "src/shelfkit/__init__.py"))).toBe(true);
    expect(existsSync(join(d, "tests/data/shelfkit/x.txt"))).toBe(true);
  });
});

describe("zero candidates", () => {
  it("is ok:false with the cause (no test runs the code)", () => {
    const repo = tmp();
    write(repo, { "pkg/__init__.py": "", "pkg/core.py": "def double(x):\n    y = x * 2\n    return y\n", "tests/test_nothing.py": "def test_truth():\n    assert True\n" });
    const r = cli(["tasks", "build", repo, "--out", join(tmp(), "pool"), "--no-pyenv", "--json"]);
    const out = oneJson(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.candidates).toBe(0);
    expect(out.why_no_candidates.map((w: { cause: string }) => w.cause)).toEqual(["no_coverage"]);
    expect(out.error).toMatch(/no candidates: no_coverage \(no line of pkg was run by a test/);
  });
});

describe("escalation", () => {
  it("the curriculum's escalation request makes the builder build harder variants of retired tasks' repos", { timeout: 900_000 }, async () => {
    const pool = join(tmp(), "pool");
    const base = await buildFromRepo(SHELFKIT, pool, sb, { max: 2, pyenv: false }, { quiet: true });
    expect(base.validated).toBe(2);
    const cur = new PassRateCurriculum({ retire_k: 1, escalate_above: 0.6 }, readIndex(pool));
    for (let round = 0; round < 6; round++) for (const id of base.tasks) cur.update(id, 8, 8); // solved: retired
    const request = cur.escalationRequest()!;
    expect(request.level).toBe(1);
    expect(request.retired.sort()).toEqual([...base.tasks].sort());
    // the CLI reads the saved state (a state that never escalated is refused before any build)
    const quiet = new PassRateCurriculum({}, readIndex(pool));
    const quietState = join(tmp(), "quiet.json");
    writeFileSync(quietState, JSON.stringify(quiet.save()));
    const refused = cli(["tasks", "build", "--harder-than", pool, "--curriculum", quietState, "--out", join(tmp(), "x"), "--json"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/has not asked for harder tasks/);
    const out = join(tmp(), "harder");
    const h = await buildHarder(pool, out, sb, { retired: request.retired, level: request.level, base: { max: 1, pyenv: false } }, { quiet: true });
    expect(h.repos.map((r) => r.repo)).toEqual(["shelfkit"]);
    expect(h.repos[0]!.variants.map((v) => v.knobs.join("+"))).toEqual(["span:class", "multi-feature:2", "starvation:docstrings+type_hints"]);
    const harder = readIndex(out);
    expect(harder.length).toBeGreaterThanOrEqual(2);
    for (const t of harder) {
      expect(t.escalation.length).toBeGreaterThan(0);
      // the builder's prior for what the task is, raised by 0.1 per knob at level 1
      const plain = 0.5 + 0.05 * t.deleted_symbols.length - 0.02 * t.fail_to_pass.length;
      expect(t.difficulty_prior).toBeCloseTo(Math.min(0.95, Math.max(0.05, plain + 0.1 * t.escalation.length)), 6);
    }
  });
});
