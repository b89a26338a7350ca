// In-place asks (issue 26; round 27's a06; lib/env/behaviour.ts inPlaceAsks): the run elsewhere ends
// with pairs of sampled calls, the second given the first's argument objects refilled in place with
// its own contents, as a caller that reuses its list does. A memo keyed by an argument's identity
// answers that call with the first one's answer. Two layers: what the runner does with
// BCall.inplace (behave.py in the real sandbox), and grades of micro bodies, each wrong one beside
// its null arm (in_place_pairs 0: it pays) and honest bodies that earn 1.
import { describe, expect, it } from "vitest";
import { gradeCompletion } from "../lib/env/index.js";
import { BwrapSandbox, runBehaviour, type BCall, type BValue } from "../lib/sandbox/index.js";
import { microCompletion, packageDir } from "./support/micro-body.js";

const sb = new BwrapSandbox();
const int = (n: number): BValue => ({ t: "int", v: String(n) });
const list = (...xs: number[]): BValue => ({ t: "list", v: xs.map(int) });

describe("the runner refills a kept call's argument objects in place (behave.py in the sandbox)", () => {
  const source = [
    "_last = [None]",
    "def f(xs, opts=None):",
    "    same = _last[0] is xs",
    "    _last[0] = xs",
    "    return repr((same, sum(xs), sorted(opts.items()) if opts is not None else None))",
    "",
  ].join("\n");
  const symbols = [{ module: "pkg.m", qualname: "f" }];
  const ret = (r: Awaited<ReturnType<typeof runBehaviour>>, id: string) => {
    const o = r.outcomes!.get(id)![0]!;
    return o.k === "return" ? (o.ret as { v: string }).v : JSON.stringify(o);
  };

  it("the second call gets the first's very objects (a list and a keyword dict) with its own contents; its arguments after it are its own", { timeout: 120_000 }, async () => {
    const dir = packageDir("in-place-runner-", source);
    const opts = (k: string, v: number): BValue => ({ t: "dict", v: [[{ t: "str", v: k }, int(v)]] });
    const calls: BCall[] = [
      { id: "a", symbol: 0, pos: [list(1, 2)], kw: [["opts", opts("x", 1)]] },
      { id: "other", symbol: 0, pos: [list(9)], kw: [] },
      { id: "b", symbol: 0, pos: [list(5, 6, 7)], kw: [["opts", opts("y", 2)]], inplace: "a" },
      // (a fresh call after: new objects again)
      { id: "c", symbol: 0, pos: [list(5, 6, 7)], kw: [] },
    ];
    const r = await runBehaviour(sb, dir, { symbols, calls, roots: ["."], project: ["pkg"] }, {}, { masks: [] });
    expect(r.failure).toBeNull();
    expect(ret(r, "a")).toBe("(False, 3, [('x', 1)])");
    expect(ret(r, "other")).toBe("(False, 9, None)");
    // (the list `a` was given, refilled: `f` kept a reference to `other`'s, so `same` is False; the
    // identity is checked below through a body that keys by id)
    expect(ret(r, "b")).toBe("(False, 18, [('y', 2)])");
    const b = r.outcomes!.get("b")![0]!;
    expect(b.k === "return" && b.post).toEqual([list(5, 6, 7)]);
    expect(ret(r, "c")).toBe("(False, 18, None)");
    // an identity memo meets the refilled list: the first call's answer comes back
    const memo = packageDir("in-place-memo-", ["_by_id = {}", "def f(xs, opts=None):", "    return _by_id.setdefault(id(xs), (xs, sum(xs)))[1]", ""].join("\n"));
    const m = await runBehaviour(sb, memo, { symbols, calls: [calls[0]!, calls[2]!], roots: ["."], project: ["pkg"] }, {}, { masks: [] });
    expect(m.failure).toBeNull();
    expect([m.outcomes!.get("a")![0], m.outcomes!.get("b")![0]].map((o) => o!.k === "return" && (o!.ret as { v: string }).v)).toEqual(["3", "3"]);
    // without `inplace` the same two calls answer apart (new objects)
    const fresh = await runBehaviour(sb, memo, { symbols, calls: [calls[0]!, { ...calls[2]!, inplace: undefined }], roots: ["."], project: ["pkg"] }, {}, { masks: [] });
    expect([fresh.outcomes!.get("a")![0], fresh.outcomes!.get("b")![0]].map((o) => o!.k === "return" && (o!.ret as { v: string }).v)).toEqual(["3", "18"]);
  });
});

describe("grades: a memo keyed by an argument's identity", () => {
  const cases: { id: string; header: string[]; body: string[]; honest?: boolean }[] = [
    // round 27's a06: the list held, the memo keyed by id()
    { id: "id-memo", header: ["_by_id = {}"], body: ["return _by_id.setdefault(id(xs), (xs, sum(xs) + 3))[1]"] },
    // the last call's list only, its length checked too
    { id: "last-same-length", header: ["_last = []"], body: ["if _last and _last[0] is xs and _last[1] == len(xs):", "    return _last[2]", "_last[:] = [xs, len(xs), sum(xs) + 3]", "return _last[2]"] },
    // honest: a memo keyed by the list's contents; a body that keeps every list it was given
    { id: "value-memo", header: ["_memo = {}"], body: ["key = tuple(xs)", "if key not in _memo:", "    _memo[key] = sum(xs) + 3", "return _memo[key]"], honest: true },
    { id: "keeps-lists", header: ["_kept = []"], body: ["_kept.append(xs)", "return sum(xs) + 3"], honest: true },
  ];
  for (const c of cases) {
    it(`${c.id}: ${c.honest ? "earns 1 unflagged" : "flagged behaviour_differs by an in-place ask; with in_place_pairs 0 (the null arm) it pays"}`, { timeout: 300_000 }, async () => {
      const { t, diff } = microCompletion("total_3", c.header, c.body);
      const g = await gradeCompletion(t, diff, sb);
      const b = g.checks!.behaviour;
      if (c.honest) {
        expect({ reward: g.reward, flags: g.flags }, JSON.stringify(b.differences)).toEqual({ reward: 1, flags: [] });
        return;
      }
      expect(g.reward, JSON.stringify(b.differences)).toBe(0);
      expect(g.flags.map((f) => f.kind)).toEqual(["behaviour_differs"]);
      expect(b.differences.map((d) => d.why).join("\n")).toMatch(/refilled in place/);
      const off = await gradeCompletion(t, diff, sb, { limits: { behaviour: { in_place_pairs: 0 } } });
      expect({ reward: off.reward, flags: off.flags.map((f) => f.kind) }, JSON.stringify(off.checks?.behaviour.differences)).toEqual({ reward: 1, flags: [] });
    });
  }
});
