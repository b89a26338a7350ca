// The behavioural check's fast paths (issue 31 §4, issue 26 §8) held to their references: the
// grader's call-line validator (lib/sandbox/behave.ts fastCallLine) to the zod schema CallLine on
// real and fuzzed lines, and the runner's C-backed JSON reader and writer and its inline sequence
// serializer (harness/behave.py) to Python's json module and to the serializer's general path.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Rng } from "../lib/core/index.js";
import { CallLine, fastCallLine, parseBehaveOutput, STD_CLASSES } from "../lib/sandbox/index.js";
import { ROOT } from "./helpers.js";

/** Every outcome (raw JSON, as the file holds it) of the committed oracles: the shapes the runner writes. */
function realOutcomes(): unknown[] {
  const dirs = ["datasets/fd-micro/pool/oracle", "datasets/tasks/oracle", "datasets/real-markupsafe/oracle", "datasets/real-jinja2/oracle"];
  return dirs.flatMap((d) => readdirSync(join(ROOT, d)).filter((f) => f.endsWith(".json")).flatMap((f) => (JSON.parse(readFileSync(join(ROOT, d, f), "utf8")) as { calls: { expect: unknown }[] }).calls.map((c) => c.expect)));
}

/** Uniform in lo..hi. */
const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng.next() * (hi - lo + 1));

const TAGS = ["none", "bool", "int", "float", "str", "bytes", "bytearray", "class", "complex", "list", "tuple", "set", "frozenset", "dict", "std", "inst", "Int", "", "__proto__"];
const KINDS = ["return", "raise", "unserializable", "timeout", "error", "Return", "call"];
const ODD: unknown[] = [null, 0, -0, 1.5, 1e999, -1, "", "x", "int", true, false, [], {}, [[]], [{}], { t: "none" }, ["a", { t: "none" }], STD_CLASSES[0], "behave.Other"];

/** A random value of the serializer's grammar (keys in random order: zod's copy orders them). */
function randomValue(rng: Rng, depth = 0): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => rng.pick(xs);
  const kind = depth > 3 ? pick(["none", "bool", "int", "str", "std", "complex"]) : pick(["none", "bool", "int", "float", "str", "bytes", "class", "complex", "list", "tuple", "set", "dict", "std", "inst", "inst"]);
  let v: Record<string, unknown>;
  if (kind === "none") v = { t: "none" };
  else if (kind === "bool") v = { t: "bool", v: rng.next() < 0.5 };
  else if (kind === "complex") v = { t: "complex", v: [String(rng.next()), "-0.0"] };
  else if (["list", "tuple", "set"].includes(kind)) v = { t: kind, v: Array.from({ length: int(rng, 0, 3) }, () => randomValue(rng, depth + 1)) };
  else if (kind === "dict") v = { t: "dict", v: Array.from({ length: int(rng, 0, 3) }, () => [randomValue(rng, depth + 1), randomValue(rng, depth + 1)]) };
  else if (kind === "std") v = { t: "std", cls: pick(STD_CLASSES), v: "2026-12-02" };
  else if (kind === "inst") {
    v = { t: "inst", cls: "pkg.mod.C" };
    if (rng.next() < 0.5) v.base = randomValue(rng, depth + 1);
    if (rng.next() < 0.5) v.dict = Array.from({ length: int(rng, 0, 2) }, (_, i) => [`a${i}`, randomValue(rng, depth + 1)]);
    if (rng.next() < 0.3) v.opaque = "a class with __slots__";
    if (rng.next() < 0.3) v.factory = rng.next() < 0.5 ? null : "int";
  } else v = { t: kind, v: String(int(rng, -99, 99)) };
  return shuffled(rng, v);
}

function shuffled(rng: Rng, o: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(o);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = int(rng, 0, i);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
  return out;
}

/** Every object and array inside `x` (the mutation sites). */
function sites(x: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (Array.isArray(x)) {
    out.push(x);
    for (const y of x) sites(y, out);
  } else if (typeof x === "object" && x !== null) {
    out.push(x as Record<string, unknown>);
    for (const y of Object.values(x)) sites(y, out);
  }
  return out;
}

/** One adversarial edit somewhere in `line` (in place): an extra or missing field, another tag, a
 *  value of another type, a tuple of another length, a `__proto__` key, a number where a string is due. */
function mutate(rng: Rng, line: Record<string, unknown>): void {
  const pick = <T>(xs: readonly T[]): T => rng.pick(xs);
  const odd = () => structuredClone(pick(ODD));
  const s = pick(sites(line));
  const set = (o: Record<string, unknown>, k: string, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  if (Array.isArray(s)) {
    const op = int(rng, 0, 3);
    if (op === 0) s.push(odd());
    else if (op === 1 && s.length) s.pop();
    else if (s.length) s[int(rng, 0, s.length - 1)] = odd();
    else s.push(randomValue(rng));
    return;
  }
  const keys = Object.keys(s);
  const op = int(rng, 0, 5);
  if (op === 0) set(s, pick(["x", "__proto__", "ms", "v", "t", "k", "cls", "base", "why", "cov", "own", "constructor"]), odd());
  else if (op === 1 && keys.length) delete s[pick(keys)];
  else if (op === 2 && "t" in s) s.t = pick(TAGS);
  else if (op === 3 && "k" in s) s.k = pick(KINDS);
  else if (keys.length) set(s, pick(keys), odd());
}

/** zod's verdict and copy, and the fast path's, on one parsed line. */
function both(x: unknown): { zod: string | null; fast: string | null } {
  const z = CallLine.safeParse(x);
  const f = fastCallLine(x);
  return { zod: z.success ? JSON.stringify(z.data) : null, fast: f ? JSON.stringify(f) : null };
}

describe("fastCallLine against the zod schema", () => {
  it("accepts every real outcome with zod's copy (keys in schema order), and a shuffled one the same", () => {
    const outs = realOutcomes();
    expect(outs.length).toBeGreaterThan(4000);
    const rng = new Rng(1);
    for (const [i, out] of outs.entries()) {
      const line = JSON.parse(JSON.stringify({ ev: "call", id: `c${i}`, out: [out, { k: "timeout", ms: 0 }] }));
      const r = both(line);
      expect(r.zod).not.toBeNull();
      expect(r.fast).toBe(r.zod);
      const re = JSON.parse(JSON.stringify(shuffled(rng, { ...line, out: line.out.map((o: Record<string, unknown>) => shuffled(rng, o)) })));
      expect(both(re).fast).toBe(r.zod);
    }
  });

  it("agrees with zod on 30,000 random and mutated lines: never accepts what zod refuses, and copies what it accepts as zod does", () => {
    const rng = new Rng(7);
    const outs = realOutcomes();
    let refused = 0;
    let accepted = 0;
    for (let i = 0; i < 30_000; i++) {
      const raise = { k: "raise", exc: { type: "pkg.E", builtin: "ValueError", ...(rng.next() < 0.5 ? { own: ["pkg.E", "pkg.Base"] } : {}) }, post: [randomValue(rng)], postkw: [] };
      const base = i % 3 === 0 ? outs[int(rng, 0, outs.length - 1)] : i % 3 === 1 ? raise : { k: "return", ret: randomValue(rng), post: [randomValue(rng)], postkw: [["kw", randomValue(rng)]], ...(rng.next() < 0.5 ? { ms: 0.5 } : {}) };
      const line = JSON.parse(JSON.stringify({ ev: "call", id: `c${i}`, out: [base] }));
      for (let m = int(rng, 0, 3); m > 0; m--) mutate(rng, line);
      // (through JSON text, as the runner's lines arrive: a `__proto__` key is an own field there)
      const parsed: unknown = JSON.parse(JSON.stringify(line));
      const r = both(parsed);
      if (r.zod === null) {
        refused++;
        expect(r.fast, JSON.stringify(parsed)).toBeNull();
      } else {
        accepted++;
        // a line zod accepts is accepted by the fast path too, unless it has the builder's fields
        const builder = ["cov", "re", "re_new", "re_used", "lit_new"].some((k) => Object.hasOwn(parsed as object, k));
        if (!builder || r.fast !== null) expect(r.fast, JSON.stringify(parsed)).toBe(r.zod);
      }
    }
    expect(refused).toBeGreaterThan(5_000);
    expect(accepted).toBeGreaterThan(5_000);
  });

  it("leaves the builder's lines (coverage, regexes, table keys) to zod, a failure in the runner's own words", () => {
    // (JSON's 1e999 is Infinity: a number to zod, and to the fast path)
    const inf = JSON.parse('{"ev":"call","id":"a","out":[{"k":"timeout","ms":1e999}]}');
    expect(JSON.stringify(fastCallLine(inf))).toBe(JSON.stringify(CallLine.parse(inf)));
    const line = { ev: "call", id: "a", out: [{ k: "timeout" }], cov: ["0:1"], re: [], re_new: [], re_used: [], lit_new: [] };
    expect(fastCallLine(line)).toBeNull();
    expect(CallLine.safeParse(line).success).toBe(true);
    const calls = [{ id: "a", symbol: 0, pos: [], kw: [] }];
    const text = (x: unknown) => [JSON.stringify({ ev: "start" }), JSON.stringify(x), JSON.stringify({ ev: "end", n: 1 })].join("\n");
    expect(parseBehaveOutput(text(line), calls, 1).failure).toBeNull();
    // (never zod's own words: they name a forged line's keys, the code under test's to choose — round 15)
    expect(parseBehaveOutput(text({ ev: "call", id: "a", out: [{ k: "timeout", extra: 1 }] }), calls, 1).failure).toBe("line 2: not a call record");
    expect(parseBehaveOutput(text({ ev: "call", id: "a", out: [{ k: "return", ret: { t: "int", v: 3 }, post: [], postkw: [] }] }), calls, 1).failure).toBe("line 2: not a call record");
  });
});

describe("behave.py's C-backed reader and writer and its inline sequence serializer", () => {
  it("read and write what Python's json module does, and serialize sequences as the general path does", () => {
    const script = String.raw`
import json, random, sys
sys.path.insert(0, sys.argv[1])
import behave
rng = random.Random(3)
CH = ["a", "Z", "0", " ", '"', "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "\u2028", "\U0001F600", "\ud800"]
def s():
    return "".join(rng.choice(CH) for _ in range(rng.randint(0, 6)))
def tree(d=0):
    k = rng.randint(0, 9 if d < 4 else 5)
    if k == 0: return None
    if k == 1: return rng.random() < 0.5
    if k == 2: return rng.choice([0, -1, 7, 2 ** 53 + 1, -(10 ** 30)])
    if k == 3: return rng.choice([0.0, -0.0, 1.5, 1e-7, 1e16, 2.0 ** -1074, 1.7976931348623157e308])
    if k in (4, 5): return s()
    if k in (6, 7): return [tree(d + 1) for _ in range(rng.randint(0, 4))]
    return {s(): tree(d + 1) for _ in range(rng.randint(0, 4))}
bad = {"dumps": 0, "loads": 0, "loads_js": 0, "seq": 0}
for _ in range(3000):
    t = tree()
    ref = json.dumps(t, separators=(",", ":"))
    bad["dumps"] += behave.dumps(t) != ref
    bad["loads"] += behave._loads(json.dumps(t, indent=1)) != t
    bad["loads_js"] += behave._loads(" \n" + ref + "\r\n") != t
# the inline path for a sequence's exact ints and strs against the general one (_v on each item)
class General(behave.Serializer):
    def _seq(self, x, t, depth, stack):
        self._guard(x, stack)
        self._count()
        stack.append(x)
        out = [self._v(e, depth + 1, stack) for e in x]
        stack.pop()
        return out
def outcome(ser, v):
    try:
        return ser.value(v)
    except behave.Unserializable as e:
        return "unserializable: " + e.args[0]
seqs = [[1, "a", 2.5, None, True, [3, "b"], (4,), 10 ** 3999, -(10 ** 3999)], [10 ** 4000], list(range(30000)), ["x" * 100] * 3000]
deep = [1]
for _ in range(205):
    deep = [deep, 2, "s"]
seqs.append(deep)
for _ in range(300):
    seqs.append([tree() for _ in range(rng.randint(0, 6))])
for v in seqs:
    for mk in (list, tuple):
        w = mk(v)
        bad["seq"] += outcome(behave.Serializer(["pkg"], 20000, 200000), w) != outcome(General(["pkg"], 20000, 200000), w)
for text in ['{"a": NaN}', '[1,]', '{"a":1} x', '', '[1e5, -0, 1E-2]']:
    try:
        bad[text] = behave._loads(text)
    except ValueError as e:
        bad[text] = "ValueError"
print(json.dumps(bad))
`;
    const r = spawnSync("/usr/bin/python3", ["-I", "-B", "-c", script, join(ROOT, "lib", "sandbox", "harness")], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ dumps: 0, loads: 0, loads_js: 0, seq: 0, '{"a": NaN}': "ValueError", "[1,]": "ValueError", '{"a":1} x': "ValueError", "": "ValueError", "[1e5, -0, 1E-2]": [100000.0, 0, 0.01] });
  });
});
