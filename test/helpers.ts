import { execFile, spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../lib/core/index.js";

export const ROOT = join(import.meta.dirname, "..");

const made: (() => void)[] = [];

/**
 * A temp folder, removed after the test file (test/support/remove-tmp.ts) and otherwise when the
 * test process exits (core.tempDir: also on SIGINT/SIGTERM). The after-file removal matters: a
 * worker ended by the pool without an orderly exit left its folders in /tmp.
 */
export function tmp(prefix = "test-"): string {
  const d = tempDir(prefix);
  made.push(d.remove);
  return d.path;
}

/** Removes every folder tmp() made in this process (best effort: what fails is left to the exit hook). */
export function removeTmp(): void {
  for (const remove of made.splice(0)) {
    try {
      remove();
    } catch {
      /* e.g. a folder a sandbox left owned by another uid */
    }
  }
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
