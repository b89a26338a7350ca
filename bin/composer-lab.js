#!/usr/bin/env -S node --max-semi-space-size=64
// (a young generation of 64 MB: grading allocates ≈ 10^5 short-lived values a grade; docs/performance.md)
// Starts the CLI from the compiled library (dist/, built by `npm run build` and by setup/pretest)
// when it is up to date with lib/, else from the TypeScript sources through tsx, so edits to lib/
// take effect without a build. Benchmarks are TypeScript files (bench/*.bench.ts): always tsx.
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The newest modification time under `dir` (stops early once something is newer than `than`). */
function newerThan(dir, than) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() ? newerThan(p, than) : statSync(p).mtimeMs > than) return true;
  }
  return false;
}

function distIsFresh() {
  if (process.env.COMPOSER_LAB_FROM_SOURCE === "1") return false;
  try {
    const built = statSync(join(root, "dist", ".stamp")).mtimeMs;
    return !newerThan(join(root, "lib"), built);
  } catch {
    return false;
  }
}

const command = process.argv.slice(2).find((a) => !a.startsWith("-"));
if (command !== "bench" && distIsFresh()) {
  const { main } = await import("../dist/lib/cli/main.js");
  await main();
} else {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import("../lib/cli/main.ts");
  await main();
}
