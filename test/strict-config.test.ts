// Strict input (issue 32 §2): every key a person writes in a config is either known or refused with
// the file, the line, the key and the closest known key; valid configs still parse.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { closestKey, loadConfigFile, strictSchema } from "../lib/core/index.js";
import { HintsConfig } from "../lib/hints/index.js";
import { TrainConfigChecked, loadTrainConfig, parseTrainConfig } from "../lib/train/index.js";

const dir = mkdtempSync(join(tmpdir(), "strict-config-"));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const failure = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected the parse to fail");
};

describe("strict configs", () => {
  it("a misspelled key fails with file, line, key and the closest known key, at any depth", () => {
    const f = write("typos.yaml", [
      "seed: 1", //                       1
      "los_weights:", //                  2
      "  sdpo: 0.1", //                   3
      "rl:", //                           4
      "  steps: 3", //                    5
      "  max_completion_lenght: 20", //   6
      "sdpo:", //                         7
      "  hints:", //                      8
      "    layers:", //                   9
      "      - type: template", //        10
      "        templatez: {}", //         11
    ].join("\n"));
    const msg = failure(() => loadTrainConfig(f));
    expect(msg).toContain(`${f}:2: los_weights: unknown key "los_weights"; did you mean "loss_weights"?`);
    expect(msg).toContain(`${f}:6: rl.max_completion_lenght: unknown key "max_completion_lenght"; did you mean "max_completion_length"?`);
    // Inside an array of a discriminated union's options.
    expect(msg).toContain(`${f}:11: sdpo.hints.layers.0.templatez: unknown key "templatez"; did you mean "templates"?`);
  });

  it("JSON configs get lines too, and a renamed field still names its new name", () => {
    const f = write("env.json", JSON.stringify({ seed: 2, env: { kind: "feature_deletion", store: "s", run_id: "r", sandbx: "bwrap" } }, null, 2));
    expect(failure(() => loadTrainConfig(f))).toContain(`${f}:7: env.sandbx: unknown key "sandbx"; did you mean "sandbox"?`);
    const g = write("renamed.yaml", "rl:\n  max_new_tokens: 3\n");
    const msg = failure(() => loadTrainConfig(g));
    expect(msg).toContain(`${g}:2: rl.max_new_tokens: renamed: use rl.max_completion_length`);
    expect(msg.split("\n")).toHaveLength(1);
  });

  it("parseTrainConfig (the REPL's and notebooks' boundary) is strict too; valid configs parse unchanged", () => {
    expect(() => parseTrainConfig({ sft: { stepz: 3 } })).toThrow(/unknown key "stepz"; did you mean "steps"\?/);
    expect(parseTrainConfig({ sft: { steps: 3 } }).sft.steps).toBe(3);
    for (const f of readdirSync("datasets/configs").filter((n) => !n.startsWith("sdpo-compare"))) {
      expect(() => loadTrainConfig(join("datasets/configs", f)), f).not.toThrow();
    }
  });

  it("every object of the train config refuses a key it does not declare (walked from the defaults)", () => {
    const defaults = parseTrainConfig({}) as unknown as Record<string, unknown>;
    const paths: string[][] = [];
    const walk = (v: unknown, path: string[]) => {
      if (!v || typeof v !== "object" || Array.isArray(v)) return;
      paths.push(path);
      for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
    };
    walk(defaults, []);
    // Records keyed by data (layer name → count, tag → weight) take any key by design.
    const records = new Set(["sdpo.hints.layers"]);
    let checked = 0;
    for (const path of paths) {
      if (records.has(path.join("."))) continue;
      const input = structuredClone(defaults);
      let at: Record<string, unknown> = input;
      for (const k of path) at = at[k] as Record<string, unknown>;
      at["zz_not_a_key"] = 1;
      const r = TrainConfigChecked.safeParse(input);
      expect(r.success, `accepted an unknown key under ${path.join(".") || "(root)"}`).toBe(false);
      if (!r.success) expect(r.error.issues.map((i) => i.path.join("."))).toContain([...path, "zz_not_a_key"].join("."));
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("strictSchema keeps what a schema declares open: records, passthrough and catchall", () => {
    const S = strictSchema(z.object({ tags: z.record(z.object({ w: z.number() })), meta: z.object({}).passthrough(), extra: z.object({ a: z.number() }).catchall(z.string()) }));
    expect(S.parse({ tags: { any: { w: 1 } }, meta: { x: 1 }, extra: { a: 1, b: "s" } })).toEqual({ tags: { any: { w: 1 } }, meta: { x: 1 }, extra: { a: 1, b: "s" } });
    // …but the record's values are objects too, and strict.
    expect(S.safeParse({ tags: { any: { w: 1, v: 2 } }, meta: {}, extra: { a: 1 } }).success).toBe(false);
    expect(S.safeParse({ tags: {}, meta: {}, extra: { a: 1, b: 2 } }).success).toBe(false);
    // The schema it was built from is unchanged (rows and outputs may carry new keys).
    expect(z.object({ a: z.number() }).parse({ a: 1, b: 2 })).toEqual({ a: 1 });
  });

  it("closestKey proposes only near keys", () => {
    expect(closestKey("los_weights", ["loss_weights", "seed"])).toBe("loss_weights");
    expect(closestKey("Seed", ["seed", "sft"])).toBe("seed");
    expect(closestKey("completely_else", ["seed", "sft"])).toBeNull();
  });

  it("hints configs name the closest key as well", () => {
    const f = write("hints.yaml", "layers:\n  - type: judge\n    modle: x\n");
    expect(failure(() => loadConfigFile(f, HintsConfig))).toMatch(new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: layers.0.modle: unknown key "modle"; did you mean "model"\\?`));
  });

  it("the CLI exits non-zero and prints one JSON object naming the key", () => {
    const f = write("cli.yaml", "rl:\n  stepps: 2\n");
    let out = "";
    let code = 0;
    try {
      execFileSync(process.execPath, ["bin/composer-lab.js", "train", "--config", f, "--run-dir", join(dir, "run"), "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      const err = e as { status: number; stdout: string };
      code = err.status;
      out = err.stdout;
    }
    expect(code).not.toBe(0);
    const j = JSON.parse(out) as { ok: boolean; error: string };
    expect(j.ok).toBe(false);
    expect(j.error).toContain(`${f}:2: rl.stepps: unknown key "stepps"; did you mean "steps"?`);
  }, 60_000);
});
