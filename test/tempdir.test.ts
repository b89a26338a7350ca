/** Temp folders: a process killed with SIGKILL runs no exit hook; the next lab process removes what it left. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sweepStaleTempDirs, tempDir } from "../lib/core/index.js";
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
});
