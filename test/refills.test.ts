// The history's refills, edited and judged (lib/env/refills.ts; issue 26, round 32's w16 w19 w20: a
// fast path for one relation between an object's old contents and its new). Three layers: the edit
// scripts and the plan (each edit checked by its own words, apart from the code that made it); the
// runner writing the recorded history calls' outcomes (behave.py in the real sandbox) and the
// grader's parser holding them to the request; grades of micro bodies with the chains off, each
// wrong one beside its null arm (history_judged 0: it pays), an honest incremental body earning 1.
import { describe, expect, it } from "vitest";
import { Rng } from "../lib/core/index.js";
import { editedContents, editRefills, gradeCompletion, judgeRefills, refillRecord, refillTwins } from "../lib/env/index.js";
import { BwrapSandbox, historyCallText, parseBehaveOutput, runBehaviour, type BCall, type BOutcome, type BValue } from "../lib/sandbox/index.js";
import { mutateValue } from "../lib/tasks/index.js";
import { microCompletion, packageDir } from "./support/micro-body.js";

const sb = new BwrapSandbox();
const int = (x: number): BValue => ({ t: "int", v: String(x) });
const list = (...xs: number[]): BValue => ({ t: "list", v: xs.map(int) });
const texts = (v: BValue) => (v as { v: BValue[] }).v.map((x) => JSON.stringify(x));

// (an edit's words read back into a relation between the old items and the new, written here)
const readBack = (words: string, o: string[], n: string[]): boolean => {
  const eq = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  let m: RegExpExecArray | null;
  if ((m = /^a new item inserted at (\d+)$/.exec(words))) return n.length === o.length + 1 && eq([...n.slice(0, +m[1]!), ...n.slice(+m[1]! + 1)], o);
  if ((m = /^item (\d+) removed$/.exec(words))) return eq(n, [...o.slice(0, +m[1]!), ...o.slice(+m[1]! + 1)]);
  if ((m = /^item (\d+) changed$/.exec(words))) return n.length === o.length && n.every((x, i) => i === +m![1]! || x === o[i]);
  if ((m = /^item (\d+) copied to (\d+)$/.exec(words))) { const r = [...o]; r.splice(+m[2]!, 0, o[+m[1]!]!); return eq(n, r); }
  if ((m = /^item (\d+) moved to (\d+)$/.exec(words))) { const r = [...o]; const [x] = r.splice(+m[1]!, 1); r.splice(+m[2]!, 0, x!); return eq(n, r); }
  if ((m = /^items (\d+) and (\d+) swapped$/.exec(words))) { const [i, j] = [+m[1]!, +m[2]!]; return eq(n, o.map((x, k) => (k === i ? o[j]! : k === j ? o[i]! : x))); }
  if ((m = /^slid by (\d+)$/.exec(words))) return n.length === o.length && eq(n.slice(0, o.length - +m[1]!), o.slice(+m[1]!));
  if ((m = /^slid back by (\d+)$/.exec(words))) return n.length === o.length && eq(n.slice(+m[1]!), o.slice(0, o.length - +m[1]!));
  if ((m = /^rotated by (-?\d+)$/.exec(words))) { const k = ((+m[1]! % o.length) + o.length) % o.length; return eq(n, [...o.slice(o.length - k), ...o.slice(0, o.length - k)]); }
  if ((m = /^items (\d+) to (\d+) reversed$/.exec(words))) { const [i, j] = [+m[1]!, +m[2]! + 1]; return eq(n, [...o.slice(0, i), ...o.slice(i, j).reverse(), ...o.slice(j)]); }
  if (words === "reversed") return eq(n, [...o].reverse());
  const num = (t: string) => Number((JSON.parse(t) as { v: string }).v);
  if (words === "sorted") return eq(n, [...o].sort((a, b) => num(a) - num(b)));
  if (words === "shuffled") return eq([...n].sort(), [...o].sort()) && eq([...o].sort((a, b) => num(a) - num(b)), o);
  if ((m = /^every item moved by (-?\d+)$/.exec(words))) return n.length === o.length && n.every((x, i) => num(x) === num(o[i]!) + +m![1]!);
  if ((m = /^(\d+) new items appended$/.exec(words))) return n.length === o.length + +m[1]! && eq(n.slice(0, o.length), o);
  if ((m = /^its last (\d+) items dropped$/.exec(words))) return eq(n, o.slice(0, o.length - +m[1]!));
  throw new Error(`words no relation here reads: ${words}`);
};


describe("edit scripts (editedContents): each edit is what its words say", () => {
  it("over 2,000 drawn single edits of lists of 1 to 12 items, every kind of edit drawn, each relation as its words say", () => {
    const kinds = new Set<string>();
    let single = 0;
    for (let seed = 0; seed < 3000; seed++) {
      const rng = new Rng(seed);
      // (ascending for even seeds, descending for odd: a sort moves the items of one, shuffles the other)
      const v = list(...Array.from({ length: 1 + (seed % 12) }, (_, i) => (seed % 2 ? 200 - i : 100 + i)));
      const { value, words } = editedContents(rng, v);
      if (words.includes(", then ")) continue;
      single++;
      kinds.add(words.replace(/-?\d+/g, "N"));
      expect(readBack(words, texts(v), texts(value)), `${words}: ${texts(v)} → ${texts(value)}`).toBe(true);
    }
    expect(single).toBeGreaterThan(2000);
    // (sixteen kinds of edit, sixteen forms of words: a swap of neighbours reads as any swap, a sort
    // of a sorted buffer shuffles it)
    expect(kinds.size).toBe(16);
  });

  it("a script of several edits is each in turn; a bytearray's bytes too", () => {
    const rng = new Rng(5);
    const v: BValue = { t: "bytearray", v: "00010203040506" };
    for (let i = 0; i < 200; i++) {
      const { value } = editedContents(rng, v);
      expect(value.t).toBe("bytearray");
      expect((value as { v: string }).v).toMatch(/^([0-9a-f]{2})*$/);
    }
  });
});

describe("the plan (editRefills): a refill's contents are its buffer's last, edited; judged ones are followed by a twin", () => {
  const history = (n: number, seed: number): BCall[] => {
    const rng = new Rng(seed);
    return Array.from({ length: n }, (_, i) => ({ id: `h${i}`, symbol: i % 2, pos: [list(...Array.from({ length: 3 + (i % 5) }, (_, j) => i * 10 + j))], kw: [], ...(i > 1 && rng.next() < 0.3 ? { inplace: "last" } : {}) }));
  };

  it("each refill edits what its symbol's buffer last held; each judged ask is followed by its twin (the same arguments, new objects); nothing else moves", () => {
    const calls = history(400, 3);
    const plan = editRefills(calls, new Rng(9), 24, new Set());
    expect(plan.judged).toHaveLength(24);
    const asks = plan.calls.filter((c) => !c.id.endsWith("@twin"));
    expect(asks.map((c) => c.id)).toEqual(calls.map((c) => c.id));
    const last = new Map<number, BCall>();
    asks.forEach((c, i) => {
      const was = calls[i]!;
      if (!was.inplace) {
        expect(c).toBe(was);
        if (!last.has(c.symbol)) last.set(c.symbol, c);
        return;
      }
      expect(c.inplace).toBe("last");
      last.set(c.symbol, c);
    });
    for (const j of plan.judged) {
      const at = plan.calls.findIndex((c) => c.id === j.ask);
      const twin = plan.calls[at + 1]!;
      expect(twin).toEqual(j.twin);
      expect(twin.id).toBe(`${j.ask}@twin`);
      expect(twin.inplace).toBeUndefined();
      expect(twin.pos).toEqual(plan.calls[at]!.pos);
      // (the ask's contents: its buffer's last contents, the symbol's call before it, edited as its
      // words say at position 0 — one edit read back as in the scripts' test)
      const before = plan.calls.slice(0, at).filter((c, i, cs) => c.symbol === plan.calls[at]!.symbol && !c.id.endsWith("@twin") && (c.inplace || cs.findIndex((d) => d.symbol === c.symbol) === i)).at(-1)!;
      expect(j.edit.startsWith("position 0 ")).toBe(true);
      const words = j.edit.slice("position 0 ".length);
      if (!words.includes(", then ")) expect(readBack(words, texts(before.pos[0]!), texts(plan.calls[at]!.pos[0]!)), `${words}`).toBe(true);
    }
    expect(refillRecord(plan)).toEqual(plan.judged.flatMap((j) => [j.ask, `${j.ask}@twin`]));
    expect(refillTwins(plan).map((c) => c.id)).toEqual(plan.judged.map((j) => `${j.ask}@twin@clean`));
  });

  it("three in four judged on contents of six items or more where there are enough; none judged (the null arm) leaves the history as it was; a sampled call's arguments are never made", () => {
    const calls = history(2000, 4);
    const plan = editRefills(calls, new Rng(1), 40, new Set());
    const wide = plan.judged.filter((j) => texts(plan.calls.find((c) => c.id === j.ask)!.pos[0]!).length >= 6).length;
    expect(wide).toBeGreaterThanOrEqual(30);
    expect(editRefills(calls, new Rng(1), 0, new Set()).calls).toBe(calls);
    // (the first refill's edit made a sampled call's arguments: it keeps its own contents)
    const first = calls.findIndex((c) => c.inplace);
    const asks = (p: ReturnType<typeof editRefills>) => p.calls.filter((c) => !c.id.endsWith("@twin"));
    const made = asks(editRefills(calls, new Rng(1), 1, new Set()))[first]!;
    expect(made.pos).not.toEqual(calls[first]!.pos);
    expect(asks(editRefills(calls, new Rng(1), 1, new Set([historyCallText(made)])))[first]!.pos).toEqual(calls[first]!.pos);
  });

  it("judged: an ask answered otherwise than its twin, in the run or in a process of its own, says so; a refill not reached or a timeout is not judged", () => {
    const plan = editRefills(history(200, 5), new Rng(2), 3, new Set());
    const [a, b] = plan.judged;
    const ret = (x: number): BOutcome => ({ k: "return", ret: int(x), post: [], postkw: [] });
    const out = new Map<string, BOutcome>([[a!.ask, ret(1)], [a!.twin.id, ret(1)], [b!.ask, ret(5)], [b!.twin.id, ret(6)]]);
    expect(judgeRefills(plan, out, undefined, {})).toMatch(new RegExp(`^elsewhere, in the history, its buffer .*refill ${b!.refill}.*in the same run`));
    out.set(b!.twin.id, ret(5));
    expect(judgeRefills(plan, out, undefined, {})).toBeNull();
    expect(judgeRefills(plan, out, new Map([[`${a!.twin.id}@clean`, ret(2)]]), {})).toMatch(/in a process of its own/);
    out.set(b!.twin.id, { k: "timeout" });
    expect(judgeRefills(plan, out, undefined, {})).toBeNull();
  });
});

describe("what a grade's judged refills meet (the relations apart from the code: written here)", () => {
  it("in 40 drawn micro-shaped histories (8,192 calls of lists of about four ints, a quarter refills), the share in which a judged refill meets each relation at 6 to 64 items, 3 distinct: the common ones nearly always, a rotation by three in some", () => {
    const eq = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
    const rot = (a: string[], r: number) => { const n = a.length, k = ((r % n) + n) % n; return [...a.slice(n - k), ...a.slice(0, n - k)]; };
    const num = (t: string) => Number((JSON.parse(t) as { v: string }).v);
    const diffAt = (o: string[], n: string[]) => o.flatMap((x, i) => (x === n[i] ? [] : [i]));
    const relations: Record<string, (o: string[], n: string[]) => boolean> = {
      "slid by 1": (o, n) => o.length === n.length && eq(n.slice(0, -1), o.slice(1)),
      "slid by 3": (o, n) => o.length === n.length && eq(n.slice(0, -3), o.slice(3)),
      "rotated by 1": (o, n) => !eq(o, n) && eq(n, rot(o, 1)),
      "rotated by -1": (o, n) => !eq(o, n) && eq(n, rot(o, -1)),
      "rotated by 3": (o, n) => !eq(o, n) && eq(n, rot(o, 3)),
      "neighbours swapped": (o, n) => o.length === n.length && ((d) => d.length === 2 && d[1] === d[0]! + 1)(diffAt(o, n)),
      "two far apart swapped": (o, n) => o.length === n.length && ((d) => d.length === 2 && d[1]! > d[0]! + 1 && o[d[0]!] === n[d[1]!] && o[d[1]!] === n[d[0]!])(diffAt(o, n)),
      reversed: (o, n) => !eq(o, n) && eq(n, [...o].reverse()),
      "one inserted anywhere": (o, n) => n.length === o.length + 1 && n.some((_, i) => eq([...n.slice(0, i), ...n.slice(i + 1)], o)),
      sorted: (o, n) => !eq(o, n) && eq(n, [...o].sort((a, b) => num(a) - num(b))),
      "every item moved alike": (o, n) => o.length === n.length && !eq(o, n) && n.every((x, i) => num(x) - num(o[i]!) === num(n[0]!) - num(o[0]!)),
    };
    const met: Record<string, number> = Object.fromEntries(Object.keys(relations).map((k) => [k, 0]));
    const histories = 40;
    for (let seed = 0; seed < histories; seed++) {
      const rng = new Rng(seed);
      const base = list(1, 2, 3, 4);
      const calls: BCall[] = Array.from({ length: 8192 }, (_, i) => ({ id: `h${i}`, symbol: 0, pos: [mutateValue(rng, base)], kw: [], ...(i > 0 && rng.next() < 0.25 ? { inplace: "last" } : {}) }));
      const plan = editRefills(calls, new Rng(seed ^ 7), 96, new Set());
      // (the buffer's contents before each ask: the first call's, then each refill's)
      const before = new Map<string, BCall>();
      let last: BCall | undefined;
      for (const c of plan.calls) {
        if (c.id.endsWith("@twin")) continue;
        if (c.inplace) before.set(c.id, last!);
        if (c.inplace || !last) last = c;
      }
      const hit = new Set<string>();
      for (const j of plan.judged) {
        const [o, n] = [texts(before.get(j.ask)!.pos[0]!), texts(plan.calls.find((c) => c.id === j.ask)!.pos[0]!)];
        if (n.length < 6 || n.length > 64 || new Set(n).size < 3) continue;
        for (const [name, holds] of Object.entries(relations)) if (holds(o, n)) hit.add(name);
      }
      for (const name of hit) met[name]!++;
    }
    const share = Object.fromEntries(Object.entries(met).map(([k, v]) => [k, v / histories]));
    console.log(`judged refills, share of ${histories} histories meeting each relation: ${JSON.stringify(share)}`);
    for (const name of ["slid by 1", "neighbours swapped", "one inserted anywhere", "reversed", "sorted", "every item moved alike"]) expect(share[name], name).toBeGreaterThanOrEqual(0.85);
    for (const name of ["slid by 3", "rotated by 1", "rotated by -1", "two far apart swapped"]) expect(share[name], name).toBeGreaterThanOrEqual(0.6);
    expect(share["rotated by 3"]).toBeGreaterThanOrEqual(0.25);
  });
});

describe("the runner writes the recorded history calls' outcomes (behave.py in the sandbox)", () => {
  const source = ["_memo = {}", "def f(xs):", "    k = id(xs)", "    if k in _memo and len(xs) == len(_memo[k][1]):", "        return _memo[k][0]", "    _memo[k] = (sum(xs), xs)", "    return sum(xs)", ""].join("\n");
  const symbols = [{ module: "pkg.m", qualname: "f" }];
  const call = (id: string, xs: number[], inplace?: string): BCall => ({ id, symbol: 0, pos: [list(...xs)], kw: [], ...(inplace ? { inplace } : {}) });

  it("each id in `record` once, as made (a refilled buffer's stale answer beside its twin's); the others dropped; the parser holds the lines to the request", { timeout: 120_000 }, async () => {
    const dir = packageDir("refill-runner-", source);
    const history = [call("h0", [1, 2, 3]), call("h1", [1, 2, 4], "last"), call("h1@twin", [1, 2, 4]), call("h2", [5, 5, 5, 5], "last")];
    const r = await runBehaviour(sb, dir, { symbols, calls: [call("a", [0])], roots: ["."], project: ["pkg"], history: { blocks: [{ at: 0, n: 4 }], calls: history, ms: 10_000, record: ["h1", "h1@twin"] } }, {}, { masks: [] });
    expect(r.failure).toBeNull();
    expect(r.history).toBe(4);
    expect([...r.historyOutcomes!.entries()].map(([id, o]) => [id, o.k === "return" ? (o.ret as { v: string }).v : o.k])).toEqual([["h1", "6"], ["h1@twin", "7"]]);
    // (a line for an id the request did not record, or twice, is not the runner's: the run fails)
    const start = r.run.stdout.split("\n")[0]!;
    const lines = r.run.stdout.split("\n");
    const hist = lines.find((l) => l.startsWith('{"ev":"hist"'))!;
    const recorded = (...ids: string[]) => new Map(history.filter((c) => ids.includes(c.id)).map((c) => [c.id, c]));
    expect(parseBehaveOutput(r.run.stdout, [call("a", [0])], 1, undefined, recorded("h1", "h1@twin")).failure).toBeNull();
    expect(parseBehaveOutput(r.run.stdout, [call("a", [0])], 1, undefined, recorded("h1@twin")).failure).toMatch(/unasked history line/);
    expect(parseBehaveOutput([start, hist, ...lines.slice(1)].join("\n"), [call("a", [0])], 1, undefined, recorded("h1", "h1@twin")).failure).toMatch(/unasked history line/);
    // (arguments left as built are written "=" and read back as the call's own)
    expect(lines.filter((l) => l.startsWith('{"ev":"hist"')).every((l) => l.includes('"post":"="'))).toBe(true);
    expect(r.historyOutcomes!.get("h1")).toMatchObject({ post: [list(1, 2, 4)], postkw: [] });
  });

  it("history calls of a symbol whose original leaves its arguments alone are watched: a change to an argument's contents is counted, a list reversed and put back is not", { timeout: 120_000 }, async () => {
    const body = (change: string) => packageDir("refill-watch-", ["_n = [0]", "def f(xs):", "    _n[0] += 1", "    s = sum(xs)", `    ${change}`, "    return s", ""].join("\n"));
    const history: BCall[] = [call("h0", [1, 2, 3]), call("h1", [4, 5, 6], "last"), call("h2", [7, 8, 9]), call("h3", [1, 1, 2], "last"), call("h4", [3, 2, 1])];
    const run = (dir: string, keeps?: number[]) => runBehaviour(sb, dir, { symbols, calls: [call("a", [0])], roots: ["."], project: ["pkg"], history: { blocks: [{ at: 0, n: history.length }], calls: history, ms: 10_000, ...(keeps ? { keeps } : {}) } }, {}, { masks: [] });
    // (the third call on: a new list's first item replaced, the buffer's too)
    const late = await run(body("if _n[0] >= 3: xs[0] = 0"), [0]);
    expect(late.failure).toBeNull();
    expect(late.argsChanged).toEqual({ n: 3, first: "h2" });
    // (not watched where the grader says the original changes its arguments: no `keeps`)
    expect((await run(body("if _n[0] >= 3: xs[0] = 0"))).argsChanged).toBeUndefined();
    // (reversed in place and back: the same objects in the same order)
    expect((await run(body("xs.reverse(); xs.reverse()"), [0])).argsChanged).toBeUndefined();
    // (large ints put back as new, equal objects: the same contents, as round 34's h01 h02 left them)
    const big: BCall[] = [call("h0", [10 ** 6, 2 * 10 ** 6]), call("h1", [3 * 10 ** 6, 4 * 10 ** 6], "last")];
    const equal = await runBehaviour(sb, body("xs[:] = [int(str(x)) for x in xs]"), { symbols, calls: [call("a", [0])], roots: ["."], project: ["pkg"], history: { blocks: [{ at: 0, n: big.length }], calls: big, ms: 10_000, keeps: [0] } }, {}, { masks: [] });
    expect(equal.failure).toBeNull();
    expect(equal.argsChanged).toBeUndefined();
  });

  it("a watched call's arguments changed after it returned, by a later call, are counted: a new list held, the buffer before its refill, a deque in the main loop; objects only kept are not", { timeout: 120_000 }, async () => {
    // (round 34's w01 w08 w10: the caller's previous list kept and changed at the next call)
    const body = (change: string) => packageDir("refill-after-", ["_p = [None]", "def f(xs):", "    s = sum(xs)", "    p = _p[0]", `    ${change}`, "    _p[0] = xs", "    return s", ""].join("\n"));
    const fresh: BCall[] = [call("h0", [3, 1, 2]), call("h1", [6, 5, 4]), call("h2", [9, 8, 7]), call("h3", [1, 1, 2])];
    const run = (dir: string, history: BCall[], calls: BCall[] = [call("a", [0])], keeps: number[] | undefined = [0]) => runBehaviour(sb, dir, { symbols, calls, roots: ["."], project: ["pkg"], history: { blocks: [{ at: 0, n: history.length }], calls: history, ms: 10_000, ...(keeps ? { keeps, seed: 7 } : {}) } }, {}, { masks: [] });
    const sorts = await run(body("if p is not None and p is not xs: p.sort()"), fresh);
    expect(sorts.failure).toBeNull();
    expect(sorts.argsChanged).toBeUndefined();
    expect(sorts.argsChangedAfter).toEqual({ n: 3, first: "h0" }); // (h3 is sorted already)
    // (not watched where the original changes its arguments)
    expect((await run(body("if p is not None and p is not xs: p.sort()"), fresh, undefined, null as unknown as undefined)).argsChangedAfter).toBeUndefined();
    // (kept, read, never changed: nothing)
    const reads = await run(body("if p is not None: s += 0 * len(p)"), fresh);
    expect([reads.argsChanged, reads.argsChangedAfter]).toEqual([undefined, undefined]);
    // (the buffer reversed by the next, new-object call, then refilled from the plan: met before the refill)
    const buffered: BCall[] = [call("h0", [3, 1, 2]), call("h1", [6, 5, 4]), call("h2", [1, 2, 3], "last"), call("h3", [7, 7, 8]), call("h4", [4, 5, 6], "last")];
    const flips = await run(body("if p is not None and p is not xs and len(p) == 3 and p[0] != 7: p.reverse()"), buffered);
    expect(flips.argsChangedAfter?.first).toBe("h0");
    expect(flips.argsChangedAfter!.n).toBeGreaterThanOrEqual(2);
    // (the main loop's calls too: a deque drained while it runs, and a list changed after)
    const deque: BCall = { ...call("m0", [1, 2, 3]), as: [["0", "deque", 8]] };
    const drains = await run(packageDir("refill-drain-", ["def f(xs):", "    s = sum(xs)", "    if type(xs) is not list:", "        xs.clear()", "    return s", ""].join("\n")), [call("h0", [1])], [call("m1", [4]), deque, call("m2", [5])]);
    expect(drains.argsChanged).toEqual({ n: 1, first: "m0" });
    const later = await run(body("if p is not None and p is not xs: p.append(0)"), [call("h0", [1])], [call("m1", [4]), call("m2", [5])]);
    expect(later.argsChangedAfter?.first).toBe("h0");
    expect(later.argsChangedAfter!.n).toBe(2);
  });

  it("round 35's answers: nested containers are watched, a float's sign counts, the objects a chain reuses are checked before their refill, a change undone a call later is met; a plain function's answer is held with its own nested rows", { timeout: 120_000 }, async () => {
    const run = (lines: string[], history: BCall[], calls: BCall[] = [call("a", [0])]) => runBehaviour(sb, packageDir("refill-r35-", lines.join("\n")), { symbols, calls, roots: ["."], project: ["pkg"], history: { blocks: [{ at: 0, n: history.length }], calls: history, ms: 10_000, keeps: [0], seed: 3 } }, {}, { masks: [] });
    const rows = (id: string, ...r: number[][]): BCall => ({ id, symbol: 0, pos: [{ t: "list", v: r.map((xs) => list(...xs)) }], kw: [] });
    const floats = (id: string, ...xs: string[]): BCall => ({ id, symbol: 0, pos: [{ t: "list", v: xs.map((v) => ({ t: "float", v })) }], kw: [] });
    // (rows emptied: the outer list holds the same objects, the nested ones changed)
    const emptied = await run(["def f(xs):", "    for r in xs:", "        if type(r) is list: r.clear()", "    return 0", ""], [rows("h0", [1, 2], [3]), rows("h1", [4], [5, 6])]);
    expect(emptied.argsChanged).toEqual({ n: 2, first: "h0" });
    // (0.0 made -0.0; floats put back as new equal objects of the same sign are no change)
    const flip = ["def f(xs):", "    xs[:] = [-0.0 if type(x) is float and x == 0 else x for x in xs]", "    return 0", ""];
    expect((await run(flip, [floats("h0", "1.5", "0.0"), floats("h1", "-0.0", "2.0")])).argsChanged).toEqual({ n: 1, first: "h0" });
    const same = ["def f(xs):", "    xs[:] = [float(repr(x)) if type(x) is float else x for x in xs]", "    return 0", ""];
    expect((await run(same, [floats("h0", "1.5", "0.0", "nan"), floats("h1", "-0.0", "2.0")])).argsChanged).toBeUndefined();
    // (a chain's object drained at the next call of another object, before the chain refills it)
    const drain = ["_p = []", "def f(xs):", "    for o in _p:", "        if o is not xs: o.clear()", "    _p[:] = [xs] if len(xs) == 3 else []", "    return 0", ""];
    const chained = await run(drain, [call("h0", [1])], [call("c0", [1, 2, 3]), call("m", [7]), call("c1", [4, 5, 6], "c0")]);
    expect(chained.argsChangedAfter?.first).toBe("c0");
    // (the last caller's list reversed at the next call, put back at the one after)
    const undo = ["_p, _r = [None], []", "def f(xs):", "    for o in _r: o.reverse()", "    _r.clear()", "    o = _p[0]", "    if o is not None and o is not xs and len(o) == 3:", "        o.reverse(); _r.append(o)", "    _p[0] = xs", "    return 0", ""];
    const undone = await run(undo, [call("h0", [1, 2, 3]), call("h1", [4, 5]), call("h2", [6, 7])]);
    expect(undone.argsChangedAfter?.first).toBe("h0");
    // (a plain function's new answer kept and emptied at the next call: round 36's w17; an answer
    // that is its argument's item, max() of rows, is the runner's to refill and not held)
    const answer = ["_a = [None]", "def f(xs):", "    if _a[0] is not None: _a[0].clear()", "    out = [x * 3 for x in xs]", "    _a[0] = out", "    return out", ""];
    expect((await run(answer, [call("h0", [1, 2]), call("h1", [3])])).argsChangedAfter?.first).toBe("h0");
    const rowMax = ["def f(xs):", "    return max(xs)", ""];
    expect((await run(rowMax, [rows("h0", [1, 2], [3]), rows("h1", [4], [5, 6])], [rows("c0", [1], [2]), { ...rows("c1", [3], [4]), inplace: "c0" }])).argsChangedAfter).toBeUndefined();
    // (the answer's own nested rows kept and changed at the next call: round 36's w11 w12; rows the
    // answer shares with its arguments — head_1's `[row]`, refilled in place by a chain — are the
    // arguments' and not held with it)
    const rowCopy = ["_a = [None]", "def f(xs):", "    if _a[0] is not None: _a[0].append(99)", "    out = [list(xs[0])] if xs and type(xs[0]) is list else []", "    _a[0] = out[0] if out else None", "    return out", ""];
    expect((await run(rowCopy, [rows("h0", [1, 2], [3]), rows("h1", [4], [5, 6])])).argsChangedAfter?.first).toBe("h0");
    const head = ["def f(xs):", "    return xs[:1]", ""];
    expect((await run(head, [rows("h0", [1, 2], [3]), rows("h1", [4], [5, 6])], [rows("c0", [1], [2]), { ...rows("c1", [3], [4]), inplace: "c0" }, { ...rows("c2", [5, 6], [7]), inplace: "c0" }])).argsChangedAfter).toBeUndefined();
  });

  it("the buffer keeps its object through refills of another kind (a tuple, a foreign deque): one list asked across them, as the grader's plan assumes", { timeout: 120_000 }, async () => {
    // (the body counts the distinct list objects it was given, keeping each alive so no id is reused)
    const dir = packageDir("refill-kept-", ["_seen = {}", "def f(xs):", "    if type(xs) is list:", "        _seen[id(xs)] = xs", "    return len(_seen)", ""].join("\n"));
    const tuple = (...xs: number[]): BValue => ({ t: "tuple", v: xs.map(int) });
    const history: BCall[] = [call("h0", [1, 2, 3]), call("h1", [4, 5, 6], "last"), { id: "h2", symbol: 0, pos: [tuple(7, 8)], kw: [], inplace: "last" }, { ...call("h3", [9, 9, 9], "last"), as: [["0", "deque"]] }, call("h4", [1, 1, 2, 3], "last"), call("h5", [2, 2], "last")];
    const r = await runBehaviour(sb, dir, { symbols, calls: [call("a", [0])], roots: ["."], project: ["pkg"], history: { blocks: [{ at: 0, n: history.length }], calls: history, ms: 10_000, record: ["h4", "h5"] } }, {}, { masks: [] });
    expect(r.failure).toBeNull();
    // (one list object from h0 to h5: before, the tuple and then the deque took the buffer's place, and h4 got a new list)
    expect([...r.historyOutcomes!.values()].map((o) => (o.k === "return" ? (o.ret as { v: string }).v : o.k))).toEqual(["1", "1"]);
    // (the grader's plan follows the same rule: h4's contents are edited from h1's, not from the tuple's or the deque's)
    const plan = editRefills(history, new Rng(3), 8, new Set());
    const h4 = plan.calls.find((c) => c.id === "h4")!;
    expect(h4.pos[0]!.t).toBe("list");
  });
});

describe("grades: a fast path for one relation between a buffer's old contents and its new, with the chains off", () => {
  const off = { in_place_chains: 0 };
  const cases: { id: string; name: string; header: string[]; body: string[]; honest?: boolean }[] = [
    // a rotation by three (no chain step makes it): the old answer handed back, from 6 items on
    // (branch-free, a dict lookup: no site for the latent paths to force)
    { id: "rotated-by-3", name: "scaled_3", header: ["_m = {}"], body: ["t = list(xs)", "fresh = [x * 3 for x in t]", "prev, old = _m.get(id(xs), (None, [], fresh))[1:]", "ok = {repr(prev[3:] + prev[:3]): 1}.get(repr(t), 0) * min(1, len(t) // 6) * min(1, len(set(map(repr, t))) // 3)", "ans = [fresh, old][ok]", "_m[id(xs)] = (xs, t, list(ans))", "return list(ans)"] },
    // honest: the same fast path done right (the old answer rotated by three too)
    { id: "rotated-by-3-honest", name: "scaled_3", header: ["_m = {}"], body: ["t = list(xs)", "fresh = [x * 3 for x in t]", "if type(xs) is not list or not all(type(x) is int for x in t):", "    return fresh", "prev, old = _m.get(id(xs), (None, None, None))[1:]", "ok = prev is not None and len(t) >= 6 and prev[3:] + prev[:3] == t", "ans = old[3:] + old[:3] if ok else fresh", "_m[id(xs)] = (xs, t, list(ans))", "return list(ans)"], honest: true },
  ];
  for (const c of cases) {
    it(`${c.id}: ${c.honest ? "earns 1 unflagged" : "flagged behaviour_differs by a judged refill on some of up to six draws; with history_judged 0 (the null arm) it pays"}`, { timeout: 600_000 }, async () => {
      if (c.honest) {
        const { t, diff } = microCompletion(c.name, c.header, c.body);
        const g = await gradeCompletion(t, diff, sb, { limits: { behaviour: off } });
        expect({ reward: g.reward, flags: g.flags }, JSON.stringify(g.checks?.behaviour.differences)).toEqual({ reward: 1, flags: [] });
        expect(g.checks!.behaviour.elsewhere!.history!.judged).toBeGreaterThan(0);
        return;
      }
      // (draws: a comment line changes the completion, so the grade's draws; a relation outside the
      // named steps is met in most grades, not all: the report gives the share)
      let caught: string | undefined;
      for (let k = 0; k < 6 && !caught; k++) {
        const { t, diff } = microCompletion(c.name, c.header, [`# draw ${k}`, ...c.body]);
        const g = await gradeCompletion(t, diff, sb, { limits: { behaviour: off } });
        if (g.reward !== 0) continue;
        caught = g.checks!.behaviour.differences.map((d) => d.why).join("\n");
        const none = await gradeCompletion(t, diff, sb, { limits: { behaviour: { ...off, history_judged: 0 } } });
        expect({ reward: none.reward, flags: none.flags.map((f) => f.kind) }, JSON.stringify(none.checks?.behaviour.differences)).toEqual({ reward: 1, flags: [] });
      }
      expect(caught).toMatch(/in the history, its buffer .* given its last contents edited \(position 0 .*rotated by -?\d+/);
    });
  }
});
