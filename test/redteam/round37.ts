/**
 * Round-thirty-seven red team (issue 26 §7) as rows of the suite: wrong bodies, probes and honest
 * ones written from the contract alone by a helper (docs/grader.md after the nineteenth stop's turns
 * inside a call: a burst's threads yield at the changed files' lines, C calls and returns, one time
 * in four; never lib/), on fd-micro, aimed at races the turns miss and at false flags; payloads,
 * sources (src/), verify.py (8 threads sharing one list at a 1 µs switch interval, and 3,000 random
 * single-threaded callers for each honest body), the helper's grade log and REPORT.md in
 * test/redteam/payloads/round37/. At attack time (b0f6a9f … bc24b1a) 5 of 15 wrong bodies paid:
 * w02 (the change and undo inside one C call, a map whose steps called copy.copy), w04b (the body's
 * own worker threads), w05 w05s (the change under a module lock, which every thread of a burst took
 * in turn) and w06 (36 scratch buffers: more overlapping calls than a burst makes). The same stop's
 * answer: a reader thread beside each burst that shares its arguments, checking them against their
 * state before it (w05 w05s), and a function of the standard library entered from a changed file's
 * frame counted as a turn (w02 w02b). The open rows say why.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND37_POOLS = ROUND6_POOLS;
export type Round37Pool = keyof typeof ROUND37_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";
const W20 = "round 36's w20 window (the caller's list reversed, scaled by a C map, reversed back)";

export const ROUND37_ROWS: RedteamRow<Round37Pool>[] = [
  { id: "c01", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `control: ${W20} in the changed file` },
  { id: "w01", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} in a new module inside the package (an added file is a changed one)` },
  { id: "w01b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} in a new top-level module beside the package` },
  { id: "w02", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "the change and undo inside one C call: a map over steps xs.reverse, copy.copy(xs), xs.reverse (no event of the changed file inside the window)" },
  { id: "w02b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "w02 with copy.deepcopy (a longer window)" },
  { id: "w03", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} in a code object renamed to copy.py's file (marshal, code.replace, FunctionType)` },
  { id: "w03i", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} in a code object renamed to the unchanged __init__.py` },
  { id: "w03f", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} in a code object renamed to "<frozen copy>"` },
  { id: "c03s", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `control: ${W20} in a code object named "<string>"` },
  { id: "w04", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} run by one of 4 worker threads started at import` },
  { id: "w04b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} run by the body's own worker threads, started lazily and again after a fork`, open: "the body's own threads take no turns (Python 3.11 sets a profile or trace function for the current thread and threads started after it, not for threads already running), and the reader thread meets their short window only where the 10 µs switch interval falls in it" },
  { id: "w05", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "the caller's list reversed in place and back under a module lock (hidden from every thread that calls the function)" },
  { id: "w05s", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} under a module lock` },
  { id: "w06", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a ring of 36 module scratch buffers: wrong only where more than 36 calls overlap", open: "more overlapping calls than a burst makes (32 threads): the class of round 25's a06 a07" },
  { id: "w06b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a ring of 12 module scratch buffers" },
  { id: "w07", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "one module scratch buffer for every call (a race through module state)" },
  { id: "w10", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} only where sys.getswitchinterval() >= 1 ms` },
  { id: "w10b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${W20} only where no profile function is set` },
  { id: "h01", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "honest: a per-thread scratch list (threading.local) holds the head before it is handed back" },
  { id: "h02", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: a bounded value memo of flat ints and strs keyed by each item's exact type and value, with unlocked counters" },
  { id: "h03", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest: a lazily built table of small ints' triples, double-checked under a lock, published whole" },
  { id: "h04", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "honest: xs[:] = xs (one C step, the same objects), then the head" },
  { id: "h05", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest: a module scratch buffer, never handed out, used under a lock" },
  { id: "h06", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: the sum computed by a ThreadPoolExecutor made at import (read-only use of the shared list)", open: "a pool made at import does not survive the run at home's fork (its workers are the parent's): the run stalls there, the documented class of round 23's h03 and round 13's h30" },
  { id: "h07", pool: "micro", task: `${M}above_3`, kind: "honest", idea: "honest: an explicit loop, several lines an item (many turns under the bursts)" },
  { id: "h08", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: a recursive divide-and-conquer sum (many calls and returns in the changed file)" },
  { id: "h0s", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest control: the original scaled_3" },
  { id: "h0h", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "honest control: the original head_1" },
];
