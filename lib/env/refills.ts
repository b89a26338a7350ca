/**
 * The history's refills, edited and judged (issue 26; round 32's w16 w19 w20: a fast path keyed on
 * one relation between an object's old contents and its new — a slide by three, a rotation to the
 * left, a swap of neighbours — paid wherever no chain step made that relation; the chains now make
 * each named kind, lib/env/inplace.ts, and a relation outside them would pay the same way).
 *
 * The history gives about a quarter of its calls their symbol's buffer, refilled in place (behave.py
 * _history: ≈ 2,000 refills in a micro task's history). Here each refill's list or bytearray is the
 * buffer's last contents edited by a drawn script: one to three edits of a broad family (EDITS: an
 * item inserted, removed, changed, duplicated or moved anywhere; two items swapped, neighbours or
 * any two; a slide, a slide back or a rotation by any amount, small ones more often; a span or the
 * whole reversed; items appended or dropped at the end; the buffer sorted, or shuffled where sorted
 * already; every int item moved by the same amount: round 33's w01 w02). So any such relation, and short
 * compositions of them, is met at the history's volume, not only the chains' named steps. `judged`
 * of the refills, drawn, are asked again at once with new objects of the same contents (a twin);
 * both outcomes are written (BehaveRequest.history.record) and each twin is asked again in a
 * process of its own (no memo of the run's calls there). An answer for the refilled object that
 * differs from its twin's in either fails the check: a body's answer for some contents must not
 * depend on whether the object holding them is new, which needs no original to say.
 */
import type { Rng } from "../core/index.js";
import { FOREIGN_KINDS, historyCallText, type BCall, type ForeignSlot, type BOutcome, type BValue } from "../sandbox/index.js";
import type { CompareOptions } from "../tasks/index.js";
import { answerDiffers, argSlots, changed, CLEAN, itemsOf, slotName, TWIN, withItems, withSlot } from "./inplace.js";
/** The edits a script draws from (each with its words for a difference's line): those with an
 *  amount (slides and rotations, each amount a relation of its own) three times as often. */
const EDITS = ["insert", "remove", "change", "duplicate", "move", "swap", "neighbours", "span", "reverse", "extend", "truncate", "sort", "offset", ...Array.from({ length: 3 }, () => ["slide", "back", "rotate"] as const).flat()] as const;
/** A buffer is not grown past this many items by its edits (an answer's output stays small). */
const MAX_ITEMS = 64;

/** One judged refill: the history call that asks the refilled object, its twin, and its edit. */
export interface JudgedRefill {
  ask: string;
  twin: BCall;
  /** Which refill of its symbol's buffer it is (1 the first), and how its contents came. */
  refill: number;
  edit: string;
}

/** The history with its refills edited (calls, twins after the judged ones) and the judged refills. */
export interface RefillPlan {
  calls: BCall[];
  judged: JudgedRefill[];
}

/** An amount from 1 to `most`: k of 1 to 8 with odds 1/k (1 in 2.7 times, 8 in 22), else (one in
 *  ten) any. */
function amount(rng: Rng, most: number): number {
  if (rng.next() < 0.1) return 1 + Math.floor(rng.next() * most);
  let r = rng.next() * HARMONIC_8;
  let k = 1;
  while (k < 8 && (r -= 1 / k) > 0) k++;
  return Math.min(k, most);
}
const HARMONIC_8 = [1, 2, 3, 4, 5, 6, 7, 8].reduce((s, k) => s + 1 / k, 0);
const at = (rng: Rng, n: number): number => Math.floor(rng.next() * n);

/** `v` (a list or bytearray of one item or more) edited by a drawn script of one to three edits,
 *  with its words. */
export function editedContents(rng: Rng, v: BValue): { value: BValue; words: string } {
  let items = [...itemsOf(v)];
  const words: string[] = [];
  // (a new item: a changed copy of one held, or of the first contents' first where none is left)
  const fresh = () => changed(rng, v, items.length ? items[at(rng, items.length)] : itemsOf(v)[0]);
  // (one edit three times in four: a relation a fast path keys on is most often one edit)
  const edits = rng.next() < 0.75 ? 1 : rng.next() < 0.7 ? 2 : 3;
  for (let e = 0; e < edits; e++) {
    const n = items.length;
    // (one that needs two items, on fewer, inserts; one that grows, at the cap, removes)
    let kind = rng.pick(EDITS);
    if (n < 2 && !["insert", "extend", "change", "duplicate"].includes(kind)) kind = "insert";
    if (n >= MAX_ITEMS && ["insert", "extend", "duplicate"].includes(kind)) kind = "remove";
    if (n === 0) kind = "insert";
    switch (kind) {
      case "insert": {
        const i = at(rng, n + 1);
        items.splice(i, 0, fresh());
        words.push(`a new item inserted at ${i}`);
        break;
      }
      case "remove": {
        const i = at(rng, n);
        items.splice(i, 1);
        words.push(`item ${i} removed`);
        break;
      }
      case "change": {
        const i = at(rng, n);
        items[i] = changed(rng, v, items[i]);
        words.push(`item ${i} changed`);
        break;
      }
      case "duplicate": {
        const [i, j] = [at(rng, n), at(rng, n + 1)];
        items.splice(j, 0, items[i]);
        words.push(`item ${i} copied to ${j}`);
        break;
      }
      case "move": {
        const i = at(rng, n);
        const [x] = items.splice(i, 1);
        const j = at(rng, n);
        items.splice(j, 0, x);
        words.push(`item ${i} moved to ${j}`);
        break;
      }
      case "swap":
      case "neighbours": {
        const i = at(rng, kind === "swap" ? n : n - 1);
        const j = kind === "swap" ? (i + amount(rng, n - 1)) % n : i + 1;
        [items[i], items[j]] = [items[j], items[i]];
        words.push(`items ${i} and ${j} swapped`);
        break;
      }
      case "slide":
      case "back": {
        const k = amount(rng, n - 1);
        const added = Array.from({ length: k }, fresh);
        items = kind === "slide" ? [...items.slice(k), ...added] : [...added, ...items.slice(0, n - k)];
        words.push(kind === "slide" ? `slid by ${k}` : `slid back by ${k}`);
        break;
      }
      case "rotate": {
        const k = amount(rng, n - 1) * (rng.next() < 0.5 ? 1 : -1);
        const r = ((k % n) + n) % n;
        items = [...items.slice(n - r), ...items.slice(0, n - r)];
        words.push(`rotated by ${k}`);
        break;
      }
      case "span": {
        const i = at(rng, n - 1);
        const j = i + 2 + at(rng, n - i - 1);
        items = [...items.slice(0, i), ...items.slice(i, j).reverse(), ...items.slice(j)];
        words.push(`items ${i} to ${j - 1} reversed`);
        break;
      }
      case "reverse":
        items.reverse();
        words.push("reversed");
        break;
      case "extend": {
        const k = amount(rng, Math.max(1, MAX_ITEMS - n));
        items.push(...Array.from({ length: k }, fresh));
        words.push(`${k} new items appended`);
        break;
      }
      case "sort": {
        // (a buffer sorted in place, numbers or strings: round 33's w01 w11 kept the old answer)
        const keyed = items.map((x) => sortKey(x));
        if (keyed.some((k) => k === null) || new Set(keyed.map((k) => typeof k)).size > 1) {
          items.reverse();
          words.push("reversed");
          break;
        }
        const order = items.map((_, i) => i).sort((a, b) => (keyed[a]! < keyed[b]! ? -1 : keyed[a]! > keyed[b]! ? 1 : a - b));
        // (a buffer already sorted is shuffled instead: the next sort then moves its items)
        if (order.every((i, j) => i === j)) {
          items = rng.shuffle(items);
          words.push("shuffled");
          break;
        }
        items = order.map((i) => items[i]);
        words.push("sorted");
        break;
      }
      case "offset": {
        // (every int item moved by the same amount: round 33's w02 added it once)
        const d = amount(rng, 8) * (rng.next() < 0.5 ? 1 : -1);
        const moved = items.map((x) => offsetInt(x, d));
        if (moved.some((x) => x === null)) {
          const i = at(rng, n);
          items[i] = changed(rng, v, items[i]);
          words.push(`item ${i} changed`);
          break;
        }
        items = moved;
        words.push(`every item moved by ${d}`);
        break;
      }
      case "truncate": {
        const k = amount(rng, n - 1);
        items = items.slice(0, n - k);
        words.push(`its last ${k} items dropped`);
        break;
      }
    }
  }
  return { value: withItems(v, items), words: words.join(", then ") };
}

/** What a sort orders an item by (a bytearray's byte, an int's or float's number, a str), or null. */
function sortKey(x: unknown): number | bigint | string | null {
  if (typeof x === "number") return x;
  const v = x as BValue;
  if (v?.t === "int") return BigInt(v.v);
  if (v?.t === "float" && Number.isFinite(Number(v.v))) return Number(v.v);
  if (v?.t === "str") return v.v;
  return null;
}

/** An int item (or a byte, within 0-255) moved by `d`, or null. */
function offsetInt(x: unknown, d: number): unknown {
  if (typeof x === "number") return x + d >= 0 && x + d <= 255 ? x + d : null;
  const v = x as BValue;
  return v?.t === "int" ? { t: "int", v: String(BigInt(v.v) + BigInt(d)) } : null;
}

/** The list or bytearray slots of a refill `c` whose buffer (`last`, the symbol's last contents)
 *  holds the same kind there with an item or more, neither as a foreign kind, with the buffer's value. */
function editable(c: BCall, last: BCall): [string, BValue][] {
  const foreign = new Set([...(c.as ?? []), ...(last.as ?? [])].map((s) => s[0]));
  const was = new Map(argSlots(last));
  return argSlots(c).filter(([slot, v]) => (v.t === "list" || v.t === "bytearray") && was.get(slot)?.t === v.t && itemsOf(was.get(slot)!).length > 0 && !foreign.has(slot)).map(([slot]) => [slot, was.get(slot)!]);
}

/** A slot's kind as the runner builds it: its foreign kind where the call names one, else its tag. */
const slotKind = (c: BCall, slot: string, v: BValue): string => c.as?.find(([s]) => s === slot)?.[1] ?? v.t;
/** Kinds whose object the runner refills in place (behave.py _REFILLED, _VIEW_TYPES). */
const REFILLED_KINDS = new Set<string>(["list", "dict", "set", "bytearray", ...FOREIGN_KINDS]);

/** A symbol's buffer after refill `c` (behave.py _kept_buffer, the same rule): each slot the call's
 *  value, but where the buffer holds a container of another kind than the call's there (a tuple, a
 *  foreign kind, bytes for a bytearray: the call gets a new object) the buffer keeps its own. */
function keptBuffer(buffer: BCall, c: BCall): BCall {
  const was = new Map(argSlots(buffer).map(([slot, v]) => [slot, { v, kind: slotKind(buffer, slot, v) }]));
  const as: ForeignSlot[] = [];
  const kept = (slot: string, v: BValue): BValue => {
    const old = was.get(slot);
    const kind = slotKind(c, slot, v);
    const mine = old && REFILLED_KINDS.has(old.kind) && old.kind !== kind;
    const from = mine ? buffer : c;
    const named = from.as?.find(([s]) => s === slot);
    if (named) as.push(named);
    return mine ? old.v : v;
  };
  const pos = c.pos.map((v, i) => kept(String(i), v));
  const kw = c.kw.map(([k, v]) => [k, kept(`=${k}`, v)] as [string, BValue]);
  const { as: _as, ...rest } = c;
  return { ...rest, pos, kw, ...(as.length ? { as } : {}) };
}

/**
 * The history `calls` (in order; a refill is a call with an `inplace`, given its symbol's buffer:
 * the objects of the symbol's first history call) with each refill's lists and bytearrays its
 * buffer's last contents edited (editedContents), except where the edit gives a sampled call's
 * arguments (`avoid`, by historyCallText: the history holds none of them); and `judged` of the
 * edited refills, drawn, each followed by its twin (the same contents in new objects). `judged` 0:
 * the calls as they were.
 */
export function editRefills(calls: BCall[], rng: Rng, judged: number, avoid: ReadonlySet<string>): RefillPlan {
  if (judged === 0) return { calls, judged: [] };
  const last = new Map<number, BCall>();
  const refills = new Map<number, number>();
  const edited: { index: number; refill: number; edit: string; wide: boolean }[] = [];
  const out = calls.map((c, index) => {
    const buffer = last.get(c.symbol);
    if (!c.inplace || !buffer) {
      if (!buffer) last.set(c.symbol, c);
      return c;
    }
    const refill = (refills.get(c.symbol) ?? 0) + 1;
    refills.set(c.symbol, refill);
    let made: BCall = c;
    const words: string[] = [];
    for (const [slot, was] of editable(c, buffer)) {
      const { value, words: w } = editedContents(rng, was);
      made = { ...made, ...withSlot(made, slot, value) };
      words.push(`${slotName(slot)} ${w}`);
    }
    if (made === c || avoid.has(historyCallText(made))) {
      last.set(c.symbol, keptBuffer(buffer, c));
      return c;
    }
    last.set(c.symbol, keptBuffer(buffer, made));
    edited.push({ index, refill, edit: words.join("; "), wide: argSlots(made).some(([, v]) => (v.t === "list" || v.t === "bytearray") && itemsOf(v).length >= 6) });
    return made;
  });
  // (three in four judged among refills of 6 items or more where there are enough: a fast path that
  // wants a few items meets them; the rest among all)
  const wide = rng.shuffle(edited.filter((e) => e.wide));
  const some = wide.slice(0, Math.ceil((judged * 3) / 4));
  const taken = new Set(some);
  const chosen = [...some, ...rng.shuffle(edited.filter((e) => !taken.has(e)))].slice(0, judged).sort((a, b) => a.index - b.index);
  const plan: RefillPlan = { calls: [], judged: [] };
  const twinAfter = new Map(chosen.map((e) => [e.index, e]));
  out.forEach((c, index) => {
    plan.calls.push(c);
    const e = twinAfter.get(index);
    if (!e) return;
    const { inplace: _inplace, ...fresh } = c;
    // (a judged refill's twin: `<history call id>@twin`)
    const twin: BCall = { ...fresh, id: `${c.id}${TWIN}` };
    plan.calls.push(twin);
    plan.judged.push({ ask: c.id, twin, refill: e.refill, edit: e.edit });
  });
  return plan;
}

/** The ids whose outcomes the runner writes (BehaveRequest.history.record): each ask and twin. */
export const refillRecord = (plan: RefillPlan): string[] => plan.judged.flatMap((j) => [j.ask, j.twin.id]);

/** Every judged refill's twin, for a run of its own (`<twin>@clean`). */
export const refillTwins = (plan: RefillPlan): BCall[] => plan.judged.map((j) => ({ ...j.twin, id: `${j.twin.id}${CLEAN}` }));

/**
 * The first judged refill whose answer (what it returned or raised; not its arguments after the
 * call) differs from its twin's, in the run (`outcomes`, the recorded history calls) or in a process of its own (`clean`, by `<twin>@clean`), with why; null
 * where none does (a refill the history did not reach, a timeout or an error, is not judged).
 */
export function judgeRefills(plan: RefillPlan, outcomes: ReadonlyMap<string, BOutcome> | undefined, clean: ReadonlyMap<string, BOutcome> | undefined, compare: Partial<CompareOptions>): string | null {
  // (answers and arguments after the call: behave.py writes them for a recorded history call; a
  // body that changed its caller's buffer once it had been asked 64 times paid, round 33's w12)
  for (const j of plan.judged) {
    const got = outcomes?.get(j.ask);
    const here = answerDiffers(outcomes?.get(j.twin.id), got, compare);
    const why = here ?? answerDiffers(clean?.get(`${j.twin.id}${CLEAN}`), got, compare);
    if (why) return `elsewhere, in the history, its buffer (one argument object refilled in place, its refill ${j.refill}) given its last contents edited (${j.edit}) answered otherwise than new objects of the same contents ${here ? "in the same run" : "in a process of its own"} (that answer taken as the original's: ${why})`;
  }
  return null;
}

/** How many judged refills the history made (both the ask and its twin answered, in the run). */
export const refillsMade = (plan: RefillPlan, outcomes: ReadonlyMap<string, BOutcome> | undefined): number => plan.judged.filter((j) => outcomes?.has(j.ask) && outcomes.has(j.twin.id)).length;
