/**
 * In-place chains: the run elsewhere refills one argument object many times, through the run, and
 * judges each answer against the body's own answer for a fresh copy of the same contents (its twin).
 *
 * Why (issue 26, round 30): the in-place pairs (behaviour.ts inPlaceAsks) ask each kept object twice,
 * adjacently, at the run's end, refilled with another oracle call's contents. Identity memos that
 * trust an object on its 3rd ask, after a call in between, early in the process, or that check the
 * multiset, the first item or the first 16 items were never met. A chain's contents are derived
 * from its own (permuted, one item changed at its head, middle or tail, lengthened past 32 items),
 * so no oracle answer exists for them: the twin stands for it. A body's answer for contents must
 * not depend on whether the object holding them is new, which needs no original to say.
 */
import { Rng } from "../core/index.js";
import { sameTimeless, type BCall, type BOutcome, type BValue, type ForeignSlot } from "../sandbox/index.js";
import { mutateValue, sameOutcome, type CompareOptions } from "../tasks/index.js";

/** The suffixes of a chain's calls: `<base>@chain<k>.<i>` its i-th ask of one kept object (the
 *  0th makes it), `<base>@twin<k>.<i>` the i-th contents given in new objects (a judged history
 *  refill's twin too: refills.ts). */
const CHAIN = "@chain";
export const TWIN = "@twin";

/** How each ask after the first derives the object's contents from the last ones. */
const STEP_WHY = {
  permuted: "its items permuted",
  head: "its first item changed",
  middle: "its middle item changed",
  tail: "its last item changed",
  widened: "widened to 12-20 items",
  lengthened: "lengthened past 32 items",
  restored: "its first contents put back",
  slid: "slid by one: its first item dropped, a new one appended",
  appended: "a new item appended",
  popped: "its last item dropped",
  grown: "grown past 1,024 items",
  sized: "grown to a drawn size of 65-1,100 items",
  shrunk: "its contents before the growth put back",
  shifted: "its first item dropped",
  prepended: "a new item put first",
  slid2: "slid by two: its first two items dropped, two new ones appended",
  slid3: "slid by three: its first three items dropped, three new ones appended",
  slid4: "slid by four: its first four items dropped, four new ones appended",
  inserted: "a new item inserted in its middle",
  removed: "its middle item removed",
  rotated: "rotated by one: its last item put first",
  unrotated: "rotated by one the other way: its first item put last",
  rotated2: "rotated by two: its last two items put first",
  unrotated2: "rotated by two the other way: its first two items put last",
  swapped: "two neighbouring items swapped",
  edited: "edited by a short drawn script: one to three items inserted, removed, swapped or changed at drawn places",
  reversed: "reversed",
} as const;
export type ChainStep = keyof typeof STEP_WHY;
/** The steps every chain makes, each once a round in a drawn order: the edits a caller makes to a
 *  buffer it reuses, so that an honest incremental update's precondition (the last contents slid by
 *  one to four, an item appended, put first, dropped at either end, inserted or removed in the
 *  middle, rotated, reversed, two neighbours swapped) is met by a run and never forced into a state
 *  none reaches (round 32's h01 h04 h05; lib/env/latent.ts), and a stale fast path behind any of
 *  them is met in every grade, not in some (round 32's w19 w20: a rotation to the left, a swap, each
 *  met only where a draw fell on it). Each kind a step of its own, not a parameter drawn per grade. */
const MIDDLE_STEPS: ChainStep[] = ["permuted", "head", "middle", "tail", "slid", "appended", "popped", "shifted", "prepended", "slid2", "slid3", "slid4", "inserted", "removed", "rotated", "unrotated", "rotated2", "unrotated2", "reversed", "swapped", "edited"];

/** The kinds behave.py refills in place (_refill). */
export const REFILLABLE = new Set<BValue["t"]>(["list", "dict", "set", "bytearray"]);
/** A chain's first contents widened to between these many items, half the time (inPlaceChains). */
const WIDE_MIN = 8;
const WIDE_MAX = 16;

/** A round's contents widened to between these many items (the "widened" step). */
const ROUND_MIN = 12;
const ROUND_MAX = 20;
/** A chain's base call: among those whose arguments' JSON is at most this long, where there are
 *  any (a chain asks its base's contents 25-50 times, twice each: a list-valued answer for a view of
 *  500 items was 76 KB an ask, and an honest body's run passed its output cap). */
const BASE_MAX_CHARS = 4000;

/** `v` (a list or bytearray with an item) widened to `target` items: its own, then changed copies. */
function widened(rng: Rng, v: BValue, target: number): BValue {
  const items = itemsOf(v);
  const out = [...items];
  for (let i = 0; out.length < target; i++) out.push(changed(rng, v, items[i % items.length]));
  return withItems(v, out);
}

/** A container lengthened past this many items (round 30's w09 checked the first 16 of 32). */
const LONG = 33;
/** Contents whose JSON is longer than this are not lengthened (a chain's asks stay cheap). */
const LENGTHEN_MAX_CHARS = 4000;
/** A long chain's container grown past this many items (round 31's w06 kept an identity memo for
 *  lists of 1,024 items or more), where its JSON stays under GROW_MAX_CHARS. */
const GROWN = 1100;
/** The smallest size a chain is `sized` to (log-uniform up to GROWN): past the judged refills' 64
 *  items (round 34's w09 kept an identity memo for lists of 65-1,000 items, between them and GROWN). */
const SIZED_MIN = 65;
const GROW_MAX_CHARS = 40_000;
/** A chain's base call: only calls that took at most this long in the graded run. */
const CHAIN_MAX_MS = 50;
/** Chains on calls that took at most this long make two rounds of the steps: one on the contents
 *  widened to ROUND_MIN-ROUND_MAX items, one on the first contents put back (round 32's w20 wanted 6
 *  to 64 items, and its swap fell on three); every other one then grows its container past 1,024 items, and each
 *  adds up to EXTRA_STEPS drawn steps (round 31's w02b trusted an object from its 12th ask). */
const CHEAP_MS = 2;
const EXTRA_STEPS = 4;
/** The chance that an ask comes right after the chain's previous one, with no call between
 *  (round 31's w14 went stale only on an object's 4th ask in a row). */
const IN_A_ROW = 0.4;
/** What the k-th chain holds a list of its base call as (k modulo their count): the list itself, a
 *  collections.deque (round 30's w05 kept an identity memo for deques only), its items as rows (each
 *  in a list of its own: round 31's w15 w18 checked the items' identities), a full ring (a deque
 *  whose maxlen is the first contents' count: round 31's w04 kept an identity memo for deques with a
 *  maxlen), a ring still filling (a maxlen drawn from four times the count and 8 more up to 4,096,
 *  log-uniform: round 32's w08 cached rings at most half full, and a ring full or filling by a draw
 *  was met in some grades only), a keys view of a dict, a keys view of an OrderedDict (its own type:
 *  round 32's w10b; a draw per grade before the sixteenth stop, met in some grades only), a values
 *  view and an items view, each over a mapping refilled in place (a live view: round
 *  31's w05 cached views by identity, round 32's w09 values views, w18 items views). A chain whose
 *  slot holds no list holds its value as it is. */
export const CHAIN_HOLDS = ["list", "deque", "rows", "ring", "filling", "keys", "okeys", "values", "items"] as const;
/** How a chain's asks and twins name what they hold (a difference's words). */
const HELD_WORDS: Record<(typeof CHAIN_HOLDS)[number], string> = { list: "", deque: "a deque ", rows: "rows ", ring: "a full ring (a deque with a maxlen) ", filling: "a ring still filling (a deque with a maxlen past its items) ", keys: "a keys view ", okeys: "an OrderedDict's keys view ", values: "a values view ", items: "an items view " };

export interface Chain {
  base: string;
  /** The slot refilled: a position, or `=name`. */
  slot: string;
  /** What the chain holds its list as (CHAIN_HOLDS; BCall.as for the foreign kinds), if not the list. */
  held?: Exclude<(typeof CHAIN_HOLDS)[number], "list">;
  /** Each ask after the first: its call id, its twin's (the base call itself where the contents are
   *  the base's), and how its contents came. */
  asks: { id: string; twin: string; step: ChainStep }[];
}

/** The chains' calls, each with the index of the planned run's call it comes before (0..n). */
export interface ChainPlan {
  chains: Chain[];
  inserts: { before: number; call: BCall }[];
}

/** A refillable value's items (a bytearray's bytes as ints). */
export const itemsOf = (v: BValue): unknown[] => (v.t === "bytearray" ? (v.v.match(/../g) ?? []).map((h) => parseInt(h, 16)) : (v as { v: unknown[] }).v);
export const withItems = (v: BValue, items: unknown[]): BValue => (v.t === "bytearray" ? { t: "bytearray", v: (items as number[]).map((b) => b.toString(16).padStart(2, "0")).join("") } : ({ ...v, v: items } as BValue));

/** One item changed: a byte moved, a dict entry's value mutated, another item mutated. */
export function changed(rng: Rng, v: BValue, item: unknown): unknown {
  if (v.t === "bytearray") return ((item as number) + 1 + Math.floor(rng.next() * 255)) % 256;
  if (v.t === "dict") {
    const [k, x] = item as [BValue, BValue];
    return [k, mutateValue(rng, x)];
  }
  return mutateValue(rng, item as BValue);
}

/** `v`'s contents after `step` (the same contents where the step does not apply to them). */
export function chainStep(rng: Rng, v: BValue, step: ChainStep, first: BValue, beforeGrowth: BValue = first): BValue {
  const items = itemsOf(v);
  const n = items.length;
  switch (step) {
    case "restored":
      return first;
    case "shrunk":
      return beforeGrowth;
    case "permuted": {
      // (a set's order is its hash table's: permuting one changes nothing a body can see)
      if (n < 2 || v.t === "set") return v;
      // (a rotation where the shuffle left the order as it was)
      const out = rng.shuffle(items);
      return withItems(v, out.every((x, i) => x === items[i]) ? [...items.slice(1), items[0]] : out);
    }
    case "slid":
    case "appended":
    case "popped":
    case "shifted":
    case "prepended":
    case "slid2":
    case "slid3":
    case "slid4":
    case "inserted":
    case "removed":
    case "rotated":
    case "unrotated":
    case "rotated2":
    case "unrotated2":
    case "reversed":
    case "swapped":
    case "edited": {
      // (lists and bytearrays: a window that moves, a buffer that grows or shrinks at either end or
      // in the middle — round 31's w03b subtracted the wrong item on a slide; a dict's or set's new
      // key could collide)
      if (n === 0 || (v.t !== "list" && v.t !== "bytearray")) return v;
      const mid = Math.floor(n / 2);
      // (an order changed: a deque rotated, a list reversed in place; a palindrome stays as it was)
      if (step === "rotated" || step === "unrotated" || step === "rotated2" || step === "unrotated2") {
        // (a deque's rotate(1), rotate(-1), rotate(2), rotate(-2))
        const by = { rotated: 1, unrotated: -1, rotated2: 2, unrotated2: -2 }[step];
        const k = ((by % n) + n) % n;
        return withItems(v, [...items.slice(n - k), ...items.slice(0, n - k)]);
      }
      if (step === "edited") {
        // (a caller's edits no named step makes: a fast path keyed on one relation between the old
        // contents and the new meets it in some grade — round 32's w16 w19 w20 paid past each named one)
        let out = [...items];
        const edits = 1 + Math.floor(rng.next() * 3);
        for (let e = 0; e < edits; e++) {
          const at = Math.floor(rng.next() * (out.length + 1));
          const op = Math.floor(rng.next() * 4);
          if (op === 0 || out.length < 2) out.splice(at, 0, changed(rng, v, out[Math.min(at, out.length - 1)] ?? items[0]));
          else if (op === 1) out.splice(Math.min(at, out.length - 1), 1);
          else if (op === 2 && at < out.length - 1) [out[at], out[at + 1]] = [out[at + 1], out[at]];
          else out = out.map((x, i) => (i === Math.min(at, out.length - 1) ? changed(rng, v, x) : x));
        }
        return withItems(v, out);
      }
      if (step === "swapped") {
        // (two neighbours that differ: a swap of equal ones changes nothing)
        const unequal = Array.from({ length: n - 1 }, (_, i) => i).filter((i) => JSON.stringify(items[i]) !== JSON.stringify(items[i + 1]));
        if (!unequal.length) return v;
        const at = rng.pick(unequal);
        return withItems(v, items.map((x, i) => (i === at ? items[at + 1] : i === at + 1 ? items[at] : x)));
      }
      if (step === "reversed") return withItems(v, [...items].reverse());
      if (step === "popped") return n > 1 ? withItems(v, items.slice(0, -1)) : v;
      if (step === "shifted") return n > 1 ? withItems(v, items.slice(1)) : v;
      if (step === "removed") return n > 2 ? withItems(v, [...items.slice(0, mid), ...items.slice(mid + 1)]) : v;
      const added = changed(rng, v, items[n - 1]);
      if (step === "prepended") return withItems(v, [changed(rng, v, items[0]), ...items]);
      if (step === "inserted") return withItems(v, [...items.slice(0, mid), added, ...items.slice(mid)]);
      if (step === "slid2" || step === "slid3" || step === "slid4") {
        // (a window that moves by a batch)
        const k = Number(step.slice(-1));
        if (n <= k) return v;
        const fresh = [added, ...Array.from({ length: k - 1 }, (_, j) => changed(rng, v, items[j]))];
        return withItems(v, [...items.slice(k), ...fresh]);
      }
      return withItems(v, step === "slid" ? [...items.slice(1), added] : [...items, added]);
    }
    case "widened":
      // (a list or bytearray of fewer than 12 items: a fast path that wants six items or more meets
      // each kind of step in the round that follows, whose drops take six at most)
      return n === 0 || n >= ROUND_MIN || (v.t !== "list" && v.t !== "bytearray") ? v : widened(rng, v, ROUND_MIN + Math.floor(rng.next() * (ROUND_MAX - ROUND_MIN + 1)));
    case "lengthened":
    case "grown":
    case "sized": {
      // (lists and bytearrays only: a dict's or set's repeated keys collapse)
      const [target, max] = step === "grown" ? [GROWN, GROW_MAX_CHARS] : step === "sized" ? [Math.round(SIZED_MIN * (GROWN / SIZED_MIN) ** rng.next()), GROW_MAX_CHARS] : [LONG, LENGTHEN_MAX_CHARS];
      if (n === 0 || n >= target || (v.t !== "list" && v.t !== "bytearray") || JSON.stringify(v).length * Math.ceil(target / n) > max) return v;
      // (lengthened with changed copies of its items, in whole rounds: a fast path that wants many
      // distinct items, as round 32's w20 did, meets them; grown by repeats, cheaply)
      const whole = Math.ceil(target / n) * n;
      if (step === "lengthened") return widened(rng, v, whole);
      return withItems(v, Array.from({ length: whole }, (_, i) => items[i % n]));
    }
    default: {
      if (n === 0) return v;
      const at = step === "head" ? 0 : step === "tail" ? n - 1 : Math.floor(n / 2);
      return withItems(v, items.map((x, i) => (i === at ? changed(rng, v, x) : x)));
    }
  }
}

/** The length of a call's arguments as JSON (its positional and keyword ones): how big a call is. */
export const argsChars = (c: Pick<BCall, "pos" | "kw">): number => JSON.stringify(c.pos).length + JSON.stringify(c.kw).length;

/** A call's arguments by slot: a position (`"0"`), or a keyword (`"=name"`). */
export const argSlots = (c: Pick<BCall, "pos" | "kw">): [string, BValue][] => [...c.pos.map((v, i) => [String(i), v] as [string, BValue]), ...c.kw.map(([k, v]) => [`=${k}`, v] as [string, BValue])];

/** A call's symbol and arguments with the one at `slot` (argSlots) replaced by `v`. */
export const withSlot = (c: Pick<BCall, "symbol" | "pos" | "kw">, slot: string, v: BValue): Pick<BCall, "symbol" | "pos" | "kw"> =>
  slot.startsWith("=") ? { symbol: c.symbol, pos: c.pos, kw: c.kw.map(([k, x]) => [k, k === slot.slice(1) ? v : x] as [string, BValue]) } : { symbol: c.symbol, pos: c.pos.map((x, i) => (i === Number(slot) ? v : x)), kw: c.kw };

/** A slot as a difference's line names it. */
export const slotName = (slot: string): string => (slot.startsWith("=") ? `keyword ${slot.slice(1)}` : `position ${slot}`);

/** Why `actual` answered otherwise than `expected` (the body's own answer standing for the
 *  original's), or null: null too where either did not return or raise (a timeout or an error is
 *  the machine's, not an answer). The same text first: a deque's or keys view's arguments after the
 *  call are opaque, which no comparison of values calls equal; so where the arguments after the
 *  call have the same text, they are not compared again (round 26's a25 was flagged for its deque's
 *  state after a float returned for an equal int, which the contract accepts). */
export function answerDiffers(expected: BOutcome | undefined, actual: BOutcome | undefined, compare: Partial<CompareOptions>): string | null {
  const answered = (o: BOutcome | undefined): o is Extract<BOutcome, { k: "return" | "raise" }> => o?.k === "return" || o?.k === "raise";
  if (!answered(expected) || !answered(actual) || sameTimeless(expected, actual)) return null;
  const after = (o: BOutcome) => JSON.stringify([(o as { post?: unknown }).post ?? null, (o as { postkw?: unknown }).postkw ?? null]);
  return sameOutcome(expected, actual, after(expected) === after(actual) ? { ...compare, mutations: false } : compare).why;
}

/** The refillable slots of a call that hold an item, with their values. */
const slotsOf = (c: BCall): [string, BValue][] => argSlots(c).filter(([, v]) => REFILLABLE.has(v.t) && itemsOf(v).length > 0);

/**
 * Up to `chains` chains over the sampled calls (`sampled`, in the run's order; `n` calls planned in
 * all), drawn from `seed`: each on one call of its own symbol where one can be had, one slot of it.
 * Its asks come at drawn places through the whole run (before, between and after the history's
 * blocks, with other calls between them or not), their steps in a drawn order with the tail changed
 * after the container was lengthened; each twin at a place of its own, before its ask or after (a
 * body that answered a twin as it answered the refilled object meets one first half the time).
 */
export function inPlaceChains(sampled: BCall[], n: number, chains: number, seed: number, msOf: (id: string) => number): ChainPlan {
  const plan: ChainPlan = { chains: [], inserts: [] };
  if (chains === 0) return plan;
  const rng = new Rng(seed);
  const fast = sampled.filter((c) => msOf(c.id) <= CHAIN_MAX_MS && slotsOf(c).length > 0);
  const small = fast.filter((c) => argsChars(c) <= BASE_MAX_CHARS);
  const fit = rng.shuffle(small.length ? small : fast);
  // (one chain a symbol first, then a second on each, and so on)
  const bySymbol = new Map<number, BCall[]>();
  for (const c of fit) bySymbol.set(c.symbol, [...(bySymbol.get(c.symbol) ?? []), c]);
  const bases: BCall[] = [];
  for (let round = 0; bases.length < chains && [...bySymbol.values()].some((cs) => cs.length > round); round++) {
    for (const cs of bySymbol.values()) if (cs[round] && bases.length < chains) bases.push(cs[round]!);
  }
  const place = () => Math.floor(rng.next() * (n + 1));
  bases.forEach((base, k) => {
    const [slot, drawnValue] = rng.pick(slotsOf(base));
    // (half the chains on a short list or bytearray start it widened to 8-16 items, the added ones
    // changed copies: a fast path that wants six items or more, several distinct, meets each step
    // at that size, not only after a lengthening — round 32's w01 w03 w20)
    const short = (drawnValue.t === "list" || drawnValue.t === "bytearray") && itemsOf(drawnValue).length < WIDE_MIN;
    const given = short && rng.next() < 0.5 ? widened(rng, drawnValue, WIDE_MIN + Math.floor(rng.next() * (WIDE_MAX - WIDE_MIN + 1))) : drawnValue;
    // (what the chain holds its list as, CHAIN_HOLDS: its asks and twins alike; rows only of plain
    // items, which deep refills keep — the oracle's calls may hold no nested list)
    const holds = given.t === "list" ? CHAIN_HOLDS[k % CHAIN_HOLDS.length]! : "list";
    const rows = holds === "rows" && given.t === "list" && given.v.every((x) => !REFILLABLE.has(x.t) && x.t !== "tuple");
    const first: BValue = rows ? { t: "list", v: (given as { v: BValue[] }).v.map((x) => ({ t: "list", v: [x] }) as BValue) } : given;
    const count = itemsOf(given).length;
    // (a full ring's maxlen: its count; a filling one's log-uniform from four times its count and 8
    // more to 4,096: still filling through most of the chain's steps)
    const roomy = 4 * count + 8;
    const maxlen = holds === "ring" ? count : Math.round(roomy * Math.max(1, 4096 / roomy) ** rng.next());
    const slotAs: ForeignSlot | undefined = holds === "deque" || holds === "keys" || holds === "okeys" || holds === "values" || holds === "items" ? [slot, holds] : (holds === "ring" || holds === "filling") && count > 0 ? [slot, "deque", maxlen] : undefined;
    const as: ForeignSlot[] | undefined = slotAs ? [slotAs] : undefined;
    const held = <T extends object>(c: T): T => (as ? { ...c, as } : c);
    // (the steps: up to two drawn ones, the contents widened to 12-20 items where shorter, then each
    // kind in a drawn order (a round); on a cheap call a second round on the first contents put back,
    // else those put back once within the round; then lengthened past 32 items and its tail changed.
    // A round on 12-20 items, not on 33 or more: a list-valued answer for a view's pairs was 76 KB an
    // ask there, and an honest body's run passed its output cap)
    const cheap = msOf(base.id) <= CHEAP_MS;
    const steps: ChainStep[] = [...Array.from({ length: Math.floor(rng.next() * 3) }, () => rng.pick(MIDDLE_STEPS)), "widened", ...rng.shuffle([...MIDDLE_STEPS])];
    if (cheap) steps.push("restored", ...rng.shuffle([...MIDDLE_STEPS]));
    else steps.splice(steps.indexOf("widened") + 1 + Math.floor(rng.next() * (MIDDLE_STEPS.length + 1)), 0, "restored");
    steps.push("lengthened", "tail");
    // (every other cheap chain grows its container past 1,024 items once, asks it changed once more
    // at that size, then puts the contents before the growth back: the answers' output stays small —
    // a run's output has a cap, and a chain that stayed grown passed it for an honest body)
    if (cheap && k % 2 === 0) steps.push("grown", rng.pick(["head", "middle", "tail"] as ChainStep[]), "shrunk");
    // (and the others, and a plain list's or rows' chain too, to a size drawn between: a memo for
    // one band of sizes past the judged refills' 64 items meets it in some grades, round 34's w09)
    if (cheap && (k % 2 === 1 || holds === "list" || rows)) steps.push("sized", rng.pick(["head", "middle", "tail"] as ChainStep[]), "shrunk");
    // (then up to EXTRA_STEPS drawn ones: a chain's length is not known either)
    if (cheap) for (let extra = Math.floor(rng.next() * (EXTRA_STEPS + 1)); extra > 0; extra--) steps.push(rng.pick(MIDDLE_STEPS));
    // (drawn places through the run, some asks right after the one before)
    const drawn = Array.from({ length: steps.length + 1 }, place).sort((a, b) => a - b);
    const places = drawn.map((p, i) => (i > 0 && rng.next() < IN_A_ROW ? -1 : p));
    for (let i = 1; i < places.length; i++) if (places[i] === -1) places[i] = places[i - 1]!;
    const source = `${base.id}${CHAIN}${k}.0`;
    plan.inserts.push({ before: places[0]!, call: held({ ...base, ...withSlot(base, slot, first), id: source }) });
    const chain: Chain = { base: base.id, slot, ...(as || rows ? { held: rows ? "rows" : (holds as Exclude<typeof holds, "list" | "rows">) } : {}), asks: [] };
    let now = first;
    let beforeGrowth = first;
    // (twins placed after the chain's asks: an ask in a row with the one before has no twin between)
    const twins: ChainPlan["inserts"] = [];
    steps.forEach((step, j) => {
      if (step === "grown" || step === "sized") beforeGrowth = now;
      now = chainStep(rng, now, step, first, beforeGrowth);
      const i = j + 1;
      const id = `${base.id}${CHAIN}${k}.${i}`;
      const contents = withSlot(base, slot, now);
      plan.inserts.push({ before: places[i]!, call: held({ id, ...contents, inplace: source }) });
      // (the base call is the twin of its own contents, unless the chain holds them otherwise)
      const same = !as && !rows && given === drawnValue && JSON.stringify(now) === JSON.stringify(first);
      const twin = same ? base.id : `${base.id}${TWIN}${k}.${i}`;
      if (!same) twins.push({ before: place(), call: held({ id: twin, ...contents }) });
      chain.asks.push({ id, twin, step });
    });
    plan.inserts.push(...twins);
    plan.chains.push(chain);
  });
  return plan;
}

/** `calls` with `inserts` placed (each before the call at its index, in the order given), and where
 *  each old index went. */
export function spliceCalls<T>(calls: T[], inserts: { before: number; call: T }[]): { calls: T[]; at: (old: number) => number } {
  const byPlace = new Map<number, T[]>();
  for (const x of inserts) byPlace.set(x.before, [...(byPlace.get(x.before) ?? []), x.call]);
  const out: T[] = [];
  const moved: number[] = [];
  for (let i = 0; i <= calls.length; i++) {
    out.push(...(byPlace.get(i) ?? []));
    moved.push(out.length);
    if (i < calls.length) out.push(calls[i]!);
  }
  return { calls: out, at: (old) => moved[old]! };
}

/** The suffix of a twin asked again in a process of its own (cleanTwins; refills.ts too). */
export const CLEAN = "@clean";

/**
 * Every twin of a plan's chains (the base call's own contents as the chain's first call holds them)
 * for a run of its own: a fresh process, where no memo of the run's other calls exists (round 31's
 * w01 filed its stale answer under the refilled contents, so the twins in the run agreed with it).
 */
export function cleanTwins(plan: ChainPlan): BCall[] {
  const calls = new Map(plan.inserts.map((x) => [x.call.id, x.call]));
  const out = new Map<string, BCall>();
  plan.chains.forEach((chain, k) => {
    for (const { twin } of chain.asks) {
      const c = twin === chain.base ? calls.get(`${chain.base}${CHAIN}${k}.0`) : calls.get(twin);
      if (c && !out.has(twin)) out.set(twin, { ...c, id: `${twin}${CLEAN}` });
    }
  });
  return [...out.values()];
}

/**
 * The chains judged on a run's first outcomes (their calls removed from `outcomes`) and, where given,
 * the twins' answers in a process of their own (`clean`, by `<twin>@clean`, cleanTwins): the first
 * ask of each chain whose answer differs from its twin's in either (both returned or raised: a
 * timeout or an error is the machine's, not an answer), by base call id, with why.
 */
export function judgeChains(plan: ChainPlan, outcomes: Map<string, BOutcome>, compare: Partial<CompareOptions>, clean?: Map<string, BOutcome>): Map<string, string> {
  const misses = new Map<string, string>();
  const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
  for (const chain of plan.chains) {
    const where = `${chain.held ? HELD_WORDS[chain.held] : ""}at ${slotName(chain.slot)}`;
    chain.asks.forEach(({ id, twin, step }, j) => {
      if (misses.has(chain.base)) return;
      const got = outcomes.get(id);
      const here = answerDiffers(outcomes.get(twin), got, compare);
      const why = here ?? answerDiffers(clean?.get(`${twin}${CLEAN}`), got, compare);
      if (why) misses.set(chain.base, `elsewhere, asked with one argument object (${where}) refilled in place for the ${ordinal(j + 1)} time (${STEP_WHY[step]}), it answered otherwise than for a new object of the same contents ${here ? "in the same run" : "in a process of its own"} (that answer taken as the original's: ${why})`);
    });
  }
  for (const id of [...outcomes.keys()]) if (id.includes(CHAIN) || id.includes(TWIN)) outcomes.delete(id);
  return misses;
}
