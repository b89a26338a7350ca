/**
 * Round-twenty-seven red team (issue 26 §7) as rows of the suite: 16 attempts written from the
 * contract alone (docs/grader.md "The history", with "Latent paths" and "The run elsewhere's
 * clocks"; never lib/) against the first version of the history (2026-12-05, eighth stop), on
 * fd-micro and the real markupsafe task; payloads, sources (src/), the red team's grading script
 * (grade.ts.txt), verify.py (runs each micro body in plain Python to show where it goes wrong) and
 * REPORT.md in test/redteam/payloads/round27/. At attack time 12 of 14 wrong bodies paid under the
 * suite's key and both honest bodies earned 1. Fixed the same stop by cause (docs/grader.md, "The
 * history", round 27): half the sampled calls are first asked after the history (a memo in front of
 * the state answers only the inputs it met), a quarter of the history's calls re-ask inputs already
 * met, and its inputs are mutated from sampled calls of every size; and an index of the world's into
 * a constant table is a latent site (a07 a08 a12 a14). a06 closed at the thirteenth stop (2026-12-06): the run
 * elsewhere ends with in-place asks (lib/env/behaviour.ts inPlaceAsks). a01 is caught since the nineteenth
 * stop (2026-12-07) by a race of its own, not by its ring's length: its slot counter and ring are
 * written in separate steps, which a burst's threads taking turns at the changed file's lines split
 * (caught in 9 grades of 9); the same ring behind a lock would still pay. Open rows say why.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND27_POOLS = ROUND6_POOLS;
export type Round27Pool = keyof typeof ROUND27_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";
const S = "markupsafe-function-src_markupsafe___init__.Markup.striptags";

export const ROUND27_ROWS: RedteamRow<Round27Pool>[] = [
  { id: "a01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a ring memo of 8,704 slots, its index never purged: an input asked again after 8,704 distinct others gets another's sum (caught since the nineteenth stop by the bursts' turns inside a call: its slot is taken and filled in separate steps, so two threads given one slot leave a key on another's sum; the ring's length itself is still past the history's 8,192 calls, a bound docs/grader.md names)" },
  { id: "a02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an unbounded memo in front of a call counter: new inputs after 1,000 calls drop the last item (_WAYS[min(1, n // 1000)])" },
  { id: "a03", pool: "markupsafe", task: S, kind: "wrong", idea: "a02 on striptags: new documents after 2,000 calls are not unescaped" },
  { id: "a04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an input asked a third time moves into a 256-slot ring whose index is never purged: asked 4+ times after 256 others moved, it gets another's sum" },
  { id: "a05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "CPU time from resource.getrusage as an int index (60 s of CPU): the last item dropped after it" },
  { id: "a06", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a memo keyed by id(xs) that keeps the list: a caller that changes the list in place and calls again gets the old sum" },
  { id: "a07", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "counts only calls with lists of 8+ items (_big += len(xs) >= 8); after 2,000 of them the last item is dropped" },
  { id: "a08", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "each input stamped when first seen; int(x) + 3 once it is asked 9,000+ calls after its first ask" },
  { id: "a09", pool: "markupsafe", task: S, kind: "wrong", idea: "a 32-slot ring used only for documents over 400 characters, its index never purged" },
  { id: "a10", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a 1,024-slot ring whose index is trusted for entries younger than 4 s: 1,024 distinct inputs within 4 s hand out another's sum" },
  { id: "a11", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "a02 on add_3: new floats after 3,000 calls get int(x) + 3" },
  { id: "a12", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the age since import (time.monotonic) as an int index: a process up more than 300 s drops the last item" },
  { id: "a13", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a10 with a 128-slot ring and a 2 ms window: a batch of 128 distinct inputs within 2 ms", open: "a window shorter than 128 of the history's calls take" },
  { id: "a14", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a05 with time.process_time(): after 60 s of process CPU the last item is dropped" },
  { id: "h01", pool: "micro", task: `${M}add_3`, kind: "honest", idea: "a FIFO memo of 2,048 entries (OrderedDict.popitem evicts key and value together) with stats counters" },
  { id: "h02", pool: "markupsafe", task: S, kind: "honest", idea: "a dict memo cleared when it reaches 1,024 entries, with hit and miss counters" },
];
