// Aliasing (issue 26, round 34's w07, round 35's w07s w07h): a call whose answer is, or holds, one
// of its arguments or an earlier call's argument or answer (a list, dict, set, bytearray or deque),
// of a symbol whose original never answers so. The runner's
// rule (behave.py _shares) on hand-written functions whose sharing is known by construction, then
// whole grades: the caller's own list handed back as head_1's answer is flagged, and the null arm
// (`aliasing: false`) pays.
import { describe, expect, it } from "vitest";
import { gradeCompletion } from "../lib/env/index.js";
import { BwrapSandbox, runBehaviour, type BCall, type BValue } from "../lib/sandbox/index.js";
import { microCompletion, packageDir } from "./support/micro-body.js";

const sb = new BwrapSandbox();
const int = (x: number): BValue => ({ t: "int", v: String(x) });
const list = (...xs: number[]): BValue => ({ t: "list", v: xs.map(int) });

describe("the runner names the calls whose answer is, or holds, an argument or an earlier call's argument or answer (behave.py _Aliasing)", () => {
  // (each function's answer, and whether a caller reaches one object through it and an argument)
  const functions: [string, string, boolean][] = [
    ["same", "return xs", true],
    ["head", "return xs[:1]", false],
    ["copy", "return list(xs)", false],
    ["wrapped", "return [xs]", true],
    ["paired", "return (xs, len(xs))", true],
    ["row", "return rows[0]", false], // (an item of its argument: any honest body may hand one back)
    ["rows_copy", "return [list(r) for r in rows]", false],
    ["keyed", "return {'k': xs}", true],
    ["number", "return len(xs)", false],
    ["tuple_of_ints", "return tuple(xs)", false],
    ["raises", "raise ValueError(xs)", false],
  ];
  // (and across calls, each asked twice with equal contents: a memo of answer lists hands one list
  // to both callers, a body that keeps its last argument hands it to the next caller; a memo of
  // tuples, or of numbers, shares nothing)
  const twice: [string, string, boolean][] = [
    ["memo_lists", "return _m.setdefault(tuple(xs), list(xs))", true],
    ["last_arg", "_l.append(xs)\n    return _l[-2] if len(_l) > 1 else []", true],
    ["memo_tuples", "return _t.setdefault(tuple(xs), tuple(xs))", false],
  ];
  const source = ["_m, _l, _t = {}, [], {}", ...[...functions, ...twice].map(([name, body]) => `def ${name}(${name.startsWith("row") ? "rows" : "xs"}):\n    ${body}\n`)].join("\n");
  const symbols = [...functions, ...twice].map(([name]) => ({ module: "pkg.m", qualname: name }));
  const calls: BCall[] = [
    ...functions.map(([name], i) => ({ id: name, symbol: i, pos: [name.startsWith("row") ? { t: "list", v: [list(1, 2), list(3)] } : list(1, 2, 3)], kw: [] }) as BCall),
    ...twice.flatMap(([name], j) => [1, 2].map((n) => ({ id: `${name}#${n}`, symbol: functions.length + j, pos: [list(4, 5)], kw: [] }) as BCall)),
  ];

  it("exactly those that share one, with their arguments or an earlier call's; none without the request's `alias`", { timeout: 120_000 }, async () => {
    const dir = packageDir("alias-", source);
    const on = await runBehaviour(sb, dir, { symbols, calls, roots: ["."], project: ["pkg"], alias: true }, {}, { masks: [] });
    expect(on.failure).toBeNull();
    expect(new Set(on.aliased ?? [])).toEqual(new Set([...functions.filter(([, , shares]) => shares).map(([name]) => name), ...twice.filter(([, , shares]) => shares).map(([name]) => `${name}#2`)]));
    const off = await runBehaviour(sb, dir, { symbols, calls, roots: ["."], project: ["pkg"] }, {}, { masks: [] });
    expect(off.aliased).toBeUndefined();
  });
});

describe("a grade judges aliasing against the original's own answers (original.ts)", () => {
  // (head_1's original copies with xs[:1]; this body hands back the caller's list where it has at
  // most one item: round 34's w07)
  const aliasing = ["if len(xs) <= 1:", "    return xs", "return xs[:1]"];
  const off = { history_calls: 0, in_place_chains: 0, in_place_pairs: 0, kin_asks: 0, latent_paths: false };

  it("the caller's own list as the answer is flagged; with `aliasing: false` (the null arm) it pays; the original's body earns 1", { timeout: 300_000 }, async () => {
    const { t, diff } = microCompletion("head_1", [], aliasing);
    const g = await gradeCompletion(t, diff, sb, { limits: { behaviour: off } });
    expect(g.reward).toBe(0);
    expect(JSON.stringify(g.checks?.behaviour?.differences ?? [])).toMatch(/returned an object that is, or holds, one of its arguments or an earlier call.s argument or answer/);
    const none = await gradeCompletion(t, diff, sb, { limits: { behaviour: { ...off, aliasing: false } } });
    expect(none.reward).toBe(1);
    const golden = microCompletion("head_1", [], ["return xs[:1]"]);
    const honest = await gradeCompletion(golden.t, golden.diff, sb, { limits: { behaviour: off } });
    expect([honest.reward, honest.flags]).toEqual([1, []]);
  });
});
