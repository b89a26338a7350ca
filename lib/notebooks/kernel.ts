/**
 * The notebook platform: a project-local tslab kernelspec (.jupyter/) whose argv starts the kernel
 * from the project root, and a `node_modules/composer-lab` link to the project, so that a notebook
 * anywhere under the root imports the library exactly as a user would: `from "composer-lab"`.
 * tslab compiles cells with rootDir = the kernel's cwd and ignores package.json `exports`, and it
 * loads the compiled library (dist/, via package.json `main`/`types`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../core/index.js";

export const KERNEL_NAME = "composer-lab";

/** JUPYTER_PATH entry holding the project's kernelspec. */
export const jupyterPathDir = (): string => join(projectRoot(), ".jupyter", "share", "jupyter");

export function kernelSpec(root = projectRoot()): Record<string, unknown> {
  return {
    argv: ["/bin/sh", "-c", 'cd "$1" && exec "$2" kernel --config-path "$0"', "{connection_file}", root, join(root, "node_modules", ".bin", "tslab")],
    display_name: "TypeScript (composer-lab)",
    language: "typescript",
    metadata: { composer_lab: true },
  };
}

/** Writes the kernelspec (only when it changed) and the package self-link. Idempotent. */
export function installKernel(): { kernelDir: string; changed: boolean } {
  const root = projectRoot();
  const kernelDir = join(jupyterPathDir(), "kernels", KERNEL_NAME);
  const file = join(kernelDir, "kernel.json");
  const text = JSON.stringify(kernelSpec(root), null, 2) + "\n";
  let changed = false;
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) {
    mkdirSync(kernelDir, { recursive: true });
    writeFileSync(file, text);
    changed = true;
  }
  const link = join(root, "node_modules", "composer-lab");
  let ok = false;
  try {
    ok = lstatSync(link).isSymbolicLink() && readlinkSync(link) === "..";
    if (!ok) unlinkSync(link);
  } catch {
    /* absent */
  }
  if (!ok) {
    mkdirSync(join(root, "node_modules"), { recursive: true });
    symlinkSync("..", link, "dir");
    changed = true;
  }
  return { kernelDir, changed };
}

/** Whether anything under `dir` was modified after `than` (stops at the first such file). */
function newerThan(dir: string, than: number): boolean {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() ? newerThan(p, than) : statSync(p).mtimeMs > than) return true;
  }
  return false;
}

/**
 * Whether dist/ is up to date with lib/ (dist/.stamp no older than any source). bin/composer-lab.js
 * makes the same decision in plain JS (it runs before any TypeScript can be loaded).
 */
export function distIsFresh(root = projectRoot()): boolean {
  const stamp = join(root, "dist", ".stamp");
  return existsSync(stamp) && !newerThan(join(root, "lib"), statSync(stamp).mtimeMs);
}

/** Compiles lib/ to dist/ when any source is newer than the last build. The stamp carries the time
 *  the build STARTED (as `npm run build` does): a source saved during the compile stays newer. */
export function ensureLibraryBuilt(log: (m: string) => void = () => {}): boolean {
  const root = projectRoot();
  const stamp = join(root, "dist", ".stamp");
  if (distIsFresh(root)) return false;
  log("compiling the library (tsc -p tsconfig.build.json)");
  const started = new Date();
  const r = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tsc failed:\n${r.stdout}${r.stderr}`);
  writeFileSync(stamp, "");
  utimesSync(stamp, started, started);
  return true;
}
