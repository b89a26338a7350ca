/** Pre-task scrubbing (the seed's §3a): remove every shadow copy of deleted code from a snapshot. */
import { readdirSync, rmSync } from "node:fs";
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
