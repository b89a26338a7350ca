import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram, COMMANDS } from "../lib/cli/main.js";
import { cli, oneJson, tmp } from "./helpers.js";

describe("composer-lab CLI", () => {
  it("--help lists the subcommands", () => {
    const r = cli(["--help"]);
    expect(r.code).toBe(0);
    for (const cmd of ["demo", "notebooks", "repl", "doctor", "kernel", "viz", "bench", "collate", "train", "compare"]) expect(r.stdout).toMatch(new RegExp(`^\\s+${cmd}\\b`, "m"));
  });

  it("the --help table (COMMANDS, read without loading any command) matches what the command modules register", async () => {
    const program = await buildProgram();
    expect(program.commands.map((c) => [c.name(), c.description()])).toEqual(Object.entries(COMMANDS).map(([name, c]) => [name, c.description]));
  });

  it("doctor --json prints exactly one JSON object with the probed tools", () => {
    const r = cli(["doctor", "--json"]);
    const out = oneJson(r.stdout);
    expect(out.tools.map((t: { tool: string }) => t.tool)).toContain("bubblewrap");
    expect(out.tools.find((t: { tool: string }) => t.tool === "node").available).toBe(true);
    expect(["tensorflow", "torch", "wasm", "cpu"]).toContain(out.backend.name);
    // setup installs a C compiler: the runs with a moved clock keep the interpreter's time.sleep
    expect(out.grading.sleep_shim).toMatch(/^built/);
  });

  it("store ls of a local store that is not there fails, naming it", () => {
    const r = cli(["store", "ls", "/nonexistent/composer-lab-store", "--json"]);
    expect(r.code).toBe(1);
    expect(oneJson(r.stdout)).toMatchObject({ ok: false, error: "no such store: /nonexistent/composer-lab-store (no folder there)" });
  });

  it("an unknown command fails with one JSON error object under --json", () => {
    const r = cli(["no-such-command", "--json"]);
    expect(r.code).not.toBe(0);
    const out = oneJson(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/unknown command/);
  });

  it("viz export names the file and the field of a bad figure", () => {
    const dir = tmp();
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ data: [], layout: {} }));
    const r = cli(["viz", "export", bad, "--png", join(dir, "x.png"), "--json"]);
    expect(r.code).toBe(1);
    const out = oneJson(r.stdout);
    expect(out.error).toContain(bad);
    expect(out.error).toMatch(/at data: a figure needs at least one trace/);
  });

  it("viz export writes a PNG and a self-contained HTML page", () => {
    const dir = tmp();
    const fig = join(dir, "fig.json");
    writeFileSync(fig, JSON.stringify({ data: [{ type: "bar", x: ["a", "b"], y: [1, 2] }], layout: { width: 300, height: 200 } }));
    const r = cli(["viz", "export", fig, "--png", join(dir, "f.png"), "--html", join(dir, "f.html"), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    expect(out.png).toBe(join(dir, "f.png"));
    expect(out.html).toBe(join(dir, "f.html"));
  });

  it("numeric options are checked at parse time, naming the option, the range and the value, as one JSON error", () => {
    const cases: [string[], RegExp][] = [
      [["compare", "--seeds", "0"], /--seeds <n>' argument '0' is invalid\. expected a whole number ≥ 1/],
      [["tasks", "micro", "--out", tmp(), "--n", "2.5"], /--n <n>' argument '2\.5' is invalid\. expected a whole number ≥ 1/],
      [["outer", "run", "--pool", "p", "--store", "s", "--models", "http://127.0.0.1:9/v1", "--holdout-fraction", "1"], /--holdout-fraction <f>' argument '1' is invalid\. expected a number in \[0, 1\)/],
      [["sandbox", "exec", "--timeout", "soon", "--", "true"], /--timeout <ms>' argument 'soon' is invalid\. expected a whole number ≥ 1/],
    ];
    for (const [args, error] of cases) {
      const r = cli([...args, "--json"]);
      expect(r.code, args.join(" ")).not.toBe(0);
      expect(oneJson(r.stdout), args.join(" ")).toMatchObject({ ok: false, error: expect.stringMatching(error) });
    }
  });

  it("bench lists the benchmarks", () => {
    const out = oneJson(cli(["bench", "--json"]).stdout);
    expect(out.benchmarks).toContain("viz-export");
  });
});
