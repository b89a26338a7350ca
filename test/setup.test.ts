import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tmp } from "./helpers.js";

describe("scripts/setup.sh", () => {
  it("on a host without apt names what to install instead of failing with a trace", () => {
    // A PATH holding only the basic tools the script needs: no apt-get, no dpkg-query.
    const bin = join(tmp(), "bin");
    mkdirSync(bin);
    for (const tool of ["bash", "dirname", "cat", "grep", "id", "printf"]) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const r = spawnSync("/usr/bin/bash", [join(ROOT, "scripts", "setup.sh")], { encoding: "utf8", env: { PATH: bin } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no apt-get/);
    expect(r.stderr).toMatch(/bubblewrap/);
    expect(r.stderr).toMatch(/COMPOSER_LAB_SKIP_APT=1/);
    expect(r.stderr).not.toMatch(/line \d+:/); // no bash error trace
  });

  it("is idempotent: a second run on a set-up machine changes nothing", () => {
    const r = spawnSync("bash", [join(ROOT, "scripts", "setup.sh")], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/installing/);
    expect(r.stderr).not.toMatch(/updated/);
  });
});
