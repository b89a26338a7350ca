/** Temp folders: a process killed with SIGKILL runs no exit hook; the next lab process removes what it left. */
import { spawnSync } from "node:child_process";
import { existsSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sweepStaleTempDirs, tempDir, transientDir } from "../lib/core/index.js";
import { ROOT } from "./helpers.js";

describe("tempDir", () => {
  it("a SIGKILLed process's folders go at the next sweep; live owners' folders stay", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "-e", `
      const { tempDir } = await import(${JSON.stringify(join(ROOT, "lib", "core", "index.ts"))});
      process.stdout.write(tempDir("killed-").path + "\\n");
      process.kill(process.pid, "SIGKILL");`], { cwd: ROOT, encoding: "utf8" });
    expect(r.signal).toBe("SIGKILL");
    const left = r.stdout.trim();
    expect(left).toMatch(/composer-lab-killed-p\d+-/);
    expect(existsSync(left)).toBe(true);
    const mine = tempDir("live-");
    // the next lab process sweeps at its first temp folder
    const next = spawnSync(process.execPath, ["--import", "tsx", "-e", `
      const { tempDir } = await import(${JSON.stringify(join(ROOT, "lib", "core", "index.ts"))});
      tempDir("next-").remove();`], { cwd: ROOT, encoding: "utf8" });
    expect(next.status, next.stderr).toBe(0);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(mine.path)).toBe(true);
    expect(sweepStaleTempDirs()).not.toContain(mine.path);
    mine.remove();
  });

  it("transientDir: in memory where /dev/shm is a tmpfs and no TMPDIR was set, else TMPDIR; swept and removed alike", () => {
    const where = (env: Record<string, string | undefined>) => {
      const r = spawnSync(process.execPath, ["--import", "tsx", "-e", `
        const { transientDir } = await import(${JSON.stringify(join(ROOT, "lib", "core", "index.ts"))});
        const d = transientDir("where-"); process.stdout.write(d.path); d.remove();`], { cwd: ROOT, encoding: "utf8", env: { ...process.env, TMPDIR: undefined, COMPOSER_LAB_TRANSIENT_DIR: undefined, ...env } });
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(r.stdout), "removed").toBe(false);
      return r.stdout;
    };
    const shm = (() => {
      try {
        return statfsSync("/dev/shm").type === 0x01021994;
      } catch {
        return false;
      }
    })();
    expect(where({})).toMatch(shm ? /^\/dev\/shm\/composer-lab-where-p\d+-/ : /composer-lab-where-p\d+-/);
    // a TMPDIR the user set (a test's private folder, a swarm's shared one) is kept
    expect(where({ TMPDIR: tmpdir() }).startsWith(`${tmpdir()}/composer-lab-where-`)).toBe(true);
    expect(where({ COMPOSER_LAB_TRANSIENT_DIR: tmpdir() }).startsWith(`${tmpdir()}/composer-lab-where-`)).toBe(true);
    const d = transientDir("live-");
    expect(existsSync(d.path)).toBe(true);
    d.remove();
    expect(existsSync(d.path)).toBe(false);
  });
});
