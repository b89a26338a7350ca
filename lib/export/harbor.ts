/**
 * Feature-deletion tasks as Harbor tasks (harbor-framework/harbor's task layout, the one Terminal-Bench,
 * verifiers and TRL-on-Harbor setups run): one folder per task,
 *   instruction.md          what the agent is told (the description and the failing tests; never the golden diff)
 *   task.toml               Harbor's configuration (version, [metadata], [verifier], [agent], [environment])
 *   environment/Dockerfile  builds the broken repo into /app (FROM a Python image with pytest: ARG BASE_IMAGE)
 *   environment/repo/       the broken snapshot
 *   tests/test.sh           Harbor's verifier entry point: runs tests/grade.py, which puts the task's test
 *                           files and pytest configuration back from tests/harness/, runs the target
 *                           (FAIL_TO_PASS) and guard (PASS_TO_PASS) tests, and writes the reward where Harbor
 *                           reads it: /logs/verifier/reward.txt and reward.json (harbor/models/trial/paths.py)
 *   solution/solve.sh       the oracle: writes the golden version of each file the golden diff touches
 *   solution/golden.diff    the golden diff itself
 * The reward is the lab's frac × (all guard tests pass); the lab's hack monitor and behavioural check
 * do not travel (they need the lab's sandbox): a Harbor grade is the tests' verdict only.
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { tempDir } from "../core/index.js";
import { listTree, planHarness } from "../sandbox/index.js";
import { applyUnifiedDiff, type FeatureDeletionTask } from "../tasks/index.js";

export const HarborExportOptions = z.object({
  /** The image the Dockerfile builds FROM by default (one with python3 and pytest; `--build-arg BASE_IMAGE=…` overrides). */
  base_image: z.string().min(1).default("python:3.11-slim-bookworm"),
  agent_timeout_sec: z.number().positive().default(1800),
  verifier_timeout_sec: z.number().positive().default(600),
  cpus: z.number().int().positive().default(1),
  memory_mb: z.number().int().positive().default(2048),
});
export type HarborExportOptions = z.input<typeof HarborExportOptions>;

/** What tests/grade.py reads: the tests to run and the files to put back. */
export const HarborGradeSpec = z.object({
  task_id: z.string(),
  fail_to_pass: z.array(z.string()).min(1),
  pass_to_pass: z.array(z.string()),
  /** Repo-relative files restored from tests/harness/ before the run (test files, conftest, pytest configuration). */
  protected: z.array(z.string()),
  /** Protected test folders: files the agent added under them are removed. */
  test_dirs: z.array(z.string()),
});
export type HarborGradeSpec = z.infer<typeof HarborGradeSpec>;

/** One TOML value: strings (JSON escapes are TOML basic-string escapes), numbers, booleans, arrays of them. */
type TomlValue = string | number | boolean | (string | number | boolean)[];
const tomlValue = (v: TomlValue): string => (Array.isArray(v) ? `[${v.map(tomlValue).join(", ")}]` : typeof v === "string" ? JSON.stringify(v) : String(v));

/** A TOML document of top-level keys and one level of tables. */
export function toToml(top: Record<string, TomlValue>, tables: Record<string, Record<string, TomlValue>>): string {
  const lines = Object.entries(top).map(([k, v]) => `${k} = ${tomlValue(v)}`);
  for (const [name, t] of Object.entries(tables)) lines.push("", `[${name}]`, ...Object.entries(t).map(([k, v]) => `${k} = ${tomlValue(v)}`));
  return lines.join("\n") + "\n";
}

const difficulty = (prior: number) => (prior < 1 / 3 ? "easy" : prior < 2 / 3 ? "medium" : "hard");

export function harborInstruction(task: FeatureDeletionTask): string {
  return [
    `# ${task.task_id}`,
    "",
    `A feature of the Python repository in \`/app\` has been removed. ${task.description}`.trim(),
    "",
    "Implement it again. These tests fail now and must pass when you are done:",
    "",
    ...task.fail_to_pass.map((t) => `- \`${t}\``),
    "",
    `The other ${task.pass_to_pass.length} tests must keep passing. Do not edit the tests: they are put back before grading.`,
    `Run them with \`cd /app && ${task.test_command}\`.`,
    "",
  ].join("\n");
}

/** tests/test.sh: Harbor runs it after the agent (tests/ is copied to /tests). */
const TEST_SH = `#!/bin/bash
# Harbor's verifier: grade.py puts the task's test files back, runs the target and guard tests and
# writes the reward to /logs/verifier/reward.txt and /logs/verifier/reward.json.
mkdir -p /logs/verifier
cd /app || { echo 0 > /logs/verifier/reward.txt; exit 0; }
python3 -B /tests/grade.py || echo 0 > /logs/verifier/reward.txt
`;

/** tests/grade.py (stdlib + pytest): restore, run, score. */
const GRADE_PY = `"""The Harbor verifier of a composer-lab feature-deletion task (written by composer-lab tasks export harbor).

Puts the task's protected files (tests, conftest.py, pytest configuration) back from /tests/harness,
removes test files and start-up files the agent added, runs the FAIL_TO_PASS and PASS_TO_PASS tests
with pytest, and writes reward = (FAIL_TO_PASS passing / FAIL_TO_PASS) x (every PASS_TO_PASS passes) to
/logs/verifier/reward.txt and reward.json; the per-test outcomes go to /logs/verifier/grade.json.
"""
import json, os, shutil, subprocess, sys

APP, TESTS, LOGS = "/app", os.path.dirname(os.path.abspath(__file__)), "/logs/verifier"
STARTUP = {"conftest.py", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "sitecustomize.py", "usercustomize.py"}


def restore(spec):
    keep = set(spec["protected"])
    for root, dirs, files in os.walk(APP):
        dirs[:] = [d for d in dirs if d not in (".git", "__pycache__")]
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), APP)
            in_test_dir = any(rel.startswith(d + "/") for d in spec["test_dirs"])
            if rel not in keep and (in_test_dir or f in STARTUP or f.endswith(".pth")):
                os.remove(os.path.join(root, f))
    for rel in spec["protected"]:
        dst = os.path.join(APP, rel)
        if os.path.isdir(dst) and not os.path.islink(dst):
            shutil.rmtree(dst)
        elif os.path.lexists(dst):
            os.remove(dst)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(TESTS, "harness", rel), dst)


def main():
    spec = json.load(open(os.path.join(TESTS, "spec.json")))
    os.makedirs(LOGS, exist_ok=True)
    restore(spec)
    out = os.path.join(LOGS, "outcomes.json")
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ, PYTHONPATH=os.path.join(TESTS, "plugin"), PYTHONDONTWRITEBYTECODE="1", LAB_OUTCOMES=out)
    ids = spec["fail_to_pass"] + spec["pass_to_pass"]
    run = subprocess.run([sys.executable, "-B", "-m", "pytest", "-p", "lab_outcomes", "-p", "no:cacheprovider", "-q", "--no-header", *ids], cwd=APP, env=env, capture_output=True, text=True, timeout=float(os.environ.get("LAB_PYTEST_TIMEOUT", "540")))
    try:
        outcomes = json.load(open(out))
    except (OSError, ValueError):
        outcomes = {}
    passed = lambda t: outcomes.get(t) == "passed"
    frac = sum(map(passed, spec["fail_to_pass"])) / len(spec["fail_to_pass"])
    guard_ok = all(map(passed, spec["pass_to_pass"]))
    reward = frac if guard_ok else 0.0
    with open(os.path.join(LOGS, "reward.txt"), "w") as f:
        f.write(f"{reward:g}\\n")
    with open(os.path.join(LOGS, "reward.json"), "w") as f:
        json.dump({"reward": reward, "frac": frac, "guard_ok": int(guard_ok)}, f)
    with open(os.path.join(LOGS, "grade.json"), "w") as f:
        json.dump({"task_id": spec["task_id"], "reward": reward, "frac": frac, "guard_ok": guard_ok, "pytest_exit": run.returncode,
                   "per_test": {t: outcomes.get(t, "not run") for t in ids}, "pytest_tail": run.stdout[-4000:] + run.stderr[-2000:]}, f, indent=1)
    print(f"{spec['task_id']}: reward {reward:g} (target {frac:.3f}, guard {'ok' if guard_ok else 'broken'})")


main()
`;

/** tests/plugin/lab_outcomes.py: one outcome per test node id (setup/call/teardown folded). */
const PLUGIN_PY = `"""Records one outcome per test node id (a failing setup, call or teardown fails the test) to $LAB_OUTCOMES."""
import json, os

_outcomes = {}


def pytest_runtest_logreport(report):
    prev = _outcomes.get(report.nodeid)
    if report.failed:
        _outcomes[report.nodeid] = "error" if report.when != "call" else "failed"
    elif report.skipped and prev is None:
        _outcomes[report.nodeid] = "skipped"
    elif report.when == "call" and report.passed and prev in (None, "skipped"):
        _outcomes[report.nodeid] = "passed"


def pytest_sessionfinish(session):
    with open(os.environ["LAB_OUTCOMES"], "w") as f:
        json.dump(_outcomes, f)
`;

const dockerfile = (o: z.infer<typeof HarborExportOptions>) => `# A composer-lab feature-deletion task: the broken repo in /app. BASE_IMAGE needs python3 and pytest
# (pytest is pip-installed where it is missing and pip is there).
ARG BASE_IMAGE=${o.base_image}
FROM \${BASE_IMAGE}
WORKDIR /app
COPY repo/ /app/
RUN python3 -c "import pytest" 2>/dev/null || python3 -m pip install --no-cache-dir "pytest>=7"
RUN if [ -f requirements.txt ]; then python3 -m pip install --no-cache-dir -r requirements.txt; fi
`;

/** A POSIX shell single-quoted word. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const solveSh = (files: { path: string; op: string }[]) => `#!/bin/bash
# The oracle: the golden version of each file the golden diff (solution/golden.diff) touches.
set -e
cd /app
${files.map((f) => (f.op === "delete" ? `rm -f ${sh(f.path)}` : `mkdir -p ${sh(dirname(f.path))} && cp ${sh(`/solution/files/${f.path}`)} ${sh(f.path)}`)).join("\n")}
`;

/** Writes one task as a Harbor task folder `<out>/<task_id>/`; returns its path and files. */
export function exportHarborTask(task: FeatureDeletionTask, out: string, options: HarborExportOptions = {}): { dir: string; files: string[] } {
  const o = HarborExportOptions.parse(options);
  if (task.broken.kind !== "dir") throw new Error(`${task.task_id}: only directory snapshots export to Harbor (this one is a Docker image: ${task.broken.image})`);
  const snapshot = task.broken.path;
  const dir = join(out, task.task_id);
  rmSync(dir, { recursive: true, force: true });
  const write = (rel: string, text: string, mode?: number) => {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    if (mode) chmodSync(p, mode);
  };
  write("instruction.md", harborInstruction(task));
  write("task.toml", toToml({ version: "1.0" }, {
    metadata: {
      author_name: "composer-lab", difficulty: difficulty(task.difficulty_prior), category: "programming",
      tags: ["feature-deletion", "python", task.granularity], task_id: task.task_id, repo: task.repo, base_commit: task.base_commit, upstream_license: task.upstream_license,
    },
    verifier: { timeout_sec: o.verifier_timeout_sec },
    agent: { timeout_sec: o.agent_timeout_sec },
    environment: { build_timeout_sec: 600, cpus: o.cpus, memory_mb: o.memory_mb, storage_mb: 10240 },
  }));
  // environment/: the broken repo and how to build it
  const skip = /(^|\/)(__pycache__|\.git|\.pytest_cache)(\/|$)|\.pyc$/;
  cpSync(snapshot, join(dir, "environment", "repo"), { recursive: true, filter: (src) => !skip.test(src.slice(snapshot.length)) });
  write("environment/Dockerfile", dockerfile(o));
  // tests/: the verifier, its spec, and the protected files as the snapshot has them
  const tests = [...task.fail_to_pass, ...task.pass_to_pass];
  const plan = planHarness(snapshot, tests);
  const spec: HarborGradeSpec = { task_id: task.task_id, fail_to_pass: task.fail_to_pass, pass_to_pass: task.pass_to_pass, protected: plan.protectedFiles, test_dirs: plan.testDirs };
  write("tests/spec.json", JSON.stringify(HarborGradeSpec.parse(spec), null, 1) + "\n");
  for (const f of plan.protectedFiles) write(`tests/harness/${f}`, readFileSync(join(snapshot, f), "utf8"));
  write("tests/test.sh", TEST_SH, 0o755);
  write("tests/grade.py", GRADE_PY);
  write("tests/plugin/lab_outcomes.py", PLUGIN_PY);
  // solution/: the golden diff, and the files it yields
  const work = tempDir(`harbor-${task.task_id}-`);
  try {
    cpSync(snapshot, work.path, { recursive: true });
    const applied = applyUnifiedDiff(work.path, task.golden_diff);
    for (const f of applied.files.filter((x) => x.op !== "delete")) write(`solution/files/${f.path}`, readFileSync(join(work.path, f.path), "utf8"));
    write("solution/golden.diff", task.golden_diff);
    write("solution/solve.sh", solveSh(applied.files), 0o755);
  } finally {
    work.remove();
  }
  return { dir, files: listTree(dir) };
}
