import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

describe("composer-lab repl", () => {
  it("preloads the library, supports top-level await and prints tables as aligned text", () => {
    const input = [
      `const t = viz.fromRows([{ stage: "traces", n: 3 }, { stage: "hints", n: 12 }]);`,
      `t`,
      `await Promise.resolve(6 * 7)`,
      `typeof demo.runDemo`,
      `.exit`,
    ].join("\n");
    const r = cli(["repl"], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("stage    n");
    expect(r.stdout).toContain("hints   12");
    expect(r.stdout).toContain("42");
    expect(r.stdout).toContain("'function'");
  });
});
