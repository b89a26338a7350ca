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
  // a stage's example lives in a folder that does not exist yet (lib/census/)
  const dirExists = host.directoryExists?.bind(host);
  host.directoryExists = (d) => [...virtual.keys()].some((f) => f.startsWith(d.endsWith("/") ? d : `${d}/`)) || (dirExists ? dirExists(d) : ts.sys.directoryExists(d));
  host.getSourceFile = (f, lang, onError, create) => (virtual.has(f) ? ts.createSourceFile(f, virtual.get(f)!, lang) : source(f, lang, onError, create));
  const program = ts.createProgram([...virtual.keys()], { ...cfg.options, noEmit: true }, host);
  return files.flatMap((f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f.path)).map((d) => `${f.path}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`));
}

/**
 * Each example's control: a field it names, misspelled. The misspelled copy sits beside the example
 * (`<name>.control.ts`, so its imports resolve alike) in the same program, and must be refused by name.
 */
const CONTROLS: Record<string, [field: string, misspelled: string, named: string]> = {
  "lib/tasks/granularity/method.ts": ["capsSpan", "capSpan", "capSpan"],
  "lib/env/reverse_environment.ts": ["open: (spec)", "opn: (spec)", "opn"],
  "lib/traces/eventlog.ts": ["b.say(", "b.sya(", "sya"],
  "lib/train/channels_entropy.ts": ["combine:", "combin:", "combin"],
  "lib/census/index.ts": ["return { by: o.by, counts:", "return { by: o.by, count:", "count"],
  "lib/cli/commands/census.ts": [".addOption(jsonOpt())", ".addOptio(jsonOpt())", "addOptio"],
  "lib/demo/pipeline/census.ts": ["description:", "descripton:", "descripton"],
  "lib/sandbox/unshare.ts": ["outputTruncated: r.outputTruncated", "outputTruncate: r.outputTruncated", "outputTruncate"],
};

describe("docs/contributing.md", () => {
  it("every worked example compiles against lib/, and each with a misspelled field would not", () => {
    const ex = examples();
    const paths = ex.map((e) => e.path.slice(ROOT.length + 1));
    // a stage, a loss channel, a granularity, an environment, a sandbox kind and a trace format
    expect(paths.sort()).toEqual(Object.keys(CONTROLS).sort());
    const controls = ex.map((e) => {
      const [field, wrong, named] = CONTROLS[e.path.slice(ROOT.length + 1)]!;
      expect(e.code, e.path).toContain(field);
      return { path: e.path.replace(/\.ts$/, ".control.ts"), code: e.code.replace(field, wrong), wrong: named };
    });
    const diagnostics = typecheck([...ex, ...controls]);
    expect(diagnostics.filter((d) => !d.includes(".control.ts"))).toEqual([]);
    for (const c of controls) expect(diagnostics.filter((d) => d.startsWith(c.path)).join("\n"), c.path).toContain(c.wrong);
  }, 180_000);
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
