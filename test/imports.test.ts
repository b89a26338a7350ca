/** The import graph of lib/: no cycles (madge, type-only imports included), and no stage imports lib/demo. */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

describe("import graph", () => {
  it("has no cycles", () => {
    const out = execFileSync(join(ROOT, "node_modules", ".bin", "madge"), ["--circular", "--json", "--extensions", "ts", "--ts-config", "tsconfig.json", "lib"], { cwd: ROOT, encoding: "utf8" });
    const cycles = JSON.parse(out.slice(out.indexOf("["))) as string[][];
    expect(cycles).toEqual([]);
  }, 60_000);

  it("no stage imports lib/demo (stage demos live under lib/demo/pipeline)", () => {
    const upward: string[] = [];
    for (const stage of readdirSync(join(ROOT, "lib"), { withFileTypes: true })) {
      if (!stage.isDirectory() || stage.name === "demo" || stage.name === "cli") continue;
      for (const f of readdirSync(join(ROOT, "lib", stage.name), { recursive: true }) as string[]) {
        if (!f.endsWith(".ts")) continue;
        if (/from "\.\.\/demo\//.test(readFileSync(join(ROOT, "lib", stage.name, f), "utf8"))) upward.push(`lib/${stage.name}/${f}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
