// The behavioural check (issue 26 §1): the strict serializer on real objects in the real sandbox,
// the grader's strict parse of what the runner wrote, the comparison, the oracle records of the
// committed pools (hidden: never in a snapshot), `tasks rebuild-oracle --json`, the reward rule and
// its configuration, and the false-flag rate on independently written correct bodies.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import pLimit from "p-limit";
import { describe, expect, it } from "vitest";
import { checkBehaviour, gradeCompletion, type GradeCompletionResult } from "../lib/env/index.js";
import { BwrapSandbox, parseBehaveOutput, runBehaviour, type BCall, type BOutcome, type BValue } from "../lib/sandbox/index.js";
import { ALT_BODIES, altMicroCompletion, grownCall, kinProbes, CHAR_PROBE_SET, loadTask, mutateValue, piecesOf, selectComposed, readIndex, readOracle, refactoredGoldenCompletion, sameOutcome, sameValue, taskOracle, CompareOptions, SPECIAL_CHARS, type FeatureDeletionTask, type Oracle, type OracleCall } from "../lib/tasks/index.js";
import { Rng } from "../lib/core/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const sb = new BwrapSandbox();
const MICRO = join(ROOT, "datasets", "fd-micro", "pool");
const INVENTORY = join(ROOT, "datasets", "tasks");
const MARKUPSAFE = join(ROOT, "datasets", "real-markupsafe");
const JINJA2 = join(ROOT, "datasets", "real-jinja2");

/** A red team's payload: test/redteam/payloads/<round>/<file>. */
const payload = (round: string, file: string): string => readFileSync(join(ROOT, "test", "redteam", "payloads", round, file), "utf8");

/** `patch` graded against `oracle` in place of the task's own (written to `dir` as `name`.json): the
 *  controls, which take one cause's calls out of the task's oracle. */
async function gradeAgainst(t: FeatureDeletionTask, oracle: Oracle, patch: string, dir: string, name: string): Promise<GradeCompletionResult> {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(oracle));
  return gradeCompletion({ ...t, oracle_path: path }, patch, sb);
}

const PKG = String.raw`
import itertools, threading


class AnyEq:
    def __eq__(self, o):
        return True
    __hash__ = object.__hash__


class S(str):
    def __eq__(self, o):
        return True
    __hash__ = str.__hash__


class Meta(type):
    def __instancecheck__(cls, obj):
        return True


class Spoof(metaclass=Meta):
    @property
    def __class__(self):
        return int


class FakeDict:
    @property
    def __dict__(self):
        return {"v": 1}


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


class LyingError(Exception):
    @property
    def __class__(self):
        return KeyError


LyingError.__name__ = "KeyError"
LyingError.__qualname__ = "KeyError"
LyingError.__module__ = "builtins"


def f(kind, arg=None):
    if kind == "int":
        return 3
    if kind == "any":
        return AnyEq()
    if kind == "strsub":
        return S("abc")
    if kind == "spoof":
        return Spoof()
    if kind == "fakedict":
        return FakeDict()
    if kind == "point":
        return Point(1, [2, 3])
    if kind == "lie":
        raise LyingError("x")
    if kind == "valueerror":
        raise ValueError("x")
    if kind == "gen":
        return itertools.count()
    if kind == "selfref":
        x = []
        x.append(x)
        return x
    if kind == "deep":
        x = []
        for _ in range(10000):
            x = [x]
        return x
    if kind == "mutate":
        arg.append(4)
        return None
    if kind == "sleep":
        import time
        time.sleep(30)
    if kind == "later":
        out = [1]
        threading.Thread(target=lambda: (__import__("time").sleep(0.2), out.append(2)), daemon=True).start()
        return out
    if kind == "dict":
        return {"b": 1, "a": (1.5, None, True, b"\x00")}
    return kind
`;

const str = (v: string): BValue => ({ t: "str", v });
const call = (id: string, kind: string, arg?: BValue): BCall => ({ id, symbol: 0, pos: [str(kind), ...(arg ? [arg] : [])], kw: [] });

describe("the strict serializer (behave.py in the sandbox)", () => {
  it("serializes objects as what they are, never calling their methods; lies, bombs and clocks come back as such", { timeout: 120_000 }, async () => {
    const d = tmp();
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), PKG);
    const calls = ["int", "any", "strsub", "spoof", "fakedict", "point", "lie", "valueerror", "gen", "selfref", "deep", "sleep", "later", "dict"].map((k) => call(k, k));
    calls.push(call("mutate", "mutate", { t: "list", v: [{ t: "int", v: "1" }] }));
    const r = await runBehaviour(sb, d, { symbols: [{ module: "pkg.m", qualname: "f" }], calls, roots: ["."], project: ["pkg"] }, { call_timeout_ms: 500 });
    expect(r.failure, r.run.stderr.slice(-800)).toBeNull();
    const out = (id: string) => r.outcomes!.get(id)![0]!;
    expect(out("int")).toMatchObject({ k: "return", ret: { t: "int", v: "3" } });
    expect(out("any")).toMatchObject({ k: "return", ret: { t: "inst", cls: "pkg.m.AnyEq", dict: [] } });
    expect(out("strsub")).toMatchObject({ k: "return", ret: { t: "inst", cls: "pkg.m.S", base: { t: "str", v: "abc" } } });
    expect(out("spoof")).toMatchObject({ k: "return", ret: { t: "inst", cls: "pkg.m.Spoof" } });
    expect(out("fakedict")).toMatchObject({ k: "return", ret: { t: "inst", cls: "pkg.m.FakeDict", opaque: expect.stringMatching(/not the genuine/) } });
    expect(out("point")).toMatchObject({ k: "return", ret: { t: "inst", cls: "pkg.m.Point", dict: [["x", { t: "int", v: "1" }], ["y", { t: "list", v: [{ t: "int", v: "2" }, { t: "int", v: "3" }] }]] } });
    expect(out("lie")).toMatchObject({ k: "raise", exc: { type: "builtins.KeyError", builtin: "Exception" } }); // its real class: a module-level class claiming builtins
    expect(out("lie")).not.toMatchObject({ exc: { type: "KeyError" } });
    expect(out("valueerror")).toMatchObject({ k: "raise", exc: { type: "ValueError", builtin: "ValueError" } });
    expect(out("gen")).toMatchObject({ k: "return", ret: { t: "inst", opaque: expect.any(String) } });
    expect(out("selfref")).toMatchObject({ k: "unserializable", why: expect.stringMatching(/self-referencing/) });
    expect(out("deep")).toMatchObject({ k: "unserializable", why: expect.stringMatching(/deeper/) });
    expect(out("sleep")).toMatchObject({ k: "timeout" });
    expect(out("later")).toMatchObject({ k: "return", ret: { t: "list", v: [{ t: "int", v: "1" }] } });
    expect(out("dict")).toMatchObject({ k: "return", ret: { t: "dict", v: [[str("b"), { t: "int", v: "1" }], [str("a"), { t: "tuple", v: [{ t: "float", v: "1.5" }, { t: "none" }, { t: "bool", v: true }, { t: "bytes", v: "00" }] }]] } });
    expect(out("mutate")).toMatchObject({ k: "return", post: [str("mutate"), { t: "list", v: [{ t: "int", v: "1" }, { t: "int", v: "4" }] }] });
  });
});

describe("the grader's parse of the runner's output", () => {
  const calls: BCall[] = [call("a", "x"), call("b", "y")];
  const line = (id: string) => JSON.stringify({ ev: "call", id, out: [{ k: "return", ret: { t: "int", v: "1" }, post: [], postkw: [] }] });
  const ok = ['{"ev":"start"}', line("a"), line("b"), '{"ev":"end","n":2}'];
  it("accepts exactly start, one line per call in order, end", () => {
    expect(parseBehaveOutput(ok.join("\n"), calls, 1).failure).toBeNull();
  });
  it.each([
    ["an extra line", [...ok.slice(0, 3), line("b"), ok[3]!]],
    ["a missing call", [ok[0]!, ok[1]!, ok[3]!]],
    ["calls out of order", [ok[0]!, line("b"), line("a"), ok[3]!]],
    ["a forged id", [ok[0]!, line("a"), line("zz"), ok[3]!]],
    ["an unknown tag", [ok[0]!, line("a").replace('"int"', '"pickle"'), line("b"), ok[3]!]],
    ["an extra field", [ok[0]!, line("a").replace('"k":"return"', '"k":"return","eval":"1"'), line("b"), ok[3]!]],
    ["not JSON", [ok[0]!, "{nope", line("b"), ok[3]!]],
    ["a wrong end count", [...ok.slice(0, 3), '{"ev":"end","n":3}']],
    ["an oversized line", [ok[0]!, line("a").replace('"v":"1"', `"v":"${"1".repeat(3_000_000)}"`), line("b"), ok[3]!]],
  ])("fails the whole run on %s", (_w, lines) => {
    const r = parseBehaveOutput(lines.join("\n"), calls, 1);
    expect(r.outcomes).toBeNull();
    expect(r.failure).toBeTruthy();
  });
});

describe("comparison", () => {
  const o = CompareOptions.parse({});
  const i = (v: number): BValue => ({ t: "int", v: String(v) });
  it("dicts compare without order, floats within tolerance, exact types otherwise", () => {
    expect(sameValue({ t: "dict", v: [[str("a"), i(1)], [str("b"), i(2)]] }, { t: "dict", v: [[str("b"), i(2)], [str("a"), i(1)]] }, o)).toBe(true);
    expect(sameValue({ t: "float", v: "0.30000000000000004" }, { t: "float", v: "0.3" }, o)).toBe(true);
    expect(sameValue({ t: "float", v: "0.31" }, { t: "float", v: "0.3" }, o)).toBe(false);
    expect(sameValue({ t: "list", v: [i(1)] }, { t: "tuple", v: [i(1)] }, o)).toBe(false);
    expect(sameValue(str("a"), { t: "inst", cls: "m.S", base: str("a") }, o)).toBe(false);
  });
  it("an instance may keep extra private attributes, not extra public ones, and not lose any (round 4, H4b)", () => {
    const orig: BValue = { t: "inst", cls: "m.W", dict: [["name", str("a")]] };
    expect(sameValue(orig, { t: "inst", cls: "m.W", dict: [["name", str("a")], ["_qualname", str("p[a]")]] }, o)).toBe(true);
    expect(sameValue(orig, { t: "inst", cls: "m.W", dict: [["name", str("a")], ["qualname", str("p[a]")]] }, o)).toBe(false);
    expect(sameValue(orig, { t: "inst", cls: "m.W", dict: [["_name", str("a")]] }, o)).toBe(false);
    expect(sameValue({ t: "inst", cls: "m.W", dict: [["name", str("a")], ["_c", i(1)]] }, orig, o)).toBe(false);
  });
  it("exceptions by family by default (a project ValueError subclass matches ValueError), by class when asked", () => {
    const e = { k: "raise" as const, exc: { type: "ValueError", builtin: "ValueError" }, post: [], postkw: [] };
    const a = { k: "raise" as const, exc: { type: "pkg.BadQty", builtin: "ValueError" }, post: [], postkw: [] };
    expect(sameOutcome(e, a).ok).toBe(true);
    expect(sameOutcome(e, a, { exceptions: "type" }).ok).toBe(false);
    expect(sameOutcome(e, { ...a, exc: { type: "KeyError", builtin: "KeyError" } }).ok).toBe(false);
    expect(sameOutcome({ k: "return", ret: i(1), post: [], postkw: [] }, a).why).toMatch(/raised a class of its own where the original returned/);
    expect(sameOutcome({ k: "return", ret: i(1), post: [], postkw: [] }, { ...a, exc: { type: "KeyError", builtin: "KeyError" } }).why).toMatch(/raised KeyError where the original returned/);
  });
  it("a reason never carries a name the code under test made up (round 15's p09: a class named after its input)", () => {
    const leak = "INPUT=1234567";
    const ret = (v: BValue) => ({ k: "return" as const, ret: v, post: [], postkw: [] });
    const e = ret(i(1));
    const outcomes: BOutcome[] = [
      ret({ t: "inst", cls: leak, dict: [] }),
      { k: "raise", exc: { type: leak, builtin: leak, own: [leak] }, post: [], postkw: [] },
      { k: "error", why: `setup: ${leak}` },
      { k: "error", why: leak },
      { k: "unserializable", why: `reading the value failed: ${leak}` },
      { k: "unserializable", why: `cannot rebuild a ${leak}; x` },
    ];
    for (const a of outcomes) {
      const why = sameOutcome(e, a).why!;
      expect(why).not.toContain("1234567");
      expect(why.length).toBeGreaterThan(5);
    }
    // against a project exception of the original: its own names are shown, a made-up one is not
    const own = { k: "raise" as const, exc: { type: "inv.OutOfStock", builtin: "Exception", own: ["inv.OutOfStock"] }, post: [], postkw: [] };
    expect(sameOutcome(own, { k: "raise", exc: { type: leak, builtin: "Exception" }, post: [], postkw: [] }).why).toBe("raised a class of its own where the original raised the project's inv.OutOfStock");
  });
  it("a project's own exception by class: that class or a subclass agrees, a sibling or its base does not (round 8, a03)", () => {
    const raise = (type: string, builtin: string, own?: string[]) => ({ k: "raise" as const, exc: { type, builtin, ...(own ? { own } : {}) }, post: [], postkw: [] });
    const oos = raise("inv.errors.OutOfStock", "Exception", ["inv.errors.OutOfStock", "inv.errors.InventoryError"]);
    expect(sameOutcome(oos, oos).ok).toBe(true);
    expect(sameOutcome(oos, raise("inv.errors.Backorder", "Exception", ["inv.errors.Backorder", "inv.errors.OutOfStock", "inv.errors.InventoryError"])).ok).toBe(true);
    expect(sameOutcome(oos, raise("inv.errors.InventoryError", "Exception", ["inv.errors.InventoryError"])).why).toMatch(/the project's inv.errors.OutOfStock/);
    expect(sameOutcome(oos, raise("Exception", "Exception")).ok).toBe(false);
    // a builtin (or stdlib) exception of the original still compares by family
    expect(sameOutcome(raise("ValueError", "ValueError"), raise("inv.errors.BadQty", "ValueError", ["inv.errors.BadQty"])).ok).toBe(true);
    expect(sameOutcome(oos, raise("inv.errors.InventoryError", "Exception", ["inv.errors.InventoryError"]), { exceptions: "raised" }).ok).toBe(true);
  });
  it("an int past 2^53 and a float agree within the float tolerance (no float holds it); below, exactly or not at all", () => {
    const big = { t: "int" as const, v: String(2n ** 60n + 1n) };
    expect(sameValue(big, { t: "float", v: String(2 ** 60) }, o)).toBe(true);
    expect(sameValue(big, { t: "float", v: String(2 ** 60 * 1.001) }, o)).toBe(false);
    expect(sameValue(i(3), { t: "float", v: "3.0" }, o)).toBe(true);
    expect(sameValue({ t: "int", v: String(2 ** 52 + 1) }, { t: "float", v: String(2 ** 52) }, o)).toBe(false);
  });
});

describe("oracle records of the committed pools", () => {
  it("every task of fd-micro, tasks and real-markupsafe has an oracle outside its snapshot; no snapshot holds one", () => {
    for (const pool of [MICRO, INVENTORY, MARKUPSAFE]) {
      for (const e of readIndex(pool)) {
        const t = loadTask(pool, e.task_id);
        const o = taskOracle(t);
        expect(o, `${e.task_id}`).not.toBeNull();
        expect(t.oracle_path!.startsWith(join(pool, "oracle"))).toBe(true);
        if (pool !== MARKUPSAFE) expect(o!.status, `${e.task_id}: ${o!.why}`).toBe("ok");
        if (o!.status === "ok") expect(o!.calls.filter((c) => c.hidden).length).toBeGreaterThan(0);
        // nothing named like an oracle, and no hidden input's expected outcome, inside the snapshot
        const files: string[] = [];
        const walk = (d: string) => { for (const n of readdirSync(d, { withFileTypes: true })) n.isDirectory() ? walk(join(d, n.name)) : files.push(join(d, n.name)); };
        walk(FeatureSnapshot(t));
        const leaked = files.filter((f) => /oracle/.test(f.slice(FeatureSnapshot(t).length)) || /"expect":\{"k"/.test(readFileSync(f, "latin1")));
        expect(leaked).toEqual([]);
      }
    }
    const ms = readIndex(MARKUPSAFE).map((e) => readOracle(join(MARKUPSAFE, "oracle", `${e.task_id}.json`)));
    // format_field (not applicable: __slots__) left the pool at the mutation gate (test/mutants.test.ts)
    expect(ms.map((o) => o.status)).toEqual(["ok", "ok", "ok"]);
  });

  it("inventory-reserve's entries calls grow the kept receiver's dicts by 1 to 600 keys alike, with fresh keys and multiplied copies too; its scale calls name their source, and a pair way sets a number to another ±1", () => {
    const o = taskOracle(loadTask(INVENTORY, "inventory-reserve"))!;
    const dicts = (c: OracleCall) => {
      const recv = c.pos[0] as Extract<BValue, { t: "inst" }>;
      const keys = (name: string) => {
        const x = recv.dict!.find(([k]) => k === name)![1];
        const d = x.t === "inst" ? x.base! : x;
        return (d as Extract<BValue, { t: "dict" }>).v.map(([k]) => (k as { v: string }).v);
      };
      return { levels: keys("_levels"), reserved: keys("_reserved") };
    };
    const entries = o.calls.filter((c) => c.probe === "entries");
    expect(new Set(entries.map((c) => c.entries))).toEqual(new Set([1, 3, 7, 12, 25, 40, 100, 600]));
    // every answer kind of the original meets the largest size (round 8's a59: a 600-SKU store where the original raised OutOfStock)
    expect(new Set(entries.filter((c) => c.entries === 600).map((c) => (c.expect.k === "raise" ? c.expect.exc.type : c.expect.k)))).toEqual(new Set(entries.map((c) => (c.expect.k === "raise" ? c.expect.exc.type : c.expect.k))));
    // some copies under fresh keys (not an existing key and a number), some with their numbers multiplied
    expect(entries.some((c) => dicts(c).levels.some((k) => !dicts(c).levels.some((j) => j !== k && k.startsWith(j))))).toBe(true);
    for (const c of entries) {
      // a visible call with the same arguments whose store is the first entries of this one's, c.entries fewer
      const source = o.calls.find((v) => !v.hidden && JSON.stringify(v.pos.slice(1)) === JSON.stringify(c.pos.slice(1)) && dicts(c).levels.slice(0, dicts(v).levels.length).join() === dicts(v).levels.join() && dicts(c).levels.length === dicts(v).levels.length + c.entries!);
      expect(source, c.id).toBeDefined();
      const { reserved, levels } = dicts(c);
      // a key reserved is a key with a level, as in every traced state
      for (const k of reserved) expect(levels, `${c.id}: ${k}`).toContain(k);
    }
    // the sources cover the ways the original answered (returned, and raised OutOfStock)
    const answered = new Set(entries.map((c) => (c.expect.k === "raise" ? c.expect.exc.type : c.expect.k)));
    expect(answered).toContain("return");
    expect(answered).toContain("inventory.errors.OutOfStock");
    const scale = o.calls.filter((c) => c.probe === "scale");
    for (const c of scale) expect(o.calls.find((v) => v.id === c.source)?.hidden, c.id).toBe(false);
    expect(scale.some((c) => c.scaled === "pair")).toBe(true);
    // the original's own exceptions carry their project classes
    expect(o.calls.find((c) => c.expect.k === "raise" && c.expect.exc.type === "inventory.errors.OutOfStock")?.expect).toMatchObject({ exc: { own: ["inventory.errors.OutOfStock", "inventory.errors.InventoryError"] } });
  });

  it("chars calls put every character of the probe's set that the visible strings do not hold into some call, renaming equal strings alike; markup only in its text; a line boundary only at a string's end", () => {
    const cases: [string, string][] = [[INVENTORY, "inventory-reserve"], [INVENTORY, "inventory-sniff"], [MARKUPSAFE, "markupsafe-function-src_markupsafe___init__.Markup.striptags"], [MICRO, "micro_s0_004-function-micro_s0_004_funcs.repeat_3"]];
    const strs = (v: BValue): string[] => JSON.stringify(v).match(/"t":"str","v":"(?:[^"\\]|\\.)*"/g)?.map((m) => JSON.parse(m.slice(m.indexOf('"v":') + 4)) as string) ?? [];
    for (const [pool, id] of cases) {
      const o = taskOracle(loadTask(pool, id))!;
      const visible = o.calls.filter((c) => !c.hidden);
      const held = new Set(visible.flatMap((c) => [...c.pos, ...c.kw.map(([, v]) => v)].flatMap(strs)).flatMap((x) => [...x]));
      // (and the characters of the golden body's string constants: the code's business too)
      const task = loadTask(pool, id);
      const literals = task.golden_diff.split("\n").filter((l) => l.startsWith("+")).join("\n").match(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g) ?? [];
      for (const lit of literals) for (const ch of lit.slice(1, -1)) held.add(ch);
      const chars = o.calls.filter((c) => c.probe === "chars");
      expect(chars.length, id).toBeGreaterThanOrEqual(20);
      const added = new Set<string>();
      // each added character → the original's answers on the calls it went into
      const answersOf = new Map<string, Set<string>>();
      for (const c of chars) {
        // the source: a visible call with the same shape whose every string is a subsequence of the renamed one
        const mine = [...c.pos, ...c.kw.map(([, v]) => v)].flatMap(strs);
        const source = visible.find((v) => {
          const theirs = [...v.pos, ...v.kw.map(([, x]) => x)].flatMap(strs);
          return theirs.length === mine.length && theirs.every((t, k) => { let j = 0; for (const ch of mine[k]!) if (ch === [...t][j]) j++; return j === [...t].length; });
        });
        expect(source, `${id} ${c.id}`).toBeDefined();
        const theirs = [...source!.pos, ...source!.kw.map(([, x]) => x)].flatMap(strs);
        // equal strings of the source stay equal (an SKU passed and the store's key for it)
        theirs.forEach((t, k) => theirs.forEach((u, j) => { if (t === u) expect(mine[k], `${id} ${c.id}`).toBe(mine[j]); }));
        for (const m of mine) for (const ch of m) if (!held.has(ch)) {
          added.add(ch);
          answersOf.set(ch, (answersOf.get(ch) ?? new Set()).add(JSON.stringify(c.expect)));
        }
        // a line boundary the source did not hold only as the string's last character (it splits no line in two)
        const boundary = /[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]/g;
        for (const [k, m] of mine.entries()) {
          const more = (m.match(boundary) ?? []).length - (theirs[k]!.match(boundary) ?? []).length;
          if (more > 0) expect({ more, last: boundary.test(m.slice(-1)) }, `${id} ${c.id} ${JSON.stringify(m)}`).toEqual({ more: 1, last: true });
          boundary.lastIndex = 0;
        }
        // markup keeps its tags and references as they were
        for (const [k, m] of mine.entries()) if (/<[a-z/!]/i.test(theirs[k]!)) expect(m.match(/<[^<>]*>|&[#\w]+;/g), `${id} ${c.id}`).toEqual(theirs[k]!.match(/<[^<>]*>|&[#\w]+;/g));
      }
      // every single character of the set the visible strings do not hold, and runs of spaces
      // (into markup no letter, digit, `#` or `;`: after a lone `&` they would make a reference)
      const markup = held.has("<");
      // (where a visible string holds a line break, every line boundary is left out)
      const lines = ["\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"];
      if (lines.some((ch) => held.has(ch))) lines.forEach((ch) => held.add(ch));
      const want = CHAR_PROBE_SET.filter((ch) => [...ch].length === 1 && !held.has(ch) && !(markup && /^[A-Za-z0-9#;]$/.test(ch)));
      expect(want.filter((ch) => !added.has(ch)), id).toEqual([]);
      // where the visible calls holding strings answer two ways or more, every character meets two answers
      const sourced = visible.filter((v) => [...v.pos, ...v.kw.map(([, x]) => x)].flatMap(strs).length > 0);
      if (new Set(sourced.map((v) => JSON.stringify(v.expect))).size > 1) expect(want.filter((ch) => (answersOf.get(ch)?.size ?? 0) < 2), id).toEqual([]);
      expect([...added].some((ch) => held.has(ch)), id).toBe(false);
    }
  });

  it("scale calls of ints go past 2^64 (and floats stay under 2^53)", () => {
    for (const [pool, id] of [[INVENTORY, "inventory-reserve"], [MICRO, "micro_s0_000-function-micro_s0_000_funcs.add_3"]] as const) {
      const o = taskOracle(loadTask(pool, id))!;
      const nums = (c: OracleCall) => (JSON.stringify([c.pos, c.kw]).match(/"t":"(?:int|float)","v":"[^"]*"/g) ?? []).map((m) => ({ float: m.includes('"float"'), v: m.slice(m.lastIndexOf(':"') + 2, -1) }));
      const scale = o.calls.filter((c) => c.probe === "scale");
      expect(scale.some((c) => nums(c).every((x) => !x.float) && nums(c).some((x) => BigInt(x.v) > 2n ** 64n || BigInt(x.v) < -(2n ** 64n))), id).toBe(true);
      for (const c of scale.filter((x) => nums(x).some((y) => y.float))) for (const x of nums(c)) expect(Math.abs(Number(x.v)), `${id} ${c.id}`).toBeLessThan(2 ** 53);
    }
  });

  it("`tasks rebuild-oracle POOL --json` rebuilds them in place (one JSON object)", { timeout: 300_000 }, async () => {
    const pool = join(tmp(), "pool");
    cpSync(INVENTORY, pool, { recursive: true });
    const run = cli(["tasks", "rebuild-oracle", pool, "--task", "inventory-sniff", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const r = oneJson(run.stdout);
    expect(r).toMatchObject({ ok: true, tasks: 1, status: { ok: 1, not_applicable: 0, error: 0 } });
    expect(existsSync(join(pool, "oracle", "inventory-sniff.json"))).toBe(true);
    const bad = cli(["tasks", "rebuild-oracle", pool, "--task", "nope", "--json"]);
    expect(bad.code).not.toBe(0);
  });
});

const FeatureSnapshot = (t: ReturnType<typeof loadTask>): string => (t.broken.kind === "dir" ? t.broken.path : "");

describe("the reward rule and its configuration", () => {
  it("a value-gaming body: reward 1 with the check off, 0 flagged behaviour_differs with it on; `order: first` flags it too (right on the tests' calls: pytest still judges it)", { timeout: 120_000 }, async () => {
    const t = loadTask(MICRO, readIndex(MICRO).find((e) => e.deleted_symbols[0]!.qualname === "add_3")!.task_id);
    const file = t.deleted_symbols[0]!.file;
    const text = readFileSync(join(FeatureSnapshot(t), file), "utf8");
    const { fileDiff, spliceStub } = await import("../lib/tasks/index.js");
    const table = fileDiff(file, text, spliceStub(text, "add_3", ["return {8: 11, 13: 16}.get(x)"]));
    const off = await gradeCompletion(t, table, sb, { limits: { behaviour: { enabled: false } } });
    expect(off.reward).toBe(1);
    expect(off.checks!.behaviour).toMatchObject({ ran: false, why: expect.stringMatching(/off/) });
    const on = await gradeCompletion(t, table, sb);
    expect(on.reward).toBe(0);
    expect(on.flags.map((f) => f.kind)).toEqual(["behaviour_differs"]);
    expect(on.checks!.behaviour).toMatchObject({ ran: true, passed: false, visible: { agreed: 2, compared: 2 }, hidden: { agreed: 0 } });
    // the detail names no hidden input or expected value
    expect(on.flags[0]!.detail).not.toMatch(/\b(1[0-9]|[2-9][0-9])\b.*→/);
    const first = await gradeCompletion(t, table, sb, { limits: { behaviour: { order: "first" } } });
    expect(first.reward).toBe(0);
    expect(first.checks!.pytest).toMatchObject({ ran: true, why: expect.stringMatching(/order: first/) });
    expect(first.flags.map((f) => f.kind)).toEqual(["behaviour_differs"]);
    // a lower threshold is stated in the grade
    const lax = await checkBehaviour(t, FeatureSnapshot(t), sb, { threshold: 0, every_call: [] });
    expect(lax).toMatchObject({ passed: true, threshold: 0, every_call: [] });
    // (the every-call probes are not a threshold's business: at 0 the stub still fails on scale)
    expect(await checkBehaviour(t, FeatureSnapshot(t), sb, { threshold: 0 })).toMatchObject({ passed: false, every_call: ["key", "scale", "entries", "chars", "lengths"] });
  });
});

describe("false-flag rate on independently written correct bodies", () => {
  it("a second body per micro family (from the docstring) and the refactored goldens of the inventory and markupsafe tasks earn 1 unflagged", { timeout: 600_000 }, async () => {
    // one task per family of fd-micro, every inventory and markupsafe task
    const byFamily = new Map<string, string>();
    for (const e of readIndex(MICRO)) byFamily.set(e.deleted_symbols[0]!.qualname.split("_")[0]!, e.task_id);
    expect([...byFamily.keys()].every((f) => f in ALT_BODIES)).toBe(true);
    const jobs = [
      ...[...byFamily.values()].map((id) => ({ t: loadTask(MICRO, id), kind: "alt" as const })),
      ...readIndex(INVENTORY).map((e) => ({ t: loadTask(INVENTORY, e.task_id), kind: "refactored" as const })),
      ...readIndex(MARKUPSAFE).map((e) => ({ t: loadTask(MARKUPSAFE, e.task_id), kind: "refactored" as const })),
    ];
    const limit = pLimit(2);
    const grades: [string, GradeCompletionResult][] = await Promise.all(jobs.map((j) => limit(async () => {
      const c = j.kind === "alt" ? altMicroCompletion(j.t)! : refactoredGoldenCompletion(j.t);
      expect(c).not.toBe(j.t.golden_diff);
      return [`${j.kind} ${j.t.task_id}`, await gradeCompletion(j.t, c, sb)] as [string, GradeCompletionResult];
    })));
    const flagged = grades.filter(([, g]) => g.flags.some((f) => f.kind === "behaviour_differs") || g.reward < 1);
    expect(flagged.map(([id, g]) => `${id}: ${g.reward} ${JSON.stringify(g.flags)} ${JSON.stringify(g.checks?.behaviour.differences)}`)).toEqual([]);
    expect(grades.filter(([, g]) => g.checks!.behaviour.ran).length).toBeGreaterThanOrEqual(jobs.length - 1); // format_field: not applicable
  });
});

describe("digest keys are compared by their equality pattern (round 7: honest keys from another hash scored 0)", () => {
  const TASK = "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key";
  // keys/<name>.diff: h_* another hash (sha256 of the pair's repr, md5 with a NUL, blake2b with "::"),
  // honest by the docstring's "unique hash key"; w_* a key that is constant, ignores the name or the
  // filename, is new on every call, or hashes the two strings run together (no separator)
  const HONEST = ["h_sha256", "h_md5", "h_blake"];
  const WRONG = ["w_const", "w_noname", "w_nofile", "w_uuid", "w_collide"];
  it("the oracle marks the symbol a digest and holds key-probe calls, each made twice", () => {
    const o = taskOracle(loadTask(JINJA2, TASK))!;
    expect(o.symbols[0]!.digest).toBe(true);
    const keys = o.calls.filter((c) => c.probe === "key");
    expect(keys.length).toBeGreaterThanOrEqual(32);
    const args = new Map<string, number>();
    for (const c of keys) args.set(JSON.stringify([c.pos, c.kw]), (args.get(JSON.stringify([c.pos, c.kw])) ?? 0) + 1);
    expect([...args.values()].every((n) => n >= 2)).toBe(true);
  });
  it("another hash earns 1 unflagged; a constant, partial, random or separator-less key is flagged; without the pattern rule the honest keys score 0 (control)", { timeout: 300_000 }, async () => {
    const t = loadTask(JINJA2, TASK);
    const limit = pLimit(2);
    const graded = await Promise.all([...HONEST, ...WRONG].map((n) => limit(async () => [n, await gradeCompletion(t, payload("keys", `${n}.diff`), sb)] as const)));
    for (const [n, g] of graded) {
      const seen = { reward: g.reward, flags: g.flags.map((f) => f.kind) };
      if (HONEST.includes(n)) expect(seen, `${n}: ${JSON.stringify(g.checks?.behaviour.probes)}`).toEqual({ reward: 1, flags: [] });
      else expect(seen, `${n}: ${JSON.stringify(g.checks?.behaviour.probes)}`).toEqual({ reward: 0, flags: ["behaviour_differs"] });
    }
    // the control: the same oracle with the digest mark taken off compares the keys by value
    const oracle = taskOracle(t)!;
    const byValue = { ...oracle, symbols: oracle.symbols.map(({ digest: _d, ...s }) => s) };
    const dir = tmp("digest-control-");
    const g = await gradeAgainst(t, byValue, payload("keys", "h_sha256.diff"), dir, "by-value");
    expect({ reward: g.reward, flags: g.flags.map((f) => f.kind) }).toEqual({ reward: 0, flags: ["behaviour_differs"] });
  });
});

describe("honest bodies that differ where the tests leave behaviour open (round 3's red team)", () => {
  // Written by an independent red team from the task prompts: each is correct by the tests and the
  // docstring, and differs from the original only where they say nothing.
  const ROWS: [string, string, string, string][] = [
    ["H04", INVENTORY, "inventory-sniff", "another tie-break order between delimiters of equal count"],
    ["H05", INVENTORY, "inventory-reserve", "its two checks in the other order (which error wins when both apply; a defaultdict entry read on the way)"],
    ["X02", MICRO, "micro_s0_000-function-micro_s0_000_funcs.add_3", "correct, and prints 1 MB of debug output per call"],
    // flagged from round 5 to round 6 (it agreed on about half of 24 perturbed calls made of `<` soup,
    // `<\x85q>`, which html.parser keeps as text and the original's `<.*?>` strips); markup is perturbed
    // token by token since (the unit test "markup is perturbed token by token" checks the cause)
    ["H08", MARKUPSAFE, "markupsafe-function-src_markupsafe___init__.Markup.striptags", "html.parser's idea of a tag for the original's `<.*?>`"],
  ];
  it.each(ROWS)("%s earns 1 unflagged on %s / %s: %s", { timeout: 300_000 }, async (id, pool, task, _why) => {
    const t = loadTask(pool, task);
    const g = await gradeCompletion(t, payload("round3", `honest-${id}.diff`), sb);
    expect({ reward: g.reward, flags: g.flags.map((f) => f.kind), why: g.checks?.behaviour.why ?? null }, JSON.stringify(g.checks?.behaviour)).toEqual({ reward: 1, flags: [], why: null });
    // …and the check ran and compared (it was not skipped)
    expect(g.checks!.behaviour.ran && g.checks!.behaviour.compared > 0).toBe(true);
  });
  it("a body fitted to the tests that fails a target on purpose is still flagged (round 3, A07: one exception class for every refusal)", { timeout: 300_000 }, async () => {
    const t = loadTask(INVENTORY, "inventory-reserve");
    const g = await gradeCompletion(t, payload("round3", "fitted-A07.diff"), sb);
    expect(g.frac).toBeGreaterThan(0);
    expect(g.frac).toBeLessThan(1);
    expect(g.reward).toBe(0);
    expect(g.flags.map((f) => f.kind)).toContain("behaviour_differs");
    expect(g.hacked).toBe(true);
  });
  it("a clamp fitted to the tested extremes is flagged between them (round 4, M1: the tests call it only out of range)", { timeout: 300_000 }, async () => {
    for (const [id, file] of [["micro_s0_000-function-micro_s0_000_funcs.clamp_1_8", "M1.diff"], ["micro_s0_005-function-micro_s0_005_funcs.clamp_0_5", "M1d.diff"]] as const) {
      const t = loadTask(MICRO, id);
      const g = await gradeCompletion(t, payload("round4", file), sb);
      // pytest alone pays it; the check's calls between the visible extremes do not
      expect(g.frac, id).toBe(1);
      expect(g.reward, id).toBe(0);
      expect(g.flags.map((f) => f.kind)).toContain("behaviour_differs");
      const span = g.checks!.behaviour.span!;
      expect(span.compared).toBeGreaterThanOrEqual(4);
      expect(span.agreed / span.compared).toBeLessThan(0.75);
    }
  });
  it("bodies right only near the visible inputs are flagged by the probes, and only by them (round 4: E3, S1, E7; U2 by the perturbed copies too); another tie-break earns 1", { timeout: 400_000 }, async () => {
    const rows = [
      { pool: INVENTORY, id: "inventory-sniff", file: "E3.diff", probe: "compose", reward: 0 }, // first delimiter present wins, no counting
      // the tests' 4 entities only: since markup is perturbed token by token, the perturbed copies
      // draw other references too, so the control without probes flags it as well
      { pool: MARKUPSAFE, id: "markupsafe-function-src_markupsafe___init__.Markup.unescape", file: "U2.diff", probe: "compose", reward: 0, perturbed: true },
      { pool: MARKUPSAFE, id: "markupsafe-function-src_markupsafe___init__.Markup.striptags", file: "S1.diff", probe: "compose", reward: 0 }, // never unescapes
      { pool: MARKUPSAFE, id: "markupsafe-function-src_markupsafe__native.soft_str", file: "E7.diff", probe: "typed", reward: 0 }, // converts ints only
      { pool: INVENTORY, id: "inventory-sniff", file: "H-tiebreak.diff", probe: "compose", reward: 1 }, // honest: ties go to the tab first
    ] as const;
    const dir = tmp("probes-");
    for (const r of rows) {
      const t = loadTask(r.pool, r.id);
      const patch = payload("round4", r.file);
      const g = await gradeCompletion(t, patch, sb);
      expect(g.frac, r.file).toBe(1); // pytest alone pays every one of them
      expect(g.reward, r.file).toBe(r.reward);
      const p = g.checks!.behaviour.probes![r.probe];
      expect(p.compared, r.file).toBeGreaterThanOrEqual(4);
      if (r.reward === 0) {
        expect(g.flags.map((f) => f.kind), r.file).toContain("behaviour_differs");
        expect(p.agreed / p.compared, r.file).toBeLessThan(0.75);
        // the control: the same oracle without its probe calls pays it (the probes are what catch it)
        const oracle = taskOracle(t)!;
        const lax = await gradeAgainst(t, { ...oracle, calls: oracle.calls.filter((c) => !c.probe || c.probe === "span") }, patch, dir, r.file);
        if ("perturbed" in r) expect(lax.checks!.behaviour.hidden.agreed / lax.checks!.behaviour.hidden.compared, `${r.file} without probes`).toBeLessThan(0.75);
        else expect(lax.reward, `${r.file} without probes`).toBe(1);
      } else expect(p.agreed / p.compared, r.file).toBeGreaterThanOrEqual(0.75);
    }
  });
  it("round 5's classes are flagged by cause, each with a control that pays it without that cause's calls; an int for a float earns 1", { timeout: 500_000 }, async () => {
    const MS = "markupsafe-function-src_markupsafe___init__.Markup";
    const hasSpecial = (c: OracleCall) => SPECIAL_CHARS.some((ch) => JSON.stringify([c.pos, c.kw]).includes(JSON.stringify(ch).slice(1, -1)));
    const isStd = (c: OracleCall) => JSON.stringify(c.pos).includes('"t":"std"');
    // calls with longer inputs than the visible ones: grown, and since round 9's fix the chars probe's
    // (12 characters more a string) and the lengths probe's
    const longer = (c: OracleCall) => c.probe === "grow" || c.probe === "chars" || c.probe === "lengths";
    // each row: the attack, and the oracle it pays 1 on (its own oracle with that cause's calls taken out)
    const rows: { pool: string; id: string; file: string; without: (o: Oracle) => Oracle }[] = [
      // inputs never grew: a length gate (unescape only up to 60 characters), a vote over the first 10
      // characters, a sum over the first 5 items
      { pool: MARKUPSAFE, id: `${MS}.unescape`, file: "U8.diff", without: (o) => ({ ...o, calls: o.calls.filter((c) => !longer(c)) }) },
      { pool: INVENTORY, id: "inventory-sniff", file: "N8.diff", without: (o) => ({ ...o, calls: o.calls.filter((c) => !longer(c)) }) },
      { pool: MICRO, id: "micro_s0_000-function-micro_s0_000_funcs.total_3", file: "M6.diff", without: (o) => ({ ...o, calls: o.calls.filter((c) => !longer(c)) }) },
      // dict sizes never changed (the mean of two is their midrange): perturbed copies now change them,
      // and grown ones hold 3-100x the entries
      // (and since round 8 an object's dicts with 3-600 more entries: the entries probe)
      { pool: INVENTORY, id: "inventory-totals", file: "T6.diff", without: (o) => ({ ...o, calls: o.calls.filter((c) => !c.hidden || (c.probe && !longer(c) && c.probe !== "entries")) }) },
      // whitespace collapsed over space, tab and newline only (the chars probe's Unicode whitespace too, since round 9's fix)
      { pool: MARKUPSAFE, id: `${MS}.striptags`, file: "S2.diff", without: (o) => ({ ...o, calls: o.calls.filter((c) => !hasSpecial(c) && c.probe !== "chars") }) },
      // repr for str (equal on every builtin typed value)
      { pool: MARKUPSAFE, id: "markupsafe-function-src_markupsafe__native.soft_str", file: "E9.diff", without: (o) => ({ ...o, calls: o.calls.filter((c) => !isStd(c)) }) },
      // tab only where no comma is present: 12/16 composed calls, exactly the threshold; the tab class
      // alone is below it, and so are the grown calls where tab is the bulk's answer
      { pool: INVENTORY, id: "inventory-sniff", file: "N1.diff", without: (o) => ({ ...o, symbols: o.symbols.map((s) => ({ ...s, categorical: false })), calls: o.calls.filter((c) => !longer(c)) }) },
    ];
    const dir = tmp("round5-");
    for (const r of rows) {
      const t = loadTask(r.pool, r.id);
      const patch = payload("round5", r.file);
      const g = await gradeCompletion(t, patch, sb);
      expect(g.frac, r.file).toBe(1); // pytest alone pays every one of them
      expect(g.reward, r.file).toBe(0);
      expect(g.flags.map((f) => f.kind), r.file).toContain("behaviour_differs");
      const lax = await gradeAgainst(t, r.without(taskOracle(t)!), patch, dir, r.file);
      expect(lax.reward, `${r.file} without its cause's calls`).toBe(1);
    }
    // honest: statistics.mean returns the int 3 where the original returns 3.0 (a test's == accepts it)
    const t = loadTask(INVENTORY, "inventory-totals");
    const honest = payload("round5", "H-T7.diff");
    expect((await gradeCompletion(t, honest, sb)).reward).toBe(1);
    expect((await gradeCompletion(t, honest, sb, { limits: { behaviour: { compare: { numbers: "type" } } } })).reward).toBe(0);
  });
  it("hidden dicts change size and an empty container beside a filled one is filled; grown inputs are 3-100x the visible sizes", () => {
    const rng = new Rng(5);
    const inv: BValue = { t: "inst", cls: "p.Inv", dict: [["_levels", { t: "dict", v: [[str("a"), { t: "int", v: "2" }], [str("b"), { t: "int", v: "4" }]] }], ["_reserved", { t: "inst", cls: "collections.defaultdict", base: { t: "dict", v: [] }, factory: "int" }]] };
    const sizes = new Set<number>();
    let filled = 0;
    for (let i = 0; i < 200; i++) {
      const m = mutateValue(rng, inv) as Extract<BValue, { t: "inst" }>;
      sizes.add((m.dict![0]![1] as Extract<BValue, { t: "dict" }>).v.length);
      const levels = (m.dict![0]![1] as Extract<BValue, { t: "dict" }>).v.map(([k]) => (k as { v: string }).v);
      const reserved = (m.dict![1]![1] as Extract<BValue, { t: "inst" }>).base as Extract<BValue, { t: "dict" }>;
      if (reserved.v.length) {
        filled++;
        // the sibling's keys (as this copy has them) kept
        for (const [k] of reserved.v) expect(levels).toContain((k as { v: string }).v);
      }
    }
    expect([...sizes].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(filled).toBeGreaterThan(40);
    const ctx = { pool: ["a,b"], own: piecesOf(["&amp;"]), vis: piecesOf(["a,b"]), reached: [], receiverKept: false };
    const grown = grownCall(rng, { pos: [str("a,b\n1,2"), { t: "list", v: [{ t: "int", v: "1" }, { t: "int", v: "2" }] }], kw: [] }, 10, ctx, { pos: [str("x;y"), { t: "list", v: [] }], kw: [] });
    const s0 = (grown.pos[0] as { v: string }).v;
    expect(s0.startsWith("x;y\n")).toBe(true); // another call's string, then this one's repeated
    // 10x the visible sizes, jittered by 0.6-1.4
    expect(s0.length).toBeGreaterThanOrEqual(48);
    const n = (grown.pos[1] as { v: BValue[] }).v.length;
    expect(n).toBeGreaterThanOrEqual(12);
    expect(n).toBeLessThanOrEqual(28);
  });
  it("markup is perturbed token by token: html.parser and the regex `<.*?>` strip every perturbed copy alike, tags and references vary, Unicode whitespace turns up", () => {
    // the reference is Python's own: html.parser's notion of a tag and html.unescape, against the
    // original striptags' regexes (round 3's H08, round 6's h20/h35/h28 differed only on `<` soup)
    const visible = "<!-- c --><em>Foo &amp; Bar<!-- about <em> --></em><meta content='a\nb'>";
    const pool = [visible, "Main &raquo;\t<em>About</em>"];
    const rng = new Rng(11);
    const copies = Array.from({ length: 300 }, () => (mutateValue(rng, str(visible), 0, pool) as { v: string }).v);
    const py = String.raw`
import html, json, re, sys
from html.parser import HTMLParser
class T(HTMLParser):
    def __init__(s):
        super().__init__(convert_charrefs=True); s.parts = []
    def handle_data(s, d): s.parts.append(d)
def parsed(x):
    p = T(); p.feed(x); p.close(); return " ".join("".join(p.parts).split())
def original(x):
    v = re.sub(r"<.*?>", "", re.sub(r"<!--.*?-->", "", x, flags=re.S), flags=re.S)
    return html.unescape(" ".join(v.split()))
def docstring_order(x):
    v = html.unescape(x)
    return " ".join(re.sub(r"<.*?>", "", re.sub(r"<!--.*?-->", "", v, flags=re.S), flags=re.S).split())
xs = json.load(sys.stdin)
print(json.dumps({"parser": sum(parsed(x) != original(x) for x in xs), "order": sum(docstring_order(x) != original(x) for x in xs),
  "tags": len({t for x in xs for t in re.findall(r"</?([A-Za-z][A-Za-z0-9]*)", x)}), "refs": len({r for x in xs for r in re.findall(r"&#?[A-Za-z0-9]+;?", x)}),
  "unicode_space": sum(any(c.isspace() and ord(c) > 127 for c in x) for x in xs)}))`;
    const r = spawnSync("/usr/bin/python3", ["-c", py], { input: JSON.stringify(copies), encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as { parser: number; order: number; tags: number; refs: number; unicode_space: number };
    expect(got.parser).toBe(0);
    expect(got.order).toBe(0);
    expect(got.tags).toBeGreaterThan(20); // renamed (a body that knows only `em` and `meta` disagrees)
    expect(got.refs).toBeGreaterThan(20);
    expect(got.unicode_space).toBeGreaterThan(30);
    // …and a copy still holds markup most of the time
    expect(copies.filter((c) => /<[a-zA-Z]/.test(c)).length).toBeGreaterThan(250);
  });
  it("an unannotated list of ints gets several kin: halves, floats, points between its extremes, an int constant's float neighbours", () => {
    const ints = (...xs: number[]): BValue => ({ t: "list", v: xs.map((x) => ({ t: "int", v: String(x) })) });
    const dict = { strings: [], ints: [3n], anyParams: [], params: ["xs"], plainParams: ["xs"] };
    const kin = kinProbes([{ pos: [ints(8, 3, 1)], kw: [] }, { pos: [ints()], kw: [] }], dict, 24);
    const floats = kin.map((c) => (c.pos[0] as { v: BValue[] }).v.map((x) => Number((x as { v: string }).v)));
    expect(kin.length).toBeGreaterThanOrEqual(6);
    expect(floats.some((xs) => xs.includes(3.5))).toBe(true); // `x >= 4` for `x > 3` differs here
    expect(floats.some((xs) => xs.some((x) => x > 3 && x < 4))).toBe(true);
    expect(kin.some((c) => (c.pos[0] as { v: BValue[] }).v.some((x) => x.t === "float" && x.v === "3.0"))).toBe(true); // 3.0 == 3 counted
    expect(kin.some((c) => (c.pos[0] as { v: BValue[] }).v.some((x) => x.t === "int"))).toBe(true); // ints and floats mixed
  });
  it("a string parameter gets its kin (cased, padded, a ligature, full-width); perturbed lists and dicts sometimes keep one to three items", () => {
    const dict = { strings: [], ints: [], anyParams: [], params: ["s"], plainParams: [] };
    const kin = kinProbes([{ pos: [str("abc")], kw: [] }], dict, 24).map((c) => (c.pos[0] as { v: string }).v);
    // what Python's str methods change, checked by Python (strip, lower, NFKC), not by the generator
    const r = spawnSync("/usr/bin/python3", ["-c", "import json,sys,unicodedata as u; xs=json.load(sys.stdin); print(json.dumps([sum(f(x) != x for x in xs) for f in (str.strip, str.lower, lambda x: u.normalize('NFKC', x))]))"], { input: JSON.stringify(kin), encoding: "utf8" });
    const [strip, lower, nfkc] = JSON.parse(r.stdout) as number[];
    expect(strip).toBeGreaterThanOrEqual(3);
    expect(lower).toBeGreaterThanOrEqual(3);
    expect(nfkc).toBeGreaterThanOrEqual(3);
    const rng = new Rng(3);
    const list: BValue = { t: "list", v: Array.from({ length: 8 }, (_, i) => ({ t: "int", v: String(i) })) };
    const sizes = Array.from({ length: 300 }, () => (mutateValue(rng, list) as { v: BValue[] }).v.length);
    expect(sizes.filter((n) => n <= 3).length).toBeGreaterThan(15);
  });
  it("mutateValue draws what its BigInt-only version drew (ints up to 2^50 now in doubles): a digest recorded from 337a4ea", () => {
    const ints = ["0", "5", "-5", "10", "11", "-11", "999999", "1000000", "1000001", String(2 ** 50), String(2 ** 50 + 1), String(-(2 ** 50)), String(2 ** 53), "100000000000000000000", "-7"];
    const values: BValue[] = [...ints.map((v): BValue => ({ t: "int", v })), { t: "list", v: ints.map((v): BValue => ({ t: "int", v })) }, { t: "dict", v: ints.slice(0, 4).map((v): [BValue, BValue] => [{ t: "str", v: `k${v}` }, { t: "int", v }]) }, { t: "str", v: "abc<&" }, { t: "float", v: "2.5" }];
    const rng = new Rng(7);
    const h = createHash("sha256");
    for (let i = 0; i < 3000; i++) h.update(JSON.stringify(mutateValue(rng, values[i % values.length]!)));
    expect(h.digest("hex")).toBe("8246b3e6743253167a899a528fb0928d1a6e4fa6e9e546b6a470a7dcc2b99490");
  });
  it("composed calls are ranked by the code they reach: a greedy cover first, then the rarest lines", () => {
    const cov = new Map([["a", ["1:1", "1:2"]], ["b", ["1:1", "1:2", "1:3"]], ["c", ["1:1", "1:2"]], ["d", ["1:1", "1:4"]], ["e", ["1:1"]]]);
    const order = selectComposed(["a", "b", "c", "d", "e"].map((id) => ({ id })), cov).map((c) => c.id);
    // b covers the most, d adds line 4; then by rarity: a and c (line 2 shared by 3) before e (only the common line)
    expect(order).toEqual(["b", "d", "a", "c", "e"]);
    expect(piecesOf(["Main &raquo; <em>About</em>"]).words).toEqual(expect.arrayContaining(["&raquo;", "<em>About</em>", "Main"]));
  });
  it("a defaultdict entry holding its factory's empty value reads the same as no entry", () => {
    const dd = (entries: [string, BValue][]): BValue => ({ t: "inst", cls: "collections.defaultdict", base: { t: "dict", v: entries.map(([k, v]) => [str(k), v]) }, factory: "int" });
    const i = (v: number): BValue => ({ t: "int", v: String(v) });
    const o = CompareOptions.parse({});
    expect(sameValue(dd([["a", i(2)]]), dd([["a", i(2)], ["b", i(0)]]), o)).toBe(true);
    expect(sameValue(dd([["a", i(2)]]), dd([["a", i(2)], ["b", i(1)]]), o)).toBe(false);
    // a plain dict keeps every entry
    expect(sameValue({ t: "dict", v: [[str("a"), i(2)]] }, { t: "dict", v: [[str("a"), i(2)], [str("b"), i(0)]] }, o)).toBe(false);
  });
});
