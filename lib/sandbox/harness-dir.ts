import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot, tempDir } from "../core/index.js";

/** Where every sandbox binds the staged harness folder (read-only). */
export const HARNESS_MOUNT = "/opt/composer-lab";
/** Where a run's own request folder is bound (read-only) beside it. */
export const CFG_MOUNT = "/opt/composer-lab-cfg";

/** The staged harness folder, and why its sleep shim could not be built (null where it was). */
let staged: { path: string; shimMissing: string | null } | undefined;

/** The harness (harness.py, forkserver.py), copied once per process to a folder every sandbox
 *  user can read (the lab's own tree may sit in a private home). */
export function harnessDir(): string {
  return stagedHarness().path;
}

function stagedHarness(): { path: string; shimMissing: string | null } {
  if (staged && existsSync(join(staged.path, "harness.py"))) return staged;
  const dir = tempDir("harness-");
  cpSync(join(projectRoot(), "lib", "sandbox", "harness"), dir.path, { recursive: true });
  writeFileSync(join(dir.path, "pytest.ini"), "[pytest]\n");
  // the stubs masks bind over installed copies (mask.ts): an empty folder and an empty file too
  mkdirSync(join(dir.path, "mask", "empty"), { recursive: true });
  writeFileSync(join(dir.path, "mask", "empty-file"), "");
  const shimMissing = buildSleepShim(dir.path);
  chmodSync(dir.path, 0o755);
  staged = { path: dir.path, shimMissing };
  return staged;
}

/** The shared object a run whose clock libfaketime moves preloads before it (harness/faketime-sleep.c:
 *  time.sleep stays the interpreter's own there). */
const SLEEP_SHIM = "faketime-sleep.so";

/** Builds harness/faketime-sleep.c once per source into build/ (a C compiler: scripts/setup.sh) and
 *  copies it into the staged harness: null, or why it could not be built. Without it the runner
 *  falls back to a sleep of its own (behave.py _sleep), which a body can tell from the interpreter's
 *  (round 38's w01): `composer-lab doctor` and `sandbox check` say so. */
function buildSleepShim(into: string): string | null {
  const source = join(projectRoot(), "lib", "sandbox", "harness", "faketime-sleep.c");
  const built = join(projectRoot(), "build", `faketime-sleep-${createHash("sha256").update(readFileSync(source)).digest("hex").slice(0, 16)}.so`);
  if (!existsSync(built)) {
    const partial = `${built}.${process.pid}.tmp`;
    try {
      mkdirSync(join(projectRoot(), "build"), { recursive: true });
      execFileSync("cc", ["-shared", "-fPIC", "-O2", "-o", partial, source, "-ldl"], { stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 });
      renameSync(partial, built);
    } catch (e) {
      rmSync(partial, { force: true });
      const err = e as { code?: string; stderr?: Buffer; message: string };
      return `cc could not build ${source}: ${err.code === "ENOENT" ? "no C compiler (cc) on PATH: scripts/setup.sh installs gcc and libc6-dev" : (err.stderr?.toString().trim().split("\n")[0] ?? err.message).slice(0, 300)}`;
    }
  }
  copyFileSync(built, join(into, SLEEP_SHIM));
  chmodSync(join(into, SLEEP_SHIM), 0o755);
  return null;
}

/** The sleep shim's path inside a run whose harness folder is at `inside` (harnessDir's, or where a
 *  sandbox binds it), or null where it was not built. */
export function sleepShim(inside: string): string | null {
  return stagedHarness().shimMissing === null ? join(inside, SLEEP_SHIM) : null;
}

/** Why runs with a moved clock lack the sleep shim (their time.sleep is the runner's stand-in, a
 *  tell), or null where they have it. */
export function sleepShimMissing(): string | null {
  return stagedHarness().shimMissing;
}
