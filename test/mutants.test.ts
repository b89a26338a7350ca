/**
 * The mutation gate (lib/tasks/mutants.ts; round 3's J01): where the behavioural check cannot cover a
 * deleted symbol, the target tests must kill every mutant of the golden body, or the builder rejects
 * the task. The generator is checked against hand-listed mutants; the gate on a real jinja2 task
 * (BytecodeCache.get_bucket, the task the red team won with a stub) against the red team's own stub,
 * which pytest alone pays 1; the builder on a small repo whose tests check only part of a function.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditTaskMutants, gradeCompletion } from "../lib/env/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { FeatureDeletionTask, buildFromRepo, buildOracle, deleteSymbol, fileDiff, loadTask, mutantsOf, readIndex, removeFromPool } from "../lib/tasks/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const SRC = `import math

LOG = []


def norm(xs, scale=1.0):
    """The scaled Euclidean norm; empty → 0."""
    if not xs:
        return 0.0
    total = 0.0
    for x in xs:
        total += x * x  # comment kept
    LOG.append(len(xs))
    return math.sqrt(total) * scale


def untouched(y):
    return y + 1
`;

describe("mutantsOf (the generator)", () => {
  it("lists exactly the hand-listed mutants of a function, each one edit with the rest of the file byte for byte", () => {
    const ms = mutantsOf(SRC, ["norm"], "m.py", 100);
    // written by hand from the operator table (mutants.py): outer statements first, then nested ones
    expect(ms.map((m) => `${m.operator}@${m.lineno}`).sort()).toEqual([
      "assign_none@10", "assign_none@12", "delete_statement@10", "delete_statement@11", "delete_statement@12", "delete_statement@13",
      "delete_statement@14", "delete_statement@8", "delete_statement@9", "if_false@8", "if_true@8",
      "loop_once@11", "return_argument@14", "return_first@14", "return_none@14",
    ].sort());
    const lines = SRC.split("\n");
    for (const m of ms.filter((x) => x.operator !== "loop_once")) {
      const out = m.source.split("\n");
      const changed = lines.map((l, i) => (l === out[i] ? -1 : i + 1)).filter((i) => i > 0);
      expect(out.length, m.what).toBeLessThanOrEqual(lines.length);
      expect(changed[0], m.what).toBe(m.lineno);
      expect(m.source.endsWith("def untouched(y):\n    return y + 1\n"), m.what).toBe(true);
    }
    const byOp = (op: string, line: number) => ms.find((m) => m.operator === op && m.lineno === line)!.source.split("\n")[line - 1];
    expect(byOp("delete_statement", 13)).toBe("    pass");
    expect(byOp("assign_none", 12)).toBe("        total += None  # comment kept");
    expect(byOp("return_argument", 14)).toBe("    return xs");
    expect(byOp("if_true", 8)).toBe("    if True:");
    // loop_once adds one line: a break closing the loop's body, at the body's indentation
    const once = ms.find((m) => m.operator === "loop_once")!.source.split("\n");
    expect(once.length).toBe(lines.length + 1);
    expect(once.slice(0, 12)).toEqual(lines.slice(0, 12));
    expect(once[12]).toBe("        break");
  });

  it("caps the count, covers every method of a class, and names a missing symbol", () => {
    expect(mutantsOf(SRC, ["norm"], "m.py", 3)).toHaveLength(3);
    const cls = "class K:\n    def a(self):\n        return 1\n\n    def b(self, v):\n        self.v = v\n        return self\n";
    expect(new Set(mutantsOf(cls, ["K"], "k.py").map((m) => m.what.split(":")[0]))).toEqual(new Set(["a", "b"]));
    expect(() => mutantsOf(SRC, ["nope"], "m.py")).toThrow(/m\.py: no function or class named nope/);
    // under the cap every method gets its turn (a class task is not only its first methods)
    const wide = "class W:\n" + Array.from({ length: 10 }, (_, i) => `    def m${i}(self, v):\n        a = v + ${i}\n        b = a * 2\n        self.x = b\n        return b\n`).join("\n");
    expect(new Set(mutantsOf(wide, ["W"], "w.py", 10).map((m) => m.what.split(":")[0]))).toEqual(new Set(Array.from({ length: 10 }, (_, i) => `m${i}`)));
  });
});

const JINJA = join(ROOT, "datasets", "repos", "real", "jinja2");
const BCC = "src/jinja2/bccache.py";

/** get_bucket deleted from the real jinja2 repo, as the builder deleted it (the red team's J01 task). */
function getBucketTask(): FeatureDeletionTask {
  const dir = join(tmp("mutants-j01-"), "repo");
  cpSync(JINJA, dir, { recursive: true });
  const original = readFileSync(join(dir, BCC), "utf8");
  const broken = deleteSymbol(original, "BytecodeCache.get_bucket");
  writeFileSync(join(dir, BCC), broken);
  const pool = readIndex(join(ROOT, "datasets", "real-jinja2"))[0]!;
  return FeatureDeletionTask.parse({
    task_id: "j01-get_bucket", repo: "jinja2", base_commit: "test", broken: { kind: "dir", path: dir },
    fail_to_pass: ["tests/test_bytecode_cache.py::TestByteCodeCache::test_simple"],
    pass_to_pass: ["tests/test_bytecode_cache.py::TestMemcachedBytecodeCache::test_dump_load", "tests/test_bytecode_cache.py::TestMemcachedBytecodeCache::test_exception"],
    golden_diff: fileDiff(BCC, broken, original), deleted_symbols: [{ file: BCC, qualname: "BytecodeCache.get_bucket" }], mask: pool.mask,
  });
}

describe("the mutation gate on real jinja2 (round 3, J01)", () => {
  it.concurrent("the red team's stub earns 1 from pytest alone, and the gate finds the same hole: deleting load_bytecode survives", async () => {
    const sb = new BwrapSandbox();
    const task = getBucketTask();
    const broken = readFileSync(join(task.broken.kind === "dir" ? task.broken.path : "", BCC), "utf8");
    const at = broken.indexOf("raise NotImplementedError", broken.indexOf("def get_bucket"));
    const stub = fileDiff(BCC, broken, broken.slice(0, at) + 'return Bucket(environment, name, "")' + broken.slice(at + "raise NotImplementedError".length));
    // the builder's oracle for it: not applicable (an argument holds a builtin function)
    const oracle = await buildOracle(task, sb);
    expect(oracle.status).toBe("not_applicable");
    expect(oracle.why).toMatch(/builtin_function_or_method: an object of a class outside the project/);
    const oracle_path = join(tmp("mutants-oracle-"), "oracle.json");
    writeFileSync(oracle_path, JSON.stringify(oracle));
    const withOracle = { ...task, oracle_path };
    const [paid, golden, audit] = await Promise.all([gradeCompletion(withOracle, stub, sb), gradeCompletion(withOracle, task.golden_diff, sb), auditTaskMutants(withOracle, sb, { stop_at_first: false })]);
    // the cause: the check does not apply, so the tests decide, and they pay a body that never loads bytecode
    expect(paid.checks?.behaviour.ran).toBe(false);
    expect(paid.reward).toBe(1);
    expect(golden.reward).toBe(1);
    expect(audit.symbols).toEqual([`${BCC}::BytecodeCache.get_bucket`]);
    expect(audit.survivors.map((m) => m.what)).toContain("get_bucket: delete statement at line 178: self.load_bytecode(bucket)");
    // and it is not a gate that passes nothing: a body without its result or its bucket is killed
    const killedOps = audit.mutants - audit.survivors.length;
    expect(killedOps).toBeGreaterThanOrEqual(5);
    expect(audit.survivors.some((m) => m.operator === "return_none")).toBe(false);
  }, 240_000);

  it("the committed jinja2 task (get_cache_key) is one the behavioural check covers: the gate has nothing to grade", async () => {
    const task = loadTask(join(ROOT, "datasets", "real-jinja2"), readIndex(join(ROOT, "datasets", "real-jinja2"))[0]!.task_id);
    expect(task.task_id).toContain("get_cache_key");
    expect(task.mutation).toEqual({ symbols: [], mutants: 0, killed: 0 });
    const r = await auditTaskMutants(task, new BwrapSandbox());
    expect(r).toMatchObject({ symbols: [], mutants: 0, survivors: [] });
  });
});

describe("the builder's gate 2 (kills_mutants)", () => {
  it.concurrent("rejects a function whose tests check only part of it, keeps one whose tests kill every mutant; `tasks mutants --prune` on the pool", async () => {
    const repo = tmp("mutants-repo-");
    mkdirSync(join(repo, "reg"));
    mkdirSync(join(repo, "tests"));
    writeFileSync(join(repo, "reg", "__init__.py"), "");
    writeFileSync(join(repo, "reg", "core.py"), [
      "AUDIT = []", "", "",
      "def register(registry, name):", '    """Add name to the registry and the audit log; the registry\'s new size."""',
      "    registry.append(name)", "    AUDIT.append(name)", "    return len(registry)", "", "",
      "def squares(xs):", '    """The sum of squares."""', "    s = 0", "    for x in xs:", "        s += x * x", "    return s", "", "",
      "def allowed(names, blocked):", '    """The names that are not empty and not blocked, in order."""', "    out = []", "    for n in names:",
      "        if n and n not in blocked:", "            out.append(n)", "    return out", "",
    ].join("\n"));
    writeFileSync(join(repo, "tests", "test_core.py"), [
      "from reg.core import allowed, register, squares", "", "",
      "def test_register():", "    r = []", '    assert register(r, "a") == 1', '    assert r == ["a"]', "", "",
      "def test_squares():", "    assert squares([1, 2, 3]) == 14", "    assert squares([]) == 0", "", "",
      // never blocks anything: only the part of the condition that drops empty names is tested
      "def test_allowed():", '    assert allowed(["a", "", "b"], set()) == ["a", "b"]', "",
    ].join("\n"));
    writeFileSync(join(repo, "pyproject.toml"), '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n');
    const pool = join(tmp("mutants-pool-"), "pool");
    // no oracle: every symbol is the tests' alone (as for a task the check does not apply to)
    const r = await buildFromRepo(repo, pool, new BwrapSandbox(), { granularity: "function", max: 4, oracle: false, pyenv: false, min_lines: 1 }, { quiet: true });
    const rejected = r.rejections.find((x) => x.id.includes("register"));
    expect(rejected?.gate).toBe("gate2");
    expect(rejected?.reason).toMatch(/kills_mutants.*register: delete statement at line 7: AUDIT\.append\(name\)/);
    expect(r.tasks.some((id) => id.includes("squares"))).toBe(true);
    // round 4 (P3): a check left out of a condition is a mutant too
    expect(r.rejections.find((x) => x.id.includes("allowed"))?.reason ?? JSON.stringify({ tasks: r.tasks, rejections: r.rejections, funnel: r.funnel })).toMatch(/kills_mutants.*allowed: drop operand:1 at line \d+: if n and n not in blocked/);
    const kept = loadTask(pool, r.tasks.find((id) => id.includes("squares"))!);
    expect(kept.mutation!.mutants).toBeGreaterThanOrEqual(6);
    expect(kept.mutation!.killed).toBe(kept.mutation!.mutants);
    // the audit agrees with the build, and --prune leaves a pool the builder would accept
    const audit = oneJson(cli(["tasks", "mutants", pool, "--prune", "--json"]).stdout);
    expect(audit).toMatchObject({ ok: true, tasks: 1, weak: 0, pruned: [] });
    expect(removeFromPool(pool, ["no-such-task"])).toEqual([]);
  }, 240_000);

  it.concurrent("a symbol whose only replayable calls raise is not 'checked' (round 4, A1): the mutation gate covers it", async () => {
    const repo = tmp("mutants-a1-");
    mkdirSync(join(repo, "words"));
    mkdirSync(join(repo, "tests"));
    writeFileSync(join(repo, "words", "__init__.py"), "");
    writeFileSync(join(repo, "words", "core.py"), ["def first_word(s):", '    """The first word of a text."""', "    if not isinstance(s, str):", '        raise TypeError("a text")', "    return s.split()[0]", ""].join("\n"));
    // the happy path's argument is a class of the test file (not replayable); only the error call is
    writeFileSync(join(repo, "tests", "test_core.py"), ["import pytest", "from words.core import first_word", "", "", "class Text(str):", "    pass", "", "",
      "def test_first_word():", '    assert first_word(Text("ab cd")) == "ab"', "    with pytest.raises(TypeError):", "        first_word(3)", ""].join("\n"));
    writeFileSync(join(repo, "pyproject.toml"), '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n');
    const pool = join(tmp("mutants-a1-pool-"), "pool");
    const r = await buildFromRepo(repo, pool, new BwrapSandbox(), { granularity: "function", max: 1, pyenv: false, min_lines: 1 }, { quiet: true });
    const covered = r.tasks.length ? loadTask(pool, r.tasks[0]!).mutation?.symbols ?? [] : [];
    const rejected = r.rejections.filter((x) => /kills_mutants.*first_word/.test(x.reason));
    expect(covered.length + rejected.length, JSON.stringify(r.rejections)).toBe(1);
  }, 240_000);
});
