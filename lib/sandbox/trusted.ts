/**
 * The trusted side of a graded tree (feature-deletion-datagen.md §3b): before every grade, what is
 * not the agent's to change is put back from the task snapshot, and what the agent added that
 * Python or pytest would load at start-up is removed. What was put back or removed is reported, so
 * the grader can flag it.
 *
 * Protected (restored from the snapshot when changed, deleted, or replaced by a link):
 *  - the test files of the graded node ids, and every file under a test directory holding them
 *    (a directory named test/tests/testing, at any depth);
 *  - every conftest.py, and pytest configuration files (pytest.ini, .pytest.ini, pyproject.toml,
 *    tox.ini, setup.cfg) anywhere in the snapshot;
 *  - the plugin modules the configuration loads (`-p NAME` in addopts, `pytest_plugins` in
 *    conftest files) when they live in the repo.
 * Start-up files the agent added (removed): conftest.py anywhere, pytest configuration files,
 * modules or packages named like pytest, _pytest, pluggy, py or the harness (composer_lab*),
 * sitecustomize / usercustomize, *.pth files, native extension modules (*.so, *.pyd), and any new
 * file under a protected test directory.
 */
import { cpSync, lstatSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { walkTree } from "./isolation.js";
import { dirname, join } from "node:path";

const CONFIG_FILES = new Set(["pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"]);
const SHADOW_MODULES = new Set(["pytest", "_pytest", "pluggy", "py", "sitecustomize", "usercustomize", "conftest"]);
const TEST_DIR = /^(tests?|testing)$/;
const TEST_NAMED = /^(test_.*|.*_test)\.py$/;
/** Not walked: VCS data, caches, virtual environments. */
const SKIP_DIRS = new Set([".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".pytest_cache", ".tox", ".nox", "node_modules", ".venv", "venv"]);

export interface HarnessPlan {
  /** Repo-relative files restored from the snapshot before a grade. */
  protectedFiles: string[];
  /** Protected test directories: any file the agent adds under them is removed. */
  testDirs: string[];
  /** Repo files that may implement pytest hooks besides conftest.py files (for the harness). */
  trustedPlugins: string[];
  /** Source modules whose doctests are among the tests (round 4, G2: sortedcontainers): not
   *  protected whole — the feature the agent re-implements may live there — but their doctest
   *  examples are (restoreHarness puts the file back when one changed). */
  doctestModules: string[];
}

export interface RestoreReport {
  /** Protected files the agent changed, deleted or replaced (now restored). */
  restored: string[];
  /** Start-up files the agent added (now removed). */
  removed: string[];
}

/** Repo-relative paths of the regular files and symlinks of a tree (no link is followed). */
export function listTree(root: string): string[] {
  const out: string[] = [];
  walkTree(root, (_p, rel, e) => {
    if (e.isDirectory()) return !SKIP_DIRS.has(e.name);
    out.push(rel);
  });
  return out.sort();
}

/** Module names a pytest configuration or conftest loads as plugins. */
function pluginNames(file: string, text: string): string[] {
  const names: string[] = [];
  if (file.endsWith("conftest.py")) {
    const m = text.match(/^pytest_plugins\s*=\s*([\s\S]*?)(?:\n\S|$)/m);
    if (m) for (const s of m[1]!.matchAll(/["']([\w.]+)["']/g)) names.push(s[1]!);
  } else {
    for (const line of text.split("\n").filter((l) => /^\s*addopts\s*=/.test(l) || /^\s+-p\b/.test(l))) {
      for (const s of line.matchAll(/-p\s*["']?([\w.]+)/g)) if (!s[1]!.startsWith("no:")) names.push(s[1]!);
    }
  }
  return names;
}

/** What a grade of `tests` must hold fixed, read from the task snapshot. */
export function planHarness(snapshot: string, tests: string[]): HarnessPlan {
  const files = listTree(snapshot);
  const have = new Set(files);
  const testFiles = new Set(tests.map((t) => t.split("::")[0]!));
  const testDirs = new Set<string>();
  for (const f of testFiles) {
    const parts = f.split("/");
    const k = parts.findIndex((p, i) => i < parts.length - 1 && TEST_DIR.test(p));
    if (k >= 0) testDirs.add(parts.slice(0, k + 1).join("/"));
  }
  const inTestDir = (f: string) => [...testDirs].some((d) => f.startsWith(`${d}/`));
  const base = (f: string) => f.split("/").pop()!;
  // a test file named by a test id that is neither test-named nor in a test folder is a source module
  // whose doctests are collected
  const doctestModules = [...testFiles].filter((f) => have.has(f) && f.endsWith(".py") && !inTestDir(f) && !TEST_NAMED.test(base(f)) && base(f) !== "conftest.py").sort();
  const protectedFiles = new Set(files.filter((f) => (testFiles.has(f) && !doctestModules.includes(f)) || inTestDir(f) || base(f) === "conftest.py" || CONFIG_FILES.has(base(f))));
  for (const f of testFiles) if (have.has(f) && !doctestModules.includes(f)) protectedFiles.add(f);
  const trustedPlugins: string[] = [];
  for (const f of [...protectedFiles].filter((p) => base(p) === "conftest.py" || CONFIG_FILES.has(base(p)))) {
    let text = "";
    try {
      text = readFileSync(join(snapshot, f), "utf8");
    } catch {
      continue;
    }
    for (const name of pluginNames(f, text)) {
      const path = name.replace(/\./g, "/");
      for (const cand of [`${path}.py`, `${path}/__init__.py`]) {
        if (have.has(cand)) {
          protectedFiles.add(cand);
          trustedPlugins.push(cand);
        }
      }
    }
  }
  return { protectedFiles: [...protectedFiles].sort(), testDirs: [...testDirs].sort(), trustedPlugins, doctestModules };
}

/** Whether a file the agent added would be loaded by Python or pytest at start-up. */
export function isStartupFile(rel: string, plan: Pick<HarnessPlan, "testDirs">): boolean {
  const parts = rel.split("/");
  const name = parts[parts.length - 1]!;
  const stem = name.replace(/\.py$/, "");
  if (name === "conftest.py" || CONFIG_FILES.has(name) || name.endsWith(".pth")) return true;
  // native code the agent built or dropped in (an extension module runs outside every Python-level check)
  if (/\.(so|pyd|dylib)(\.\d+)*$/.test(name)) return true;
  if (name.endsWith(".py") && (SHADOW_MODULES.has(stem) || stem.startsWith("composer_lab"))) return true;
  if (parts.slice(0, -1).some((p) => SHADOW_MODULES.has(p) || p.startsWith("composer_lab"))) return true;
  return plan.testDirs.some((d) => rel.startsWith(`${d}/`));
}

const sameFile = (a: string, b: string): boolean => {
  try {
    const sa = lstatSync(a);
    const sb = lstatSync(b);
    if (!sa.isFile() || !sb.isFile() || sa.size !== sb.size) return false;
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
};

/** Makes every ancestor of `rel` inside `root` a real directory (links and files in the way are removed). */
function realParents(root: string, rel: string): void {
  let cur = root;
  for (const part of dirname(rel).split("/").filter((p) => p && p !== ".")) {
    cur = join(cur, part);
    let st;
    try {
      st = lstatSync(cur);
    } catch {
      mkdirSync(cur);
      continue;
    }
    if (!st.isDirectory()) {
      rmSync(cur, { recursive: true, force: true });
      mkdirSync(cur);
    }
  }
}

/** Removes __pycache__ folders and .pyc/.pyo files: Python would run a planted cache file in place
 *  of its (restored) source when the timestamps match. Not a flag: caches are no one's work. */
function removeBytecode(root: string): void {
  walkTree(root, (p, _rel, e) => {
    if (e.isDirectory()) {
      if (e.name === "__pycache__") rmSync(p, { recursive: true, force: true });
      return e.name !== "__pycache__" && !SKIP_DIRS.has(e.name);
    }
    if (/\.py[co]$/.test(e.name)) rmSync(p, { force: true });
  });
}

/**
 * Puts the protected files back from `snapshot` into `workdir` and removes the start-up files the
 * agent added. Never follows a link in `workdir`. Regular files compared byte for byte (the
 * protected set is small: tests and configuration).
 */
export function restoreHarness(snapshot: string, workdir: string, plan: HarnessPlan): RestoreReport {
  const restored: string[] = [];
  const removed: string[] = [];
  for (const rel of plan.protectedFiles) {
    const dst = join(workdir, rel);
    realParents(workdir, rel);
    if (sameFile(join(snapshot, rel), dst)) continue;
    rmSync(dst, { recursive: true, force: true });
    cpSync(join(snapshot, rel), dst, { verbatimSymlinks: true, preserveTimestamps: true });
    restored.push(rel);
  }
  for (const rel of plan.doctestModules) {
    const dst = join(workdir, rel);
    realParents(workdir, rel);
    if (sameFile(join(snapshot, rel), dst)) continue;
    let now: string | null = null;
    try {
      now = lstatSync(dst).isFile() ? readFileSync(dst, "utf8") : null;
    } catch {
      /* deleted */
    }
    if (now !== null && sameDoctests(readFileSync(join(snapshot, rel), "utf8"), now)) continue;
    rmSync(dst, { recursive: true, force: true });
    cpSync(join(snapshot, rel), dst, { verbatimSymlinks: true, preserveTimestamps: true });
    restored.push(rel);
  }
  removeBytecode(workdir);
  const inSnapshot = new Set(listTree(snapshot));
  for (const rel of listTree(workdir)) {
    if (inSnapshot.has(rel) || !isStartupFile(rel, plan)) continue;
    rmSync(join(workdir, rel), { force: true });
    removed.push(rel);
  }
  return { restored, removed };
}

/** A file's doctest examples in order: each `>>>` line with its `...` continuations and the expected
 *  output after it (up to a blank line, the next `>>>` or a line of closing quotes), each line
 *  stripped of its indentation. Wider than doctest's own parser (a `>>>` in any string counts), so
 *  a comparison errs towards putting the file back. */
export function doctestBlocks(text: string): string[] {
  const out: string[] = [];
  let block: string[] | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith(">>>")) {
      if (block) out.push(block.join("\n"));
      block = [line];
    } else if (block && line !== "" && !/^[rRbBuU]?("""|\'\'\')$/.test(line)) block.push(line.replace(/("""|\'\'\')$/, ""));
    else if (block) {
      out.push(block.join("\n"));
      block = null;
    }
  }
  if (block) out.push(block.join("\n"));
  return out;
}

/** Whether two versions of a module hold the same doctest examples. */
export const sameDoctests = (a: string, b: string): boolean => {
  const x = doctestBlocks(a);
  const y = doctestBlocks(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** Python files of `workdir` that are new or differ from `snapshot` (what the agent changed). */
export function changedPythonFiles(snapshot: string, workdir: string): string[] {
  const inSnapshot = new Set(listTree(snapshot));
  return listTree(workdir).filter((f) => f.endsWith(".py") && !(inSnapshot.has(f) && sameFile(join(snapshot, f), join(workdir, f))));
}
