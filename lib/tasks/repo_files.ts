/** The Python files of a repo the builder reads: its sources, and every .py file. */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** Source files of a repo (not tests, not setup/docs, not leak dirs). */
export function sourceFiles(repo: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!/^(tests?|testing|docs?|examples?|benchmarks?|\..*|__pycache__|build|dist|node_modules|venv|\.venv)$/.test(e.name)) walk(p);
      } else if (e.name.endsWith(".py") && !/^(test_.*|.*_test|conftest|setup|noxfile|tasks)\.py$/.test(e.name)) out.push(relative(repo, p));
    }
  };
  walk(repo);
  return out.sort();
}

/** Every Python file of a repo (sources and tests), skipping caches and environments. */
export function pyFiles(repo: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!/^(\..*|__pycache__|build|dist|node_modules|venv|\.venv)$/.test(e.name)) walk(join(dir, e.name));
      } else if (e.name.endsWith(".py")) out.push(relative(repo, join(dir, e.name)));
    }
  };
  walk(repo);
  return out.sort();
}
