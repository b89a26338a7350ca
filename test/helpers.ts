import { execFile, spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../lib/core/index.js";

export const ROOT = join(import.meta.dirname, "..");

/** A temp folder removed when the test process exits (core.tempDir: also on SIGINT/SIGTERM). */
export function tmp(prefix = "test-"): string {
  return tempDir(prefix).path;
}

/** Runs the real CLI (bin/composer-lab.js) as a user would. */
export function cli(args: string[], opts: { env?: Record<string, string>; input?: string } = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "composer-lab.js"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...opts.env },
    input: opts.input,
    timeout: 570_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Parses stdout that must hold exactly one JSON object (the --json contract). */
export function oneJson(stdout: string): Record<string, any> {
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  if (lines.length !== 1) throw new Error(`expected exactly one JSON line on stdout, got ${lines.length}:\n${stdout}`);
  return JSON.parse(lines[0]!);
}

/** The CLI without blocking this process (for tests whose servers run in this process). */
export function cliAsync(args: string[], opts: { env?: Record<string, string> } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [join(ROOT, "bin", "composer-lab.js"), ...args], { cwd: ROOT, env: { ...process.env, ...opts.env }, timeout: 570_000 }, (err, stdout, stderr) => {
      res({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
