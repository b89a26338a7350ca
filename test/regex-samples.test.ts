// Issue 26's regex dictionary: behave.py's coverage mode reports the regexes the reached code works
// with (real bwrap, real stdlib html), and lib/tasks/regex_samples samples strings they match (real
// python; every sample checked again here by a separate python re.search, not the helper's own).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jupyterPython } from "../lib/core/index.js";
import { BwrapSandbox, parseBehaveOutput, runBehaviour, type BCall } from "../lib/sandbox/index.js";
import { regexSamples } from "../lib/tasks/index.js";
import { tmp } from "./helpers.js";

// the stdlib's own pattern (html/__init__.py), the one markupsafe's Markup.unescape reaches
const CHARREF = String.raw`&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)`;
const DOTALL = 16, IGNORECASE = 2;

/** re.search of each sample by a python of its own (independent of the helper's filter). */
function pyMatches(pairs: { pattern: string; flags: number; s: string }[]): boolean[] {
  const r = spawnSync(jupyterPython(), ["-I", "-S", "-c", "import json,re,sys; print(json.dumps([re.search(p['pattern'], p['s'], p['flags']) is not None for p in json.load(sys.stdin)]))"], { input: JSON.stringify(pairs), encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as boolean[];
}

describe("regexSamples (lib/tasks/regex_samples.py on the host)", () => {
  it("covers the forms a pattern's branches tell apart; DOTALL, negation and case respected; every sample matches; seeded", { timeout: 20_000 }, async () => {
    const pats = [
      { pattern: CHARREF, flags: 0 },
      { pattern: "a.b", flags: DOTALL },
      { pattern: "a.b", flags: 0 },
      { pattern: "[^a-z<]+", flags: 0 },
      { pattern: "[^a-z]{2,5}", flags: IGNORECASE },
      { pattern: String.raw`<!--.*?-->|<.*?>`, flags: 0 },
      { pattern: String.raw`(?P<q>["'])[^\d\s]*(?P=q)`, flags: 0 },
      { pattern: String.raw`\d+\s\w`, flags: 0 },
      { pattern: "(", flags: 0 },
    ];
    const out = await regexSamples(pats, 16, 7);
    expect(out).toHaveLength(pats.length);
    const [charref, dot, nodot, neg, negI, tags, quoted, cats, bad] = out as [string[], string[], string[], string[], string[], string[], string[], string[], string[]];
    expect(charref.some((s) => /^&#[0-9]+;$/.test(s)), charref.join(" ")).toBe(true); // decimal
    expect(charref.some((s) => /^&#[xX][0-9a-fA-F]+;?$/.test(s))).toBe(true); // hex
    expect(charref.some((s) => /^&#[0-9]+$/.test(s) || /^&#[xX][0-9a-fA-F]+$/.test(s))).toBe(true); // a reference without ';'
    expect(charref.some((s) => /^&[^#]/.test(s))).toBe(true); // a named form
    expect(dot.some((s) => s === "a\nb")).toBe(true);
    expect(nodot.some((s) => s.includes("\n"))).toBe(false);
    expect(neg.length).toBeGreaterThan(8);
    for (const s of neg) expect(s).not.toMatch(/[a-z<]/);
    for (const s of negI) expect(s).not.toMatch(/[a-zA-Z]/);
    expect(tags.some((s) => s.startsWith("<!--"))).toBe(true);
    expect(tags.some((s) => !s.startsWith("<!--"))).toBe(true);
    expect(quoted.some((s) => s.startsWith('"')) && quoted.some((s) => s.startsWith("'"))).toBe(true);
    for (const s of quoted) expect(s.at(-1)).toBe(s[0]); // the back-reference repeats the group
    expect(cats.some((s) => /[^\x00-\x7f]/.test(s))).toBe(true); // \d \s \w's Unicode members too
    expect(bad).toEqual([]);
    const checks = pats.flatMap((p, i) => out[i]!.map((s) => ({ ...p, s })));
    expect(checks.length).toBeGreaterThan(80);
    expect(pyMatches(checks).every(Boolean)).toBe(true);
    expect(await regexSamples(pats.slice(0, 2), 16, 7)).toEqual(out.slice(0, 2)); // deterministic per (seed, pattern)
    expect(await regexSamples(pats.slice(0, 1), 16, 8)).not.toEqual(out.slice(0, 1));
  });

  it("a huge, an exploding and a backtracking pattern give nothing, and the next pattern still gets samples (the stuck helper killed and restarted, the whole call's deadline never reached)", { timeout: 120_000 }, async () => {
    // (the whole call's deadline is far past the kill at 4 s: a helper killed only by that deadline
    // would leave the last pattern [] too. 4 s, not the default 2: a healthy pattern's draw on a
    // loaded machine must not meet it, and 2^30 backtracking steps take longer. No wall-clock bound.)
    const out = await regexSamples([
      { pattern: "a".repeat(100_000), flags: 0 },
      { pattern: "((((a{50}){50}){50}){50})", flags: 0 },
      { pattern: "^(a|a){30}(?=c)", flags: 0 }, // each sample's check backtracks 2^30 times: killed
      { pattern: "x[0-9]y", flags: 0 },
    ], 8, 1, { patternTimeoutMs: 4000, generateMs: 4000, totalTimeoutMs: 90_000 });
    expect(out.slice(0, 3)).toEqual([[], [], []]);
    expect(out[3]!.length).toBeGreaterThan(3);
    for (const s of out[3]!) expect(s).toMatch(/^x[0-9]y$/);
  });
});

describe("behave.py's coverage mode reports the regexes the reached code works with (real bwrap)", () => {
  it("module globals of executed frames (stdlib html's _charref), class attributes, patterns looked up through re's functions, which of them the call used; none at grade time", { timeout: 60_000 }, async () => {
    const d = tmp();
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), [
      "import html, re",
      "re.compile(r'[0-9]+px')  # compiled (and cached) before any call: a cache diff would miss it",
      "class Tok:",
      "    WORD = re.compile(r'\\w+', re.I)",
      "def unesc(s):",
      "    return html.unescape(s)",
      "def size(s):",
      "    return re.findall(r'[0-9]+px', s)",
      "def plain(s):",
      "    return s.upper()",
      "",
    ].join("\n"));
    const sb = new BwrapSandbox();
    const call = (id: string, symbol: number, v: string): BCall => ({ id, symbol, pos: [{ t: "str", v }], kw: [] });
    const symbols = [{ module: "pkg.m", qualname: "unesc" }, { module: "pkg.m", qualname: "size" }, { module: "pkg.m", qualname: "plain" }];
    const calls = [call("u", 0, "a &amp; b"), call("s", 1, "3px 4px"), call("u2", 0, "&#38;"), call("u3", 0, "plain"), call("p", 2, "x")];
    const r = await runBehaviour(sb, d, { symbols, calls, roots: ["."], project: ["pkg"], coverage: true }, {}, { pyenv: null });
    expect(r.failure, r.run.stderr.slice(-800)).toBeNull();
    const of = (id: string) => r.regexes!.get(id)!.map((p) => `${p.flags}:${p.pattern}`);
    const used = (id: string) => r.regexes!.get(id)!.filter((p) => p.used).map((p) => `${p.flags}:${p.pattern}`);
    expect(of("u")).toContain(`0:${CHARREF}`);
    expect(of("u")).toContain(`2:\\w+`); // Tok.WORD: a class attribute in pkg.m's globals (re.I = 2)
    expect(used("u")).toEqual([`0:${CHARREF}`]); // _charref.sub ran; Tok.WORD only sat in the module
    expect(of("u2")).toEqual(of("u")); // the same table entries, not sent twice
    expect(used("u3")).toEqual([]); // html.unescape returns early without a '&'
    expect(used("s")).toEqual(["0:[0-9]+px"]);
    expect(of("s")).toContain("0:[0-9]+px"); // a re.findall cache hit
    expect(of("s")).not.toContain(`0:${CHARREF}`); // html's code did not run under this call
    expect(of("p")).not.toContain(`0:${CHARREF}`);
    expect(r.outcomes!.get("u")![0]).toMatchObject({ k: "return", ret: { t: "str", v: "a & b" } });
    const grade = await runBehaviour(sb, d, { symbols, calls, roots: ["."], project: ["pkg"] }, {}, { pyenv: null });
    expect(grade.failure).toBeNull();
    expect(grade.regexes!.size).toBe(0);
    expect(grade.run.stdout).not.toMatch(/"re"/);
  });

  it("the strict parse refuses an index outside the run's table", () => {
    const c: BCall[] = [{ id: "a", symbol: 0, pos: [], kw: [] }];
    const ok = { ev: "call", id: "a", out: [{ k: "return", ret: { t: "none" }, post: [], postkw: [] }], cov: [], re: [0], re_new: [["x+", 0]] };
    const lines = (rec: object) => [{ ev: "start" }, rec, { ev: "end", n: 1 }].map((l) => JSON.stringify(l)).join("\n");
    expect(parseBehaveOutput(lines(ok), c, 1).regexes!.get("a")).toEqual([{ pattern: "x+", flags: 0, used: false }]);
    expect(parseBehaveOutput(lines({ ...ok, re_used: [0] }), c, 1).regexes!.get("a")).toEqual([{ pattern: "x+", flags: 0, used: true }]);
    expect(parseBehaveOutput(lines({ ...ok, re: [], re_used: [0] }), c, 1).failure).toMatch(/did not reach/);
    expect(parseBehaveOutput(lines({ ...ok, re: [1] }), c, 1).failure).toMatch(/not in the run's table/);
    expect(parseBehaveOutput(lines({ ...ok, re_new: [["x+", -1]] }), c, 1).failure).toMatch(/not a call record/);
  });
});
