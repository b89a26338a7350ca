import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot, tempDir } from "../core/index.js";

let staged: { path: string } | undefined;

/** The harness (harness.py, forkserver.py), copied once per process to a folder every sandbox
 *  user can read (the lab's own tree may sit in a private home). */
export function harnessDir(): string {
  if (staged && existsSync(join(staged.path, "harness.py"))) return staged.path;
  const dir = tempDir("harness-");
  cpSync(join(projectRoot(), "lib", "sandbox", "harness"), dir.path, { recursive: true });
  writeFileSync(join(dir.path, "pytest.ini"), "[pytest]\n");
  // the stubs masks bind over installed copies (mask.ts): an empty folder and an empty file too
  mkdirSync(join(dir.path, "mask", "empty"), { recursive: true });
  writeFileSync(join(dir.path, "mask", "empty-file"), "");
  buildSleepShim(dir.path);
  chmodSync(dir.path, 0o755);
  staged = dir;
  return dir.path;
}

/** The shared object a run whose clock libfaketime moves preloads before it (harness/faketime-sleep.c:
 *  time.sleep stays the interpreter's own there). */
const SLEEP_SHIM = "faketime-sleep.so";

/** Builds harness/faketime-sleep.c once per source into build/ (a C compiler: scripts/setup.sh) and
 *  copies it into the staged harness; where it cannot be built the runner falls back to a sleep of
 *  its own (behave.py _sleep), and says nothing: the run is as it was before the shim. */
function buildSleepShim(into: string): void {
  const source = join(projectRoot(), "lib", "sandbox", "harness", "faketime-sleep.c");
  const built = join(projectRoot(), "build", `faketime-sleep-${createHash("sha256").update(readFileSync(source)).digest("hex").slice(0, 16)}.so`);
  if (!existsSync(built)) {
    const partial = `${built}.${process.pid}.tmp`;
    try {
      mkdirSync(join(projectRoot(), "build"), { recursive: true });
      execFileSync("cc", ["-shared", "-fPIC", "-O2", "-o", partial, source, "-ldl"], { stdio: "ignore", timeout: 120_000 });
      renameSync(partial, built);
    } catch {
      rmSync(partial, { force: true });
      return;
    }
  }
  copyFileSync(built, join(into, SLEEP_SHIM));
  chmodSync(join(into, SLEEP_SHIM), 0o755);
}

/** The sleep shim's path inside a run whose harness folder is at `inside` (harnessDir's, or where a
 *  sandbox binds it), or null where it was not built. */
export function sleepShim(inside: string): string | null {
  return existsSync(join(harnessDir(), SLEEP_SHIM)) ? join(inside, SLEEP_SHIM) : null;
}
