/**
 * Kin asks: a sampled call with one argument given as its kin kind (a tuple where it had a list, a
 * frozenset for a set, bytes for a bytearray, and back; a list also as a foreign kind: a deque or a
 * keys view), asked before the run elsewhere's history and
 * again after it. The oracle holds no answer for the kin kind, so the two answers are judged against
 * each other: the same input must get the same answer before and after thousands of other calls.
 *
 * Why (issue 26, round 30's w10): the history gives an eighth of its new arguments as their kin kind
 * (behaviour.ts kinOf), which advanced a counter of tuples, but its answers are dropped; a body that
 * turned wrong on tuples only, after 30 of them, was never judged on one.
 */
import { Rng } from "../core/index.js";
import { FOREIGN_KINDS, type BCall, type BOutcome, type BValue, type ForeignKind } from "../sandbox/index.js";
import type { CompareOptions } from "../tasks/index.js";
import { answerDiffers, argSlots, slotName, withSlot } from "./inplace.js";

/** Each argument kind's kin: the same items in the other container of the pair. */
export const KIN_OF: Partial<Record<BValue["t"], BValue["t"]>> = { list: "tuple", tuple: "list", set: "frozenset", frozenset: "set", bytes: "bytearray", bytearray: "bytes" };

/** The suffixes of a kin ask (`<base>@kin`) and its second ask after the history (`<base>@kin@again`). */
const KIN = "@kin";
const AGAIN = "@again";
/** A kin ask's base: only calls that took at most this long in the graded run. */
const KIN_MAX_MS = 50;

/** A call's slots (a position, or `=name`) holding a list or a tuple: those a foreign kind can be
 *  built from (lib/sandbox/behave.ts FOREIGN_KINDS). */
export const foreignSlots = (c: Pick<BCall, "pos" | "kw">): string[] => argSlots(c).filter(([, v]) => v.t === "list" || v.t === "tuple").map(([slot]) => slot);

export interface KinAsk {
  base: string;
  /** The argument given as its kin: a position, or `=name`. */
  slot: string;
  from: BValue["t"];
  /** Its kin kind, or a foreign kind (a list's deque or keys view: BCall.as). */
  to: BValue["t"] | ForeignKind;
}

export interface KinPlan {
  asks: KinAsk[];
  /** Each call with the index of the planned run's call it comes before. */
  inserts: { before: number; call: BCall }[];
}

/**
 * Up to `count` kin asks over the sampled calls (`sampled`, in the run's order), one a symbol first,
 * drawn from `seed`: each first asked at a drawn place in `[0, early]` (before the history's first
 * block) and again in `[late, n]` (after its second).
 */
export function kinAsks(sampled: BCall[], early: number, late: number, n: number, count: number, seed: number, msOf: (id: string) => number): KinPlan {
  const plan: KinPlan = { asks: [], inserts: [] };
  if (count === 0) return plan;
  const rng = new Rng(seed);
  const slotOf = (c: BCall): [string, BValue] | undefined => {
    const slots = argSlots(c).filter(([, v]) => KIN_OF[v.t]);
    return slots.length ? rng.pick(slots) : undefined;
  };
  const fit = rng.shuffle(sampled.filter((c) => msOf(c.id) <= KIN_MAX_MS));
  const symbolsMet = new Set<number>();
  // (one a symbol first, then the rest in the drawn order)
  const ordered = [...fit.filter((c) => !symbolsMet.has(c.symbol) && symbolsMet.add(c.symbol)), ...fit];
  const taken = new Set<string>();
  for (const c of ordered) {
    if (plan.asks.length >= count) break;
    if (taken.has(c.id)) continue;
    const slot = slotOf(c);
    if (!slot) continue;
    taken.add(c.id);
    const [at, v] = slot;
    // (a list or tuple as its kin, or as a foreign kind, alike often)
    const foreign = v.t === "list" || v.t === "tuple" ? rng.pick([null, ...FOREIGN_KINDS]) : null;
    const to = foreign ?? KIN_OF[v.t]!;
    const kin = foreign ? v : ({ ...v, t: to } as BValue);
    const call: BCall = { id: `${c.id}${KIN}`, ...withSlot(c, at, kin), ...(foreign ? { as: [[at, foreign]] as [string, ForeignKind][] } : {}) };
    plan.asks.push({ base: c.id, slot: at, from: v.t, to });
    plan.inserts.push({ before: Math.floor(rng.next() * (early + 1)), call }, { before: late + Math.floor(rng.next() * (n - late + 1)), call: { ...call, id: `${call.id}${AGAIN}` } });
  }
  return plan;
}

/**
 * The kin asks judged on a run's first outcomes (their calls removed from `outcomes`): each whose two
 * answers differ (both returned or raised), by base call id, with why; `made` is the history's calls.
 */
export function judgeKin(plan: KinPlan, outcomes: Map<string, BOutcome>, compare: Partial<CompareOptions>, made: number): Map<string, string> {
  const misses = new Map<string, string>();
  for (const a of plan.asks) {
    const why = answerDiffers(outcomes.get(`${a.base}${KIN}`), outcomes.get(`${a.base}${KIN}${AGAIN}`), compare);
    if (why) misses.set(a.base, `elsewhere, given its ${a.from} (at ${slotName(a.slot)}) as a ${a.to} of the same items, it answered otherwise after a history of ${made} calls of other inputs than before it (the answer before taken as the original's: ${why})`);
  }
  for (const id of [...outcomes.keys()]) if (id.includes(KIN)) outcomes.delete(id);
  return misses;
}
