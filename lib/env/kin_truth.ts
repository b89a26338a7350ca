/**
 * Kin truths: the original's own answers for kinds the oracle never holds (issue 26, round 31's
 * w08 w09: a tuple treated as `(key, values...)`, a deque's last item dropped, each from its first
 * call). The kin asks (kin.ts) judge a body against itself, before the history and after it, so a
 * body wrong on a kind from the first call agrees with itself; no oracle answer existed for it.
 *
 * Here, once a task (per grader key and oracle: original.ts), some of the oracle's calls that hold a list or
 * tuple are made with it as another kind (its kin: a tuple for a list, a list for a tuple; a
 * deque; a full ring; a dict's keys view) by the ORIGINAL (the task's snapshot with its golden diff,
 * in the same sandbox and masks), beside the calls themselves. A variant is kept where the original
 * answers it as it answers the call itself, with a plain scalar (a number, a string, a bool, None,
 * bytes): its answer does not depend on the kind. The run elsewhere then asks the body each kept
 * variant, and one that returns otherwise than the original fails the check. A body that raises
 * on a kind is not judged (a contract that says "list" lets it), and a container answer is never
 * judged (a head of a tuple as a list is honest by a docstring that says list).
 */
import { z } from "zod";
import type { Rng } from "../core/index.js";
import { BCall, BOutcome, type BValue, type ForeignSlot } from "../sandbox/index.js";
import { sameOutcome, type CompareOptions, type Oracle, type OracleCall } from "../tasks/index.js";
import { argsChars, argSlots, withSlot } from "./inplace.js";

/** A variant's suffix: `<oracle call id>@truth<j>`. */
export const TRUTH = "@truth";
/** The ways a variant holds its list or tuple (KIN: the other of the two). */
const WAYS = ["kin", "deque", "ring", "keys"] as const;
type Way = (typeof WAYS)[number];
const WAY_WORDS: Record<Way, string> = { kin: "as its kin", deque: "as a deque", ring: "as a full ring (a deque with a maxlen)", keys: "as a dict's keys view" };
/** Variants made of each base call. */
const PER_CALL = 2;
/** Scalars: the answers the truths judge (their value does not depend on a container's kind), and
 *  the items a keys view can hold (hashable by their kind). */
const SCALAR = new Set<BValue["t"]>(["int", "float", "str", "bool", "none", "bytes"]);

export const KinTruth = z.object({
  /** The variants the body is asked (each `<base>@truth<j>`), and the original's answer for each. */
  calls: z.array(BCall),
  expect: z.record(BOutcome),
  /** How each variant holds its slot (a difference's words), by id. */
  ways: z.record(z.string()),
  /** Why none could be made (the original's run failed, no call holds a list or tuple). */
  why: z.string().optional(),
});
export type KinTruth = z.infer<typeof KinTruth>;

/** The variants of `base` (an oracle call whose original returned a scalar), drawn from `rng`. */
function variantsOf(base: OracleCall, rng: Rng): { call: BCall; way: Way }[] {
  const slots = argSlots(base).filter(([, v]) => (v.t === "list" || v.t === "tuple") && v.v.length > 0);
  if (!slots.length) return [];
  const [slot, v] = rng.pick(slots) as [string, { t: "list" | "tuple"; v: BValue[] }];
  const hashable = v.v.every((x) => SCALAR.has(x.t));
  const ways = rng.shuffle(WAYS.filter((w) => w !== "keys" || hashable)).slice(0, PER_CALL);
  return ways.map((way, j) => {
    const as: ForeignSlot[] | undefined = way === "kin" ? undefined : way === "ring" ? [[slot, "deque", v.v.length]] : [[slot, way]];
    const value: BValue = way === "kin" ? { t: v.t === "list" ? "tuple" : "list", v: v.v } : v;
    return { call: { id: `${base.id}${TRUTH}${j}`, ...withSlot(base, slot, value), ...(as ? { as } : {}) }, way };
  });
}

/**
 * The kin truths to make of `oracle`: up to `count` of its calls (one a symbol first, the smallest
 * first; the original returned a scalar), PER_CALL variants each, drawn from `rng`. The original
 * answers the bases and the variants (original.ts, once a task); keptTruths keeps those it answers
 * as the call itself. `count` 0: none.
 */
export function truthCalls(oracle: Oracle, rng: Rng, count: number): { bases: OracleCall[]; variants: { call: BCall; way: Way }[] } {
  if (count === 0) return { bases: [], variants: [] };
  const fit = oracle.calls.filter((c) => c.expect.k === "return" && SCALAR.has(c.expect.ret.t) && argSlots(c).some(([, v]) => (v.t === "list" || v.t === "tuple") && v.v.length > 0));
  const size = new Map(fit.map((c) => [c, argsChars(c)]));
  const bySize = [...fit].sort((a, b) => size.get(a)! - size.get(b)!);
  // (drawn among the smallest half, one a symbol first)
  const pool = rng.shuffle(bySize.slice(0, Math.max(count, Math.ceil(bySize.length / 2))));
  const symbolsMet = new Set<number>();
  const bases = [...new Set([...pool.filter((c) => !symbolsMet.has(c.symbol) && symbolsMet.add(c.symbol)), ...pool])].slice(0, count);
  return { bases, variants: bases.flatMap((b) => variantsOf(b, rng)) };
}

/** The truths of `drawn` (truthCalls) given the original's first answers (`got`): each variant the
 *  original answers as it answers its base call (as the oracle says), with a scalar. */
export function keptTruths(drawn: ReturnType<typeof truthCalls>, got: (id: string) => BOutcome | undefined, compare: Partial<CompareOptions>): KinTruth {
  if (!drawn.variants.length) return { calls: [], expect: {}, ways: {}, why: "no call of the oracle holds a list or tuple and returns a scalar" };
  const noMutations = { ...compare, mutations: false };
  const kept = drawn.variants.filter(({ call }) => {
    const base = drawn.bases.find((b) => call.id.startsWith(`${b.id}${TRUTH}`))!;
    const [mine, its] = [got(base.id), got(call.id)];
    // (the solved tree answers the call as the oracle says, and its variant alike, a scalar)
    return mine?.k === "return" && its?.k === "return" && SCALAR.has(its.ret.t) && sameOutcome(base.expect, mine, noMutations).ok && sameOutcome(mine, its, noMutations).ok;
  });
  return { calls: kept.map((v) => v.call), expect: Object.fromEntries(kept.map((v) => [v.call.id, got(v.call.id)!])), ways: Object.fromEntries(kept.map((v) => [v.call.id, WAY_WORDS[v.way]])) };
}

/** The truths judged on a run's first outcomes (their calls removed from `outcomes`): each variant
 *  the body returned otherwise than the original did, by base call id, with why. */
export function judgeTruth(truth: KinTruth, outcomes: Map<string, BOutcome>, compare: Partial<CompareOptions>): Map<string, string> {
  const misses = new Map<string, string>();
  for (const c of truth.calls) {
    const got = outcomes.get(c.id);
    const base = c.id.slice(0, c.id.lastIndexOf(TRUTH));
    if (got?.k !== "return" || misses.has(base)) continue;
    const r = sameOutcome(truth.expect[c.id]!, got, { ...compare, mutations: false });
    if (!r.ok) misses.set(base, `elsewhere, given its list or tuple ${truth.ways[c.id]} (a kind the tests never pass, which the original answers as it answers the call itself), it answered otherwise than the original: ${r.why}`);
  }
  for (const id of [...outcomes.keys()]) if (id.includes(TRUTH)) outcomes.delete(id);
  return misses;
}
