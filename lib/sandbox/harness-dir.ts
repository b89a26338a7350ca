import { chmodSync, cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
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
  chmodSync(dir.path, 0o755);
  staged = dir;
  return dir.path;
}
