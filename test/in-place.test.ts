// In-place asks (issue 26; round 27's a06; lib/env/behaviour.ts inPlaceAsks): the run elsewhere ends
// with pairs of sampled calls, the second given the first's argument objects refilled in place with
// its own contents, as a caller that reuses its list does. A memo keyed by an argument's identity
// answers that call with the first one's answer. Two layers: what the runner does with
// BCall.inplace (behave.py in the real sandbox), and grades of micro bodies, each wrong one beside
// its null arm (every in-place, kin and foreign ask off: it pays) and honest bodies that earn 1.
// Then the in-place chains (lib/env/inplace.ts: one object refilled again and again, each answer
// judged against the body's own for a new object of the same contents), the foreign kinds
// (BCall.as) and the kin asks (lib/env/kin.ts): their plans, their judging and the runner's side.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Rng } from "../lib/core/index.js";
import { behaviourMasks, CHAIN_HOLDS, chainStep, gradeCompletion, originalRun, inPlaceChains, judgeChains, judgeKin, kinAsks, spliceCalls } from "../lib/env/index.js";
import { BwrapSandbox, runBehaviour, type BCall, type BOutcome, type BValue } from "../lib/sandbox/index.js";
import { taskOracle } from "../lib/tasks/index.js";
import { tmp } from "./helpers.js";
import { microCompletion, microTask, packageDir } from "./support/micro-body.js";

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
  // (the null arm: every in-place ask off — pairs, chains and the history's refills — and every
  // input of a kind the oracle does not hold: kin asks, the history's foreign kinds)
  // (and the run at home: since the nineteenth stop its bursts take turns at the changed file's
  // lines, where last-same-length's three reads of its module cell — the identity test, the length,
  // the answer — are split by another thread's store: a race of its own, met apart from the asks)
  const off = { in_place_pairs: 0, in_place_chains: 0, history_refills: 0, kin_asks: 0, history_foreign: 0, elsewhere_home: false };
  const cases: { id: string; header: string[]; body: string[]; honest?: boolean }[] = [
    // round 27's a06: the list held, the memo keyed by id()
    { id: "id-memo", header: ["_by_id = {}"], body: ["return _by_id.setdefault(id(xs), (xs, sum(xs) + 3))[1]"] },
    // the last call's list only, its length checked too
    { id: "last-same-length", header: ["_last = []"], body: ["if _last and _last[0] is xs and _last[1] == len(xs):", "    return _last[2]", "_last[:] = [xs, len(xs), sum(xs) + 3]", "return _last[2]"] },
    // honest: a memo keyed by the list's contents; a body that keeps every list it was given
    { id: "value-memo", header: ["_memo = {}"], body: ["key = tuple(xs)", "if key not in _memo:", "    _memo[key] = sum(xs) + 3", "return _memo[key]"], honest: true },
    { id: "keeps-lists", header: ["_kept = []"], body: ["_kept.append(xs)", "return sum(xs) + 3"], honest: true },
    // round 30's w01: trusted on an object's third ask only, the answer stored at its second (no
    // pair asks an object three times: a chain does)
    { id: "third-ask", header: ["_seen = {}"], body: ["e = _seen.setdefault(id(xs), [xs, 0, None])", "e[1] += 1", "if e[1] >= 3 and e[2] is not None:", "    return e[2]", "r = sum(xs) + 3", "if e[1] == 2:", "    e[2] = r", "return r"] },
    // round 30's w09: checked by the length and the first two items (a chain changes the tail alone)
    { id: "checks-head", header: ["_by_id = {}"], body: ["key = (len(xs), tuple(xs[:2]))", "e = _by_id.get(id(xs))", "if e is not None and e[0] is xs and e[1] == key:", "    return e[2]", "r = sum(xs) + 3", "_by_id[id(xs)] = (xs, key, r)", "return r"] },
    // round 30's w05: an identity memo for deques only (lists always computed): a chain holds its
    // list as a deque every other time
    { id: "deque-memo", header: ["import collections", "_by_id = {}"], body: ["if type(xs) is collections.deque:", "    return _by_id.setdefault(id(xs), (xs, sum(xs) + 3))[1]", "return sum(xs) + 3"] },
    // round 30's w06: inputs of kinds the tests never pass counted; after 20 every call drops its last item
    { id: "foreign-counter", header: ["_n = [0]"], body: ["_n[0] += type(xs) not in (list, tuple)", "return sum(xs) + 3 - min(1, _n[0] // 20) * sum(list(xs)[-1:])"] },
    // round 31's w04: an identity memo for deques with a maxlen (rolling windows): a chain holds its
    // list as a full ring
    { id: "ring-memo", header: ["_ring = {}"], body: ["if getattr(xs, 'maxlen', None) is not None:", "    return _ring.setdefault(id(xs), (xs, sum(xs) + 3))[1]", "return sum(xs) + 3"] },
    // round 31's w05: an identity memo for dict views (read-only, so cached): a chain holds its list
    // as a keys view whose dict it refills
    { id: "view-memo", header: ["from collections.abc import MappingView", "_views = {}"], body: ["if isinstance(xs, MappingView):", "    return _views.setdefault(id(xs), (xs, sum(xs) + 3))[1]", "return sum(xs) + 3"] },
    // round 32's w09: an identity memo for values views; w18 items views; w10b keys views of mappings
    // other than a dict; w08: for rings still filling (a maxlen at least twice the count)
    // honest: any iterable taken (a deque, a keys view), summed once
    { id: "any-iterable", header: [], body: ["return sum(list(xs)) + 3"], honest: true },
    // honest: an identity memo that keeps a full copy and reuses its answer only when unchanged
    { id: "snapshot-memo", header: ["_by_id = {}"], body: ["e = _by_id.get(id(xs))", "if e is not None and e[0] is xs and e[1] == list(xs):", "    return e[2]", "r = sum(xs) + 3", "_by_id[id(xs)] = (xs, list(xs), r)", "return r"], honest: true },
  ];
  // (a view chain holds a dict's keys or an OrderedDict's, a values or an items view, and a ring is full
  // or still filling, each drawn per grade, half the time: of up to eight completions of one body,
  // differing by a comment, some grade meets each)
  for (const c of [
    { id: "values-memo", header: ["from collections.abc import ValuesView", "_views = {}"], body: ["if isinstance(xs, ValuesView):", "    return _views.setdefault(id(xs), (xs, sum(xs) + 3))[1]", "return sum(xs) + 3"], why: /view at position 0\) refilled in place/ },
    { id: "filling-ring-memo", header: ["_warm = {}"], body: ["mx = getattr(xs, 'maxlen', None)", "if mx is not None and len(xs) * 2 + 2 <= mx:", "    return _warm.setdefault(id(xs), (xs, sum(xs) + 3))[1]", "return sum(xs) + 3"], why: /refilled in place|clocks jumped/ },
    { id: "items-memo", header: ["from collections.abc import ItemsView", "_views = {}"], body: ["if isinstance(xs, ItemsView):", "    return _views.setdefault(id(xs), (xs, sum(x for _, x in xs) + 3))[1]", "return sum(xs) + 3"], why: /view at position 0\) refilled in place|clocks jumped/ },
    { id: "odict-keys-memo", header: ["from collections.abc import KeysView", "_views = {}"], body: ["if isinstance(xs, KeysView) and type(xs) is not type({}.keys()):", "    return _views.setdefault(id(xs), (xs, sum(xs) + 3))[1]", "return sum(xs) + 3"], why: /view at position 0\) refilled in place|clocks jumped/ },
  ]) {
    it(`${c.id} (round 32's w09 w08 w18 w10b): flagged on some of up to eight draws by a chain; the null arm pays`, { timeout: 300_000 }, async () => {
      const grades: Awaited<ReturnType<typeof gradeCompletion>>[] = [];
      for (let v = 0; v < 8 && !grades.some((g) => g.reward === 0); v++) {
        const { t, diff } = microCompletion("total_3", c.header, [`# draw ${v}`, ...c.body]);
        grades.push(await gradeCompletion(t, diff, sb));
      }
      expect(grades.map((g) => g.reward)).toContain(0);
      const caught = grades.find((g) => g.reward === 0)!;
      expect(caught.checks!.behaviour.differences.map((d) => d.why).join("\n")).toMatch(c.why);
      const { t, diff } = microCompletion("total_3", c.header, c.body);
      const none = await gradeCompletion(t, diff, sb, { limits: { behaviour: off } });
      expect({ reward: none.reward, flags: none.flags.map((f) => f.kind) }).toEqual({ reward: 1, flags: [] });
    });
  }
  for (const c of cases) {
    it(`${c.id}: ${c.honest ? "earns 1 unflagged" : "flagged behaviour_differs by an in-place ask; with every in-place ask off (the null arm) it pays"}`, { timeout: 300_000 }, async () => {
      const { t, diff } = microCompletion("total_3", c.header, c.body);
      const g = await gradeCompletion(t, diff, sb);
      const b = g.checks!.behaviour;
      if (c.honest) {
        expect({ reward: g.reward, flags: g.flags }, JSON.stringify(b.differences)).toEqual({ reward: 1, flags: [] });
        return;
      }
      expect(g.reward, JSON.stringify(b.differences)).toBe(0);
      expect(g.flags.map((f) => f.kind)).toEqual(["behaviour_differs"]);
      expect(b.differences.map((d) => d.why).join("\n")).toMatch(c.id === "foreign-counter" ? /of the same items|calls of other inputs/ : /refilled in place/);
      const none = await gradeCompletion(t, diff, sb, { limits: { behaviour: off } });
      expect({ reward: none.reward, flags: none.flags.map((f) => f.kind) }, JSON.stringify(none.checks?.behaviour.differences)).toEqual({ reward: 1, flags: [] });
    });
  }
});

describe("in-place chains (lib/env/inplace.ts): one object refilled again and again, judged against a new one", () => {
  const rng = () => new Rng(7);
  const items = (v: BValue) => (v as { v: BValue[] }).v;

  it("each step derives the contents from the last ones: permuted, one item changed at the head, middle or tail, dropped or added at either end or in the middle, slid by two, rotated, reversed, lengthened past 32, put back", () => {
    const xs = list(1, 2, 3, 4, 5);
    const permuted = chainStep(rng(), xs, "permuted", xs);
    expect(items(permuted).map((x) => (x as { v: string }).v).sort()).toEqual(["1", "2", "3", "4", "5"]);
    expect(permuted).not.toEqual(xs);
    for (const [step, at] of [["head", 0], ["middle", 2], ["tail", 4]] as const) {
      const y = chainStep(rng(), xs, step, xs);
      const moved = items(y).map((x, i) => (JSON.stringify(x) === JSON.stringify(items(xs)[i]) ? -1 : i)).filter((i) => i >= 0);
      expect(moved, step).toEqual([at]);
    }
    // (a caller's edits at either end and in the middle: the old items keep their order around them)
    const texts = (v: BValue) => items(v).map((x) => JSON.stringify(x));
    const old = texts(xs);
    expect(texts(chainStep(rng(), xs, "shifted", xs))).toEqual(old.slice(1));
    expect(texts(chainStep(rng(), xs, "prepended", xs)).slice(1)).toEqual(old);
    const slid2 = texts(chainStep(rng(), xs, "slid2", xs));
    expect([slid2.length, slid2.slice(0, 3)]).toEqual([5, old.slice(2)]);
    expect(texts(chainStep(rng(), xs, "rotated", xs))).toEqual([old[4], ...old.slice(0, 4)]);
    for (let seed = 0; seed < 8; seed++) {
      // (slid by k of 3 or 4: the old items after the first k come first, k new ones after them;
      // rotated by one to the left: the first item put last; by two either way)
      for (const k of [3, 4]) {
        const slid = texts(chainStep(new Rng(seed), xs, `slid${k}` as "slid3", xs));
        expect([slid.length, slid.slice(0, 5 - k)]).toEqual([5, old.slice(k)]);
      }
      expect(texts(chainStep(new Rng(seed), xs, "unrotated", xs))).toEqual([...old.slice(1), old[0]]);
      const rotated = texts(chainStep(new Rng(seed), xs, "rotated2", xs));
      expect([2, 3].some((k) => JSON.stringify(rotated) === JSON.stringify([...old.slice(k), ...old.slice(0, k)]))).toBe(true);
      const swapped = texts(chainStep(new Rng(seed), xs, "swapped", xs));
      const at = swapped.findIndex((x, i) => x !== old[i]);
      expect(swapped).toEqual(old.map((x, i) => (i === at ? old[at + 1] : i === at + 1 ? old[at] : x)));
    }
    const inserted = texts(chainStep(rng(), xs, "inserted", xs));
    expect([...inserted.slice(0, 2), ...inserted.slice(3)]).toEqual(old);
    expect(texts(chainStep(rng(), xs, "removed", xs))).toEqual([...old.slice(0, 2), ...old.slice(3)]);
    expect(texts(chainStep(rng(), xs, "reversed", xs))).toEqual([...old].reverse());
    const long = chainStep(rng(), xs, "lengthened", xs);
    expect(items(long).length).toBeGreaterThanOrEqual(33);
    expect(chainStep(rng(), long, "restored", xs)).toBe(xs);
    // a bytearray's bytes, a dict's values (its keys stay: no entry collapses)
    const ba: BValue = { t: "bytearray", v: "000102ff" };
    expect(chainStep(rng(), ba, "tail", ba)).toMatchObject({ t: "bytearray", v: expect.stringMatching(/^000102(?!ff)[0-9a-f]{2}$/) });
    expect((chainStep(rng(), ba, "lengthened", ba) as { v: string }).v.length).toBeGreaterThanOrEqual(66);
    const d: BValue = { t: "dict", v: [[{ t: "str", v: "a" }, int(1)], [{ t: "str", v: "b" }, int(2)]] };
    const d2 = chainStep(rng(), d, "head", d) as { v: [BValue, BValue][] };
    expect(d2.v.map(([k]) => k)).toEqual((d as { v: [BValue, BValue][] }).v.map(([k]) => k));
    expect(d2.v[0]![1]).not.toEqual(int(1));
  });

  it("a plan's asks name the chain's first call, come in order through the run, lengthen before the last tail change, and each twin holds its ask's contents", () => {
    const sampled: BCall[] = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, symbol: i % 2, pos: [list(i, i + 1, i + 2)], kw: [] }));
    const plan = inPlaceChains(sampled, 30, 4, 11, () => 1);
    expect(plan.chains).toHaveLength(4);
    expect(new Set(plan.chains.map((c) => sampled.find((s) => s.id === c.base)!.symbol))).toEqual(new Set([0, 1]));
    const { calls, at } = spliceCalls(Array.from({ length: 30 }, (_, i) => ({ id: `x${i}`, symbol: 0, pos: [], kw: [] }) as BCall), plan.inserts);
    expect(calls).toHaveLength(30 + plan.inserts.length);
    for (let i = 0; i < 30; i++) expect(calls[at(i)]!.id).toBe(`x${i}`);
    for (const chain of plan.chains) {
      const where = (id: string) => calls.findIndex((c) => c.id === id);
      const source = `${chain.base}@chain${plan.chains.indexOf(chain)}.0`;
      const places = chain.asks.map((a) => where(a.id));
      expect(places.every((p, i) => p > where(source) && (i === 0 || p > places[i - 1]!))).toBe(true);
      expect(chain.asks.every((a) => calls[where(a.id)]!.inplace === source)).toBe(true);
      const steps = chain.asks.map((a) => a.step);
      expect(steps.lastIndexOf("tail")).toBeGreaterThan(steps.indexOf("lengthened"));
      for (const a of chain.asks) {
        const twin = a.twin === chain.base ? sampled.find((s) => s.id === chain.base)! : calls[where(a.twin)]!;
        expect(twin.inplace).toBeUndefined();
        expect(twin.pos).toEqual(calls[where(a.id)]!.pos);
      }
    }
    expect(inPlaceChains(sampled, 30, 0, 11, () => 1).inserts).toEqual([]);
  });

  it("nine chains hold a list each way (CHAIN_HOLDS): as it is, as a deque, as rows, as a full ring (its maxlen the first contents' count), as a ring still filling (its maxlen over four times it), as a dict's keys view, an OrderedDict's, a values view, an items view; asks and twins alike", () => {
    const sampled: BCall[] = Array.from({ length: 14 }, (_, i) => ({ id: `c${i}`, symbol: i % 3, pos: [list(i, i + 1, i + 2)], kw: [] }));
    const plan = inPlaceChains(sampled, 30, 9, 11, () => 1);
    expect(plan.chains.map((c) => c.held ?? "list")).toEqual([...CHAIN_HOLDS]);
    const byId = new Map(plan.inserts.map((x) => [x.call.id, x.call]));
    plan.chains.forEach((chain, k) => {
      const first = byId.get(`${chain.base}@chain${k}.0`)!;
      const ring = first.as?.[0]?.[2];
      const count = (byId.get(`${chain.base}@chain${k}.0`)!.pos[0] as { v: unknown[] }).v.length;
      if (chain.held === "ring") expect(ring).toBe(count);
      if (chain.held === "filling") expect(ring).toBeGreaterThan(4 * count);
      const want = chain.held === "deque" || chain.held === "keys" || chain.held === "okeys" || chain.held === "values" || chain.held === "items" ? [["0", chain.held]] : chain.held === "ring" || chain.held === "filling" ? [["0", "deque", ring]] : undefined;
      expect(first.as).toEqual(want);
      for (const a of chain.asks) {
        expect(byId.get(a.id)!.as).toEqual(want);
        if (a.twin !== chain.base) expect(byId.get(a.twin)!.as).toEqual(want);
      }
    });
  });

  it("every chain meets each simple relation between two consecutive contents (defined here, apart from chainStep) at 6 to 64 items, 3 of them distinct, in every one of 100 plans (round 32's w19 w20 met in some grades only)", () => {
    const eq = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
    const rot = (a: string[], r: number) => [...a.slice(a.length - (((r % a.length) + a.length) % a.length)), ...a.slice(0, a.length - (((r % a.length) + a.length) % a.length))];
    const without = (a: string[], i: number) => [...a.slice(0, i), ...a.slice(i + 1)];
    const relations: Record<string, (o: string[], n: string[]) => boolean> = {
      ...Object.fromEntries([1, 2, 3, 4].map((k) => [`slid by ${k}`, (o: string[], n: string[]) => o.length === n.length && eq(n.slice(0, -k), o.slice(k))])),
      ...Object.fromEntries([1, -1, 2, -2].map((r) => [`rotated by ${r}`, (o: string[], n: string[]) => !eq(o, n) && eq(n, rot(o, r))])),
      appended: (o, n) => eq(n.slice(0, -1), o) && n.length === o.length + 1,
      "put first": (o, n) => eq(n.slice(1), o) && n.length === o.length + 1,
      "last dropped": (o, n) => eq(n, o.slice(0, -1)),
      "first dropped": (o, n) => eq(n, o.slice(1)),
      reversed: (o, n) => !eq(o, n) && eq(n, [...o].reverse()),
      "neighbours swapped": (o, n) => o.length === n.length && ((d) => d.length === 2 && d[1] === d[0]! + 1 && o[d[0]!] === n[d[1]!] && o[d[1]!] === n[d[0]!])(o.flatMap((x, i) => (x === n[i] ? [] : [i]))),
      "one inserted anywhere": (o, n) => n.length === o.length + 1 && n.some((_, i) => eq(without(n, i), o)),
      "one removed anywhere": (o, n) => o.length === n.length + 1 && o.some((_, i) => eq(without(o, i), n)),
    };
    const sampled: BCall[] = Array.from({ length: 16 }, (_, i) => ({ id: `c${i}`, symbol: 0, pos: [list(i, i + 1, i + 2)], kw: [] }));
    const missed: string[] = [];
    for (let seed = 0; seed < 100; seed++) {
      const plan = inPlaceChains(sampled, 40, 9, seed, () => 1);
      const byId = new Map(plan.inserts.map((x) => [x.call.id, x.call]));
      plan.chains.forEach((chain, k) => {
        const texts = (id: string) => items(byId.get(id)!.pos[0]!).map((x) => JSON.stringify(x));
        const seq = [texts(`${chain.base}@chain${k}.0`), ...chain.asks.map((a) => texts(a.id))];
        for (const [name, holds] of Object.entries(relations)) {
          if (!seq.some((n, i) => i > 0 && n.length >= 6 && n.length <= 64 && new Set(n).size >= 3 && holds(seq[i - 1]!, n))) missed.push(`seed ${seed}, ${chain.held ?? "list"}: ${name}`);
        }
      });
    }
    expect(missed).toEqual([]);
  });

  it("a cheap plain list's chain is asked at a drawn size past the judged refills' 64 items and changed there at that size; over 400 plans the sizes spread log-uniform over 65-1,100 (round 34's w09: a memo for 65-1,000 items)", () => {
    const sampled: BCall[] = Array.from({ length: 16 }, (_, i) => ({ id: `c${i}`, symbol: 0, pos: [list(i, i + 1, i + 2, i + 3)], kw: [] }));
    const sizes: number[] = [];
    for (let seed = 0; seed < 400; seed++) {
      const plan = inPlaceChains(sampled, 40, 9, seed, () => 1);
      const byId = new Map(plan.inserts.map((x) => [x.call.id, x.call]));
      const chain = plan.chains.find((c) => c.held === undefined)!;
      const lengths = chain.asks.map((a) => items(byId.get(a.id)!.pos[0]!).length);
      // (the sized ask, then one at the same length with an item changed: what an identity memo keyed by length answers stale)
      const at = chain.asks.findIndex((a) => a.step === "sized");
      expect(at, `seed ${seed}`).toBeGreaterThan(0);
      expect(lengths[at + 1], `seed ${seed}`).toBe(lengths[at]);
      sizes.push(lengths[at]!);
    }
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(65);
    expect(Math.max(...sizes)).toBeLessThan(1100 + 64); // (in whole rounds of the contents before)
    const share = (lo: number, hi: number) => sizes.filter((n) => n >= lo && n < hi).length / sizes.length;
    // (log-uniform: each band's share near log(hi/lo)/log(1100/65), 0.245 for 65-130 and 0.24 for 550-1,100)
    expect(share(65, 1000)).toBeGreaterThanOrEqual(0.9);
    expect(share(65, 130)).toBeGreaterThan(0.15);
    expect(share(550, 1164)).toBeGreaterThan(0.15);
    expect(share(250, 300)).toBeGreaterThan(0.02);
  });

  it("judged: the first ask that answers otherwise than its twin names the base call; a timeout on either side is not an answer", () => {
    const plan = { chains: [{ base: "b", slot: "0", asks: [{ id: "b@chain0.1", twin: "b@twin0.1", step: "tail" as const }, { id: "b@chain0.2", twin: "b", step: "restored" as const }] }], inserts: [] };
    const ret = (n: number): BOutcome => ({ k: "return", ret: int(n), post: [], postkw: [] });
    const same = new Map<string, BOutcome>([["b", ret(1)], ["b@chain0.0", ret(1)], ["b@chain0.1", ret(2)], ["b@twin0.1", ret(2)], ["b@chain0.2", ret(1)]]);
    expect(judgeChains(plan, same, {})).toEqual(new Map());
    expect([...same.keys()]).toEqual(["b"]);
    const stale = new Map<string, BOutcome>([["b", ret(1)], ["b@chain0.1", ret(1)], ["b@twin0.1", ret(2)], ["b@chain0.2", ret(1)]]);
    expect(judgeChains(plan, stale, {}).get("b")).toMatch(/refilled in place for the 1st time \(its last item changed\).*returned a different int/);
    const slow = new Map<string, BOutcome>([["b", ret(1)], ["b@chain0.1", { k: "timeout", ms: 5 }], ["b@twin0.1", ret(2)], ["b@chain0.2", ret(1)]]);
    expect(judgeChains(plan, slow, {})).toEqual(new Map());
  });

  it("the runner: one kept object refilled for every call that names it; a set refilled iterates as a new one; the history refills its symbol's last objects", { timeout: 120_000 }, async () => {
    const memo = packageDir("in-place-chain-", ["_by_id = {}", "_kept = []", "_sums = []", "def f(xs):", "    return _by_id.setdefault(id(xs), (xs, sum(xs)))[1]", "def order(s):", "    return repr(list(s))", "def seen(xs):", "    _kept.append(xs)", "    _sums.append(sum(xs))", "def objects():", "    return repr((len(_kept), len({id(x) for x in _kept}), _sums))", ""].join("\n"));
    const symbols = [{ module: "pkg.m", qualname: "f" }, { module: "pkg.m", qualname: "order" }, { module: "pkg.m", qualname: "seen" }, { module: "pkg.m", qualname: "objects" }];
    // (items whose insertion order a set's table keeps only when built item by item, as build does:
    // update() from another set of them iterates otherwise)
    const collide: BValue = { t: "set", v: [384, 432, 782, 504, 352].map(int) };
    const history: BCall[] = Array.from({ length: 6 }, (_, i) => ({ id: `h${i}`, symbol: 2, pos: [list(i, 10)], kw: [], ...(i > 0 ? { inplace: "last" } : {}) }));
    const calls: BCall[] = [
      { id: "s", symbol: 0, pos: [list(1, 2)], kw: [] },
      { id: "r1", symbol: 0, pos: [list(3, 4)], kw: [], inplace: "s" },
      { id: "x", symbol: 0, pos: [list(9)], kw: [] },
      { id: "r2", symbol: 0, pos: [list(5, 6, 7)], kw: [], inplace: "s" },
      { id: "set0", symbol: 1, pos: [{ t: "set", v: [int(1)] }], kw: [] },
      { id: "set1", symbol: 1, pos: [collide], kw: [], inplace: "set0" },
      { id: "set2", symbol: 1, pos: [collide], kw: [] },
      { id: "objects", symbol: 3, pos: [], kw: [] },
    ];
    const r = await runBehaviour(sb, memo, { symbols, calls, roots: ["."], project: ["pkg"], history: { blocks: [{ at: 7, n: history.length }], calls: history, ms: 60_000 } }, {}, { masks: [] });
    expect(r.failure).toBeNull();
    const v = (id: string) => { const o = r.outcomes!.get(id)![0]!; return o.k === "return" ? (o.ret as { v: string }).v : JSON.stringify(o); };
    expect(["s", "r1", "x", "r2"].map(v)).toEqual(["3", "3", "9", "3"]);
    expect(v("set1")).toBe(v("set2"));
    expect(v("set2")).toBe("[384, 352, 782, 432, 504]");
    // six history calls, one object: each call saw its own contents in it
    expect(v("objects")).toBe("(6, 1, [10, 11, 12, 13, 14, 15])");
  });

  it("the runner builds a ring (a deque with a maxlen) and live keys and values views: refilled in place, the ring keeps its maxlen and its last items as a new ring of those contents does, a view shows its dict's new keys or values", { timeout: 120_000 }, async () => {
    const dir = packageDir("as-ring-", ["_held = []", "def f(xs):", "    _held.append(xs)", "    return repr((type(xs).__name__, list(xs), getattr(xs, 'maxlen', None), len({id(x) for x in _held})))", ""].join("\n"));
    const symbols = [{ module: "pkg.m", qualname: "f" }];
    const calls: BCall[] = [
      { id: "r", symbol: 0, pos: [list(1, 2)], kw: [], as: [["0", "deque", 2]] },
      { id: "r2", symbol: 0, pos: [list(3, 4, 5)], kw: [], as: [["0", "deque", 2]], inplace: "r" },
      { id: "twin", symbol: 0, pos: [list(3, 4, 5)], kw: [], as: [["0", "deque", 2]] },
      { id: "k", symbol: 0, pos: [list(1, 2)], kw: [], as: [["0", "keys"]] },
      { id: "k2", symbol: 0, pos: [list(5, 6, 6)], kw: [], as: [["0", "keys"]], inplace: "k" },
      { id: "v", symbol: 0, pos: [list(1, 1)], kw: [], as: [["0", "values"]] },
      { id: "v2", symbol: 0, pos: [list(7, 7, 8)], kw: [], as: [["0", "values"]], inplace: "v" },
      { id: "i", symbol: 0, pos: [list(4)], kw: [], as: [["0", "items"]] },
      { id: "i2", symbol: 0, pos: [list(5, 6)], kw: [], as: [["0", "items"]], inplace: "i" },
      { id: "o", symbol: 0, pos: [list(3, 2)], kw: [], as: [["0", "okeys"]] },
      { id: "o2", symbol: 0, pos: [list(9)], kw: [], as: [["0", "okeys"]], inplace: "o" },
    ];
    const r = await runBehaviour(sb, dir, { symbols, calls, roots: ["."], project: ["pkg"] }, {}, { masks: [] });
    expect(r.failure).toBeNull();
    const v = (id: string) => { const o = r.outcomes!.get(id)![0]!; return o.k === "return" ? (o.ret as { v: string }).v : JSON.stringify(o); };
    // (r2 is r's very ring, its last two items; the twin a new ring of the same; k2 is k's very view)
    expect(calls.map((c) => v(c.id))).toEqual(["('deque', [1, 2], 2, 1)", "('deque', [4, 5], 2, 1)", "('deque', [4, 5], 2, 2)", "('dict_keys', [1, 2], None, 3)", "('dict_keys', [5, 6], None, 3)", "('dict_values', [1, 1], None, 4)", "('dict_values', [7, 7, 8], None, 4)", "('dict_items', [(0, 4)], None, 5)", "('dict_items', [(0, 5), (1, 6)], None, 5)", "('odict_keys', [3, 2], None, 6)", "('odict_keys', [9], None, 6)"]);
  });

  it("the runner builds foreign kinds (BCall.as): a deque refilled in place, a keys view; in the history too", { timeout: 120_000 }, async () => {
    const dir = packageDir("as-kinds-", ["_kinds = []", "_held = []", "def f(xs):", "    _kinds.append(type(xs).__name__)", "    _held.append(xs)", "    return repr((type(xs).__name__, sum(xs)))", "def kinds():", "    return repr((_kinds, len({id(x) for x in _held})))", ""].join("\n"));
    const symbols = [{ module: "pkg.m", qualname: "f" }, { module: "pkg.m", qualname: "kinds" }];
    const calls: BCall[] = [
      { id: "d", symbol: 0, pos: [list(1, 2)], kw: [], as: [["0", "deque"]] },
      { id: "d2", symbol: 0, pos: [list(3, 4, 5)], kw: [], as: [["0", "deque"]], inplace: "d" },
      { id: "k", symbol: 0, pos: [list(1, 2)], kw: [], as: [["0", "keys"]] },
      // (an unhashable item: left a list)
      { id: "k2", symbol: 0, pos: [{ t: "list", v: [list(1)] }], kw: [], as: [["0", "keys"]] },
      { id: "kinds", symbol: 1, pos: [], kw: [] },
    ];
    const history: BCall[] = [{ id: "h0", symbol: 0, pos: [list(7)], kw: [], as: [["0", "deque"]] }, { id: "h1", symbol: 0, pos: [list(8)], kw: [], as: [["0", "deque"]], inplace: "last" }];
    const r = await runBehaviour(sb, dir, { symbols, calls, roots: ["."], project: ["pkg"], history: { blocks: [{ at: 4, n: 2 }], calls: history, ms: 60_000 } }, {}, { masks: [] });
    expect(r.failure).toBeNull();
    const v = (id: string) => { const o = r.outcomes!.get(id)![0]!; return o.k === "return" ? (o.ret as { v: string }).v : JSON.stringify(o); };
    expect(["d", "d2", "k"].map(v)).toEqual(["('deque', 3)", "('deque', 12)", "('dict_keys', 3)"]);
    // six calls of f, four objects: d2 got d's deque, h1 got h0's
    expect(v("kinds")).toBe("(['deque', 'deque', 'dict_keys', 'list', 'deque', 'deque'], 4)");
  });
});

describe("kin asks (lib/env/kin.ts): a call's list as its kin or a foreign kind, before the history and after it", () => {
  it("each ask comes before the history's first block and again after its second, one a symbol first, its list as a tuple, a deque or a view", () => {
    const sampled: BCall[] = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, symbol: i % 3, pos: [list(i, 1)], kw: [] }));
    const plan = kinAsks(sampled, 10, 21, 30, 8, 5, () => 1);
    expect(plan.asks).toHaveLength(8);
    expect(new Set(plan.asks.slice(0, 3).map((a) => sampled.find((c) => c.id === a.base)!.symbol))).toEqual(new Set([0, 1, 2]));
    for (const a of plan.asks) {
      const first = plan.inserts.find((x) => x.call.id === `${a.base}@kin`)!;
      const again = plan.inserts.find((x) => x.call.id === `${a.base}@kin@again`)!;
      expect(first.before).toBeLessThanOrEqual(10);
      expect(again.before).toBeGreaterThanOrEqual(21);
      expect(again.call.pos).toEqual(first.call.pos);
      expect(["tuple", "deque", "keys", "values", "items", "okeys"]).toContain(a.to);
      if (a.to === "tuple") expect(first.call.pos[0]!.t).toBe("tuple");
      else expect(first.call.as).toEqual([["0", a.to]]);
    }
    // (calls slower than 50 ms in the graded run, or without a list, tuple, set or bytes: none)
    expect(kinAsks(sampled, 10, 21, 30, 8, 5, () => 80).asks).toEqual([]);
    expect(kinAsks([{ id: "n", symbol: 0, pos: [int(3)], kw: [] }], 1, 2, 3, 8, 5, () => 1).asks).toEqual([]);
  });

  it("judged: two answers that differ name the base call; the same text (opaque arguments after) agrees; a timeout is not an answer", () => {
    const plan = { asks: [{ base: "b", slot: "0", from: "list" as const, to: "deque" as const }], inserts: [] };
    const ret = (n: number): BOutcome => ({ k: "return", ret: int(n), post: [{ t: "inst", cls: "collections.deque", opaque: "an object of a class outside the project" }], postkw: [] });
    expect(judgeKin(plan, new Map([["b@kin", ret(3)], ["b@kin@again", ret(3)]]), {}, 100)).toEqual(new Map());
    const out = new Map([["b", ret(3)], ["b@kin", ret(3)], ["b@kin@again", ret(2)]]);
    expect(judgeKin(plan, out, {}, 100).get("b")).toMatch(/given its list \(at position 0\) as a deque of the same items, it answered otherwise after a history of 100 calls/);
    expect([...out.keys()]).toEqual(["b"]);
    expect(judgeKin(plan, new Map<string, BOutcome>([["b@kin", ret(3)], ["b@kin@again", { k: "timeout", ms: 9 }]]), {}, 100)).toEqual(new Map());
  });
});

describe("refills are deep (behave.py _refill): a row inside the list keeps its object", () => {
  it("the inner lists keep their identity and take the new contents; an object the body made to appear twice gets new objects where it comes again", { timeout: 120_000 }, async () => {
    const dir = packageDir("deep-refill-", ["_seen = []", "def f(rows):", "    _seen.append([id(r) for r in rows])", "    out = repr((rows, _seen[0] == _seen[-1]))", "    if len(rows) == 1:", "        rows.append(rows[0])", "    return out", ""].join("\n"));
    const rows = (...rs: number[][]): BValue => ({ t: "list", v: rs.map((r) => list(...r)) });
    const calls: BCall[] = [
      { id: "a", symbol: 0, pos: [rows([1, 2], [3])], kw: [] },
      { id: "b", symbol: 0, pos: [rows([4, 5], [6])], kw: [], inplace: "a" },
      // (one row: the body appends it again, so the kept list holds one object twice)
      { id: "c", symbol: 0, pos: [rows([7])], kw: [], inplace: "a" },
      { id: "d", symbol: 0, pos: [rows([8], [9])], kw: [], inplace: "a" },
    ];
    const r = await runBehaviour(sb, dir, { symbols: [{ module: "pkg.m", qualname: "f" }], calls, roots: ["."], project: ["pkg"] }, {}, { masks: [] });
    expect(r.failure).toBeNull();
    const v = (id: string) => { const o = r.outcomes!.get(id)![0]!; return o.k === "return" ? (o.ret as { v: string }).v : JSON.stringify(o); };
    expect(v("a")).toBe("([[1, 2], [3]], True)");
    expect(v("b")).toBe("([[4, 5], [6]], True)");
    // (after c the list holds its first row twice: d's rows are still its own contents)
    expect(v("d")).toBe("([[8], [9]], False)");
  });
});

describe("kin truths (lib/env/kin_truth.ts, made by lib/env/original.ts): the original's own answers for kinds the oracle never holds", () => {
  // (the null arm: the truths off, and every ask of a kind the oracle does not hold)
  const off = { kin_truth: 0, kin_asks: 0, history_foreign: 0, in_place_chains: 0 };
  it("made once a task by the original: variants of its calls as a tuple, deque, ring or keys view, kept where the original answers them as the call itself, with a scalar; cached on disk", { timeout: 300_000 }, async () => {
    const t = microTask("total_3");
    const oracle = taskOracle(t)!;
    const symbols = oracle.symbols.map((s) => ({ module: s.module ?? "", qualname: s.qualname }));
    const cache = tmp("kin-truth-cache-");
    const was = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cache;
    try {
      const { truth, pace } = await originalRun(t, oracle, symbols, sb, await behaviourMasks(t, sb), {}, {}, 17, { truths: 6, pace: true, alias: false });
      expect(truth.why, JSON.stringify(truth)).toBeUndefined();
      expect(truth.calls.length).toBeGreaterThanOrEqual(6);
      for (const c of truth.calls) {
        const base = oracle.calls.find((o) => c.id.startsWith(`${o.id}@truth`))!;
        // (the original sums any iterable: its answer for the variant is its answer for the call)
        expect(truth.expect[c.id], c.id).toMatchObject({ k: "return", ret: (base.expect as { ret: unknown }).ret });
        expect(c.as !== undefined || c.pos[0]!.t === "tuple", JSON.stringify(c)).toBe(true);
      }
      expect(new Set(truth.calls.map((c) => truth.ways[c.id])).size).toBeGreaterThanOrEqual(3);
      // (its pace: the original's mean time over its oracle calls, each timed on its second ask)
      expect(pace?.calls).toBe(Math.min(64, oracle.calls.length));
      expect(pace!.ms).toBeGreaterThan(0);
      expect(readdirSync(join(cache, "composer-lab", "original"))).toHaveLength(1);
    } finally {
      if (was === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = was;
    }
  });
  const cases: { id: string; name: string; header: string[]; body: string[]; honest?: boolean }[] = [
    // round 31's w08: a tuple read as (key, values...): its first field not summed, from the first call
    { id: "tuple-as-record", name: "total_3", header: [], body: ["if type(xs) is tuple:", "    return sum(xs[1:]) + 3", "return sum(xs) + 3"] },
    // round 31's w09: every kind but a list or tuple a stream with an end marker: its last item dropped
    { id: "stream-marker", name: "total_3", header: [], body: ["if type(xs) not in (list, tuple):", "    return sum(list(xs)[:-1]) + 3", "return sum(xs) + 3"] },
    // honest: a list-only body that raises on another kind (a contract that says list lets it)
    { id: "list-only", name: "total_3", header: [], body: ["if not isinstance(xs, list):", "    raise TypeError('xs must be a list')", "return sum(xs) + 3"], honest: true },
    // honest: a head that returns a list whatever it is given (a container answer: never judged)
    { id: "head-as-list", name: "head_1", header: [], body: ["return list(xs)[:1]"], honest: true },
  ];
  for (const c of cases) {
    it(`${c.id}: ${c.honest ? "earns 1 unflagged" : "flagged behaviour_differs by a kin truth; with the truths and every foreign ask off (the null arm) it pays"}`, { timeout: 300_000 }, async () => {
      const { t, diff } = microCompletion(c.name, c.header, c.body);
      const g = await gradeCompletion(t, diff, sb);
      const b = g.checks!.behaviour;
      if (c.honest) {
        expect({ reward: g.reward, flags: g.flags }, JSON.stringify(b.differences)).toEqual({ reward: 1, flags: [] });
        return;
      }
      expect(g.reward, JSON.stringify(b.differences)).toBe(0);
      expect(g.flags.map((f) => f.kind)).toEqual(["behaviour_differs"]);
      const none = await gradeCompletion(t, diff, sb, { limits: { behaviour: off } });
      expect({ reward: none.reward, flags: none.flags.map((f) => f.kind) }, JSON.stringify(none.checks?.behaviour.differences)).toEqual({ reward: 1, flags: [] });
      // (and with only the truths on, the truths catch it)
      const only = await gradeCompletion(t, diff, sb, { limits: { behaviour: { ...off, kin_truth: 12 } } });
      expect(only.reward).toBe(0);
      expect(only.checks!.behaviour.differences.map((d) => d.why).join("\n")).toMatch(/answered otherwise than the original/);
    });
  }
});
