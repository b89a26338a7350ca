/** docs/contributing.md's worked examples compile against the real lib/ (each ts block at the path its first line names). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ENVIRONMENTS, EnvSpec } from "../lib/env/index.js";
import { GRANULARITIES, Granularity, granularityLadder, harderVariants, type GranularityName } from "../lib/tasks/index.js";
import { ROOT } from "./helpers.js";

const DOC = join(ROOT, "docs", "contributing.md");

function examples(): { path: string; code: string }[] {
  const out: { path: string; code: string }[] = [];
  for (const m of readFileSync(DOC, "utf8").matchAll(/```ts\n([\s\S]*?)```/g)) {
    const first = m[1]!.split("\n")[0]!.match(/^\/\/ (\S+\.ts)$/);
    if (!first) throw new Error(`${DOC}: a ts block must start with "// <path>.ts" (got ${m[1]!.split("\n")[0]})`);
    out.push({ path: join(ROOT, first[1]!), code: m[1]! });
  }
  return out;
}

/** Type-checks virtual files with the project's compiler options; their diagnostics, as text. */
function typecheck(files: { path: string; code: string }[]): string[] {
  const cfg = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
  const virtual = new Map(files.map((f) => [f.path, f.code]));
  const host = ts.createCompilerHost(cfg.options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const source = host.getSourceFile.bind(host);
  host.readFile = (f) => virtual.get(f) ?? read(f);
  host.fileExists = (f) => virtual.has(f) || exists(f);
  host.getSourceFile = (f, lang, onError, create) => (virtual.has(f) ? ts.createSourceFile(f, virtual.get(f)!, lang) : source(f, lang, onError, create));
  const program = ts.createProgram([...virtual.keys()], { ...cfg.options, noEmit: true }, host);
  return files.flatMap((f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f.path)).map((d) => `${f.path}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`));
}

describe("docs/contributing.md", () => {
  it("every worked example compiles against lib/, and a broken one would not", () => {
    const ex = examples();
    expect(ex.length).toBeGreaterThanOrEqual(1);
    expect(typecheck(ex)).toEqual([]);
    // the check can fail: the same example with a misspelled field is refused
    expect(typecheck([{ ...ex[0]!, code: ex[0]!.code.replace("capsSpan", "capSpan") }]).join("\n")).toMatch(/capSpan/);
  }, 120_000);
});

describe("the granularity registry", () => {
  it("has one strategy per Granularity, the ladder follows `harder`, and escalation climbs it", () => {
    expect(Object.keys(GRANULARITIES).sort()).toEqual([...Granularity.options].sort());
    for (const [name, s] of Object.entries(GRANULARITIES)) expect(s.name).toBe(name);
    expect(granularityLadder()).toEqual(["function", "class", "file", "feature"]);
    const spans = (g: GranularityName) => harderVariants([{ granularity: g, features: 1, escalation: [] }]).flatMap((v) => v.knobs.filter((k) => k.startsWith("span:")));
    expect(spans("function")).toEqual(["span:class"]);
    expect(spans("file")).toEqual(["span:feature"]);
    expect(spans("feature")).toEqual([]);
  });
});

describe("the environment registry", () => {
  it("each kind's spec carries its own kind, and EnvSpec accepts every kind the registry opens", () => {
    for (const [k, e] of Object.entries(ENVIRONMENTS)) expect((e.spec as unknown as { shape: { kind: { value: string } } }).shape.kind.value).toBe(k);
    const minimal: Record<string, object> = { toolcall: {}, feature_deletion: { store: "/tmp/s", run_id: "r" }, hint_answer: {} };
    expect(Object.keys(minimal).sort()).toEqual(Object.keys(ENVIRONMENTS).sort());
    for (const [k, extra] of Object.entries(minimal)) expect(EnvSpec.parse({ kind: k, ...extra }).kind).toBe(k);
    expect(() => EnvSpec.parse({ kind: "nope" })).toThrow();
  });
});
