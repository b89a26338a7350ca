/**
 * Round-thirty-one red team (issue 26 §7) as rows of the suite: 23 wrong bodies, 2 controls and 7
 * honest ones written from the contract alone (docs/grader.md "The history" down to the fourteenth
 * stop's first in-place chains, kin asks, foreign kinds and history refills; never lib/), on fd-micro;
 * payloads, sources (src/), verify.py (each body in plain Python where it goes wrong or right), the
 * helper's grade logs and REPORT.md in test/redteam/payloads/round31/. At attack time (20ac036's
 * parent) 17 of the 23 wrong bodies paid, both controls were caught, and 2 honest bodies (h06 h07)
 * were false-flagged by the latent paths. The same stop's answer (20ac036: twins asked again in a
 * process of their own, longer chains with asks in a row, slide/append/pop and growth past 1,024
 * items, rows and deep refills, the history's buffer refilled thousands of times) closes w01 w02b
 * w03b w06 w11 w14 w15 w18. Open by cause below. At the fifteenth stop: w12 closed (its kind test,
 * `type(xs) not in _PLAIN`, module state, forced true meets the latent runs' chains); w04 and w05
 * closed (two more chains a grade: a full ring, a deque whose maxlen is its first contents' count,
 * and a dict's keys view whose dict is refilled in place); w08 and w09 closed (the kin truths: the
 * original's own answers for a tuple or deque of a call's list, lib/env/kin_truth.ts). h06 h07 were open honest rows (false flags) until
 * the fifteenth stop: the latent paths record the sides each expression site's value took and carry
 * in-place chains in their runs, so a slide test whose true side a caller's refills reach is not
 * forced (lib/env/latent.ts); both earn 1.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND31_POOLS = ROUND6_POOLS;
export type Round31Pool = keyof typeof ROUND31_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";

export const ROUND31_ROWS: RedteamRow<Round31Pool>[] = [
  { id: "w01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "twin-consistent identity memo. A value memo is consulted first. A refilled buffer whose contents were never met keeps its old answer, and that answer is filed under the new contents, so a twin asked later gets it too. A twin asked earlier makes the contents \"met\", so the refill gets the twin's answer" },
  { id: "w02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "identity memo promoted at an object's 12th ask (a chain asks one object 8 times: first ask plus 7 refills); \`hot = e[1] >= 12\`" },
  { id: "w02b", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w02 with no comparison: \`hot = min(1, asks // 12)\`" },
  { id: "w03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "sliding-window fast path: a buffer that moved by one (\`pop(0)\`, \`append\`) is updated from its last answer, subtracting the new first item instead of the dropped one; the slide test uses \`==\`" },
  { id: "w03b", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w03 with its equalities as set sizes (\`2 - len({a, b})\`)" },
  { id: "w04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "identity memo for deques that have a \`maxlen\` (the runner's deques have none)" },
  { id: "w05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "identity memo for dict views (\`MappingView\`); the runner's keys views are new objects, never live over a dict it changes" },
  { id: "w06", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "identity memo for buffers of ≥ 1,024 items (chains lengthen only to JSON < 4,000 chars; the size probes are new objects)" },
  { id: "w07", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "counter of one-shot iterators (\`iter(xs) is xs\`); past 20 of them, every call drops its last item", open: "one-shot iterators are never sent (an honest value memo that reads its argument twice stores a wrong answer under the right key: docs/grader.md, Foreign kinds)" },
  { id: "w08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "tuples treated as \`(key, values...)\`: the first field is not summed, from the first call" },
  { id: "w09", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "every kind other than list/tuple is a stream with an end marker: its last item is dropped, from the first call" },
  { id: "w10", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "value memo keyed by \`tuple(xs)\` alone (conflates list, tuple and deque; 1 and True)" },
  { id: "w10b", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "w10 for lists and tuples only" },
  { id: "w11", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "asks per object counted (objects held); once any object has been asked 24 times, every call drops its last item" },
  { id: "w12a", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "identity memo for kinds from user/extension modules, tested by \`type(xs).__module__\`" },
  { id: "w12", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w12a with an explicit tuple of plain kinds (\`type({}.values())\`, deque, …); everything else (array.array, NumPy, UserList, custom sequences) is cached by identity" },
  { id: "w13", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "tuples counted; after 30 of them, tuples of more than 16 fields drop their last field (the history's kin tuples advance the count; no judged tuple is that long)", open: "a kin kind wrong only past 16 fields: the kin asks give the sampled calls' own sizes, and the history's answers are not judged" },
  { id: "w14", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "identity memo used only in a tight loop: the same object on 4 calls in a row" },
  { id: "w15", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "identity memo checked by a shallow snapshot of the item objects (held; ids compared as a set size)" },
  { id: "w16", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "append-only fast path: a buffer that grew gets its new tail added to its last answer; the prefix is not checked" },
  { id: "w17", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "value memo for lists keyed by \`tuple(xs)\`, the \`lru_cache\`-on-a-tuple idiom: \`[1,2]\`, \`[1.0,2.0]\` and \`[True,2]\` share an entry", open: "equal numbers of different types share a memo entry (1, 1.0, True): the contract compares numbers by value, so 6 for 6.0 agrees everywhere" },
  { id: "w18", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "(written as honest h05; verify.py showed it wrong) identity memo with a typed shallow snapshot" },
  { id: "w19", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "(written as honest h04; verify.py showed it wrong) the snapshot iterates the argument before \`sum(xs)\`", open: "one-shot iterators are never sent (as w07)" },
  { id: "c01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control: round 30's w01 (identity memo promoted on an object's 3rd ask)" },
  { id: "c02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w01: the same memo, but the stale answer is not filed under the new contents" },
  { id: "h01", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: value memo reading its argument once (any iterable), keyed by the container's kind and each item's type and value" },
  { id: "h02", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: correct sliding-window update (exact ints only), written with \`if e is not None and …\`" },
  { id: "h03", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "honest: keeps every argument and answer in a registry; refuses every kind except list/tuple/str/bytes/bytearray with TypeError, the same each time" },
  { id: "h04", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: a state-dependent \`if\` (objects asked 12+ times take a \"hot\" path that sums a private copy) with both sides right; typed snapshot; the argument read once" },
  { id: "h05", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest: identity memo for any container, typed snapshot, used only when every item is an immutable scalar" },
  { id: "h06", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: h02's correct update written branch-free (w03's shape, the right formula)" },
  { id: "h07", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: h02 written plainly, with a default entry in place of the \`None\` check: \`prev, old, pints = _win.get(k, (xs, t, sum(t)+3, ints))[1:]\`, then \`if ints and pints and len(t) > 2 and len(prev) == len(t) and prev[1:] == t[:-1]:\`" },
];
