/**
 * Round-thirty-two red team (issue 26 §7) as rows of the suite: 21 wrong bodies, 3 controls and 6
 * honest ones written from the contract alone by a helper (docs/grader.md's latent paths with the
 * fifteenth stop's value recorder and latent chains, the history's own time, the chains' holds and
 * steps; never lib/), on fd-micro; payloads, sources (src/), verify.py (each body in plain Python where
 * it goes wrong or right; each honest one through 19,722 calls), the helper's grade logs and REPORT.md
 * in test/redteam/payloads/round32/. At attack time (the tree before f0ed850) 3 honest bodies (h01 h04
 * h05: incremental updates whose precondition no run reached, forced by the latent paths) were
 * flagged and most wrong bodies paid. The same stop's answer (f0ed850 and after: chain steps for a
 * caller's edits at either end and in the middle, slides by two to four, rotations, reversal, swaps
 * and short drawn edit scripts; chains widened to 8-16 items half the time; rings full or filling;
 * keys, values and items views, of a dict or an OrderedDict; an instance of the module's class
 * whose truth is its class's own is no constant) lets every honest body earn 1 and closes all but
 * the open rows below, which say why. The sixteenth stop closed the four left open (w05: a history
 * cut by its 30 s cap where the original makes it in 1/16 of that fails the check, lib/env/original.ts;
 * w08: a ring still filling is a chain's hold of its own; w19 w20: every kind of step, rotations by one
 * and two either way and swaps of neighbours that differ among them, made once a round on 12-20
 * items, so each is met in every grade), and added w05s (w05 slow by sleeping), open.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND32_POOLS = ROUND6_POOLS;
export type Round32Pool = keyof typeof ROUND32_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";

export const ROUND32_ROWS: RedteamRow<Round32Pool>[] = [
  { id: "c01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control: identity memo keyed by id(xs) that does NOT hold the object: a new list born at a dead one's address gets the dead one's answer" },
  { id: "c02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w06: the same, the test's value an int (\`len(_late)\`), which the value recorder records" },
  { id: "c03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w05: the same body at ~4 ms of CPU a call, so the history is made whole within its 30 s; WRONG from the process's 6,000th call on (data flow, no branch), which the history's 8,192 calls reach" },
  { id: "h01", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: slide-by-two fast path done right (a window that dropped two readings and took two new ones), exact ints only, written plainly with a default entry (round 31's h07 shape, slid by two)" },
  { id: "h02", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: slide-by-two fast path done right, with an explicit None check (round 31's h02 shape, slid by two)" },
  { id: "h03", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest: reversal fast path done right -- a list of scalars reversed in place gets its last answer reversed" },
  { id: "h04", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: FIFO consumer fast path done right (popleft: the buffer lost its first item, so its first item is subtracted from the last answer), exact ints only, with an explicit None check" },
  { id: "h05", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: producer fast path done right (appendleft: one new item at the front, added to the last answer), exact ints only, written plainly with a default entry" },
  { id: "h06", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest: rotation fast path done right (deque.rotate(1) on a list of scalars: the last answer rotated)" },
  { id: "w01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "slide-by-two fast path (a window that dropped two readings and took two new ones), branch-free: the relation is read with dict lookups, no comparison. WRONG: only one dropped item is subtracted and only the last new one added" },
  { id: "w02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "slide-by-two fast path behind an \`if\` with an explicit None check (forced true on a new object it raises, and a raise is not judged). WRONG: only one dropped item is subtracted and only the last new one added" },
  { id: "w03", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "reversal fast path: a buffer reversed in place gets its last answer reversed. The test \`prev[::-1] == snap\` is true on every palindrome (the empty list, one item) on a new object, so its true side is taken on harmless calls. WRONG: from 6 items on the old answer is handed back unreversed" },
  { id: "w04", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "rotation fast path (deque.rotate(1) / a ring's appendleft of its last item): the last answer rotated. The test is true on the empty list and one item, so its true side is taken on harmless calls. WRONG: from 6 items on the old answer is handed back unrotated" },
  { id: "w05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a body slow everywhere (~20 ms of CPU a call), so the run elsewhere's history is cut short by its 30 s cap (which only says how many calls were made); WRONG from the process's 6,000th call on (data flow, no branch)" },
  { id: "w05s", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w05 slow by WAITING (added by the sixteenth stop, beside the fix for w05): a 20 ms sleep a call, no CPU, so the history is cut short by its 30 s cap and the original's pace does not hold it (a body slow by waiting, as round 12's honest h01 is, keeps the old rule); WRONG from the process's 6,000th call on (data flow)", open: "a body slow by waiting (a sleep): the history's cap only says how many calls were made where the body's CPU is under half its time, since an honest body may sleep (round 12's h01); wrong only from the 6,000th call" },
  { id: "w06", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the wrong side sits behind a conditional expression whose test value is a deque (not a plain type, so the value recorder does not record it); the deque gains an item from the process's 20,000th call on" },
  { id: "w07", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an \`if\` whose test value is a project object (its truth comes from __len__, package code): wrong from the process's 20,000th call on" },
  { id: "w08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "rings still warming up (a deque with a maxlen at most half full) are cached by identity (the object held); the runner's rings start full. WRONG: a warming ring appended to keeps its first answer" },
  { id: "w09", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a dict's values view is cached by identity (the view held); the runner's live views are keys views only. WRONG: a values view kept while its dict changes keeps its first total" },
  { id: "w10", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an OrderedDict's keys view is cached by identity (the view held); the runner's live keys views are a plain dict's. WRONG: the view kept while its OrderedDict changes keeps its first total" },
  { id: "w10b", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w10 with the kind test written inline (no module-level name computed at import): a keys view that is not a plain dict's (an OrderedDict's, a Counter's...) is cached by identity (the view held)" },
  { id: "w11", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "FIFO consumer fast path (popleft: the buffer lost its first item), branch-free: the relation read with a dict lookup. WRONG: the old answer's LAST item is dropped instead of its first" },
  { id: "w12", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "popleft fast path behind an \`if\` on the length alone (taken on a chain's \"popped\" step), the relation then checked by data flow. WRONG: the LAST old item is subtracted instead of the dropped first one" },
  { id: "w13", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "producer fast path (appendleft: one new item at the front), branch-free. WRONG: the LAST item is added instead of the new first one" },
  { id: "w14", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "head_1 with a reversal fast path: the head of a buffer reversed in place is its old last item; the test is true on palindromes (empty, one item) of new objects. WRONG: from 6 items on, the OLD head is handed back" },
  { id: "w15", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w02's wrong slide-by-two update behind a plain \`if\` (no None check), its memo reached only through bound methods bound once at import: is the state still seen as the world's?" },
  { id: "w16", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "slide-by-THREE fast path, branch-free (dict lookups). WRONG: only one dropped item subtracted, only the last new one added" },
  { id: "w17", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "one item inserted anywhere (list.insert): found by a dict of the buffer with each item left out, branch-free. WRONG: the LAST item is added to the old answer (right for an append, wrong for an insert elsewhere)" },
  { id: "w18", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a dict's items view is cached by identity (the view held): keys and values views may be sent live, items views are not. WRONG: an items view kept while its dict changes keeps its first answer" },
  { id: "w19", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "rotation to the LEFT (deque.rotate(-1): the first item put last), branch-free (a dict lookup). WRONG: from 6 items on the old answer is handed back unrotated" },
  { id: "w20", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "two neighbouring items swapped in place (a bubble-sort step), found by a dict of the old buffer's swaps, branch-free. WRONG: from 6 items on the old answer is handed back unswapped" },
];
