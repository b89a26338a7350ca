/** Pre-task scrubbing (the seed's §3a): remove every shadow copy of deleted code from a snapshot. */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export const LEAK_DIRS = new Set([
  "__pycache__", ".mypy_cache", ".pyre", ".pytype", ".ruff_cache", ".pytest_cache", ".dmypy", "target", "build", "dist",
  ".tox", ".nox", ".idea", ".vscode", ".git", ".hg", ".svn", ".cache", "htmlcov", "_build", "site", ".eggs",
]);
export const LEAK_FILE = /\.(?:pyc|pyo|class|jar|war|so|pyd|pyi|egg-info|code-workspace|orig|rej)$|^(?:\.dmypy\.json|tags|TAGS|\.coverage(?:\..*)?|coverage\.xml|\.git)$/;

/** Deletes leak directories and files under `root`; returns what was removed (relative paths). */
export function scrub(root: string): string[] {
  const removed: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if ((e.isDirectory() && (LEAK_DIRS.has(e.name) || e.name.endsWith(".egg-info"))) || (!e.isDirectory() && LEAK_FILE.test(e.name))) {
        rmSync(p, { recursive: true, force: true });
        removed.push(r);
      } else if (e.isDirectory() && !e.isSymbolicLink()) walk(p, r);
    }
  };
  walk(root, "");
  return removed;
}

/**
 * "Strip bundled deps" (§3a): copies of code that sit beside the project and could carry what a
 * task deletes — virtual environments (a folder holding pyvenv.cfg), site-packages/dist-packages
 * folders, wheels and eggs, and any other folder named like one of the project's own packages
 * outside its real place (a vendored or installed copy). Returns what was removed.
 */
export function stripBundledDeps(root: string, project: { name: string; path: string }[]): string[] {
  const removed: string[] = [];
  const names = new Set(project.map((p) => p.name));
  const real = new Set(project.map((p) => p.path.replace(/\.py$/, "")));
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      // a copy named like a project package, outside the real one and outside test folders (test data)
      const copyOf = (name: string, at: string) => names.has(name) && !real.has(at) && ![...real].some((x) => at.startsWith(`${x}/`)) && !/(^|\/)(tests?|testing)(\/|$)/.test(rel);
      const bundled = e.isDirectory()
        ? /^(site|dist)-packages$/.test(e.name) || existsSync(join(p, "pyvenv.cfg")) || copyOf(e.name, r)
        : /\.(whl|egg)$/.test(e.name) || (e.name.endsWith(".py") && rel !== "" && copyOf(e.name.slice(0, -3), r.slice(0, -3)));
      if (bundled && !e.isSymbolicLink()) {
        rmSync(p, { recursive: true, force: true });
        removed.push(r);
      } else if (e.isDirectory() && !e.isSymbolicLink()) walk(p, r);
    }
  };
  walk(root, "");
  return removed;
}
